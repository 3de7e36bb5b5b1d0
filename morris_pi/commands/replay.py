"""``morris-pi replay TRACE|-``: run a sensor trace through the board's controller, headless."""

from __future__ import annotations

import argparse
import sys
from typing import BinaryIO

from morris_pi.errors import MorrisPiError

from . import Subparsers


def register(subparsers: Subparsers) -> None:
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


class ReadFailed(MorrisPiError, OSError):
    """Reading the trace failed part-way (EIO from a failing SD card, a vanished network file)."""


class _Reading:
    """The trace's byte stream, with a read error turned into ``ReadFailed`` naming the line."""

    def __init__(self, stream: BinaryIO, name: str) -> None:
        self.stream = stream
        self.name = name
        self.lines = 0

    def readline(self, size: int = -1) -> bytes:
        try:
            line = self.stream.readline(size)
        except OSError as exc:
            raise ReadFailed(
                f"morris-pi replay: cannot read {self.name} after line {self.lines}: {exc.strerror or exc}"
            ) from None
        self.lines += 1
        return line


def run(args: argparse.Namespace) -> int:

    # Bytes, one line at a time: the reader bounds each line and names bad UTF-8 by line.
    if args.trace == "-":
        if sys.stdin is None:
            raise SystemExit("morris-pi replay: standard input is closed")
        return _replay(_Reading(sys.stdin.buffer, "standard input"), args.json)
    try:
        stream = open(args.trace, "rb")  # noqa: SIM115 - apart from the with, so only opening is "cannot read"
    except OSError as exc:
        raise SystemExit(f"morris-pi replay: cannot read {args.trace}: {exc.strerror}") from None
    with stream:
        return _replay(_Reading(stream, args.trace), args.json)


def _replay(source: _Reading, as_json: bool) -> int:
    from morris_pi import replay

    try:
        return replay.run(replay.trace_lines(source), sys.stdout, sys.stderr, as_json=as_json)  # type: ignore[arg-type]
    except ReadFailed as exc:  # what was read so far has been replayed and printed
        sys.stdout.flush()
        raise SystemExit(str(exc)) from None
