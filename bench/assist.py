"""The board's assistance: the time to grade every legal turn of one position (``EngineGrader``'s work).

    python bench/assist.py [--turns 60] [--seed 1] [--budgets quick,standard]

The positions are those of a seeded random game (``morris_pi.traces.simple.random_game``), cut at
``--turns`` turns. Each budget grades every position once, as the board does for an assisted
player on each of their turns; the figures are CPU seconds per position (median and
slowest), and how many positions a Raspberry Pi would grade within the wall-time cap
(``[engine] max_time_s``, 3 s), from the speed ratio of docs/pi-speed.md (expected: sysbench;
slow case: times the Pi 4's Python factor 2.92). A grading the cap cuts keeps the depths it
completed. The figures go into ``bench/results/assist.md``, a row per budget and game.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.results import record
from morris_pi.core.opponents import DEFAULT_MAX_TIME_S
from morris_pi.engine.grading import score_turns
from morris_pi.rules import Game
from morris_pi.traces.simple import random_game

PI_RATIOS = {"Pi 5": 1.49, "Pi 4": 2.75, "Pi 3B+": 5.92, "Zero 2 W": 8.28}
SLOW_CASE = 2.92
#: The table's columns: the boards at either end of the range, the Pi 4 and the Zero 2 W.
COLUMNS = [
    "budget",
    "here: median / slowest CPU s",
    "Pi 4: median s, expected / slow case",
    "Pi 4: within the cap, expected / slow case",
    "Zero 2 W: median s, expected / slow case",
    "Zero 2 W: within the cap, expected / slow case",
]


def positions(turns: int, seed: int) -> list[Game]:
    game = random_game("standard", random.Random(seed), max_turns=turns)
    out, replay = [], Game()
    for turn in game.history:
        if replay.outcome is not None:
            break
        out.append(replay.copy())
        replay.play(turn)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--turns", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budgets", default="quick,standard")
    args = parser.parse_args()
    games = positions(args.turns, args.seed)
    print(f"{len(games)} positions of a random game, seed {args.seed}")
    rows = []
    for budget in args.budgets.split(","):
        times = []
        for game in games:
            start = time.process_time()
            score_turns(game, budget=budget)
            times.append(time.process_time() - start)
        median, worst = statistics.median(times), max(times)
        print(f"{budget}: median {median:.2f} s, slowest {worst:.2f} s a position here")
        row: dict[str, object] = {
            "budget": f"{budget} ({len(games)} positions, seed {args.seed})",
            "here: median / slowest CPU s": f"{median:.2f} / {worst:.2f}",
        }
        for board, ratio in PI_RATIOS.items():
            n = len(times)
            within = sum(1 for t in times if t * ratio <= DEFAULT_MAX_TIME_S)
            slow = sum(1 for t in times if t * ratio * SLOW_CASE <= DEFAULT_MAX_TIME_S)
            print(
                f"  {board}: median {median * ratio:.1f} s expected ({median * ratio * SLOW_CASE:.1f} s slow case);"
                f" within the {DEFAULT_MAX_TIME_S:g} s cap: {within}/{n} expected, {slow}/{n} slow case"
            )
            if board in ("Pi 4", "Zero 2 W"):
                row[f"{board}: median s, expected / slow case"] = (
                    f"{median * ratio:.1f} / {median * ratio * SLOW_CASE:.1f}"
                )
                row[f"{board}: within the cap, expected / slow case"] = f"{within}/{n} / {slow}/{n}"
        rows.append(row)
    record(
        "assist",
        "Assistance: grading every legal turn of a position (bench/assist.py)",
        COLUMNS,
        rows,
        notes=f"One grading per position of a seeded random game, CPU seconds here ({platform.machine()}); "
        f"a Pi's from docs/pi-speed.md's ratios (slow case: times {SLOW_CASE}). The cap is the board's "
        f"wall-time cap of {DEFAULT_MAX_TIME_S:g} s; a grading it cuts keeps the depths it completed.",
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
