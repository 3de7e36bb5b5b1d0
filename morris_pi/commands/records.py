"""``morris-pi records``: list, show and export finished games.

    morris-pi records list
    morris-pi records show 20250601-140322      (or a unique prefix, or "latest")
    morris-pi records export latest game.txt    (default: to stdout)
    morris-pi records export latest --format sanmill   (removals as plies of their own: "b6 xa1")
    morris-pi records show latest --svg pics    (and a board picture per turn)

Where the records are: ``--state-dir``/``--records-dir`` if given, else
``$STATE_DIRECTORY`` (set by systemd), else the ``[storage]`` table of the config
(``--config``, default ``/etc/morris-pi/config.toml``), else ``/var/lib/morris-pi``.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TextIO

from morris_pi.core.record_format import Record, RecordExistsError, StorageError
from morris_pi.core.record_forms import sanmill_text
from morris_pi.core.storage import Storage, default_state_dir

from . import Subparsers
from .streams import stdout_fails


def register(subparsers: Subparsers) -> None:
    # --state-dir is accepted before or after the action: "records --state-dir D list"
    # and "records list --state-dir D" both work.
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--state-dir",
        metavar="DIR",
        default=argparse.SUPPRESS,
        help="the service's state directory (default: $STATE_DIRECTORY, the config's storage.state_dir, "
        "or /var/lib/morris-pi)",
    )
    common.add_argument(
        "--records-dir",
        metavar="DIR",
        default=argparse.SUPPRESS,
        help="where finished games are kept (default: STATE_DIR/records)",
    )
    common.add_argument(
        "--config",
        metavar="PATH",
        default=argparse.SUPPRESS,
        help="config file whose [storage] table says where the records are "
        "(default /etc/morris-pi/config.toml, if it exists)",
    )
    parser = subparsers.add_parser(
        "records",
        parents=[common],
        help="list, show and export finished games",
        description="Finished games are kept as records: their notation plus a header of tags.",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    actions.required = True
    actions.add_parser("list", parents=[common], help="one line per finished game, oldest first")
    show = actions.add_parser("show", parents=[common], help="a record's header and its turns, numbered")
    show.add_argument("id", help="record id, a unique prefix of one, or 'latest'")
    show.add_argument(
        "--svg", metavar="DIR", help="also write a board picture per turn into DIR (000-start.svg, 001-d6.svg, ...)"
    )
    show.add_argument("--force", action="store_true", help="with --svg: replace existing pictures")
    export = actions.add_parser("export", parents=[common], help="copy a record file verbatim")
    export.add_argument("id", help="record id, a unique prefix of one, or 'latest'")
    export.add_argument("path", nargs="?", default="-", help="file or directory to write; '-' or none: stdout")
    export.add_argument("--force", action="store_true", help="overwrite an existing file")
    export.add_argument(
        "--format",
        choices=("record", "sanmill"),
        default="record",
        help="record: the file verbatim (default); sanmill: the same tags, and the turns in "
        "Sanmill's ply form, each removal a token of its own ('b6 xa1')",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    try:
        storage = Storage(*storage_dirs(args, err))
        if args.action == "list":
            return _list(storage, out)
        if args.action == "show":
            record = storage.get_record(args.id)
            out.write(show_text(record))
            if args.svg:
                from .render import write_record_pictures

                write_record_pictures(record, args.svg, force=args.force, err=err)
            return 0
        convert = sanmill_text if args.format == "sanmill" else None
        if args.path == "-":
            storage.export(args.id, out, convert=convert)
        else:
            record = storage.export(args.id, args.path, overwrite=args.force, convert=convert)
            err.write(f"wrote record {record.id} to {args.path}\n")
        return 0
    except RecordExistsError as exc:
        err.write(
            f"morris-pi records: error: {exc.path} already exists ({exc.what}); choose another name, "
            "or add --force to overwrite it\n"
        )
        return 1
    except (StorageError, OSError) as exc:
        if out is sys.stdout and (isinstance(exc, BrokenPipeError) or (isinstance(exc, OSError) and stdout_fails())):
            raise  # the output itself failed: the command-line guard reports it
        err.write(f"morris-pi records: error: {printable(str(exc))}\n")
        return 1


def storage_dirs(args: argparse.Namespace, err: TextIO) -> tuple[Path, Path | None]:
    """State and records directories, by the precedence in the module docstring."""
    records = getattr(args, "records_dir", None)
    state = getattr(args, "state_dir", None)
    if state:
        return Path(state), Path(records) if records else None
    if os.environ.get("STATE_DIRECTORY"):
        return default_state_dir(), Path(records) if records else None
    config_path = getattr(args, "config", None)
    try:
        from morris_pi.config.loader import load_config
    except ImportError:  # pragma: no cover - only while the config module is absent
        return default_state_dir(), Path(records) if records else None
    try:
        storage = load_config(config_path).storage
    except ValueError as exc:
        if config_path is not None:
            raise StorageError(f"cannot use --config {config_path}: {exc}") from None
        # A broken board config must not hide the records; say where we look instead.
        err.write(f"morris-pi records: warning: {exc}; looking in {default_state_dir()}\n")
        return default_state_dir(), Path(records) if records else None
    return Path(storage.state_dir), Path(records) if records else Path(storage.records_dir)


def _list(storage: Storage, out: TextIO) -> int:
    records = storage.list_records()
    if not records:
        out.write(f"no finished games in {storage.records_dir}\n")
        return 0
    rows: list[tuple[str, ...]] = [("ID", "DATE", "WHITE", "BLACK", "RESULT", "REASON", "TURNS", "PROFILE")]
    for r in records:
        if r.error:
            rows.append((printable(r.id), "?", "?", "?", "?", printable(f"unreadable: {r.error}"), "?", "?"))
            continue
        t = r.tags
        rows.append(
            tuple(
                printable(cell)
                for cell in (
                    r.id,
                    f"{t.get('Date', '?')} {t.get('Time', '')}".strip(),
                    t.get("White", "?"),
                    t.get("Black", "?"),
                    t.get("Result", "?"),
                    t.get("Reason", "?"),
                    t.get("Turns", str(len(r.turns))),
                    t.get("Profile", "?"),
                )
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    for row in rows:
        # the last column is not padded: widths has one entry fewer than a row
        cells = [*(cell.ljust(width) for cell, width in zip(row, widths, strict=False)), row[-1]]
        out.write("  ".join(cells).rstrip() + "\n")
    return 0


def printable(text: str) -> str:
    r"""``text`` with every control or format character written as an escape, so a record's tags
    can never drive the terminal (ESC and OSC sequences, a bell, a bidi override that reorders
    the line).

    >>> printable("Ann\x1b]0;owned\x07 \u202eknaB")
    'Ann\\x1b]0;owned\\x07 \\u202eknaB'
    """
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() or c == " " else ascii(c)[1:-1] for c in text)


def show_text(record: Record) -> str:
    """A record for reading: its tags, then the turns numbered in pairs, white first.

    >>> print(show_text(Record("x", Path("x.txt"), {"Result": "1-0"}, "d6 a1 f6 a4 b6xa1")), end="")
    Record x
      Result: 1-0
    <BLANKLINE>
       1. d6     a1
       2. f6     a4
       3. b6xa1
    """
    if record.error:
        raise StorageError(f"record {record.id} cannot be read: {record.error}")
    lines = [f"Record {printable(record.id)}"]
    tags = {printable(name): printable(value) for name, value in record.tags.items()}
    width = max((len(name) for name in tags), default=0)
    lines += [f"  {name + ':':<{width + 1}} {value}" for name, value in tags.items()]
    lines.append("")
    turns = [printable(turn) for turn in record.turns]
    # the white column is as wide as its longest turn ("d2-d3xd5"), so black's turns stay in line
    white = max((len(turn) for turn in turns[::2]), default=0)
    digits = max(2, len(str((len(turns) + 1) // 2)))
    for number, start in enumerate(range(0, len(turns), 2), 1):
        pair = turns[start : start + 2]
        lines.append(f"  {number:>{digits}}. {pair[0]:<{max(white, 5)}}  {pair[1] if len(pair) > 1 else ''}".rstrip())
    return "\n".join(lines) + "\n"
