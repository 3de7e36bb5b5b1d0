"""``morris-pi analyze``: search the position after a record and print the result as JSON.

``--level N`` uses level N's node budget and placing extension (without its
noise, and with a fixed seed, so the answer repeats); ``--time S`` searches S
seconds; ``--depth D`` searches D turns deep, both without the extension. The
default is level 10.

Output fields: ``turn`` (the chosen turn), ``score`` (centi-men for the side to
move, or ``{"win_in": n}`` / ``{"loss_in": n}`` turns for a known result),
``depth``, ``nodes``, ``time`` (seconds), ``pv`` (the principal variation),
plus ``profile``, ``side``, ``record`` and ``limits``.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from morris_pi.rules import Turn

from . import Subparsers
from .arguments import positive
from .progress import Progress, add_progress_argument
from .record_args import add_record_arguments, game_from_args

#: The deepest search accepted. Depth 10 takes some 20 s in the placing phase here and each
#: turn deeper about doubles it: 16 is around an hour at worst, and cheap in an endgame.
MAX_DEPTH = 16


def _depth(text: str) -> int:
    value = positive(text)
    if value > MAX_DEPTH:
        raise argparse.ArgumentTypeError(
            f"{text[:20]} is too deep: --depth must be 1 to {MAX_DEPTH} (each turn deeper about doubles the time)"
        )
    return value


def _level(text: str) -> int:
    value = positive(text)
    if value > 10:
        raise argparse.ArgumentTypeError(f"{text!r}: levels are 1 to 10")
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 < value <= 3600:
        raise argparse.ArgumentTypeError(f"{text!r}: give between 0 and 3600 seconds")
    return value


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "analyze",
        help="search the position after a game record and print JSON",
        description="Search the position after a game record; print the chosen turn, score, depth, "
        "nodes, time and principal variation as JSON.",
    )
    add_record_arguments(parser)
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--level", type=_level, help="search with level N's node budget, no noise (default 10)")
    budget.add_argument("--time", type=_seconds, metavar="S", help="search for S seconds")
    budget.add_argument("--depth", type=_depth, metavar="D", help=f"search D turns deep (1 to {MAX_DEPTH})")
    add_progress_argument(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from morris_pi.engine.levels import get_level
    from morris_pi.engine.search import Limits, Searcher, score_form

    game = game_from_args(args, "analyze")
    if game is None:
        return 2
    described: dict[str, float]
    extension = 0  # --depth and --time: the plain search
    if args.depth is not None:
        limits, described = Limits(depth=args.depth), {"depth": args.depth}
    elif args.time is not None:
        limits, described = Limits(time=args.time), {"time": args.time}
    else:
        level = get_level(args.level or 10)
        limits = Limits(depth=level.depth, nodes=level.nodes)
        described = {"level": level.number, "nodes": level.nodes}
        extension = level.placing_extension  # searched as the level searches, without its noise
    out: dict[str, object] = {
        "profile": game.profile.name,
        "record": game.record,
        "side": game.turn,
        "limits": described,
    }
    if getattr(args, "fen", None):
        out["fen"] = args.fen
    if game.pending:
        out["pending"] = str(game.pending)
    if game.outcome:
        out.update(
            {
                "outcome": game.outcome.to_dict(),
                "turn": None,
                "score": None,
                "depth": 0,
                "nodes": 0,
                "time": 0.0,
                "pv": [],
            }
        )
        print(json.dumps(out))
        return 0
    searcher = Searcher(game.profile, placing_extension=extension)
    restrict = [t.to_raw() for t in game.legal_turns()] if game.pending else None
    progress = Progress("analyze", enabled=args.progress)
    beat = _Heartbeat(searcher, progress, limits) if progress.enabled else None
    result = searcher.search(game.position, game.positions, limits, restrict=restrict, stop_flag=beat)
    progress.finish(f"depth {result.depth}, {result.nodes:,} nodes")
    out.update(
        {
            "turn": str(Turn.from_raw(result.turn)) if result.turn else None,
            "score": score_form(result.score),
            "depth": result.depth,
            "nodes": result.nodes,
            "time": round(result.time, 3),
            "pv": [str(Turn.from_raw(t)) for t in result.pv],
        }
    )
    print(json.dumps(out))
    return 0


class _Heartbeat:
    """Progress during a search. The search asks its stop flag every 256 nodes and calls out
    nowhere else, so this flag never stops it and only reports how far it got."""

    def __init__(self, searcher: Any, progress: Progress, limits: Any) -> None:
        self.searcher, self.progress = searcher, progress
        self.of_time = f" of {limits.time:g} s" if limits.time is not None else ""
        self.of_nodes = f" of {limits.nodes:,}" if limits.nodes is not None else ""

    def is_set(self) -> bool:
        self.progress.update(self.line)
        return False

    def line(self) -> str:
        best = self.searcher.root_pv[0] if self.searcher.root_pv else None
        so_far = f", best so far {Turn.from_raw(best)}" if best else ""
        return f"{self.progress.elapsed():.0f} s{self.of_time}, {self.searcher.nodes:,}{self.of_nodes} nodes{so_far}"
