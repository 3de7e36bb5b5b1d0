"""``morris-pi legal [RECORD]``: print the legal turns after a record, one per line."""

from __future__ import annotations

import argparse
import sys

from morris_pi.rules import PROFILES, Game


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("legal", help="list the legal turns after a game record")
    parser.add_argument("--profile", default="standard", choices=sorted(PROFILES))
    parser.add_argument("record", nargs="*", help="the turns so far, e.g. d6 a1 f6 a4 b6xa1 ('-' reads stdin)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    text = sys.stdin.read() if args.record == ["-"] else " ".join(args.record)
    try:
        game = Game.from_record(text, args.profile)
    except ValueError as exc:
        print(f"morris-pi legal: {exc}", file=sys.stderr)
        return 2
    if game.outcome:
        print(f"# game over: {game.outcome}", file=sys.stderr)
        return 0
    for turn in game.legal_turns():
        print(turn)
    return 0
