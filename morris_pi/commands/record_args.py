"""The ``[--profile P] [--fen FEN] [RECORD]`` arguments that several subcommands share."""

from __future__ import annotations

import argparse
import sys

from morris_pi.rules import PROFILES, Game, IllegalTurnError

from .streams import read_stdin_capped


def add_record_arguments(parser: argparse.ArgumentParser, *, help_record: str = "the turns so far") -> None:
    parser.add_argument("--profile", default="standard", choices=sorted(PROFILES))
    parser.add_argument(
        "--fen",
        metavar="FEN",
        help="start from this position (Sanmill's FEN, quoted) instead of the empty board; a record continues from it",
    )
    parser.add_argument("record", nargs="*", help=f"{help_record}, e.g. d6 a1 f6 a4 b6xa1 ('-' reads stdin)")


def game_from_args(args: argparse.Namespace, command: str) -> Game | None:
    """The game after the record given on the command line or stdin; ``None`` after printing why not.

    Standard input is read with a cap (``streams.MAX_STDIN_RECORD``), so an endless or
    huge input costs bounded memory; a bad turn is quoted at most 40 characters long.
    """
    try:
        text = read_stdin_capped() if args.record == ["-"] else " ".join(args.record)
        fen = getattr(args, "fen", None)
        if fen is None:
            return Game.from_record(text, args.profile)
        game = Game.from_fen(fen, args.profile)
        tokens = text.split()
        if game.pending and tokens and tokens[0].startswith("x"):
            # the removal the FEN's pending mill waits for
            try:
                game.play(tokens.pop(0))
            except IllegalTurnError as exc:
                raise IllegalTurnError(exc.turn, exc.side, exc.reason, where="turn 1 after the FEN") from None
        game.play_record(tokens, first=len(game.history) + 1, after=" after the FEN")
        return game
    except ValueError as exc:
        message = str(exc)
        if len(message) > 300:
            message = message[:300] + "..."
        print(f"morris-pi {command}: {message}", file=sys.stderr)
        return None
