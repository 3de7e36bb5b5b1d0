"""A story's values: the chain of turns it tells, the flips each needs of the switches, the
board set to a position before them, and the priced pieces it is made of.

``flips_of`` lists what a chain needs of each point; ``scoring.Scorer`` prices a chain against
the evidence and returns its ``Story``; ``Part`` is one priced piece of it, as
``stories.explain`` lists them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from morris_pi.rules import Position, Turn
from morris_pi.rules.board import POINTS

from .evidence import Change

RawTurn = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class Flip:
    """A change a story needs: point ``point`` opens or closes for turn ``ply`` of the chain."""

    point: int
    closed: bool
    ply: int
    role: str  # "lift", "land" or "take"


@dataclass(frozen=True, slots=True)
class Part:
    """One priced piece of a story: a role, where it is, how long it lasted (``lo`` to ``hi``), its cost."""

    role: str
    where: str
    lo: float
    hi: float
    cost: float

    def __str__(self) -> str:
        span = f"{self.lo:.3f}s" if self.hi - self.lo < 1e-3 else f"{self.lo:.3f}-{self.hi:.3f}s"
        return f"{self.role} {self.where} {span}: {self.cost:.2f}"


@dataclass(frozen=True, slots=True)
class Story:
    """A chain of turns, the turn still in the hand, what it costs, and which change is which."""

    turns: tuple[RawTurn, ...]
    #: A turn begun and not finished: ``(origin, -1, -1)`` a man lifted, or a mill's step
    #: ``(origin, target, -1)`` whose removal is due.
    pending: RawTurn | None
    cost: float
    #: Per point (index), the indices of its changes that are the chain's flips, in order.
    matched: tuple[tuple[int, ...], ...] = field(repr=False)
    #: A man lifted from one point and set down astray on another after the story's turns, not
    #: yet taken up again: ``(origin, target)``; origin ``-1`` for the computer's man put down
    #: from its pile where the LEDs do not prompt it.
    stray: tuple[int, int] | None = None
    #: The board set to the base position before the first turn (``None``: it showed it).
    setting: Setting | None = None

    def __str__(self) -> str:
        words = [str(Turn.from_raw(t)) for t in self.turns]
        if self.setting is not None:
            words.insert(0, "(set)")
        if self.pending is not None:
            o, t, _ = self.pending
            words.append(f"({POINTS[o]}" + (f"-{POINTS[t]})" if t >= 0 else " lifted)") if o >= 0 else f"({POINTS[t]})")
        return " ".join(words)


@dataclass(frozen=True, slots=True)
class Setting:
    """The board set to the base position before any turn: each point of ``lifts`` emptied, each
    of ``lands`` filled, and a point in both has its man replaced by one of the other colour.

    A takeback by hand, a takeback by button, a new game and a resumed game all begin so. Its
    flips come before every turn's (ply -1) and no hand's timing is priced: putting a board
    right takes as long as it takes.

    >>> from morris_pi.rules import Game
    >>> game = Game.from_record("d6 a1")
    >>> before = Game.from_record("d6")
    >>> s = Setting.between(*game.position.men, before.position)
    >>> [POINTS[i] for i in range(24) if s.lifts >> i & 1], s.lands
    (['a1'], 0)
    """

    lifts: int
    lands: int
    #: Men known to be carried in the setting, ``(from, to)``: a takeback's moves undone. Each
    #: leaves before he lands, and his carry is priced as a move's is.
    carries: tuple[tuple[int, int], ...] = ()

    @classmethod
    def between(cls, white: int, black: int, target: Position) -> Setting:
        """From a board with men ``white`` and ``black`` to ``target``'s men."""
        tw, tb = target.men
        return cls((white & ~tw) | (black & ~tb), (tw & ~white) | (tb & ~black))

    @classmethod
    def showing(cls, occupied: int, target: Position) -> Setting:
        """From a board whose men's colours are not known, only where they stand (``occupied``):
        a man on a point where ``target`` has one is taken to be the right one."""
        black = occupied & target.men[1]
        return cls.between(occupied & ~black, black, target)

    def carrying(self, carries: Sequence[tuple[int, int]]) -> Setting:
        """This setting with ``carries`` (those it has the flips for)."""
        kept = tuple((a, b) for a, b in carries if self.lifts >> a & 1 and self.lands >> b & 1)
        return Setting(self.lifts, self.lands, kept)

    def flips(self) -> list[list[Flip]]:
        """Per point, the flips it needs (a lift before a landing)."""
        out: list[list[Flip]] = [[] for _ in POINTS]
        for i in range(len(POINTS)):
            if self.lifts >> i & 1:
                out[i].append(Flip(i, False, -1, "lift"))
            if self.lands >> i & 1:
                out[i].append(Flip(i, True, -1, "land"))
        return out


#: Per point, the flips a chain needs there.
Flips = tuple[tuple[Flip, ...], ...]


@lru_cache(maxsize=4096)
def flips_of(turns: tuple[RawTurn, ...], pending: RawTurn | None, setting: Setting | None = None) -> Flips:
    """Per point, the flips a chain needs, in chain order (the setting's first).

    A ranking asks for the same chains' flips many times (scoring, agreement, readiness), so
    they are remembered.

    >>> need = flips_of((Turn.parse("d6").to_raw(),), None)
    >>> [(POINTS[f.point], f.role) for flips in need for f in flips]
    [('d6', 'land')]
    """
    out: list[list[Flip]] = [[] for _ in POINTS] if setting is None else setting.flips()
    for ply, (o, t, r) in enumerate((*turns, *((pending,) if pending else ()))):
        if o >= 0:
            out[o].append(Flip(o, False, ply, "lift"))
        if t >= 0:
            out[t].append(Flip(t, True, ply, "land"))
        if r >= 0:
            out[r].append(Flip(r, False, ply, "take"))
    return tuple(tuple(flips) for flips in out)


#: When the setting's flips at one point, or at all, began (at the latest) and ended (at the earliest).
Span = tuple[float, float]


def setting_span(flips: Sequence[Flip], picked: tuple[int, ...], seq: tuple[Change, ...]) -> Span | None:
    """When the setting's flips among ``flips`` (matched with changes ``picked``) began and ended."""
    mine = [seq[j] for f, j in zip(flips, picked, strict=True) if f.ply < 0]
    if not mine:
        return None
    return min(c.t for c in mine), max(c.lo for c in mine)


def joined(spans: Iterable[Span | None]) -> Span | None:
    """One span over ``spans`` (the setting's flips at every point): its earliest beginning and
    latest end (``None``: no point had one)."""
    known = [span for span in spans if span is not None]
    if not known:
        return None
    return min(b for b, _ in known), max(e for _, e in known)
