"""Where everything sits in a board picture: pure geometry in SVG user units.

Positions come from the points' names (``morris_pi.rules.coordinates``), as in
the simulator and the drilling template, so every drawing of the board agrees.
One grid step (the distance between neighbouring points of the inner ring) is
``STEP`` units; everything else is a fraction of it, so the picture scales
without changing shape. The board is seen from white's side (rank 1 at the
bottom) unless ``flipped``, which turns it half round as a player sitting on
black's side sees it.

>>> lay = Layout.compute()
>>> lay.size, lay.points["a7"], lay.points["g1"]
(492.0, (66.0, 66.0), (426.0, 426.0))
>>> Layout.compute(flipped=True).points["a7"]
(426.0, 426.0)
>>> Layout.compute(coordinates=False).size
444.0
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from morris_pi.rules import POINTS, coordinates as grid

Pos = tuple[float, float]

STEP = 60.0
#: Wood beyond the outer ring: room for the labels, or just a frame without them.
RIM_WITH_COORDINATES = 66.0  # 1.1 steps: labels in the outer third, clear of LED rings
RIM_PLAIN = 42.0  # 0.7 steps
MAN_RADIUS = 0.34 * STEP
RING_RADIUS = 0.46 * STEP
#: The real board's LED sits 18 mm up and right of a point 53 mm from its
#: neighbours, just clear of a 28 mm man; a picture's men are larger, so the
#: LED moves out with them.
LED_OFFSET = 0.52 * STEP


@dataclass(frozen=True)
class Layout:
    """Centres of the points, the picture's size, and where labels and status LEDs go."""

    size: float
    rim: float
    flipped: bool
    coordinates: bool
    points: dict[str, Pos]

    @classmethod
    def compute(cls, *, coordinates: bool = True, flipped: bool = False) -> "Layout":
        rim = RIM_WITH_COORDINATES if coordinates else RIM_PLAIN
        size = 2 * rim + 6 * STEP
        points = {}
        for name in POINTS:
            gx, gy = grid(name)
            col, row = (6 - gx, gy) if flipped else (gx, 6 - gy)
            points[name] = (rim + col * STEP, rim + row * STEP)
        return cls(size, rim, flipped, coordinates, points)

    def column_x(self, file: str) -> float:
        """Centre x of a file's column, ``a``-``g``."""
        gx = ord(file) - ord("a")
        return self.rim + (6 - gx if self.flipped else gx) * STEP

    def row_y(self, rank: str) -> float:
        """Centre y of a rank's row, ``1``-``7``."""
        gy = int(rank) - 1
        return self.rim + (gy if self.flipped else 6 - gy) * STEP

    def led(self, point: str) -> Pos:
        """Where the LED of a point shows when drawn beside it: up and right, as on the board.

        Seen from black's side (flipped) the same hole is down and left.
        """
        x, y = self.points[point]
        d = LED_OFFSET / math.sqrt(2)
        return (x - d, y + d) if self.flipped else (x + d, y - d)

    def label_offset(self) -> float:
        """From the picture's edge to the centre of the coordinate labels."""
        return self.rim / 3

    def corner(self, which: str) -> Pos:
        """Centre of a corner of the rim: ``top-left``, ``top-right``, ``bottom-left`` or ``bottom-right``."""
        vertical, horizontal = which.split("-")
        half = self.rim / 2
        x = half if horizontal == "left" else self.size - half
        y = half if vertical == "top" else self.size - half
        return (x, y)
