"""Level ladder: levels play each other and a greedy baseline, both colours, varied openings.

    python bench/match.py [--pairs greedy-1,1-2,...] [--openings 10] [--jobs 2] [--cap 200]

``greedy`` takes the turn whose result evaluates best (no look-ahead), the
beginner that level 1 is meant to lose to; ``random`` plays any legal turn.

Every game starts from one of ``--openings`` random openings (2 or 4 placements)
and is played twice with colours swapped. All players use node budgets with
fixed seeds, so a rerun gives the same games on any machine. A game still
running after ``--cap`` turns counts as a draw. Prints one row per pairing
(wins/draws/losses of the stronger side, its score, Elo difference with a
95% margin) and a ladder of Elo estimates chained from the greedy baseline = 0.

``--openings`` can differ per pairing: ``--pairs 8-9:6,9-10:6`` plays 6.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from morris_pi.engine.levels import get_level
from morris_pi.engine.tune import PlayerSpec, elo, match, openings

DEFAULT_PAIRS = "greedy-1,1-2,2-3,3-4,4-5,5-6,6-7,7-8,8-9,9-10"


def spec(name: str) -> PlayerSpec:
    """A player named on the command line: ``greedy``, ``random`` or a level (ValueError otherwise)."""
    if name == "greedy":
        return ("greedy",)
    if name == "random":
        return ("random",)
    return ("level", get_level(int(name)).number)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", default=DEFAULT_PAIRS, help="weaker-stronger pairs, optionally :openings")
    parser.add_argument("--openings", type=int, default=10)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--cap", type=int, default=200)
    args = parser.parse_args()
    pairings = []
    for item in args.pairs.split(","):
        pair, _, n = item.partition(":")
        try:
            weak, strong = pair.split("-")
            pairings.append((weak, strong, spec(weak), spec(strong), int(n) if n else args.openings))
        except ValueError:
            parser.error(f"--pairs: {item!r} is not WEAK-STRONG[:OPENINGS] of greedy, random or levels 1-10")
    print(f"{'pairing':>12} {'games':>5} {'W-D-L (stronger)':>17} {'score':>6} {'Elo diff':>12} {'min':>6}")
    ladder = {"greedy": 0.0}
    for weak, strong, weak_player, strong_player, n_openings in pairings:
        book = openings(n_openings)
        started = time.perf_counter()
        scores = match(strong_player, weak_player, book, jobs=args.jobs, cap=args.cap)
        wins, draws = scores.count(1.0), scores.count(0.5)
        losses = len(scores) - wins - draws
        s = sum(scores) / len(scores)
        diff, margin = elo(s, len(scores))
        if weak in ladder:
            ladder[strong] = ladder[weak] + diff
        print(
            f"{weak + ' v ' + strong:>12} {len(scores):>5} {f'{wins}-{draws}-{losses}':>17} {s:>6.2f} "
            f"{diff:>+6.0f} ±{margin:<4.0f} {(time.perf_counter() - started) / 60:>6.1f}",
            flush=True,
        )
    print("\nElo ladder (greedy baseline = 0, chained through adjacent pairings):")
    for name, value in ladder.items():
        print(f"  {name:>6}: {value:+.0f}")


if __name__ == "__main__":
    main()
