"""The ``[--profile P] [RECORD]`` arguments that several subcommands share."""

from __future__ import annotations

import argparse
import sys

from morris_pi.rules import PROFILES, Game


def add_record_arguments(parser: argparse.ArgumentParser, *, help_record: str = "the turns so far") -> None:
    parser.add_argument("--profile", default="standard", choices=sorted(PROFILES))
    parser.add_argument("record", nargs="*", help=f"{help_record}, e.g. d6 a1 f6 a4 b6xa1 ('-' reads stdin)")


def game_from_args(args: argparse.Namespace, command: str) -> Game | None:
    """The game after the record given on the command line or stdin; ``None`` after printing why not."""
    text = sys.stdin.read() if args.record == ["-"] else " ".join(args.record)
    try:
        return Game.from_record(text, args.profile)
    except ValueError as exc:
        print(f"morris-pi {command}: {exc}", file=sys.stderr)
        return None
