"""Sensor traces of real games, with human timing and the mess of real hands.

``game_trace`` turns a game into the events of a ``morris-pi replay`` trace,
as the reed switches would report them: contact bounce (under 1 ms), magnets
slid past neighbouring empty points (20-150 ms closures), men lifted and put
back, nudged men, removals done before the move, a missed event (then a later
snapshot of every switch), fast play (the next turn 0.3 s after the last) and,
between two players, two men put down within one settle window while placing.
Against the computer the trace executes the turns the first-legal player
chooses, as a person following the LED prompt would.

>>> import random
>>> game = random_game("standard", random.Random(1), max_turns=30)
>>> events = game_trace(game, seed=1)
>>> events[0], len(events) > 30
({'profile': 'standard', 'white': 'human', 'black': 'human'}, True)
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from morris_pi.rules import SIDES, STANDARD, Game, Turn
from morris_pi.rules.board import point_index

#: One line of a replay trace: ``{"t": 1.5, "on": "d6"}``, or the header (``{"trace": 1, ...}``).
TraceLine = dict[str, object]


@dataclass(frozen=True)
class Mess:
    """How often each kind of mess happens (probabilities per turn or per switch change)."""

    bounce: float = 0.5
    slide: float = 0.3
    lift_replace: float = 0.1
    nudge: float = 0.15
    removal_first: float = 0.4
    missed: float = 0.05
    fast: float = 0.25
    double: float = 0.2


CLEAN = Mess(0, 0, 0, 0, 0, 0, 0, 0)


def random_game(profile: str, rng: random.Random, *, max_turns: int = 150, computer: str | None = None) -> Game:
    """A random legal game; the computer's side (if any) plays the first legal turn."""
    game = Game(profile)
    while game.outcome is None and len(game.history) < max_turns:
        turns = game.legal_turns()
        game.play(turns[0] if game.turn == computer else rng.choice(turns))
    return game


class _Hands:
    """The physical board and the switch events it produces."""

    def __init__(self, rng: random.Random, mess: Mess) -> None:
        self.rng = rng
        self.mess = mess
        self.men: set[str] = set()
        self.events: list[tuple[float, int, TraceLine]] = []
        #: How often each kind of mess went into the trace.
        self.stats: Counter[str] = Counter()
        self._n = 0

    def _emit(self, t: float, event: TraceLine) -> None:
        self._n += 1
        self.events.append((round(t, 6), self._n, event))

    def switch(self, point: str, closed: bool, t: float, *, bounce: bool = True) -> float:
        """Change one switch at ``t``; returns when it has stopped bouncing."""
        key = "on" if closed else "off"
        other = "off" if closed else "on"
        self._emit(t, {key: point})
        if bounce and self.rng.random() < self.mess.bounce:
            self.stats["bounce"] += 1
            for _ in range(self.rng.randint(1, 2)):
                t += self.rng.uniform(0.0001, 0.0004)
                self._emit(t, {other: point})
                t += self.rng.uniform(0.0001, 0.0004)
                self._emit(t, {key: point})
        if closed:
            self.men.add(point)
        else:
            self.men.discard(point)
        return t

    def pulse(self, point: str, t: float, length: float, closed: bool) -> None:
        """A switch flips for ``length`` seconds and back (a slide passing, a nudge)."""
        self._emit(t, {("on" if closed else "off"): point})
        self._emit(t + length, {("off" if closed else "on"): point})

    def snapshot(self, t: float) -> None:
        self._emit(t, {"snapshot": sorted(self.men, key=point_index)})

    def mark(self) -> int:
        return len(self.events)

    def drop_from(self, mark: int) -> None:
        """The sensor missed everything since ``mark`` (the physical board still changed)."""
        del self.events[mark:]

    def lines(self) -> list[TraceLine]:
        return [{"t": t, **e} for t, _, e in sorted(self.events, key=lambda item: (item[0], item[1]))]


def game_trace(
    game: Game,
    *,
    seed: int = 0,
    computer: str | None = None,
    mess: Mess = Mess(),
    start: float = 0.5,
    stats: Counter[str] | None = None,
    think: tuple[float, float] = (0.4, 2.0),
) -> list[TraceLine]:
    """The replay trace (header first) of a game, as played by hand on the board.

    ``think`` bounds the seconds between turns (fast play aside); ``stats``, if
    given, counts the kinds of mess that went in.
    """
    rng = random.Random(seed)
    hands = _Hands(rng, mess)
    header: TraceLine = {"profile": game.profile.name}
    header.update({side: ("computer" if side == computer else "human") for side in SIDES})
    turns = list(game.history)
    replay = Game(game.profile)
    t = start
    i = 0
    after_human = False
    while i < len(turns):
        turn = turns[i]
        side = replay.turn
        if side == computer and after_human:
            t += rng.uniform(0.35, 1.0)  # the prompt shows once the human's turn is read
        elif rng.random() < mess.fast:
            hands.stats["fast"] += 1
            t += 0.3
        else:
            t += rng.uniform(*think)
        t = _lift_and_replace(hands, replay, turn, t)
        t = _nudge(hands, turn, t)
        nxt = turns[i + 1] if i + 1 < len(turns) else None
        if (
            computer is None
            and nxt is not None
            and turn.is_placement
            and nxt.is_placement
            and not turn.removal
            and not nxt.removal
            and rng.random() < mess.double
        ):
            # Both players put a man down within one settle window.
            hands.stats["double"] += 1
            t = hands.switch(turn.target, True, t)
            t = hands.switch(nxt.target, True, t + rng.uniform(0.005, 0.05))
            replay.play(turn)
            replay.play(nxt)
            i += 2
            after_human = True
            continue
        t = _play(hands, turn, t)
        replay.play(turn)
        after_human = side != computer
        i += 1
    hands._emit(t + 1.0, {})
    if stats is not None:
        stats.update(hands.stats)
    return [header, *hands.lines()]


def _lift_and_replace(hands: _Hands, game: Game, turn: Turn, t: float) -> float:
    rng = hands.rng
    if rng.random() >= hands.mess.lift_replace:
        return t
    own = [p for p, side in game.board.items() if side == game.turn and p not in (turn.origin, turn.removal)]
    if not own:
        return t
    point = rng.choice(own)
    hands.stats["lift-and-replace"] += 1
    t = hands.switch(point, False, t)
    t = hands.switch(point, True, t + rng.uniform(0.3, 1.0))
    return t + rng.uniform(0.3, 0.6)


def _nudge(hands: _Hands, turn: Turn, t: float) -> float:
    """A hand brushes a man: its switch opens for a moment. Done before the turn's own moves,
    so the same man is never nudged back onto a point while it is being lifted."""
    rng = hands.rng
    if rng.random() >= hands.mess.nudge:
        return t
    others = sorted(hands.men - {turn.origin, turn.removal}, key=point_index)
    if not others:
        return t
    hands.stats["nudge"] += 1
    length = rng.uniform(0.005, 0.15)
    hands.pulse(rng.choice(others), t, length, closed=False)
    return t + length + rng.uniform(0.02, 0.2)


def _play(hands: _Hands, turn: Turn, t: float) -> float:
    """One turn by hand; returns the time of its last event."""
    rng = hands.rng
    mess = hands.mess
    removal_first = turn.removal is not None and rng.random() < mess.removal_first
    mark = hands.mark()
    if turn.removal is not None and removal_first:
        hands.stats["removal-first"] += 1
        t = hands.switch(turn.removal, False, t)
        t += rng.uniform(0.3, 1.0)
    if turn.origin:
        t = hands.switch(turn.origin, False, t)
        t += rng.uniform(0.3, 1.5)
    if rng.random() < mess.slide:
        # On its way to the target the magnet closes an empty neighbour for a moment.
        empty = [p for p in _near(turn) if p not in hands.men and p != turn.target]
        if empty:
            hands.stats["slide"] += 1
            length = rng.uniform(0.02, 0.15)
            hands.pulse(rng.choice(empty), t, length, closed=True)
            t += length + rng.uniform(0.01, 0.1)
    if turn.removal is None or removal_first:
        mark = hands.mark()
    t = hands.switch(turn.target, True, t)
    if turn.removal is not None and not removal_first:
        t += rng.uniform(0.3, 1.0)
        mark = hands.mark()
        t = hands.switch(turn.removal, False, t)
    if rng.random() < mess.missed:
        hands.stats["missed-then-snapshot"] += 1
        hands.drop_from(mark)
        t += rng.uniform(0.3, 0.8)
        hands.snapshot(t)
    return t


def _near(turn: Turn) -> list[str]:
    near = set(STANDARD.neighbours(turn.target))
    if turn.origin:
        near |= set(STANDARD.neighbours(turn.origin))
    return sorted(near - {turn.origin, turn.target}, key=point_index)
