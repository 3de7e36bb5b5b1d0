"""Hands on the board: turns carried out as magnets over points, with the mess people make.

``Hands`` knows where every man stands (what the switches would show once
settled), the trays beside the board, and the time. Each method moves the
clock on and writes real contact changes into ``Contacts``; the switch layer
adds bounce and losses later.

Times, in seconds: a man is in the air 0.25-1.2 s for a move; a removal
follows its mill after 0.4-1.8 s; a magnet slid over a point closes it for
20-150 ms; a nudged man is off its switch for 30-150 ms, a knocked one lies
between points 0.4-2.5 s.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from morris_pi.rules import POINTS, Game, Turn, coordinates, get_profile

from .switches import Contacts


def _between(a: str, b: str) -> list[str]:
    """Points strictly between ``a`` and ``b`` on the straight segment joining them, from ``a``.

    >>> _between("a1", "a7"), _between("a1", "a4")
    (['a4'], [])
    """
    (ax, ay), (bx, by) = coordinates(a), coordinates(b)
    out = []
    for p in POINTS:
        if p in (a, b):
            continue
        px, py = coordinates(p)
        cross = (bx - ax) * (py - ay) - (by - ay) * (px - ax)
        if cross == 0 and min(ax, bx) <= px <= max(ax, bx) and min(ay, by) <= py <= max(ay, by):
            out.append(p)
    return sorted(out, key=lambda p: abs(coordinates(p)[0] - ax) + abs(coordinates(p)[1] - ay))


class Hands:
    """The people at one board: where the men are, the trays, the clock, and the mess."""

    def __init__(
        self, profile: str, contacts: Contacts, rng: random.Random, mess: dict[str, float], counts: Counter[str]
    ) -> None:
        self.profile = profile
        self.contacts = contacts
        self.rng = rng
        self.mess = mess
        self.counts = counts
        self.men: dict[str, str] = {}  # point -> colour, as a person would see the board
        self.removed: Counter[str] = Counter()  # the trays of removed men
        self.t = 0.0
        #: Turns made and taken back by hand, each with how many turns of the game came before it.
        self.taken_back: list[tuple[int, Turn]] = []

    # -- chance -------------------------------------------------------------------------

    def chance(self, kind: str) -> bool:
        p = self.mess.get(kind, 0.0)
        return p > 0 and self.rng.random() < p

    def wait(self, lo: float, hi: float) -> float:
        self.t += self.rng.uniform(lo, hi)
        return self.t

    # -- single contacts ----------------------------------------------------------------

    def lift(self, point: str) -> str:
        colour = self.men.pop(point)
        self.contacts.open(self.t, point)
        return colour

    def touch(self, point: str) -> None:
        """A magnet passes over an empty point: closed for 20-150 ms."""
        self.contacts.close(self.t, point)
        self.wait(0.02, 0.15)
        self.contacts.open(self.t, point)

    def land(self, point: str, colour: str, path: Sequence[str] = (), plain: bool = False) -> None:
        """Set a man down on ``point``, coming over ``path`` (points it would pass on the way)."""
        if not plain:
            passing = [p for p in path if p not in self.men]
            # Men on the path are lifted over; only the empty stretch after the last of them is slid across.
            blocked = [i for i, p in enumerate(path) if p in self.men]
            if blocked:
                passing = list(path[blocked[-1] + 1 :])
            if passing and self.chance("slide"):
                self.counts["slide"] += 1
                for p in passing:
                    self.touch(p)
                    self.wait(0.01, 0.06)
            if self.chance("hover"):
                self.counts["hover"] += 1
                self.touch(point)
                self.wait(0.05, 0.25)
            if self.chance("off_centre"):
                self.counts["off_centre"] += 1
                self.wait(0.3, 1.2)  # resting between points: no switch closed
                for _ in range(self.rng.randint(1, 3)):
                    self.contacts.close(self.t, point)
                    self.wait(0.005, 0.04)
                    self.contacts.open(self.t, point)
                    self.wait(0.005, 0.03)
        self.contacts.close(self.t, point)
        self.men[point] = colour

    def put_back(self, point: str, colour: str) -> None:
        """A man lifted a moment ago goes straight back where it stood."""
        self.contacts.close(self.t, point)
        self.men[point] = colour

    # -- whole actions ------------------------------------------------------------------

    def entry_path(self, colour: str, target: str) -> list[str]:
        """Points a man from the tray would be slid across: white sits at rank 1, black at rank 7."""
        x, y = coordinates(target)
        on_file = [p for p in POINTS if coordinates(p)[0] == x and p != target]
        if colour == "white":
            path = sorted((p for p in on_file if coordinates(p)[1] < y), key=lambda p: coordinates(p)[1])
        else:
            path = sorted((p for p in on_file if coordinates(p)[1] > y), key=lambda p: -coordinates(p)[1])
        return path

    def nudge_near(self, points: list[str], avoid: set[str]) -> None:
        """Maybe knock a man next to ``points`` off its switch for a moment; it slides back."""
        if not self.chance("nudge"):
            return
        board = get_profile(self.profile).board
        near = sorted({n for p in points for n in board.neighbours(p)} & set(self.men) - avoid)
        if not near:
            return
        self.counts["nudge"] += 1
        victim = self.rng.choice(near)
        start = self.t + self.rng.uniform(0.0, 0.05)
        self.contacts.open(start, victim)
        self.contacts.close(start + self.rng.uniform(0.03, 0.15), victim)

    def place(self, target: str, colour: str, involved: set[str]) -> None:
        self.land(target, colour, self.entry_path(colour, target))
        self.nudge_near([target], involved)

    def move(self, origin: str, target: str, involved: set[str]) -> None:
        colour = self.lift(origin)
        self.nudge_near([origin], involved)
        self.wait(0.25, 1.2)
        self.land(target, colour, _between(origin, target))
        self.nudge_near([target], involved)

    def remove(self, point: str) -> None:
        colour = self.lift(point)
        self.removed[colour] += 1

    def step(self, turn: Turn, colour: str, involved: set[str]) -> None:
        if turn.origin is None:
            self.place(turn.target, colour, involved)
        else:
            self.move(turn.origin, turn.target, involved)

    def lift_and_return(self, point: str, lo: float, hi: float) -> None:
        colour = self.lift(point)
        self.wait(lo, hi)
        self.put_back(point, colour)

    def knock(self, avoid: set[str]) -> bool:
        """A sleeve knocks a man between points; its owner puts it back, maybe sliding it in."""
        candidates = sorted(set(self.men) - avoid)
        if not candidates:
            return False
        point = self.rng.choice(candidates)
        colour = self.lift(point)
        self.wait(0.4, 2.5)
        empty = [n for n in get_profile(self.profile).board.neighbours(point) if n not in self.men]
        if empty and self.rng.random() < 0.5:
            self.touch(self.rng.choice(empty))  # pushed back across a neighbouring empty point
            self.wait(0.01, 0.05)
        self.put_back(point, colour)
        return True


def illegal_step(game: Game, colour: str, rng: random.Random, prompted: Turn | None) -> tuple[str | None, str] | None:
    """A wrong step a person makes before the right one: ``(origin or None, target)``, or ``None``.

    On their own turn: a move to a point that is not adjacent, a move while men must still be
    placed, or a move of the other side's man. Carrying out the computer's turn: any other
    step than the one prompted (a legal one, even).
    """
    board = game.board

    empty = [p for p in POINTS if p not in board]
    geometry = game.profile.board
    options: list[tuple[str | None, str]] = []
    if prompted is not None:
        if prompted.origin is None:
            options = [(None, p) for p in empty if p != prompted.target]
        else:
            options = [
                (o, p)
                for o in board
                if board[o] == colour
                for p in empty
                if (o, p) != (prompted.origin, prompted.target) and geometry.are_adjacent(o, p)
            ]
    else:
        own = [p for p in board if board[p] == colour]
        other = [p for p in board if board[p] != colour]
        steps = {(t.origin, t.target) for t in game.legal_turns()}
        for o in own:
            for p in empty:
                if (o, p) not in steps:
                    options.append((o, p))
        for o in other:
            for p in geometry.neighbours(o):
                if p in empty:
                    options.append((o, p))
        # A step the switches could not tell from a legal turn (the other side's man slid onto a
        # point whose placement would close a mill and take that man) is no mistake anyone could see.
        # Likewise a man moved onto a point where a placement is legal: it looks exactly like that
        # placement plus a man knocked off, so only mistakes no legal turn explains are made.
        legal = {_diff(t) for t in game.legal_turns()}
        placeable = set(game.legal_targets(None))
        options = [(o, p) for o, p in options if (frozenset({o}), frozenset({p})) not in legal and p not in placeable]
    if not options:
        return None
    return rng.choice(sorted(options, key=str))


def _diff(turn: Turn) -> tuple[frozenset[str], frozenset[str]]:
    offs = {p for p in (turn.origin, turn.removal) if p}
    return frozenset(offs), frozenset({turn.target})
