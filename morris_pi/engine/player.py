"""``EnginePlayer``: the computer opponent behind ``morris_pi.core.ports.Opponent``.

The search runs in a background thread with a cooperative stop: the searcher
checks a ``threading.Event`` every few hundred nodes, so ``cancel()``
returns at once and the thread ends within a few milliseconds (figures in the
README). A thread rather than a process because the search keeps its
transposition table and endgame tables between turns, needs no pickling, and
Python's switch interval (5 ms) leaves the controller loop its share of the
interpreter while the engine thinks.

With ``threaded=False`` (replays, tests on virtual time) ``start()`` searches
at once and ``result()`` returns the turn. With a ``seed`` every budget is in
nodes, the table is cleared before each search and the noise is drawn from the
seed and the position, so the same position gets the same turn on any machine.
With ``keep_tables=False`` the search tables (the transposition table and the
evaluation cache) are released after every search, so the player's memory is
bounded by one search; ``release()`` drops them at any time.

``wall_cap_s`` caps every turn and hint at that many seconds of wall time from
``start()``, seeded or not, so a slow board never keeps a player waiting. The
level's node budget still bounds the search first; ``cut`` says when the cap
stopped a search short of it (then the turn is the best found so far, and a
seeded game may differ from the same game on a faster machine).

``close()`` stops the player for good: it cancels the search, waits briefly for
the thread and drops the tables. It may be called again (nothing more happens);
a closed player refuses ``start()``. ``with EnginePlayer(...) as player:``
closes it at the end of the block.

>>> from morris_pi.rules import Game
>>> with EnginePlayer(level=3, seed=1, threaded=False) as player:
...     player.start(Game())
...     str(player.result()) in [str(t) for t in Game().legal_turns()]
True
>>> player
<EnginePlayer level=3 hint_level=10 seed=1 unthreaded closed>
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from types import TracebackType

from morris_pi.rules import Game, Turn
from morris_pi.rules.position import Position, RawTurn
from morris_pi.rules.profiles import Profile

from .levels import Level, get_level, think
from .search import Searcher, SearchResult, zobrist


class _CappedStop:
    """The search's stop flag: a cancel, or the wall-time cap passed (``fired`` says which)."""

    def __init__(self, cancel: threading.Event, deadline: float | None, clock: Callable[[], float]) -> None:
        self.cancel = cancel
        self.deadline = deadline
        self.clock = clock
        self.fired = False

    def is_set(self) -> bool:
        if self.cancel.is_set():
            return True
        if self.deadline is not None and self.clock() >= self.deadline:
            self.fired = True
        return self.fired


class EnginePlayer:
    """A computer player of ``level`` 1-10; hints use ``hint_level`` without noise."""

    def __init__(
        self,
        level: int = 5,
        seed: int | None = None,
        threaded: bool = True,
        *,
        hint_level: int = 10,
        wall_cap_s: float | None = None,
        clock: Callable[[], float] = time.monotonic,
        keep_tables: bool = True,
    ) -> None:
        if wall_cap_s is not None and not wall_cap_s > 0:
            raise ValueError(f"wall_cap_s must be above 0 seconds, got {wall_cap_s!r}")
        self.level: Level = get_level(level)
        self.hint_level: Level = get_level(hint_level)
        self.seed = seed
        self.threaded = threaded
        #: Whether the search tables are kept between searches (``False``: released after each).
        self.keep_tables = keep_tables
        self._searchers: dict[str, Searcher] = {}
        self._lock = threading.Lock()  # one search at a time on a searcher
        self._state = threading.Lock()  # the hand-over of a result against cancel()
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._job = 0
        self._turn: Turn | None = None
        self._ready = False
        self.wall_cap_s = wall_cap_s
        self.clock = clock
        #: The last finished search (score, depth, nodes, principal variation), for display.
        self.last: SearchResult | None = None
        #: ``wall_cap_s`` when the cap cut the last finished search short, else ``None``.
        self.cut: float | None = None
        self._closed = False

    def __repr__(self) -> str:
        parts = [f"level={self.level.number}", f"hint_level={self.hint_level.number}", f"seed={self.seed}"]
        if not self.threaded:
            parts.append("unthreaded")
        if self.wall_cap_s is not None:
            parts.append(f"wall_cap_s={self.wall_cap_s:g}")
        if self._closed:
            parts.append("closed")
        elif self.thinking:
            parts.append("thinking")
        return f"<EnginePlayer {' '.join(parts)}>"

    # -- lifetime -----------------------------------------------------------------------

    @property
    def closed(self) -> bool:
        """Whether ``close()`` was called."""
        return self._closed

    def close(self, timeout: float = 1.0) -> None:
        """Stop for good: cancel the search, wait up to ``timeout`` s for its thread, drop the tables.

        Calling it again does nothing. A search thread that outlives ``timeout`` ends at its
        next stop check; its result is discarded.
        """
        if self._closed:
            return
        self._closed = True
        self.cancel()
        self.join(timeout)
        self.release()

    def __enter__(self) -> EnginePlayer:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()

    # -- the Opponent protocol ----------------------------------------------------------

    def start(self, game: Game, *, hint: bool = False) -> None:
        """Begin choosing a turn for the side to move of ``game`` (a copy of its state is kept)."""
        if self._closed:
            raise RuntimeError("the engine player is closed: make a new one")
        self.cancel()
        with self._state:
            self._job += 1
            job = self._job
            self._stop = threading.Event()
        level = self.hint_level if hint else self.level
        if hint:
            level = replace(level, noise=0)
        cap = self.wall_cap_s
        stop = _CappedStop(self._stop, self.clock() + cap if cap is not None else None, self.clock)
        position = game.position
        history = game.positions
        pending = game.pending
        restrict = [t.to_raw() for t in game.legal_turns()] if pending else None
        over = game.is_over
        args = (job, stop, level, position, history, restrict, over, game.profile)
        if self.threaded:
            previous = self._thread
            self._thread = threading.Thread(target=self._run, args=(previous, *args), daemon=True, name="engine")
            self._thread.start()
        else:
            self._run(None, *args)

    def result(self) -> Turn | None:
        """The chosen turn once ready (returned once), else ``None``."""
        with self._state:
            if not self._ready:
                return None
            turn, self._turn, self._ready = self._turn, None, False
            return turn

    def cancel(self) -> None:
        """Abandon the current search; returns at once, the thread stops within milliseconds."""
        with self._state:
            self._job += 1
            self._stop.set()
            self._turn, self._ready = None, False

    @property
    def thinking(self) -> bool:
        thread = self._thread
        return thread is not None and thread.is_alive() and not self._stop.is_set()

    @property
    def holds_tables(self) -> bool:
        """Whether search tables are held now (a search runs, or ``keep_tables`` kept them)."""
        return bool(self._searchers)

    def release(self) -> None:
        """Drop the search tables once no search uses them (the next search builds them again)."""
        with self._lock:
            self._searchers.clear()

    def join(self, timeout: float | None = None) -> bool:
        """Wait for the search thread to end; ``True`` when no thread is running."""
        thread = self._thread
        if thread is not None:
            thread.join(timeout)
            return not thread.is_alive()
        return True

    # -- work ---------------------------------------------------------------------------

    def _searcher(self, profile: Profile) -> Searcher:
        searcher = self._searchers.get(profile.name)
        if searcher is None:
            searcher = self._searchers[profile.name] = Searcher(profile)
        return searcher

    def _run(
        self,
        previous: threading.Thread | None,
        job: int,
        stop: _CappedStop,
        level: Level,
        position: Position,
        history: Sequence[Position],
        restrict: list[RawTurn] | None,
        over: bool,
        profile: Profile,
    ) -> None:
        if previous is not None:
            previous.join()
        if over:
            self._finish(job, None, None, False)
            return
        seed = self.seed
        seeded = seed is not None
        if seed is not None:
            rng = random.Random((seed * 0x9E3779B1) ^ zobrist(position) ^ (len(history) << 1) ^ level.number)
        else:
            rng = random.Random()
        with self._lock:
            searcher = self._searcher(profile)
            if seeded:
                searcher.clear()
            try:
                raw, result = think(
                    searcher, position, history, level, rng, seeded=seeded, stop_flag=stop, restrict=restrict
                )
            finally:
                if not self.keep_tables:
                    self._searchers.clear()
        if stop.cancel.is_set():
            return
        self._finish(job, Turn.from_raw(raw) if raw is not None else None, result, stop.fired)

    def _finish(self, job: int, turn: Turn | None, result: SearchResult | None, cut: bool) -> None:
        with self._state:
            if job != self._job:
                return  # cancelled or superseded meanwhile
            self.last = result
            self.cut = self.wall_cap_s if cut else None
            self._turn, self._ready = turn, True
