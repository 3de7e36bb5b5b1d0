"""Floor 2: board pictures. A position, the last turn and the LEDs in, SVG text out.

Beside the tracker and the engine: imports the rules and the guidance's
palette data, nothing else, and no third-party code. The web page, the docs
and ``morris-pi render`` all draw with ``board_svg``; ``svg_to_png`` converts
when the optional ``png`` extra is installed.

>>> from morris_pi.rules import Game
>>> svg = board_svg(Game.from_record("d6 a1"), size=200)
>>> svg.count('class="man white"'), svg.count('class="man black"')
(1, 1)
"""

from .layout import Layout
from .png import PngUnavailableError, svg_to_png
from .svg import DEFAULT_COLORS, board_svg, last_turn_of, led_paint

__all__ = [
    "Layout", "DEFAULT_COLORS", "board_svg", "last_turn_of", "led_paint", "PngUnavailableError", "svg_to_png",
]
