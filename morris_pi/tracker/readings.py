"""The answer of a reading and the small helpers every reading uses.

``Reading`` is what ``reconcile.read_board`` answers, ``Problem`` a point that
disagrees with the game, ``Changes`` what the sensors saw since the position a
reading starts from. ``board_mask`` and ``allowed_turns`` give the board and the
turns the game expects; ``after_turn`` and ``_partial`` a turn applied to a mask, whole
or part-way.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from morris_pi.rules import Game, Side, Turn
from morris_pi.rules.board import FULL, INDEX, POINTS, bits

RawTurn = tuple[int, int, int]
#: What a reading found; the module text says what each means.
ReadingKind = Literal["match", "turns", "progress", "takeback", "problems"]
KINDS: tuple[ReadingKind, ...] = get_args(ReadingKind)
#: How a point disagrees with the game (``protected``: a man that may not be taken was lifted).
ProblemKind = Literal["missing", "extra", "protected"]

_TEXTS = {
    "missing": "put a man back on {point}",
    "extra": "take the man off {point}",
    "protected": "this man may not be taken: put it back on {point}",
}


@dataclass(frozen=True)
class Changes:
    """What the sensors saw since the position a reading starts from.

    ``once``: points whose (settled) state changed at least once; ``twice``:
    at least twice; ``unsteady``: points whose settled state already differs
    from the firm one the reading is made from (changing back right now). A
    reading may not change an unsteady point: it waits until the point is firm.
    ``flicker``: points whose raw switch differs from the firm state, too recently
    to have settled; a reading may not change them twice (a nudge coming back).
    The default sees everything: occupancy alone decides.

    >>> from morris_pi.rules.board import mask_of
    >>> seen = Changes(once=mask_of(["a1", "a4"]), twice=0)
    >>> seen.show(mask_of(["a1", "a4"])), seen.show(mask_of(["a1", "d1"]))
    (True, False)
    >>> seen.show(mask_of(["a1"]), mask_of(["a1"]))  # a1 emptied and refilled: it changed only once
    False
    """

    once: int = FULL
    twice: int = FULL
    unsteady: int = 0
    flicker: int = 0

    def show(self, once: int, twice: int = 0) -> bool:
        """Whether every point in ``once`` changed (and is steady), and every point in ``twice`` changed twice."""
        return not (once & ~self.once or twice & ~self.twice or once & self.unsteady or twice & self.flicker)

    def chain(self, first: int, second: int = 0) -> bool:
        """Whether a chain that flips the points ``first`` and then the points ``second`` is backed."""
        return self.show(first | second, first & second)


ANYTHING = Changes()


@dataclass(frozen=True)
class Problem:
    """A point that disagrees with the game, and how to fix it.

    ``kind`` is ``missing`` (a man should be here), ``extra`` (no man should be here) or
    ``protected`` (a man that may not be taken was lifted during a removal: put it back).

    >>> str(Problem("c4", "missing"))
    'put a man back on c4'
    >>> Problem("f2", "extra").to_dict()
    {'point': 'f2', 'kind': 'extra', 'text': 'take the man off f2'}
    """

    point: str
    kind: ProblemKind

    @property
    def text(self) -> str:
        return _TEXTS[self.kind].format(point=self.point)

    def to_dict(self) -> dict[str, str]:
        return {"point": self.point, "kind": self.kind, "text": self.text}

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Reading:
    """The answer of ``read_board``; see the module text for the kinds."""

    kind: ReadingKind
    turns: tuple[Turn, ...] = ()
    back: int = 0
    problems: tuple[Problem, ...] = ()


MATCH = Reading("match")
PROGRESS = Reading("progress")


def board_mask(game: Game) -> int:
    """The points that should hold a man now (a pending step applied)."""
    pos = game.position
    mask = pos.men[0] | pos.men[1]
    pending = game.pending
    if pending is not None:
        if pending.origin:
            mask &= ~(1 << INDEX[pending.origin])
        mask |= 1 << INDEX[pending.target]
    return mask


def diff_problems(expected: int, occupied: int) -> tuple[Problem, ...]:
    """Every disagreeing point in board order, missing men and extra men alike."""
    return tuple(Problem(POINTS[i], "missing" if expected >> i & 1 else "extra") for i in bits(expected ^ occupied))


def allowed_turns(game: Game, prompt: Turn | None = None, computer: Side | None = None) -> list[RawTurn]:
    """Raw turns the board may show now: the prompt on the computer's turn, else every legal turn."""
    if game.outcome is not None:
        return []
    if computer is not None and game.turn == computer:
        return [prompt.to_raw()] if prompt is not None else []
    raws = game.position.turns()
    pending = game.pending
    if pending is not None:
        o = INDEX[pending.origin] if pending.origin else -1
        t = INDEX[pending.target]
        raws = [r for r in raws if r[0] == o and r[1] == t]
    return raws


def after_turn(mask: int, raw: RawTurn) -> int:
    """The occupancy ``mask`` shows once the turn ``raw`` is made (a turn begun: a man lifted,
    with no target yet, leaves his point empty).

    >>> a1, d7 = INDEX["a1"], INDEX["d7"]
    >>> after_turn(1 << a1, (a1, d7, -1)) == 1 << d7, after_turn(1 << a1, (a1, -1, -1))
    (True, 0)
    """
    o, t, r = raw
    if o >= 0:
        mask &= ~(1 << o)
    if t >= 0:
        mask |= 1 << t
    if r >= 0:
        mask &= ~(1 << r)
    return mask


def _partial(before: int, occupied: int, raw: RawTurn, step_done: bool = False) -> bool:
    """Whether ``occupied`` lies part-way from ``before`` through the turn ``raw``.

    Men may already be gone from the turn's origin and removal; its target may
    be filled only once its origin is empty (the man came from there).
    """
    o, t, r = raw
    vacate = (1 << r) if r >= 0 else 0
    fill = 0
    if not step_done:
        if o >= 0:
            vacate |= 1 << o
        fill = 1 << t
    missing = before & ~occupied
    extra = occupied & ~before
    if missing & ~vacate or extra & ~fill:
        return False
    return not (extra and o >= 0 and not missing >> o & 1)
