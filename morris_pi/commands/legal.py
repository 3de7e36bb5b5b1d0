"""``morris-pi legal [RECORD]``: print the legal turns after a record, one per line."""

from __future__ import annotations

import argparse
import sys

from . import Subparsers
from .record_args import add_record_arguments, game_from_args


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser("legal", help="list the legal turns after a game record")
    add_record_arguments(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    game = game_from_args(args, "legal")
    if game is None:
        return 2
    if game.outcome:
        print(f"# game over: {game.outcome}", file=sys.stderr)
        return 0
    for turn in game.legal_turns():
        print(turn)
    return 0
