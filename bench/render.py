"""Benchmark of board pictures: time and size of one SVG, a picture per turn, and PNG conversion.

Run: python bench/render.py [--repeat N]

Draws every position of the standard test game (tests/data/render_games.txt)
with its last turn, then with the LEDs of that position as well (the
tracker's guidance frame, as ``morris-pi render --leds``), and prints the
median and p99 time per picture and the sizes; then the time to convert one
picture to PNG when the ``png`` extra is installed. No picture is written to disk; the
figures go into ``bench/results/render.md``.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import results
from morris_pi.commands.render import led_frame, turn_pictures
from morris_pi.render import board_svg, last_turn_of
from morris_pi.rules import Game

GAMES = Path(__file__).resolve().parent.parent / "tests" / "data" / "render_games.txt"


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20, help="passes over the game's positions (default 20)")
    args = parser.parse_args()
    line = next(x for x in GAMES.read_text().splitlines() if x.startswith("standard\t"))
    record = line.split("\t")[1].split()
    games = [Game.from_record(record[:n]) for n in range(len(record) + 1)]
    frames = [led_frame(g) for g in games]
    rows: list[dict[str, object]] = []
    for label, with_leds in (("picture", False), ("picture + LEDs", True)):
        times, sizes = [], []
        for _ in range(args.repeat):
            for game, frame in zip(games, frames, strict=True):
                start = time.perf_counter()
                svg = board_svg(game, last_turn=last_turn_of(game), leds=frame if with_leds else None, size=400)
                times.append(time.perf_counter() - start)
                sizes.append(len(svg.encode()))
        print(
            f"{label:>16}: median {statistics.median(times) * 1e3:.2f} ms, p99 {percentile(times, 99) * 1e3:.2f} ms, "
            f"size {min(sizes) / 1024:.1f}-{max(sizes) / 1024:.1f} KB ({len(times)} pictures)"
        )
        rows.append(
            {
                "what": f"one {label} (SVG, 400 px, last turn)",
                "time": f"median {statistics.median(times) * 1e3:.2f} ms, p99 {percentile(times, 99) * 1e3:.2f} ms",
                "size": f"{min(sizes) / 1024:.1f}-{max(sizes) / 1024:.1f} KB",
                "n": len(times),
            }
        )
    start = time.perf_counter()
    frames = [led_frame(g) for g in games]
    per = (time.perf_counter() - start) / len(games)
    print(f"{'LED frame':>16}: {per * 1e3:.2f} ms per position (the tracker's guidance)")
    rows.append({"what": "the LED frame of a position", "time": f"{per * 1e3:.2f} ms", "n": len(games)})
    start = time.perf_counter()
    pictures = turn_pictures(Game.from_record(record), size=400)
    elapsed = time.perf_counter() - start
    tracemalloc.start()  # separately: tracing slows the code it measures
    turn_pictures(Game.from_record(record), size=400)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    print(
        f"{'per-turn set':>16}: {len(pictures)} pictures in {elapsed * 1e3:.0f} ms, "
        f"{sum(len(s) for _, s in pictures) / 1024:.0f} KB in all, peak Python memory {peak / 1024 / 1024:.1f} MB"
    )
    rows.append(
        {
            "what": f"a picture per turn of a {len(record)}-turn game (`records show --svg`)",
            "time": f"{elapsed * 1e3:.0f} ms for {len(pictures)} pictures",
            "size": f"{sum(len(s) for _, s in pictures) / 1024:.0f} KB in all",
            "peak Python memory": f"{peak / 1024 / 1024:.1f} MB",
            "n": 1,
        }
    )
    try:
        from morris_pi.render import svg_to_png

        svg = board_svg(games[-1], last_turn=last_turn_of(games[-1]), leds=frames[-1], size=400)
        svg_to_png(svg)
        times = []
        for _ in range(20):
            start = time.perf_counter()
            png = svg_to_png(svg)
            times.append(time.perf_counter() - start)
        print(f"{'PNG 400 px':>16}: median {statistics.median(times) * 1e3:.1f} ms, {len(png) / 1024:.1f} KB")
        png_row: dict[str, object] = {
            "time": f"median {statistics.median(times) * 1e3:.1f} ms",
            "size": f"{len(png) / 1024:.1f} KB",
            "n": len(times),
        }
    except Exception as exc:  # the png extra is optional
        print(f"{'PNG':>16}: not measured ({exc})")
        png_row = {"time": f"not measured ({exc})"}
    rows.append({"what": "PNG conversion, 400 px (CairoSVG)", **png_row})
    results.record(
        "render",
        "Board pictures: time and size (bench/render.py)",
        ["what", "time", "size", "peak Python memory", "n"],
        rows,
        notes=f"Every position of the standard test game (tests/data/render_games.txt), {args.repeat} passes; "
        f"wall time on this machine ({platform.machine()}).",
    )


if __name__ == "__main__":
    main()
