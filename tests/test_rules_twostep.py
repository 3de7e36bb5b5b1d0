"""Two-step play for the physical board: a mill-closing step waits for its removal."""

from __future__ import annotations

import pytest
from rules_support import PROFILE_NAMES, random_game

from morris_pi.rules import Game, IllegalTurnError, Turn

DOUBLE_MILL = "d7 b6 g7 d2 a4 f4 a1 e3"
RECLOSE = "e5 d7 b2 d5 c3 d6xe5 e4 f6 a1 b6xc3 c5 g7 d1 b4 g1xg7 d3 f2 e5 d1-d2xd3 f6-f4 d2-d1xb4 b6-b4 d1-d2xf4"


def snapshot(game: Game):
    return (
        game.record,
        game.to_text(),
        game.positions,
        game.repetitions(),
        game.quiet_turns,
        game.outcome,
        game.claimable_draw(),
        game.board,
        game.in_hand,
    )


@pytest.mark.parametrize("profile", PROFILE_NAMES)
def test_step_then_removal_gives_the_same_game_as_the_atomic_turn(profile):
    for seed in range(6):
        atomic = random_game(seed, profile, turns=200)
        stepwise = Game(profile)
        for turn in atomic.history:
            if turn.removal:
                assert stepwise.play(str(turn.step)) == turn.step
                assert stepwise.pending == turn.step and turn.removal in stepwise.removable
                assert stepwise.play(f"x{turn.removal}") == turn
            else:
                stepwise.play(str(turn))
                assert stepwise.pending is None
        assert snapshot(stepwise) == snapshot(atomic)


def test_while_pending_the_game_shows_the_step_and_lists_the_removable_men():
    game = Game.from_record(DOUBLE_MILL)
    game.play("a7")
    assert game.pending == Turn("a7")
    assert game.turn == "white" and game.outcome is None
    assert game.board["a7"] == "white" and game.in_hand == {"white": 4, "black": 5}
    assert game.removable == ["b6", "f4", "d2", "e3"]
    assert [str(t) for t in game.legal_turns()] == ["a7xb6", "a7xf4", "a7xd2", "a7xe3"]
    assert game.legal_targets() == [] and game.record == DOUBLE_MILL
    assert game.position == Game.from_record(DOUBLE_MILL).position  # the step is not a turn yet
    game.remove("e3")
    assert game.pending is None and game.removable == [] and game.record == DOUBLE_MILL + " a7xe3"
    assert "e3" not in game.board and game.turn == "black"


def test_a_pending_move_empties_its_origin():
    game = Game.from_record(RECLOSE)
    game.undo()
    assert game.play("d1-d2") == Turn("d2", "d1")
    assert game.board["d2"] == "white" and "d1" not in game.board
    assert game.removable == ["f4", "b4", "e5"]  # black's d7-d6-d5 stands in a mill
    game.play("d1-d2xf4")  # the atomic form completes a pending step too
    assert game.record == RECLOSE


def test_undo_while_pending_takes_back_only_the_step():
    game = Game.from_record(DOUBLE_MILL)
    before = snapshot(game)
    game.play("a7")
    assert game.undo() == Turn("a7")
    assert snapshot(game) == before and game.pending is None
    assert game.undo() == Turn("e3") and game.record == DOUBLE_MILL.rsplit(" ", 1)[0]


def test_a_step_that_closes_no_mill_or_earns_nothing_completes_the_turn():
    game = Game.from_record("d6 a1")
    assert game.play("f6") == Turn("f6") and game.pending is None and game.turn == "black"
    # move-this, every black man in a mill: the mill-closing step is the whole turn.
    nothing = Game.from_record("a1 b6 g1 d6 c3 f6xc3", "move-this")
    nothing.play("d1")
    assert nothing.pending is None and nothing.removable == [] and nothing.turn == "black"


def test_pending_removal_must_be_legal():
    game = Game.from_record("a1 b6 g1 d6 c3 f6xc3 e4 c5")
    game.play("d1")
    before = snapshot(game)
    with pytest.raises(IllegalTurnError, match=r"^d1xb6: b6 is protected"):
        game.remove("b6")
    with pytest.raises(IllegalTurnError, match=r"^d7: d1 closed a mill; remove a black man first \(white to move\)$"):
        game.play("d7")
    assert snapshot(game) == before and game.pending == Turn("d1")
