"""The story decoder when the board must be put right: takebacks by hand and by button, a new
game and a resumed one are stories that begin by setting the board to a position.

A takeback by hand is believed once the switches show the older position, a man has been put
back and the reading in which the game goes on has become dearer than it by the margin; the
turns made after any setting are read as usual.
"""

from __future__ import annotations

from decoder_support import decoder_on, feed, mask, replay_steps, settle
from tracker_kit import MOVING

from morris_pi.rules import Game
from morris_pi.tracker.decoder import StoryDecoder

#: The human (white) played d7-a7 and the computer answered d6-d7: d7 now holds a black man.
ANSWERED = "f2 b2 d7 d6 e3 e4 c5 f4 c4 b6 a4 f6xc4 g4 b4xf2 g1 a1 d3 e5 d7-a7 d6-d7"


def moved(board: set[str], start: float, *steps: str, gap: float = 0.7) -> list[tuple[float, str]]:
    """Switch reports a hand makes, ``gap`` seconds apart from ``start``."""
    return [(start + k * gap, step) for k, step in enumerate(steps)]


def test_a_move_put_back_by_hand_is_taken_back_and_the_next_turn_read() -> None:
    d, board = decoder_on(Game.from_record(MOVING), 0.0)
    replay_steps(d, board, moved(board, 1.0, "-a1", "+a4"))
    settle(d, 4.0)
    assert d.record == MOVING + " a1-a4"
    replay_steps(d, board, moved(board, 5.0, "-a4", "+a1"))  # the player changes his mind
    settle(d, 8.0)
    assert d.record == MOVING + " a1-a4"  # not at once: a man put astray looks the same
    settle(d, 30.0)
    assert d.record == MOVING and d.setting is None
    replay_steps(d, board, moved(board, 31.0, "-g7", "+g4"))
    settle(d, 35.0)
    assert d.record == MOVING + " g7-g4"


def test_a_takeback_by_hand_brings_the_removed_man_back() -> None:
    d, board = decoder_on(Game.from_record(MOVING), 0.0)
    replay_steps(d, board, moved(board, 1.0, "-a1", "+d1", "-f2"))
    settle(d, 5.0)
    assert d.record == MOVING + " a1-d1xf2"
    replay_steps(d, board, moved(board, 6.0, "+f2"))
    settle(d, 12.0)
    assert d.record == MOVING + " a1-d1xf2"  # half-way: not yet the old position
    replay_steps(d, board, moved(board, 13.0, "-d1", "+a1"))
    settle(d, 40.0)
    assert d.record == MOVING


def test_a_capture_taken_back_with_the_man_taken_put_back_first_is_undone_with_the_placement_it_read() -> None:
    d, board = decoder_on(Game.from_record("a7 b6 d7 d6"), 0.0)
    replay_steps(d, board, moved(board, 1.0, "+g7", "-b6"))
    settle(d, 5.0)
    assert d.record == "a7 b6 d7 d6 g7xb6"
    replay_steps(d, board, moved(board, 6.0, "+b6"))  # the man taken put back first
    settle(d, 9.0)
    assert d.record == "a7 b6 d7 d6 g7xb6 b6"  # to any switch, black placed there
    replay_steps(d, board, moved(board, 9.5, "-g7"))  # then the man that took him, into the hand
    replay_steps(d, board, moved(board, 21.0, "+a4"))  # and white places elsewhere
    settle(d, 25.0)
    assert d.record == "a7 b6 d7 d6 a4" and d.setting is None


def test_lifting_a_just_placed_man_is_not_a_takeback() -> None:
    d = StoryDecoder()
    feed(d, [(0.0, ()), (1.0, ("d6",)), (4.0, ())])  # a placement taken back would look the same
    settle(d, 40.0)
    assert d.record == "d6"


def test_a_man_moved_on_after_being_put_back_is_read_as_astray_not_as_a_takeback() -> None:
    # a1-a4, then the man goes back to a1 and on to a4 again within a moment: no takeback
    d, board = decoder_on(Game.from_record(MOVING), 0.0)
    replay_steps(d, board, moved(board, 1.0, "-a1", "+a4"))
    replay_steps(d, board, moved(board, 4.0, "-a4", "+a1", "-a1", "+a4", gap=0.4))
    replay_steps(d, board, moved(board, 7.0, "-f2", "+f4"))
    settle(d, 12.0)
    assert d.record == MOVING + " a1-a4 f2-f4"


def test_against_the_computer_a_takeback_by_hand_undoes_its_reply_and_the_humans_turn() -> None:
    game = Game.from_record(ANSWERED)
    d = StoryDecoder(game, computer="black")
    board = set(game.board)
    feed(d, [(0.0, tuple(board))])
    # the computer's man back from d7 to d6, and the human's from a7 to d7
    replay_steps(d, board, moved(board, 1.0, "-d7", "+d6", "-a7", "+d7", gap=0.8))
    settle(d, 40.0)
    assert d.record == ANSWERED.rsplit(" ", 2)[0] and d.setting is None
    assert d.asking == []  # the human is to move


def test_a_man_carried_to_where_the_position_two_turns_back_had_one_is_no_takeback() -> None:
    game = Game.from_record(ANSWERED)
    d = StoryDecoder(game, computer="black")
    board = set(game.board)
    feed(d, [(0.0, tuple(board))])
    # the same occupancy as two turns back, but d7's man is still black's: it never moved
    replay_steps(d, board, moved(board, 1.0, "-a7", "+d6"))
    settle(d, 40.0)
    assert d.record == ANSWERED


def test_after_a_takeback_by_button_the_undone_turn_still_on_the_board_is_not_read_again() -> None:
    d, board = decoder_on(Game.from_record(MOVING), 0.0)
    replay_steps(d, board, moved(board, 1.0, "-a1", "+d1", "-f2"))
    settle(d, 5.0)
    back = d.game.copy()
    back.undo()
    d.set_up(back, 6.0)
    settle(d, 10.0)
    assert d.record == MOVING and d.setting is not None
    assert d.stories == []  # the board shows the undone turn: the board waits for it to be put back
    replay_steps(d, board, moved(board, 11.0, "-d1", "+a1", "+f2"))
    settle(d, 15.0)
    assert d.setting is None
    replay_steps(d, board, moved(board, 16.0, "-a1", "+a4"))
    settle(d, 20.0)
    assert d.record == MOVING + " a1-a4"


def test_a_resumed_game_is_set_up_at_any_pace_and_then_played_on() -> None:
    d = StoryDecoder()
    feed(d, [(0.0, ())])
    d.set_up(Game.from_record(MOVING), 0.5)
    board: set[str] = set()
    # eighteen men set down over a minute and a half, one of them first on the wrong point
    steps = [(1.0 + 5 * k, f"+{p}") for k, p in enumerate(Game.from_record(MOVING).board)]
    steps[3:3] = [(15.5, "+c5")]
    steps.append((100.0, "-c5"))
    replay_steps(d, board, steps)
    settle(d, 104.0)
    assert d.setting is None and d.record == MOVING and not d.stalled
    replay_steps(d, board, moved(board, 105.0, "-a1", "+a4"))
    settle(d, 110.0)
    assert d.record == MOVING + " a1-a4"


def test_a_new_game_waits_for_the_board_to_be_cleared() -> None:
    d, board = decoder_on(Game.from_record(MOVING), 0.0)
    d.set_up(Game(), 1.0)
    replay_steps(d, board, [(2.0 + 0.5 * k, f"-{p}") for k, p in enumerate(sorted(board)[:-1])])
    settle(d, 20.0)
    assert d.setting is not None and d.stories == []  # one man still on the board
    replay_steps(d, board, [(21.0, f"-{sorted(board)[0]}")])
    replay_steps(d, board, moved(board, 23.0, "+d6", "+a1", gap=2.0))
    settle(d, 30.0)
    assert d.setting is None and d.record == "d6 a1"


def test_a_takeback_by_button_against_the_computer_asks_for_the_man_that_changes_colour() -> None:
    game = Game.from_record(ANSWERED)
    d = StoryDecoder(game, computer="black")
    board = set(game.board)
    feed(d, [(0.0, tuple(board))])
    back = game.copy()
    back.undo()
    back.undo()
    d.set_up(back, 1.0)
    assert d.setting is not None and d.setting.lifts & d.setting.lands == mask("d7")
    replay_steps(d, board, moved(board, 2.0, "-a7", "+d6"))  # d7's black man left where he is
    settle(d, 10.0)
    assert d.setting is not None
    replay_steps(d, board, moved(board, 11.0, "-d7", "+d7"))
    settle(d, 15.0)
    assert d.setting is None and d.record == back.record


def test_a_takeback_waits_while_a_man_of_the_next_turn_is_still_in_the_hand() -> None:
    # White a1-a4; black takes a4 before his mill's step, lifts e4 and sets him down a moment on
    # a1, the point just left: a4 empty and a1 full is the board put back, but for e4's man.
    d, board = decoder_on(Game.from_record(MOVING), 0.0)
    replay_steps(d, board, moved(board, 1.0, "-a1", "+a4"))
    settle(d, 4.0)
    assert d.record == MOVING + " a1-a4"
    replay_steps(d, board, moved(board, 5.0, "-a4", "-e4", "+a1"))
    settle(d, 8.0)
    assert d.record == MOVING + " a1-a4"  # not taken back: a hand still holds e4's man
    replay_steps(d, board, moved(board, 8.5, "-a1", "+f4"))
    settle(d, 20.0)
    assert d.record == MOVING + " a1-a4 e4-f4xa4"


def test_a_man_taken_and_set_down_a_moment_where_the_mover_came_from_is_no_takeback() -> None:
    # White a1-a4; black takes a4 before his mill's step and sets the man down on a1 a moment:
    # the board shows the position before a1-a4, but the man is in the hand again at once.
    d, board = decoder_on(Game.from_record(MOVING), 0.0)
    replay_steps(d, board, moved(board, 1.0, "-a1", "+a4"))
    settle(d, 4.0)
    replay_steps(d, board, moved(board, 5.0, "-a4", "+a1", "-a1", gap=0.6))
    settle(d, 8.0)
    assert d.record == MOVING + " a1-a4"  # not taken back: the man is in the hand
    replay_steps(d, board, moved(board, 8.5, "-e4", "+f4"))
    settle(d, 20.0)
    assert d.record == MOVING + " a1-a4 e4-f4xa4"
