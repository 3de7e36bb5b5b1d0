"""Feeding the story decoder a frozen stretch of a trace on virtual time (its tests share these).

``choose`` is the computer's player when the decoder reads a game against the computer: it is
asked, after every wake, in each reading the decoder believes that has the computer to move.
"""

from __future__ import annotations

from collections.abc import Callable

from morris_pi.rules import POINTS, Game, Turn
from morris_pi.tracker.decoder import StoryDecoder

Choose = Callable[[Game], Turn]


def mask(*points: str) -> int:
    return sum(1 << POINTS.index(p) for p in points)


def wake(decoder: StoryDecoder, t: float, choose: Choose | None = None) -> None:
    decoder.tick(t)
    if choose is not None:
        for game in decoder.asking:
            decoder.prompt(choose(game), game)


def feed(decoder: StoryDecoder, events: list[tuple[float, tuple[str, ...]]], choose: Choose | None = None) -> None:
    """Readings of the switches (the points closed) at their times, each deadline met on the way."""
    for t, points in events:
        settle(decoder, t, choose)
        decoder.feed(mask(*points), t)
        wake(decoder, t, choose)


def settle(decoder: StoryDecoder, until: float, choose: Choose | None = None) -> None:
    """Every deadline the decoder names up to ``until``."""
    while decoder.next_deadline() <= until:
        wake(decoder, decoder.next_deadline(), choose)


def decoder_on(game: Game, since: float) -> tuple[StoryDecoder, set[str]]:
    """A decoder from ``game``'s position, its men on their switches as of ``since``, and the
    points closed (for ``replay_steps``)."""
    decoder = StoryDecoder(game)
    board = set(game.board)
    feed(decoder, [(since, tuple(board))])
    return decoder, board


def replay_steps(
    decoder: StoryDecoder, board: set[str], steps: list[tuple[float, str]], choose: Choose | None = None
) -> None:
    """A frozen stretch of a trace: "+p" and "-p" a switch's report, "scan" (with the one change
    only the scan showed, if any) a reading of every switch."""
    for t, step in steps:
        settle(decoder, t, choose)
        change = step.removeprefix("scan").strip()
        if change:
            (board.add if change[0] == "+" else board.discard)(change[1:])
        decoder.feed(mask(*board), t, full=step.startswith("scan"))
        wake(decoder, t, choose)


def record_after(game: Game, since: float, steps: list[tuple[float, str]], until: float) -> str:
    """The record a decoder on ``game`` has written by ``until``, fed a frozen stretch of a trace
    (``replay_steps``) whose men stood on their switches as of ``since``."""
    decoder, board = decoder_on(game, since)
    replay_steps(decoder, board, steps)
    settle(decoder, until)
    return decoder.record
