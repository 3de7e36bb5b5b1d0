"""``morris-pi perft DEPTH``: count the turn tree from the start position (or after a record)."""

from __future__ import annotations

import argparse
import sys
import time

from morris_pi.rules import Position, perft

from . import Subparsers
from .progress import Progress, add_progress_argument
from .record_args import add_record_arguments, game_from_args

#: The deepest count accepted. perft(6) from the start takes about 14 s here, and each turn
#: deeper multiplies that by some 20 while placing: 7 takes minutes, 8 would take hours.
MAX_DEPTH = 7


def _depth(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:20]!r} is not a whole number") from None
    if not 0 <= value <= MAX_DEPTH:
        raise argparse.ArgumentTypeError(
            f"{text[:20]} is out of range: DEPTH must be 0 to {MAX_DEPTH} "
            "(each turn deeper takes about 20 times longer)"
        )
    return value


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser("perft", help="count legal turn sequences to a depth (rules self-check)")
    parser.add_argument(
        "depth", type=_depth, help=f"number of turns, 0 to {MAX_DEPTH} (a move and its removal are one turn)"
    )
    add_record_arguments(parser, help_record="turns played before counting (default: the start)")
    add_progress_argument(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    game = game_from_args(args, "perft")
    if game is None:
        return 2
    if game.pending:
        return _fail(f"{game.pending} waits for its removal; give the whole turn")
    started = time.perf_counter()
    progress = Progress(f"perft({args.depth})", enabled=args.progress)
    if progress.enabled:
        nodes = counted(game.position, args.depth, progress)
    else:
        nodes = perft(game.position, args.depth)
    seconds = time.perf_counter() - started
    rate = nodes / seconds if seconds > 0 else float("inf")
    print(f"perft({args.depth}) = {nodes}  [{seconds:.3f} s, {rate:,.0f} leaves/s]")
    return 0


def counted(position: Position, depth: int, progress: Progress) -> int:
    """``perft`` counted first turn by first turn (and their replies), saying how far it got.

    >>> from morris_pi.rules import Position
    >>> counted(Position.start(), 3, Progress("perft(3)", enabled=False)) == perft(Position.start(), 3)
    True
    """
    if depth < 3:
        return perft(position, depth)
    first = position.turns()
    total = 0
    for i, turn in enumerate(first):
        child = position.play(turn)
        replies = child.turns()
        for j, reply in enumerate(replies):
            total += perft(child.play(reply), depth - 2)
            done = (i + (j + 1) / len(replies)) / len(first)
            progress.update(
                f"{done:.0%} ({i + 1} of {len(first)} first turns), {total:,} leaves, {progress.elapsed():.0f} s"
            )
    progress.finish(f"{len(first)} first turns, {total:,} leaves")
    return total


def _fail(message: str) -> int:
    print(f"morris-pi perft: {message}", file=sys.stderr)
    return 2
