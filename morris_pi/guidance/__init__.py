"""Floor 2: what the LEDs can say. Roles, blink patterns, the palette and frames.

Imports nothing of the project's. The tracker, the set-up menu, the web page, the simulator
and the board pictures all speak in these roles, so a role means the same on every end.
"""

from .palette import BLINKS, DEFAULT_PALETTE, PRIORITY, RGB, ROLES, TOGETHER, Frame, Look, next_edge, put, render

__all__ = [
    "BLINKS",
    "DEFAULT_PALETTE",
    "PRIORITY",
    "RGB",
    "ROLES",
    "TOGETHER",
    "Frame",
    "Look",
    "next_edge",
    "put",
    "render",
]
