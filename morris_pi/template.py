"""A full-size drilling template for the board, as SVG text (pure: no drawing library).

Each point's position comes from its name, as everywhere in morris-pi: file
``a``-``g`` is x 0-6 and rank ``1``-``7`` is y 0-6, scaled so the outer square
fills the board less a margin on every side. At each point the template marks

* the **reed hole** (centre of the point): a circle of the drill's diameter
  with a crosshair for the drill's tip; and
* the **LED hole**, offset diagonally up and to the right of the point, so
  the light stays visible beside a man standing on the point. (Most of the
  guidance lights occupied points: "lift this man", "this one may be taken".
  An LED under the man would be hidden exactly then.)

plus the board's lines, a label per point, the outline of a man (dashed) for
judging the LED's offset, and a 100 mm scale bar with dimensions, so a printed
copy can be checked with a ruler before anyone drills. All SVG user units are
millimetres and the document's width and height are given in ``mm``, so a
print at 100 % is true to size.

>>> spec = TemplateSpec(size=400)
>>> point_position(spec, "a7"), point_position(spec, "g1")
((40.0, 40.0), (360.0, 360.0))
>>> parse_length("40cm")
400.0
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from xml.sax.saxutils import escape

from morris_pi.errors import MorrisPiError
from morris_pi.rules.board import POINTS, STANDARD, coordinates

UNITS_MM = {"mm": 1.0, "cm": 10.0, "in": 25.4}
MIN_SIZE_MM = 100.0
MAX_SIZE_MM = 2000.0
STRIP_MM = 34.0  # below the board: scale bar and notes
LINE_WIDTH_MM = 1.0


class TemplateError(MorrisPiError, ValueError):
    """A template parameter that is not a usable length, or a layout that does not fit."""


def parse_length(text: str | float | int, what: str = "board size") -> float:
    """A length in millimetres from ``400mm``, ``40cm``, ``16in`` or a bare number (mm).

    >>> parse_length("400mm"), parse_length(" 3.5 "), parse_length("16in")
    (400.0, 3.5, 406.4)
    >>> parse_length("-3mm")
    Traceback (most recent call last):
    ...
    morris_pi.template.TemplateError: board size must be greater than zero, not '-3mm'
    """
    raw = str(text).strip().lower()
    unit = next((u for u in UNITS_MM if raw.endswith(u)), "")
    number = raw[: len(raw) - len(unit)].strip() if unit else raw
    try:
        value = float(number)
    except ValueError:
        raise TemplateError(
            f"{what} {str(text)!r} is not a length: write e.g. 400mm, 40cm, 16in or 400 (millimetres)"
        ) from None
    if not math.isfinite(value):
        raise TemplateError(f"{what} must be a finite length, not {str(text)!r}")
    if value <= 0:
        raise TemplateError(f"{what} must be greater than zero, not {str(text)!r}")
    return value * UNITS_MM.get(unit, 1.0)


@dataclass(frozen=True)
class TemplateSpec:
    """Every dimension of the template, in millimetres.

    ``margin`` defaults to a tenth of ``size``. ``led_offset`` is the distance
    from a point's centre to its LED hole's centre, along the up-right diagonal.
    """

    size: float = 400.0
    margin: float | None = None
    reed_hole: float = 3.0
    led_hole: float = 5.0
    led_offset: float = 18.0
    man_diameter: float = 28.0
    underside: bool = False  # mirrored, to tape to the back of the board
    title: str = field(default="morris-pi drilling template")

    @property
    def margin_mm(self) -> float:
        """``margin``, with its default filled in (``__post_init__`` does that on creation)."""
        return self.margin if self.margin is not None else self.size / 10

    def __post_init__(self) -> None:
        if self.margin is None:
            object.__setattr__(self, "margin", self.size / 10)
        for name in ("size", "reed_hole", "led_hole", "led_offset", "man_diameter"):
            value = getattr(self, name)
            if not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
                raise TemplateError(f"{name.replace('_', ' ')} must be a positive length in mm, not {value!r}")
        if not MIN_SIZE_MM <= self.size <= MAX_SIZE_MM:
            raise TemplateError(f"board size {self.size:g} mm is out of range: {MIN_SIZE_MM:g} to {MAX_SIZE_MM:g} mm")
        if not 0 <= self.margin_mm < self.size / 2 - 1:
            raise TemplateError(f"margin {self.margin:g} mm must be at least 0 and less than half the board size")
        step = self.step
        if self.led_offset < (self.reed_hole + self.led_hole) / 2 + 2:
            raise TemplateError(
                f"LED offset {self.led_offset:g} mm is too small: the LED hole (Ø{self.led_hole:g}) would run into "
                f"the reed hole (Ø{self.reed_hole:g}); keep at least 2 mm of wood between them"
            )
        for name in POINTS:
            for line in _segments():
                if _distance_to_segment(self.led_centre(name), line, self) < self.led_hole / 2 + LINE_WIDTH_MM:
                    raise TemplateError(
                        f"the LED hole of {name} would cut the line {line[0]}-{line[1]}: with points "
                        f"{step:.1f} mm apart, use a smaller LED offset than {self.led_offset:g} mm or a larger board"
                    )
        lx, ly = self.led_centre("g7" if not self.underside else "a7")
        if ly - self.led_hole / 2 < 0 or not 0 <= lx - self.led_hole / 2 <= lx + self.led_hole / 2 <= self.size:
            raise TemplateError(
                f"margin {self.margin:g} mm is too small: the LED holes of the outer corners fall off the board"
            )
        # Each LED must read as belonging to its own point: well nearer to it than to
        # any other, and not under a man standing on a neighbouring point.
        clearance = max(1.5 * self.led_offset, (self.man_diameter + self.led_hole) / 2)
        for name in POINTS:
            lx, ly = self.led_centre(name)
            for other in POINTS:
                ox, oy = point_position(self, other)
                if other != name and math.hypot(lx - ox, ly - oy) < clearance:
                    raise TemplateError(
                        f"the LED hole of {name} is too close to point {other} (points are {step:.1f} mm apart): "
                        f"use a smaller LED offset than {self.led_offset:g} mm or a larger board"
                    )

    @property
    def step(self) -> float:
        """Distance between neighbouring grid positions (a7 to b6 horizontally)."""
        return (self.size - 2 * self.margin_mm) / 6

    def led_centre(self, name: str) -> tuple[float, float]:
        x, y = point_position(self, name)
        d = self.led_offset / math.sqrt(2)
        # Up-right on the top face; seen from below (mirrored) that is up-left.
        return (x - d if self.underside else x + d), y - d


def point_position(spec: TemplateSpec, name: str) -> tuple[float, float]:
    """Centre of a point in template millimetres (origin top left, y downwards)."""
    gx, gy = coordinates(name)
    x = spec.margin_mm + gx * spec.step
    if spec.underside:
        x = spec.size - x
    return round(x, 3), round(spec.margin_mm + (6 - gy) * spec.step, 3)


def _segments() -> list[tuple[str, str]]:
    return [(line[0], line[2]) for line in STANDARD.lines]


def _distance_to_segment(p: tuple[float, float], line: tuple[str, str], spec: TemplateSpec) -> float:
    (ax, ay), (bx, by) = point_position(spec, line[0]), point_position(spec, line[1])
    px, py = p
    dx, dy = bx - ax, by - ay
    t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)))
    return math.hypot(px - (ax + t * dx), py - (ay + t * dy))


def _wrap(paragraphs: list[str], width_mm: float, font: float) -> list[str]:
    """Greedy word wrap by an estimate of the glyph width (0.6 em), which is enough for notes."""
    per_line = max(20, int(width_mm / (0.6 * font)))
    lines = []
    for paragraph in paragraphs:
        row = ""
        for word in paragraph.split():
            if row and len(row) + 1 + len(word) > per_line:
                lines.append(row)
                row = word
            else:
                row = f"{row} {word}".strip()
        lines.append(row)
    return lines


def _strip_height(spec: TemplateSpec, font: float) -> float:
    return 10 + font + 3 + 1.5 + 6 * (font * 0.8 + 1.5) if spec.size < 300 else STRIP_MM


def _n(value: float) -> str:
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def render_svg(spec: TemplateSpec) -> str:
    """The template as a standalone SVG document."""
    font = max(3.0, min(6.0, spec.size / 90))
    w, h = spec.size, spec.size + _strip_height(spec, font)
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(w)}mm" height="{_n(h)}mm" '
        f'viewBox="0 0 {_n(w)} {_n(h)}" font-family="DejaVu Sans, Arial, sans-serif">',
        f"<title>{escape(spec.title)}, {_n(spec.size)} mm{' (underside, mirrored)' if spec.underside else ''}</title>",
        "<style>"
        ".board{fill:none;stroke:#999;stroke-width:0.3}"
        f".line{{stroke:#bbb;stroke-width:{_n(LINE_WIDTH_MM)};stroke-linecap:round}}"
        ".reed{fill:none;stroke:#000;stroke-width:0.25}"
        ".led{fill:none;stroke:#c00;stroke-width:0.25}"
        ".cross{stroke:#000;stroke-width:0.15}"
        ".man{fill:none;stroke:#888;stroke-width:0.2;stroke-dasharray:1.5 1.5}"
        ".dim{stroke:#000;stroke-width:0.25;fill:none}"
        "</style>",
        f'<rect class="board" x="0" y="0" width="{_n(spec.size)}" height="{_n(spec.size)}"/>',
        '<g id="lines">',
    ]
    for a, b in _segments():
        (ax, ay), (bx, by) = point_position(spec, a), point_position(spec, b)
        out.append(f'<line class="line" x1="{_n(ax)}" y1="{_n(ay)}" x2="{_n(bx)}" y2="{_n(by)}"/>')
    out.append("</g>")

    arm = spec.reed_hole / 2 + 3
    out.append('<g id="points">')
    for name in POINTS:
        x, y = point_position(spec, name)
        lx, ly = spec.led_centre(name)
        led_arm = spec.led_hole / 2 + 2
        out += [
            f'<g id="point-{name}">',
            f'<circle class="man" cx="{_n(x)}" cy="{_n(y)}" r="{_n(spec.man_diameter / 2)}"/>',
            f'<circle class="reed" id="reed-{name}" cx="{_n(x)}" cy="{_n(y)}" r="{_n(spec.reed_hole / 2)}"/>',
            f'<path class="cross" d="M{_n(x - arm)} {_n(y)}H{_n(x + arm)}M{_n(x)} {_n(y - arm)}V{_n(y + arm)}"/>',
            f'<circle class="led" id="led-{name}" cx="{_n(lx)}" cy="{_n(ly)}" r="{_n(spec.led_hole / 2)}"/>',
            f'<path class="cross" d="M{_n(lx - led_arm)} {_n(ly)}H{_n(lx + led_arm)}'
            f'M{_n(lx)} {_n(ly - led_arm)}V{_n(ly + led_arm)}"/>',
            # Label below-left: the LED sits above-right, the lines run through the point.
            f'<text x="{_n(x - 2.5 if not spec.underside else x + 2.5)}" y="{_n(y + 2.5 + font)}" '
            f'font-size="{_n(font)}" text-anchor="{"end" if not spec.underside else "start"}">{name}</text>',
            "</g>",
        ]
    out.append("</g>")
    out += _dimensions(spec, font)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _dimensions(spec: TemplateSpec, font: float) -> list[str]:
    """A dimension line over the top side of the outer square, a scale bar and notes below."""
    out = ['<g id="dimensions">']
    (ax, ay), (gx, _) = point_position(spec, "a7"), point_position(spec, "g7")
    left, right = min(ax, gx), max(ax, gx)
    y = ay - spec.man_diameter / 2 - 4
    if y > font + 1:
        out += [
            f'<path class="dim" d="M{_n(left)} {_n(y - 2)}V{_n(y + 2)}M{_n(right)} {_n(y - 2)}V{_n(y + 2)}'
            f'M{_n(left)} {_n(y)}H{_n(right)}"/>',
            f'<text x="{_n((left + right) / 2)}" y="{_n(y - 1)}" font-size="{_n(font)}" text-anchor="middle">'
            f"{_n(right - left)} mm (a7 to g7)</text>",
        ]
    bar = 100.0 if spec.size >= 150 else 50.0
    x0, y0 = 10.0, spec.size + 10
    ticks = "".join(
        f"M{_n(x0 + t)} {_n(y0)}V{_n(y0 - (3 if t % 50 == 0 else 1.5))}" for t in range(0, int(bar) + 1, 10)
    )
    out += [
        f'<g id="scale-bar" data-length-mm="{_n(bar)}">',
        f'<path class="dim" d="M{_n(x0)} {_n(y0)}H{_n(x0 + bar)}{ticks}"/>',
        f'<text x="{_n(x0)}" y="{_n(y0 + font + 1)}" font-size="{_n(font)}" text-anchor="middle">0</text>',
        f'<text x="{_n(x0 + bar)}" y="{_n(y0 + font + 1)}" font-size="{_n(font)}" text-anchor="middle">'
        f"{_n(bar)} mm</text>",
        "</g>",
    ]
    notes = [
        f"{escape(spec.title)}: board {_n(spec.size)} x {_n(spec.size)} mm, margin {_n(spec.margin_mm)} mm, "
        f"points {_n(spec.step)} mm apart." + (" UNDERSIDE: mirrored, tape it to the back." if spec.underside else ""),
        f"Black: reed hole {_n(spec.reed_hole)} mm at each point. Red: LED hole {_n(spec.led_hole)} mm, "
        f"{_n(spec.led_offset)} mm diagonally from it. Dashed: a {_n(spec.man_diameter)} mm man.",
        f"Print at 100 % (no fit-to-page) and check: the bar must measure {_n(bar)} mm.",
    ]
    size = font * 0.8
    for i, line in enumerate(_wrap(notes, spec.size - 2 * x0, size)):
        line_y = y0 + font + 3 + (i + 1) * (size + 1.5)
        out.append(f'<text x="{_n(x0)}" y="{_n(line_y)}" font-size="{_n(size)}">{line}</text>')
    out.append("</g>")
    return out
