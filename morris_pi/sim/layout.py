"""Where everything sits in the simulator window: pure geometry, no pygame.

The board is drawn to scale from the points' grid coordinates
(``morris_pi.rules.coordinates``), so a drilling template and the window
agree: the men and each point's LED (beside the point, up and to the right,
where ``morris-pi template`` drills its hole) have the real board's
proportions. Everything else (trays, buttons, the side panel) is laid out
around it and scales with the window.

>>> lay = Layout.compute(1100, 760)
>>> lay.point_at(lay.points["d6"]), lay.point_at((0, 0))
('d6', None)
>>> lay.region_at(lay.buttons["undo"].center)
('button', 'undo')
>>> (lx, ly), (px, py) = lay.leds["d6"], lay.points["d6"]
>>> lx > px and ly < py and round(math.dist((lx, ly), (px, py)) / lay.step * 53.33)   # mm on a 400 mm board
18
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from morris_pi.core.ports import BUTTONS, STATUS_LEDS
from morris_pi.rules import POINTS, coordinates
from morris_pi.template import TemplateSpec

Pos = tuple[float, float]
SIDES = ("white", "black")
_BUILD = TemplateSpec()  # the recommended build: 400 mm board, 28 mm men, LED holes 18 mm off the points
#: A point's LED from its centre, in grid steps, up and to the right as the drilling template has it.
LED_OFFSET = _BUILD.led_offset / _BUILD.step / math.sqrt(2)
#: A man's radius and an LED hole's radius in grid steps, as on the real board.
MAN_RADIUS = _BUILD.man_diameter / 2 / _BUILD.step
LED_RADIUS = _BUILD.led_hole / 2 / _BUILD.step


@dataclass(frozen=True)
class Box:
    """An axis-aligned rectangle in window pixels."""

    x: float
    y: float
    w: float
    h: float

    def contains(self, pos: Pos) -> bool:
        return self.x <= pos[0] < self.x + self.w and self.y <= pos[1] < self.y + self.h

    @property
    def center(self) -> Pos:
        return (self.x + self.w / 2, self.y + self.h / 2)

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def bottom(self) -> float:
        return self.y + self.h

    def ints(self) -> tuple[int, int, int, int]:
        return (round(self.x), round(self.y), round(self.w), round(self.h))


@dataclass(frozen=True)
class Layout:
    """All positions for one window size.

    ``points`` maps each point to its centre; ``step`` is the grid spacing (the
    distance between neighbouring points of the inner ring), from which the
    sizes of men, glows and hit areas follow.
    """

    width: int
    height: int
    board: Box
    step: float
    points: dict[str, Pos]
    hand_trays: dict[str, Box]
    removed_trays: dict[str, Box]
    buttons: dict[str, Box]
    status_leds: dict[str, Pos]
    panel: Box
    #: Each point's LED, beside it (not under the man).
    leds: dict[str, Pos]
    #: Where the coordinate labels go: files a-g below the board, ranks 1-7 to its left.
    labels: dict[str, Pos]
    #: The status LEDs' radius (they stand in a column beside the buttons, each with its name).
    status_radius: float

    MIN_SIZE = (640, 420)

    @classmethod
    def compute(cls, width: int, height: int) -> Layout:
        """Lay out a window of ``width`` x ``height`` pixels (smaller sizes are clamped)."""
        width, height = max(width, cls.MIN_SIZE[0]), max(height, cls.MIN_SIZE[1])
        panel_w = min(max(260.0, width * 0.3), 440.0)
        left_w = width - panel_w
        margin = max(8.0, min(width, height) * 0.02)
        button_h = min(max(34.0, height * 0.07), 60.0)
        avail_w = left_w - 2 * margin
        avail_h = height - button_h - 3 * margin
        # board + two trays (0.17 S each) + two gaps (0.03 S each) across
        size = min(avail_h, avail_w / 1.40)
        bx = margin + (avail_w - size) / 2
        by = margin + (avail_h - size) / 2
        board = Box(bx, by, size, size)
        pad = size * 0.08
        step = (size - 2 * pad) / 6
        points = {}
        for name in POINTS:
            gx, gy = coordinates(name)
            points[name] = (bx + pad + gx * step, by + pad + (6 - gy) * step)
        tray_w, gap = size * 0.17, size * 0.03
        hand_h = size * 0.6
        hand_trays, removed_trays = {}, {}
        for side, tx in (("white", bx - gap - tray_w), ("black", board.right + gap)):
            hand_trays[side] = Box(tx, by, tray_w, hand_h)
            removed_trays[side] = Box(tx, by + hand_h + gap, tray_w, size - hand_h - gap)
        row_y = height - margin - button_h
        row_x = margin
        button_w = min((avail_w * 0.75 - 3 * margin) / len(BUTTONS), 150.0)
        buttons = {
            name: Box(row_x + i * (button_w + margin), row_y, button_w, button_h) for i, name in enumerate(BUTTONS)
        }
        row_h = button_h / len(STATUS_LEDS)
        status_radius = row_h * 0.32
        led_x0 = row_x + len(BUTTONS) * (button_w + margin) + status_radius
        status_leds = {name: (led_x0, row_y + (i + 0.5) * row_h) for i, name in enumerate(STATUS_LEDS)}
        panel = Box(left_w, 0, panel_w, height)
        off = LED_OFFSET * step
        leds = {name: (x + off, y - off) for name, (x, y) in points.items()}
        # the labels sit in the board's margin, clear of the men on the outer ring
        label_gap = pad * 0.74
        left, bottom = bx + pad, by + pad + 6 * step
        labels = {f: (left + i * step, bottom + label_gap) for i, f in enumerate("abcdefg")}
        labels.update({str(r): (left - label_gap, bottom - (r - 1) * step) for r in range(1, 8)})
        return cls(
            width,
            height,
            board,
            step,
            points,
            hand_trays,
            removed_trays,
            buttons,
            status_leds,
            panel,
            leds,
            labels,
            status_radius,
        )

    # -- sizes --------------------------------------------------------------------------

    @property
    def man_radius(self) -> float:
        return self.step * MAN_RADIUS

    @property
    def led_radius(self) -> float:
        """The LED hole's radius: the bright core of a lit LED."""
        return max(2.0, self.step * LED_RADIUS)

    @property
    def glow_radius(self) -> float:
        """How far an LED's light spreads on the wood around its hole."""
        return self.step * 0.26

    @property
    def tray_label_height(self) -> float:
        """Room kept free at the bottom of a tray for its count."""
        return max(14.0, self.step * 0.25)

    @property
    def hole_radius(self) -> float:
        return self.step * 0.075

    # -- hit testing --------------------------------------------------------------------

    def point_at(self, pos: Pos, reach: float = 0.45) -> str | None:
        """The point within ``reach`` steps of ``pos``, else ``None``."""
        best, best_d = None, reach * self.step
        for name, (px, py) in self.points.items():
            d = math.hypot(pos[0] - px, pos[1] - py)
            if d <= best_d:
                best, best_d = name, d
        return best

    def points_along(self, start: Pos, end: Pos, reach: float = 0.3) -> list[str]:
        """Points whose centre passes within ``reach`` steps of the segment, in path order.

        A magnet slid along this path closes these switches on its way.
        """
        (x0, y0), (x1, y1) = start, end
        dx, dy = x1 - x0, y1 - y0
        length2 = dx * dx + dy * dy
        found = []
        for name, (px, py) in self.points.items():
            u = 0.0 if length2 == 0 else max(0.0, min(1.0, ((px - x0) * dx + (py - y0) * dy) / length2))
            if math.hypot(x0 + u * dx - px, y0 + u * dy - py) <= reach * self.step:
                found.append((u, name))
        return [name for _, name in sorted(found)]

    def region_at(self, pos: Pos) -> tuple[str, str | None]:
        """What lies under ``pos``: ``("point", p)``, ``("hand", side)``, ``("removed", side)``,
        ``("button", name)``, ``("board", None)`` or ``("off", None)``."""
        point = self.point_at(pos)
        if point:
            return ("point", point)
        if self.board.contains(pos):
            return ("board", None)
        for side in SIDES:
            if self.hand_trays[side].contains(pos):
                return ("hand", side)
            if self.removed_trays[side].contains(pos):
                return ("removed", side)
        for name, box in self.buttons.items():
            if box.contains(pos):
                return ("button", name)
        return ("off", None)

    def tray_slots(self, tray: Box, count: int) -> list[Pos]:
        """Centres for ``count`` men stacked in two staggered columns of a tray.

        Men overlap like a pile of coins when the tray is too short for them.
        """
        if count <= 0:
            return []
        r = self.man_radius
        rows = math.ceil(count / 2)
        usable = max(tray.h - 2 * r - 8 - 2 * self.tray_label_height, 0)
        pitch = min(2 * r * 1.08, usable / max(rows - 1, 1)) if rows > 1 else 0
        xs = (tray.x + tray.w * 0.32, tray.x + tray.w * 0.68)
        top = tray.y + self.tray_label_height + r + 4  # below the tray's colour name
        return [(xs[i % 2], top + (i // 2) * pitch + (i % 2) * pitch * 0.5) for i in range(count)]
