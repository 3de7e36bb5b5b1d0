"""The saves and records of the games one board plays (for ``morris_pi.board.session``).

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

Storage failures never stop the game: the first is logged (ERROR) and
``fault`` names it until a storage call works again (INFO).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from datetime import datetime, timezone
from typing import Any

from morris_pi.rules import Game

from .menu import GameSettings

log = logging.getLogger("morris_pi.board.session")


class GameKeeper:
    """Ids, saves and records for a ``Storage`` (or nothing at all without one)."""

    def __init__(self, storage: Any = None) -> None:
        self.storage = storage
        #: Why the last storage call failed, while it keeps failing.
        self.fault: str | None = None
        #: The running game's meta data as saved: id, settings, start time.
        self.meta: dict[str, Any] = {}
        self.game: Game | None = None
        self._archived = False
        self._pending: list[tuple[str, Callable[[Any], Any]]] = []

    def load(self, defaults: GameSettings) -> tuple[Game, GameSettings] | None:
        """The saved game to resume and its settings, or ``None``.

        A saved game that had already ended is archived (again, under its id);
        a save without turns is cleared. Call ``flush`` afterwards.
        """
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
            self._pending.append(("clear the empty save", lambda s: s.clear_current()))
            return None
        self.game = game
        self._archived = False
        self.meta = {**meta, **settings.meta()}
        if not isinstance(self.meta.get("id"), str):
            self.meta["id"] = self.new_id()
        return game, settings

    def new_id(self) -> str | None:
        return self.call("choose a game id", lambda s: s.new_game_id())[1]

    def adopt(self, game: Game, settings: GameSettings) -> None:
        """A new game object: give it an id and the settings it is played with."""
        self.game = game
        self._archived = False
        started = datetime.now(timezone.utc).isoformat(timespec="seconds")
        self.meta = {"id": self.new_id(), **settings.meta(), "started": started}
        self._pending.append(("clear the old save", lambda s: s.clear_current()))

    def on_turn(self, game: Game, settings: GameSettings) -> None:
        """The game changed (a turn, a takeback, a result), or a new game replaced it."""
        if game is not self.game:
            old = self.game
            if old is not None and not self._archived and old.outcome is None and old.history:
                log.info("the game %s was abandoned after %d turns; archiving it as unfinished",
                         self.meta.get("id"), len(old.history))
                self.archive(old, self.meta)
            self.adopt(game, settings)
            return
        if game.outcome is not None:
            if not self._archived:
                log.info("game over: %s after %d turns", game.outcome, len(game.history))
                self._archived = self.archive(game, self.meta)
            return
        self._archived = False  # a takeback past the end reopens the game (its record is replaced later)
        meta = dict(self.meta)
        if game.history or game.pending is not None:
            self._pending.append(("save the game", lambda s: s.save_current(game, meta)))
        else:
            self._pending.append(("clear the save", lambda s: s.clear_current()))

    def archive(self, game: Game, meta: Mapping[str, Any]) -> bool:
        """Queue the record of ``game``."""
        if self.storage is None:
            return False
        meta = dict(meta)
        self._pending.append(("archive the game", lambda s: s.finish(game, meta)))
        return True

    def flush(self) -> None:
        """Do the queued storage work, in order."""
        pending, self._pending = self._pending, []
        for doing, call in pending:
            self.call(doing, call)

    def call(self, doing: str, call: Callable[[Any], Any]) -> tuple[bool, Any]:
        """Run a storage call now: (whether it worked, its value)."""
        if self.storage is None:
            return False, None
        try:
            out = call(self.storage)
        except (OSError, ValueError) as exc:
            message = f"cannot {doing}: {exc}"
            if self.fault is None:
                log.error("%s (state directory %s); the game goes on unsaved",
                          message, getattr(self.storage, "state_dir", "?"))
            self.fault = message
            return False, None
        if self.fault is not None:
            self.fault = None
            log.info("saving works again")
        return True, out
