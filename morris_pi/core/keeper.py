"""The saves and records of the games one board plays (for ``morris_pi.core.session``).

Each game gets an id when it starts (``Storage.new_game_id``: its UTC start
time), kept with its settings in the save's meta. After every turn, takeback
and result the session hands the game to ``on_turn``; the storage work is
queued and done by ``flush`` once the LEDs are written, in order:

- a game with turns is saved, one without turns clears the save;
- a finished game becomes a record named by its id and the save is cleared
  (archiving the same game again replaces its record: after a power cut
  between the two, or after a takeback past the end);
- a game replaced by a new one after at least one turn, unfinished, is kept as
  a record with Result ``*``.

Storage failures never stop the game. A failed job is kept and tried again
with backoff (``RETRY_FIRST_S`` doubling to ``RETRY_MAX_S``, on the injected
clock; ``due`` says when): the latest save of the running game, and every
finished game until its record is written, also after a new game has
started. The first failure is logged (ERROR) and ``fault`` names it until
every kept job has worked (INFO). Finished games whose records are still
missing at a restart are archived from the state directory by ``load``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar

from morris_pi.rules import Game

from .menu import GameSettings
from .ports import Clock, GameStore, MonotonicClock

log = logging.getLogger("morris_pi.core.session")
T = TypeVar("T")

RETRY_FIRST_S = 1.0
RETRY_MAX_S = 30.0


@dataclass
class _Job:
    key: str  # a later job with the same key replaces this one: only the newest save matters
    doing: str
    call: Callable[[GameStore], Any]


class GameKeeper:
    """Ids, saves and records for a ``GameStore`` (or nothing at all without one)."""

    def __init__(self, storage: GameStore | None = None, clock: Clock | None = None) -> None:
        self.storage = storage
        self.clock = clock or MonotonicClock()
        #: Why the last storage call failed, while it keeps failing.
        self.fault: str | None = None
        #: The running game's meta data as saved: id, settings, start time.
        self.meta: dict[str, Any] = {}
        self.game: Game | None = None
        self._archived = False
        self._pending: list[_Job] = []
        #: Jobs that failed, by key, in the order they first failed.
        self._retry: dict[str, _Job] = {}
        self._retry_at: float | None = None
        self._delay = RETRY_FIRST_S

    def __repr__(self) -> str:
        parts = [f"id={self.meta.get('id')!r}" if self.game is not None else "no game"]
        if self.storage is None:
            parts.append("no storage")
        if self._pending:
            parts.append(f"pending=[{' '.join(job.key for job in self._pending)}]")
        if self._retry:
            parts.append(f"retrying=[{' '.join(self._retry)}]")
        if self.fault:
            parts.append(f"fault={self.fault!r}")
        return f"<GameKeeper {' '.join(parts)}>"

    def load(self, defaults: GameSettings) -> tuple[Game, GameSettings] | None:
        """The saved game to resume and its settings, or ``None``.

        A saved game that had already ended is archived (again, under its id);
        a save without turns is cleared. Call ``flush`` afterwards.
        """
        waiting = getattr(self.storage, "archive_waiting", None)
        if waiting is not None:  # finished games from before the restart come first: their saves
            ok, _ = self.call("archive the finished games waiting for their records", lambda _: waiting())
            if not ok:
                self._keep(_Job("waiting", "archive the finished games waiting for their records", lambda _: waiting()))
        ok, loaded = self.call("load the saved game", lambda s: s.load_current())
        if not loaded:
            return None
        game, meta = loaded
        settings = GameSettings.from_meta(meta, defaults)
        if settings.profile != game.profile.name:
            settings = GameSettings.from_meta({"profile": game.profile.name}, settings)
        if game.outcome is not None:
            log.info("the saved game had already ended (%s); archiving it", game.outcome)
            self.archive(game, meta)
            return None
        if not game.history and game.pending is None:
            self._pending.append(_Job("current", "clear the empty save", lambda s: s.clear_current()))
            return None
        self.game = game
        self._archived = False
        self.meta = {**meta, **settings.meta()}
        if not isinstance(self.meta.get("id"), str):
            self.meta["id"] = self.new_id()
        return game, settings

    def new_id(self) -> str | None:
        return self.call("choose a game id", lambda s: s.new_game_id())[1]

    def adopt(self, game: Game, settings: GameSettings, extra: Mapping[str, Any] | None = None) -> None:
        """A new game object: give it an id and the settings it is played with (``extra``: more
        meta data, such as its engine seed)."""
        self.game = game
        self._archived = False
        started = datetime.now(UTC).isoformat(timespec="seconds")
        self.meta = {"id": self.new_id(), **settings.meta(), **(extra or {}), "started": started}
        self._pending.append(_Job("current", "clear the old save", lambda s: s.clear_current()))

    def on_turn(self, game: Game, settings: GameSettings, extra: Mapping[str, Any] | None = None) -> None:
        """The game changed (a turn, a takeback, a result), or a new game replaced it; ``extra``
        is meta data that changes as the game goes on (its clock)."""
        if game is not self.game:
            old = self.game
            if old is not None and not self._archived and old.outcome is None and old.history:
                log.info(
                    "the game %s was abandoned after %d turns; archiving it as unfinished",
                    self.meta.get("id"),
                    len(old.history),
                )
                self.archive(old, self.meta)
            self.adopt(game, settings, extra)
            return
        if extra:
            self.meta.update(extra)
        if game.outcome is not None:
            if not self._archived:
                log.info("game over: %s after %d turns", game.outcome, len(game.history))
                self._archived = self.archive(game, self.meta)
            return
        self._archived = False  # a takeback past the end reopens the game (its record is replaced later)
        meta = dict(self.meta)
        if game.history or game.pending is not None:
            self._pending.append(_Job("current", "save the game", lambda s: s.save_current(game, meta)))
        else:
            self._pending.append(_Job("current", "clear the save", lambda s: s.clear_current()))

    def archive(self, game: Game, meta: Mapping[str, Any]) -> bool:
        """Queue the record of ``game``."""
        if self.storage is None:
            return False
        meta = dict(meta)
        key = f"archive {meta.get('id') or id(game)}"
        self._pending.append(
            _Job(key, f"archive the game {meta.get('id') or ''}".rstrip(), lambda s: s.finish(game, meta))
        )
        return True

    @property
    def due(self) -> float | None:
        """When kept jobs are tried again (``None``: nothing failed)."""
        return self._retry_at if self._retry else None

    @property
    def unarchived(self) -> int:
        """Finished games held in memory because their records could not be written yet."""
        return sum(1 for key in self._retry if key.startswith("archive"))

    def flush(self) -> None:
        """Do the queued storage work, in order, and the kept jobs when they are due."""
        new, self._pending = self._pending, []
        if self.storage is None:
            return
        now = self.clock.now()
        for job in new:
            self._retry[job.key] = job  # replaces an older failed job of the same key in place
        if not self._retry or (not new and self._retry_at is not None and now < self._retry_at):
            return
        jobs, self._retry = list(self._retry.values()), {}
        for job in jobs:
            ok, _ = self._run(job)
            if not ok:
                self._keep(job)
        if self._retry:
            if self._retry_at is not None and not new:
                self._delay = min(self._delay * 2, RETRY_MAX_S)
            self._retry_at = now + self._delay
        else:
            self._retry_at, self._delay = None, RETRY_FIRST_S
            if self.fault is not None:
                self.fault = None
                log.info("saving works again: every save and record is written")

    def _keep(self, job: _Job) -> None:
        self._retry[job.key] = job
        if self._retry_at is None:
            self._retry_at = self.clock.now() + self._delay

    def _run(self, job: _Job) -> tuple[bool, Any]:
        if self.storage is None:
            return False, None
        try:
            return True, job.call(self.storage)
        except Exception as exc:  # whatever breaks in storage, the game goes on and the job is kept
            self._failed(job.doing, exc)
            return False, None

    def call(self, doing: str, call: Callable[[GameStore], T]) -> tuple[bool, T | None]:
        """Run a storage call now: (whether it worked, its value). Not retried."""
        if self.storage is None:
            return False, None
        try:
            out = call(self.storage)
        except Exception as exc:
            self._failed(doing, exc)
            return False, None
        if self.fault is not None and not self._retry:
            self.fault = None
            log.info("saving works again")
        return True, out

    def _failed(self, doing: str, exc: Exception) -> None:
        text = str(exc) or type(exc).__name__
        message = f"cannot {doing}: {text[:300]}"
        if self.fault is None:
            expected = isinstance(exc, (OSError, ValueError))
            log.error(
                "%s (state directory %s); the game goes on unsaved and saving is tried again",
                message,
                getattr(self.storage, "state_dir", "?"),
                exc_info=not expected,
            )
        self.fault = message
