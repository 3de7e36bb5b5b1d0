"""Where the placing extension acts: depth, turn and nodes with and without it.

    python bench/placing_depth.py [--log runs/level10-skill10.jsonl] [--games 8] [--nodes 100000] [--depth 5]

Placing positions are cut from logged games of ``bench/sanmill.py`` (turns 9, 12
and 15 of every fifth game). Each is searched with ``--nodes`` (level 10's budget then)
with the extension off and with N = 2: the depth reached and whether the turn
changes. Then positions at turns 12, 15 and 18 are searched to ``--depth`` with
N = 0, 1 and 2: the nodes, which show what the extension costs. Node counts are
the same on any machine.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.results import record
from morris_pi.commands.arguments import positive
from morris_pi.engine.search import Limits, Searcher
from morris_pi.rules import Game, Turn

RUNS = Path(__file__).resolve().parent / "runs"


def positions(log: Path, games: int, cuts: tuple[int, ...]) -> dict[int, list[Game]]:
    """``cuts``: turns already played; every fifth logged game, ``games`` of them."""
    records = [json.loads(line)["record"].split() for line in log.read_text().splitlines() if line.strip()]
    out: dict[int, list[Game]] = {cut: [] for cut in cuts}
    for turns in records[: games * 5 : 5]:
        for cut in cuts:
            game = Game.from_record(" ".join(turns[:cut]))
            if game.position.hand != (0, 0) and not game.is_over:
                out[cut].append(game)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--log", type=Path, default=RUNS / "level10-skill10.jsonl", help="a bench/sanmill.py log")
    parser.add_argument("--games", type=positive, default=8, help="games to cut positions from")
    parser.add_argument(
        "--nodes",
        type=positive,
        default=100000,
        help="budget of the depth comparison (level 10's when the figures in docs/history/engine.md were measured)",
    )
    parser.add_argument("--depth", type=positive, default=5, help="depth of the node comparison")
    args = parser.parse_args(argv)
    try:
        by_cut = positions(args.log, args.games, (8, 11, 14))
    except (OSError, ValueError, KeyError) as exc:
        parser.error(f"--log {args.log}: not a log of bench/sanmill.py: {exc}")
    if not any(by_cut.values()):
        parser.error(f"--log {args.log}: no game in it (or none still placing at turns 9, 12 or 15)")
    print(f"{args.nodes} nodes, extension off -> N = 2")
    print(f"{'turn':>4} {'positions':>9}  {'depth off -> N=2':<40} turn changed")
    rows: list[dict[str, object]] = []
    for cut, games in by_cut.items():
        depths, changed = [], 0
        for game in games:
            off, on = (
                Searcher("standard", placing_extension=n).search(
                    game.position, game.positions, Limits(nodes=args.nodes)
                )
                for n in (0, 2)
            )
            depths.append(f"{off.depth}->{on.depth}")
            changed += off.turn != on.turn
            if off.turn != on.turn:
                depths[-1] += f" ({Turn.from_raw(off.turn)}/{Turn.from_raw(on.turn)})"
        print(f"{cut + 1:>4} {len(games):>9}  {' '.join(depths):<40} {changed} of {len(games)}", flush=True)
        rows.append(
            {
                "positions": f"turn {cut + 1}, {args.nodes:,} nodes, {args.games} games of {args.log.name}",
                "searched": len(games),
                "depth off -> N = 2": " ".join(depths),
                "turn changed": f"{changed} of {len(games)}",
            }
        )
    print(f"\nnodes at depth {args.depth}")
    totals = {0: 0, 1: 0, 2: 0}
    count = 0
    for games in positions(args.log, args.games, (11, 14, 17)).values():
        for game in games:
            count += 1
            for n in totals:
                r = Searcher("standard", placing_extension=n).search(
                    game.position, game.positions, Limits(depth=args.depth)
                )
                totals[n] += r.nodes
    if not totals[0]:
        print("no positions at turns 12, 15 or 18 still placing: nothing to compare")
    else:
        cost = ", ".join(f"N = {n}: {total:,} ({total / totals[0]:.2f}x)" for n, total in totals.items())
        print(f"{count} positions: " + cost)
        rows.append(
            {
                "positions": f"turns 12, 15, 18 to depth {args.depth}, {args.games} games of {args.log.name}",
                "searched": count,
                "depth off -> N = 2": f"nodes {cost}",
                "turn changed": "-",
            }
        )
    record(
        "placing_depth",
        "Where the placing extension acts (bench/placing_depth.py)",
        ["positions", "searched", "depth off -> N = 2", "turn changed"],
        rows,
        notes="Node budgets and depths: the same figures on any machine.",
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
