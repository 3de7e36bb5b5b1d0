"""LED roles, blink patterns and the palette that turns a frame into colours.

A frame is a role for each lit point. ``render`` is a pure function of the
frame, the palette and the time, so it is tested without hardware and the
simulator shows exactly what the real LEDs show.

Hue alone never carries meaning: every role that a red-green colour-blind
player must tell apart from a neighbouring role also differs in blink pattern.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

RGB = tuple[int, int, int]

#: Every role a point can show. Order is priority: when the tracker would
#: give a point two roles, the earlier one wins.
ROLES: tuple[str, ...] = (
    "error",            # hardware or engine fault pattern
    "missing",          # a man should be here; put one back
    "extra",            # no man should be here; take it off
    "lifted",           # the man the player is holding came from here
    "computer-remove",  # computer's turn: take this human man off
    "computer-from",    # computer's turn: lift the computer's man here
    "computer-to",      # computer's turn: put a computer man here
    "removable",        # after a mill: the men that may be taken
    "legal-target",     # where the lifted (or to-be-placed) man may go
    "hint",             # the engine's suggestion for the human
    "mill",             # the mill just closed
    "winner",           # the winning side's men at game end
    "last-move",        # the previous turn's target
    "menu-option",      # set-up menu: a choice offered on this point
    "menu-choice",      # set-up menu: the current choice
)

#: Blink patterns: name -> period in seconds and the fraction of it spent on.
#: ``pulse`` breathes smoothly instead of switching.
BLINKS: dict[str, tuple[float, float]] = {
    "steady": (1.0, 1.0),
    "slow": (1.2, 0.5),
    "fast": (0.4, 0.5),
    "double": (1.2, 0.0),  # two short flashes per period, handled in _level
    "pulse": (2.0, 0.0),   # smooth breathing, handled in _level
}


@dataclass(frozen=True)
class Look:
    """How one role looks: a colour and a blink pattern."""

    colour: RGB
    blink: str = "steady"

    def __post_init__(self) -> None:
        if self.blink not in BLINKS:
            raise ValueError(f"unknown blink pattern {self.blink!r}; expected one of {', '.join(BLINKS)}")
        if len(self.colour) != 3 or any(not 0 <= c <= 255 for c in self.colour):
            raise ValueError(f"colour must be three values 0-255, got {self.colour!r}")


#: Colours chosen from a colour-blind-safe set (blue/orange/yellow/white/magenta);
#: roles that share a hue differ in blink.
DEFAULT_PALETTE: dict[str, Look] = {
    "error": Look((255, 0, 0), "fast"),
    "missing": Look((255, 140, 0), "fast"),
    "extra": Look((255, 0, 255), "double"),
    "lifted": Look((255, 255, 255), "steady"),
    "computer-remove": Look((255, 140, 0), "slow"),
    "computer-from": Look((0, 90, 255), "slow"),
    "computer-to": Look((0, 90, 255), "steady"),
    "removable": Look((255, 140, 0), "pulse"),
    "legal-target": Look((0, 200, 60), "steady"),
    "hint": Look((255, 220, 0), "pulse"),
    "mill": Look((255, 220, 0), "steady"),
    "winner": Look((255, 255, 255), "pulse"),
    "last-move": Look((40, 40, 40), "steady"),
    "menu-option": Look((0, 90, 255), "steady"),
    "menu-choice": Look((255, 255, 255), "slow"),
}


def _level(blink: str, t: float) -> float:
    """Brightness factor 0..1 of a blink pattern at time ``t``."""
    period, duty = BLINKS[blink]
    phase = (t % period) / period
    if blink == "pulse":
        return 0.15 + 0.85 * (0.5 - 0.5 * math.cos(2 * math.pi * phase))
    if blink == "double":
        return 1.0 if (phase < 0.12 or 0.24 <= phase < 0.36) else 0.0
    return 1.0 if phase < duty else 0.0


def render(roles: Mapping[str, str], t: float, palette: Mapping[str, Look] = DEFAULT_PALETTE) -> dict[str, RGB]:
    """Colours for every lit point of a frame at time ``t``.

    >>> render({"d6": "legal-target"}, 0.0)
    {'d6': (0, 200, 60)}
    """
    out: dict[str, RGB] = {}
    for point, role in roles.items():
        look = palette[role]
        level = _level(look.blink, t)
        if level > 0:
            out[point] = tuple(round(c * level) for c in look.colour)  # type: ignore[misc]
    return out
