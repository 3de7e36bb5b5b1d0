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

from morris_pi.catalogue import LANGUAGES, Words, say
from morris_pi.core.assist import BlunderWarning, warning_words
from morris_pi.core.position_setup import game_from
from morris_pi.core.session import ERROR_PATTERNS, PAIRING_PATTERN, PAIRING_ROLE
from morris_pi.guidance import DEFAULT_PALETTE, ROLES, Frame, Look
from morris_pi.render import board_svg, last_turn_of
from morris_pi.rules import Game, Turn, get_profile

from .seam import View

#: Why an LED is lit, for the page's legend (one line per role of ``guidance.ROLES``), in English:
#: the page itself shows the catalogue's ``role.<role>`` in its own language.
ROLE_WORDS: dict[str, str] = {role: say(f"role.{role}") for role in ROLES}


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
    flipped: bool = False,
    title: str | None = None,
) -> str:
    """The board picture for the page: fills its box, blinks its LEDs, men clickable by id; ``flipped``
    seen from Black's side; ``title`` ``""`` leaves the English title out (the page names it itself)."""
    turn = last_turn_of(position) if last and isinstance(position, Game) else None
    return board_svg(
        position,
        last_turn=turn,
        leds=leds,
        profile=profile,
        palette=palette,
        animate=True,
        flipped=flipped,
        title=title,
    )


def position_after(record: str | list[str], plies: int | None, profile: str, fen: str | None = None) -> Game:
    """The game after its first ``plies`` turns (all of them with ``None``), played from the FEN ``fen``
    when the game was set up from one; ``ValueError`` names a bad record."""
    turns = record.split() if isinstance(record, str) else list(record)
    if plies is not None:
        if not 0 <= plies <= len(turns):
            raise ValueError(f"turn {plies} is not in this game: it has {len(turns)} turns")
        turns = turns[:plies]
    get_profile(profile)  # a clear error for an unknown profile
    return game_from(fen, turns, profile)


def view_json(view: View, palette: Mapping[str, Look] = DEFAULT_PALETTE, *, flipped: bool = False) -> dict[str, Any]:
    """Everything the page shows for ``view`` (the picture seen from Black's side with ``flipped``).

    Words a person reads come as keys of the message catalogue with their values (roles, menu
    choices, problems by ``kind`` and ``point``), so the page shows them in its own language;
    ``status`` is the board's own line in English, as the log has it.
    """
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
        "analysis": dict(view.analysis) if view.analysis is not None else None,
        "searched": dict(view.searched) if view.searched is not None else None,
        "clock": dict(view.clock) if view.clock is not None else None,
        "can": dict(view.can),
        "claimable": view.claimable,
        "flipped": flipped,
    }
    roles: dict[str, str]
    status: dict[str, str] = {}
    if view.menu is not None:
        roles = dict(view.menu["leds"])
        men: Game | Mapping[str, str] = {}
        profile = s.profile
        game = None
    else:
        assert snap is not None
        roles = dict(snap.leds)
        status = dict(snap.status)
        profile = snap.profile
        game = game_from(snap.start, snap.record, profile)
        men = game
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
                "in_hand": game.in_hand,
                "trays": trays(game),
                "setup": dict(snap.setup) if snap.setup is not None else None,
                "warning": warning_json(snap.warning),
                "hints_left": dict(snap.hints_left),
                "assist": s.assists.meta(),
            }
        )
        if snap.setup is not None:
            # the men standing, in the colour the order makes them: the page shows which colour goes where
            setup = snap.setup
            wanted = {p: side for side in ("white", "black") for p in setup.get(side, ())}
            men = {p: wanted[p] for p in setup.get("standing", ()) if p in wanted}
    # what the session lays over the game's frame on the LEDs: the clock's warning under the
    # guidance, the fault patterns and the pairing blink over it
    low_points, low_status = view.overlay
    for point, role in low_points:
        roles.setdefault(point, role)
    status.update(low_status)
    for kind in view.faults:
        roles.update({p: "error" for p in ERROR_PATTERNS.get(kind, ())})
    if view.pairing:
        roles.update({p: PAIRING_ROLE for p in PAIRING_PATTERN})
    elif view.faults:
        status["error"] = "error"
    frame = Frame(roles, status)
    if view.hand is not None:
        men = dict(view.hand["board"])  # the browser board shows the men where they stand
    out["legend"] = [
        {
            "role": role,
            "words": ROLE_WORDS.get(role, role),
            "points": sorted(p for p, r in roles.items() if r == role),
            "status": sorted(n for n, r in status.items() if r == role),
        }
        for role in dict.fromkeys([*roles.values(), *status.values()])
    ]
    out["colours"] = {
        role: "#{:02x}{:02x}{:02x}".format(*palette[role].colour)
        for role in dict.fromkeys([*roles.values(), *status.values()])
        if role in palette
    }
    out["svg"] = picture(men, frame, profile=profile, palette=palette, flipped=flipped, title="")
    return out


def warning_json(warning: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """A blunder warning for the page: the snapshot's, with its sentence in each language.

    >>> warning_json({"side": "black", "turn": "g7", "better": "d7", "loss": 354, "point": "g7"})["words"]["en"]
    'g7 is a blunder: it gives away about 3.5 men, and d7 was better.'
    """
    if warning is None:
        return None
    better, reply = warning.get("better"), warning.get("reply")
    shown = BlunderWarning(
        warning["side"],
        Turn.parse(warning["turn"]),
        Turn.parse(better) if better else None,
        int(warning["loss"]),
        0,
        warning["point"],
        Turn.parse(reply) if reply else None,
    )
    return {**warning, "words": {lang: warning_words(shown, Words(lang)) for lang in LANGUAGES}}


def trays(game: Game) -> dict[str, dict[str, int]]:
    """Each side's men as the game has them: in hand, on the board, and taken (off the board for good).

    >>> trays(Game.from_record("d6 a1 f6 a4 b6xa1"))["black"]
    {'in_hand': 7, 'on_board': 1, 'taken': 1}
    """
    men = game.profile.men
    out = {}
    for side in ("white", "black"):
        on_board = sum(1 for s in game.board.values() if s == side)
        in_hand = game.in_hand[side]
        out[side] = {"in_hand": in_hand, "on_board": on_board, "taken": men - in_hand - on_board}
    return out
