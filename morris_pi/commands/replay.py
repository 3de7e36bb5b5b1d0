"""``morris-pi replay TRACE|-``: run a sensor trace through the board's controller, headless."""

from __future__ import annotations

import argparse
import sys


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "replay",
        help="run a recorded or scripted sensor trace through the tracker (JSON Lines)",
        description=(
            "Replay a sensor trace on its own clock. Input: JSON Lines, an optional header "
            '{"profile", "white", "black", "level", "seed"}, then events {"t", "on"|"off"|"snapshot"|"button"} '
            'or {"t"} alone. With - the events are read from standard input as they arrive.'
        ),
    )
    parser.add_argument("trace", help="trace file, or - for standard input")
    parser.add_argument(
        "--json", action="store_true", help="write a JSON line each time what the board shows or knows changes"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from morris_pi import replay

    # Bytes, one line at a time: the reader bounds each line and names bad UTF-8 by line.
    if args.trace == "-":
        if sys.stdin is None:
            raise SystemExit("morris-pi replay: standard input is closed")
        return replay.run(replay.trace_lines(sys.stdin.buffer), sys.stdout, sys.stderr, as_json=args.json)
    try:
        stream = open(args.trace, "rb")  # noqa: SIM115 - apart from the with, so only opening is "cannot read"
    except OSError as exc:
        raise SystemExit(f"morris-pi replay: cannot read {args.trace}: {exc.strerror}") from None
    with stream:
        return replay.run(replay.trace_lines(stream), sys.stdout, sys.stderr, as_json=args.json)
