"""Placing, moving, flying, removal and protection (RULES.md "Play"), profile by profile.

Scenario positions are reached by playing real records; each record was found by a
small search over random games (or written by hand) and is kept here as a literal.
"""

from __future__ import annotations

import dataclasses

import pytest
from rules_support import PROFILE_NAMES, random_game

from morris_pi.rules import POINTS, STANDARD, Game, IllegalTurnError, InvalidTurnError, get_profile, other_side

# Placement of 18 men without a mill; white then moves (from a threefold-repetition game).
PLACED = "f2 f4 c4 e5 f6 e3 b2 g7 a4 a1 g4 b4 d3 d5 a7 g1 d7 d6"
# White is down to d7 g7 d1 with nothing in hand; black has four men on the board.
WHITE_FLIES = "d2 d5 a7 c5 d7 e5xd2 g7xe5 e5xg7 g7xd5 d5xa7 a7xd5 d5xa7 a7xd5 d5xa7 a7xc5 c5xa7 d1 g4"
# Black's mill b6-d6-f6 is all black has on the board when white closes a1-d1-g1 (written by hand).
ALL_IN_MILL = "a1 b6 g1 d6 c3 f6xc3"
# As above, but black also has a free man on c5 (written by hand).
ONE_FREE = "a1 b6 g1 d6 c3 f6xc3 e4 c5"
# a7 closes a7-d7-g7 and a1-a4-a7 at once (written by hand).
DOUBLE_MILL = "d7 b6 g7 d2 a4 f4 a1 e3"
# d1-d2 closes b2-d2-f2 on turn 19, opens it on 21 (d2-d1 closes a1-d1-g1), closes it again on 23.
RECLOSE = "e5 d7 b2 d5 c3 d6xe5 e4 f6 a1 b6xc3 c5 g7 d1 b4 g1xg7 d3 f2 e5 d1-d2xd3 f6-f4 d2-d1xb4 b6-b4 d1-d2xf4"
# Lasker: white has three men on the board and seven in hand.
LASKER_THREE_AND_HAND = "f2 b2 d7 d6 e3 e4"
# Lasker: white has a1 a4 b6 and nothing in hand; black has four men.
LASKER_FLIES = "a1 c3 d2 c4 a4 c5xd2 a7xc3 c3xa1 a1xc5 c5xa1 a1xc4 c4xa4 a4xc5 c5xa7 a7xc5 c5xa7 a7xc3 c3xa7 b6 d6"
# Twelve: all placed; white may move e5-f6 along the diagonal g7-f6-e5.
TWELVE_DIAGONAL_MOVE = "f2 b2 d7 d6 e3 e4 b6 c3 g1xc3 a1 a4 c3xd7 c5 c4 a7xc4 c4 e5 g4 d3 f4xd3 d3 d7 d5xd7 d2"


def turns(game: Game) -> set[str]:
    return {str(t) for t in game.legal_turns()}


def targets(game: Game, origin: str) -> set[str]:
    return {t.target for t in game.legal_turns() if t.origin == origin}


# -- placing ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "profile,men", [("standard", 9), ("move-this", 9), ("club", 9), ("no-flying", 9), ("lasker", 10), ("twelve", 12)]
)
def test_the_game_starts_empty_with_white_to_place(profile, men):
    game = Game(profile)
    assert game.board == {} and game.turn == "white"
    assert game.in_hand == {"white": men, "black": men}
    assert len(game.legal_turns()) == 24 and all(t.is_placement for t in game.legal_turns())


def test_placing_puts_a_man_on_an_empty_point_and_sides_alternate():
    game = Game()
    game.play("d6")
    assert game.board == {"d6": "white"} and game.turn == "black"
    assert game.in_hand == {"white": 8, "black": 9}
    assert "d6" not in turns(game) and len(turns(game)) == 23
    with pytest.raises(IllegalTurnError, match=r"^d6: d6 is occupied \(black to move\)$"):
        game.play("d6")


def test_no_moving_while_men_are_in_hand():
    game = Game.from_record("d6 a1")
    with pytest.raises(IllegalTurnError, match=r"d6-d5: white must place: 8 men still in hand"):
        game.play("d6-d5")


@pytest.mark.parametrize("profile", [p for p in PROFILE_NAMES if p != "lasker"])
def test_placing_lasts_men_per_side_placements_each_whatever_was_removed(profile):
    men = get_profile(profile).men
    removed_while_placing = 0
    for seed in range(8):
        game = random_game(seed, profile, turns=3 * men)
        history = game.history
        if len(history) <= 2 * men:  # a side lost while placing
            assert game.outcome is not None
            continue
        removed_while_placing += sum(1 for t in history[: 2 * men] if t.removal)
        assert all(t.is_placement for t in history[: 2 * men])
        assert not any(t.is_placement for t in history[2 * men :])
    assert removed_while_placing > 0


def test_placing_with_no_men_in_hand_is_refused():
    game = Game.from_record(PLACED)
    with pytest.raises(IllegalTurnError, match=r"^c5: white has no men in hand; move a man instead \(white to move\)$"):
        game.play("c5")


# -- moving ----------------------------------------------------------------------------


def test_after_placing_a_man_moves_along_a_line_to_an_adjacent_empty_point():
    game = Game.from_record(PLACED)
    assert game.in_hand == {"white": 0, "black": 0}
    expected = set()
    for origin, colour in game.board.items():
        if colour == "white":
            expected |= {f"{origin}-{to}" for to in STANDARD.neighbours(origin) if to not in game.board}
    assert {str(t.step) for t in game.legal_turns()} == expected
    assert targets(game, "c4") == {"c5", "c3"} and targets(game, "a7") == set()


@pytest.mark.parametrize(
    "turn,reason",
    [
        ("g4-e4", "g4 and e4 are not adjacent"),  # a jump over black's f4
        ("c4-b4", "b4 is occupied"),
        ("c5-c4", "c5 is empty"),
        ("g7-g4", "g7 holds a black man"),
        ("f2-c5", "f2 and c5 are not adjacent"),  # no flying with nine men
    ],
)
def test_illegal_moves_are_refused_with_the_reason(turn, reason):
    game = Game.from_record(PLACED)
    before = game.to_text()
    with pytest.raises(IllegalTurnError) as info:
        game.play(turn)
    assert str(info.value) == f"{turn}: {reason} (white to move)"
    assert info.value.turn == turn and info.value.side == "white" and info.value.reason == reason
    assert game.to_text() == before


# -- flying ----------------------------------------------------------------------------


def test_a_side_with_three_men_flies_to_any_empty_point_and_its_opponent_does_not():
    game = Game.from_record(WHITE_FLIES)
    board = game.board
    assert sorted(p for p, c in board.items() if c == "white") == ["d1", "d7", "g7"]
    assert sum(c == "black" for c in board.values()) == 4
    assert game.flies("white") and not game.flies("black")
    empty = set(POINTS) - set(board)
    for origin in ("d1", "d7", "g7"):
        assert targets(game, origin) == empty
    game.play("d1-e4")
    assert game.turn == "black"
    for turn in game.legal_turns():
        assert STANDARD.are_adjacent(turn.origin, turn.target), turn
    with pytest.raises(IllegalTurnError, match="are not adjacent"):
        game.play("g4-a1")


def test_no_flying_profile_keeps_three_men_on_the_lines():
    game = Game.from_record(WHITE_FLIES, "no-flying")
    assert not game.flies("white")
    for turn in game.legal_turns():
        assert STANDARD.are_adjacent(turn.origin, turn.target), turn
    with pytest.raises(IllegalTurnError, match=r"^d1-e4: d1 and e4 are not adjacent \(white to move\)$"):
        game.play("d1-e4")


# -- mills and removal -----------------------------------------------------------------


def test_closing_a_mill_removes_an_opponent_man_in_the_same_turn():
    game = Game.from_record("d6 a1 f6 a4 b6xa1")
    assert game.turn == "black" and len(game.history) == 5
    assert game.board == {"b6": "white", "d6": "white", "f6": "white", "a4": "black"}
    assert game.in_hand == {"white": 6, "black": 7}


def test_a_removal_only_after_a_mill_and_only_of_an_opponent_man():
    game = Game.from_record("d6 a1 f6 a4")
    with pytest.raises(IllegalTurnError, match=r"^d7xa1: d7 does not close a mill, so nothing may be removed"):
        game.play("d7xa1")
    with pytest.raises(IllegalTurnError, match=r"^b6xd6: d6 is white's own man; remove a black man \(white to move\)$"):
        game.play("b6xd6")
    with pytest.raises(IllegalTurnError, match=r"^b6xg7: g7 is empty; remove a black man"):
        game.play("b6xg7")
    assert {t for t in turns(game) if t.startswith("b6")} == {"b6xa1", "b6xa4"}


def test_men_in_a_mill_are_protected_while_the_opponent_has_a_free_man():
    game = Game.from_record(ONE_FREE)
    game.play("d1")
    assert game.pending is not None and game.removable == ["c5"]
    with pytest.raises(IllegalTurnError, match=r"^d1xb6: b6 is protected by a mill while black has men outside mills"):
        game.play("xb6")
    assert [str(t) for t in game.legal_turns()] == ["d1xc5"]


@pytest.mark.parametrize("profile", ["standard", "club", "no-flying", "lasker", "twelve"])
def test_when_every_opponent_man_is_in_a_mill_any_may_be_removed(profile):
    game = Game.from_record(ALL_IN_MILL, profile)
    assert {t for t in turns(game) if t.startswith("d1")} == {"d1xb6", "d1xd6", "d1xf6"}
    game.play("d1xd6")
    assert sorted(p for p, c in game.board.items() if c == "black") == ["b6", "f6"]


def test_move_this_removes_nothing_when_every_opponent_man_is_in_a_mill_and_the_turn_ends():
    game = Game.from_record(ALL_IN_MILL, "move-this")
    assert {t for t in turns(game) if t.startswith("d1")} == {"d1"}
    with pytest.raises(IllegalTurnError, match=r"^d1xb6: every black man stands in a mill, so none may be removed"):
        game.play("d1xb6")
    assert game.play("d1") == game.history[-1]
    assert game.pending is None and game.turn == "black" and game.record == ALL_IN_MILL + " d1"
    assert sorted(p for p, c in game.board.items() if c == "black") == ["b6", "d6", "f6"]
    # the mill-closing step was the whole turn: the N-move counter just counts it
    assert game.quiet_turns == 1


def test_closing_two_mills_at_once_removes_one_man():
    game = Game.from_record(DOUBLE_MILL)
    game.play("a7")
    assert game.pending is not None and game.removable == ["b6", "f4", "d2", "e3"]
    assert {t for t in turns(game)} == {"a7xb6", "a7xf4", "a7xd2", "a7xe3"}
    with pytest.raises(InvalidTurnError):
        game.play("a7xb6xd2")
    game.play("xb6")
    assert game.turn == "black" and sum(c == "black" for c in game.board.values()) == 3


def test_reopening_and_reclosing_a_mill_counts_again():
    game = Game.from_record(RECLOSE)
    closing = [(i + 1, str(t)) for i, t in enumerate(game.history) if t.removal and t.origin]
    assert closing == [(19, "d1-d2xd3"), (21, "d2-d1xb4"), (23, "d1-d2xf4")]
    game.undo()
    assert game.play("d1-d2") == game.pending  # the same mill b2-d2-f2 again waits for a removal
    assert "f4" in game.removable


@pytest.mark.parametrize("profile", PROFILE_NAMES)
@pytest.mark.parametrize("seed", range(4))
def test_removed_men_never_return(profile, seed):
    game = random_game(100 + seed, profile)
    men = get_profile(profile).men
    removed = {"white": 0, "black": 0}
    replay = Game(profile)
    for turn in game.history:
        mover = replay.turn
        replay.play(turn)
        if turn.removal:
            removed[other_side(mover)] += 1
        for side in ("white", "black"):
            on_board = sum(c == side for c in replay.board.values())
            assert on_board + replay.in_hand[side] + removed[side] == men
    assert sum(removed.values()) > 0


# -- lasker and twelve -----------------------------------------------------------------


def test_lasker_may_move_instead_of_placing_while_men_are_in_hand():
    game = Game.from_record("d6 a1", "lasker")
    assert "d6-d5" in turns(game) and "c5" in turns(game)
    game.play("d6-d5")
    assert game.in_hand == {"white": 9, "black": 9} and game.board == {"d5": "white", "a1": "black"}
    with pytest.raises(IllegalTurnError, match="must place"):
        Game.from_record("d6 a1").play("d6-d5")


def test_lasker_placing_lasts_as_long_as_men_remain_in_hand():
    game = Game.from_record("d6 a1 d6-d5 a1-a4 d5-d6 a4-a1", "lasker")
    assert game.in_hand == {"white": 9, "black": 9}
    assert all(t.is_placement or t.origin for t in game.legal_turns())


def test_lasker_cannot_fly_while_it_has_men_in_hand():
    game = Game.from_record(LASKER_THREE_AND_HAND, "lasker")
    assert game.in_hand["white"] == 7 and sum(c == "white" for c in game.board.values()) == 3
    assert not game.flies("white")
    for turn in game.legal_turns():
        if turn.origin:
            assert STANDARD.are_adjacent(turn.origin, turn.target), turn


def test_lasker_flies_with_three_men_and_none_in_hand():
    game = Game.from_record(LASKER_FLIES, "lasker")
    assert game.in_hand["white"] == 0 and game.flies("white") and not game.flies("black")
    assert "a1-g7" in turns(game)


def test_twelve_closes_mills_on_the_diagonals():
    game = Game.from_record("a7 d7 b6 d1", "twelve")
    game.play("c5")
    assert game.pending is not None and game.removable == ["d7", "d1"]
    plain = Game.from_record("a7 d7 b6 d1 c5")
    assert plain.pending is None and plain.turn == "black"


def test_twelve_moves_along_the_diagonals():
    game = Game.from_record(TWELVE_DIAGONAL_MOVE, "twelve")
    assert game.in_hand == {"white": 0, "black": 0}
    assert "e5-f6" in turns(game) and not STANDARD.are_adjacent("e5", "f6")
    game.play("e5-f6")
    assert game.board["f6"] == "white" and "e5" not in game.board


def test_twelve_men_can_fill_the_board_and_the_side_to_move_is_blocked():
    # 24 placements without a mill: white, to move, has no empty point to go to.
    game = Game.from_record("e5 g7 c5 d6 d7 a7 a4 c3 e3 d5 f6 f4 g4 f2 d3 b6 b4 c4 d2 e4 b2 a1 g1 d1", "twelve")
    assert len(game.board) == 24
    assert (game.outcome.winner, game.outcome.reason) == ("black", "blocked")


def test_a_profile_is_data_the_one_engine_reads():
    # A profile made up here (move-this's removal rule with club's mill-counting N-move rule)
    # needs no code of its own.
    custom = dataclasses.replace(get_profile("move-this"), name="custom", n_move_reset="mill")
    game = Game.from_record(ALL_IN_MILL + " d1", custom)
    assert game.quiet_turns == 0  # the mill closed with nothing to remove resets the count
    assert Game.from_record(ALL_IN_MILL + " d1", "move-this").quiet_turns == 1
