"""The two-player clock: each side's time, sudden death or with an increment, paused while the board is put right.

A ``TimeControl`` is a base time per side and an increment each side gains after
every turn of its own: ``"5+3"`` is five minutes and three seconds a turn, ``"10"``
ten minutes, sudden death.

``GameClock`` keeps time on the board's injected clock. The session tells it, after
every step, how many turns the game has and whether the clock may run (``sync``):

- a new turn stops the mover's time, adds its increment and starts the other side's;
- a takeback gives back the increment of the turn taken back, never the time spent on it;
- the clock stands still while it may not run: while the board is put right after a
  takeback or a resumed save, in the set-up menu, after the game ended;
- it starts with White's first turn, so setting up the men costs nobody time, as on a
  chess clock that Black starts.

A side is *low* on time below ``low_s`` (a tenth of the base, 10 s at least and 60 s at
most); at 0 it has *flagged*: its time ran out and the clock stops. The board then lights
``LOW_TIME_ROLE``; the players decide what the flag means (the page offers to end the game).

>>> clock = GameClock(TimeControl.parse("1+2"))
>>> clock.sync(1, running=True, now=10.0)      # White's first turn: Black's time runs now
True
>>> clock.remaining("black", 40.0), clock.running
(30.0, 'black')
>>> clock.sync(2, running=True, now=40.0), clock.remaining("black", 40.0), clock.remaining("white", 40.0)
(True, 32.0, 62.0)
>>> clock.sync(1, running=True, now=45.0), clock.remaining("black", 45.0), clock.remaining("white", 45.0)
(True, 30.0, 57.0)
>>> clock.low("black", 45.0), clock.next_event(45.0)     # taken back: Black's increment, not White's time
(False, 65.0)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

SIDES = ("white", "black")

#: The LED role of a side whose time runs low (its status LED, and the middle point of its edge).
LOW_TIME_ROLE = "low-time"
#: The point lit for each side when its time runs low: the middle of the edge it sits at.
LOW_TIME_POINTS: dict[str, str] = {"white": "d1", "black": "d7"}

_CONTROL = re.compile(r"^\s*(\d{1,3}(?:\.\d{1,2})?)\s*(?:\+\s*(\d{1,3}))?\s*$")


@dataclass(frozen=True)
class TimeControl:
    """A base time per side and the seconds each side gains after every turn of its own."""

    seconds: float
    increment: float = 0.0

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """``"M"`` or ``"M+S"``: M minutes each (up to 999, two decimals), S seconds a turn.

        >>> TimeControl.parse("5+3"), TimeControl.parse("0.5")
        (TimeControl(seconds=300.0, increment=3.0), TimeControl(seconds=30.0, increment=0.0))
        >>> TimeControl.parse("5 minutes")
        Traceback (most recent call last):
        ...
        ValueError: clock must be minutes, or minutes+seconds a turn, like 10 or 5+3; got '5 minutes'
        """
        match = _CONTROL.match(text) if isinstance(text, str) else None
        if match is None:
            raise ValueError(f"clock must be minutes, or minutes+seconds a turn, like 10 or 5+3; got {text!r}")
        minutes, increment = float(match.group(1)), float(match.group(2) or 0)
        if not minutes > 0:
            raise ValueError(f"clock must give each side some time, got {text!r}")
        return cls(minutes * 60, increment)

    def __str__(self) -> str:
        minutes = f"{self.seconds / 60:g}"
        return f"{minutes}+{self.increment:g}" if self.increment else minutes

    @property
    def low_s(self) -> float:
        """Seconds left below which a side is low on time."""
        return min(60.0, max(10.0, self.seconds / 10))


class GameClock:
    """Both sides' time in one game (see the module's docstring)."""

    def __init__(self, control: TimeControl) -> None:
        self.control = control
        self.used: dict[str, float] = dict.fromkeys(SIDES, 0.0)
        self.bonus: dict[str, float] = dict.fromkeys(SIDES, 0.0)
        #: Seconds each turn of the game took its mover, in order.
        self.turns: list[float] = []
        #: The side whose time ran out, or ``None``.
        self.flagged: str | None = None
        self._since: float | None = None  # when the running side's time last started to run
        self._this_turn = 0.0  # time the side to move has spent on its turn so far

    # -- what the session tells it --------------------------------------------------------

    def sync(self, plies: int, *, running: bool, now: float) -> bool:
        """Follow the game: ``plies`` turns played, the clock allowed to run or not; returns
        whether anything a watcher sees changed (a turn, a takeback, a pause, a flag)."""
        changed = False
        while len(self.turns) < plies:
            self._turn_done(now)
            changed = True
        while len(self.turns) > plies:
            self._take_back(now)
            changed = True
        run = running and bool(self.turns) and self.flagged is None
        if run and self._since is None:
            self._since = now
            changed = True
        elif not run and self._since is not None:
            self._charge(now)
            self._since = None
            changed = True
        return self._check_flag(now) or changed

    # -- what it shows --------------------------------------------------------------------

    @property
    def to_move(self) -> str:
        """The side whose time runs (or would run): turns alternate, White first."""
        return SIDES[len(self.turns) % 2]

    @property
    def running(self) -> str | None:
        """The side whose time runs now, or ``None`` while the clock stands still."""
        return self.to_move if self._since is not None else None

    def remaining(self, side: str, now: float) -> float:
        """Seconds ``side`` has left at ``now`` (never below 0)."""
        left = self.control.seconds + self.bonus[side] - self.used[side]
        if self._since is not None and side == self.to_move:
            left -= now - self._since
        return max(0.0, left)

    def low(self, side: str, now: float) -> bool:
        """Whether ``side`` is low on time (its time ran out included)."""
        return self.flagged == side or (bool(self.turns) and self.remaining(side, now) <= self.control.low_s)

    def next_event(self, now: float) -> float | None:
        """When the running side next goes low or runs out of time, if its time runs."""
        if self._since is None:
            return None
        left = self.remaining(self.to_move, now)
        low = self.control.low_s
        return now + (left - low if left > low else left)

    def to_meta(self, now: float) -> dict[str, Any]:
        """The clock as the save's and the record's meta data (JSON)."""
        used = {side: self.used[side] + (now - self._since if self._since is not None and side == self.to_move else 0)
                for side in SIDES}  # fmt: skip
        return {
            "control": str(self.control),
            "used": {side: round(used[side], 1) for side in SIDES},
            "bonus": {side: round(self.bonus[side], 1) for side in SIDES},
            "left": {side: round(self.remaining(side, now), 1) for side in SIDES},
            "turns": [round(t, 1) for t in self.turns],
            "flagged": self.flagged,
        }

    @classmethod
    def from_meta(cls, meta: Mapping[str, Any], control: TimeControl) -> GameClock:
        """A clock restored from ``to_meta`` (it stands still until the session lets it run);
        values that do not fit are left at a fresh clock's."""
        clock = cls(control)
        for name in ("used", "bonus"):
            values = meta.get(name)
            if isinstance(values, Mapping):
                for side in SIDES:
                    value = values.get(side)
                    if isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value < 1e7:
                        getattr(clock, name)[side] = float(value)
        turns = meta.get("turns")
        if isinstance(turns, list) and all(isinstance(t, (int, float)) and not isinstance(t, bool) for t in turns):
            clock.turns = [float(t) for t in turns[:10_000]]
        if meta.get("flagged") in SIDES:
            clock.flagged = meta["flagged"]
        return clock

    # -- inside -----------------------------------------------------------------------------

    def _charge(self, now: float) -> None:
        if self._since is not None:
            spent = now - self._since
            self.used[self.to_move] += spent
            self._this_turn += spent
            self._since = now

    def _turn_done(self, now: float) -> None:
        mover = self.to_move
        self._charge(now)
        self.turns.append(self._this_turn)
        self._this_turn = 0.0
        self.bonus[mover] += self.control.increment
        if self._since is not None or len(self.turns) == 1:
            self._since = now  # the other side's time runs from this instant

    def _take_back(self, now: float) -> None:
        self._charge(now)
        self.turns.pop()
        self.bonus[self.to_move] -= self.control.increment  # the mover of the turn taken back
        self._this_turn = 0.0
        if self.flagged is not None and self.remaining(self.flagged, now) > 0:
            self.flagged = None

    def _check_flag(self, now: float) -> bool:
        if self._since is None or self.remaining(self.to_move, now) > 0:
            return False
        side = self.to_move
        self._charge(now)
        self.used[side] = self.control.seconds + self.bonus[side]  # exactly none left
        self.flagged = side
        self._since = None
        return True

    def __repr__(self) -> str:
        return f"<GameClock {self.control} turns={len(self.turns)} running={self.running} flagged={self.flagged}>"
