"""A board in the window: the board's own ``Session`` over the simulator's ends.

The window runs exactly what the wooden board runs: ``morris_pi.core.session.Session``
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

>>> from morris_pi.core.ports import FirstLegalOpponent, ManualClock
>>> board = SimBoard(clock=ManualClock())
>>> game = GameSession(board, SimSettings(mode="two-player", menu=True),
...                    opponent_factory=lambda level: FirstLegalOpponent())
>>> game.started, game.session.state, board.recorder.recording
('menu', 'menu', False)
>>> board.buttons.press("new"); game.step()      # start with the choices shown
>>> game.session.state, board.recorder.header
('game', {'profile': 'standard', 'white': 'human', 'black': 'human'})
>>> game
<GameSession two-player: <Session game standard record='' white to move>>
>>> game.close(); game
<GameSession closed>
"""

from __future__ import annotations

import argparse
import os
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from morris_pi.catalogue import LANGUAGES, Words, from_locale
from morris_pi.config.loader import load_config
from morris_pi.core.assist import Assists, Grader, warning_words
from morris_pi.core.closing import Closeable
from morris_pi.core.controller import Snapshot
from morris_pi.core.menu import GameSettings
from morris_pi.core.opponents import EngineGrader, StandInOpponent, engine_opponents
from morris_pi.core.ports import Clock, GameStore, Opponent
from morris_pi.core.position_setup import start_fen
from morris_pi.core.record_format import clock_text
from morris_pi.core.session import Session
from morris_pi.core.storage import Storage
from morris_pi.guidance import DEFAULT_PALETTE, Look
from morris_pi.rules import Game, Geometry, Side, get_profile
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
    #: The language of the panel (``morris_pi.catalogue.LANGUAGES``).
    lang: str = "en"
    #: The two-player clock (``"5+3"``: five minutes and three seconds a turn), or ``None``.
    clock: str | None = None
    #: A Sanmill FEN: the first game starts from it, set up on the board (white men first).
    fen: str | None = None
    #: How much the board helps each player (the config's ``[assist]``).
    assist: Assists = field(default_factory=Assists)

    def __post_init__(self) -> None:
        _ = self.game  # the board's own checks, with the board's messages
        if self.fen is not None:
            Game.from_fen(self.fen, self.profile)  # FenError names the bad field
        if self.lang not in LANGUAGES:
            raise ValueError(f"unknown language {self.lang!r}: choose one of {', '.join(LANGUAGES)}")

    @property
    def game(self) -> GameSettings:
        """The game settings, as the set-up menu starts from them."""
        return GameSettings(
            mode=self.mode,
            human=self.human,
            level=self.level,
            profile=self.profile,
            clock=self.clock,
            assist=self.assist,
        )

    @property
    def computer(self) -> str | None:
        """The computer's side, or ``None`` in a two-player game."""
        return self.game.computer

    def header(self) -> dict[str, object]:
        """The replay trace header for a game played with these settings."""
        return trace_header(self.game, self.seed, self.fen)


def trace_header(settings: GameSettings, seed: int | None, fen: str | None = None) -> dict[str, object]:
    """The ``morris-pi replay`` header of a game: profile, sides, the engine's level and seed, and
    the FEN of a position set up on the board first.

    >>> trace_header(GameSettings(mode="computer", human="black", level=4), 7)
    {'profile': 'standard', 'white': 'computer', 'black': 'human', 'level': 4, 'seed': 7}
    """
    sides = {side: ("computer" if side == settings.computer else "human") for side in ("white", "black")}
    head: dict[str, object] = {"profile": settings.profile, **sides}
    if settings.computer:
        head["level"] = settings.level
        if seed is not None:
            head["seed"] = seed
    if fen is not None:
        head["fen"] = fen
    if not settings.assists.plain:
        head["assist"] = settings.assists.meta()
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
        config = load_config(Path(args.config))
        game = config.game
        base = {
            "mode": game.mode,
            "human": game.human,
            "level": game.level,
            "profile": game.profile,
            "palette": dict(config.palette),
            "assist": config.assist,
        }
        menu = bool(game.menu)
        seed = getattr(getattr(config, "engine", None), "seed", None)
        if seed is not None:
            base["seed"] = seed
    given = False
    for key in (*GAME_OPTIONS, "seed", "clock", "lang", "fen"):
        value = getattr(args, key, None)
        if value is not None:
            base[key] = value
            given = given or key in GAME_OPTIONS
    if "lang" not in base:
        base["lang"] = from_locale(os.environ)
    chosen = getattr(args, "menu", None)
    base["menu"] = chosen if chosen is not None else (menu and not given and base.get("fen") is None)
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


class GameSession(Closeable):
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
        grader: Grader | None = None,
    ) -> None:
        self.board = board
        settings = settings or SimSettings()
        self.settings = settings
        # Every game is seeded, so its trace replays faithfully in `morris-pi replay`: with --seed
        # every game has that seed (the same game again), else each new game draws its own, so the
        # computer at a low level does not play the same game twice. The seed is in the record.
        fixed = settings.seed
        seeds = (lambda: fixed) if fixed is not None else (lambda: random.randrange(1, 2**31))
        if storage is None and settings.state_dir is not None:
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
            seeds=seeds,
            # the engine grades for the players' assistance, unless a test brings its own players
            grader=grader if grader is not None or opponent_factory is not None else EngineGrader(),
        )
        #: How the board started: ``"new"``, ``"menu"`` or ``"resumed"`` (a saved game).
        self.started = self.session.start()
        if settings.fen is not None and self.started == "new":
            self.session.set_up(settings.fen)  # a saved game resumed comes first: nothing is lost
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
        self._check_open("scan the board")
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
        seed = self.session.meta.get("seed")
        controller = self.session.controller
        fen = start_fen(controller.game) if controller is not None else None
        return trace_header(self.session.settings, seed if isinstance(seed, int) else self.settings.seed, fen)

    def _release(self) -> None:
        """Stop the computer player."""
        self.session.close()

    def __repr__(self) -> str:
        if self.closed:
            return "<GameSession closed>"
        settings = self.session.settings
        players = settings.mode if settings.computer is None else f"level {settings.level} plays {settings.computer}"
        return f"<GameSession {players}: {self.session!r}>"

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
                if not recorder.recording or session.setting_up:
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
        w = Words(self.settings.lang)
        lines: list[tuple[str, str]] = [("title", w("sim.title"))]
        if session.menu is not None:
            menu = session.menu
            lines += words.menu_lines(menu.choices(), menu.chosen(), menu.describe(w.lang), w)
        else:
            lines += self._game_lines(self.snapshot(), w)
        faults = [fault_words(kind, text, w) for kind, text in session.all_faults().items()]
        stand_in = self.stand_in()
        if stand_in is not None:
            faults.append(stand_in)
        if faults:
            lines += [("", "")] + [("warn", text) for text in faults]
        lines += self._save_lines(w)
        if session.menu is None:
            lines += [("", ""), ("head", w("sim.record")), ("text", words.numbered(self.snapshot().record, w=w))]
        lines += [("", ""), ("dim", words.controls(w)), ("dim", words.keys(w))]
        return lines

    def stand_in(self) -> str | None:
        """Why the computer plays its first legal turn instead of searching, if it does."""
        opponent = self.session.controller.opponent if self.session.controller is not None else None
        return opponent.problem if isinstance(opponent, StandInOpponent) else None

    def _game_lines(self, snap: Snapshot, w: Words) -> list[tuple[str, str]]:
        s = self.session.settings
        lines: list[tuple[str, str]] = [("dim", words.mode_line(s.mode, s.human, s.level, snap.profile, w)), ("", "")]
        if snap.setup is not None:
            setup = snap.setup
            lines.append(("head", w("sim.setup.title")))
            lines.append(
                ("text", w("setup.where", white=" ".join(setup["white"]) or "-", black=" ".join(setup["black"]) or "-"))
            )
            side = setup.get("next")
            if side is not None:
                waiting = [p for p in setup[str(side)] if p not in setup["standing"]]
                lines.append(("text", w("lights.setup", side=w.side(str(side), inside=True), points=" ".join(waiting))))
        elif snap.outcome:
            lines.append(("good", w("status.game_over", outcome=outcome_words(snap.outcome, w))))
            lines.append(("text", w("sim.over.next")))
        else:
            lines.append(("head", w("sim.to_move", who=words.side_name(snap.turn, s.mode, s.human, w))))
            if snap.pending:
                lines.append(("text", w("status.mill", point=snap.pending)))
            elif snap.lifted:
                lines.append(("text", w("status.lifted", point=snap.lifted)))
        clock = self.session.game_clock
        if clock is not None:
            now = self.clock.now()
            left = {side: clock_text(clock.remaining(side, now)) for side in ("white", "black")}
            lines.append(("warn" if clock.flagged else "text", w("sim.clock", **left)))
            if clock.flagged:
                lines.append(("warn", w("clock.flagged", side=w.side(clock.flagged))))
        if snap.computer_side is not None:
            lines.append(("text", self._engine_line(snap, w)))
        if snap.hint:
            lines.append(("text", w("status.hint", turn=snap.hint)))
        controller = self.session.controller
        if controller is not None and controller.warning is not None:
            lines.append(("warn", warning_words(controller.warning, w)))
            lines.append(("warn", w("sim.warning.choice")))
        if "confirm" in snap.leds.values() or "confirm" in snap.status.values():
            lines.append(("warn", w("status.confirm_resign")))
        problems = words.problem_words(snap.problems, snap.leds, w)
        if problems:
            lines += [("", ""), ("warn", w("status.put_right"))]
            lines += [("warn", f"  {text}") for text in problems]
        return lines

    def _engine_line(self, snap: Snapshot, w: Words) -> str:
        controller = self.session.controller
        analysis = controller.analyses.get("turn") if controller is not None else None
        searched = ""
        if analysis is not None and analysis.depth:
            searched = w("sim.engine.searched", depth=analysis.depth, nodes=f"{analysis.nodes:,}")
        cut = getattr(controller.opponent if controller is not None else None, "cut", None)
        if cut is not None:
            searched += w("engine.cut", seconds=f"{cut:g}")
        if snap.thinking:
            return w("sim.engine.thinking", searched=searched)
        if snap.computer:
            return w("status.computer_prompt", turn=snap.computer)
        return w("sim.engine.waiting", searched=searched)

    def _save_lines(self, w: Words) -> list[tuple[str, str]]:
        if self.settings.state_dir is None:
            return []
        lines = [("", ""), ("dim", w("sim.saving", dir=self.settings.state_dir))]
        if self.started == "resumed" and self._game is not None and not self.board.recorder.recording:
            lines.append(("dim", w("sim.resumed")))
        return lines


def outcome_words(outcome: object, w: Words) -> str:
    """How a game ended, in words (``Outcome``: its ``winner`` and ``reason``)."""
    winner, reason = getattr(outcome, "winner", None), getattr(outcome, "reason", None)
    if winner is None:
        return w(f"outcome.{reason}")
    loser = "black" if winner == "white" else "white"
    return w(f"outcome.{reason}", winner=w.side(winner), loser=w.side(loser, inside=True))


def fault_words(kind: str, text: str, w: Words) -> str:
    """A fault in words: what the board cannot do, then the reason as its source put it."""
    return w("fault.line", what=w(f"fault.{kind}"), why=text)
