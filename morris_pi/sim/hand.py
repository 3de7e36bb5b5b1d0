"""The physical side of the simulated board: men, trays and a hand that moves them.

Pure state, no pygame: the window turns mouse gestures into these calls, and
scripts (tests, ``hwtest --sim``) call them directly. The only thing the
controller ever learns from it is ``closed(now)``: the set of reed switches
that see a magnet, exactly what the real board's sensors report. Colour is
kept only so the window can paint each man as the player picked it up.

>>> hand = Hand(men=9)
>>> hand.take("hand", "white"); hand.put("d6")
True
>>> sorted(hand.closed(0.0)), hand.in_hand["white"]
(['d6'], 8)
>>> hand.take("point", "d6"); hand.held.colour, sorted(hand.closed(0.0))
('white', [])
>>> hand.drop_off(); hand.removed["white"]
1
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from morris_pi.errors import MorrisPiError
from morris_pi.rules import POINTS

SIDES = ("white", "black")

#: How long a switch stays closed when a magnet is slid straight across its
#: point (the physical range is 20-150 ms).
SLIDE_PASS_SECONDS = 0.06


class HandError(MorrisPiError, ValueError):
    """A hand movement that the physical board cannot do (names the point or tray)."""


@dataclass
class Held:
    """The man in the hand: its colour and where it was taken from.

    ``source`` is ``("point", "d6")``, ``("hand", "white")`` or ``("removed", "black")``.
    """

    colour: str
    source: tuple[str, str]


class Hand:
    """Men on the 24 points, in the two hand trays, in the two removed trays, or held."""

    def __init__(self, men: int = 9) -> None:
        self._empty(men)

    def _empty(self, men: int) -> None:
        self.men = men
        self.board: dict[str, str] = {}
        self.in_hand: dict[str, int] = {side: men for side in SIDES}
        self.removed: dict[str, int] = {side: 0 for side in SIDES}
        self.held: Held | None = None
        #: The empty point a slid man is over right now (its switch is closed).
        self.over: str | None = None
        #: Points a slid man crossed between two positions: point -> time the switch opens.
        self.passing: dict[str, float] = {}

    # -- what the sensors see -------------------------------------------------------------

    def closed(self, now: float) -> frozenset[str]:
        """The switches closed at time ``now``: men standing plus magnets sliding past."""
        closed = set(self.board)
        if self.over:
            closed.add(self.over)
        closed.update(p for p, until in self.passing.items() if until > now)
        return frozenset(closed)

    def next_change(self, now: float) -> float | None:
        """When a passing magnet's switch opens again, if any is still closed."""
        pending = [until for until in self.passing.values() if until > now]
        return min(pending) if pending else None

    def expire(self, now: float) -> None:
        """Forget switches that a passing magnet has already left."""
        self.passing = {p: until for p, until in self.passing.items() if until > now}

    # -- gestures ---------------------------------------------------------------------------

    def take(self, kind: str, where: str) -> None:
        """Pick up a man: from a point, or from a side's hand or removed tray."""
        if self.held:
            raise HandError(f"the hand already holds a {self.held.colour} man")
        if kind == "point":
            _check_point(where)
            if where not in self.board:
                raise HandError(f"no man stands on {where}")
            self.held = Held(self.board.pop(where), ("point", where))
            return
        tray = self._tray(kind, where)
        if tray[where] <= 0:
            raise HandError(f"the {where} {kind} tray is empty")
        tray[where] -= 1
        self.held = Held(where, (kind, where))

    def put(self, point: str) -> bool:
        """Put the held man down on ``point``; on an occupied point it goes back where it came from.

        Returns whether it now stands on ``point``.
        """
        held = self._holding()
        _check_point(point)
        self._end_slide()
        if point in self.board:
            self._return(held)
            return False
        self.board[point] = held.colour
        self.held = None
        return True

    def drop_off(self, tray: tuple[str, str] | None = None) -> None:
        """Let go of the held man off the board.

        Over a tray of its own colour it goes into that tray. A man taken from a
        point goes to its colour's removed tray; a man taken from a tray goes back.
        """
        held = self._holding()
        self._end_slide()
        if tray and tray[1] == held.colour and tray[0] in ("hand", "removed"):
            self._tray(*tray)[held.colour] += 1
        elif held.source[0] == "point":
            self.removed[held.colour] += 1
        else:
            self._tray(*held.source)[held.colour] += 1
        self.held = None

    def cancel(self) -> None:
        """Put the held man back where it was taken from."""
        self._end_slide()
        self._return(self._holding())

    def slide(self, passed: Iterable[str], over: str | None, now: float) -> None:
        """The held man slides across ``passed`` points and now rests over ``over`` (or none).

        Each empty point crossed closes its switch briefly; the empty point the
        man is over stays closed until the man moves on.
        """
        self._holding()
        passed = list(passed)
        if self.over and self.over != over:
            passed.append(self.over)
        for point in passed:
            if point != over and point not in self.board:
                self.passing[point] = max(self.passing.get(point, 0.0), now + SLIDE_PASS_SECONDS)
        self.over = over if over is not None and over not in self.board else None

    def lift_off(self) -> None:
        """Raise the held man off the board surface: no switch sees it any more."""
        self.over = None

    def sweep(self) -> None:
        """Clear the board: every man back into its colour's hand tray, as before a new game."""
        if self.held:
            self.cancel()
        for colour in self.board.values():
            self.in_hand[colour] += 1
        for side in SIDES:
            self.in_hand[side] += self.removed[side]
            self.removed[side] = 0
        self.board.clear()
        self.passing.clear()
        self.over = None

    def set_up(self, board: Mapping[str, str], in_hand: Mapping[str, int]) -> None:
        """Stand the men as ``board`` has them, ``in_hand`` in the hand trays, the rest removed.

        >>> hand = Hand(men=9); hand.set_up({"d6": "white", "a1": "black"}, {"white": 7, "black": 7})
        >>> hand.board, hand.in_hand, hand.removed
        ({'d6': 'white', 'a1': 'black'}, {'white': 7, 'black': 7}, {'white': 1, 'black': 1})
        """
        for point, colour in board.items():
            _check_point(point)
            if colour not in SIDES:
                raise HandError(f"the man on {point} is {colour!r}: 'white' or 'black'")
        removed = {}
        for side in SIDES:
            left = self.men - in_hand[side] - sum(1 for c in board.values() if c == side)
            if left < 0:
                raise HandError(f"{side} has only {self.men} men: {in_hand[side]} in hand and more on the board")
            removed[side] = left
        self._empty(self.men)
        self.board = dict(board)
        self.in_hand = {side: in_hand[side] for side in SIDES}
        self.removed = removed

    def reset(self, men: int) -> None:
        """Empty board and full trays of ``men`` each (a new set of men)."""
        self._empty(men)

    # -- scripted hand ------------------------------------------------------------------

    def place(self, point: str, colour: str) -> None:
        """Take a man of ``colour`` from its hand tray (else its removed tray) and put it on ``point``."""
        _check_point(point)
        kind = "hand" if self.in_hand.get(colour, 0) > 0 else "removed"
        self.take(kind, colour)
        if not self.put(point):
            raise HandError(f"{point} is occupied; the {colour} man went back to its tray")

    def move(self, origin: str, target: str) -> None:
        """Lift the man on ``origin`` and put it on ``target``."""
        _check_point(target)
        self.take("point", origin)
        if not self.put(target):
            raise HandError(f"{target} is occupied; the man went back to {origin}")

    def remove(self, point: str) -> None:
        """Take the man on ``point`` off the board into its colour's removed tray."""
        self.take("point", point)
        self.drop_off()

    # -- helpers ------------------------------------------------------------------------

    def _holding(self) -> Held:
        if not self.held:
            raise HandError("the hand holds no man")
        return self.held

    def _tray(self, kind: str, side: str) -> dict[str, int]:
        if side not in SIDES:
            raise HandError(f"unknown side {side!r}: 'white' or 'black'")
        if kind == "hand":
            return self.in_hand
        if kind == "removed":
            return self.removed
        raise HandError(f"unknown place {kind!r}: 'point', 'hand' or 'removed'")

    def _return(self, held: Held) -> None:
        kind, where = held.source
        if kind == "point" and where not in self.board:
            self.board[where] = held.colour
        elif kind == "point":
            self.removed[held.colour] += 1
        else:
            self._tray(kind, where)[held.colour] += 1
        self.held = None

    def _end_slide(self) -> None:
        self.over = None


def _check_point(point: str) -> None:
    if point not in POINTS:
        raise HandError(f"unknown point {point!r}")
