"""The second generator's bench: its traces written into a folder, or a tracker measured on them.

    python bench/second_hands.py OUT_DIR --games N --seed S [--mess 0.25] [--profiles P ...]
                                 [--only KIND ...] [--off KIND ...] [--game N] [--window FIRST LAST] [--turns T]
    python bench/second_hands.py [FAILURES] --measure --games N --seed S|random [--mess 0.05 0.1 0.25]
                                 [--tracker MODULE:CALLABLE] [--jobs N] [--table PATH | --no-table]

The generator is ``morris_pi.traces.second_hands``: how its hands play and what it leaves out
so that every trace can be read are in its docstring. Without ``--measure`` the traces are
written by ``morris-pi traces second_hands`` with the same arguments, each ``NAME.jsonl`` with
``NAME.expected.json`` (what ``bench/check_traces.py`` compares), and ``summary.json``. With
``--measure`` every game is replayed with ``--tracker`` and counted exact, stop short or wrong
(``morris_pi.traces.heldout``); the figures go into the held-out table, and the games not
exact into FAILURES.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.results import HELDOUT_TABLE
from morris_pi import cli
from morris_pi.rules import PROFILES
from morris_pi.traces import heldout
from morris_pi.traces.second_hands import KINDS, make_trace, mess_levels


def measure_one(job: tuple[str, str, float, dict[str, float], str, str | None]) -> dict[str, object]:
    """Make one game's trace, replay it with the tracker under test, and judge the last record."""
    seed, profile, level, mess, tracker, out = job
    lines, expected, _ = make_trace(seed, profile, mess)
    code, rows, err = heldout.replay_rows([json.dumps(line) for line in lines], tracker)
    verdict = heldout.judge(rows, expected) if code == 0 else "wrong"
    result: dict[str, object] = {
        "seed": seed,
        "profile": profile,
        "mess": level,
        "verdict": verdict,
        "shown_wrong": heldout.shown_wrong(rows, expected),
        "why": heldout.where_wrong(rows, expected) if code == 0 else f"replay refused lines: {err.strip()[:200]}",
    }
    if verdict != "exact" and out is not None:
        folder = Path(out)
        folder.mkdir(parents=True, exist_ok=True)
        name = f"hands-{seed.replace(':', '-')}-{profile}-mess{round(100 * level)}"
        (folder / f"{name}.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
        (folder / f"{name}.expected.json").write_text(json.dumps(expected) + "\n")
        result["path"] = str(folder / f"{name}.jsonl")
    return result


def measure(args: argparse.Namespace, seed: int) -> int:
    """Replay ``--games`` games per mess level with ``--tracker`` and count exact, stop short, wrong."""
    jobs = [
        (
            f"{seed}:{n}",
            args.profiles[n % len(args.profiles)],
            level,
            mess_levels(level, args.only, args.off),
            args.tracker,
            args.out,
        )
        for level in args.mess
        for n in range(args.games)
    ]
    print(
        f"second_hands: seed {seed}, {args.games} games per level, mess {args.mess}, tracker {args.tracker}", flush=True
    )
    by_level: dict[float, list[dict[str, object]]] = {level: [] for level in args.mess}
    for n, result in enumerate(heldout.run_all(measure_one, jobs, args.jobs), start=1):
        by_level[float(result["mess"])].append(result)  # type: ignore[arg-type]
        if n % 100 == 0:
            print(f"  {n}/{len(jobs)} games", file=sys.stderr, flush=True)
    cells = []
    for level, results in by_level.items():
        cell = heldout.Cell.of("second_hands", args.tracker, seed, level, results)
        cells.append(cell)
        print(cell.line())
        for r in sorted(results, key=lambda r: int(str(r["seed"]).split(":")[1])):
            if r["verdict"] != "exact":
                print(f"  {r['verdict']:5} game {r['seed']} {r['profile']}: {r['why']}  {r.get('path', '')}")
    if args.table is not False:
        print(f"table: {heldout.write_table(cells, Path(args.table) if args.table else HELDOUT_TABLE)}")
    return 0 if all(c.exact == c.games for c in cells) else 1


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "out", nargs="?", help="folder for NAME.jsonl and NAME.expected.json (with --measure: the games not exact)"
    )
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", default="0", help="a whole number, or 'random' (drawn and printed)")
    parser.add_argument(
        "--mess",
        type=float,
        nargs="+",
        default=None,
        help="probability of each kind where it can happen (default 0.25; with --measure 0.05 0.1 0.25)",
    )
    parser.add_argument("--profiles", nargs="+", default=list(PROFILES), choices=list(PROFILES))
    parser.add_argument("--only", nargs="+", choices=KINDS, help="play only these kinds of mess")
    parser.add_argument("--off", nargs="+", choices=KINDS, help="never play these kinds of mess")
    parser.add_argument("--game", type=int, help="write only game number N of the run (to cut a failing one down)")
    parser.add_argument("--window", type=int, nargs=2, metavar=("FIRST", "LAST"), help="mess only on these turns")
    parser.add_argument("--turns", type=int, help="stop the game after this many turns (record so far expected)")
    parser.add_argument(
        "--measure", action="store_true", help="replay every game with --tracker and count exact, stop short, wrong"
    )
    parser.add_argument("--tracker", default="morris_pi.tracker:Tracker", help="with --measure: MODULE:CALLABLE")
    parser.add_argument("--jobs", type=int, default=1, help="with --measure: worker processes")
    parser.add_argument(
        "--table", default=None, help="with --measure: the table to write (bench/results/tracker-heldout.md)"
    )
    parser.add_argument("--no-table", dest="table", action="store_false", help="with --measure: write no table")
    args = parser.parse_args(argv)
    if not args.measure:
        # writing the traces is morris-pi traces second_hands: the same options, the same files
        return cli.main(["traces", "second_hands", *argv])
    if args.mess is None:
        args.mess = [0.05, 0.1, 0.25]
    for level in args.mess:
        if not 0.0 <= level <= 1.0:
            parser.error(f"--mess must lie in 0..1, got {level}")
    if args.games < 1 or args.jobs < 1:
        parser.error("--games and --jobs must be at least 1")
    try:
        seed = heldout.parse_seed(args.seed)
    except ValueError:
        parser.error(f"--seed takes a whole number or 'random', got {args.seed!r}")
    if args.seed == "random":
        print(f"seed drawn: {seed}", flush=True)
    if args.game is not None or args.window or args.turns is not None:
        parser.error("--measure plays whole games: --game, --window and --turns do not apply")
    try:
        heldout.load_tracker(args.tracker)
    except ValueError as exc:
        parser.error(str(exc))
    return measure(args, seed)


if __name__ == "__main__":
    raise SystemExit(main())
