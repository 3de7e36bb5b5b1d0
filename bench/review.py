"""Review time: a whole 60-turn game graded at each budget (``morris-pi review``'s work).

    python bench/review.py [--turns 60] [--seed 1] [--budgets quick,standard,deep]

The game is a seeded self-play game at level 6 (the same turns on every machine), cut at
``--turns`` turns (the first seed from ``--seed`` on whose game lasts that long). Each budget
reviews it once; the figures are CPU seconds for the whole game and per turn, and the
expected time on a Raspberry Pi from the speed ratio of docs/pi-speed.md (sysbench: Pi 5
1.49, Pi 4 2.75, Pi 3B+ 5.92, Zero 2 W 8.28; the slow case multiplies by the Pi 4's Python
factor 2.92). Target: under 60 s per game on the development machine at the default budget.
The figures go into ``bench/results/review.md``, a row per budget and game length.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.results import record
from morris_pi.engine.grading import BUDGETS
from morris_pi.engine.levels import LEVELS, think
from morris_pi.engine.review import reviews
from morris_pi.engine.search import Searcher
from morris_pi.rules import Game, Turn

#: this machine's time over each board's, from docs/pi-speed.md
PI_RATIOS = {"Pi 5": 1.49, "Pi 4": 2.75, "Pi 3B+": 5.92, "Zero 2 W": 8.28}
SLOW_CASE = 2.92


def self_play(turns: int, seed: int) -> list[str]:
    """A seeded game at level 6 for both sides, ``turns`` long (or to its end)."""
    rng = random.Random(seed)
    game = Game()
    searcher = Searcher(game.profile)
    level = LEVELS[6]
    while len(game.history) < turns and game.outcome is None:
        raw, _ = think(searcher, game.position, game.positions, level, rng, seeded=True)
        assert raw is not None
        game.play(str(Turn.from_raw(raw)))
    return [str(t) for t in game.history]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--turns", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budgets", default=",".join(BUDGETS))
    args = parser.parse_args()
    seed = args.seed
    turns = self_play(args.turns, seed)
    while len(turns) < args.turns:  # a game that ended early: the next seed
        seed += 1
        turns = self_play(args.turns, seed)
    print(f"game: {len(turns)} turns, seed {seed}: {' '.join(turns)}")
    print(
        "| budget | nodes a turn | turns | here, CPU s (per turn) | "
        + " | ".join(f"{b} expected / slow" for b in PI_RATIOS)
        + " |"
    )
    print("|---|---:|---:|---:|" + "---|" * len(PI_RATIOS))
    rows = []
    for name in args.budgets.split(","):
        budget = BUDGETS[name]
        start = time.process_time()
        graded = list(reviews(Game(), turns, budget=budget))
        spent = time.process_time() - start
        pis = " | ".join(f"{spent * r:.0f} / {spent * r * SLOW_CASE:.0f} s" for r in PI_RATIOS.values())
        print(
            f"| {name} | {budget.nodes:,} | {len(graded)} | {spent:.1f} ({spent / len(graded):.2f}) | {pis} |",
            flush=True,
        )
        rows.append(
            {
                "budget": f"{name} ({len(turns)} turns)",
                "nodes a turn": f"{budget.nodes:,}",
                "here, CPU s (per turn)": f"{spent:.1f} ({spent / len(graded):.2f})",
                **{
                    f"{b} expected / slow, s": f"{spent * r:.0f} / {spent * r * SLOW_CASE:.0f}"
                    for b, r in PI_RATIOS.items()
                },
            }
        )
    record(
        "review",
        "Review time: a whole game graded (bench/review.py)",
        ["budget", "nodes a turn", "here, CPU s (per turn)", *(f"{b} expected / slow, s" for b in PI_RATIOS)],
        rows,
        notes=f"A seeded self-play game at level 6 (seed {seed}), reviewed once per budget; CPU seconds here "
        f"({platform.machine()}), a Pi's from docs/pi-speed.md's ratios (slow case: times {SLOW_CASE}). "
        "Target: under 60 s a game here at the default budget.",
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
