"""Reviews of finished games, kept beside their records and made in the background.

A review (``morris_pi.engine.review``) is saved as ``STATE_DIR/reviews/ID.json``,
written atomically, with the record's turns and the budget it was made with, so a
review that no longer matches its record (a record re-archived after a takeback) is
made again rather than shown.

``BackgroundReviewer`` is one thread that reviews the games asked for, then every
finished game without a review, newest first. It gives way to the computer player:
``busy()`` (the engine is thinking for a turn or a hint) stops the position being graded
at once, without a grade, and the reviewer waits until the engine is done, then grades
that position again from the start. So the board's own searches keep the whole CPU
and their wall-time cap, and every grade is the full budget's, the same as
``morris-pi review`` gives.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from morris_pi.engine.grading import BUDGETS, DEFAULT_BUDGET, GradingStopped
from morris_pi.engine.review import TurnReview, play_whole, reviews
from morris_pi.rules import Game, RulesError

from .closing import Closeable
from .safe_files import atomic_write_text

log = logging.getLogger("morris_pi.reviews")

#: The format of a saved review; a file of another version is made again.
VERSION = 1


def reviews_dir(storage: Any) -> Path:
    return Path(storage.state_dir) / "reviews"


def review_path(storage: Any, record_id: str) -> Path:
    return reviews_dir(storage) / f"{record_id}.json"


def start_of(record: Any) -> tuple[Game, list[str]]:
    """The game a record starts from (its FEN tag, else the empty board) and its turns.

    Raises ``ValueError`` when the record does not replay under its profile.
    """
    profile = record.tags.get("Profile", "standard")
    fen = record.tags.get("FEN")
    try:
        start = Game.from_fen(fen, profile) if fen else Game(profile)
        game = start.copy()
        game.play_record(record.record, first=len(start.history) + 1)
    except (RulesError, ValueError) as exc:
        raise ValueError(f"record {record.id} cannot be replayed ({profile}): {exc}") from None
    return start, [str(t) for t in game.history[len(start.history) :]]


def load_review(storage: Any, record: Any) -> dict[str, Any] | None:
    """The saved review of ``record`` if there is one that matches it, else ``None``."""
    try:
        data = json.loads(review_path(storage, record.id).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("version") != VERSION or data.get("record") != record.record:
        return None
    return data


def save_review(storage: Any, record: Any, budget: str, turns: list[TurnReview]) -> dict[str, Any]:
    data = {
        "version": VERSION,
        "id": record.id,
        "record": record.record,
        "budget": budget,
        "nodes": BUDGETS[budget].nodes,
        "turns": [t.to_json() for t in turns],
    }
    folder = reviews_dir(storage)
    folder.mkdir(parents=True, exist_ok=True)
    atomic_write_text(review_path(storage, record.id), json.dumps(data, separators=(",", ":")) + "\n")
    return data


class _Flag:
    """The search's stop flag: the reviewer closing, or the engine wanting the CPU."""

    def __init__(self, closing: threading.Event, busy: Callable[[], bool]) -> None:
        self.closing, self.busy = closing, busy

    def is_set(self) -> bool:
        return self.closing.is_set() or self.busy()


class BackgroundReviewer(Closeable):
    """Reviews finished games in one background thread (see the module docstring).

    ``run_pending()`` does the work in the caller's thread (the tests, and the thread itself).
    ``close()`` (or the end of a ``with`` block) stops the thread once; a thread started
    after that ends at once.
    """

    def __init__(
        self,
        storage: Any,
        *,
        busy: Callable[[], bool] = lambda: False,
        budget: str = DEFAULT_BUDGET,
        scan: bool = True,
        idle_s: float = 5.0,
        pause: Callable[[float], object] | None = None,
    ) -> None:
        """``pause(seconds)`` waits while the engine is busy (default: on the thread's wake-up
        event); tests pass one that does not sleep."""
        if budget not in BUDGETS:
            raise ValueError(f"unknown review budget {budget!r}: one of {', '.join(BUDGETS)}")
        self.storage = storage
        self.busy = busy
        self.budget = budget
        self.scan = scan
        self.idle_s = idle_s
        self._asked: list[str] = []
        self._progress: dict[str, tuple[int, int]] = {}  # id -> (turns done, turns)
        self._failed: dict[str, str] = {}
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._closing = threading.Event()
        self._thread: threading.Thread | None = None
        self._close_timeout = 2.0
        self.pause = pause or self._wake.wait

    # -- asked from the web page (any thread) ---------------------------------------------

    def status(self, record: Any) -> dict[str, Any]:
        """The review of ``record`` if it is made, else how far it is (and it is asked for)."""
        done = load_review(self.storage, record)
        if done is not None:
            return {"status": "done", **done}
        with self._lock:
            if record.id in self._failed:
                return {"status": "failed", "error": self._failed[record.id]}
            progress = self._progress.get(record.id)
            if record.id not in self._asked:
                self._asked.append(record.id)
        self._wake.set()
        if progress is None:
            return {"status": "queued", "done": 0, "of": len(record.turns)}
        return {"status": "running", "done": progress[0], "of": progress[1]}

    # -- the thread ---------------------------------------------------------------------------

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._loop, name="morris-pi reviews", daemon=True)
            self._thread.start()

    def close(self, timeout: float = 2.0) -> None:
        """Stop the thread, waiting at most ``timeout`` seconds for it; a second call does nothing."""
        self._close_timeout = timeout
        super().close()

    def _release(self) -> None:
        self._closing.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(self._close_timeout)
            self._thread = None

    def _loop(self) -> None:
        while not self._closing.is_set():
            try:
                worked = self.run_pending()
            except Exception:  # never let a bad record end the thread
                log.exception("background review failed")
                worked = False
            if not worked:
                self._wake.wait(self.idle_s)
                self._wake.clear()

    def _next(self) -> Any | None:
        with self._lock:
            asked = list(self._asked)
        records = {r.id: r for r in self.storage.list_records() if not r.error}
        for record_id in asked:
            record = records.get(record_id)
            if record is not None and record_id not in self._failed:
                return record
            with self._lock:
                if record_id in self._asked:
                    self._asked.remove(record_id)
        if not self.scan:
            return None
        for record in reversed(list(records.values())):
            finished = record.tags.get("Result", "*") != "*"
            if (
                finished
                and record.turns
                and record.id not in self._failed
                and load_review(self.storage, record) is None
            ):
                return record
        return None

    def run_pending(self) -> bool:
        """Review the next game that wants it; ``False`` when there is none (or the engine is busy)."""
        if self.busy():
            return False
        record = self._next()
        if record is None:
            return False
        self.review(record)
        return True

    def review(self, record: Any) -> dict[str, Any] | None:
        """Review one record (resumed turn by turn while the engine needs the CPU); the saved review."""
        try:
            start, turns = start_of(record)
        except ValueError as exc:
            with self._lock:
                self._failed[record.id] = str(exc)
            return None
        flag = _Flag(self._closing, self.busy)
        done: list[TurnReview] = []
        game = start.copy()
        while len(done) < len(turns):
            if self._closing.is_set():
                return None
            if self.busy():
                self.pause(0.2)  # the engine has the CPU; look again shortly
                self._wake.clear()
                continue
            try:
                for reviewed in reviews(game, turns[len(done) :], budget=self.budget, stop_flag=flag):
                    done.append(reviewed)
                    play_whole(game, reviewed.turn)
                    with self._lock:
                        self._progress[record.id] = (len(done), len(turns))
            except GradingStopped:
                continue
        saved = save_review(self.storage, record, self.budget, done)
        with self._lock:
            self._progress.pop(record.id, None)
            if record.id in self._asked:
                self._asked.remove(record.id)
        log.info("reviewed game %s (%d turns, %s budget)", record.id, len(done), self.budget)
        return saved
