"""The tracker on a board moved by hand: turns, lifts, every error case and its recovery."""

from __future__ import annotations

from tracker_kit import FLYING, MOVING, QUIET, Table

from morris_pi.rules import POINTS, Game


def test_a_placement_is_recorded_once_it_has_held_and_shown_as_last_move():
    table = Table()
    table.on("d6")
    assert table.record == ""  # not on the first event: a slide or bounce could be passing
    table.wait(0.3)
    assert table.record == "d6"
    assert table.snap.turn == "black"
    assert table.leds == {"d6": "last-move"}


def test_contact_bounce_and_slides_never_become_men():
    table = Table()
    for when in (0.0, 0.0003, 0.0006):  # bounce: closes, opens, closes
        table.clock.set(1.0 + when)
        (table.on if when != 0.0003 else table.off)("d6")
    table.wait(0.5)
    # A black man slid across g7 on its way to a7: g7 closes for 150 ms.
    table.on("g7")
    table.wait(0.15)
    table.off("g7")
    table.put("a7")
    assert table.lit("last-move") == {"a7"}
    # g7 was open when a7's man came to rest and is not touched again: no man there can claim
    # to have come first, so a7 is recorded once the board's scan shows it firm.
    assert table.record == "d6 a7"
    assert not table.problems


def test_a_slide_over_a_legal_target_is_not_taken_as_the_move():
    table = Table(MOVING)
    table.lift("a1")
    table.on("d1")  # d1 is a legal target of a1; the magnet only passes it
    table.wait(0.14)
    table.off("d1")
    table.put("a4")
    assert table.record.endswith("f2 a1-a4")


def test_lifting_an_own_man_shows_its_targets_at_once_and_putting_it_back_cancels():
    table = Table(MOVING)
    table.off("a1")  # one raw event, no waiting
    assert table.lit("lifted") == {"a1"}
    assert table.lit("legal-target") == {"a4", "d1"}
    table.on("a1")
    assert table.lit("lifted") == set() and table.lit("legal-target") == set()
    table.wait(1.0)
    assert table.record == MOVING
    assert not table.problems


def test_a_flying_side_may_go_to_every_empty_point():
    table = Table(FLYING)
    game = Game.from_record(FLYING)
    assert game.flies("white")
    table.off("a1")
    empty = set(POINTS) - set(game.board)
    assert table.lit("legal-target") == empty
    assert len(empty) == 16


def test_a_mill_waits_for_its_removal_showing_the_mill_and_the_removable_men():
    table = Table(MOVING)
    table.move("a1", "d1")
    assert table.record == MOVING  # the turn is not complete yet
    assert table.lit("mill") == {"d1", "d2", "d3"}
    assert table.lit("removable") == {"a7", "d7", "d6", "f6", "f2", "b2", "e4", "e3", "c4"}
    table.lift("a7")
    assert table.record == MOVING + " a1-d1xa7"
    assert table.lit("removable") == set()


def test_the_removal_may_come_before_the_move():
    table = Table(MOVING)
    table.lift("f2")  # the opponent's man first ...
    assert not table.problems
    assert table.record == MOVING
    table.move("a1", "d1")  # ... then the move that earns it
    assert table.record == MOVING + " a1-d1xf2"
    assert not table.problems


# -- errors: guidance and recovery ------------------------------------------------------


def test_wrong_point_is_shown_and_play_resumes_once_fixed():
    table = Table(MOVING)
    table.move("a1", "g4")  # not adjacent
    assert table.record == MOVING
    assert table.problems == ["take the man off g4", "put a man back on a1"]
    assert table.lit("missing") == {"a1"} and table.lit("extra") == {"g4"}
    assert table.snap.status.get("error") == "error"
    table.move("g4", "a1")
    assert not table.problems and "error" not in table.snap.status
    table.move("a1", "a4")
    assert table.record == MOVING + " a1-a4"


def test_wrong_man_lifted_is_shown_and_put_back():
    table = Table(QUIET)
    table.lift("a7")  # white's own man, but it cannot move
    assert table.problems == ["put a man back on a7"]
    assert table.lit("missing") == {"a7"}
    table.put("a7")
    assert not table.problems
    table.lift("g7")  # an opponent man, and no mill can earn it
    assert table.problems == ["put a man back on g7"]
    table.put("g7")
    table.move("d5", "e5")
    assert table.record == QUIET + " d5-e5"


def test_removing_a_protected_man_is_refused_and_shown():
    # Black's a7-a4-a1 is a mill; black's d1 is free. White closes d6-f6-b6 and may take only d1.
    record = "d6 a1 f6 a4 g1 a7xg1 g7 d1"
    game = Game.from_record(record)
    assert game.turn == "white"
    table = Table(record)
    table.put("b6")
    assert table.lit("removable") == {"d1"}
    table.lift("a4")
    assert table.record == record
    assert table.problems == ["this man may not be taken: put it back on a4"]
    assert table.lit("protected") == {"a4"}
    assert table.lit("removable") == {"d1"}  # still waiting for the right man
    table.put("a4")
    assert not table.problems and table.lit("protected") == set()
    table.lift("d1")
    assert table.record == record + " b6xd1"
    assert not table.problems


def test_an_opponent_man_knocked_off_is_shown_and_play_resumes():
    table = Table(QUIET)
    table.lift("g1")  # black's man falls off the board on white's turn
    assert table.problems == ["put a man back on g1"]
    table.put("g1")
    assert not table.problems
    table.off("c3")
    table.wait(0.05)
    table.put("d3")  # knocked from c3 onto d3
    assert table.problems == ["take the man off d3", "put a man back on c3"]
    table.move("d3", "c3")
    table.move("f2", "d2")
    assert table.record == QUIET + " f2-d2"


def test_an_extra_man_placed_is_shown_and_taken_off():
    table = Table(QUIET)
    table.put("g4")
    assert table.problems == ["take the man off g4"]
    assert table.lit("extra") == {"g4"}
    table.lift("g4")
    assert not table.problems
    assert table.record == QUIET


def test_a_board_not_empty_at_start_is_shown_as_corrections():
    table = Table(board={"d6", "a1"})
    assert table.problems == ["take the man off a1", "take the man off d6"]
    assert table.snap.record == ""
    table.lift("d6")
    table.lift("a1")
    assert not table.problems
    table.put("d6")
    assert table.record == "d6"


def test_a_resumed_game_guides_the_board_back_before_reading_turns():
    table = Table(MOVING, board=set())
    assert len(table.problems) == 18
    assert table.problems[0] == "put a man back on a7"
    for point in Game.from_record(MOVING).board:
        table.on(point)
    table.wait()
    assert not table.problems
    table.move("a1", "a4")
    assert table.record == MOVING + " a1-a4"


# -- takeback and new game --------------------------------------------------------------


def test_takeback_by_button_undoes_one_turn_and_guides_the_board_back():
    table = Table(MOVING)
    table.play("a1-d1xf2")
    table.press("undo")
    assert table.record == MOVING
    assert set(table.problems) == {"put a man back on a1", "take the man off d1", "put a man back on f2"}
    assert table.lit("missing") == {"a1", "f2"} and table.lit("extra") == {"d1"}
    # While the board disagrees, the undone turn still on it is not read again.
    table.wait(2.0)
    assert table.record == MOVING
    table.move("d1", "a1")
    table.put("f2")
    assert not table.problems
    table.move("a1", "a4")
    assert table.record == MOVING + " a1-a4"


def test_takeback_by_hand_restores_the_previous_position_without_the_button():
    table = Table(MOVING)
    table.play("a1-a4")
    table.move("a4", "a1")  # put back where it came from: the position before the turn
    assert table.record == MOVING + " a1-a4"  # the old position must hold a second first
    table.wait(1.0)
    assert table.record == MOVING
    assert not table.problems
    assert table.snap.turn == "white"
    table.move("g7", "g4")
    assert table.record == MOVING + " g7-g4"


def test_takeback_by_hand_brings_a_removed_man_back():
    table = Table(MOVING)
    table.play("a1-d1xf2")
    table.put("f2")
    assert table.problems == ["take the man off f2"]  # half-way: not yet the old position
    table.move("d1", "a1")
    table.wait(1.0)
    assert table.record == MOVING
    assert not table.problems


def test_lifting_a_just_placed_man_is_not_a_takeback():
    table = Table("d6")
    table.lift("d6")  # a placement taken back would look the same; it is a man knocked off
    assert table.record == "d6"
    assert table.problems == ["put a man back on d6"]
    table.put("d6")
    assert table.record == "d6" and not table.problems


def test_new_game_by_clearing_the_board_when_the_game_is_over():
    table = Table(QUIET)
    table.press("menu")
    table.press("menu")  # resign
    assert table.snap.outcome is not None
    assert table.snap.outcome.winner == "black"
    for point in Game.from_record(QUIET).board:
        table.off(point)
    table.wait(0.1)
    assert table.snap.outcome is not None  # the last man is not firm yet
    table.wait(0.5)
    assert table.snap.outcome is None
    assert table.record == ""
    table.put("d6")
    assert table.record == "d6"


def test_new_game_by_button_shows_the_men_to_take_off():
    table = Table("d6 a1")
    table.press("new")
    assert table.record == ""
    assert table.problems == ["take the man off a1", "take the man off d6"]
    table.lift("d6")
    table.lift("a1")
    table.put("g7")
    assert table.record == "g7"


def test_two_men_put_down_within_one_settle_window_are_both_placements_in_order():
    table = Table("d6 a1")
    table.on("g7")
    table.clock.advance(0.03)
    table.on("g1")
    table.wait(0.5)
    assert table.record == "d6 a1 g7 g1"


def test_a_missed_event_is_made_good_by_a_later_snapshot():
    table = Table(MOVING)
    table.lift("a1")
    # The switch under a4 closed but its event was lost: the man seems still in the hand.
    table.wait(2.0)
    assert table.record == MOVING and not table.problems
    table.sensors.set(set(Game.from_record(MOVING + " a1-a4").board))  # a full reading of the switches
    table.step()
    table.wait(0.5)
    assert table.record == MOVING + " a1-a4"


def test_fast_play_the_next_turn_may_start_before_the_last_is_read():
    table = Table(MOVING)
    table.off("a1")
    table.clock.advance(0.5)
    table.on("a4")
    table.clock.advance(0.1)  # black lifts f2 only 0.1 s later
    table.off("f2")
    table.clock.advance(0.6)
    table.on("f4")
    table.wait(0.5)
    assert table.record == MOVING + " a1-a4 f2-f4"
