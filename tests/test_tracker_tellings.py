"""A ranking told again while only time passes reads the board as a ranking anew would.

Most rankings come while a turn waits to be confirmed: the switches made the same changes as
at the ranking before. The decoder prices the stories it told then at the new time instead of
searching for them again (``stories.retell``, ``tellings``). These tests hold it to the answer
of a full reading, on a stretch of a game where time changes the answer and on frozen games
replayed both ways.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from morris_pi.rules import POINTS, Position
from morris_pi.traces import heldout
from morris_pi.tracker import decoder
from morris_pi.tracker.evidence import Change, Evidence, PointEvidence
from morris_pi.tracker.model import DEFAULT_MODEL
from morris_pi.tracker.scoring import Scorer
from morris_pi.tracker.stories import read_stories, retell
from morris_pi.tracker.story import Story

TRACES = Path(__file__).parent / "data" / "traces"

#: Lasker rules, black to move with five men each in hand, in the middle of a game between two
#: people (a generated game): white's man lands on d2 and black's on d6 went away and came back.
#: The reading "white placed on d2 taking f2's man" is not good at first, and becomes good a
#: moment later, when d2's closing is read as half of a man set down astray that pairs with
#: c5's opening (a man moved from c5 to d2 by mistake) rather than as a hand resting on d2.
MEN, HAND, SIDE, QUIET = (9506817, 543488), (5, 5), 1, 11
CHANGES = {
    "d1": [(22.172412, True), (22.292168, False)],
    "d6": [(18.389436, False), (19.093528, True)],
    "f6": [(19.685285, True)],
    "f2": [(21.035176, False)],
    "d2": [(22.379171, True)],
    "c5": [(20.570916, False)],
}
LANDED = {
    "a7": 16.900493,
    "b6": 14.38915,
    "d6": 11.553587,
    "f4": 11.739795,
    "f2": 2.112727,
    "b2": 3.446138,
    "c5": 9.988079,
    "e4": 8.045594,
    "e3": 7.63679,
    "c4": 13.268249,
}
SINCE = 16.900493


def position() -> Position:
    start = Position.start("lasker")
    return Position(start.tables, MEN, HAND, SIDE, QUIET)


def evidence(now: float) -> Evidence:
    occupied = MEN[0] | MEN[1]
    points = tuple(
        PointEvidence(
            bool(occupied >> i & 1),
            tuple(Change(t, t, closed) for t, closed in CHANGES.get(name, ())),
            LANDED.get(name, float("-inf")),
        )
        for i, name in enumerate(POINTS)
    )
    return Evidence(points, now, SINCE)


def told(stories: list[Story]) -> list[tuple[str, float, tuple[tuple[int, ...], ...]]]:
    return [(str(s), s.cost, s.matched) for s in stories]


def test_time_can_make_a_reading_good_that_was_not() -> None:
    base = position()
    then, later = read_stories(base, evidence(22.4)), read_stories(base, evidence(23.4))
    assert [str(s) for s in then] == ["f6xc5 f2-d2", "f6xc5 (f2 lifted)"]
    assert [str(s) for s in later] == ["f6xc5 f2-d2", "f6xf2"]
    assert then[0].cost == later[0].cost  # the cheapest costs the same: the other became good


def test_a_ranking_is_not_told_again_once_an_excursion_is_read_otherwise() -> None:
    base = position()
    then = read_stories(base, evidence(22.4))
    unfinished = Scorer(evidence(22.4), DEFAULT_MODEL).unfinished()
    assert Scorer(evidence(23.4), DEFAULT_MODEL).unfinished() != unfinished
    assert retell(base, evidence(23.4), then, unfinished) is None


@settings(max_examples=60, deadline=None)
@given(st.floats(22.4, 40.0), st.floats(0.0, 20.0))
def test_a_ranking_told_again_later_is_the_reading_anew_or_none(then_at: float, wait: float) -> None:
    base = position()
    later = then_at + wait
    then = read_stories(base, evidence(then_at))
    unfinished = Scorer(evidence(then_at), DEFAULT_MODEL).unfinished()
    again = retell(base, evidence(later), then, unfinished)
    if again is not None:
        assert told(again) == told(read_stories(base, evidence(later)))


def rows(name: str, *, tellings: bool, monkeypatch: pytest.MonkeyPatch) -> tuple[list[dict[str, object]], int]:
    """The replay's rows, and how many tellings were told again."""
    again = 0

    def counted(*args: object, **kwargs: object) -> object:
        nonlocal again
        stories = retell(*args, **kwargs)  # type: ignore[arg-type]
        again += stories is not None
        return stories

    with monkeypatch.context() as patch:
        patch.setattr(decoder, "retell", counted if tellings else lambda *args, **kwargs: None)
        lines = (TRACES / f"{name}.jsonl").read_text().splitlines()
        code, out, err = heldout.replay_rows(lines, "morris_pi.tracker.story_tracker:StoryTracker")
    assert code == 0, err
    return out, again


@pytest.mark.parametrize(
    "name",
    [
        "tracing-standard-two-player-0",
        "tracing-lasker-computer-black-5",
        "tracing-twelve-computer-white-7",
        "takeback-standard-two-player-0",
        "soak-a-landing-only-a-scan-showed-counts-though-the-next-turn-lifts",
        "story-two-readings-that-meet-are-written-though-one-was-doubted-a-moment-ago",
    ],
)
def test_a_game_replays_line_for_line_alike_with_rankings_told_again(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    told_again, times = rows(name, tellings=True, monkeypatch=monkeypatch)
    anew, _ = rows(name, tellings=False, monkeypatch=monkeypatch)
    assert times > 0
    assert json.dumps(told_again) == json.dumps(anew)
