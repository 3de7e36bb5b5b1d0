"""The board's assistance: the time to grade every legal turn of one position (``EngineGrader``'s work).

    python bench/assist.py [--turns 60] [--seed 1] [--budgets quick,standard]

The positions are those of a seeded random game (``morris_pi.traces.simple.random_game``), cut at
``--turns`` turns. Each budget grades every position once, as the board does for an assisted
player on each of their turns; the figures are CPU seconds per position (median and
slowest), and how many positions a Raspberry Pi would grade within the wall-time cap
(``[engine] max_time_s``, 3 s), from the speed ratio of docs/pi-speed.md (expected: sysbench;
slow case: times the Pi 4's Python factor 2.92). A grading the cap cuts keeps the depths it
completed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from morris_pi.core.opponents import DEFAULT_MAX_TIME_S
from morris_pi.engine.grading import score_turns
from morris_pi.rules import Game
from morris_pi.traces.simple import random_game

PI_RATIOS = {"Pi 5": 1.49, "Pi 4": 2.75, "Pi 3B+": 5.92, "Zero 2 W": 8.28}
SLOW_CASE = 2.92


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
    for budget in args.budgets.split(","):
        times = []
        for game in games:
            start = time.process_time()
            score_turns(game, budget=budget)
            times.append(time.process_time() - start)
        median, worst = statistics.median(times), max(times)
        print(f"{budget}: median {median:.2f} s, slowest {worst:.2f} s a position here")
        for board, ratio in PI_RATIOS.items():
            n = len(times)
            within = sum(1 for t in times if t * ratio <= DEFAULT_MAX_TIME_S)
            slow = sum(1 for t in times if t * ratio * SLOW_CASE <= DEFAULT_MAX_TIME_S)
            print(
                f"  {board}: median {median * ratio:.1f} s expected ({median * ratio * SLOW_CASE:.1f} s slow case);"
                f" within the {DEFAULT_MAX_TIME_S:g} s cap: {within}/{n} expected, {slow}/{n} slow case"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
