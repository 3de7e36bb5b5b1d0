"""Hands for the simulator tests: mouse gestures that make turns, and time passing on a manual clock.

Import it after setting ``SDL_VIDEODRIVER=dummy`` (the test modules do so first).
"""

from __future__ import annotations

import io
import json
from pathlib import Path

from morris_pi import replay
from morris_pi.engine.player import EnginePlayer
from morris_pi.rules import Game, Turn
from morris_pi.sim.app import SimApp

LEVEL, SEED = 1, 7


def engine(level: int) -> EnginePlayer:
    """The seeded engine searching in step with the manual clock (as ``morris-pi replay`` runs it)."""
    return EnginePlayer(level, seed=SEED, threaded=False)


def hue(colour) -> tuple[int, ...]:
    """A colour at full brightness: the window shows an LED's brightness as the glow's strength."""
    peak = max(colour)
    return tuple(round(c * 255 / peak) for c in colour)


def pixel(app: SimApp, pos) -> tuple[int, int, int]:
    return tuple(app.screen.get_at((round(pos[0]), round(pos[1]))))[:3]


def settle(app: SimApp, seconds: float = 0.6) -> None:
    """Let time pass in small steps, as the window's loop would."""
    clock = app.board.clock
    for _ in range(round(seconds / 0.05)):
        clock.advance(0.05)
        app.update()


def make_turn(app: SimApp, turn: Turn, side: str) -> None:
    """Make a whole turn on the board with the mouse, as a person would."""
    hand = app.board.hand
    if turn.origin is None:
        tray = "hand" if hand.in_hand[side] else "removed"
        app.drag(app.tray_pos(tray, side), app.point_pos(turn.target))
    else:
        app.drag(app.point_pos(turn.origin), app.point_pos(turn.target))
    settle(app)
    if turn.removal:
        app.drag(app.point_pos(turn.removal), app.off_board_pos())
        settle(app)


def tap(app: SimApp, point: str, side: str = "white") -> None:
    """Put a man from ``side``'s tray on ``point`` and take it back off: a choice in the set-up menu."""
    app.drag(app.tray_pos("hand", side), app.point_pos(point))
    settle(app, 0.5)
    app.drag(app.point_pos(point), app.tray_pos("hand", side))
    settle(app, 0.3)


def choose(game: Game) -> Turn:
    """The human's plan: take a man whenever possible, else the last legal turn."""
    turns = game.legal_turns()
    taking = [t for t in turns if t.removal]
    return (taking or turns)[-1]


def replayed(path: Path) -> dict:
    """The last line ``morris-pi replay --json`` prints for a trace file."""
    out, err = io.StringIO(), io.StringIO()
    assert replay.run(path.read_text().splitlines(), out, err, as_json=True) == 0, err.getvalue()
    return json.loads(out.getvalue().splitlines()[-1])
