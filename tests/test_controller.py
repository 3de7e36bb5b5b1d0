"""The controller loop: the computer's prompted turns, takebacks against it, buttons, callbacks, LEDs."""

from __future__ import annotations

import dataclasses
import math

import pytest
from tracker_kit import MOVING, QUIET, REPEATED, ScriptedOpponent, Table

from morris_pi.core.controller import Controller, Snapshot
from morris_pi.core.ports import FirstLegalOpponent, ManualClock, MonotonicClock
from morris_pi.core.virtual import RecordingStrip, VirtualSensors
from morris_pi.rules import Game


def test_the_computer_turn_is_prompted_at_once_and_recorded_when_done():
    table = Table(computer="black", opponent=FirstLegalOpponent())
    table.put("d6")
    assert table.record == "d6"
    assert table.snap.computer == "a7"
    assert table.lit("computer-to") == {"a7"}
    table.put("a7")
    assert table.record == "d6 a7"
    assert table.snap.computer is None


def test_the_computer_may_move_first():
    table = Table(computer="white")
    assert table.snap.computer == "a7"
    assert table.leds == {"a7": "computer-to"}


def test_a_computer_turn_with_removal_may_be_done_in_any_order():
    table = Table(computer="black", opponent=ScriptedOpponent(["a7", "d7", "g7xb2"]))
    for turn in ("c5", "a7", "e3", "d7", "b2"):
        table.play(turn)
    assert table.snap.computer == "g7xb2"
    assert table.lit("computer-to") == {"g7"} and table.lit("computer-remove") == {"b2"}
    table.lift("b2")  # the human's man first
    assert table.lit("computer-remove") == set()
    assert not table.problems and table.snap.computer == "g7xb2"
    table.put("g7")
    assert table.record == "c5 a7 e3 d7 b2 g7xb2"


def test_a_computer_turn_executed_wrongly_is_corrected_never_accepted():
    table = Table(computer="black", opponent=FirstLegalOpponent())
    table.put("d6")
    table.put("d7")  # a legal black placement, but not the one prompted
    assert table.record == "d6"
    assert table.problems == ["take the man off d7"]
    assert table.snap.computer == "a7" and table.lit("computer-to") == {"a7"}
    table.move("d7", "a7")
    assert table.record == "d6 a7"
    assert not table.problems


def test_a_computer_move_to_the_wrong_point_is_corrected():
    game = Game.from_record(QUIET)
    table = Table(QUIET, computer="white", opponent=ScriptedOpponent(["e3-d3"]))
    assert game.turn == "white" and table.snap.computer == "e3-d3"
    assert table.lit("computer-from") == {"e3"} and table.lit("computer-to") == {"d3"}
    table.move("e3", "d2")
    assert table.problems == ["take the man off d2", "put a man back on e3"]
    assert table.record == QUIET
    table.lift("d2")
    table.put("d3")
    assert table.record == QUIET + " e3-d3"
    assert not table.problems


def test_takeback_against_the_computer_undoes_two_turns_and_asks_for_removed_men():
    opponent = ScriptedOpponent(["a1", "a4", "g7", "g1"])
    table = Table(computer="black", opponent=opponent)
    for turn in ("d6", "a1", "f6", "a4", "b6xa1", "g7"):
        table.play(turn)
    assert table.record == "d6 a1 f6 a4 b6xa1 g7"
    table.press("undo")
    assert table.record == "d6 a1 f6 a4"
    assert set(table.problems) == {"put a man back on a1", "take the man off b6", "take the man off g7"}
    assert table.lit("missing") == {"a1"}
    table.put("a1")
    table.lift("b6")
    table.lift("g7")
    assert not table.problems
    table.put("g1")
    assert table.record == "d6 a1 f6 a4 g1"


def test_takeback_while_the_computer_thinks_cancels_it_and_undoes_the_human_turn():
    opponent = ScriptedOpponent(["a7"], ready=False)
    table = Table(computer="black", opponent=opponent)
    table.put("d6")
    assert table.snap.thinking and table.snap.computer is None
    table.press("undo")
    assert opponent.cancelled == 1
    assert table.record == "" and table.problems == ["take the man off d6"]
    assert not table.snap.thinking


def test_takeback_by_hand_against_the_computer_restores_the_human_turn_and_its_answer():
    table = Table(MOVING, computer="black", opponent=ScriptedOpponent(["f2-f4"]))
    table.play("a1-a4")
    table.play("f2-f4")
    assert table.record == MOVING + " a1-a4 f2-f4"
    table.move("f4", "f2")  # the computer's turn alone put back: not yet
    assert table.record == MOVING + " a1-a4 f2-f4"
    table.move("a4", "a1")
    table.wait(1.0)
    assert table.record == MOVING
    assert not table.problems


def test_hint_shows_the_suggested_turn():
    table = Table(MOVING, opponent=FirstLegalOpponent())
    table.press("hint")
    assert table.snap.hint == "g7-g4"
    assert table.lit("hint") == {"g7", "g4"}
    table.play("a1-a4")
    assert table.snap.hint is None and table.lit("hint") == set()


def test_draw_is_claimed_with_the_menu_button_when_the_profile_needs_a_claim():
    table = Table(REPEATED, profile="move-this")
    assert table.snap.outcome is None
    table.press("menu")
    assert table.snap.outcome.winner is None
    assert table.snap.outcome.reason == "threefold-repetition"
    assert table.lit("winner") == set(Game.from_record(REPEATED, "move-this").board)


def test_resignation_takes_two_presses_of_menu_and_the_first_one_expires():
    table = Table(QUIET)
    table.press("menu")
    assert table.snap.outcome is None
    white = {p for p, s in Game.from_record(QUIET).board.items() if s == "white"}
    assert table.lit("confirm") == white
    assert table.snap.status["white-to-move"] == "confirm"
    table.wait(3.5)
    assert table.lit("confirm") == set()
    table.press("menu")
    table.press("menu")
    assert str(table.snap.outcome) == "black wins (resignation)"
    table.press("undo")  # a resignation can be withdrawn
    assert table.snap.outcome is None and table.record == QUIET


def test_against_the_computer_the_human_resigns():
    table = Table(computer="white", opponent=FirstLegalOpponent())
    table.press("resign")
    assert table.snap.outcome.winner == "white"


def test_a_resignation_after_a_hand_carried_out_the_computers_turn_records_that_turn():
    """A quick hand puts the computer's man down before the LEDs prompted it, and the human
    resigns at once: the resignation is pressed on the board the LEDs show, so the computer is
    asked first and the turn on the board is recorded before the game ends."""
    table = Table(computer="black", opponent=FirstLegalOpponent(), scans=False)
    table.on("d6")
    table.wait(0.1)
    table.on("a7")
    table.wait(0.3)
    table.press("resign")
    assert table.record == "d6 a7"
    assert table.snap.outcome.winner == "black"


def test_on_turn_follows_every_game_change_and_on_change_only_real_changes():
    table = Table()
    table.put("d6")
    table.put("a1")
    table.press("undo")
    assert table.games == ["d6", "d6 a1", "d6"]
    count = len(table.changes)
    table.wait(5.0)
    assert len(table.changes) == count  # nothing changed, nothing reported


def test_leds_are_written_only_when_their_colours_change():
    table = Table()
    table.put("d6")
    shows = table.strip.shows
    table.wait(10.0)
    assert table.strip.shows == shows  # a steady frame is not sent again
    assert table.strip.points == {"d6": (40, 40, 40)}
    assert table.strip.status == {"black-to-move": (255, 255, 255)}


def test_blinking_roles_are_refreshed_at_their_blink_edges():
    table = Table(QUIET)
    table.put("g4")  # extra: blinks "double"
    wake = table.controller.next_wakeup()
    assert wake is not None and wake > table.clock.now()
    assert table.controller.next_wakeup(blink=False) is None


class BrokenOpponent(FirstLegalOpponent):
    def __init__(self) -> None:
        super().__init__()
        self.fail = True

    def result(self):
        if self.fail:
            raise RuntimeError("engine crashed")
        return super().result()


def test_a_failing_computer_player_shows_an_error_and_is_asked_again():
    opponent = BrokenOpponent()
    table = Table(computer="white", opponent=opponent)
    assert table.snap.fault and "engine crashed" in table.snap.fault
    assert "error" in table.strip.status
    opponent.fail = False
    table.wait(1.5)
    assert table.snap.fault is None
    assert table.snap.computer == "a7"


def test_the_error_status_led_blinks_while_the_computer_player_fails():
    table = Table(computer="white", opponent=BrokenOpponent())
    lit = []
    while table.clock.now() < 0.9:  # the player is asked again after a second
        table.clock.set(table.controller.next_wakeup() + 0.001)  # a real loop wakes a little late
        table.controller.step()
        lit.append("error" in table.strip.status)
    # a loop that sleeps until next_wakeup() shows the double blink, not one steady flash
    assert lit[:3] == [False, True, False]


def test_new_game_can_change_sides_and_profile():
    clock = ManualClock()
    c = Controller(sensors=VirtualSensors(), leds=RecordingStrip(), clock=clock)
    c.step()
    c.new_game(profile="lasker", computer="white")
    snap = c.step()
    assert snap.profile == "lasker" and snap.computer == "a7"


def test_a_palette_must_cover_every_role():
    with pytest.raises(ValueError, match="palette has no look for role"):
        Controller(sensors=VirtualSensors(), leds=RecordingStrip(), clock=ManualClock(), palette={})


def test_run_until_steps_at_every_deadline_up_to_the_time_and_no_further():
    clock, sensors = ManualClock(), VirtualSensors()
    controller = Controller(sensors=sensors, leds=RecordingStrip(), clock=clock, computer="black")
    controller.step()
    sensors.close_switch("d6")
    controller.step()
    seen: list[str] = []
    assert controller.run_until(0.01, step=lambda: seen.append(controller.step().record)) == 0
    assert clock.now() == 0.01 and controller.snapshot().record == ""  # the man has not settled yet
    steps = controller.run_until(2.0, step=lambda: seen.append(controller.step().record))
    assert steps == len(seen) > 0 and seen[-1] == "d6"
    assert clock.now() == 2.0
    assert controller.snapshot().computer == "a7"  # the computer's answer, prompted on the board
    assert controller.next_wakeup(blink=False) is None


def test_run_until_to_infinity_steps_every_deadline_and_leaves_the_clock_at_the_last():
    clock, sensors = ManualClock(), VirtualSensors()
    controller = Controller(sensors=sensors, leds=RecordingStrip(), clock=clock)
    controller.step()
    sensors.close_switch("d6")
    controller.step()
    assert controller.run_until(math.inf) > 0
    assert controller.snapshot().record == "d6" and math.isfinite(clock.now()) and clock.now() > 0


def test_run_until_refuses_a_clock_that_cannot_be_set():
    sensors = VirtualSensors()
    controller = Controller(sensors=sensors, leds=RecordingStrip(), clock=MonotonicClock())
    with pytest.raises(TypeError, match=r"needs a clock that can be set .* not MonotonicClock"):
        controller.run_until(1.0)


def test_snapshots_differing_in_any_field_but_the_time_are_not_the_same():
    """Every field counts in ``same_as`` except ``t``, including any field added later."""
    table = Table(MOVING)
    base = table.step()
    assert base.same_as(dataclasses.replace(base, t=base.t + 60.0))
    assert [f.name for f in dataclasses.fields(Snapshot) if not f.compare] == ["t"]
    for f in dataclasses.fields(Snapshot):
        if f.name == "t":
            continue
        other = dataclasses.replace(base, **{f.name: _different(getattr(base, f.name))})
        assert not base.same_as(other), f"same_as ignores a change of {f.name}"
        assert not other.same_as(base), f"same_as ignores a change of {f.name}"


def _different(value: object) -> object:
    """Some other value of the same kind, for a field of a snapshot."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, str):
        return value + "x"
    if isinstance(value, tuple):
        return (*value, "x")
    if isinstance(value, dict):
        return {**value, "x": "x"}
    return "x" if value is None else None


def test_on_change_is_told_about_a_new_man_but_not_about_time_alone():
    changes: list[Snapshot] = []
    clock, sensors = ManualClock(), VirtualSensors()
    controller = Controller(sensors=sensors, leds=RecordingStrip(), clock=clock, on_change=changes.append)
    controller.step()
    clock.advance(5.0)
    controller.step()
    assert len(changes) == 1
    sensors.close_switch("d6")
    controller.step()
    controller.run_until(clock.now() + 1.0)
    assert changes[-1].record == "d6" and changes[-1].t > 5.0
    assert [c.record for c in changes].count("d6") == 1


def test_new_game_refuses_a_computer_side_that_is_not_a_side_and_keeps_the_game():
    table = Table(MOVING)
    with pytest.raises(TypeError, match="computer must be a side or None, not 5"):
        table.controller.new_game(computer=5)
    assert table.step().record == MOVING
