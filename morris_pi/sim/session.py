"""A game on the simulated board: the real controller, wired to the simulator's ends.

Nothing here is special to the simulator beyond the ends themselves: the
controller gets ``SimSensors``, ``SimLeds``, ``SimButtons`` and a clock, just
as the service gives it the hardware's, and the window paints what it shows.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from morris_pi.board.controller import Controller, Snapshot
from morris_pi.board.ports import Clock, FirstLegalOpponent, Opponent
from morris_pi.rules import get_profile
from morris_pi.tracker.guidance import DEFAULT_PALETTE, Look

from . import panel as words
from .backends import SimBoard


@dataclass(frozen=True)
class SimSettings:
    """How to play: like the config's ``[game]`` table, plus a seed and a palette."""

    mode: str = "computer"
    human: str = "white"
    level: int = 3
    profile: str = "standard"
    seed: int | None = None
    palette: Mapping[str, Look] = field(default_factory=lambda: dict(DEFAULT_PALETTE))

    def __post_init__(self) -> None:
        if self.mode not in ("computer", "two-player"):
            raise ValueError(f"mode must be 'computer' or 'two-player', got {self.mode!r}")
        if self.human not in ("white", "black"):
            raise ValueError(f"human must be 'white' or 'black', got {self.human!r}")
        if not 1 <= self.level <= 10:
            raise ValueError(f"level must be 1-10, got {self.level}")
        get_profile(self.profile)

    @property
    def computer(self) -> str | None:
        """The computer's side, or ``None`` in a two-player game."""
        if self.mode != "computer":
            return None
        return "black" if self.human == "white" else "white"

    def header(self) -> dict[str, object]:
        """The replay trace header for this game."""
        sides = {side: ("computer" if side == self.computer else "human") for side in ("white", "black")}
        head: dict[str, object] = {"profile": self.profile, **sides}
        if self.computer:
            head["level"] = self.level
            if self.seed is not None:
                head["seed"] = self.seed
        return head


def settings_from(args: argparse.Namespace) -> SimSettings:
    """Settings from the command line over the ``--config`` file's ``[game]`` and ``[palette]``."""
    base: dict[str, object] = {}
    if getattr(args, "config", None):
        from morris_pi.board.config import load_config

        config = load_config(Path(args.config))
        game = config.game
        base = {"mode": game.mode, "human": game.human, "level": game.level, "profile": game.profile,
                "palette": dict(config.palette)}
        seed = getattr(getattr(config, "engine", None), "seed", None)
        if seed is not None:
            base["seed"] = seed
    for key in ("mode", "human", "level", "profile", "seed"):
        value = getattr(args, key, None)
        if value is not None:
            base[key] = value
    return SimSettings(**base)  # type: ignore[arg-type]


def make_opponent(settings: SimSettings) -> Opponent:
    """The engine at the chosen level, or the first-legal player where the engine is missing."""
    try:
        from morris_pi.engine.player import EnginePlayer
    except ImportError:
        return FirstLegalOpponent()
    return EnginePlayer(settings.level, seed=settings.seed)


class GameSession:
    """The controller over a ``SimBoard``, as the window's session."""

    def __init__(self, board: SimBoard, settings: SimSettings | None = None, opponent: Opponent | None = None) -> None:
        self.board = board
        settings = settings or SimSettings()
        if settings.computer and settings.seed is None and opponent is None:
            # a seeded engine plays the same turns in `morris-pi replay`, so a saved trace replays faithfully
            settings = replace(settings, seed=random.randrange(1, 2**31))
        self.settings = settings
        self.profile = get_profile(self.settings.profile)
        self.geometry = self.profile.board
        if board.hand.men != self.profile.men:
            board.hand.reset(self.profile.men)
        board.recorder.header.update(self.settings.header())
        if self.settings.computer and opponent is None:
            opponent = make_opponent(self.settings)
        self.opponent = opponent if self.settings.computer else None
        self.controller = Controller(
            sensors=board.sensors,
            leds=board.leds,
            clock=board.clock,
            buttons=board.buttons,
            profile=self.profile.name,
            computer=self.settings.computer,
            opponent=self.opponent,
            palette=self.settings.palette,
        )

    @property
    def clock(self) -> Clock:
        return self.board.clock

    def step(self) -> None:
        snap = self.controller.step()
        if snap.profile != self.profile.name:
            self._follow_profile(snap.profile)

    def _follow_profile(self, name: str) -> None:
        """A new game of another profile (from the menu): other lines, maybe another number of men."""
        self.profile = get_profile(name)
        self.geometry = self.profile.board
        hand = self.board.hand
        if hand.men != self.profile.men and not hand.board and not hand.held:
            with self.board.lock:
                hand.reset(self.profile.men)

    def next_wakeup(self) -> float | None:
        return self.controller.next_wakeup()

    @property
    def busy(self) -> bool:
        return self.controller.waiting

    def snapshot(self) -> Snapshot:
        return self.controller.snapshot()

    def panel(self) -> list[tuple[str, str]]:
        snap = self.controller.snapshot()
        s = self.settings
        lines: list[tuple[str, str]] = [
            ("title", "morris-pi simulator"),
            ("dim", words.mode_line(s.mode, s.human, s.level, snap.profile)),
            ("", ""),
        ]
        if snap.outcome:
            lines.append(("good", f"Game over: {snap.outcome}"))
            lines.append(("text", "Clear the board (C) to start a new game."))
        else:
            lines.append(("head", f"To move: {words.side_name(snap.turn, s.mode, s.human)}"))
            if snap.pending:
                lines.append(("text", f"{snap.pending} closed a mill: take off one of the lit men."))
            elif snap.lifted:
                lines.append(("text", f"Lifted from {snap.lifted}: put it on a lit point, or back."))
        if self.opponent is not None:
            lines.append(("text", self._engine_line(snap)))
        if snap.hint:
            lines.append(("text", f"Hint: {snap.hint}"))
        if "confirm" in snap.leds.values() or "confirm" in snap.status.values():
            lines.append(("warn", "Press Menu again within 3 seconds to resign."))
        if snap.fault:
            lines.append(("warn", snap.fault))
        problems = words.problem_words(snap.problems, snap.leds)
        if problems:
            lines += [("", ""), ("warn", "Put the board right:")]
            lines += [("warn", f"  {text}") for text in problems]
        lines += [("", ""), ("head", "Game record"), ("text", words.numbered(snap.record))]
        lines += [("", ""), ("dim", words.CONTROLS), ("dim", words.KEYS)]
        return lines

    def _engine_line(self, snap: Snapshot) -> str:
        last = getattr(self.opponent, "last", None)
        searched = f" (last search: depth {last.depth}, {last.nodes:,} nodes)" if getattr(last, "depth", None) else ""
        if snap.thinking:
            return "Computer: thinking..." + searched
        if snap.computer:
            return f"Computer's turn: {snap.computer}. Make it on the board as the lights show."
        return "Computer: waiting" + searched


def play_in_window(
    settings: SimSettings, *, size: tuple[int, int] = (1100, 760), trace_path: str | Path | None = None
) -> int:
    """Open the window and play until it is closed."""
    from .app import SimApp

    board = SimBoard(men=get_profile(settings.profile).men)
    session = GameSession(board, settings)
    app = SimApp(board, session, size=size, trace_path=trace_path)
    try:
        return app.run()
    finally:
        app.close()
