"""Soak the tracker with physical traces: many messy games, replayed, exact records counted.

    python bench/soak.py [--games 2000] [--seed 0|random] [--noise 0.05 0.1 0.25] [--kinds bounce,lost,...]
                         [--out soak-failures] [--jobs 2] [--engine-share 0.25]
                         [--tracker morris_pi.tracker:Tracker] [--no-table]

Games cycle through the six profiles and the three modes (two players; the computer as
white; the computer as black). Against the computer, a share of the games (--engine-share)
uses the engine at level 1-2 with the game's seed in the header, the rest replay's
first-legal player; either way the expected record is the one replay's player makes. Each
trace goes through ``morris_pi.replay.run`` (what ``morris-pi replay --json`` runs). A game
counts as exact when the last line holds exactly the game's record and outcome; a game that is
not exact either stops short (the record so far is true and the board waits) or has a wrong turn
(``morris_pi.traces.heldout``). Each --noise level plays the same games with that much mess, and its
figures go into ``bench/results/tracker-heldout.md``. ``--tracker MODULE:CALLABLE`` measures
another tracker with the same public API. Every failing trace is written to --out with its
``.expected.json`` sidecar, so ``morris-pi replay PATH`` shows it again. Exit status 1 when any
game failed.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.results import HELDOUT_TABLE
from morris_pi.traces import heldout
from morris_pi.traces.physical import DEFAULT_KINDS, KINDS, MODES, Engine, generate, noise
from morris_pi.traces.physical.files import write

PROFILES = ("standard", "move-this", "club", "no-flying", "lasker", "twelve")


def spec(index: int, base_seed: int, engine_share: float) -> dict:
    profile = PROFILES[index % len(PROFILES)]
    mode = MODES[(index // len(PROFILES)) % len(MODES)]
    seed = base_seed + index
    # A fixed pattern rather than a draw, so a game's spec depends on its index alone.
    engine = mode != "two-player" and (seed * 0.6180339887) % 1.0 < engine_share
    return {"index": index, "profile": profile, "mode": mode, "seed": seed, "level": 1 + seed % 2 if engine else None}


def run_one(job: tuple[dict, float, dict, str, str]) -> dict:
    game, level, mess, out, tracker = job
    computer = Engine(game["level"], game["seed"]) if game["level"] else None
    started = time.perf_counter()
    trace = generate(game["profile"], game["seed"], mode=game["mode"], mess=mess, computer=computer)
    expected = trace.expected()
    code, rows, err = heldout.replay_rows(trace.lines(), tracker)
    judged = heldout.judge(rows, expected) if code == 0 else "wrong"
    why = "" if judged == "exact" else heldout.where_wrong(rows, expected)
    if code != 0:
        why = f"replay refused lines: {err.strip()[:200]}"
    result = {
        **game,
        "noise": level,
        "target": trace.target,
        "turns": trace.turns,
        "ok": judged == "exact",
        "verdict": judged,
        "why": why,
        "mess": trace.mess,
        "flying": trace.flying,
        "shown_wrong": heldout.shown_wrong(rows, expected),
        "seconds": time.perf_counter() - started,
    }
    if judged != "exact":
        name = f"{game['profile']}-{game['mode']}-seed{game['seed']}-noise{round(100 * level)}"
        result["path"] = str(write(trace, Path(out), name))
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", default="0", help="a whole number, or 'random' (drawn and printed)")
    parser.add_argument(
        "--noise",
        type=float,
        nargs="+",
        default=list(heldout.LEVELS),
        help="probability of each kind of mess; each level plays the same games",
    )
    parser.add_argument(
        "--kinds",
        default=",".join(DEFAULT_KINDS),
        help=f"comma-separated, of: {', '.join(KINDS)} (default: all but takeback)",
    )
    parser.add_argument("--out", default="soak-failures", help="folder for the failing traces")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument(
        "--engine-share", type=float, default=0.25, help="share of the computer games played by the engine (level 1-2)"
    )
    parser.add_argument("--tracker", default=heldout.DEFAULT_TRACKER, help="MODULE:CALLABLE that builds the tracker")
    parser.add_argument("--table", default=str(HELDOUT_TABLE), help="the table the figures go into")
    parser.add_argument("--no-table", dest="table", action="store_false", help="write no table")
    args = parser.parse_args(argv)
    kinds = [k.strip() for k in args.kinds.split(",") if k.strip()]
    try:
        messes = {level: noise(level, kinds) for level in args.noise}
        seed = heldout.parse_seed(args.seed)
        heldout.load_tracker(args.tracker)
    except ValueError as exc:
        parser.error(str(exc))
    if args.seed == "random":
        print(f"seed drawn: {seed}", flush=True)
    args.seed = seed
    if args.games < 1 or args.jobs < 1:
        parser.error("--games and --jobs must be at least 1")
    jobs = [
        (spec(i, seed, args.engine_share), level, mess, args.out, args.tracker)
        for level, mess in messes.items()
        for i in range(args.games)
    ]
    started = time.perf_counter()
    by_level: dict[float, list[dict]] = {level: [] for level in messes}
    for n, result in enumerate(heldout.run_all(run_one, jobs, args.jobs), start=1):
        by_level[result["noise"]].append(result)
        if n % 100 == 0:
            done = sum(r["ok"] for group in by_level.values() for r in group)
            print(f"  {n}/{len(jobs)} games, {done} exact", file=sys.stderr, flush=True)
    wall = time.perf_counter() - started
    cells = []
    for level, results in by_level.items():
        results.sort(key=lambda r: r["index"])
        report(results, args, level, wall)
        cells.append(heldout.Cell.of("soak", args.tracker, seed, level, results))
    print()
    for cell in cells:
        print(cell.line())
    if args.table is not False:
        print(f"table: {heldout.write_table(cells, Path(args.table))}")
    return 0 if all(r["ok"] for group in by_level.values() for r in group) else 1


def report(results: list[dict], args: argparse.Namespace, level: float, wall: float) -> None:
    exact = sum(r["ok"] for r in results)
    total = len(results)
    mess = Counter()
    for r in results:
        mess.update(r["mess"])
    print(
        f"soak: {total} games, noise {level} per kind, seed {args.seed}, tracker {args.tracker}, "
        f"{args.jobs} jobs, {wall:.0f} s for every level"
    )
    print(f"exact record and outcome: {exact} of {total} ({100 * exact / total:.1f} %)")
    short = sum(r["verdict"] == "short" for r in results)
    wrong = sum(r["verdict"] == "wrong" for r in results)
    print(f"stop short (a true record so far, the board waits): {short}; wrong (a turn nobody played): {wrong}")
    shown = sum(1 for r in results if r["shown_wrong"])
    print(f"games where replay showed a turn nobody played at some moment: {shown}")
    print(f"turns: {sum(r['turns'] for r in results)}, games with a flying side: {sum(r['flying'] for r in results)}")
    print("mess that occurred (count over all games):")
    for kind in KINDS:
        print(f"  {kind:15} {mess[kind]}")
    print("by profile and mode (exact / games):")
    for profile in PROFILES:
        cells = []
        for mode in MODES:
            group = [r for r in results if r["profile"] == profile and r["mode"] == mode]
            cells.append(f"{mode} {sum(r['ok'] for r in group)}/{len(group)}")
        print(f"  {profile:10} " + ", ".join(cells))
    engine = [r for r in results if r["level"]]
    if engine:
        print(f"against the engine: {sum(r['ok'] for r in engine)}/{len(engine)} exact")
    failed = [r for r in results if not r["ok"]]
    if failed:
        print(f"failures ({len(failed)}), traces in {args.out}/:")
        for r in failed:
            engine_level = f" level {r['level']}" if r["level"] else ""
            print(
                f"  {r['verdict']:5} seed {r['seed']} {r['profile']} {r['mode']}{engine_level} target {r['target']}: "
                f"{r['why']}  {r['path']}"
            )


if __name__ == "__main__":
    raise SystemExit(main())
