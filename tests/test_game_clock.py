"""The two-player clock on the board: time for the side to move, its increment, standing still while the
board is put right, the low-time warning on the LEDs, and the clock kept in the save and the record."""

from __future__ import annotations

import pytest
from test_session import Rig

from morris_pi.core.gameclock import LOW_TIME_POINTS, LOW_TIME_ROLE, GameClock, TimeControl
from morris_pi.core.menu import GameSettings
from morris_pi.core.storage import Storage
from morris_pi.guidance import DEFAULT_PALETTE

LOW = DEFAULT_PALETTE[LOW_TIME_ROLE].colour


def clocked(tmp_path, control: str) -> Rig:
    return Rig(tmp_path, menu=False, defaults=GameSettings(mode="two-player", clock=control))


def left(rig: Rig) -> dict[str, float]:
    clock = rig.session.game_clock
    return {side: round(clock.remaining(side, rig.clock.now()), 1) for side in ("white", "black")}


def test_time_controls_read_as_minutes_and_seconds_a_turn():
    assert TimeControl.parse("10") == TimeControl(600.0, 0.0)
    assert str(TimeControl.parse("5+3")) == "5+3" and str(TimeControl.parse(" 0.5 ")) == "0.5"
    assert TimeControl.parse("3").low_s == 18.0 and TimeControl.parse("60").low_s == 60.0
    for bad in ("", "0", "five", "5+", "-1", "5+3+1", "1000"):
        with pytest.raises(ValueError, match="clock"):
            TimeControl.parse(bad)
    with pytest.raises(ValueError, match="clock"):
        GameSettings(mode="two-player", clock="soon")


def test_only_a_two_player_game_runs_a_clock(tmp_path):
    rig = Rig(tmp_path, menu=False, defaults=GameSettings(mode="computer", clock="5"))
    assert rig.session.game_clock is None


def test_the_side_to_move_loses_time_and_gains_its_increment_after_each_turn(tmp_path):
    rig = clocked(tmp_path, "1+2")
    rig.wait(20)  # setting up costs nobody time: the clock starts with White's first turn
    assert left(rig) == {"white": 60.0, "black": 60.0}
    rig.play("d6")
    rig.wait(9.5)
    black = left(rig)["black"]
    assert 49.5 <= black <= 50.5  # about ten seconds since the turn was read
    rig.play("a1")
    times = left(rig)
    assert times["white"] == pytest.approx(62.0, abs=0.6)  # White's first turn earned its increment
    assert times["black"] == pytest.approx(black + 2 - 0.5, abs=0.6)
    assert rig.session.game_clock.running == "white"


def test_a_takeback_stops_the_clock_until_the_board_is_put_right(tmp_path):
    rig = clocked(tmp_path, "1+2")
    rig.play("d6")
    rig.play("a1")
    rig.press("undo")  # a1 must come off the board first: the clock stands still meanwhile
    assert rig.session.controller.tracker.resync and rig.session.game_clock.running is None
    before = left(rig)
    rig.wait(15)
    assert left(rig) == before
    assert before["black"] < 60  # the time spent on the turn taken back is not given back ...
    assert before["black"] + 2 > 60  # ... but its increment is gone: black had 60 + 2 - (time spent)
    rig.take("a1")
    assert not rig.session.controller.tracker.resync
    rig.wait(5)
    assert rig.session.game_clock.running == "black" and left(rig)["black"] < before["black"] - 4


def lit_low(rig: Rig, side: str, seconds: float = 1.2) -> tuple[bool, bool]:
    """Whether the side's status LED and its middle point showed the low-time colour in the next ``seconds``."""
    status = point = False
    end = rig.clock.now() + seconds
    while rig.clock.now() < end:
        rig.wait(0.05)
        status = status or rig.strip.status.get(f"{side}-to-move") == LOW
        point = point or rig.strip.points.get(LOW_TIME_POINTS[side]) == LOW
    return status, point


def test_low_time_flashes_the_side_s_status_led_and_the_middle_of_its_edge(tmp_path):
    rig = clocked(tmp_path, "0.5")  # 30 s each, low below 10 s
    rig.play("d6")
    assert lit_low(rig, "black") == (False, False)
    rig.wait(20)
    assert rig.session.clock_roles(rig.clock.now()) == ({"d7": LOW_TIME_ROLE}, {"black-to-move": LOW_TIME_ROLE})
    assert lit_low(rig, "black") == (True, True)
    assert lit_low(rig, "white") == (False, False)


def test_a_flag_stops_the_clock_and_ends_the_game_only_when_the_players_say_so(tmp_path):
    rig = clocked(tmp_path, "0.5")
    rig.play("d6")
    rig.wait(31)
    clock = rig.session.game_clock
    assert clock.flagged == "black" and clock.running is None and left(rig)["black"] == 0
    assert rig.snap.outcome is None  # the rules know no loss on time; the players decide
    rig.session.end_on_time()
    rig.wait(0.1)
    assert rig.snap.outcome.winner == "white" and rig.snap.outcome.reason == "resignation"
    record = Storage(rig.storage.state_dir).list_records()[-1]
    assert record.tags["TimeForfeit"] == "black" and record.tags["TimeControl"] == "0.5"
    assert record.tags["BlackClock"] == "0:00.0" and len(record.tags["TurnTimes"].split()) == 1


def test_the_clock_is_saved_with_every_turn_and_a_resumed_game_goes_on_from_it(tmp_path):
    first = clocked(tmp_path, "2")
    first.play("d6")
    first.wait(10)
    first.play("a1")
    meta = first.saved()[1]
    assert meta["clock"] == "2" and meta["timing"]["control"] == "2"
    assert meta["timing"]["turns"][1] == pytest.approx(10.5, abs=0.6)
    black = meta["timing"]["left"]["black"]
    rig = Rig(tmp_path, menu=True, board={"d6", "a1"})  # after a power cut
    assert rig.started == "resumed"
    clock = rig.session.game_clock
    assert clock is not None and clock.remaining("black", rig.clock.now()) == pytest.approx(black, abs=0.1)
    rig.wait(3)
    assert clock.running == "white"  # the board matches the save: White's time runs again


def test_a_takeback_gives_back_an_increment_never_the_time_spent():
    clock = GameClock(TimeControl.parse("0.5+5"))
    clock.sync(1, running=True, now=0.0)
    clock.sync(1, running=True, now=31.0)
    assert clock.flagged == "black" and clock.remaining("white", 31.0) == 35.0
    clock.sync(0, running=True, now=40.0)  # White's turn taken back: its increment goes, Black's flag stays
    assert clock.flagged == "black" and clock.running is None and clock.remaining("white", 40.0) == 30.0
