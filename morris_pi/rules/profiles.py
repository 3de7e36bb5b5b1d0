"""Rule profiles: the settings in which the sources differ, as data.

One engine reads these settings; no profile has a code path of its own.

>>> PROFILES["move-this"].all_in_mills
'none'
>>> get_profile("lasker").men, get_profile("lasker").move_while_placing
(10, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .board import GEOMETRIES, Geometry
from .errors import UnknownProfileError


@dataclass(frozen=True)
class Profile:
    name: str
    description: str
    #: Men each side starts with in hand.
    men: int = 9
    #: Board lines: ``standard`` (16 mills) or ``diagonal`` (adds the 4 diagonals).
    geometry: str = "standard"
    #: A side with exactly three men (none in hand) may move to any empty point.
    flying: bool = True
    #: While a side has men in hand, it may also move a man instead of placing.
    move_while_placing: bool = False
    #: When every opponent man stands in a mill: ``any`` of them may be removed,
    #: or ``none`` may and the turn ends.
    all_in_mills: Literal["any", "none"] = "any"
    #: The N-move rule: a draw after this many turns (both sides counted) ...
    n_move_limit: int = 100
    #: ... with no ``removal`` / no ``mill`` closed.
    n_move_reset: Literal["removal", "mill"] = "removal"
    #: Whether the N-move draw is ``auto``matic or must be ``claim``ed.
    n_move_draw: Literal["auto", "claim"] = "auto"
    #: Whether threefold repetition is an ``auto``matic draw or must be ``claim``ed.
    repetition_draw: Literal["auto", "claim"] = "auto"
    #: Where the profile's settings come from (``../shared/reference`` numbering).
    source: str = ""

    @property
    def board(self) -> Geometry:
        return GEOMETRIES[self.geometry]


PROFILES: dict[str, Profile] = {
    p.name: p
    for p in (
        Profile(
            "standard",
            "World federation tournament rules: remove any man when all are in mills; "
            "automatic draws after threefold repetition or 100 turns without a removal.",
            source="002, 003, 004",
        ),
        Profile(
            "move-this",
            "move-this.com: men in mills are never removed; draws must be claimed.",
            all_in_mills="none",
            n_move_draw="claim",
            repetition_draw="claim",
            source="000",
        ),
        Profile(
            "club",
            "Club rules: a draw after 50 turns without a mill being closed.",
            n_move_limit=50,
            n_move_reset="mill",
            source="001",
        ),
        Profile("no-flying", "Standard rules, but a side with three men still moves along the lines.", flying=False),
        Profile(
            "lasker",
            "Lasker morris: ten men each; while a side has men in hand it may place or move.",
            men=10,
            move_while_placing=True,
        ),
        Profile(
            "twelve",
            "Twelve men's morris: twelve men each and four diagonal lines that also form mills.",
            men=12,
            geometry="diagonal",
        ),
    )
}


def get_profile(profile: str | Profile) -> Profile:
    """The profile of that name (a ``Profile`` passes through)."""
    if isinstance(profile, Profile):
        return profile
    try:
        return PROFILES[profile]
    except (KeyError, TypeError):
        raise UnknownProfileError(f"unknown rule profile {profile!r}: choose one of {', '.join(PROFILES)}") from None
