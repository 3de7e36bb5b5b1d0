"""Rules engine speed: perft from the start position, checked against the reference figures.

Prints, for one core (the engine is single-threaded):

- perft: the leaf count to DEPTH as ``morris-pi perft`` counts it (the last ply
  counted in bulk by ``Position.count_turns``), its time and leaves per second;
- full: the same tree with every turn generated and played at every node, down
  to the leaves, and turns played per second (the rate a search can expect).

Times are wall clock and CPU time of this process; the rates use CPU time, which
other work on a busy machine does not inflate.

Both counts must equal RULES.md's reference figures (standard profile) and each
other; a mismatch prints what differs and exits 1.

    python bench/perft.py [--depth 5] [--profile standard] [--full-depth 4]
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from bench.results import record
from morris_pi.rules import PROFILES, Position, perft

# RULES.md "Reference figures": standard profile, a move and its removal are one turn.
REFERENCE = {1: 24, 2: 552, 3: 12_144, 4: 255_024, 5: 5_140_800, 6: 99_274_176}


def full_perft(position: Position, depth: int) -> tuple[int, int]:
    """(leaves, turns played): every turn generated and played, no bulk counting."""
    if depth == 0:
        return 1, 0
    leaves = played = 0
    for turn in position.turns():
        sub_leaves, sub_played = full_perft(position.play(turn), depth - 1)
        leaves += sub_leaves
        played += sub_played + 1
    return leaves, played


def timed(func, *args):
    wall, cpu = time.perf_counter(), time.process_time()
    result = func(*args)
    return result, time.perf_counter() - wall, time.process_time() - cpu


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--depth", type=int, default=5, help="perft depth (default 5)")
    parser.add_argument("--profile", default="standard", choices=sorted(PROFILES))
    parser.add_argument(
        "--full-depth",
        type=int,
        default=None,
        help="depth of the generate-and-play run (default: --depth, at most 5; 0 skips it)",
    )
    args = parser.parse_args(argv)
    if args.depth < 1:
        parser.error("--depth must be 1 or more")
    full_depth = min(args.depth, 5) if args.full_depth is None else args.full_depth

    print(f"python {platform.python_version()} on {platform.machine()}, profile {args.profile}")
    start = Position.start(args.profile)
    expected = REFERENCE if args.profile == "standard" else {}
    failures: list[str] = []

    leaves, wall, cpu = timed(perft, start, args.depth)
    row: dict[str, object] = {
        "run": f"perft({args.depth}), full({full_depth}), {args.profile}",
        "perft leaves": f"{leaves:,}",
        "perft CPU s": f"{cpu:.2f}",
        "leaves/s": f"{leaves / max(cpu, 1e-9):,.0f}",
    }
    print(f"perft({args.depth}) = {leaves:,}  {wall:.2f} s ({cpu:.2f} s CPU)  {leaves / max(cpu, 1e-9):,.0f} leaves/s")
    if args.depth in expected and leaves != expected[args.depth]:
        failures.append(f"perft({args.depth}) = {leaves:,}, reference {expected[args.depth]:,}")

    if full_depth > 0:
        (full_leaves, played), wall, cpu = timed(full_perft, start, full_depth)
        print(
            f"full({full_depth}) = {full_leaves:,}  {wall:.2f} s ({cpu:.2f} s CPU)  "
            f"{played:,} turns generated and played, {played / max(cpu, 1e-9):,.0f} turns/s"
        )
        if full_depth in expected and full_leaves != expected[full_depth]:
            failures.append(f"full({full_depth}) = {full_leaves:,}, reference {expected[full_depth]:,}")
        if full_depth == args.depth and full_leaves != leaves:
            failures.append(f"full({full_depth}) = {full_leaves:,} but perft({args.depth}) = {leaves:,}")
        row |= {"full CPU s": f"{cpu:.2f}", "turns played/s": f"{played / max(cpu, 1e-9):,.0f}"}
    row["matches the reference"] = "no" if failures else ("yes" if args.depth in expected else "no figure")
    record(
        "perft",
        "Rules speed: perft (bench/perft.py)",
        ["run", "perft leaves", "perft CPU s", "leaves/s", "full CPU s", "turns played/s", "matches the reference"],
        [row],
        notes=f"One core, CPU time; {platform.machine()}. The counts must equal RULES.md's reference figures.",
    )

    if args.depth not in expected:
        print(f"(no reference figure for depth {args.depth}, profile {args.profile})")
    for failure in failures:
        print(f"MISMATCH: {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
