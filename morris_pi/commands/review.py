"""``morris-pi review``: grade every turn of a game, one JSON line per turn.

    morris-pi review d6 a1 f6 a4 b6xa1          a record on the command line
    morris-pi review latest                      a finished game from the records (an id or 'latest')
    morris-pi review - < game.txt                a record on stdin
    morris-pi review --fen FEN b6xa1 ...         turns played on from a Sanmill FEN

Each line has ``ply``, ``turn``, ``side``, ``grade`` (``best``, ``good``, ``inaccuracy``,
``mistake``, ``blunder``), ``loss`` (centi-men, or ``{"from": "win", "to": "draw"}`` where a
known result changed) and ``better`` (the engine's turn where it differs and the turn was not
best), plus ``value``, ``best_value``, ``white_eval`` (centi-men after the turn, from White's
side) and ``depth``. The grades come from a fixed node budget (``--budget``, or
``--level N``: level N's node budget), with no time limit, so a review repeats exactly.
Thresholds and budgets: docs/teaching.md.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TextIO

from morris_pi.rules import PROFILES, Game, RulesError, Turn

from . import Subparsers
from .analyze import _level
from .progress import Progress, add_progress_argument
from .record_args import game_from_args


def register(subparsers: Subparsers) -> None:
    from morris_pi.engine.grading import BUDGETS, DEFAULT_BUDGET

    parser = subparsers.add_parser(
        "review",
        help="grade every turn of a game (best to blunder), one JSON line per turn",
        description="Grade every turn of a game on a fixed search budget: one JSON line per turn with "
        "ply, turn, side, grade, loss and the better turn. The same game and budget give the same lines.",
    )
    parser.add_argument(
        "--profile", default=None, choices=sorted(PROFILES), help="the rules (default: the record's, or standard)"
    )
    parser.add_argument(
        "--fen", metavar="FEN", help="the turns are played on from this position (Sanmill's FEN, quoted)"
    )
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument(
        "--budget",
        choices=list(BUDGETS),
        default=None,
        help=f"nodes searched per turn: {', '.join(f'{b.name} {b.nodes:,}' for b in BUDGETS.values())} "
        f"(default {DEFAULT_BUDGET})",
    )
    budget.add_argument("--level", type=_level, metavar="N", help="search each position with level N's node budget")
    parser.add_argument(
        "--state-dir",
        metavar="DIR",
        default=argparse.SUPPRESS,
        help="where to find a record given by id (as `records`)",
    )
    parser.add_argument("--records-dir", metavar="DIR", default=argparse.SUPPRESS, help="the records' own directory")
    parser.add_argument("--config", metavar="PATH", default=argparse.SUPPRESS, help="config whose [storage] says where")
    parser.add_argument(
        "record", nargs="*", help="the turns (d6 a1 f6 a4 b6xa1), a record id or 'latest', or '-' for stdin"
    )
    add_progress_argument(parser)
    parser.set_defaults(func=run)


def _looks_like_turns(tokens: list[str]) -> bool:
    if tokens == ["-"]:
        return True
    try:
        Turn.parse(tokens[0].removeprefix("x") if tokens[0].startswith("x") else tokens[0])
    except ValueError:
        return False
    return True


def _from_records(args: argparse.Namespace, err: TextIO) -> tuple[Game, list[str]] | None:
    """The start and turns of a stored record named by ``args.record[0]``, or ``None`` after saying why."""
    from morris_pi.core.record_format import StorageError
    from morris_pi.core.storage import Storage

    from .records import printable, storage_dirs

    name = args.record[0]
    try:
        record = Storage(*storage_dirs(args, err)).get_record(name)
    except (StorageError, OSError) as exc:
        what = printable(name[:40])
        err.write(f"morris-pi review: {what!r} is neither a turn nor a record I can read: {printable(str(exc))}\n")
        return None
    if record.error:
        err.write(f"morris-pi review: record {record.id} cannot be read: {printable(record.error)}\n")
        return None
    profile = args.profile or record.tags.get("Profile", "standard")
    fen = args.fen or record.tags.get("FEN")
    try:
        start = Game.from_fen(fen, profile) if fen else Game(profile)
        game = start.copy()
        game.play_record(record.record, first=len(start.history) + 1)
    except (RulesError, ValueError) as exc:
        err.write(f"morris-pi review: record {record.id} cannot be replayed ({profile}): {printable(str(exc))}\n")
        return None
    return start, [str(t) for t in game.history[len(start.history) :]]


def _from_arguments(args: argparse.Namespace) -> tuple[Game, list[str]] | None:
    args.profile = args.profile or "standard"
    game = game_from_args(args, "review")
    if game is None:
        return None
    start = Game.from_fen(args.fen, args.profile) if args.fen else Game(args.profile)
    return start, [str(t) for t in game.history[len(start.history) :]]


def run(args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None) -> int:
    from morris_pi.engine.grading import BUDGETS, DEFAULT_BUDGET, Budget
    from morris_pi.engine.levels import get_level
    from morris_pi.engine.review import reviews

    out = out or sys.stdout
    err = err or sys.stderr
    # a record quoted as one argument ("d6 a1 f6") reads as its turns, as in analyze and legal
    args.record = [token for argument in args.record for token in argument.split()]
    if not args.record:
        err.write("morris-pi review: give the turns, a record id (or 'latest'), or '-' to read them from stdin\n")
        return 2
    if len(args.record) == 1 and not _looks_like_turns(args.record):
        found = _from_records(args, err)
    else:
        found = _from_arguments(args)
    if found is None:
        return 2
    start, turns = found
    if not turns:
        err.write("morris-pi review: the game has no turns to review\n")
        return 2
    if args.level is not None:
        level = get_level(args.level)
        budget = Budget(f"level {level.number}", level.nodes)
    else:
        budget = BUDGETS[args.budget or DEFAULT_BUDGET]
    progress = Progress("review", err, enabled=args.progress)
    done = 0
    for reviewed in reviews(start, turns, budget=budget):
        done += 1
        out.write(json.dumps(reviewed.to_json()) + "\n")
        out.flush()
        progress.update(f"turn {done} of {len(turns)} ({budget.name}, {budget.nodes:,} nodes a turn)")
    progress.finish(f"{done} turns at {budget.nodes:,} nodes a turn")
    return 0
