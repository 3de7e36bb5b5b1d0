"""What the page shows, as JSON: a ``View`` in words and a board picture.

``game_json`` is ``GET /api/game``: exactly ``Snapshot.to_dict``, the line
``morris-pi replay --json`` prints. ``view_json`` is what the page receives
over Server-Sent Events: that object under ``game``, and around it what only a
person needs (whose turn in words, why each LED is lit, the picture).

>>> from morris_pi.rules import Game
>>> picture(Game.from_record("d6 a1"), {"d6": "last-move"}).count('class="man white"')
1
>>> ROLE_WORDS["missing"]
'a man should stand here: put one back'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from morris_pi.board.session import ERROR_PATTERNS, PAIRING_PATTERN, PAIRING_ROLE
from morris_pi.guidance import DEFAULT_PALETTE, Frame, Look
from morris_pi.render import board_svg, last_turn_of
from morris_pi.rules import Game, get_profile

from .seam import View

#: Why an LED is lit, for the page's legend (one line per role of ``guidance.ROLES``).
ROLE_WORDS: dict[str, str] = {
    "error": "a fault: see the message",
    "missing": "a man should stand here: put one back",
    "extra": "no man should stand here: take it off",
    "lifted": "the man in the hand came from here",
    "computer-remove": "the computer's turn: take this man off",
    "computer-from": "the computer's turn: lift its man here",
    "computer-to": "the computer's turn: put its man here",
    "hint": "the hint: a good turn for you",
    "removable": "a mill: one of these men may be taken",
    "legal-target": "the man may go here",
    "mill": "the mill just closed",
    "winner": "the winner's men",
    "last-move": "the last turn ended here",
    "menu-option": "set-up menu: a choice",
    "menu-choice": "set-up menu: chosen",
    "confirm": "press the menu button: again to resign, or to pair the browser that asked",
    "to-move": "this side is to move",
}


def game_json(view: View | None) -> dict[str, Any] | None:
    """``GET /api/game``: the snapshot as ``morris-pi replay --json`` prints it, or ``None`` in the menu."""
    if view is None or view.snapshot is None:
        return None
    return view.snapshot.to_dict()


def picture(
    position: Game | Mapping[str, str],
    leds: Mapping[str, str] | Frame | None = None,
    *,
    profile: str | None = None,
    last: bool = True,
    palette: Mapping[str, Look] = DEFAULT_PALETTE,
) -> str:
    """The board picture for the page: fills its box, blinks its LEDs, men clickable by id."""
    turn = last_turn_of(position) if last and isinstance(position, Game) else None
    return board_svg(position, last_turn=turn, leds=leds, profile=profile, palette=palette, animate=True)


def position_after(record: str | list[str], plies: int | None, profile: str) -> Game:
    """The game after its first ``plies`` turns (all of them with ``None``); ``ValueError`` names a bad record."""
    turns = record.split() if isinstance(record, str) else list(record)
    if plies is not None:
        if not 0 <= plies <= len(turns):
            raise ValueError(f"turn {plies} is not in this game: it has {len(turns)} turns")
        turns = turns[:plies]
    get_profile(profile)  # a clear error for an unknown profile
    return Game.from_record(turns, profile)


def view_json(view: View, palette: Mapping[str, Look] = DEFAULT_PALETTE) -> dict[str, Any]:
    """Everything the page shows for ``view``."""
    snap = view.snapshot
    s = view.settings
    out: dict[str, Any] = {
        "version": view.version,
        "state": view.state,
        "status": view.status,
        "settings": s.meta(),
        "game": game_json(view),
        "game_id": view.game_id,
        "turns": list(view.turns),
        "faults": dict(view.faults),
        "pairing": view.pairing,
        "brightness": view.brightness,
        "hand": dict(view.hand) if view.hand is not None else None,
        "menu": dict(view.menu) if view.menu is not None else None,
        "searched": view.searched,
    }
    roles: dict[str, str]
    if view.menu is not None:
        roles = dict(view.menu["leds"])
        frame = Frame(roles, {})
        men: Game | Mapping[str, str] = {}
        profile = s.profile
    else:
        assert snap is not None
        roles = dict(snap.leds)
        frame = Frame(roles, dict(snap.status))
        profile = snap.profile
        men = Game.from_record(snap.record, profile) if snap.record else Game(profile)
        out.update(
            {
                "profile": snap.profile,
                "computer_side": snap.computer_side,
                "thinking": snap.thinking,
                "hint": snap.hint,
                "pending": snap.pending,
                "lifted": snap.lifted,
                "fault": snap.fault,
                "status_leds": dict(snap.status),
                "outcome_text": str(snap.outcome) if snap.outcome is not None else None,
            }
        )
    # what the session lays over the game's frame on the LEDs: fault patterns, the pairing blink
    for kind in view.faults:
        roles.update({p: "error" for p in ERROR_PATTERNS.get(kind, ())})
    if view.pairing:
        roles.update({p: PAIRING_ROLE for p in PAIRING_PATTERN})
        frame = Frame(roles, dict(frame.status))
    elif view.faults:
        frame = Frame(roles, {**frame.status, "error": "error"})
    if view.hand is not None:
        men = dict(view.hand["board"])  # the browser board shows the men where they stand
    out["legend"] = [
        {"role": role, "words": ROLE_WORDS.get(role, role), "points": sorted(p for p, r in roles.items() if r == role)}
        for role in dict.fromkeys(roles.values())
    ]
    out["colours"] = {
        role: "#{:02x}{:02x}{:02x}".format(*palette[role].colour)
        for role in dict.fromkeys(roles.values())
        if role in palette
    }
    out["svg"] = picture(men, frame, profile=profile, palette=palette)
    return out
