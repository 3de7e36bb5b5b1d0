"""The small interfaces every end of the controller implements.

The controller (``morris_pi.core.controller``) talks only to these. Hardware
backends (``morris_pi.hw``), the pygame simulator (``morris_pi.sim``) and the
headless ``replay`` command each provide their own implementations, so the same
tracker and engine code runs unchanged on all three.

Points are named as in the notation (``"a1"`` .. ``"g7"``); colours are 8-bit
``(r, g, b)`` tuples before brightness scaling.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

from morris_pi.rules import Game, Turn

RGB = tuple[int, int, int]

#: Names of the physical buttons. Every one is optional on a real board.
BUTTONS: tuple[str, ...] = ("new", "undo", "hint", "menu")

#: Names of the optional status LEDs beside the board.
STATUS_LEDS: tuple[str, ...] = (
    "white-to-move",
    "black-to-move",
    "error",
)


@runtime_checkable
class Clock(Protocol):
    """Monotonic seconds. Injected so tests and replay run on virtual time."""

    def now(self) -> float: ...


@runtime_checkable
class SettableClock(Clock, Protocol):
    """A clock that is moved by whoever drives the board (``ManualClock``): replay, tests, benches."""

    def set(self, when: float) -> None: ...


@runtime_checkable
class SensorSource(Protocol):
    """Reports which of the 24 points have a man on them (switch closed).

    ``read()`` returns the raw, undebounced state; debouncing is the tracker's
    job because it has to run on the injected clock.

    A source may say, in a ``full_scan`` attribute, whether the last ``read()``
    read every switch just then (``False`` when it returned a state kept since
    an interrupt or edge, or a trace's single change events). A full scan
    confirms the turns read before it at once; without the attribute every
    read counts as one.
    """

    def read(self) -> frozenset[str]: ...

    def close(self) -> None: ...


@runtime_checkable
class LedStrip(Protocol):
    """Shows one frame: a colour per lit point, plus optional status LEDs.

    Points missing from ``points`` are dark. Implementations map points to
    their own LED indices (chain order) and apply brightness.
    """

    def show(self, points: Mapping[str, RGB], status: Mapping[str, RGB] = {}) -> None: ...

    def close(self) -> None: ...


@runtime_checkable
class Buttons(Protocol):
    """Button presses since the last call, oldest first (names from ``BUTTONS``)."""

    def pressed(self) -> list[str]: ...

    def close(self) -> None: ...


@runtime_checkable
class Opponent(Protocol):
    """A computer player that chooses turns without blocking the controller loop.

    ``start`` begins choosing a turn for the side to move of ``game`` (the
    opponent keeps its own copy); ``result`` returns the chosen turn once it is
    ready, else ``None``; ``cancel`` abandons the search (a takeback, a new game).
    ``hint=True`` asks for a suggestion for the human, from the same engine.
    """

    def start(self, game: Game, *, hint: bool = False) -> None: ...

    def result(self) -> Turn | None: ...

    def cancel(self) -> None: ...

    @property
    def thinking(self) -> bool: ...


class GameStore(Protocol):
    """Where a session keeps the game in progress and the finished games (``morris_pi.core.storage.Storage``).

    ``meta`` is plain JSON data (mode, sides, level, the game's ``id``). A store
    may also offer ``archive_waiting()``, which the session calls first at start
    to write the records of finished games that could not be written before.
    Any exception from a store is a storage fault: the game goes on unsaved.
    """

    def load_current(self) -> tuple[Game, dict[str, Any]] | None: ...

    def save_current(self, game: Game, meta: Mapping[str, Any]) -> None: ...

    def clear_current(self) -> None: ...

    def finish(self, game: Game, meta: Mapping[str, Any]) -> object: ...

    def new_game_id(self) -> str: ...


class FirstLegalOpponent:
    """Plays the first legal turn at once: deterministic, for tests of the board loop."""

    def __init__(self) -> None:
        self._turn: Turn | None = None

    def start(self, game: Game, *, hint: bool = False) -> None:
        turns = game.legal_turns()
        self._turn = turns[0] if turns else None

    def result(self) -> Turn | None:
        turn, self._turn = self._turn, None
        return turn

    def cancel(self) -> None:
        self._turn = None

    @property
    def thinking(self) -> bool:
        return False

    def __repr__(self) -> str:
        return "FirstLegalOpponent()"


class MonotonicClock:
    """The real clock, for the service and the simulator."""

    def now(self) -> float:
        return time.monotonic()

    def __repr__(self) -> str:
        return "MonotonicClock()"


class ManualClock:
    """A clock that only moves when told to; for tests and replay.

    >>> clock = ManualClock()
    >>> clock.advance(1.5)
    >>> clock.now()
    1.5
    >>> clock
    ManualClock(1.5)
    """

    def __init__(self, start: float = 0.0) -> None:
        self._now = start

    def now(self) -> float:
        return self._now

    def advance(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError(f"time cannot go backwards (advance by {seconds})")
        self._now += seconds

    def __repr__(self) -> str:
        return f"ManualClock({self._now!r})"

    def set(self, when: float) -> None:
        if when < self._now:
            raise ValueError(f"time cannot go backwards ({when} < {self._now})")
        self._now = when
