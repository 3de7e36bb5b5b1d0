"""The game two people will play: chosen first, every turn known, with how it ends.

A turn whose lingering mess could read as another legal turn is found here
(``wrong_occupancies``), so that the hands can draw it again.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass

from morris_pi.rules import POINTS, Game, Outcome, Position, Turn, point_index

#: The longest game chosen, in turns.
MAX_TURNS = 300


@dataclass
class Plan:
    """The game to be played: positions before each turn, the turns, and how it ends."""

    profile: str
    positions: list[Position]
    turns: list[Turn]
    record: str
    outcome: Outcome
    button: str | None  # "resign" or "draw" pressed after the last turn


def mask(points: Iterable[str]) -> int:
    out = 0
    for p in points:
        out |= 1 << point_index(p)
    return out


def occupancy(pos: Position) -> int:
    return pos.men[0] | pos.men[1]


def after_raw(occ: int, raw: tuple[int, int, int]) -> int:
    origin, target, removal = raw
    if origin >= 0:
        occ &= ~(1 << origin)
    occ |= 1 << target
    if removal >= 0:
        occ &= ~(1 << removal)
    return occ


def pending_steps(pos: Position) -> list[tuple[int, int]]:
    """Steps that close a mill and then wait for a removal."""
    if not pos.removable(pos.side):
        return []
    return [(o, t) for o, t in pos.steps() if pos.closes_mill(o, t)]


def wrong_occupancies(pos: Position, turn: Turn) -> set[int]:
    """Occupancies of every legal reading of one or two turns other than ``turn`` itself.

    >>> g = Game.from_record("d6 a1 f6 a4")
    >>> wrong = wrong_occupancies(g.position, Turn("b6", removal="a1"))
    >>> mask(["d6", "f6", "b6", "a1"]) in wrong  # b6xa4 instead of b6xa1
    True
    >>> mask(["d6", "f6", "b6", "a4", "a1"]) in wrong  # b6 pending is our own turn's state
    False
    """
    occ0 = occupancy(pos)
    out: set[int] = set()
    for raw in pos.turns():
        p1 = pos.play(raw)
        occ1 = occupancy(p1)
        out.add(occ1)
        for raw2 in p1.turns():
            out.add(after_raw(occ1, raw2))
        for o, t in pending_steps(p1):
            out.add(after_raw(occ1, (o, t, -1)))
    raw = turn.to_raw()
    ours = {after_raw(occ0, raw), after_raw(occ0, (raw[0], raw[1], -1))}
    # one other turn with a man knocked off besides looks the same as it: a move onto a point
    # where a placement is legal, with the origin off at the same moment, is that placement
    singles = {occupancy(pos.play(r)) for r in pos.turns()}
    singles |= {after_raw(occ0, (o, t, -1)) for o, t in pending_steps(pos)}
    out |= singles
    for occ1 in singles - ours:
        for b in range(len(POINTS)):
            if occ1 >> b & 1:
                out.add(occ1 & ~(1 << b))
    out -= ours
    out.discard(occ0)
    return out


# -- choosing the game -----------------------------------------------------------------------


#: How the players pick turns (chosen per game), so that every ending happens: ``attack`` takes
#: men (fewer than three), ``block`` hems the other side in, ``shuffle`` moves a man back and
#: forth (threefold repetition) and ``quiet`` avoids mills (the N-move rule).
STYLES = (("attack", 0.45), ("block", 0.25), ("shuffle", 0.15), ("quiet", 0.15))


def choose_game(rng: random.Random, profile: str) -> Plan:
    """Random but sensible play in one of the ``STYLES``; sometimes a resignation or a claimed draw."""
    game = Game(profile)
    positions: list[Position] = []
    turns: list[Turn] = []
    style = rng.choices([name for name, _ in STYLES], [w for _, w in STYLES])[0]
    resign_at = rng.randint(12, 150) if rng.random() < 0.1 else None
    button = None
    while not game.is_over:
        if len(turns) == resign_at or len(turns) >= MAX_TURNS:
            button = "resign"
            game.resign(game.turn)
            break
        if game.claimable_draw() and rng.random() < 0.8:
            button = "draw"
            game.claim_draw()
            break
        pos = game.position
        legal = game.legal_turns()
        back = None
        if style == "shuffle" and len(turns) >= 2 and turns[-2].origin:
            back = Turn(turns[-2].origin, turns[-2].target)
        weights = []
        for turn in legal:
            after = pos.play(turn.to_raw())
            w = 1.0
            if turn.removal:
                w = {"attack": 6.0, "block": 3.0, "shuffle": 2.0, "quiet": 0.05}[style]
            if style == "block" and pos.hand[pos.side] == 0:
                w /= (1 + len(after.steps())) ** 4
            if style == "shuffle" and turn.step == back and len(turns) > 30:
                w = 500.0
            if after.count(after.side) >= 3 and not after.steps():
                w = 1000.0 if style == "block" else 40.0
            weights.append(w)
        turn = rng.choices(legal, weights)[0]
        positions.append(pos)
        turns.append(turn)
        game.play(turn)
    outcome = game.outcome
    assert outcome is not None
    return Plan(profile, positions, turns, game.record, outcome, button)


# -- playing it with hands -------------------------------------------------------------------
