"""Soak the tracker with physical traces: many messy games, replayed, exact records counted.

    python bench/soak.py [--games 2000] [--seed 0] [--noise 0.25] [--kinds bounce,lost,...]
                         [--out soak-failures] [--jobs 2] [--engine-share 0.25]

Games cycle through the six profiles and the three modes (two players; the computer as
white; the computer as black). Against the computer, a share of the games (--engine-share)
uses the engine at level 1-2 with the game's seed in the header, the rest replay's
first-legal player; either way the expected record is the one replay's player makes. Each
trace goes through ``morris_pi.replay.run`` (what ``morris-pi replay --json`` runs). A game
counts as exact when the last line holds exactly the game's record and outcome. Every
failing trace is written to --out with its ``.expected.json`` sidecar, so
``morris-pi replay PATH`` shows it again. Exit status 1 when any game failed.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from morris_pi.physical import KINDS, MODES, Engine, generate, noise
from morris_pi.physical.files import replay_lines, verdict, write, wrong_turn_shown

PROFILES = ("standard", "move-this", "club", "no-flying", "lasker", "twelve")


def spec(index: int, base_seed: int, engine_share: float) -> dict:
    profile = PROFILES[index % len(PROFILES)]
    mode = MODES[(index // len(PROFILES)) % len(MODES)]
    seed = base_seed + index
    # A fixed pattern rather than a draw, so a game's spec depends on its index alone.
    engine = mode != "two-player" and (seed * 0.6180339887) % 1.0 < engine_share
    return {"index": index, "profile": profile, "mode": mode, "seed": seed, "level": 1 + seed % 2 if engine else None}


def run_one(job: tuple[dict, dict, str]) -> dict:
    game, mess, out = job
    computer = Engine(game["level"], game["seed"]) if game["level"] else None
    started = time.perf_counter()
    trace = generate(game["profile"], game["seed"], mode=game["mode"], mess=mess, computer=computer)
    code, rows, err = replay_lines(trace.lines())
    ok, why = verdict(rows, trace.expected())
    if code != 0:
        ok, why = False, f"replay refused lines: {err.strip()[:200]}"
    result = {
        **game,
        "target": trace.target,
        "turns": trace.turns,
        "ok": ok,
        "why": why,
        "mess": trace.mess,
        "flying": trace.flying,
        "shown_wrong": wrong_turn_shown(rows, trace.expected()),
        "seconds": time.perf_counter() - started,
    }
    if not ok:
        name = f"{game['profile']}-{game['mode']}-seed{game['seed']}"
        result["path"] = str(write(trace, Path(out), name))
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--noise", type=float, default=0.25, help="probability of each kind of mess")
    parser.add_argument("--kinds", default=",".join(KINDS), help=f"comma-separated, of: {', '.join(KINDS)}")
    parser.add_argument("--out", default="soak-failures", help="folder for the failing traces")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument(
        "--engine-share", type=float, default=0.25, help="share of the computer games played by the engine (level 1-2)"
    )
    args = parser.parse_args(argv)
    kinds = [k.strip() for k in args.kinds.split(",") if k.strip()]
    try:
        mess = noise(args.noise, kinds)
    except ValueError as exc:
        parser.error(str(exc))
    if args.games < 1 or args.jobs < 1:
        parser.error("--games and --jobs must be at least 1")
    jobs = [(spec(i, args.seed, args.engine_share), mess, args.out) for i in range(args.games)]
    started = time.perf_counter()
    results: list[dict] = []
    pool = Pool(args.jobs) if args.jobs > 1 else None
    try:
        answers = pool.imap_unordered(run_one, jobs, chunksize=4) if pool else map(run_one, jobs)
        for n, result in enumerate(answers, start=1):
            results.append(result)
            if n % 100 == 0:
                done = sum(r["ok"] for r in results)
                print(f"  {n}/{args.games} games, {done} exact", file=sys.stderr, flush=True)
    finally:
        if pool:
            pool.close()
            pool.join()
    results.sort(key=lambda r: r["index"])
    wall = time.perf_counter() - started
    report(results, args, wall)
    return 0 if all(r["ok"] for r in results) else 1


def report(results: list[dict], args: argparse.Namespace, wall: float) -> None:
    exact = sum(r["ok"] for r in results)
    total = len(results)
    mess = Counter()
    for r in results:
        mess.update(r["mess"])
    print(f"soak: {total} games, noise {args.noise} per kind, seed {args.seed}, {args.jobs} jobs, {wall:.0f} s")
    print(f"exact record and outcome: {exact} of {total} ({100 * exact / total:.1f} %)")
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
            level = f" level {r['level']}" if r["level"] else ""
            print(f"  seed {r['seed']} {r['profile']} {r['mode']}{level} target {r['target']}: {r['why']}  {r['path']}")


if __name__ == "__main__":
    raise SystemExit(main())
