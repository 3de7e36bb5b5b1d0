"""A protected man put back during a removal, shown back only by a scan (his "on" was lost)."""

from __future__ import annotations

from tracker_kit import ScriptedOpponent, Table


def _at(table: Table, t: float) -> None:
    table.wait(t - table.clock.now())


def test_a_protected_man_a_scan_shows_back_may_be_lifted_for_the_next_turn_at_once() -> None:
    """Soak shape (club, computer Black): while carrying out the computer's g7-a7xf6 the hand
    lifts White's b2, which may not be taken, and puts it back with that "on" lost; the scan
    shows b2 back, and 90 ms later White lifts b2 for b2-d1. b2 is back from the scan on, so
    the lift is White's turn beginning, not a protected man lifted again."""
    record = (
        "a4 a7 g7 d7 d2 g4 b6 g1 f6 d1 d6xa7 a7 c3 a1xg7 b4 g7xa4 b2xd7 d7xd2 d6-d5 a7-a4 "
        "d5-d6xd7 g7-d7 c3-d3 d7-a7xd3 d6-d5 a7-d7 d5-d6xg4 d7-a7xb6 d6-b6xa7 g1-g4 b2-d2 "
        "g4-g7 d2-b2xd1"
    )
    table = Table(record, profile="club", computer="black", opponent=ScriptedOpponent(["g7-a7xf6"]), scans=False)
    table.wait(1.0)
    assert table.lit("computer-to") == {"a7"}
    start = table.clock.now()
    for dt, change, point in ((0.1, "off", "g7"), (1.0, "on", "a7"), (2.3, "off", "b2")):
        _at(table, start + dt)
        getattr(table, change)(point)
    _at(table, start + 3.5)
    table.off("f6")  # the removal; b2 was put back meanwhile, that "on" never reported
    board = set(table.controller.tracker.game.board) - {"g7", "f6"} | {"a7"}
    _at(table, start + 3.54)
    table.snapshot(board)
    _at(table, start + 3.63)
    table.off("b2")  # White's next turn: b2-d1
    _at(table, start + 4.6)
    table.on("d1")
    table.wait(2.0)
    assert table.record == record + " g7-a7xf6 b2-d1"
