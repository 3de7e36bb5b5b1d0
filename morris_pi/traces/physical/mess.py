"""The kinds of mess a board meets, as a person or a reed switch produces them.

Each kind has its own probability. A probability is per *opportunity*: per
make or break of a switch for ``bounce``, per turn where the kind can happen
for the others (a slide needs empty points on the man's path, a protected-man
attempt needs a pending removal with protected men, ...). Only what actually
happened is counted.

>>> noise(0.25)["bounce"]
0.25
>>> noise(0.5, ["lost"]) == {**CLEAN, "lost": 0.5}
True
>>> noise(0.25)["takeback"], noise(0.25, ["takeback"])["takeback"]
(0.0, 0.25)
"""

from __future__ import annotations

from collections.abc import Iterable

#: Kind -> how a person or a switch produces it.
KINDS: dict[str, str] = {
    "bounce": "contact bounce: a reed switch chatters for under 1 ms on a make or a break",
    "slide": "a man slid across the board closes the switches of empty points on its path for 20-150 ms",
    "hover": "a man held just above its target closes the switch briefly before it is set down",
    "off_centre": "a man put down between points (no switch closed), then pushed onto its point, flickering",
    "lift_replace": "the mover lifts the man, hesitates with it in the air, puts it back, and later moves it",
    "wrong_man": "the mover lifts one man, puts it back, and moves another",
    "nudge": "the hand knocks a neighbouring man off its switch for 30-150 ms; it slides back",
    "knocked": "a man is knocked off its point, lies between points for a while, and is put back",
    "removal_first": "after closing a mill the man is removed before the move or placement that earned it",
    "protected": "the remover lifts a protected man (in a mill), puts it back, and takes a legal one",
    "own_in_removal": "during a pending removal the remover lifts one of their own men by mistake",
    "illegal": "an illegal move (or, against the computer, a wrong one), left a while, then undone and replayed right",
    "lost": "one switch change of the turn never reaches the board; a scan 0.2-0.8 s later shows every switch",
    "fast": "the next player acts 30-180 ms after the last man landed, while it is still settling",
    "both_reach": "while placing, both players reach at once: the second man lands 5-60 ms after the first",
    "takeback": "a player makes another legal turn, leaves it 2-6 s, takes it back by hand and makes the planned one",
}

#: Kinds made only when asked for by name: a turn made and taken back by hand is a different
#: game for a reader (a turn written and then withdrawn), measured on its own so that the figures
#: of every other kind stay comparable.
OPT_IN: frozenset[str] = frozenset({"takeback"})
#: The kinds ``noise`` makes when no kinds are named.
DEFAULT_KINDS: tuple[str, ...] = tuple(kind for kind in KINDS if kind not in OPT_IN)

#: No mess at all: every probability zero.
CLEAN: dict[str, float] = {kind: 0.0 for kind in KINDS}


def noise(probability: float, kinds: Iterable[str] | None = None) -> dict[str, float]:
    """Every kind in ``kinds`` (default: all but ``OPT_IN``) at ``probability``, the rest off.

    An unknown kind is a ``ValueError`` that names it and lists the known ones.
    """
    if not 0.0 <= probability <= 1.0:
        raise ValueError(f"noise must be a probability 0-1, got {probability!r}")
    chosen = list(DEFAULT_KINDS) if kinds is None else list(kinds)
    unknown = [k for k in chosen if k not in KINDS]
    if unknown:
        raise ValueError(f"unknown mess kind(s) {', '.join(unknown)}; kinds are {', '.join(KINDS)}")
    return {kind: (probability if kind in chosen else 0.0) for kind in KINDS}
