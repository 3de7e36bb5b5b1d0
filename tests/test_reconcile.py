"""Debounce and the reading of a whole settled board against the game."""

from __future__ import annotations

import pytest
from tracker_kit import MOVING

from morris_pi.rules import Game, Turn
from morris_pi.rules.board import mask_of
from morris_pi.tracker.reconcile import board_mask, read_board, take_back
from morris_pi.tracker.settle import Settler


def test_settler_ignores_closures_shorter_than_the_window_and_slides_never_firm_up():
    s = Settler(window=0.08, hold=0.12)
    s.feed(mask_of(["d7"]), 1.0)
    s.feed(0, 1.05)  # a 50 ms slide
    s.advance(2.0)
    assert s.settled == 0 and s.firm == 0
    s.feed(mask_of(["d7"]), 3.0)
    s.advance(3.1)
    assert s.settled == mask_of(["d7"]) and s.firm == 0  # 150 ms: it settles ...
    s.feed(0, 3.15)
    s.advance(4.0)
    assert s.settled == 0 and s.firm == 0  # ... but never firms up
    assert s.next_deadline() is None


def test_settler_names_its_next_deadline():
    s = Settler(window=0.08, hold=0.12)
    s.feed(mask_of(["a1"]), 1.0)
    assert s.next_deadline() == pytest.approx(1.08)
    s.advance(1.08)
    assert s.next_deadline() == pytest.approx(1.2)


def test_settler_refuses_negative_windows():
    with pytest.raises(ValueError, match="settle window"):
        Settler(window=-1)


def occ(game: Game, minus=(), plus=()) -> int:
    return (board_mask(game) & ~mask_of(minus)) | mask_of(plus)


def test_a_step_that_closes_a_mill_is_read_as_a_step_waiting_for_its_removal():
    game = Game.from_record("d6 a1 f6 a4")
    reading = read_board(game, occ(game, plus=["b6"]))
    assert reading.kind == "turns" and reading.turns == (Turn("b6"),)


def test_two_men_placed_within_one_window_the_first_is_the_side_to_move():
    game = Game.from_record("d6 a1")
    board = occ(game, plus=["g7", "g1"])
    times = {mask_of(["g7"]).bit_length() - 1: 5.00, mask_of(["g1"]).bit_length() - 1: 5.03}
    reading = read_board(game, board, order=lambda i: times.get(i, 0.0))
    assert reading.turns == (Turn("g7"), Turn("g1"))
    times = {k: 5.03 - (v - 5.0) for k, v in times.items()}  # now g1 came first
    reading = read_board(game, board, order=lambda i: times.get(i, 0.0))
    assert reading.turns == (Turn("g1"), Turn("g7"))
    # Without order the two cannot be told apart: the board is shown as it disagrees.
    assert read_board(game, board).kind == "problems"


def test_a_turn_and_the_next_side_already_lifting_reads_the_first_turn():
    game = Game.from_record(MOVING)
    reading = read_board(game, occ(game, minus=["a1", "f2"], plus=["a4"]))  # a1-a4, and black lifts f2
    assert reading.turns == (Turn("a4", "a1"),)


def test_on_the_computer_turn_only_the_prompt_counts():
    game = Game.from_record("d6")
    legal_but_not_prompted = occ(game, plus=["d7"])
    assert read_board(game, legal_but_not_prompted, prompt=Turn("a7"), computer="black").kind == "problems"
    assert read_board(game, legal_but_not_prompted, computer="black").kind == "problems"  # no prompt yet
    assert read_board(game, occ(game, plus=["a7"]), prompt=Turn("a7"), computer="black").turns == (Turn("a7"),)


def test_progress_covers_a_lifted_man_and_a_removal_done_first():
    game = Game.from_record(MOVING)
    assert read_board(game, occ(game, minus=["a1"])).kind == "progress"
    assert read_board(game, occ(game, minus=["a7"])).kind == "progress"  # a1-d1 may still earn it
    assert read_board(game, occ(game, minus=["a7", "a1"])).kind == "progress"
    assert read_board(game, occ(game, minus=["g7", "a7"])).kind == "problems"  # g7 cannot earn a removal


def test_take_back_counts_turns_back_to_the_human():
    game = Game.from_record("d6 a1 f6")
    assert take_back(game.copy(), None) == 1
    assert take_back(game.copy(), "black") == 1  # black (the computer) has not answered yet
    assert take_back(game.copy(), "white") == 2
    g = Game.from_record("d6 a1 f6 a4")
    g.play("b6")  # a pending step is a turn of its own
    assert g.pending is not None
    assert take_back(g, None) == 1 and g.record == "d6 a1 f6 a4" and g.pending is None


def test_the_computer_turn_done_and_the_human_already_lifting_reads_the_prompted_turn():
    game = Game.from_record(MOVING)  # white (the computer) to move
    board = occ(game, minus=["g7", "f2"], plus=["g4"])  # g7-g4 done, black lifts f2
    reading = read_board(game, board, prompt=Turn("g4", "g7"), computer="white")
    assert reading.turns == (Turn("g4", "g7"),)
    # The human's quick turn is never read as the computer's.
    assert (
        read_board(game, occ(game, minus=["f2"], plus=["f4"]), prompt=Turn("g4", "g7"), computer="white").kind
        == "problems"
    )


def test_a_chain_of_two_turns_is_read_only_when_the_point_it_empties_and_refills_changed_twice():
    from morris_pi.tracker.reconcile import Changes

    game = Game.from_record(MOVING)
    # The computer's a1-d1xe3 carried out removal first, then black's quick e4-e3 into the removed man's point.
    board = occ(game, minus=["a1", "e4"], plus=["d1"])
    prompt = Turn.parse("a1-d1xe3")
    seen = Changes(once=mask_of(["a1", "d1", "e3", "e4"]), twice=mask_of(["e3"]))
    assert read_board(game, board, prompt=prompt, computer="white", changes=seen).turns == (prompt, Turn.parse("e4-e3"))
    # e3 showed only one change (or none): the two turns are not read; the board waits as it is.
    for once in (mask_of(["a1", "d1", "e3", "e4"]), mask_of(["a1", "d1", "e4"])):
        reading = read_board(game, board, prompt=prompt, computer="white", changes=Changes(once, 0))
        assert reading.kind == "problems"
    # Without a record of the sensors (occupancy alone), the chain is what the board nets out to.
    assert read_board(game, board, prompt=prompt, computer="white").turns == (prompt, Turn.parse("e4-e3"))


def test_a_takeback_by_hand_needs_every_point_it_restores_to_have_changed():
    from morris_pi.tracker.reconcile import Changes

    # The human (white) played d7-a7 and the computer answered d6-d7: d7 now holds a black man.
    game = Game.from_record("f2 b2 d7 d6 e3 e4 c5 f4 c4 b6 a4 f6xc4 g4 b4xf2 g1 a1 d3 e5 d7-a7 d6-d7")
    board = occ(game, minus=["a7"], plus=["d6"])  # the occupancy of the position two turns back
    # The white man carried from a7 to d6: d7 never changed, so its man is still black. Not a takeback.
    moved = Changes(once=mask_of(["a7", "d6"]), twice=0)
    assert read_board(game, board, computer="black", changes=moved).kind == "problems"
    # The black man back from d7 to d6 and the white man from a7 to d7: d7 emptied and refilled.
    undone = Changes(once=mask_of(["a7", "d6", "d7"]), twice=mask_of(["d7"]))
    reading = read_board(game, board, computer="black", changes=undone)
    assert reading.kind == "takeback" and reading.back == 2


def test_a_chain_whose_second_man_landed_before_it_left_is_not_read():
    from morris_pi.tracker.reconcile import Changes

    game = Game.from_record(MOVING)  # white to move
    # White a1-a4 and black f2-f4 nets out to this board whatever the order of the events ...
    board = occ(game, minus=["a1", "f2"], plus=["a4", "f4"])
    seen = Changes(once=mask_of(["a1", "a4", "f2", "f4"]), twice=0)
    at = {mask_of([p]).bit_length() - 1: t for p, t in {"a1": 1.0, "a4": 1.6, "f2": 2.2, "f4": 2.9}.items()}
    assert read_board(game, board, changes=seen, order=at.__getitem__).turns == (Turn("a4", "a1"), Turn("f4", "f2"))
    # ... but a man on f4 before anything left f2 was not black's move.
    at[mask_of(["f4"]).bit_length() - 1] = 2.0
    assert read_board(game, board, changes=seen, order=at.__getitem__).kind == "problems"


def test_a_reading_waits_while_a_point_it_changes_is_changing_back():
    from morris_pi.tracker.reconcile import Changes

    game = Game.from_record(MOVING)
    board = occ(game, minus=["a1"], plus=["a4"])
    assert read_board(game, board, changes=Changes(mask_of(["a1", "a4"]), 0)).turns == (Turn("a4", "a1"),)
    # The man is already back on a1 (settled, not yet firm): no turn is read from the firm board.
    unsteady = Changes(mask_of(["a1", "a4"]), 0, unsteady=mask_of(["a1"]))
    assert read_board(game, board, changes=unsteady).kind != "turns"
