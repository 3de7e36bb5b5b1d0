"""Seconds per computer turn on each Raspberry Pi, from this machine's figures and published ones.

    python bench/pi_speed.py [--positions 16] [--levels 1-10] [--sysbench 20000] [--nbody 500000]

There is no Pi here, so the expected time per turn on a Pi is this machine's
measured time times a speed ratio, and the ratio is measured the way anyone can
repeat it: a benchmark whose figure per board is published (``PUBLISHED``, with
its source), run here with the same command.

- ``sysbench cpu --threads=1`` (Debian's sysbench; events per second, one core):
  published for the Pi 3B+, 4 and 5 with sysbench 1.0.20. The Zero 2 W and the
  Pi 3B have the Pi 3B+'s Cortex-A53 cores at 1.0 and 1.2 GHz instead of 1.4 GHz,
  so their figures are the 3B+'s scaled by the clock (marked "scaled").
- the n-body simulation in pure Python (the Computer Language Benchmarks
  Game's program, ``NBODY`` below, 5,000,000 steps): published for the Pi 4
  (CPython, performance governor). It is a second opinion on the Pi 4's ratio
  from Python itself, not from C.

Each level searches the same positions with a fixed seed (``bench/engine_speed.py``'s
positions), so the nodes are the same on any machine; this machine's CPU time per
turn (median and the slowest tenth) times each board's ratio is that board's
expected time, and the board's wall-time cap (``[engine] max_time_s``, 3 s)
cuts what lies beyond it. The figures go into ``bench/results/pi_speed.md`` (a row per
measure); docs/pi-speed.md explains them.
"""

from __future__ import annotations

import argparse
import platform
import re
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from engine_speed import parse_levels, sample_positions

from bench.results import record
from morris_pi.engine.levels import LEVELS
from morris_pi.engine.player import EnginePlayer

#: sysbench cpu --threads=1 --time=60 run, events/s (sysbench 1.0.20), and where it is published.
SYSBENCH_SOURCE = "https://leoncode.co.uk/articles/raspberry-pi-benchmarks (sysbench 1.0.20, one core)"
NBODY_SOURCE = (
    "https://chaitanyamehta.github.io/projects/performance-analysis-of-programming-languages "
    "(Pi 4 Model B, 5,000,000 steps, performance governor)"
)
PUBLISHED = {
    # board: (sysbench events/s, how it was obtained, n-body seconds for 5,000,000 steps or None)
    "Pi 5": (2737.49, "published", None),
    "Pi 4": (1477.83, "published", 158.263),
    "Pi 3B+": (687.45, "published", None),
    "Pi 3B": (687.45 * 1.2 / 1.4, "scaled from the Pi 3B+ by clock (1.2 / 1.4 GHz)", None),
    "Zero 2 W": (687.45 * 1.0 / 1.4, "scaled from the Pi 3B+ by clock (1.0 / 1.4 GHz)", None),
}


def sysbench_here(events: int) -> float | None:
    """sysbench's events per CPU second here: a fixed number of events over the CPU time they took.

    sysbench itself divides by wall time, which a shared machine stretches; the boards' figures
    are from idle boards, where the two agree.
    """
    if shutil.which("sysbench") is None:
        return None
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(
        ["sysbench", "cpu", "--threads=1", f"--events={events}", "--time=0", "run"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    found = re.search(r"total number of events:\s*(\d+)", out)
    return int(found.group(1)) / cpu if found and cpu > 0 else None


# The Computer Language Benchmarks Game's n-body, its plain Python program, as a function.
def nbody(steps: int) -> float:
    pi, days = 3.14159265358979323, 365.24
    solar = 4 * pi * pi
    bodies = [
        [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], solar],
        [
            [4.84143144246472090e00, -1.16032004402742839e00, -1.03622044471123109e-01],
            [1.66007664274403694e-03 * days, 7.69901118419740425e-03 * days, -6.90460016972063023e-05 * days],
            9.54791938424326609e-04 * solar,
        ],
        [
            [8.34336671824457987e00, 4.12479856412430479e00, -4.03523417114321381e-01],
            [-2.76742510726862411e-03 * days, 4.99852801234917238e-03 * days, 2.30417297573763929e-05 * days],
            2.85885980666130812e-04 * solar,
        ],
        [
            [1.28943695621391310e01, -1.51111514016986312e01, -2.23307578892655734e-01],
            [2.96460137564761618e-03 * days, 2.37847173959480950e-03 * days, -2.96589568540237556e-05 * days],
            4.36624404335156298e-05 * solar,
        ],
        [
            [1.53796971148509165e01, -2.59193146099879641e01, 1.79258772950371181e-01],
            [2.68067772490389322e-03 * days, 1.62824170038242295e-03 * days, -9.51592254519715870e-05 * days],
            5.15138902046611451e-05 * solar,
        ],
    ]
    pairs = [(bodies[i], bodies[j]) for i in range(5) for j in range(i + 1, 5)]
    px = py = pz = 0.0
    for _, v, m in bodies:
        px -= v[0] * m
        py -= v[1] * m
        pz -= v[2] * m
    sun_v = bodies[0][1]
    sun_v[0], sun_v[1], sun_v[2] = px / solar, py / solar, pz / solar
    dt = 0.01
    for _ in range(steps):
        for ([x1, y1, z1], v1, m1), ([x2, y2, z2], v2, m2) in pairs:
            dx, dy, dz = x1 - x2, y1 - y2, z1 - z2
            mag = dt * ((dx * dx + dy * dy + dz * dz) ** (-1.5))
            b1m, b2m = m1 * mag, m2 * mag
            v1[0] -= dx * b2m
            v1[1] -= dy * b2m
            v1[2] -= dz * b2m
            v2[0] += dx * b1m
            v2[1] += dy * b1m
            v2[2] += dz * b1m
        for r, [vx, vy, vz], _m in bodies:
            r[0] += dt * vx
            r[1] += dt * vy
            r[2] += dt * vz
    return bodies[0][0][0]


_START = """
import time
t0 = time.perf_counter()
import morris_pi.service.loop
t1 = time.perf_counter()
from morris_pi.engine.search import Searcher
Searcher("standard")
t2 = time.perf_counter()
print(t1 - t0, t2 - t1)
"""


def start_times(runs: int = 5) -> tuple[float, float]:
    """Seconds to import the service (what ``morris-pi run`` loads before the board is up) and to
    make the first searcher (the endgame tables and the evaluation's tables), median of ``runs``
    fresh processes."""
    imports, tables = [], []
    for _ in range(runs):
        out = subprocess.run([sys.executable, "-c", _START], capture_output=True, text=True, check=True).stdout
        a, b = map(float, out.split())
        imports.append(a)
        tables.append(b)
    return statistics.median(imports), statistics.median(tables)


def turn_times(levels: list[int], count: int) -> dict[int, tuple[float, float, float]]:
    """Per level: median, slowest-tenth and mean CPU seconds per turn here."""
    games = sample_positions(count)
    out = {}
    for number in levels:
        cpu = []
        for i, game in enumerate(games):
            player = EnginePlayer(number, seed=i, threaded=False)
            started = time.process_time()
            player.start(game)
            player.result()
            cpu.append(time.process_time() - started)
        cpu.sort()
        out[number] = (
            statistics.median(cpu),
            cpu[min(len(cpu) - 1, round(0.9 * (len(cpu) - 1)))],
            statistics.mean(cpu),
        )
        print(f"  level {number}: median {out[number][0]:.3f} s, slowest tenth {out[number][1]:.3f} s CPU", flush=True)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=16)
    parser.add_argument("--levels", default="1-10")
    parser.add_argument("--sysbench", type=int, default=20000, help="sysbench events here (0: skip)")
    parser.add_argument("--nbody", type=int, default=500_000, help="n-body steps here (0: skip)")
    parser.add_argument("--cap", type=float, default=3.0, help="the board's wall-time cap, seconds")
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}")
    here_sysbench = sysbench_here(args.sysbench) if args.sysbench else None
    print(f"sysbench cpu, one thread, here: {here_sysbench} events/s")
    here_nbody = None
    if args.nbody:
        started = time.process_time()
        nbody(args.nbody)
        here_nbody = (time.process_time() - started) * 5_000_000 / args.nbody
        print(f"n-body here: {here_nbody:.1f} CPU s for 5,000,000 steps (from {args.nbody:,})")
    ratios = {}
    for board, (events, how, published_nbody) in PUBLISHED.items():
        ratio = here_sysbench / events if here_sysbench else None
        line = f"{board}: sysbench {events:.0f} events/s ({how})"
        if ratio:
            line += f", this machine / board = {ratio:.2f}"
        if published_nbody and here_nbody:
            line += f"; n-body {published_nbody:.0f} s there, ratio {published_nbody / here_nbody:.2f}"
        print(line)
        ratios[board] = ratio
    imports, tables = start_times()
    print(f"start here: the service's imports {imports:.2f} s, the first searcher (tables) {tables:.2f} s")
    rows: list[dict[str, object]] = [
        {
            "measure": "speed ratio, sysbench (this machine / board)",
            "here": f"1 ({here_sysbench:,.0f} events per CPU s)" if here_sysbench else "sysbench not installed",
            **{board: f"{ratio:.2f}" for board, ratio in ratios.items() if ratio},
        },
        {
            "measure": "start: the service's imports + the first searcher's tables, s",
            "here": f"{imports:.2f} + {tables:.2f}",
            **{board: f"{imports * ratio:.1f} + {tables * ratio:.1f}" for board, ratio in ratios.items() if ratio},
        },
    ]
    if here_nbody:
        rows.append(
            {
                "measure": "n-body in Python, CPU s for 5,000,000 steps",
                "here": f"{here_nbody:.1f}",
                "Pi 4": f"{PUBLISHED['Pi 4'][2]:.0f} (published), ratio {PUBLISHED['Pi 4'][2] / here_nbody:.2f}",
            }
        )
    for board, ratio in ratios.items():
        if ratio:
            print(f"  {board}: about {imports * ratio:.1f} s + {tables * ratio:.1f} s")
    print("engine, this machine (seeded node budgets):")
    times = turn_times(parse_levels(args.levels), args.positions)
    boards = [b for b in PUBLISHED if ratios.get(b)]
    # the Pi 4's Python figure over its sysbench one: how much more a Pi loses on Python than on C
    python_factor = None
    if here_nbody and ratios.get("Pi 4"):
        python_factor = (PUBLISHED["Pi 4"][2] / here_nbody) / ratios["Pi 4"]
        print(f"the Pi 4 loses {python_factor:.2f}x more on the n-body Python than on sysbench")
    for title, factor in (("by sysbench", 1.0), ("by sysbench times the Pi 4's Python factor", python_factor)):
        if factor is None:
            continue
        print(f"\nseconds per turn {title} (median / slowest tenth; * where the {args.cap:g} s cap cuts):")
        print("| level | nodes | here (CPU s) | " + " | ".join(boards) + " |")
        print("|---|---:|---:|" + "---:|" * len(boards))
        for number, (median, slow, _mean) in times.items():
            cells = []
            for board in boards:
                m, sl = median * ratios[board] * factor, slow * ratios[board] * factor
                cells.append(
                    f"{min(m, args.cap):.2f}{'*' if m > args.cap else ''} / {min(sl, args.cap):.2f}"
                    + ("*" if sl > args.cap else "")
                )
            row = f"| {number} | {LEVELS[number].nodes:,} | {median:.2f} / {slow:.2f} | " + " | ".join(cells) + " |"
            print(row)
    for number, (median, slow, _mean) in times.items():
        cells = {}
        for board in boards:
            shown = []
            for factor in (1.0, python_factor):
                if factor is None:
                    continue
                m, sl = median * ratios[board] * factor, slow * ratios[board] * factor
                shown.append(
                    f"{min(m, args.cap):.2f}{' (cap)' if m > args.cap else ''} / "
                    f"{min(sl, args.cap):.2f}{' (cap)' if sl > args.cap else ''}"
                )
            cells[board] = " · ".join(shown)
        rows.append(
            {
                "measure": f"level {number} ({LEVELS[number].nodes:,} nodes), s a turn: median / slowest tenth",
                "here": f"{median:.2f} / {slow:.2f} CPU",
                **cells,
            }
        )
    slow_case = f" · the slow case (times the Pi 4's Python factor {python_factor:.2f})" if python_factor else ""
    record(
        "pi_speed",
        "What to expect on each Raspberry Pi (bench/pi_speed.py)",
        ["measure", "here", *PUBLISHED],
        rows,
        notes=f"This machine's CPU seconds ({platform.machine()}, Python {platform.python_version()}, "
        f"{args.positions} positions a level) times each board's speed ratio: expected (sysbench){slow_case}. "
        f"(cap): the board's {args.cap:g} s cap cuts the search there. docs/pi-speed.md says where each ratio "
        "comes from.",
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
