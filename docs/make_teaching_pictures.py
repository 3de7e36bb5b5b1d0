"""Make the pictures of docs/teaching-board.md: what the LEDs show, from the board's own controller.

    python docs/make_teaching_pictures.py [OUTDIR]

Each picture comes from a ``Controller`` on virtual ends and a manual clock, with the engine's
grading in step (``EngineGrader(threaded=False, max_time_s=None)``: the same grades anywhere):

- ``teaching-targets.svg``: after d6 g4 d5, black (assisted) is to place: every open point by
  the quality of the placement;
- ``teaching-blunder.svg``: black placed g7 anyway: the man flashes ``blunder``;
- ``teaching-setup.svg``: a FEN set up on the board: the white men stand, the black men's
  points are lit.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from morris_pi.core.assist import Assistance, Assists
from morris_pi.core.controller import Controller
from morris_pi.core.opponents import EngineGrader
from morris_pi.core.ports import ManualClock
from morris_pi.core.virtual import RecordingStrip, VirtualSensors
from morris_pi.render import board_svg
from morris_pi.rules import Game

FEN = "********/OO******/*****@@* w p p 2 7 2 7 0 0 0 0 0 0 0 0 3"


def board(game: Game | None = None, assists: Assists | None = None) -> tuple[Controller, VirtualSensors, ManualClock]:
    clock, sensors = ManualClock(), VirtualSensors()
    if game is not None:
        sensors.set(frozenset(game.board))
    c = Controller(
        sensors=sensors,
        leds=RecordingStrip(),
        clock=clock,
        grader=EngineGrader(threaded=False, max_time_s=None),
        assists=assists,
        game=game,
    )
    c.step()
    c.run_until(1.5)
    c.step()
    return c, sensors, clock


def wait(c: Controller, clock: ManualClock, seconds: float = 1.5) -> None:
    c.step()
    c.run_until(clock.now() + seconds)
    c.step()


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    coached = Assists(black=Assistance(targets=True, warn=True))
    c, sensors, clock = board(Game.from_record("d6 g4 d5"), coached)
    pictures = {"teaching-targets.svg": (c.game.copy(), dict(c.snapshot().leds))}
    sensors.close_switch("g7")
    wait(c, clock)
    pictures["teaching-blunder.svg"] = (c.game.copy(), dict(c.snapshot().leds))
    c, sensors, clock = board()
    c.set_up(Game.from_fen(FEN))
    for point in ("d6", "f6"):
        sensors.close_switch(point)
        wait(c, clock, 0.5)
    pictures["teaching-setup.svg"] = ({"d6": "white", "f6": "white"}, dict(c.snapshot().leds))
    for name, (position, leds) in pictures.items():
        (out / name).write_text(board_svg(position, leds=leds, size=360), encoding="utf-8")
        print(out / name)


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent)
