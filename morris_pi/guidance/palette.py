"""LED roles, blink patterns and the palette that turns a frame into colours.

A frame is a role for each lit point (and each status LED). Whoever lights the
board (the tracker's ``morris_pi.tracker.frame``, the set-up menu, the render
command) composes one; ``render`` is a pure function of the roles, the palette
and the time. Both are tested without hardware, and the simulator shows exactly
what the real LEDs show.

Hue alone never carries meaning: every role that a red-green colour-blind
player must tell apart from a neighbouring role also differs in blink pattern.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

RGB = tuple[int, int, int]

#: Every role a point can show. Order is priority: when the tracker would
#: give a point two roles, the earlier one wins.
ROLES: tuple[str, ...] = (
    "error",  # hardware or engine fault pattern
    "missing",  # a man should be here; put one back
    "extra",  # no man should be here; take it off
    "protected",  # lifted while a removal waits, but it may not be taken: put it back
    "lifted",  # the man the player is holding came from here
    "computer-remove",  # computer's turn: take this human man off
    "computer-from",  # computer's turn: lift the computer's man here
    "computer-to",  # computer's turn: put a computer man here
    "hint",  # the engine's suggestion for the human
    "removable",  # after a mill: the men that may be taken
    "blunder",  # blunder warning: the man just played loses; move it back (or play on)
    "target-losing",  # assisted targets: this target loses (a blunder)
    "target-doubtful",  # assisted targets: this target is an inaccuracy or a mistake
    "target-good",  # assisted targets: this target is the best turn or a good one
    "legal-target",  # where the lifted (or to-be-placed) man may go
    "mill",  # the mill just closed
    "winner",  # the winning side's men at game end
    "last-move",  # the previous turn's target
    "menu-option",  # set-up menu: a choice offered on this point
    "menu-choice",  # set-up menu: the current choice
    "confirm",  # press menu again to resign: that side's men
    "low-time",  # two-player clock: this side's time runs low (its status LED, its edge's middle point)
    "to-move",  # status LED: this side is to move
    "setup-white",  # setting up a position: a white man goes here
    "setup-black",  # setting up a position: a black man goes here (once the white men stand)
)

#: Blink patterns: name -> period in seconds and the fraction of it spent on.
#: ``pulse`` breathes smoothly instead of switching.
BLINKS: dict[str, tuple[float, float]] = {
    "steady": (1.0, 1.0),
    "slow": (1.2, 0.5),
    "fast": (0.4, 0.5),
    "double": (1.2, 0.0),  # two short flashes per period, handled in _level
    "pulse": (2.0, 0.0),  # smooth breathing, handled in _level
    "flash": (0.6, 0.2),  # a short flash three times in two seconds: the clock's warning
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


#: Colours chosen from a colour-blind-safe set (blue/orange/yellow/white/magenta/cyan).
#: For a red-green colour-blind eye red, orange, yellow and green look alike, and
#: so do blue and magenta: roles that can show together and share a blink
#: pattern differ in more than that (``tests/test_guidance.py`` checks it with a
#: simulation of protanopia and deuteranopia).
DEFAULT_PALETTE: dict[str, Look] = {
    "error": Look((255, 0, 0), "double"),
    "missing": Look((255, 140, 0), "fast"),
    "extra": Look((255, 0, 255), "double"),
    "protected": Look((255, 255, 255), "double"),
    "lifted": Look((255, 255, 255), "steady"),
    "computer-remove": Look((255, 140, 0), "slow"),
    "computer-from": Look((0, 90, 255), "slow"),
    "computer-to": Look((0, 90, 255), "steady"),
    "removable": Look((255, 140, 0), "pulse"),
    "legal-target": Look((0, 200, 200), "steady"),
    "target-good": Look((0, 255, 0), "steady"),
    "target-doubtful": Look((255, 200, 0), "pulse"),
    "target-losing": Look((255, 0, 0), "slow"),
    "blunder": Look((255, 0, 255), "flash"),
    "hint": Look((255, 220, 0), "slow"),
    "mill": Look((255, 220, 0), "steady"),
    "winner": Look((255, 255, 255), "pulse"),
    "last-move": Look((40, 40, 40), "steady"),
    "menu-option": Look((0, 90, 255), "steady"),
    "menu-choice": Look((255, 255, 255), "slow"),
    "confirm": Look((255, 255, 255), "fast"),
    "low-time": Look((255, 0, 0), "flash"),
    "to-move": Look((255, 255, 255), "steady"),
    "setup-white": Look((255, 255, 255), "steady"),
    "setup-black": Look((0, 90, 255), "steady"),
}


_EDGE_EPS = 1e-9


def _level(blink: str, t: float) -> float:
    """Brightness factor 0..1 of a blink pattern at time ``t``."""
    period, duty = BLINKS[blink]
    # The same tolerance as next_edge: at the instant it names, the new level must show,
    # or a loop woken exactly on the edge would keep the old level for a whole period.
    phase = ((t + _EDGE_EPS) % period) / period
    if blink == "pulse":
        return 0.15 + 0.85 * (0.5 - 0.5 * math.cos(2 * math.pi * phase))
    if blink == "double":
        return 1.0 if (phase < 0.12 or 0.24 <= phase < 0.36) else 0.0
    return 1.0 if phase < duty else 0.0


def render(roles: Mapping[str, str], t: float, palette: Mapping[str, Look] = DEFAULT_PALETTE) -> dict[str, RGB]:
    """Colours for every lit point of a frame at time ``t``.

    >>> render({"d6": "legal-target"}, 0.0)
    {'d6': (0, 200, 200)}
    """
    out: dict[str, RGB] = {}
    for point, role in roles.items():
        look = palette[role]
        level = _level(look.blink, t)
        if level > 0:
            red, green, blue = look.colour
            out[point] = (round(red * level), round(green * level), round(blue * level))
    return out


PRIORITY: dict[str, int] = {role: i for i, role in enumerate(ROLES)}
#: Role groups that can be lit together; within a group, roles sharing a blink
#: pattern must differ in colour even for a red-green colour-blind eye.
TOGETHER: tuple[tuple[str, ...], ...] = (
    (
        "error",
        "missing",
        "extra",
        "protected",
        "lifted",
        "legal-target",
        "removable",
        "mill",
        "hint",
        "last-move",
        "confirm",
        "low-time",
    ),
    (
        "error",
        "missing",
        "extra",
        "protected",
        "computer-from",
        "computer-to",
        "computer-remove",
        "last-move",
        "confirm",
    ),
    # a man lifted with assisted targets, and the blunder warning (the quality roles
    # replace legal-target, and removable and mill cannot show while a man is lifted)
    (
        "error",
        "missing",
        "extra",
        "protected",
        "lifted",
        "blunder",
        "target-good",
        "target-doubtful",
        "target-losing",
        "hint",
        "last-move",
        "low-time",
    ),
    ("error", "missing", "extra", "setup-white", "setup-black"),
    ("error", "winner"),
    ("error", "menu-option", "menu-choice"),
    ("error", "to-move", "winner", "confirm", "low-time"),
)


@dataclass(frozen=True)
class Frame:
    """What the LEDs show: a role for each lit point and each lit status LED."""

    points: dict[str, str] = field(default_factory=dict)
    status: dict[str, str] = field(default_factory=dict)


def next_edge(roles: Iterable[str], t: float, palette: Mapping[str, Look] = DEFAULT_PALETTE) -> float | None:
    """When the colours of these roles next change with time (a blink edge), or ``None`` if steady.

    A pulse changes all the time: it asks for about 25 frames a second.

    >>> next_edge(["legal-target"], 3.0) is None
    True
    >>> round(next_edge(["missing"], 3.05), 3)
    3.2
    """
    best = math.inf
    for blink in {palette[role].blink for role in roles}:
        if blink == "steady":
            continue
        period, duty = BLINKS[blink]
        if blink == "pulse":
            best = min(best, t + 0.04)
            continue
        edges = (0.12, 0.24, 0.36, 1.0) if blink == "double" else (duty, 1.0)
        start = math.floor(t / period) * period
        for edge in edges:
            when = start + edge * period
            if when > t + _EDGE_EPS:
                best = min(best, when)
                break
    return None if best == math.inf else best


def put(roles: dict[str, str], points: Iterable[str], role: str) -> None:
    """Give ``role`` to each of ``points`` unless it already shows an earlier one in ``ROLES``."""
    rank = PRIORITY[role]
    for point in points:
        old = roles.get(point)
        if old is None or rank < PRIORITY[old]:
            roles[point] = role
