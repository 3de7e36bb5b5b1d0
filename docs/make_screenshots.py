"""Make the simulator screenshots in ``docs/`` by playing a game headless with the mouse.

    SDL_VIDEODRIVER=dummy python docs/make_screenshots.py [OUTDIR]

The game is the seeded one of the tests (the human plays black against the
computer at level 1, seed 7); every turn is made with mouse gestures on the
window. Pictures are taken at these moments:

- ``sim-placing.png``: placing, a man carried from the tray, the computer's last placement lit;
- ``sim-removal.png``: the human closed a mill; the men that may be taken pulse;
- ``sim-computer-prompt.png``: the computer's move prompted on the board (lift here, put there);
- ``sim-correction.png``: a man put on a point it may not go to; the LEDs and panel say how to fix it;
- ``sim-game-over.png``: the game is over; the winner's men pulse.

and, on a second board opened with the set-up menu (``--menu``), after choosing
black, level 5 and the club rules with a man on the points:

- ``sim-menu.png``: the set-up menu on the points, the choices in words in the panel, a man
  carried towards GO (d1).
"""

from __future__ import annotations

import math
import os
import sys
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame

from morris_pi.core.ports import ManualClock
from morris_pi.engine.player import EnginePlayer
from morris_pi.rules import Game, Turn
from morris_pi.sim.app import SimApp
from morris_pi.sim.backends import SimBoard
from morris_pi.sim.play import GameSession, SimSettings

LEVEL, SEED = 1, 7


def engine(level: int) -> EnginePlayer:
    """The seeded engine searching in step with the manual clock (as ``morris-pi replay`` runs it)."""
    return EnginePlayer(level, seed=SEED, threaded=False)


class Script:
    def __init__(self, out: Path) -> None:
        self.out = out
        self.clock = ManualClock()
        self.board = SimBoard(clock=self.clock)
        settings = SimSettings(mode="computer", human="black", level=LEVEL, seed=SEED)
        self.session = GameSession(self.board, settings, opponent_factory=engine)
        self.app = SimApp(self.board, self.session, size=(1100, 760))
        self.app.update()
        self.game = Game()

    def settle(self, seconds: float = 0.6) -> None:
        for _ in range(round(seconds / 0.05)):
            self.clock.advance(0.05)
            self.app.update()

    def at_phase(self, period: float, phase: float) -> None:
        """Let time run on to where a blink of ``period`` is at ``phase`` (0-1), for a clear picture."""
        now = self.clock.now()
        target = math.floor(now / period) * period + phase * period
        if target <= now:
            target += period
        self.clock.set(target)
        self.app.update()

    def shot(self, name: str) -> None:
        self.app.draw()
        path = self.out / name
        pygame.image.save(self.app.screen, str(path))
        print(f"wrote {path}")

    def gesture(self, turn: Turn, side: str) -> None:
        """The step of a turn (place or move), by mouse."""
        app, hand = self.app, self.board.hand
        if turn.origin is None:
            tray = "hand" if hand.in_hand[side] else "removed"
            app.drag(app.tray_pos(tray, side), app.point_pos(turn.target))
        else:
            app.drag(app.point_pos(turn.origin), app.point_pos(turn.target))
        self.settle()

    def take_off(self, point: str) -> None:
        self.app.drag(self.app.point_pos(point), self.app.off_board_pos())
        self.settle()

    def choose(self) -> Turn:
        turns = self.game.legal_turns()
        taking = [t for t in turns if t.removal]
        return (taking or turns)[-1]

    def play(self) -> None:
        app, game = self.app, self.game
        shots = set()
        while not game.outcome:
            snap = self.session.snapshot()
            if snap.computer:
                turn = Turn.parse(snap.computer)
                if turn.origin and "prompt" not in shots:
                    self.at_phase(1.2, 0.2)  # the "lift here" LED blinks slowly: catch it lit
                    self.shot("sim-computer-prompt.png")
                    shots.add("prompt")
                self.gesture(turn, "white")
                if turn.removal:
                    self.take_off(turn.removal)
            else:
                turn = self.choose()
                if len(game.history) == 5 and "placing" not in shots:
                    # carry a man from the tray towards the board
                    start, end = app.tray_pos("hand", "black"), app.point_pos("b4")
                    app.move(start)
                    app.press(start)
                    app.move(((start[0] + end[0]) / 2 + 20, (start[1] + end[1]) / 2 - 40))
                    app.update()
                    self.shot("sim-placing.png")
                    shots.add("placing")
                    app.release(app.off_board_pos())  # changed their mind: back to the tray
                    self.settle()
                if turn.origin and "correction" not in shots:
                    wrong = self.wrong_target(turn.origin)
                    if wrong:
                        app.drag(app.point_pos(turn.origin), app.point_pos(wrong))
                        self.settle(1.0)
                        self.at_phase(1.2, 0.04)  # catch the fast and the double blink both lit
                        self.shot("sim-correction.png")
                        shots.add("correction")
                        app.drag(app.point_pos(wrong), app.point_pos(turn.origin))
                        self.settle()
                self.gesture(turn, "black")
                if turn.removal:
                    if "removal" not in shots:
                        self.at_phase(2.0, 0.5)  # removable men pulse: catch them bright
                        self.shot("sim-removal.png")
                        shots.add("removal")
                    self.take_off(turn.removal)
            game.play(turn)
            if self.session.snapshot().record != game.record:
                raise SystemExit(f"the board disagrees: {self.session.snapshot().record!r} != {game.record!r}")
        self.settle()
        self.at_phase(2.0, 0.5)
        self.shot("sim-game-over.png")

    def wrong_target(self, origin: str) -> str | None:
        """An empty point the man on ``origin`` may not go to (not adjacent)."""
        if self.game.flies():
            return None
        legal = {t.target for t in self.game.legal_turns() if t.origin == origin}
        occupied = set(self.game.board)
        for point in ("d5", "d3", "c4", "e4", "b6", "f2", "d6", "d2", "a1", "g7", "a7", "g1"):
            if point not in occupied and point not in legal and point != origin:
                return point
        return None


def menu(out: Path) -> None:
    """The set-up menu, chosen by mouse: a man put on a lit point and taken off again."""
    clock = ManualClock()
    board = SimBoard(clock=clock)
    settings = SimSettings(mode="computer", level=3, seed=SEED, menu=True)
    session = GameSession(board, settings, opponent_factory=engine)
    app = SimApp(board, session, size=(1100, 760))
    app.update()

    def settle(seconds: float) -> None:
        for _ in range(round(seconds / 0.05)):
            clock.advance(0.05)
            app.update()

    for point in ("g1", "d6", "c4"):  # black, level 5, club rules
        app.drag(app.tray_pos("hand", "white"), app.point_pos(point))
        settle(0.5)
        app.drag(app.point_pos(point), app.tray_pos("hand", "white"))
        settle(0.3)
    start, end = app.tray_pos("hand", "white"), app.point_pos("d1")
    app.move(start)
    app.press(start)
    app.move(((start[0] + end[0]) / 2, (start[1] + end[1]) / 2 + 30))
    now = clock.now()
    clock.set(math.floor(now / 1.2) * 1.2 + 1.2 + 0.06)  # the slow and the fast blink both lit
    app.update()
    app.draw()
    path = out / "sim-menu.png"
    pygame.image.save(app.screen, str(path))
    print(f"wrote {path}: {session.session.menu.describe()}")
    session.close()
    app.close()


def main() -> int:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent
    out.mkdir(parents=True, exist_ok=True)
    script = Script(out)
    script.play()
    print(f"game: {script.game.record}  ({script.game.outcome})")
    script.session.close()
    script.app.close()
    menu(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
