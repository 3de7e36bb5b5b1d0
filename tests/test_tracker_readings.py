"""How the board reads a settled board against the game, through the controller and its ``Tracker``.

Each test moves men by hand on a ``Table`` and checks what a player sees: the record, the lit
LED roles and the corrections asked for. ``scans=False`` reports changes one by one, as a trace
or an expander's interrupts do.
"""

from __future__ import annotations

import pytest
from tracker_kit import MOVING, ScriptedOpponent, Table

from morris_pi.tracker import Tracker


def test_a_closure_shorter_than_a_man_standing_is_no_man_put_down():
    for seconds in (0.05, 0.15):  # a slide, and a magnet held over the point a moment longer
        table = Table()
        table.on("d7")
        table.wait(seconds)
        table.off("d7")
        table.wait(2.0)
        assert table.record == "" and table.leds == {} and table.problems == []


def test_a_settle_window_below_zero_is_refused_by_name():
    with pytest.raises(ValueError, match="settle window must be a number of seconds >= 0, got -1"):
        Tracker(settle_s=-1)


def test_a_step_that_closes_a_mill_waits_for_its_removal_and_lights_the_men_that_may_be_taken():
    table = Table("d6 a1 f6 a4")
    table.put("b6", 2.0)
    assert table.record == "d6 a1 f6 a4"
    assert table.lit("mill") == {"b6", "d6", "f6"} and table.lit("removable") == {"a1", "a4"}
    table.lift("a1", 2.0)
    assert table.record == "d6 a1 f6 a4 b6xa1" and table.problems == []


@pytest.mark.parametrize("first, second", [("g7", "g1"), ("g1", "g7")])
def test_two_men_put_down_within_one_window_the_first_to_touch_is_the_side_to_move(first, second):
    table = Table("d6 a1", scans=False)
    table.on(first)
    table.clock.advance(0.03)
    table.on(second)
    table.wait(3.0)
    assert table.record == f"d6 a1 {first} {second}" and table.problems == []


def test_a_turn_with_the_next_side_already_lifting_reads_the_turn_and_lights_the_man_in_the_hand():
    table = Table(MOVING)
    table.lift("a1")
    table.on("a4")
    table.wait(0.05)
    table.lift("f2", 3.0)  # black's hand is on f2 before a4's man has stood still
    assert table.record == MOVING + " a1-a4"
    assert table.lit("lifted") == {"f2"} and "f4" in table.lit("legal-target")


def test_on_the_computer_turn_only_the_prompted_turn_is_read():
    table = Table("d6", computer="black", opponent=ScriptedOpponent(["a7"]))
    table.wait(1.0)
    assert table.snap.computer == "a7" and table.lit("computer-to") == {"a7"}
    table.put("d7", 3.0)  # legal, but not what the computer chose
    assert table.record == "d6" and table.problems == ["take the man off d7"]
    table.lift("d7")
    table.put("a7", 3.0)
    assert table.record == "d6 a7" and table.problems == []


@pytest.mark.parametrize("lifted", [["a1"], ["a7"], ["a7", "a1"]])
def test_a_man_in_the_hand_or_a_removal_made_first_is_progress_not_a_correction(lifted):
    table = Table(MOVING)  # white to move; a1-d1 closes the mill d1-d2-d3 and earns a7 (black)
    for point in lifted:
        table.lift(point, 1.0)
    table.wait(3.0)
    assert table.record == MOVING and table.problems == []
    assert "d1" in table.lit("legal-target")


def test_a_man_lifted_that_no_turn_can_explain_is_asked_back():
    table = Table(MOVING)
    table.lift("g7", 1.0)  # white's g7 cannot earn the removal of a7
    table.lift("a7", 3.0)
    assert table.record == MOVING
    assert table.problems == ["put a man back on a7", "put a man back on g7"]
    assert table.lit("missing") == {"a7", "g7"}


@pytest.mark.parametrize(
    "computer, record",
    [(None, "d6 a1"), ("black", "d6 a1"), ("white", "d6")],
    ids=["two-players", "computer-yet-to-answer", "back-to-the-human"],
)
def test_undo_takes_back_to_the_human_s_last_turn(computer, record):
    opponent = ScriptedOpponent([], ready=False) if computer else None
    table = Table("d6 a1 f6", computer=computer, opponent=opponent)
    table.wait(1.0)
    table.press("undo")
    table.wait(1.0)
    assert table.record == record
    assert table.lit("extra") == {"a1", "f6"} - set(record.split())


def test_undo_during_a_pending_removal_takes_back_the_step():
    table = Table("d6 a1 f6 a4")
    table.put("b6", 2.0)
    table.press("undo")
    table.wait(2.0)
    assert table.record == "d6 a1 f6 a4" and table.problems == ["take the man off b6"]


def test_the_computer_s_removal_made_first_and_the_reply_into_its_point_are_two_turns():
    table = Table(MOVING, computer="white", opponent=ScriptedOpponent(["a1-d1xe3"]), scans=False)
    table.wait(1.0)
    assert table.lit("computer-remove") == {"e3"}
    for change, point in [("off", "e3"), ("off", "a1"), ("on", "d1"), ("off", "e4"), ("on", "e3")]:
        getattr(table, change)(point)
        table.wait(0.6)
    table.wait(4.0)
    assert table.record == MOVING + " a1-d1xe3 e4-e3" and table.problems == []


def test_a_reply_into_the_removed_man_s_point_is_not_read_when_that_point_never_changed():
    table = Table(MOVING, computer="white", opponent=ScriptedOpponent(["a1-d1xe3"]), scans=False)
    table.wait(1.0)
    for change, point in [("off", "a1"), ("on", "d1"), ("off", "e4")]:
        getattr(table, change)(point)
        table.wait(0.6)
    table.wait(4.0)
    assert table.record == MOVING  # e3 never emptied: its man was not taken
    assert table.problems and table.lit("computer-remove") == {"e3"}


# The human (white) played d7-a7 and the computer answered d6-d7: d7 now holds a black man.
ANSWERED = "f2 b2 d7 d6 e3 e4 c5 f4 c4 b6 a4 f6xc4 g4 b4xf2 g1 a1 d3 e5 d7-a7 d6-d7"


def test_a_takeback_by_hand_is_read_when_every_point_it_restores_changed():
    table = Table(ANSWERED, computer="black", opponent=ScriptedOpponent([], ready=False))
    table.wait(1.0)
    table.lift("d7", 0.6)
    table.put("d6", 1.0)  # the computer's man back
    table.lift("a7", 0.6)
    table.put("d7", 4.0)  # and the human's
    assert table.record == ANSWERED.rsplit(" ", 2)[0] and table.problems == []


def test_a_man_carried_to_where_the_position_two_turns_back_had_one_is_no_takeback():
    table = Table(ANSWERED, computer="black", opponent=ScriptedOpponent([], ready=False))
    table.wait(1.0)
    table.lift("a7", 0.6)
    table.put("d6", 4.0)  # the same occupancy as two turns back, but d7's man is still black's
    assert table.record == ANSWERED
    assert table.problems == ["put a man back on a7", "take the man off d6"]


def test_two_quick_moves_by_both_sides_are_both_read():
    table = Table(MOVING, scans=False)
    table.wait(1.0)
    for change, point, wait in [("off", "a1", 0.6), ("on", "a4", 0.6), ("off", "f2", 0.7), ("on", "f4", 4.0)]:
        getattr(table, change)(point)
        table.wait(wait)
    assert table.record == MOVING + " a1-a4 f2-f4" and table.problems == []


def test_no_turn_is_read_while_the_man_it_moved_is_already_back():
    table = Table(MOVING, scans=False)
    table.wait(1.0)
    table.off("a1")
    table.wait(0.6)
    table.on("a4")
    table.wait(0.05)
    table.on("a1")  # the man is back on a1 before a4's landing has settled: another man is on a4
    table.wait(4.0)
    assert table.record == MOVING
    assert table.problems == ["take the man off a4"] and table.lit("extra") == {"a4"}
