"""Simulator cost: CPU share of an idle window, and frame rate and draw time while a man is carried.

Runs the real window loop headless (``SDL_VIDEODRIVER=dummy``) on the real
clock, with a game session when the controller is available. Prints:

- idle: the window's CPU share over a few seconds with nothing moving,
- carrying: frames per second and CPU share while mouse motion arrives
  faster than 60 per second (the loop caps drawing at 60 fps),
- draw: median and p99 milliseconds to draw one full frame.

The figures go into ``bench/results/sim_idle.md``, a row per state and SDL driver.

    SDL_VIDEODRIVER=dummy python bench/sim_idle.py [--seconds 5]
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import statistics
import sys
import threading
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.results import record
from morris_pi.sim.app import SimApp
from morris_pi.sim.backends import SimBoard


def make_app(mode: str) -> SimApp:
    board = SimBoard()
    session = None
    try:
        from morris_pi.sim.play import GameSession, SimSettings

        session = GameSession(board, SimSettings(mode=mode))
    except ImportError as exc:  # the controller is not there: measure the bare window
        print(f"(no game session: {exc}; measuring the bare window)")
    return SimApp(board, session)


def cpu_share(app: SimApp, seconds: float, feed=None) -> tuple[float, int]:
    """CPU seconds per wall second of the window loop, and frames drawn."""
    frames0 = app.frames
    stop = time.monotonic() + seconds
    wall0, cpu0 = time.monotonic(), time.process_time()
    app.running = True
    if feed:
        thread = threading.Thread(target=feed, args=(stop,), daemon=True)
        thread.start()
    app.run(until=lambda: time.monotonic() >= stop)
    wall, cpu = time.monotonic() - wall0, time.process_time() - cpu0
    return cpu / wall, app.frames - frames0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--mode", default="computer", choices=("two-player", "computer"))
    args = parser.parse_args()
    app = make_app(args.mode)
    print(
        f"pygame {pygame.version.ver} (SDL {'.'.join(map(str, pygame.get_sdl_version()))}), "
        f"driver {pygame.display.get_driver()}, window {app.screen.get_size()}"
    )

    driver = pygame.display.get_driver()
    rows: list[dict[str, object]] = []

    def row(state: str, share: float, frames: int) -> None:
        rows.append(
            {
                "state, driver": f"{state}, {driver}",
                "CPU": f"{share * 100:.1f} % of one core",
                "frames/s": f"{frames / args.seconds:.1f}",
            }
        )

    app.update()  # the first frame builds the cached wooden board; not part of idling
    share, frames = cpu_share(app, args.seconds)
    print(f"idle:     {share * 100:5.1f} % of one core, {frames / args.seconds:5.1f} frames/s drawn")
    row("idle, nothing lit moves", share, frames)

    session = app.session
    if hasattr(session, "snapshot"):
        # a blinking correction on the board: the loop wakes at each blink edge only
        with app.board.lock:
            app.board.hand.place("d6", "white")
        cpu_share(app, 1.0)
        prompt = session.snapshot().computer
        wrong = "g1" if prompt != "g1" else "a1"
        with app.board.lock:
            app.board.hand.place(wrong, "black")
        cpu_share(app, 1.0)
        snap = session.snapshot()
        share, frames = cpu_share(app, args.seconds)
        print(
            f"blinking: {share * 100:5.1f} % of one core, {frames / args.seconds:5.1f} frames/s drawn "
            f"(LEDs: {dict(snap.leds)})"
        )
        row("a correction blinking", share, frames)
        with app.board.lock:
            app.board.hand.sweep()

    # carry a man in circles; motion events arrive at ~250 Hz, more than a mouse sends
    app.board.hand.take("hand", "white")
    centre, radius = app.layout.board.center, app.layout.board.w / 3

    def feed(stop: float) -> None:
        angle = 0.0
        while time.monotonic() < stop:
            angle += 0.05
            pos = (centre[0] + radius * math.cos(angle), centre[1] + radius * math.sin(angle))
            pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(1, 0, 0)))
            time.sleep(0.004)

    share, frames = cpu_share(app, args.seconds, feed)
    print(f"carrying: {share * 100:5.1f} % of one core, {frames / args.seconds:5.1f} frames/s drawn (cap 60)")
    row("carrying a man, motion at 250/s", share, frames)

    times = []
    for _ in range(200):
        started = time.perf_counter()
        app.draw()
        times.append((time.perf_counter() - started) * 1000)
    times.sort()
    p99 = times[int(len(times) * 0.99) - 1]
    print(
        f"draw:     median {statistics.median(times):.2f} ms, p99 {p99:.2f} ms per frame "
        f"({1000 / statistics.median(times):.0f} fps possible)"
    )
    rows.append(
        {
            "state, driver": f"one full frame drawn, {driver}",
            "draw": f"median {statistics.median(times):.2f} ms, p99 {p99:.2f} ms",
        }
    )
    record(
        "sim_idle",
        "Simulator cost: the window's CPU and frames (bench/sim_idle.py)",
        ["state, driver", "CPU", "frames/s", "draw"],
        rows,
        notes=f"The real window loop on the real clock, {args.seconds:g} s a state, {args.mode} game; "
        f"CPU seconds per wall second of the process on this machine ({platform.machine()}). "
        "The dummy driver draws into memory; run under `xvfb-run` with `SDL_VIDEODRIVER=x11` for an X window.",
    )
    if hasattr(session, "close"):
        session.close()
    app.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
