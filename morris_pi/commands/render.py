"""``morris-pi render``: a picture of the board after a record (SVG, or PNG with the ``png`` extra).

    morris-pi render d6 a1 f6 a4 b6xa1 --out board.svg
    morris-pi render --profile twelve --leds --flip d6 a1 f6 > board.svg
    morris-pi render --leds --fen "********/OO*****O/*****@@* w p r 3 6 2 7 1 0 0 0 0 0 0 0 3" -o board.png

The last turn is drawn (its path, the placed man, the removed man crossed out);
``--leds`` adds what the board's LEDs show in that position. An existing file
is replaced only with ``--force``, and then atomically.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import BinaryIO, TextIO, TypedDict, Unpack

from morris_pi.core.record_format import Record, StorageError
from morris_pi.core.safe_files import atomic_write_bytes, atomic_write_text
from morris_pi.guidance import Frame, Look
from morris_pi.render import PngUnavailableError, board_svg, last_turn_of, svg_to_png
from morris_pi.rules import Game, RulesError
from morris_pi.tracker import Tracker
from morris_pi.tracker.frame import frame

from . import Subparsers
from .record_args import add_record_arguments, game_from_args

FORMATS = ("svg", "png")
MAX_SIZE = 8192


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "render",
        help="draw the board after a record as an SVG (or PNG) picture",
        description="Draw the board after a record (or a Sanmill FEN): the men, the last turn, and "
        "with --leds what the board's LEDs show. Writes SVG to stdout unless --out is given.",
    )
    add_record_arguments(parser, help_record="the turns to draw the board after")
    parser.add_argument("--out", "-o", default="-", metavar="PATH", help="file to write; '-' or none: stdout")
    parser.add_argument(
        "--format",
        choices=FORMATS,
        help="svg or png (default: png when --out ends in .png, else svg); png needs pip install 'morris-pi[png]'",
    )
    parser.add_argument(
        "--leds", action="store_true", help="show what the LEDs show in this position (rings in the palette's colours)"
    )
    parser.add_argument(
        "--led-style",
        choices=("ring", "beside"),
        default="ring",
        help="LEDs as rings around the points, or beside them as on the board (default ring)",
    )
    parser.add_argument("--flip", action="store_true", help="seen from black's side")
    parser.add_argument(
        "--size", type=_pixels, default=400, metavar="N", help="width and height in pixels (default 400)"
    )
    parser.add_argument(
        "--no-coordinates", dest="coordinates", action="store_false", help="leave out the a-g, 1-7 labels"
    )
    parser.add_argument("--force", action="store_true", help="replace an existing file")
    parser.set_defaults(func=run)


def _pixels(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of pixels") from None
    if not 16 <= value <= MAX_SIZE:
        raise argparse.ArgumentTypeError(f"{value} pixels is out of range: 16 to {MAX_SIZE}")
    return value


def led_frame(game: Game) -> Frame:
    """What the board's LEDs show for this game, its men standing where the game says.

    The tracker's own guidance for a board that matches the game, with nothing
    lifted and no computer player: the men that may be taken while a removal is
    pending, the last turn's target, the side to move, the winners at the end.

    >>> led_frame(Game.from_record("d6 a1 f6 a4 b6"))
    Frame(points={'a1': 'removable', 'a4': 'removable', 'b6': 'mill', 'd6': 'mill', 'f6': 'mill'}, \
status={'white-to-move': 'to-move'})
    """
    tracker = Tracker(game.copy())
    # The first reading is taken as settled, so no time needs to pass for the frame.
    tracker.update(set(game.board), 0.0)
    return frame(tracker.state)


class PictureOptions(TypedDict, total=False):
    """``board_svg``'s drawing options, passed on unchanged (the position, last turn and LEDs aside)."""

    size: int | None
    coordinates: bool
    flipped: bool
    palette: Mapping[str, Look]
    led_style: str
    animate: bool
    colors: Mapping[str, str] | None
    id_prefix: str
    title: str | None
    style: str | None


def picture(game: Game, *, leds: bool = False, show_last: bool = True, **options: Unpack[PictureOptions]) -> str:
    """The SVG of a game's board with its last turn, and the LEDs if asked."""
    last = last_turn_of(game) if show_last else None
    return board_svg(game, last_turn=last, leds=led_frame(game) if leds else None, **options)


def run(args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    game = game_from_args(args, "render")
    if game is None:
        return 2
    fmt = args.format or ("png" if args.out != "-" and args.out.lower().endswith(".png") else "svg")
    svg = picture(
        game,
        leds=args.leds,
        show_last=_last_turn_known(game, args),
        size=args.size,
        flipped=args.flip,
        coordinates=args.coordinates,
        led_style=args.led_style,
    )
    try:
        data: str | bytes = svg_to_png(svg, size=args.size) if fmt == "png" else svg
        if args.out == "-":
            _to_stream(data, out)
        else:
            path = Path(args.out)
            if path.is_dir():
                raise StorageError(f"{path} is a directory; give a file name")
            _refuse_existing([path], args.force)
            _write(path, data)
            err.write(f"wrote {path} ({fmt}, {args.size} px, after {len(game.history)} turns)\n")
    except PngUnavailableError as exc:
        err.write(f"morris-pi render: {exc}\n")
        return 1
    except (StorageError, OSError) as exc:
        err.write(f"morris-pi render: error: {exc}\n")
        return 1
    return 0


def _last_turn_known(game: Game, args: argparse.Namespace) -> bool:
    """Whether the last turn was given, rather than guessed by the rules from a FEN.

    A FEN's pending mill does not say which step closed it (the rules name one
    that fits): until a turn of the record follows its removal, the picture
    shows no last turn rather than a guess.
    """
    fen = getattr(args, "fen", None)
    if fen is None or Game.from_fen(fen, args.profile).pending is None:
        return True
    return len(game.history) > 1 or (len(game.history) == 1 and game.pending is not None)


def _to_stream(data: str | bytes, out: TextIO) -> None:
    if isinstance(data, str):
        out.write(data)
        return
    binary: BinaryIO | None = getattr(out, "buffer", None)
    if binary is None:
        raise StorageError("cannot write PNG to this output; use --out FILE")
    binary.write(data)
    binary.flush()


def _refuse_existing(paths: Sequence[Path], force: bool) -> None:
    if force:
        return
    existing = [p for p in paths if p.exists()]
    if existing:
        more = f" (and {len(existing) - 1} more)" if len(existing) > 1 else ""
        raise StorageError(f"{existing[0]}{more} already exists; use --force to replace it")


def _write(path: Path, data: str | bytes) -> None:
    if isinstance(data, str):
        atomic_write_text(path, data)
    else:
        atomic_write_bytes(path, data)


def turn_pictures(game: Game, **options: Unpack[PictureOptions]) -> list[tuple[str, str]]:
    """File names and SVGs for every position of a game: ``000-start.svg``, ``001-d6.svg``, ...

    >>> [name for name, _ in turn_pictures(Game.from_record("d6 a1 f6 a4 b6xa1"))]
    ['000-start.svg', '001-d6.svg', '002-a1.svg', '003-f6.svg', '004-a4.svg', '005-b6xa1.svg']
    """
    turns = game.history
    width = max(3, len(str(len(turns))))
    replay = Game.from_position(game.positions[0], first_ply=game.first_ply)  # a FEN's start too
    pictures = [(f"{0:0{width}d}-start.svg", board_svg(replay, **options))]
    for number, turn in enumerate(turns, 1):
        replay.play(turn)
        pictures.append((f"{number:0{width}d}-{turn}.svg", board_svg(replay, last_turn=turn, **options)))
    return pictures


def write_record_pictures(record: Record, directory: str, *, force: bool = False, err: TextIO | None = None) -> None:
    """One SVG per turn of a finished game into ``directory``; ``StorageError`` says what stopped it.

    Nothing is written when any file would be replaced without ``force``.
    """
    err = err or sys.stderr
    profile = record.tags.get("Profile", "standard")
    try:
        game = Game.from_record(record.record, profile)
    except RulesError as exc:
        raise StorageError(f"record {record.id} cannot be replayed ({profile}): {exc}") from None
    pictures = turn_pictures(game, size=400)
    folder = Path(directory)
    if folder.exists() and not folder.is_dir():
        raise StorageError(f"{folder} is not a directory")
    folder.mkdir(parents=True, exist_ok=True)
    _refuse_existing([folder / name for name, _ in pictures], force)
    for name, svg in pictures:
        atomic_write_text(folder / name, svg)
    err.write(f"wrote {len(pictures)} pictures of record {record.id} to {folder}\n")
