"""Confirm before commit: a turn read is provisional until its evidence has held.

The LEDs show a provisional turn at once; the record (what ``replay`` prints, what is saved and
what the computer searches from) takes it only once it is confirmed: no point it changes has
changed for ``confirm_s`` (1 s), or a scan of every switch newer than its last change agrees.
The board's own sensors scan every switch each time (``Table(scans=True)``), so a turn there is
confirmed as soon as the board is firm; a trace reports changes one by one and may lose one
(``Table(scans=False)``), and a later ``snapshot`` heals it.
"""

from __future__ import annotations

from tracker_kit import MOVING, QUIET, ScriptedOpponent, Table

from morris_pi.core.ports import FirstLegalOpponent


def test_on_a_board_that_scans_every_switch_a_turn_is_recorded_as_soon_as_it_is_firm():
    table = Table(scans=True)
    table.put("d6", wait=0.21)
    assert table.record == "d6"


def test_from_change_events_a_turn_is_shown_at_once_and_recorded_after_the_confirm_time():
    table = Table(scans=False)
    table.put("d6", wait=0.25)
    assert table.lit("last-move") == {"d6"}  # the LEDs follow the reading at once
    assert table.record == "" and table.games == []
    table.wait(0.7)
    assert table.record == ""
    table.wait(0.1)  # 1 s after d6 closed
    assert table.record == "d6" and table.games == ["d6"]


def test_a_snapshot_newer_than_the_turn_confirms_it_at_once():
    table = Table(scans=False)
    table.put("d6", wait=0.3)
    assert table.record == ""
    table.snapshot({"d6"})
    assert table.record == "d6"


def test_a_snapshot_that_disagrees_drops_the_provisional_turn_and_the_board_is_read_again():
    """Placing: a man slid from the tray across f4 on its way to b4; f4's "off" is lost, so f4
    reads as a placement. The scan 0.5 s later shows f4 empty: the record never holds f4."""
    table = Table(scans=False)
    table.on("f4")  # the slide closes f4 ...
    table.wait(0.1)  # ... and its opening never arrives
    table.put("b4", wait=0.3)
    assert table.lit("last-move") == {"b4"}  # f4 then b4 read: two quick placements
    assert table.record == ""
    table.snapshot({"b4"})
    table.wait(0.3)
    # f4 dropped, b4 read again as White's. When f4 opened only the scan knows, so f4 does not
    # count as holding a man when b4's landed, and the scan agrees with b4: recorded.
    assert table.record == "b4"
    assert table.lit("last-move") == {"b4"} and not table.problems
    assert set(table.games) == {"b4"}


def test_fast_play_across_the_window_confirms_each_turn_on_its_own_evidence():
    table = Table(QUIET, scans=False)
    table.lift("f2", wait=0.4)
    table.put("d2", wait=0.3)  # White's f2-d2 read at 0.2 s, not yet confirmed
    assert table.record == QUIET
    table.lift("d1", wait=0.2)  # Black answers inside White's window
    table.put("a1", wait=0.1)
    assert table.record == QUIET
    table.wait(0.45)  # 1 s after d2 landed: White's turn confirmed, Black's still provisional
    assert table.record == f"{QUIET} f2-d2"
    table.wait(0.6)
    assert table.record == f"{QUIET} f2-d2 d1-a1"
    assert table.games == [f"{QUIET} f2-d2", f"{QUIET} f2-d2 d1-a1"]


def test_a_man_knocked_off_after_the_turn_was_read_is_put_right_and_the_turn_stands():
    table = Table(MOVING, scans=False)
    table.move("a1", "d1")  # closes the mill d1-d2-d3 ...
    table.lift("e4")  # ... and takes e4
    table.lift("d1", wait=0.4)  # the sleeve knocks d1 off its switch
    assert "put a man back on d1" in table.problems
    assert table.record == MOVING
    table.put("d1", wait=1.2)
    assert table.record == f"{MOVING} a1-d1xe4" and not table.problems


def test_the_computer_searches_only_from_confirmed_turns():
    opponent = ScriptedOpponent(["a7"])
    table = Table(computer="black", opponent=opponent, scans=False)
    table.put("d6", wait=0.3)
    assert opponent.asked == [] and table.snap.computer is None
    table.wait(0.8)
    assert opponent.asked == [("d6", False)] and table.snap.computer == "a7"


def test_the_prompted_turn_carried_out_before_the_prompt_shows_is_read_once_it_does():
    """The human's d6 is still provisional when a hand already puts the computer's man on a7
    (it knew the computer's answer): no problem is shown, and a7 is read once prompted."""
    table = Table(computer="black", opponent=FirstLegalOpponent(), scans=False)
    table.put("d6", wait=0.5)
    table.put("a7", wait=0.3)
    assert not table.problems
    table.wait(1.5)
    assert table.record == "d6 a7"
