"""A board in the window: the board's own ``Session`` over the simulator's ends.

The window runs exactly what the wooden board runs: ``morris_pi.board.session.Session``
(set-up menu on the points -> ``Controller`` -> saves and records) over
``SimSensors``, ``SimLeds``, ``SimButtons`` and a clock. What is left here is
what only the simulator has:

- ``SimSettings``: the game, the menu and the state directory from the command
  line and the ``--config`` file;
- the sensor trace (``TraceRecorder``): started when a game starts that
  ``morris-pi replay`` can follow from its first turn, stopped while the
  set-up menu is up;
- the trays of men beside the board, refilled when a game starts on an
  empty board;
- the panel's words.

>>> from morris_pi.board.ports import FirstLegalOpponent, ManualClock
>>> board = SimBoard(clock=ManualClock())
>>> game = GameSession(board, SimSettings(mode="two-player", menu=True),
...                    opponent_factory=lambda level: FirstLegalOpponent())
>>> game.started, game.session.state, board.recorder.recording
('menu', 'menu', False)
>>> board.buttons.press("new"); game.step()      # start with the choices shown
>>> game.session.state, board.recorder.header
('game', {'profile': 'standard', 'white': 'human', 'black': 'human'})
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from morris_pi.board.controller import Snapshot
from morris_pi.board.menu import GameSettings
from morris_pi.board.opponents import StandInOpponent, engine_opponents
from morris_pi.board.ports import Clock, GameStore, Opponent
from morris_pi.board.session import Session
from morris_pi.guidance import DEFAULT_PALETTE, Look
from morris_pi.rules import Geometry, Side, get_profile
from morris_pi.web.seam import BoardSeam

from . import panel as words
from .backends import SimBoard

#: The game options of ``morris-pi sim``; giving any of them skips the config's menu.
GAME_OPTIONS = ("mode", "human", "level", "profile")


@dataclass(frozen=True)
class SimSettings:
    """How the window plays: like the config's ``[game]`` table, plus a seed, a palette,
    whether the set-up menu opens first and where games are saved (``None``: nowhere)."""

    mode: str = "computer"
    human: Side = "white"
    level: int = 3
    profile: str = "standard"
    seed: int | None = None
    palette: Mapping[str, Look] = field(default_factory=lambda: dict(DEFAULT_PALETTE))
    menu: bool = False
    state_dir: Path | None = None

    def __post_init__(self) -> None:
        _ = self.game  # the board's own checks, with the board's messages

    @property
    def game(self) -> GameSettings:
        """The game settings, as the set-up menu starts from them."""
        return GameSettings(mode=self.mode, human=self.human, level=self.level, profile=self.profile)

    @property
    def computer(self) -> str | None:
        """The computer's side, or ``None`` in a two-player game."""
        return self.game.computer

    def header(self) -> dict[str, object]:
        """The replay trace header for a game played with these settings."""
        return trace_header(self.game, self.seed)


def trace_header(settings: GameSettings, seed: int | None) -> dict[str, object]:
    """The ``morris-pi replay`` header of a game: profile, sides, and the engine's level and seed.

    >>> trace_header(GameSettings(mode="computer", human="black", level=4), 7)
    {'profile': 'standard', 'white': 'computer', 'black': 'human', 'level': 4, 'seed': 7}
    """
    sides = {side: ("computer" if side == settings.computer else "human") for side in ("white", "black")}
    head: dict[str, object] = {"profile": settings.profile, **sides}
    if settings.computer:
        head["level"] = settings.level
        if seed is not None:
            head["seed"] = seed
    return head


def settings_from(args: argparse.Namespace) -> SimSettings:
    """Settings from the command line over the ``--config`` file's ``[game]``, ``[engine] seed`` and ``[palette]``.

    The set-up menu opens when ``--menu`` is given, or when the config says
    ``[game] menu = true`` and no game option (``--mode``, ``--human``,
    ``--level``, ``--profile``) was given; ``--no-menu`` turns it off.
    """
    base: dict[str, object] = {}
    menu = False
    if getattr(args, "config", None):
        from morris_pi.config.loader import load_config

        config = load_config(Path(args.config))
        game = config.game
        base = {
            "mode": game.mode,
            "human": game.human,
            "level": game.level,
            "profile": game.profile,
            "palette": dict(config.palette),
        }
        menu = bool(game.menu)
        seed = getattr(getattr(config, "engine", None), "seed", None)
        if seed is not None:
            base["seed"] = seed
    given = False
    for key in (*GAME_OPTIONS, "seed"):
        value = getattr(args, key, None)
        if value is not None:
            base[key] = value
            given = given or key in GAME_OPTIONS
    chosen = getattr(args, "menu", None)
    base["menu"] = chosen if chosen is not None else (menu and not given)
    state_dir = getattr(args, "state_dir", None)
    if state_dir is not None:
        base["state_dir"] = Path(state_dir)
    return SimSettings(**base)  # type: ignore[arg-type]


class _Session(Session):
    """The board's session, counting the times its set-up menu opens (the trace follows them)."""

    menus = 0

    def open_menu(self, settings: GameSettings | None = None) -> None:
        super().open_menu(settings)
        self.menus += 1


class GameSession:
    """The board's ``Session`` over a ``SimBoard``, as the window drives it.

    ``opponent_factory(level)`` makes the computer player (default: the seeded
    engine); ``storage`` overrides the ``Storage`` made from ``settings.state_dir``.
    """

    def __init__(
        self,
        board: SimBoard,
        settings: SimSettings | None = None,
        *,
        opponent_factory: Callable[[int], Opponent] | None = None,
        storage: GameStore | None = None,
    ) -> None:
        self.board = board
        settings = settings or SimSettings()
        if settings.seed is None:
            # a seeded engine plays the same turns in `morris-pi replay`, so a saved trace replays faithfully
            settings = replace(settings, seed=random.randrange(1, 2**31))
        self.settings = settings
        if storage is None and settings.state_dir is not None:
            from morris_pi.board.storage import Storage

            storage = Storage(settings.state_dir)
        self.session = _Session(
            sensors=board.sensors,
            leds=board.leds,
            clock=board.clock,
            buttons=board.buttons,
            storage=storage,
            defaults=settings.game,
            menu=settings.menu,
            opponent_factory=opponent_factory or engine_opponents(settings.seed),
            palette=settings.palette,
        )
        #: How the board started: ``"new"``, ``"menu"`` or ``"resumed"`` (a saved game).
        self.started = self.session.start()
        recorder = board.recorder
        self._game = self.session.controller.game if self.session.controller is not None else None
        if self.started == "new":
            # the trace starts with the first reading, like the controller's game
            recorder.header = self.header()
            recorder.recording = True
        else:
            # the menu's choices are not turns, and replay cannot start from a saved game
            recorder.stop()
        self._menus = self.session.menus
        self._mark = len(recorder.events)  # events recorded before the last step
        self._filled: object = None  # the game the trays were last filled for
        #: The web page's seam (``morris_pi.web.seam.BoardSeam``) when one is served: its actions
        #: run before each step, and what the step changed is published after it.
        self.seam: BoardSeam | None = None
        self._follow_men()

    # -- what the window drives -----------------------------------------------------------

    @property
    def clock(self) -> Clock:
        return self.board.clock

    @property
    def geometry(self) -> Geometry:
        """The lines to draw: the game's profile, or the one chosen so far in the menu."""
        return get_profile(self._profile()).board

    def step(self) -> None:
        if self.seam is not None:
            self.seam.run_actions()
        self.session.step()
        self._follow()
        if self.seam is not None:
            self.seam.refresh()

    def next_wakeup(self) -> float | None:
        return self.session.next_wakeup()

    @property
    def busy(self) -> bool:
        controller = self.session.controller
        if self.seam is not None and self.seam.pending:
            return True  # the page asked for something: step now
        return self.session.menu is None and controller is not None and controller.waiting

    def snapshot(self) -> Snapshot:
        """The controller's snapshot of the game (``RuntimeError`` while no game has started yet)."""
        snap = self.session.snapshot()
        if snap is None:
            raise RuntimeError("no game has started yet: the set-up menu is up")
        return snap

    def header(self) -> dict[str, object]:
        """The trace header of the game being played (or about to be)."""
        return trace_header(self.session.settings, self.settings.seed)

    def close(self) -> None:
        """Stop the computer player."""
        self.session.close()

    # -- the simulator's own part -----------------------------------------------------------

    def _follow(self) -> None:
        session, recorder = self.session, self.board.recorder
        if session.menus != self._menus:
            # the set-up menu opened (and may already have started the next game): men put on the
            # points now are choices, and the Menu press that opened it is not the game's
            self._menus = session.menus
            if recorder.recording:
                recorder.stop(drop_button="menu", after=self._mark)
        if session.state == "game":
            game = session.controller.game  # type: ignore[union-attr]
            if game is not self._game:
                self._game = game
                if not recorder.recording:
                    # a game replay can follow from its start: from the menu, or the next after a resumed game
                    snap = session.controller.snapshot()  # type: ignore[union-attr]
                    recorder.restart(self.header(), self.board.sensors.last, when=snap.t)
        self._mark = len(recorder.events)
        self._follow_men()

    def _profile(self) -> str:
        session = self.session
        if session.menu is not None:
            return session.menu.settings.profile
        return session.controller.game.profile.name if session.controller is not None else session.settings.profile

    def _follow_men(self) -> None:
        """Full trays for a game starting on an empty board (another profile may need more men)."""
        hand = self.board.hand
        game = self.session.controller.game if self.session.controller is not None else None
        fresh = game is not None and game is not self._filled and not game.history
        men = get_profile(self._profile()).men
        if (hand.men != men or fresh) and not hand.board and not hand.held:
            with self.board.lock:
                hand.reset(men)
            self._filled = game

    # -- the panel ----------------------------------------------------------------------------

    def panel(self) -> list[tuple[str, str]]:
        session = self.session
        lines: list[tuple[str, str]] = [("title", "morris-pi simulator")]
        if session.menu is not None:
            menu = session.menu
            lines += words.menu_lines(menu.options(), menu.chosen(), menu.describe())
        else:
            lines += self._game_lines(self.snapshot())
        faults = list(session.all_faults().values())
        stand_in = self.stand_in()
        if stand_in is not None:
            faults.append(stand_in)
        if faults:
            lines += [("", "")] + [("warn", text) for text in faults]
        lines += self._save_lines()
        if session.menu is None:
            lines += [("", ""), ("head", "Game record"), ("text", words.numbered(self.snapshot().record))]
        lines += [("", ""), ("dim", words.CONTROLS), ("dim", words.KEYS)]
        return lines

    def stand_in(self) -> str | None:
        """Why the computer plays its first legal turn instead of searching, if it does."""
        opponent = self.session.controller.opponent if self.session.controller is not None else None
        return opponent.problem if isinstance(opponent, StandInOpponent) else None

    def _game_lines(self, snap: Snapshot) -> list[tuple[str, str]]:
        s = self.session.settings
        lines: list[tuple[str, str]] = [("dim", words.mode_line(s.mode, s.human, s.level, snap.profile)), ("", "")]
        if snap.outcome:
            lines.append(("good", f"Game over: {snap.outcome}"))
            lines.append(("text", "Clear the board (C) to play again, or press Menu to choose another game."))
        else:
            lines.append(("head", f"To move: {words.side_name(snap.turn, s.mode, s.human)}"))
            if snap.pending:
                lines.append(("text", f"{snap.pending} closed a mill: take off one of the lit men."))
            elif snap.lifted:
                lines.append(("text", f"Lifted from {snap.lifted}: put it on a lit point, or back."))
        if snap.computer_side is not None:
            lines.append(("text", self._engine_line(snap)))
        if snap.hint:
            lines.append(("text", f"Hint: {snap.hint}"))
        if "confirm" in snap.leds.values() or "confirm" in snap.status.values():
            lines.append(("warn", "Press Menu again within 3 seconds to resign."))
        problems = words.problem_words(snap.problems, snap.leds)
        if problems:
            lines += [("", ""), ("warn", "Put the board right:")]
            lines += [("warn", f"  {text}") for text in problems]
        return lines

    def _engine_line(self, snap: Snapshot) -> str:
        opponent = self.session.controller.opponent if self.session.controller is not None else None
        # only the engine player keeps its last search; other opponents show none
        last = getattr(opponent, "last", None)
        depth, nodes = getattr(last, "depth", None), getattr(last, "nodes", None)
        cut = getattr(opponent, "cut", None)
        limit = f", cut short at the {cut:g} s time limit" if cut is not None else ""
        searched = f" (last search: depth {depth}, {nodes:,} nodes{limit})" if depth else ""
        if snap.thinking:
            return "Computer: thinking..." + searched
        if snap.computer:
            return f"Computer's turn: {snap.computer}. Make it on the board as the lights show."
        return "Computer: waiting" + searched

    def _save_lines(self) -> list[tuple[str, str]]:
        if self.settings.state_dir is None:
            return []
        lines = [("", ""), ("dim", f"Saving every turn in {self.settings.state_dir}")]
        if self.started == "resumed" and self._game is not None and not self.board.recorder.recording:
            lines.append(("dim", "Resumed from the save: the trace starts with the next game."))
        return lines


def play_in_window(
    settings: SimSettings,
    *,
    size: tuple[int, int] = (1100, 760),
    trace_path: str | Path | None = None,
    web: tuple[str, int] | None = None,
    pin: str | None = None,
) -> int:
    """Open the window and play until it is closed; ``web`` (host, port) serves the page beside it."""
    from .app import SimApp

    board = SimBoard(men=get_profile(settings.profile).men)
    game = GameSession(board, settings)
    server = None
    try:
        if web is not None:  # first: a port in use is refused before a window opens
            from .browser import serve_beside

            server = serve_beside(game, *web, board=False, pin=pin)
            print(f"morris-pi sim: the page is at {server.url}", file=sys.stderr)
        app = SimApp(board, game, size=size, trace_path=trace_path)
    except BaseException:  # no display: the computer player's thread must not outlive the refusal
        if server is not None:
            server.stop()
        game.close()
        raise
    try:
        return app.run()
    finally:
        if server is not None:
            server.stop()
        game.close()
        app.close()
