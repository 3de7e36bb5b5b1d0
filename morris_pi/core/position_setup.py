"""Setting up a position on the board before its game starts: the white men first, then the black.

The switches tell only whether a point holds a man, never his colour, so the
order is the guide: while white men are missing, the LEDs light where they go
(``setup-white``); once every white man stands, they light where the black men
go (``setup-black``). A man put anywhere else is refused as ``extra`` ("take it
off"); a man taken off a point already filled is ``missing`` again. A man put on
a black point while white men are still missing is refused too: it would be
taken for a white man.

The phase is over (``done``) once the board shows exactly the position and every
point of it has held for ``hold_s`` (a slid magnet never finishes it), even if the
men were put down in another order: the order guides, the position is checked. The
controller then starts the game from that position, its tracker in step with
the board.

Like the set-up menu it is pure: readings come in with their time, the frame of
roles goes out.

>>> from morris_pi.rules import Game
>>> setup = PositionSetup(Game.from_record("d6 a1 f6"), hold_s=0.2)
>>> setup.update(frozenset(), 0.0); setup.next_side, setup.frame().points
('white', {'d6': 'setup-white', 'f6': 'setup-white'})
>>> setup.update({"d6", "f6"}, 1.0); setup.update({"d6", "f6"}, 1.2); setup.frame().points
{'a1': 'setup-black'}
>>> setup.update({"d6", "f6", "a1"}, 2.0); setup.done, setup.next_wakeup()
(False, 2.2)
>>> setup.update({"d6", "f6", "a1"}, 2.2); setup.done
True
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from morris_pi.guidance import Frame
from morris_pi.rules import SIDES, Game, Side
from morris_pi.rules.board import INDEX
from morris_pi.rules.fen import to_fen
from morris_pi.rules.position import tables_for
from morris_pi.tracker.reconcile import Problem

#: Seconds a man must stand before he counts as placed (the tracker's firm time).
DEFAULT_HOLD_S = 0.2
#: Time sums such as 1.0 + 0.2 are not exact in floating point.
_EPS = 1e-9


class PositionSetup:
    """The men to put on the board for ``game``'s position, and which of them stand."""

    def __init__(self, game: Game, *, hold_s: float = DEFAULT_HOLD_S) -> None:
        if not hold_s >= 0:
            raise ValueError(f"hold must be a number of seconds >= 0, got {hold_s!r}")
        self.game = game
        self.hold_s = float(hold_s)
        board = game.board
        #: Where each side's men go, in board order.
        self.targets: dict[Side, tuple[str, ...]] = {
            side: tuple(sorted((p for p, s in board.items() if s == side), key=INDEX.__getitem__)) for side in SIDES
        }
        self._raw: frozenset[str] = frozenset()
        self._since: dict[str, float] = {}  # point -> when its switch last changed
        self._now = -math.inf
        self._white_done = False
        #: Bumped whenever the frame changes.
        self.version = 0
        self._frame: Frame | None = None

    # -- inputs -----------------------------------------------------------------------

    def update(self, occupancy: Iterable[str], now: float) -> None:
        """A raw reading of the switches at time ``now``."""
        raw = frozenset(occupancy)
        before = self.frame()  # the frame of the reading before this one
        for point in raw ^ self._raw:
            self._since[point] = now
        self._raw = raw
        self._now = max(self._now, now)
        self._frame = None
        if not self._white_done and raw == set(self.targets["white"]) and self._all_firm(self.targets["white"]):
            # every white man stands and no other: from now on a man put down is black (once done,
            # a white man lifted again is shown missing, and whatever is put back there is him)
            self._white_done = True
        self._frame = None
        if self.frame() != before:
            self.version += 1

    # -- outputs ----------------------------------------------------------------------

    @property
    def next_side(self) -> Side | None:
        """Whose men are being put on now (``None`` once the board shows the position)."""
        if not self._white_done:
            return "white"
        if set(self.targets["black"]) - self._raw:
            return "black"
        return None

    @property
    def wanted(self) -> frozenset[str]:
        """Every point that holds a man in the position."""
        return frozenset(self.targets["white"]) | frozenset(self.targets["black"])

    @property
    def done(self) -> bool:
        """Whether the board shows the position and every man of it has held ``hold_s``.

        The whole position standing at once counts too, in whatever order it was put down (the
        switches cannot tell: a board set up before, the simulator's set-up button): the order
        guides the hands, the position is what is checked.
        """
        return self._raw == self.wanted and self._all_firm(self.wanted)

    def next_wakeup(self) -> float | None:
        """When a man put down will have stood long enough to count (``None``: nothing to wait for)."""
        times = [
            since + self.hold_s
            for p, since in self._since.items()
            if p in self._raw and since + self.hold_s > self._now
        ]
        return min(times) if times else None

    def frame(self) -> Frame:
        """The roles of the lit points: where the next men go, and the corrections."""
        if self._frame is not None:
            return self._frame
        points: dict[str, str] = {}
        white, black = set(self.targets["white"]), set(self.targets["black"])
        allowed = white | black if self._white_done else white
        for point in sorted(self._raw - allowed, key=INDEX.__getitem__):
            points[point] = "extra"
        if self._white_done:
            for point in sorted(white - self._raw, key=INDEX.__getitem__):
                points[point] = "missing"
            for point in sorted(black - self._raw, key=INDEX.__getitem__):
                points[point] = "setup-black"
        else:
            for point in sorted(white - self._raw, key=INDEX.__getitem__):
                points[point] = "setup-white"
        status: dict[str, str] = {}
        side = self.next_side
        if side is not None:
            status[f"{side}-to-move"] = f"setup-{side}"
        if any(role in ("extra", "missing") for role in points.values()):
            status["error"] = "error"
        self._frame = Frame(dict(sorted(points.items(), key=lambda kv: INDEX[kv[0]])), status)
        return self._frame

    def problems(self) -> tuple[Problem, ...]:
        """The corrections the frame shows, in the tracker's words ("take the man off a1").

        >>> setup = PositionSetup(Game.from_record("d6 a1")); setup.update({"a1"}, 0.0)
        >>> [p.text for p in setup.problems()]
        ['take the man off a1']
        """
        roles = self.frame().points
        return tuple(
            Problem(point, "extra" if role == "extra" else "missing")
            for point, role in roles.items()
            if role in ("extra", "missing")
        )

    def to_dict(self) -> dict[str, Any]:
        """What the page shows: the FEN, where each colour goes, which stand, and whose men come next.

        >>> PositionSetup(Game.from_record("d6 a1")).to_dict()["white"]
        ['d6']
        """
        return {
            "fen": self.game.fen,
            "white": list(self.targets["white"]),
            "black": list(self.targets["black"]),
            "standing": sorted(self._raw & self.wanted, key=INDEX.__getitem__),
            "next": self.next_side,
        }

    # -- inside -----------------------------------------------------------------------

    def _firm_set(self, points: Iterable[str]) -> set[str]:
        return {p for p in points if p in self._raw and self._now - self._since.get(p, -math.inf) >= self.hold_s - _EPS}

    def _all_firm(self, points: tuple[str, ...] | frozenset[str]) -> bool:
        return len(self._firm_set(points)) == len(points)


def start_fen(game: Game) -> str | None:
    """The FEN of the position ``game`` started from, or ``None`` when it started from the empty board.

    >>> start_fen(Game.from_record("d6 a1")) is None
    True
    >>> game = Game.from_fen("********/OO******/*****@@* w p p 2 7 2 7 0 0 0 0 0 0 0 0 3"); _ = game.play("b6")
    >>> start_fen(game)
    '********/OO******/*****@@* w p p 2 7 2 7 0 0 0 0 0 0 0 0 3'
    """
    first = game.positions[0]
    if first == tables_for(game.profile).start and not game.first_ply:
        return None
    return to_fen(Game.from_position(first, first_ply=game.first_ply))


def game_from(start: str | None, record: str | list[str], profile: str) -> Game:
    """The game after ``record``, played from the FEN ``start`` (``None``: the empty board).

    >>> game_from("********/OO******/*****@@* w p p 2 7 2 7 0 0 0 0 0 0 0 0 3", "b6xa1", "standard").board["b6"]
    'white'
    """
    if start is None:
        return Game.from_record(record, profile)
    game = Game.from_fen(start, profile)
    turns = record.split() if isinstance(record, str) else list(record)
    if turns:
        game.play_record(turns, after=" after the start FEN")
    return game
