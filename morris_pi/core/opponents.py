"""The computer player for a level, made the same way for the service and the simulator.

``engine_opponents(seed)`` returns the ``opponent_factory`` a ``Session`` asks
for a player whenever the level changes: the engine (``EnginePlayer``), seeded,
its turns and hints capped at a wall time (``[engine] max_time_s``, 3 s unless
the config says otherwise), and wrapped in ``WatchedEngine`` so that a search
thread that dies shows the engine fault instead of leaving the board waiting.
A turn or hint that the cap cut short is logged, and ``WatchedEngine.cut``
tells the ends (the web page, the simulator's panel).

If the engine cannot be imported (a broken or partial install), the factory
says so in an ERROR naming the import error and returns a ``StandInOpponent``:
it plays the first legal turn, and its ``problem`` is the sentence an end
shows the user (the simulator's panel does).

>>> from morris_pi.rules import Game
>>> opponent = StandInOpponent("the engine cannot be loaded")
>>> opponent.start(Game())
>>> str(opponent.result()), opponent.problem
('a7', 'the engine cannot be loaded')
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol

from morris_pi.core.assist import Graded, Grading
from morris_pi.core.closing import Closeable
from morris_pi.core.ports import FirstLegalOpponent, Opponent
from morris_pi.rules import Game, Turn

log = logging.getLogger(__name__)

#: The wall-time cap on a computer turn or hint when the config sets none (seconds).
DEFAULT_MAX_TIME_S = 3.0


class SearchingPlayer(Opponent, Protocol):
    """An ``Opponent`` that searches in a thread of its own, as ``EnginePlayer`` does.

    ``join(timeout)`` waits at most ``timeout`` seconds for that thread and
    says whether it has ended (``join(0)`` only looks).
    """

    def join(self, timeout: float | None = None) -> bool: ...


class WatchedEngine(Closeable):
    """An ``Opponent`` around ``EnginePlayer`` that notices a search thread that died.

    ``EnginePlayer`` answers through ``result()``; if its thread ends with an
    exception it would never answer, and the board would wait forever. Here a
    finished thread without a turn raises from ``result()``, so the controller
    shows the fault and asks again. ``close()`` (or the end of a ``with`` block)
    stops the player for good; a closed engine refuses ``start``.
    """

    def __init__(self, player: SearchingPlayer, logger: logging.Logger | None = None) -> None:
        self.player = player
        self.log = logger or log
        self._asked = False
        self._hint = False
        self._close_timeout = 1.0

    def start(self, game: Game, *, hint: bool = False) -> None:
        self._check_open("start a search")
        self._asked = False
        self._hint = hint
        self.player.start(game, hint=hint)
        self._asked = True

    def result(self) -> Turn | None:
        turn = self.player.result()
        if turn is not None or not self._asked:
            if turn is not None:
                self._asked = False
                self._note_cut(turn)
            return turn
        if self.player.join(0):  # the thread has ended: it answered just now, or never will
            turn = self.player.result()
            self._asked = False
            if turn is None:
                raise RuntimeError("the engine stopped without choosing a turn (its error is logged above)")
            self._note_cut(turn)
        return turn

    @property
    def cut(self) -> float | None:
        """The wall-time cap in seconds when it cut the last search short, else ``None``."""
        cut = getattr(self.player, "cut", None)
        return float(cut) if cut is not None else None

    def _note_cut(self, turn: Turn) -> None:
        cap = self.cut
        if cap is None:
            return
        last = self.last
        searched = f"depth {getattr(last, 'depth', '?')}, {getattr(last, 'nodes', 0):,} nodes"
        what = "hint" if self._hint else "computer's turn"
        self.log.info("the %s %s was cut at the %g s time cap (%s)", what, turn, cap, searched)

    def cancel(self) -> None:
        self._asked = False
        self.player.cancel()

    def close(self, timeout: float = 1.0) -> None:
        """Stop for good, waiting at most ``timeout`` seconds for the search; a second call does nothing."""
        self._close_timeout = timeout
        super().close()

    def _release(self) -> None:
        """The player's own ``close`` (``EnginePlayer.close``), or cancel, wait and release."""
        self._asked = False
        close = getattr(self.player, "close", None)
        if callable(close):
            close(self._close_timeout)
            return
        self.cancel()
        self.player.join(self._close_timeout)
        release = getattr(self.player, "release", None)
        if callable(release):
            release()

    @property
    def closed(self) -> bool:
        """Whether ``close()`` was called, here or on the player itself."""
        return self._closed or bool(getattr(self.player, "closed", False))

    def __repr__(self) -> str:
        return "<WatchedEngine closed>" if self.closed else f"<WatchedEngine {self.player!r}>"

    @property
    def seed(self) -> int | None:
        """The engine's seed: the same seed plays the same turns in the same positions."""
        return getattr(self.player, "seed", None)

    @seed.setter
    def seed(self, value: int | None) -> None:
        setattr(self.player, "seed", value)  # noqa: B010  # a player without a seed ignores it

    @property
    def thinking(self) -> bool:
        return bool(self.player.thinking)

    @property
    def last(self) -> object:
        """The player's last search result (depth, nodes), if it keeps one."""
        return getattr(self.player, "last", None)


class StandInOpponent(FirstLegalOpponent):
    """The first-legal-turn player standing in for an engine that cannot be loaded; ``problem`` says why."""

    def __init__(self, problem: str) -> None:
        super().__init__()
        self.problem = problem


def engine_opponents(
    seed: int | None,
    *,
    max_time_s: float | None = DEFAULT_MAX_TIME_S,
    threaded: bool = True,
    logger: logging.Logger | None = None,
    keep_tables: bool = False,
) -> Callable[[int], Opponent]:
    """Makes the computer player for a level: the engine, seeded, each turn and hint capped at ``max_time_s``.

    ``max_time_s`` is wall time from the moment the board asks (``None``: no cap
    beyond the level's own). ``logger`` receives the ERROR when the engine cannot be
    loaded and the INFO when the cap cuts a search (default: this module's), so the
    service reports them under its own name. The board's players release their search
    tables after every search (``keep_tables=False``): a hint or a turn then costs
    memory only while it is searched, which keeps a Pi Zero's memory bounded however
    many hints are asked. Seeded play is the same either way (a seeded search clears
    its table first).
    """

    def make(level: int) -> Opponent:
        try:
            from morris_pi.engine.player import EnginePlayer
        except ImportError as exc:  # the engine package is missing or broken in this install
            (logger or log).error("the engine cannot be loaded (%s); the computer plays its first legal turn", exc)
            return StandInOpponent(f"The engine cannot be loaded ({exc}): the computer plays its first legal turn.")
        player = EnginePlayer(level, seed=seed, threaded=threaded, wall_cap_s=max_time_s, keep_tables=keep_tables)
        return WatchedEngine(player, logger)

    return make


#: The grading budget of the board's assistance: the review's "quick" budget, so a grading
#: takes well under a second on a desktop and stays within the wall-time cap on a Pi.
BOARD_GRADING_BUDGET = "quick"


class EngineGrader:
    """A ``Grader`` over the engine's ``score_turns``, in a thread of its own (``threaded=False``: at once).

    Every search stops at ``max_time_s`` of wall time from ``start`` (``None``: no cap):
    a grading the cap cut short keeps the depths it completed, and ``cut`` says so. The
    board never runs it beside the computer's own search (the controller takes turns).
    """

    def __init__(
        self,
        *,
        budget: str = BOARD_GRADING_BUDGET,
        max_time_s: float | None = DEFAULT_MAX_TIME_S,
        threaded: bool = True,
        clock: Callable[[], float] | None = None,
    ) -> None:
        self.budget = budget
        self.max_time_s = max_time_s
        self.threaded = threaded
        self.clock = clock or time.monotonic
        self._threading = threading
        self._lock = threading.Lock()
        self._job = 0
        self._ready: object = None
        self._stop: Any = None
        self._thread: Any = None
        #: ``max_time_s`` when the cap cut the last grading short, else ``None``.
        self.cut: float | None = None

    def start(self, game: Game) -> None:
        self.cancel()
        with self._lock:
            self._job += 1
            job = self._job
            stop = _WallStop(self.clock() + self.max_time_s if self.max_time_s is not None else None, self.clock)
            self._stop = stop
        copy = game.copy()
        plies = len(copy.history)

        def work() -> None:
            from morris_pi.engine import grading
            from morris_pi.engine.search import Searcher

            class Stoppable(Searcher):
                """The engine's searcher, stopped by the board's flag (a cancel or the cap)."""

                def search(self, *args: Any, **kwargs: Any) -> Any:
                    kwargs["stop_flag"] = stop
                    return super().search(*args, **kwargs)

            try:
                scores = grading.score_turns(copy, budget=self.budget, searcher=Stoppable(copy.profile))
                turns = tuple(
                    Graded(turn, g.grade.value, g.loss if g.loss is not None else grading.KNOWN_RESULT)
                    for turn in scores.values
                    for g in (scores.grade(turn),)
                )
                out: object = Grading(plies, turns, scores.best)
            except Exception:  # a grading that fails only leaves the board without assistance
                log.exception("grading the turns failed")
                out = None
            with self._lock:
                if job == self._job and not stop.cancelled:
                    self._ready = out
                    self.cut = self.max_time_s if stop.fired else None

        if self.threaded:
            self._thread = self._threading.Thread(target=work, daemon=True, name="engine-grading")
            self._thread.start()
        else:
            work()

    def result(self) -> Any:
        with self._lock:
            out, self._ready = self._ready, None
            return out

    def cancel(self) -> None:
        with self._lock:
            self._job += 1
            self._ready = None
            if self._stop is not None:
                self._stop.cancelled = True

    @property
    def thinking(self) -> bool:
        thread = self._thread
        return thread is not None and thread.is_alive()

    def join(self, timeout: float | None = None) -> bool:
        thread = self._thread
        if thread is not None:
            thread.join(timeout)
            return not thread.is_alive()
        return True


class _WallStop:
    """A search's stop flag: cancelled, or past its deadline (``fired``)."""

    def __init__(self, deadline: float | None, clock: Callable[[], float]) -> None:
        self.deadline = deadline
        self.clock = clock
        self.cancelled = False
        self.fired = False

    def is_set(self) -> bool:
        if self.cancelled:
            return True
        if self.deadline is not None and self.clock() >= self.deadline:
            self.fired = True
        return self.fired
