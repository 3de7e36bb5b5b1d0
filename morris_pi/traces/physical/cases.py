"""The two cases of issue 9, rebuilt as physical traces for every profile where they can happen.

1. *A protected man touched first.* A move closes a mill; the remover lifts a man that
   stands in a mill (protected while others may be taken), holds it, puts it back, and
   takes a legal one. The protected man stands next to the man taken, so "that removal,
   then the opponent's move from the protected point onto it" also explains the settled
   board, through a point where the sensors saw nothing.
2. *Removal first in the flying phase, and the mover's lift lost.* Black has just flown
   from X; White removes the man that flew, then moves a man from A onto X, closing a mill,
   but A's "off" never arrives; a scan 0.5 s later shows A empty. "C-X, then Black flying
   onto C" explains the board with no event at C.

In two-player mode the positions are the issue's own points (built by a legal record; the
case-2 record was found in a random game and mapped onto the issue's points by one of the
board's 16 symmetries). Against the computer the computer's turns are replay's first-legal
player's, so the records come from searches over games with that player: same story,
other points. ``RECORDS`` holds the records found; ``find_case1``/``find_case2`` find them again.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

from morris_pi.rules import POINTS, Game, Turn, get_profile, other_side
from morris_pi.rules.board import RINGS

from .computer import FirstLegal
from .hands import Hands
from .mess import KINDS, noise
from .playing import Header, PhysicalTrace, Plan, computer_side, perform
from .switches import Contacts, events

PROFILES = ("standard", "move-this", "club", "no-flying", "lasker", "twelve")


def symmetries() -> list[dict[str, str]]:
    """The 16 maps of the board onto itself: 4 rotations, reflections, inner and outer rings swapped.

    >>> len(symmetries()), all(s["d6"] in ("d6", "b4", "f4", "d2") for s in symmetries())
    (16, True)
    """
    out = []
    for swap in (False, True):
        for reflect in (False, True):
            for turn in range(4):
                mapping = {}
                for r, ring in enumerate(RINGS):
                    for k, point in enumerate(ring):
                        k2 = (-k) % 8 if reflect else k
                        k2 = (k2 + 2 * turn) % 8
                        mapping[point] = RINGS[2 - r if swap else r][k2]
                out.append(mapping)
    return out


def _map_turn(turn: Turn, s: dict[str, str]) -> Turn:
    return Turn(s[turn.target], s[turn.origin] if turn.origin else None, s[turn.removal] if turn.removal else None)


#: (case, profile, mode) -> (record before the case turn, the case turn, the man at its centre:
#: the protected man for case 1, C for case 2). Found by ``find_case*``.
RECORDS: dict[tuple[str, str, str], tuple[str, str, str]] = {
    ("1", "standard", "two-player"): (
        "c5 f4 e5 g7 a1 a4 e3 f2 c3 e4 b4 a7 b2 d2 f6 g4xa1 d3xa4 g1xf6 e5-d5 d2-d1",
        "b4-c4xd1",
        "g1",
    ),
    ("2", "standard", "two-player"): (
        "a4 d7 f4 f2 c3 a1 c4 d3 b4xa1 g4 c5xg4 b2 a7 a1 d2 d6 f6 d5xa7 a4-a7 d3-e3 a7-a4xb2 e3-d3 "
        "b4-b6 d7-a7 b6-b4xd5 d6-d7 c5-d5 d3-e3 d5-c5xe3 d7-d6 b4-b6 d6-d7 b6-b4xa7 f2-g7",
        "d2-f2xg7",
        "f4",
    ),
    ("1", "standard", "computer-white"): (
        "a7 d2 d7 c5 g7xd2 g1 g4 d2 d1 c4 a1 c3xd1 d1 b4 a4xg1 f2 g1xf2 e3 d7-d6 b4-b6 a7-d7",
        "d2-d3xd7",
        "g7",
    ),
    ("2", "standard", "computer-white"): (
        "a7 g4 d7 f6 g7xg4 d1 g4 b4 g1xd1 e5 d1 d2 a1xf6 d6 a4xd6 b6 d6 d3 g4-f4 d3-e3 g7-g4 d2-f2 "
        "d7-g7xb6 b4-b6 a7-d7 e3-d3 d7-a7xb6 d3-b6 a7-d7 f2-a7 d1-d2 a7-d1",
        "d7-a7xd1",
        "a4",
    ),
    ("1", "standard", "computer-black"): (
        "b6 a7 e4 d7 c4 g7xb6 a4 g4 b4xg4 g4 c5 g1xc5 d2 d1 d5 a1xd2 d6 b6 e4-e5 g4-f4 c4-c5xb6 g7-g4",
        "c5-c4xg4",
        "g1",
    ),
    ("2", "standard", "computer-black"): (
        "g1 a7 g7 d7 g4xa7 a7 e4 d1 f4xd1 d1 b4 a1 c3 a4xb4 b2 b6 b4 d6 c3-c4 d1-d2 g1-d1 d6-f6 "
        "d1-g1xf6 d7-d6 e4-e3 a7-d7 e3-e4xd2 d7-a7xb2 f4-f2 a7-d7 f2-f4xa4 d7-a7 b4-b2 a7-d7 e4-e5 "
        "d7-a7 e5-e4xd6 a7-d7 b2-d2 d7-a7 g7-d7 a7-g7 d2-f2 g7-a7",
        "d7-g7xa7",
        "g4",
    ),
    ("1", "move-this", "two-player"): (
        "c5 f4 e5 g7 a1 a4 e3 f2 c3 e4 b4 a7 b2 d2 f6 g4xa1 d3xa4 g1xf6 e5-d5 d2-d1",
        "b4-c4xd1",
        "g1",
    ),
    ("2", "move-this", "two-player"): (
        "b2 f2 f6 c3 d3 a4 c5 e3 b4 g4 b6xa4 g7 d6xc3 d7 e4 g1xd3 a7 d3 a7-a4 d7-a7 c5-c4xf2 g1-d1 "
        "b2-d2 d1-g1xd2 c4-c5 a7-d7 c5-c4xd7 g7-d7 c4-c3 d7-g7xc3 e4-f4 e3-e4 d6-d7 e4-e3 d7-d6xd3 "
        "g1-d1 b4-b2 d1-d2 a4-b4xg7 g4-f2 b4-c4 d2-b4 c4-c3 e3-e5 c3-c4 e5-d5 c4-c5 b4-g1 b2-d2 "
        "f2-g7",
        "d2-f2xg7",
        "f4",
    ),
    ("1", "move-this", "computer-white"): (
        "a7 d2 d7 c5 g7xd2 g1 g4 d2 d1 c4 a1 c3xd1 d1 b4 a4xg1 f2 g1xf2 e3 d7-d6 b4-b6 a7-d7",
        "d2-d3xd7",
        "g7",
    ),
    ("2", "move-this", "computer-white"): (
        "a7 f4 d7 c3 g7xf4 d6 g4 c4 g1xd6 e3 d1 d2 a1xd2 d3 a4xc4 c5 b6 d2 d7-d6 d2-f2 a7-d7 c3-c4 "
        "d7-a7xf2 c5-d5 a7-d7 d5-e5 d7-a7xe5 c4-f6 a7-d7 f6-a7 g4-f4 a7-g4",
        "d7-a7xg4",
        "a4",
    ),
    ("1", "move-this", "computer-black"): (
        "f2 a7 b4 d7 g4 g7xg4 f4 g4 c3 g1xf4 e4 d1 d3 a1xf2 f4 a4xf4 c5 b6 b4-c4xb6 d7-d6 e4-e5 a7-d7 e5-d5",
        "d7-a7xd5",
        "c5",
    ),
    ("2", "move-this", "computer-black"): (
        "g7 a7 g1 d7 g4xd7 d7 d3 d1 c3 a1 e3xa7 a7 f4 a4xf4 c5 b6 c4xd1 d1 g4-f4 d7-d6 f4-g4xd6 "
        "a7-d7 e3-e4 d7-a7xe4 d3-e3 a7-d7 c5-d5 d7-a7xd5 c4-c5 a7-d7 e3-d3 d7-a7xc5 c3-c4 a7-d7 "
        "c4-b4 d7-a7xb4 d3-d2 a7-d7 d2-d3 d7-a7xd3 g7-d2 a7-d7 d2-g7xb6 d7-a7 g4-b2 a7-d7 b2-g4xa1 "
        "d7-a7 g1-d7 a7-g1",
        "g4-a7xg1",
        "d7",
    ),
    ("1", "club", "two-player"): (
        "c5 f4 e5 g7 a1 a4 e3 f2 c3 e4 b4 a7 b2 d2 f6 g4xa1 d3xa4 g1xf6 e5-d5 d2-d1",
        "b4-c4xd1",
        "g1",
    ),
    ("2", "club", "two-player"): (
        "a4 d7 f4 f2 c3 a1 c4 d3 b4xa1 g4 c5xg4 b2 a7 a1 d2 d6 f6 d5xa7 a4-a7 d3-e3 a7-a4xb2 e3-d3 "
        "b4-b6 d7-a7 b6-b4xd5 d6-d7 c5-d5 d3-e3 d5-c5xe3 d7-d6 b4-b6 d6-d7 b6-b4xa7 f2-g7",
        "d2-f2xg7",
        "f4",
    ),
    ("1", "club", "computer-white"): (
        "a7 d2 d7 c5 g7xd2 g1 g4 d2 d1 c4 a1 c3xd1 d1 b4 a4xg1 f2 g1xf2 e3 d7-d6 b4-b6 a7-d7",
        "d2-d3xd7",
        "g7",
    ),
    ("2", "club", "computer-white"): (
        "a7 g4 d7 f6 g7xg4 d1 g4 b4 g1xd1 e5 d1 d2 a1xf6 d6 a4xd6 b6 d6 d3 g4-f4 d3-e3 g7-g4 d2-f2 "
        "d7-g7xb6 b4-b6 a7-d7 e3-d3 d7-a7xb6 d3-b6 a7-d7 f2-a7 d1-d2 a7-d1",
        "d7-a7xd1",
        "a4",
    ),
    ("1", "club", "computer-black"): (
        "b6 a7 e4 d7 c4 g7xb6 a4 g4 b4xg4 g4 c5 g1xc5 d2 d1 d5 a1xd2 d6 b6 e4-e5 g4-f4 c4-c5xb6 g7-g4",
        "c5-c4xg4",
        "g1",
    ),
    ("2", "club", "computer-black"): (
        "g1 a7 g7 d7 g4xa7 a7 e4 d1 f4xd1 d1 b4 a1 c3 a4xb4 b2 b6 b4 d6 c3-c4 d1-d2 g1-d1 d6-f6 "
        "d1-g1xf6 d7-d6 e4-e3 a7-d7 e3-e4xd2 d7-a7xb2 f4-f2 a7-d7 f2-f4xa4 d7-a7 b4-b2 a7-d7 e4-e5 "
        "d7-a7 e5-e4xd6 a7-d7 b2-d2 d7-a7 g7-d7 a7-g7 d2-f2 g7-a7",
        "d7-g7xa7",
        "g4",
    ),
    ("1", "no-flying", "two-player"): (
        "c5 f4 e5 g7 a1 a4 e3 f2 c3 e4 b4 a7 b2 d2 f6 g4xa1 d3xa4 g1xf6 e5-d5 d2-d1",
        "b4-c4xd1",
        "g1",
    ),
    ("1", "no-flying", "computer-white"): (
        "a7 d2 d7 c5 g7xd2 g1 g4 d2 d1 c4 a1 c3xd1 d1 b4 a4xg1 f2 g1xf2 e3 d7-d6 b4-b6 a7-d7",
        "d2-d3xd7",
        "g7",
    ),
    ("1", "no-flying", "computer-black"): (
        "b6 a7 e4 d7 c4 g7xb6 a4 g4 b4xg4 g4 c5 g1xc5 d2 d1 d5 a1xd2 d6 b6 e4-e5 g4-f4 c4-c5xb6 g7-g4",
        "c5-c4xg4",
        "g1",
    ),
    ("1", "lasker", "two-player"): (
        "e5 e3 d5 e4 b4 g7 f4 g1 c3 g4xe5 c5 a7 a1 d2 b6 f2 d7 a4 b2xa4 e5xa1 d7-d6 d2-d1",
        "b4-c4xd1",
        "g1",
    ),
    ("2", "lasker", "two-player"): (
        "d1 a1 d3 c5 d2xc5 c4 f6 e5 c5 c4-c3 c5-c4 b2 g7 e3 c4-b4 a7 f6-f4 a1-a4 b4-b6 e4xg7 f6 f2 "
        "d6xa7 c5 g4 b2-b4 b2 c3-c4xb2 d1-g1 b4-b2 g1-d1xc5 a4-a7 g4-g7 c4-c3 d1-g1 a7-a4 g1-d1xa4 "
        "c3-c4 d3-c3 c4-c5 c3-d3xc5 b2-b4 g7-g4 b4-a4 d1-a1 e5-d5 a1-d1xd5 a4-a7 b6-b4 a7-d7 "
        "b4-b6xe3 f2-g7",
        "d2-f2xg7",
        "f4",
    ),
    ("1", "lasker", "computer-white"): (
        "a7 d2 d7 d2-d3 g7xd3 c5 g4 d1 g1xd1 d2 d1 d2-f2 a1xf2 c4 a4xc5 e3 b6 e5 d6 c3 g4-f4 c5xb6 "
        "g7-g4 d5xd6 d7-g7xe3 e5-e4 a7-d7",
        "e4-e5xd7",
        "g7",
    ),
    ("2", "lasker", "computer-white"): (
        "a7 e5 d7 c3 g7xe5 a4 g4 e5 g1xa4 d3 d1 b6 a1xb6 e5-e4 a4xe4 e3xg4 g4xe3 b4 b6 b4-b2 d7-d6 "
        "e5 a7-d7 c3-c4 d7-a7xb2 d7 g4-f4 e5-e4 g7-g4 d3-e3 g4-g7 e4-e5 g7-g4 d7-g7 a7-d7 e3-e4 "
        "d7-a7xg7 c4-g7 a7-d7 g7-a7",
        "d7-g7xa7",
        "g4",
    ),
    ("1", "lasker", "computer-black"): (
        "f2 a7 b4 d7 g4 g7xg4 f4 g4 c3 g1xf4 e4 d1 d5 a1xf2 b4-b2 a4xb2 d3 b6 b4 d6 c4 g4-f4",
        "d5-c5xd6",
        "d7",
    ),
    ("2", "lasker", "computer-black"): (
        "e4 a7 f6 d7 g7 g4 e3 g1 e5xa7 a7 f2 d1 e4-f4xd1 d1 f4-e4xd1 d1 e4-f4xg1 g1 f4-e4xg1 g1 "
        "f4xa7 d7-a7 b4 a7-d7 d2 d7-a7 b2xa7 g4-a7",
        "g7-g4xa7",
        "f4",
    ),
    ("1", "twelve", "two-player"): (
        "b4 a7 e5 f6 c3 g1 c5 g7 a1 f4 b2xf6 g4xe5 e5 d2 e3 f2 d5xf4 f6 f4 d6 d3xd6 d6 a4 b6xa4 e3-e4 d2-d1",
        "b4-c4xd1",
        "g1",
    ),
    ("2", "twelve", "two-player"): (
        "f4 f2 c4 g1 b2 c5 d7 a4 d2 e3xc4 b4 a1 b6xc5 d1xf4 d5 c4 d6xa4 e4 f6xe4 g4 f4 a7 e4 d3 "
        "b6-c5 c4-c3xb2 b4-b6xa7 g4-g7 d7-a7xg7 g1-g4 f6-e5xa1 f2-g1 f4-f6xg1 e3-f2 a7-d7xg4 c3-c4 "
        "d7-a7xd1 d3-d7 e4-f4 f2-g7",
        "d2-f2xg7",
        "f4",
    ),
    ("1", "twelve", "computer-white"): (
        "a7 d2 d7 c5 g7xd2 g1 g4 d2 d1 c4 a1 c3xd1 d1 b4 a4xg1 f2 g1xf2 e3 b6 f2 d6 d5 f6xf2 e5xg4 g7-g4",
        "d2-d3xd7",
        "a7",
    ),
    ("2", "twelve", "computer-white"): (
        "a7 c3 d7 f2 g7xf2 e5 g4 c4 g1xe5 b6 d1 f2 a1xb6 c5xd1 d1xf2 f2 a4xf2 e5 b6 d3 d6 d2 f6xd2 "
        "e3xa7 d7-a7xe5 d3-d2 a7-d7 e3-d3 d7-a7xd2 c4-b4 a7-d7 c5-c4 d7-a7xb4 d3-d2 a7-d7 d2-a7 "
        "g4-f4 a7-g4",
        "d7-a7xg4",
        "a4",
    ),
    ("1", "twelve", "computer-black"): (
        "f2 a7 b4 d7 g4 g7xg4 f4 g4 c3 g1xf4 e4 d1 d3 a1xf2 e3xg1 g1xb4 e5xd7 d7xe5 c5 a4xc5 e5xd7 "
        "d7xe5 c5 b6 e4-f4 d7-d6 c5-c4 a7-d7 f4-f2",
        "d7-a7xf2",
        "e3",
    ),
    ("2", "twelve", "computer-black"): (
        "b6 a7 d3 d7 a1 g7xa1 c5 g4 b2 g1xb6 c4 d1 c3xd1 d1 a1xd1 d1 e3xd1 d1 b6 a4 b4xd1 d1 f4 d6 "
        "f4-f6 g4-f4 c5-d5 g7-g4 b6-c5xa7 d7-a7 c5-b6xd6 a7-d7 d5-c5xg1 d7-a7 c5-d5 a7-d7 d5-c5xa4 "
        "d7-a7 a1-a4xg4 a7-d7",
        "a4-a7xd7",
        "b6",
    ),
}


# -- case 1 ---------------------------------------------------------------------------------


def case1_fits(game: Game, turn: Turn, protected: str) -> bool:
    """``turn`` (with its removal) closes a mill; ``protected`` may not be taken and stands next to the
    removed man, so that the opponent could step from it onto the removed man's point."""
    if not turn.removal or turn.origin is None:
        return False
    after = game.copy()
    after.play(turn.step)
    if protected in after.removable or turn.removal not in after.removable or len(after.removable) < 2:
        return False
    if after.board.get(protected) == game.turn or protected not in after.board:
        return False
    after.play(f"x{turn.removal}")
    return after.outcome is None and after.is_legal(Turn(turn.removal, protected))


def find_case1_two_player(profile: str, seed: int = 0, tries: int = 20000, exact: bool = True) -> str | None:
    """A legal record after which White plays ``b4-c4xd1`` with g1 protected (the issue's points).

    ``exact``: the men that may be taken are a7, d1 and f2 and no others, as in the issue.
    """
    rng = random.Random(seed)
    # Black's man reaches d1 on Black's last move (from d2), as men do in the moving phase.
    need = {"white": {"c3", "c5", "b4"}, "black": {"g1", "g4", "g7", "d2", "a7", "f2"}}
    keep_empty = {"c4", "d1"}
    for _ in range(tries):
        game = Game(profile)
        ok = True
        while any(game.in_hand.values()):
            side = game.turn
            other = other_side(side)
            board = game.board
            mine = [p for p in sorted(need[side]) if p not in board]
            spare = [
                p for p in POINTS if p not in board and p not in keep_empty and p not in need["white"] | need["black"]
            ]
            if mine and (rng.random() < 0.6 or not spare):
                target = rng.choice(mine)
            elif spare:
                target = rng.choice(spare)
            else:
                ok = False
                break
            turn = Turn(target)
            pend = game.copy()
            pend.play(turn)
            if pend.pending:
                victims = [p for p in pend.removable if p not in need[other]]
                if not victims:
                    ok = False
                    break
                turn = Turn(target, None, rng.choice(victims))
                if not game.is_legal(turn):
                    ok = False
                    break
            game.play(turn)
            if game.outcome:
                ok = False
                break
        if not ok or game.turn != "white":
            continue
        waiting = [
            t
            for t in game.legal_turns()
            if not t.removal and t.origin not in need["white"] and t.target not in keep_empty | need["black"]
        ]
        if not waiting:
            continue
        game.play(rng.choice(waiting))
        if game.outcome or not game.is_legal("d2-d1") or game.copy().play("d2-d1").removal:
            continue
        game.play("d2-d1")
        if game.outcome:
            continue
        final = Turn("c4", "b4", "d1")
        if game.is_legal(final) and case1_fits(game, final, "g1"):
            pending = game.copy()
            pending.play(final.step)
            if not exact or set(pending.removable) == {"a7", "d1", "f2"}:
                return game.record
    return None


def find_case1_computer(
    profile: str, side: str, seed: int = 0, tries: int = 3000, max_turns: int = 120
) -> tuple[str, str, str] | None:
    """Against replay's first-legal player on ``side``: a record, the mill turn, and the protected man.

    The mover (either side) closes a mill by a move; a protected man of the other side stands
    next to the man it takes.
    """
    rng = random.Random(seed)
    computer = FirstLegal()
    geometry = get_profile(profile).board
    for _ in range(tries):
        game = Game(profile)
        while not game.outcome and len(game.history) < max_turns:
            turns = game.legal_turns() if game.turn != side else [computer(game)]
            for turn in turns:
                if turn.removal and turn.origin and len(game.history) > 2 * game.profile.men:
                    for p in geometry.neighbours(turn.removal):
                        if case1_fits(game, turn, p):
                            return game.record, str(turn), p
            if game.turn == side:
                game.play(turns[0])
            else:
                removing = [t for t in turns if t.removal]
                game.play(rng.choice(removing) if removing and rng.random() < 0.5 else rng.choice(turns))
    return None


# -- case 2 ---------------------------------------------------------------------------------


def case2_shape(game: Game, flight: Turn, reply: Turn) -> str | None:
    """After Black's ``flight`` X-Y, White's ``reply`` A-XxY closes a mill; returns C, the white man
    next to X in that mill with C-X a legal turn of its own (no mill), or ``None``."""
    if flight.removal or reply.removal != flight.target or reply.target != flight.origin or not reply.origin:
        return None
    after = game.copy()
    after.play(flight)
    if after.outcome or not after.is_legal(reply):
        return None
    x = flight.origin
    board = after.board
    geometry = game.profile.board
    for line in geometry.mills_through(x):
        for c in line:
            if c in (x, reply.origin) or board.get(c) != "white" or not geometry.are_adjacent(c, x):
                continue
            if reply.origin in line:
                continue
            if all(board.get(p) == "white" for p in line if p != x) and after.is_legal(Turn(x, c)):
                return c
    return None


def _black_flights(game: Game) -> list[Turn]:
    return [
        t
        for t in game.legal_turns()
        if t.origin and not t.removal and not game.profile.board.are_adjacent(t.origin, t.target)
    ]


def find_case2_two_player(profile: str, seed: int = 0, games: int = 4000) -> str | None:
    """A record ending with Black's ``f2-g7``, after which White's ``d2-f2xg7`` fits case 2."""
    if not get_profile(profile).flying:
        return None
    rng = random.Random(seed)
    sym = symmetries()
    for _ in range(games):
        game = Game(profile)
        while not game.outcome and len(game.history) < 200:
            if game.turn == "black" and game.flies("black"):
                for flight in _black_flights(game):
                    after = game.copy()
                    after.play(flight)
                    for reply in after.legal_turns():
                        c = case2_shape(game, flight, reply)
                        # a shape needs both moves (flights and the replies that fit always have an origin)
                        if c is None or flight.origin is None or reply.origin is None:
                            continue
                        for s in sym:
                            if (s[flight.origin], s[flight.target], s[reply.origin], s[c]) == ("f2", "g7", "d2", "f4"):
                                mapped = [_map_turn(t, s) for t in [*game.history, flight]]
                                try:
                                    check = Game.from_record(" ".join(map(str, mapped)), profile)
                                except ValueError:
                                    continue
                                if (
                                    case2_shape(
                                        Game.from_record(" ".join(map(str, mapped[:-1])), profile),
                                        mapped[-1],
                                        Turn("f2", "d2", "g7"),
                                    )
                                    == "f4"
                                    and check
                                ):
                                    return " ".join(map(str, mapped))
            turns = game.legal_turns()
            if game.turn == "white":
                removing = [t for t in turns if t.removal]
                game.play(rng.choice(removing) if removing else rng.choice(turns))
            else:
                game.play(rng.choice(turns))
    return None


def find_case2_computer(profile: str, side: str, seed: int = 0, games: int = 3000) -> tuple[str, str, str] | None:
    """Against replay's first-legal player on ``side``: a record ending with Black's flight, White's
    reply, and C."""
    if not get_profile(profile).flying:
        return None
    rng = random.Random(seed)
    computer = FirstLegal()
    for _ in range(games):
        game = Game(profile)
        while not game.outcome and len(game.history) < 200:
            if game.turn == "black" and game.flies("black"):
                flights = [computer(game)] if side == "black" else _black_flights(game)
                for flight in flights:
                    after = game.copy()
                    after.play(flight)
                    if after.outcome:
                        continue
                    replies = [computer(after)] if side == "white" else after.legal_turns()
                    for reply in replies:
                        c = case2_shape(game, flight, reply)
                        if c is not None:
                            return f"{game.record} {flight}".strip(), str(reply), c
            turns = game.legal_turns()
            if game.turn == side:
                game.play(computer(game))
            elif game.turn == "white":
                removing = [t for t in turns if t.removal]
                game.play(rng.choice(removing) if removing else rng.choice(turns))
            else:
                # Black gives its men away when White is the computer, so that the flying phase comes.
                game.play(rng.choice(turns))
    return None


# -- traces ---------------------------------------------------------------------------------


def _case1_hook(protected: str) -> Callable[[Hands, Game, Turn], None]:
    def hook(hands: Hands, game: Game, turn: Turn) -> None:
        if turn.removal is None:
            raise ValueError(f"case 1 ends with a mill and its removal, not {turn}")
        colour = game.turn
        hands.step(turn, colour, set())
        hands.wait(0.5, 0.5)
        # The beginner's mistake: the protected man is lifted to be taken, held, and given back.
        hands.lift_and_return(protected, 2.5, 2.5)
        hands.counts["protected"] += 1
        hands.wait(0.8, 0.8)
        hands.remove(turn.removal)

    return hook


def _case2_hook(hands: Hands, game: Game, turn: Turn) -> None:
    if turn.origin is None or turn.removal is None:
        raise ValueError(f"case 2 ends with a move that closes a mill and removes, not {turn}")
    hands.remove(turn.removal)  # the man that just flew is taken first
    hands.counts["removal_first"] += 1
    hands.wait(0.8, 0.8)
    colour = hands.men.pop(turn.origin)
    hands.contacts.open(hands.t, turn.origin).lost = True  # the board never reads this "off"
    hands.counts["lost"] += 1
    hands.wait(0.6, 0.6)
    hands.land(turn.target, colour, plain=True)
    hands.contacts.scan(hands.t + 0.5)


def case_trace(case: str, profile: str, mode: str) -> PhysicalTrace:
    """The trace of one case: the record played cleanly, then the case turn as the issue tells it."""
    try:
        before, turn, centre = RECORDS[(case, profile, mode)]
    except KeyError:
        raise ValueError(f"issue 9 case {case} cannot be built for {profile} {mode}") from None
    side = computer_side(mode)
    turns = [Turn.parse(t) for t in before.split()] + [Turn.parse(turn)]
    game = Game.from_record(" ".join(map(str, turns)), profile)
    plan = Plan(turns, game.outcome.to_dict() if game.outcome else None)
    rng = random.Random(f"issue9:{case}:{profile}:{mode}")
    contacts = Contacts()
    counts: Counter[str] = Counter({kind: 0 for kind in KINDS})
    hands = Hands(profile, contacts, rng, noise(0.0), counts)
    hook = _case1_hook(centre) if case == "1" else _case2_hook
    ready = perform(plan, profile, side, hands, hooks={len(turns) - 1: hook})
    rows = events(contacts, bounce=0.0, rng=None, counts=counts)
    rows.append({"t": round(max(ready, contacts.scans[-1][0] if contacts.scans else 0.0) + 3.0, 3)})
    contacts.check()
    header: Header = {
        "profile": profile,
        "white": "computer" if side == "white" else "human",
        "black": "computer" if side == "black" else "human",
    }
    return PhysicalTrace(
        profile, mode, 0, f"issue9-case{case}", header, rows, game.record, plan.outcome, dict(counts), turns=len(turns)
    )
