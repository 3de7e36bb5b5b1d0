"""The turn generator on boards no game reaches in order, against the hand-written reading of RULES.md.

``generate_turns`` looks turns up in tables and skips the mill test for points that
cannot close a mill; these properties draw arbitrary boards (any men anywhere, any men
in hand) so that every table entry and every shortcut is compared with the referee.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from rules_support import PROFILE_NAMES, Referee

from morris_pi.rules import POINTS, Turn
from morris_pi.rules.position import generate_turns, tables_for


@st.composite
def boards(draw: st.DrawFn) -> tuple[str, dict[str, str], int, str]:
    profile = draw(st.sampled_from(PROFILE_NAMES))
    points = draw(st.permutations(POINTS))
    white = draw(st.integers(0, 12))
    black = draw(st.integers(0, 12))
    board = {p: "white" for p in points[:white]} | {p: "black" for p in points[white : white + black]}
    hand = draw(st.sampled_from([0, 0, 0, 1, 2, 5]))
    side = draw(st.sampled_from(["white", "black"]))
    return profile, board, hand, side


def masks(board: dict[str, str], side: str) -> tuple[int, int]:
    own = sum(1 << POINTS.index(p) for p, s in board.items() if s == side)
    opp = sum(1 << POINTS.index(p) for p, s in board.items() if s != side)
    return own, opp


@settings(max_examples=600, deadline=None)
@given(boards())
def test_every_board_gets_the_referees_turns_once_each(drawn):
    profile, board, hand, side = drawn
    referee = Referee(profile)
    referee.board, referee.side = dict(board), side
    referee.hand = {side: hand, "black" if side == "white" else "white": 0}
    own, opp = masks(board, side)
    raw = generate_turns(tables_for(profile), own, opp, hand)
    assert len(raw) == len(set(raw))
    assert {str(Turn.from_raw(t)) for t in raw} == referee.legal()


@settings(max_examples=300, deadline=None)
@given(boards())
def test_turns_come_placements_first_then_by_origin_target_and_removal(drawn):
    # Position.turns() and Game.legal_turns() list turns in this order, and the engine's
    # first iteration searches them in it.
    profile, board, hand, side = drawn
    own, opp = masks(board, side)
    raw = generate_turns(tables_for(profile), own, opp, hand)
    assert raw == sorted(raw)
