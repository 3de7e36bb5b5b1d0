"""Level ladder: levels play each other and a greedy baseline, both colours, varied openings.

    python bench/match.py [--pairs greedy-1,1-2,...] [--openings 10] [--jobs 2] [--cap 200]
                          [--log runs/ladder.jsonl] [--set 7:nodes=4000,noise=16]
    python bench/match.py --summarize runs/ladder.jsonl [more.jsonl ...]

``greedy`` takes the turn whose result evaluates best (no look-ahead), the
beginner that level 1 is meant to lose to; ``random`` plays any legal turn.

Every game starts from one of ``--openings`` random openings (2 or 4 placements)
and is played twice with colours swapped (a pair). All players use node budgets
with fixed seeds, so a rerun gives the same games on any machine. A game still
running after ``--cap`` turns counts as a draw. Prints one row per pairing:
wins/draws/losses of the stronger side, its score with a 95% interval from the
games (trinomial) and from the pairs (pentanomial: each opening's two games as
one sample, which removes the opening's bias), the Elo difference with the pair
interval, and the CPU seconds per turn of each side; then a ladder of Elo
estimates chained from the greedy baseline = 0.

``--openings`` can differ per pairing: ``--pairs 8-9:6,9-10:6`` plays 6.
``--set N:nodes=..,noise=..,depth=..|none,book=on|off,placing=0..4`` tries other settings
for level N (repeatable) without editing ``levels.py``; the log records the
settings each game was played with. ``--log`` appends one JSON line per game as
it finishes, so an interrupted run keeps its games; ``--summarize`` prints the
table from logs (a later line for the same game replaces an earlier one). A
seeded game is the same game in every run, so ``--pairs 9-10:20 --skip 10``
adds openings 10-19 to a run that logged 0-9.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections.abc import Iterable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.results import record
from morris_pi.engine import levels
from morris_pi.engine.levels import get_level
from morris_pi.engine.tune import GameReport, GameTask, PlayerSpec, openings, play_game_report

DEFAULT_PAIRS = "greedy-1,1-2,2-3,3-4,4-5,5-6,6-7,7-8,8-9,9-10"
Overrides = dict[int, dict[str, Any]]


def spec(name: str) -> PlayerSpec:
    """A player named on the command line: ``greedy``, ``random`` or a level (ValueError otherwise)."""
    if name == "greedy":
        return ("greedy",)
    if name == "random":
        return ("random",)
    return ("level", get_level(int(name)).number)


def parse_set(text: str) -> tuple[int, dict[str, Any]]:
    """``7:nodes=4000,noise=16,depth=none,book=off`` -> (7, changes); ValueError names what is wrong.

    >>> parse_set("7:nodes=4000,noise=16,depth=none,book=off")
    (7, {'nodes': 4000, 'noise': 16, 'depth': None, 'book': False})
    """
    number, sep, rest = text.partition(":")
    if not sep:
        raise ValueError(f"{text!r}: expected LEVEL:key=value,...")
    level = get_level(int(number)).number
    changes: dict[str, Any] = {}
    for item in rest.split(","):
        key, eq, value = item.partition("=")
        if not eq:
            raise ValueError(f"{item!r}: expected key=value")
        if key in ("nodes", "noise"):
            changes[key] = int(value)
        elif key == "depth":
            changes[key] = None if value == "none" else int(value)
        elif key == "placing":
            if value not in ("0", "1", "2", "3", "4"):
                raise ValueError(f"placing={value!r}: 0 (off) to 4 moving turns")
            changes["placing_extension"] = int(value)
        elif key == "book":
            if value not in ("on", "off"):
                raise ValueError(f"book={value!r}: on or off")
            changes[key] = value == "on"
        else:
            raise ValueError(f"unknown setting {key!r} (nodes, noise, depth, book, placing)")
    return level, changes


def apply_overrides(overrides: Overrides) -> None:
    """Replace level settings in a worker process (the games run only there)."""
    for number, changes in overrides.items():
        levels.LEVELS[number] = replace(levels.LEVELS[number], **changes)


def settings(name: str, overrides: Overrides) -> dict[str, Any] | str:
    """What a player was, for the log: a level's settings (with ``--set``), or the baseline's name."""
    if name in ("greedy", "random"):
        return name
    level = get_level(int(name))
    lv = asdict(replace(level, **overrides.get(level.number, {})))
    del lv["description"], lv["seconds"]  # the seeded bench uses node budgets only
    if not lv["placing_extension"]:
        del lv["placing_extension"]  # off: logged as before the setting existed, so old logs compare
    return lv


# -- statistics ---------------------------------------------------------------------------


def interval(samples: list[float]) -> tuple[float, float]:
    """Mean and 95% half-width (normal approximation) of per-game or per-pair scores.

    >>> mean, half = interval([1.0, 0.5, 1.0, 0.0])
    >>> mean, round(half, 3)
    (0.625, 0.469)
    """
    n = len(samples)
    mean = sum(samples) / n
    if n < 2:
        return mean, 0.5
    return mean, 1.96 * math.sqrt(statistics.variance(samples) / n)


def elo_of(score: float) -> float:
    s = min(max(score, 1e-3), 1 - 1e-3)
    return -400 * math.log10(1 / s - 1)


def row(games: list[dict[str, Any]]) -> dict[str, Any]:
    """One pairing's figures from its logged games (stronger side's view)."""
    scores = [g["score"] for g in games]
    by_opening: dict[int, list[float]] = {}
    for g in games:
        by_opening.setdefault(g["opening_index"], []).append(g["score"])
    pairs = [sum(s) / 2 for s in by_opening.values() if len(s) == 2]
    s, half = interval(scores)
    ps, phalf = interval(pairs) if pairs else (s, 0.5)
    # Per-turn CPU; a player that takes no time (greedy) shows as 0.
    strong_cpu = sum(g["cpu_strong"] for g in games) / max(1, sum(g["turns_strong"] for g in games))
    weak_cpu = sum(g["cpu_weak"] for g in games) / max(1, sum(g["turns_weak"] for g in games))
    return {
        "games": len(games),
        "wins": scores.count(1.0),
        "draws": scores.count(0.5),
        "losses": scores.count(0.0),
        "score": s,
        "half_games": half,
        "pairs": len(pairs),
        "half_pairs": phalf if pairs else None,
        "elo": elo_of(s),
        "elo_low": elo_of(ps - phalf) if pairs else elo_of(s - half),
        "elo_high": elo_of(ps + phalf) if pairs else elo_of(s + half),
        "cpu_strong": strong_cpu,
        "cpu_weak": weak_cpu,
        "turns": statistics.median(g["turns"] for g in games),
    }


HEADER = (
    f"{'pairing':>10} {'games':>5} {'W-D-L':>9} {'score':>5} {'95% games':>10} {'95% pairs':>10} "
    f"{'Elo':>5} {'Elo 95% (pairs)':>16} {'cpu s/turn':>13} {'turns':>5}"
)


def format_row(label: str, r: dict[str, Any]) -> str:
    wdl = f"{r['wins']}-{r['draws']}-{r['losses']}"
    games = f"±{r['half_games']:.3f}"
    pairs = f"±{r['half_pairs']:.3f}" if r["half_pairs"] is not None else "-"
    elo_range = f"{r['elo_low']:+.0f} to {r['elo_high']:+.0f}"
    cpu = f"{r['cpu_weak']:.3f}/{r['cpu_strong']:.3f}"
    return (
        f"{label:>10} {r['games']:>5} {wdl:>9} {r['score']:>5.3f} {games:>10} {pairs:>10} "
        f"{r['elo']:>+5.0f} {elo_range:>16} {cpu:>13} {r['turns']:>5.0f}"
    )


def print_table(groups: dict[str, list[dict[str, Any]]], source: str = "") -> None:
    """The table of every pairing, the Elo ladder, and their rows in ``bench/results/match.md``
    (``source``: the logs the games were read from, when they were not played now)."""
    print(HEADER)
    ladder: dict[str, float] = {"greedy": 0.0}
    table = []
    for label in sorted(groups, key=_ladder_order):
        r = row(groups[label])
        print(format_row(label, r), flush=True)
        table.append(
            {
                "pairing (weaker v stronger)": f"{label} ({_settings_of(groups[label])})"
                + (f", from {source}" if source else ""),
                "games": r["games"],
                "W-D-L (stronger)": f"{r['wins']}-{r['draws']}-{r['losses']}",
                "score": f"{r['score']:.3f} ±{r['half_games']:.3f}",
                "score (pairs)": f"±{r['half_pairs']:.3f}" if r["half_pairs"] is not None else "-",
                "Elo": f"{r['elo']:+.0f} ({r['elo_low']:+.0f} to {r['elo_high']:+.0f})",
                "cpu s/turn weaker/stronger": f"{r['cpu_weak']:.3f}/{r['cpu_strong']:.3f}",
                "median turns": f"{r['turns']:.0f}",
            }
        )
        weak, _, strong = label.partition(" v ")
        if weak in ladder and strong not in ladder:  # the first (adjacent) pairing sets a level's rung
            ladder[strong] = ladder[weak] + r["elo"]
    print("(W-D-L, score and Elo are the stronger side's; cpu s/turn: weaker/stronger)")
    print("\nElo ladder (greedy baseline = 0, chained through adjacent pairings):")
    for name, value in ladder.items():
        print(f"  {name:>6}: {value:+.0f}")
    if table:
        path = record(
            "match",
            "Level ladder (bench/match.py)",
            list(table[0]),
            table,
            notes="Seeded node budgets: the same games on any machine. W-D-L, score and Elo are the "
            "stronger side's; the pairs interval counts each opening's two games as one sample. A row "
            '"from" a log summarises games played earlier (`--summarize`); its commit is the one it was '
            "summarised at.",
        )
        print(f"(table: {path})")


def _settings_of(games: list[dict[str, Any]]) -> str:
    """The openings a row was played from, and any level setting that is not the shipped one."""
    out = [f"{len({g['opening_index'] for g in games})} openings"]
    weak, _, strong = games[0]["pairing"].partition("-")
    for name, played in ((weak, games[0]["weak"]), (strong, games[0]["strong"])):
        shipped = settings(name, {})
        if isinstance(played, dict) and isinstance(shipped, dict):
            changed = {k: v for k, v in played.items() if shipped.get(k) != v}
            if changed:
                out.append(f"level {name} " + ", ".join(f"{k}={v}" for k, v in sorted(changed.items())))
    return "; ".join(out)


def _ladder_order(label: str) -> tuple[int, int, str]:
    """Rows by the stronger level, then the weaker (levels before the baselines): the ladder's order."""
    weak, _, strong = label.partition(" v ")
    strong = strong.split(" #")[0]
    return (int(strong) if strong.isdigit() else 0, 0 if weak.isdigit() else 1, label)


def read_logs(paths: Iterable[str]) -> dict[str, list[dict[str, Any]]]:
    """Games by pairing and settings; a later line for the same game replaces an earlier one."""
    games: dict[tuple[str, str, int, bool], dict[str, Any]] = {}
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    g = json.loads(line)
                    key = (g["pairing"], json.dumps([g["weak"], g["strong"]], sort_keys=True))
                    games[(*key, g["opening_index"], g["strong_white"])] = g
                except (ValueError, KeyError, TypeError) as exc:
                    raise ValueError(f"{path}, line {n}: not a game of bench/match.py ({exc})") from None
    groups: dict[str, list[dict[str, Any]]] = {}
    labels: dict[str, str] = {}
    for (pairing, fingerprint, _, _), g in games.items():
        # The same pairing played with other settings is a separate row.
        label = labels.setdefault(f"{pairing}|{fingerprint}", _label(pairing, labels))
        groups.setdefault(label, []).append(g)
    return groups


def _label(pairing: str, labels: dict[str, str]) -> str:
    weak, _, strong = pairing.partition("-")
    base = f"{weak} v {strong}"
    taken = sum(1 for v in labels.values() if v == base or v.startswith(base + " #"))
    return base if not taken else f"{base} #{taken + 1}"


# -- running ------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--pairs", default=DEFAULT_PAIRS, help="weaker-stronger pairs, optionally :openings")
    parser.add_argument("--openings", type=int, default=10)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--cap", type=int, default=200)
    parser.add_argument(
        "--skip", type=int, default=0, help="leave out each pairing's first SKIP openings (logged by an earlier run)"
    )
    parser.add_argument("--log", metavar="PATH.jsonl", help="append one JSON line per finished game")
    parser.add_argument(
        "--set", action="append", default=[], metavar="N:key=value,...", help="try other level settings"
    )
    parser.add_argument("--summarize", nargs="+", metavar="LOG", help="print the table of logged games and exit")
    args = parser.parse_args(argv)
    if args.summarize:
        try:
            print_table(read_logs(args.summarize), source=" + ".join(Path(p).name for p in args.summarize))
        except (OSError, ValueError) as exc:
            parser.error(f"--summarize: {exc}")
        return
    overrides: Overrides = {}
    for text in args.set:
        try:
            number, changes = parse_set(text)
        except ValueError as exc:
            parser.error(f"--set: {exc}")
        overrides.setdefault(number, {}).update(changes)
    pairings = []
    for item in args.pairs.split(","):
        pair, _, n = item.partition(":")
        try:
            weak, strong = pair.split("-")
            pairings.append((weak, strong, spec(weak), spec(strong), int(n) if n else args.openings))
        except ValueError:
            parser.error(f"--pairs: {item!r} is not WEAK-STRONG[:OPENINGS] of greedy, random or levels 1-10")
    log = open(args.log, "a", encoding="utf-8") if args.log else None  # noqa: SIM115 (open for the whole run)
    started = time.time()
    # Every game of every pairing goes into one pool, so no core idles at a pairing's end.
    jobs: list[tuple[str, dict[str, Any], GameTask]] = []
    for weak, strong, weak_player, strong_player, n_openings in pairings:
        for i, opening in list(enumerate(openings(n_openings)))[args.skip :]:
            for strong_white in (True, False):
                # The seed as match() in tune.py makes it, so the games repeat the earlier runs'.
                task: GameTask = (strong_player, weak_player, opening, strong_white, i * 2 + strong_white, args.cap)
                meta = {
                    "pairing": f"{weak}-{strong}",
                    "weak": settings(weak, overrides),
                    "strong": settings(strong, overrides),
                    "opening_index": i,
                    "opening": opening,
                    "strong_white": strong_white,
                }
                jobs.append((f"{weak} v {strong}", meta, task))
    remaining = {label: sum(1 for j in jobs if j[0] == label) for label, _, _ in jobs}
    groups: dict[str, list[dict[str, Any]]] = {label: [] for label in remaining}
    print(HEADER, flush=True)
    with ProcessPoolExecutor(max_workers=max(1, args.jobs), initializer=apply_overrides, initargs=(overrides,)) as pool:
        pending: dict[Future[GameReport], tuple[str, dict[str, Any]]] = {
            pool.submit(play_game_report, task): (label, meta) for label, meta, task in jobs
        }
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for fut in done:
                label, meta = pending.pop(fut)
                rep = fut.result()
                game = {
                    **meta,
                    "score": rep.score,
                    "winner": rep.winner,
                    "reason": rep.reason,
                    "turns": rep.turns,
                    "cpu_strong": round(rep.cpu_a, 3),
                    "cpu_weak": round(rep.cpu_b, 3),
                    "turns_strong": rep.turns_a,
                    "turns_weak": rep.turns_b,
                    "record": rep.record,
                }
                groups[label].append(game)
                if log is not None:
                    log.write(json.dumps(game) + "\n")
                    log.flush()
                remaining[label] -= 1
                if not remaining[label]:
                    print(format_row(label, row(groups[label])), flush=True)
    if log is not None:
        log.close()
    print(f"\n{(time.time() - started) / 60:.1f} min")
    print_table(groups)


if __name__ == "__main__":
    main()
