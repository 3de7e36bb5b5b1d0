"""``morris-pi template``: write a full-size drilling template as SVG.

    morris-pi template --size 400mm --out board.svg
    morris-pi template --size 40cm --underside --out back.svg     # mirrored, for the back

Print it at 100 % and check the 100 mm scale bar with a ruler before drilling.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TextIO

from morris_pi.template import TemplateSpec, parse_length, render_svg

from . import Subparsers


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "template",
        help="write a full-size drilling template (SVG)",
        description="A drilling template for the board: the lines, a reed hole and an LED hole per point, "
        "and a scale bar. Lengths take mm (default), cm or in.",
    )
    parser.add_argument("--size", default="400mm", help="board side length (default 400mm)")
    parser.add_argument("--margin", help="from the board's edge to the outer square (default: a tenth of the size)")
    parser.add_argument("--reed-hole", default="3mm", help="drill for the reed switch (default 3mm)")
    parser.add_argument("--led-hole", default="5mm", help="drill for the LED (default 5mm)")
    parser.add_argument(
        "--led-offset", default="18mm", help="from a point's centre to its LED hole, diagonally up-right (default 18mm)"
    )
    parser.add_argument("--man", default="28mm", help="diameter of a man, drawn dashed (default 28mm)")
    parser.add_argument("--underside", action="store_true", help="mirror it, to tape to the back of the board")
    parser.add_argument("--out", "-o", default="-", help="file to write; '-' or none: stdout")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    try:
        spec = TemplateSpec(
            size=parse_length(args.size, "board size"),
            margin=parse_length(args.margin, "margin") if args.margin is not None else None,
            reed_hole=parse_length(args.reed_hole, "reed hole"),
            led_hole=parse_length(args.led_hole, "LED hole"),
            led_offset=parse_length(args.led_offset, "LED offset"),
            man_diameter=parse_length(args.man, "man diameter"),
            underside=args.underside,
        )
        svg = render_svg(spec)
        if args.out == "-":
            out.write(svg)
        else:
            Path(args.out).write_text(svg, encoding="utf-8")
            err.write(f"wrote {args.out}: {spec.size:g} mm board, points {spec.step:.2f} mm apart\n")
    except (ValueError, OSError) as exc:
        err.write(f"morris-pi template: error: {exc}\n")
        return 2 if isinstance(exc, ValueError) else 1
    return 0
