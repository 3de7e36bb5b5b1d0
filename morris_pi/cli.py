"""The ``morris-pi`` command: one console script, one module per subcommand.

Each module named in ``SUBCOMMANDS`` defines ``register(subparsers)``, which adds
its parser and sets ``func`` to a callable taking the parsed arguments and
returning an exit code. Modules are imported only when the command line is
parsed, and a subcommand whose optional dependency is missing still shows up
in ``--help``.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from morris_pi import __version__

SUBCOMMANDS: tuple[str, ...] = (
    "morris_pi.commands.perft",
    "morris_pi.commands.legal",
    "morris_pi.commands.records",
    "morris_pi.commands.install_service",
    "morris_pi.commands.template",
    "morris_pi.commands.render",
    "morris_pi.commands.analyze",
    "morris_pi.commands.review",
    "morris_pi.commands.replay",
    "morris_pi.commands.traces",
    "morris_pi.commands.sim",
    "morris_pi.commands.run",
    "morris_pi.commands.hwtest",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="morris-pi",
        description="A rules-aware, LED-guided Nine Men's Morris board.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    subparsers.required = True
    for name in SUBCOMMANDS:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    from morris_pi.commands.streams import run_guarded

    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return run_guarded(args.func, args, f"morris-pi {args.command}")
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
