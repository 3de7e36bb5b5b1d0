"""Build the placing-phase opening book by deep searches.

    python -m morris_pi.engine.book_build [--plies 4] [--nodes 1000000] [--jobs 2]

Ply by ply from the start position: every position where the side to move has
played book turns so far and the opponent anything is searched with a node
budget (no noise, no time limit: the same book on any machine), and its best
turn becomes the book turn. Positions are reduced by the board's 16
symmetries first. ``--check NODES`` also searches every position with a
smaller budget and reports how often the two agree (a measure of how settled
the book turns are). Writes ``data/book.txt`` and ``data/book.json`` after every
finished ply, so a build cut short leaves a valid, shallower book.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from functools import cache

from morris_pi.rules.position import Position, RawTurn, tables_for
from morris_pi.rules.profiles import get_profile

from .book import BOOK_FILE, MANIFEST, BookKey, Entry, canonical, format_line, from_canonical, settings, to_canonical
from .search import Limits, Searcher

#: One book search: profile, position, node budget.
Task = tuple[str, BookKey, int]
#: Its result: the position, the best turn (``None``: no legal turn), score and depth.
Found = tuple[BookKey, RawTurn | None, int, int]
#: Build statistics: one row per finished ply.
Stats = dict[str, list[dict[str, object]]]
Log = Callable[[dict[str, object]], None]


@cache
def _searcher(profile: str) -> Searcher:
    """One searcher per profile and process (the workers of a pool keep theirs between tasks)."""
    return Searcher(profile)


def _search(task: Task) -> Found:
    profile, key, nodes = task
    searcher = _searcher(profile)
    w, b, hw, hb, side = key
    pos = Position(tables_for(profile), (w, b), (hw, hb), side, 0)
    searcher.clear()
    r = searcher.search(pos, (), Limits(nodes=nodes))
    return key, r.turn, r.score, r.depth


def positions_at(profile: str, ply: int, book: dict[BookKey, Entry]) -> list[Position]:
    """Positions after ``ply`` turns where the side to move now played only book turns."""
    start = Position.start(profile)
    mover = ply % 2  # the side to move after ``ply`` turns
    layer = {canonical(start)[0]: start}
    for p in range(ply):
        nxt: dict[BookKey, Position] = {}
        for pos in layer.values():
            if pos.side == mover:
                key, sym = canonical(pos)
                entry = book.get(key)
                if entry is None:
                    raise RuntimeError(f"book misses a position at ply {p}: {pos}")
                turns = [from_canonical(entry.turn, sym)]
            else:
                turns = pos.turns()
            for turn in turns:
                child = pos.play(turn)
                if child.count(0) < 3 or child.count(1) < 3:
                    continue
                k, _ = canonical(child)
                nxt.setdefault(k, child)
        layer = nxt
    return list(layer.values())


def build(
    profile: str,
    plies: int,
    nodes: int,
    jobs: int,
    check: int | None,
    log: Log,
    done: Callable[[dict[BookKey, Entry], int, Stats], None] | None = None,
) -> tuple[dict[BookKey, Entry], Stats]:
    """Search ply by ply; ``done(book, plies_complete, stats)`` after each ply (a build cut short
    still leaves a valid book of the plies it finished)."""
    book: dict[BookKey, Entry] = {}
    stats: Stats = {"per_ply": []}
    pool = ProcessPoolExecutor(max_workers=jobs) if jobs > 1 else None
    try:
        for ply in range(plies):
            todo = positions_at(profile, ply, book)
            keys = [canonical(pos)[0] for pos in todo]
            started = time.perf_counter()
            tasks = [(profile, k, nodes) for k in keys]
            results = list(pool.map(_search, tasks)) if pool else [_search(t) for t in tasks]
            depths = []
            for key, turn, score, depth in results:
                if turn is None:  # positions_at keeps only positions where the game goes on
                    raise RuntimeError(f"no legal turn in book position {key}")
                # stored in canonical coordinates: the key's position is already canonical
                book[key] = Entry(to_canonical(turn, 0), score, depth)
                depths.append(depth)
            row: dict[str, object] = {
                "ply": ply,
                "positions": len(keys),
                "seconds": round(time.perf_counter() - started, 1),
                "min_depth": min(depths),
                "max_depth": max(depths),
            }
            if check:
                small = (
                    list(pool.map(_search, [(profile, k, check) for k in keys]))
                    if pool
                    else [_search((profile, k, check)) for k in keys]
                )
                agree = sum(1 for (_, t, _, _), (_, t2, _, _) in zip(results, small, strict=True) if t == t2)
                row["agree_with_smaller_budget"] = f"{agree}/{len(keys)}"
            stats["per_ply"].append(row)
            log(row)
            if done is not None:
                done(book, ply + 1, stats)
    finally:
        if pool:
            pool.shutdown()
    return book, stats


def write(book: dict[BookKey, Entry], profile: str, plies: int, nodes: int, stats: Stats) -> None:
    lines = [format_line(key, entry) for key, entry in sorted(book.items())]
    text = "\n".join(lines) + "\n"
    BOOK_FILE.write_text(text)
    manifest = {
        "file": BOOK_FILE.name,
        "sha256": hashlib.sha256(text.encode("ascii")).hexdigest(),
        "plies": plies,
        "positions": len(book),
        "nodes_per_position": nodes,
        "profile": profile,
        "settings": settings(get_profile(profile)),
        "command": f"python -m morris_pi.engine.book_build --plies {plies} --nodes {nodes}",
        "stats": stats,
    }
    MANIFEST.write_text(json.dumps(manifest, indent=1) + "\n")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m morris_pi.engine.book_build", description=(__doc__ or "").splitlines()[0]
    )
    parser.add_argument("--profile", default="standard")
    parser.add_argument("--plies", type=int, default=4, help="turns from the start the book covers")
    parser.add_argument("--nodes", type=int, default=1_000_000, help="node budget per book position")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--check", type=int, metavar="NODES", help="also search with NODES and report agreement")
    args = parser.parse_args(argv)
    if args.plies < 1 or args.nodes < 1:
        parser.error("--plies and --nodes must be positive")

    def log(row: dict[str, object]) -> None:
        print(json.dumps(row), flush=True)

    def done(book: dict[BookKey, Entry], plies: int, stats: Stats) -> None:
        write(book, args.profile, plies, args.nodes, stats)
        print(f"wrote {len(book)} positions ({plies} plies) to {BOOK_FILE}", file=sys.stderr, flush=True)

    build(args.profile, args.plies, args.nodes, args.jobs, args.check, log, done)
    return 0


if __name__ == "__main__":
    sys.exit(main())
