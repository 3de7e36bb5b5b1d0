"""Soak failures of the tracker, each rebuilt from its trace (``bench/soak.py``, seed 0).

Each test plays the game up to the trouble with clean events, then the failing trace's own
events, shifted in time, and requires the exact record at the end of the replay.
"""

from __future__ import annotations

import json

from morris_pi.physical.files import replay_lines
from morris_pi.rules import Turn


def _clean(record: str, start: float = 1.0, gap: float = 2.5) -> tuple[list[dict], float]:
    """Events of a game played without mess: each turn lifts, lands, then takes, ``gap`` apart."""
    events: list[dict] = []
    t = start
    for text in record.split():
        turn = Turn.parse(text)
        if turn.origin:
            events.append({"t": round(t, 5), "off": turn.origin})
        events.append({"t": round(t + 0.4, 5), "on": turn.target})
        if turn.removal:
            events.append({"t": round(t + 0.9, 5), "off": turn.removal})
        t += gap
    return events, t


def _replay(header: dict, record: str, tail: list[dict]) -> str:
    """The record replay ends with: ``record`` played cleanly, then ``tail`` (times shifted after it)."""
    events, t = _clean(record)
    shift = t - tail[0]["t"]
    events += [{**e, "t": round(e["t"] + shift, 5)} for e in tail]
    code, rows, err = replay_lines([json.dumps(header)] + [json.dumps(e) for e in events])
    assert code == 0, err
    return rows[-1]["record"]


def _replay_checked(header: dict, record: str, tail: list[dict], expected: str) -> None:
    """Replay as ``_replay`` does, and require every line's record to hold only turns of
    ``expected`` (never a turn nobody played, not even for a moment) and the last to be it."""
    events, t = _clean(record)
    shift = t - tail[0]["t"]
    events += [{**e, "t": round(e["t"] + shift, 5)} for e in tail]
    code, rows, err = replay_lines([json.dumps(header)] + [json.dumps(e) for e in events])
    assert code == 0, err
    assert_only_turns_of(rows, expected)


def assert_only_turns_of(rows: list[dict], expected: str) -> None:
    """Every replay line's record holds only turns of ``expected`` (never a turn nobody played,
    not even for a moment), and the last is ``expected``."""
    want = expected.split()
    for row in rows:
        got = row["record"].split()
        assert got == want[: len(got)], f"t={row['t']}: {row['record']}"
    assert rows[-1]["record"] == expected


def test_two_men_put_down_at_once_the_first_lifted_before_it_was_firm_and_put_back():
    """standard, two players, seed 846: Black's e4 lands 28 ms before White's f2 and is lifted
    after 196 ms (not yet firm), so f2 reads as Black's, closing the mill f2-f4-f6. Black puts
    e4 back 0.8 s later: the man landed where it touched first, so the two placements are read
    again together, in order of first touch (the first reading left e4 no legal turn)."""
    tail = [
        {"t": 12.86673, "on": "e4"},
        {"t": 12.89467, "on": "f2"},
        {"t": 13.06282, "off": "e4"},
        {"t": 13.86949, "on": "e4"},
        {"t": 14.80875, "on": "g7"},
        {"t": 14.85872, "off": "g7"},
        {"t": 14.8727, "on": "g4"},
        {"t": 14.9812, "off": "g4"},
        {"t": 15.03097, "on": "g1"},
        {"t": 17.0},
    ]
    header = {"profile": "standard", "white": "human", "black": "human"}
    assert _replay(header, "d1 f4 d3 f6 e3", tail) == "d1 f4 d3 f6 e3 e4 f2 g1"


def test_a_landing_only_a_scan_showed_counts_though_the_next_turn_lifts_the_man_at_once():
    """no-flying, the computer Black, seed 465: the computer's a7-d7 lands with bounce and its
    last "on" is lost; the scan that shows d7 comes 42 ms before White takes d7 (removal first,
    then c3-c4). The scan's change has no settle time left before the lift, yet it happened
    (at some unknown time after the last report): d7 was filled and emptied."""
    prefix = (
        "f2 a7 b2 d7 d2xa7 a7 d6 g7xd6 b4 g4 b6xg4 g4 f4 g1xf4 c4 d1 a4xd1 d1 b6-d6 g4-f4 "
        "d6-b6xf4 d7-d6 c4-c3 a7-d7 c3-c4xd6 d7-a7 c4-c3"
    )
    tail = [
        {"t": 145.65264, "off": "a7"},
        {"t": 146.64921, "on": "d7"},
        {"t": 146.68655, "off": "d7"},
        {"t": 147.63234, "on": "d7"},
        {"t": 147.63944, "off": "d7"},
        {"t": 147.68798, "on": "d7"},
        {"t": 147.70392, "off": "d7"},
        {"t": 147.74234, "off": "g7"},
        {"t": 147.81818, "on": "g7"},
        {"t": 148.3891, "snapshot": ["a4", "b2", "b4", "b6", "c3", "d1", "d2", "d7", "f2", "g1", "g7"]},
        {"t": 148.43132, "off": "d7"},
        {"t": 149.61459, "off": "c3"},
        {"t": 150.05954, "on": "c4"},
        {"t": 150.08696, "off": "c4"},
        {"t": 150.15573, "on": "c4"},
        {"t": 151.64201, "off": "g7"},
        {"t": 152.55884, "on": "g7"},
        {"t": 153.64321, "off": "g7"},
        {"t": 154.78628, "on": "d7"},
        {"t": 154.87289, "off": "d7"},
        {"t": 155.05788, "on": "d7"},
        {"t": 158.0},
    ]
    header = {"profile": "no-flying", "white": "human", "black": "computer"}
    assert _replay(header, prefix, tail) == f"{prefix} a7-d7 c3-c4xd7 g7-d7"


def test_a_lost_landing_that_closed_a_mill_is_the_second_man_when_the_first_touched_first():
    """standard, two players, seed 720: White's a7 lands (slid up the a-file) and is read;
    Black's g4 lands 116 ms later closing the mill e4-f4-g4, its "on" lost; a scan shows g4.
    The same men read as Black's a7 after White's g4 as well; a7 touched first, so it is White's
    and g4 is Black's mill step, whose removal (f6) comes next."""
    tail = [
        {"t": 29.70558, "on": "a1"},
        {"t": 29.82918, "off": "a1"},
        {"t": 29.85314, "on": "a4"},
        {"t": 29.88577, "off": "a4"},
        {"t": 29.89978, "on": "a7"},
        {"t": 30.02879, "off": "f4"},
        {"t": 30.029, "on": "f4"},
        {"t": 30.12118, "on": "f4"},
        {"t": 30.76779, "snapshot": ["a7", "b2", "b4", "c3", "c4", "d6", "d7", "e3", "e4", "e5", "f4", "f6", "g4"]},
        {"t": 30.95268, "off": "f6"},
        {"t": 33.0},
    ]
    header = {"profile": "standard", "white": "human", "black": "human"}
    prefix = "d7 c3 c4 f4 f6 d6 g4 e4 b2 e5 b4 e3xg4"
    _replay_checked(header, prefix, tail, f"{prefix} a7 g4xf6")


def test_a_lost_landing_read_after_a_man_that_touched_first_closes_the_mill_of_its_own_side():
    """twelve, two players, seed 1157: Black's g7 (after a hover) is read; White's a7 lands
    117 ms after it, its "on" lost, closing a1-a4-a7; the scan shows a7 and White then takes
    f6. g7 touched first, so a7 is White's mill step, not Black's placement after White's g7."""
    tail = [
        {"t": 63.53435, "on": "g7"},
        {"t": 63.56374, "off": "g7"},
        {"t": 63.69767, "on": "g7"},
        {
            "t": 64.29327,
            "snapshot": [
                "a1",
                "a4",
                "a7",
                "b2",
                "b4",
                "b6",
                "c3",
                "c4",
                "d1",
                "d3",
                "d5",
                "d6",
                "d7",
                "e3",
                "e5",
                "f4",
                "f6",
                "g1",
                "g7",
            ],
        },
        {"t": 64.90309, "off": "f6"},
        {"t": 67.0},
    ]
    header = {"profile": "twelve", "white": "human", "black": "human"}
    prefix = "f4 b4 d6 f6 c4 c3 a1 d7 g7 a7 e5 d5 b2 b6 a4 d3 d1 e3xg7 g1xa7"
    _replay_checked(header, prefix, tail, f"{prefix} g7 a7xf6")


def test_three_men_put_down_at_once_the_first_knocked_off_before_it_was_firm_are_read_in_order_of_first_touch():
    """twelve, two players, seed 365: White's b6, Black's d6 24 ms later, White's c5 (fast)
    104 ms after that; Black's hand nudges b6 off its switch for 40 ms, so b6 becomes firm
    last. Read one at a time, d6 would be White's, c5 Black's and b6 White's."""
    tail = [
        {"t": 30.47493, "on": "b6"},
        {"t": 30.49889, "on": "d6"},
        {"t": 30.60289, "on": "c5"},
        {"t": 30.60312, "off": "c5"},
        {"t": 30.60391, "on": "c5"},
        {"t": 30.64526, "off": "b6"},
        {"t": 30.64533, "on": "b6"},
        {"t": 30.64602, "off": "b6"},
        {"t": 30.68519, "on": "b6"},
        {"t": 32.79318, "on": "d5"},
        {"t": 32.85079, "on": "d5"},
        {"t": 32.85095, "off": "d5"},
        {"t": 32.85118, "on": "d5"},
        {"t": 33.31491, "snapshot": ["a4", "b2", "b4", "b6", "c5", "d3", "d5", "d6", "e4", "e5", "f6", "g7"]},
        {"t": 36.0},
    ]
    header = {"profile": "twelve", "white": "human", "black": "human"}
    prefix = "g7 g4 d3 a4 b4 e4 f6 b2 e5xg4"
    _replay_checked(header, prefix, tail, f"{prefix} b6 d6 c5 d5")


def test_four_men_put_down_at_once_the_second_knocked_off_and_back_later_are_read_in_order_of_first_touch():
    """move-this, two players, seed 325: c5, b2 26 ms later, f4 and f6 within 130 ms; a sleeve
    knocks b2 off 157 ms after it landed (not yet firm) and its owner puts it back 1.7 s later.
    Read one at a time, f4 would be Black's and b2 Black's fourth man."""
    tail = [
        {"t": 10.66595, "on": "c5"},
        {"t": 10.6924, "on": "b2"},
        {"t": 10.69255, "off": "b2"},
        {"t": 10.69348, "on": "b2"},
        {"t": 10.76546, "on": "f4"},
        {"t": 10.79403, "on": "f6"},
        {"t": 10.79424, "off": "f6"},
        {"t": 10.79446, "on": "f6"},
        {"t": 10.8492, "off": "b2"},
        {"t": 12.39241, "on": "b4"},
        {"t": 12.53294, "off": "b4"},
        {"t": 12.56698, "on": "b2"},
        {"t": 12.56728, "off": "b2"},
        {"t": 12.56776, "on": "b2"},
        {"t": 15.0},
    ]
    header = {"profile": "move-this", "white": "human", "black": "human"}
    _replay_checked(header, "", tail, "c5 b2 f4 f6")


def test_three_men_put_down_at_once_the_first_nudged_with_its_return_only_in_a_scan():
    """no-flying, two players, seed 147: White's c5, Black's b4 35 ms later, White's c4 (fast)
    78 ms after that; c5 is nudged off 157 ms after it landed and its return is lost, so only
    the scan 0.3 s later shows c5 again."""
    tail = [
        {"t": 9.46079, "on": "c5"},
        {"t": 9.49578, "on": "b4"},
        {"t": 9.57432, "on": "c4"},
        {"t": 9.6176, "off": "c5"},
        {"t": 9.94796, "snapshot": ["b4", "c3", "c4", "c5", "d1", "d3", "e3"]},
        {"t": 12.5},
    ]
    header = {"profile": "no-flying", "white": "human", "black": "human"}
    prefix = "d3 d1 e3 f2 c3xf2"
    _replay_checked(header, prefix, tail, f"{prefix} c5 b4 c4")


def test_a_man_slid_over_a_point_that_its_side_fills_two_turns_later_keeps_the_order_read():
    """White slides a man up the a-file over a4 (100 ms, long enough to settle) onto a7; Black
    places g7 at once and White a4 0.5 s later. a4 was touched first, but its contact had ended
    before a7 was touched: one man passing, not a man standing there. The turns stay a7 g7 a4."""
    tail = [
        {"t": 1.0, "on": "a4"},
        {"t": 1.1, "off": "a4"},
        {"t": 1.13, "on": "a7"},
        {"t": 1.3, "on": "g7"},
        {"t": 1.8, "on": "a4"},
        {"t": 5.0},
    ]
    header = {"profile": "standard", "white": "human", "black": "human"}
    _replay_checked(header, "", tail, "a7 g7 a4")


def test_a_man_nudged_off_and_already_back_is_not_read_as_taken():
    """club, the computer Black, seed 1868: the hand carries out the computer's a1xd2 (d2 taken
    first, then a1); White places a4 131 ms later, closing a mill, and nudges a1 off for
    102 ms on the way. When a4 is firm, a1 is settled empty but its switch is already closed
    again: reading White's a4 as taking a1 would use a change that is being undone. The turn
    waits until a1 is firm, and White's removal is d7."""
    tail = [
        {"t": 55.9285, "off": "d2"},
        {"t": 56.34556, "on": "a1"},
        {"t": 56.4766, "on": "a4"},
        {"t": 56.51016, "off": "a1"},
        {"t": 56.51044, "on": "a1"},
        {"t": 56.51101, "off": "a1"},
        {"t": 56.61253, "on": "a1"},
        {"t": 57.0571, "off": "d7"},
        {"t": 58.79323, "on": "d7"},
        {"t": 58.84587, "off": "d7"},
        {"t": 59.01337, "on": "d7"},
        {"t": 59.04919, "off": "g7"},
        {"t": 59.13124, "on": "g7"},
        {"t": 60.33324, "off": "b4"},
        {"t": 60.83926, "on": "b4"},
        {"t": 61.6001, "off": "b2"},
        {"t": 64.0},
    ]
    header = {"profile": "club", "white": "human", "black": "computer"}
    prefix = "b4 a7 f2 d7 d3 g7xf2 d2 g4 f2 g1xf2 b2 d1 c4"
    _replay_checked(header, prefix, tail, f"{prefix} a1xd2 a4xd7 d7xb2")


def test_a_lost_lift_under_three_provisional_turns_drops_only_the_newest():
    """lasker, two players, seed 1480: two men put down at once (d3, d2), then White's b4-b2
    with the lift of b4 lost, so b2 reads as a placement; the scan 0.3 s later shows b4 empty.
    Three turns are too many to read again from the confirmed position, but the position
    after d3 d2 reads the board as b4-b2: only the placement is dropped."""
    tail = [
        {"t": 69.18193, "on": "d3"},
        {"t": 69.18765, "on": "d2"},
        {"t": 69.76765, "on": "b2"},
        {
            "t": 70.05891,
            "snapshot": ["a1", "b2", "b6", "c4", "d1", "d2", "d3", "d6", "d7", "e5", "f2", "f4", "f6", "g1"],
        },
        {"t": 71.6027, "on": "a4"},
        {"t": 71.62838, "off": "a4"},
        {"t": 71.67493, "on": "a4"},
        {"t": 74.0},
    ]
    header = {"profile": "lasker", "white": "human", "black": "human"}
    prefix = "g7 d2 b6 b4 c5 d2-d1 a4 f4 g7-d7 d5 c5-c4 f6 f2 d5-d6 e5 g1 a4-a1"
    _replay_checked(header, prefix, tail, f"{prefix} d3 d2 b4-b2 a4")


def test_a_chain_whose_second_man_landed_before_its_last_lift_is_not_read():
    """standard, two players, seed 1134, turn 115: White knocks Black's d6 off and puts it
    back, lifts an own man on f6 and puts it back, then (an illegal step) moves Black's d6 to
    d7 and back before playing f4-b2. The board with d6 on d7 equals White's f6-d7 and Black's
    d6-f6, every point changed often enough, and each point's first change is in order, but
    f6's man came back (613.5 s) before d6 was last lifted (614.4 s): no man went d6-f6."""
    prefix = (
        "c5 e5 d1 d3 g1 f4 a1xd3 f2 d6 b4 g4 c4 f6 e4 d2 a4xg4 g7 g4xf6 d6-f6 e5-d5 g7-d7 g4-g7 "
        "g1-g4 e4-e5 d1-g1 f4-e4 d2-d1xe5 d5-e5 c5-d5 e4-e3 f6-f4 e3-e4 d5-c5 e4-e3 d7-a7 c4-c3 "
        "f4-e4 c3-d3 c5-d5 b4-c4 e4-f4 c4-c5 f4-f6 f2-d2 d5-d6 c5-c4 f6-f4 e3-e4 d6-f6 d2-b2 "
        "d1-d2 b2-b4xd2 a7-d7 d3-e3xf4 g4-f4 g7-g4 d7-a7 b4-b6 a1-d1 a4-a1 a7-a4 b6-b4 d1-d2 "
        "c4-c5 d2-f2xa1 g4-g7 f2-d2 e3-d3 d2-d1 b4-c4 f4-f2 g7-g4 f6-f4 c4-b4 a4-a1xc5 b4-b2 "
        "d1-d2 e4-e3 d2-d1xg4 e3-e4 f4-g4 b2-d2 f2-f4 d3-e3xf4 g4-f4 d2-f2 g1-g4 f2-d2 a1-a4 "
        "d2-b2 a4-b4 b2-d2 b4-b2 d2-d3 d1-g1 e5-d5 g4-g7 d5-e5xb2 g1-d7 d3-c3 f4-b4 c3-d3 g7-d1 "
        "d3-c3 d7-f2 c3-d3 d1-f4 d3-c3 b4-g1 c3-d3 g1-c3 e5-d5 f2-f6 d5-d6"
    )
    tail = [
        {"t": 609.68487, "off": "d6"},
        {"t": 611.86706, "on": "d6"},
        {"t": 612.85684, "off": "f6"},
        {"t": 613.4956, "on": "f6"},
        {"t": 614.37832, "off": "d6"},
        {"t": 615.08616, "on": "d7"},
        {"t": 617.32314, "off": "d7"},
        {"t": 617.70033, "on": "d6"},
        {"t": 618.54084, "off": "f4"},
        {"t": 619.30457, "on": "b2"},
        {"t": 619.32741, "off": "b2"},
        {"t": 619.44606, "on": "b2"},
        {"t": 622.90078, "off": "d3"},
        {"t": 623.27956, "on": "d2"},
        {"t": 623.31024, "off": "d2"},
        {"t": 623.47992, "on": "d2"},
        {"t": 626.0},
    ]
    header = {"profile": "standard", "white": "human", "black": "human"}
    _replay_checked(header, prefix, tail, f"{prefix} f4-b2 d3-d2")


def test_a_man_slid_over_the_point_the_other_side_then_fills_does_not_make_that_man_first():
    """move-this, two players, seed 199: Black's f2 slides in over f6 and f4 (123 and 96 ms,
    both settled) and is read; White's f6 comes over f4 and its landing is lost until a scan.
    f6 was touched first, but by Black's man on its way to f2: f2 is Black's plain placement
    and f6 White's, not White's f2 closing b2-d2-f2 after a Black f6."""
    tail = [
        {"t": 21.54554, "on": "f6"},
        {"t": 21.66882, "off": "f6"},
        {"t": 21.7172, "on": "f4"},
        {"t": 21.81374, "off": "f4"},
        {"t": 21.85376, "on": "f2"},
        {"t": 23.36085, "on": "f4"},
        {"t": 23.45184, "off": "f4"},
        {"t": 23.9663, "on": "f6"},
        {"t": 23.98288, "off": "f6"},
        {"t": 24.79518, "snapshot": ["b2", "c5", "d1", "d2", "d5", "d6", "e5", "f2", "f6"]},
        {"t": 28.0},
    ]
    header = {"profile": "move-this", "white": "human", "black": "human"}
    prefix = "d5 d6 e5 c5 d2 d1 b2"
    _replay_checked(header, prefix, tail, f"{prefix} f2 f6")


def test_a_man_slid_over_a_point_filled_two_turns_later_by_two_men_put_down_at_once():
    """standard, two players, seed 18: Black's f2 slides in over f6 and f4 (f4 116 ms, settled),
    its hover's "off" lost and healed by a scan, then pushed on from off-centre; White's g4 and
    Black's f4 then land 17 ms apart. f4 was touched before f2, but the slide had left it
    before f2 was touched: the three men stay in the order read, f2 g4 f4."""
    tail = [
        {"t": 28.64087, "on": "f6"},
        {"t": 28.71157, "off": "f6"},
        {"t": 28.73197, "on": "f4"},
        {"t": 28.84779, "off": "f4"},
        {"t": 28.90232, "on": "f2"},
        {"t": 29.42279, "snapshot": ["a4", "a7", "c5", "d3", "d5", "e3", "e4", "e5", "g7"]},
        {"t": 29.70163, "on": "f2"},
        {"t": 29.72431, "off": "f2"},
        {"t": 29.74353, "on": "f2"},
        {"t": 29.78097, "off": "f2"},
        {"t": 29.79526, "on": "f2"},
        {"t": 29.82, "off": "f2"},
        {"t": 29.83079, "on": "f2"},
        {"t": 29.98968, "on": "g4"},
        {"t": 30.00665, "on": "f4"},
        {"t": 33.0},
    ]
    header = {"profile": "standard", "white": "human", "black": "human"}
    prefix = "e5 a7 e4 e3 g7 c5 a4 d3 d5"
    _replay_checked(header, prefix, tail, f"{prefix} f2 g4 f4")


def test_four_men_put_down_at_once_the_second_knocked_off_and_put_back_after_two_seconds():
    """twelve, two players, seed 1049: f4 and g7 land 34 ms apart, then b2 and g4 (fast); a
    sleeve knocks g7 off 167 ms after it landed, and its owner pushes it back over d7 2.4 s
    later. g7 stood there when b2 and g4 touched down, so the placements wait for it longer
    than for a man that only hovered, and are read again in order of first touch."""
    tail = [
        {"t": 4.05417, "on": "d1"},
        {"t": 4.16805, "off": "d1"},
        {"t": 4.2244, "on": "d2"},
        {"t": 4.39888, "on": "f4"},
        {"t": 4.43234, "on": "g7"},
        {"t": 4.53473, "on": "b2"},
        {"t": 4.55887, "on": "g4"},
        {"t": 4.599, "off": "g7"},
        {"t": 6.82113, "on": "d7"},
        {"t": 6.94291, "off": "d7"},
        {"t": 6.96537, "on": "g7"},
        {"t": 7.41711, "on": "g1"},
        {"t": 7.42378, "off": "g4"},
        {"t": 7.48127, "on": "g4"},
        {"t": 11.0},
    ]
    header = {"profile": "twelve", "white": "human", "black": "human"}
    _replay_checked(header, "", tail, "d2 f4 g7 b2 g4 g1")


def test_the_next_man_put_where_the_removal_was_made_does_not_hold_up_the_mill():
    """lasker, two players, seed 58: White takes b4 first, then moves g1-d1 closing d1-d2-d3;
    Black and White then put men on b4 and e4 at once, b4's 64 ms before d1 is firm. b4 was
    emptied once, long ago: its new man is the next turn, not a reason to doubt the removal."""
    tail = [
        {"t": 43.55319, "off": "b4"},
        {"t": 44.53849, "off": "g1"},
        {"t": 46.11803, "on": "d1"},
        {"t": 46.12669, "off": "d1"},
        {"t": 46.17272, "on": "d1"},
        {"t": 46.20297, "off": "d2"},
        {"t": 46.27681, "on": "d2"},
        {"t": 46.30972, "on": "b4"},
        {"t": 46.34416, "on": "e4"},
        {"t": 46.37925, "off": "a7"},
        {"t": 47.59665, "on": "a7"},
        {"t": 48.40603, "off": "a7"},
        {"t": 48.54085, "on": "a7"},
        {"t": 49.07676, "snapshot": ["a7", "b4", "d1", "d2", "d3", "d7", "e4", "f4", "f6"]},
        {"t": 52.0},
    ]
    header = {"profile": "lasker", "white": "human", "black": "human"}
    prefix = "d1 c4 f6 f4 d2 b4 d3xb4 c4-b4 d1-g1 a7"
    _replay_checked(header, prefix, tail, f"{prefix} g1-d1xb4 b4 e4 d7")


def test_a_slide_whose_opening_was_lost_does_not_make_the_point_first_when_it_fills_later():
    """standard, two players, seed 1674: Black's g1 slides in over g4, g4's opening lost (the
    scan shows g4 empty); White knocks f4 and puts it back, then places g4 2.0 s after the
    scan. When g4 opened is not known, so nothing says a man stood there: g1 waits only the
    2 s hold and stays Black's. (The mirror case, soak seed 1319, a man knocked off with its
    opening lost and put back 2.0 s after the scan, stays open: see docs/tracker.md.)"""
    tail = [
        {"t": 6.12612, "on": "g4"},
        {"t": 6.27952, "on": "g1"},
        {"t": 6.9312, "snapshot": ["d2", "f4", "g1", "g7"]},
        {"t": 7.06168, "off": "f4"},
        {"t": 8.44483, "on": "f2"},
        {"t": 8.5582, "off": "f2"},
        {"t": 8.60229, "on": "f4"},
        {"t": 8.94969, "on": "g4"},
        {"t": 8.9598, "off": "f4"},
        {"t": 9.0508, "on": "f4"},
        {"t": 12.0},
    ]
    header = {"profile": "standard", "white": "human", "black": "human"}
    _replay_checked(header, "f4 g7 d2", tail, "f4 g7 d2 g1 g4")


def test_a_man_lifted_and_put_back_before_the_turn_is_no_step_of_the_next_one():
    """club, two players, flying (a generated trace outside the soak, seed 50110): after
    b6-a1 White lifts g1 and puts it back, lifts a7 and puts it back, then tries b4-c4 with
    Black's man and takes it back, and plays a7-f4; Black's a1-d7 lands unreported (the scan
    shows d7). While b4 was off and c4 on, the board equalled White g1-c4 with Black's
    b4-g1 begun, but g1 was refilled 3 s before b4 was lifted: not that chain."""
    tail = [
        {"t": 554.02475, "off": "g1"},
        {"t": 554.02492, "on": "g1"},
        {"t": 554.02511, "off": "g1"},
        {"t": 554.57555, "on": "g1"},
        {"t": 555.54178, "off": "a7"},
        {"t": 557.44237, "on": "a7"},
        {"t": 557.95435, "off": "b4"},
        {"t": 557.9545, "on": "b4"},
        {"t": 557.95464, "off": "b4"},
        {"t": 558.67888, "on": "c4"},
        {"t": 560.73606, "off": "c4"},
        {"t": 561.06595, "on": "b4"},
        {"t": 561.0661, "off": "b4"},
        {"t": 561.06632, "on": "b4"},
        {"t": 561.9123, "off": "a7"},
        {"t": 561.94046, "off": "a4"},
        {"t": 561.94052, "on": "a4"},
        {"t": 561.94061, "off": "a4"},
        {"t": 562.01061, "on": "a4"},
        {"t": 562.49764, "on": "f4"},
        {"t": 564.52598, "off": "a1"},
        {"t": 565.68169, "snapshot": ["a4", "b4", "d1", "d7", "f4", "g1"]},
        {"t": 568.0},
    ]
    header = {"profile": "club", "white": "human", "black": "human"}
    record = (
        "g1 f4 f2 e4 a4 c3 g4 b4 b2 f6 d1 d6 d7 e3 d2xe4 b6xd1 a1 d3xa1 a4-a7 b4-a4 g4-g7xf4 f6-f4 "
        "g1-g4 f4-f6xg4 f2-f4 a4-a1 g7-g4 d6-d5 d7-d6 a1-a4 f4-f2xd5 b6-b4 f2-f4 c3-c4xg4 f4-f2xe3 "
        "a4-a1 a7-d7 c4-c5 d7-a7 a1-d1 f2-f4 c5-d5 f4-f2xf6 d5-c5 d6-b6 d1-a1 b6-d6 c5-d5 f2-f4 "
        "d5-c5 d6-f6 c5-d5 d2-f2xd5 b4-g1 f2-d2 g1-e4 f6-d6 d3-g1 d6-b6 a1-d7 b6-d6 g1-f6 d6-b6 "
        "e4-d6 d2-f2 d7-a4 a7-d7 a4-g4 b2-b4 g4-a4 f2-d2 d6-d3 d7-g7 a4-d7 d2-d1 f6-c4 b4-b2 d7-b4 "
        "g7-g4 c4-d7 d1-a1 d3-d5 a1-d1 b4-a1 d1-g1 d5-d6 b6-b4 d7-a7 f4-f6 d6-a4xg1 b4-b6 a7-e4 "
        "f6-f4 e4-a7xf4 b2-b4 a1-c4 g4-d1 c4-g1 b6-a1"
    )
    _replay_checked(header, record, tail, record + " a7-f4 a1-d7")


def test_the_next_turn_begun_before_its_man_lands_keeps_the_first_turn():
    """twelve, two players (soak seed 1, game 1859): White's f2-d2 lands, Black lifts d3 at
    once, brushing d2 off for 140 ms, lands on e3 1.3 s later, and White's d2 is knocked off
    and put back. Black's begun turn has no man down yet while White's is read: only his lift
    can be checked against White's landing."""
    record = (
        "b6 c3 d3 c5 c4 d2 b4 e4 b2xe4 e3 a4xc3 e5 c3 e4xc3 a1 d5xa1 c3 d1 a1xd2 d2 a7xd1 g4 f4 "
        "f6 b6-d6 c5-b6 c4-c5 f6-g7 f4-f6 g4-f4 d6-d7 e3-f2 d3-e3 b6-d6 a1-d1 f4-g4 f6-f4 d6-b6 "
        "d1-g1 d2-d3 d7-d6 f2-d2 d6-d7 d2-f2 b2-d2 e5-f6 b4-b2 f6-d6 b2-b4 d5-e5 c5-d5 b6-c5 "
        "d2-b2 d3-d2 b4-c4 e5-f6 e3-d3 e4-e3 a7-b6 e3-e4 d5-e5 d6-d5 b6-a7 d5-d6 a7-b6 f2-e3 "
        "d7-a7 c5-d5 a7-d7 d2-d1 c4-c5 d1-a1 d3-d2 a1-d1 d2-d3 d1-a1 c3-c4 a1-d1 b6-a7 e3-f2 "
        "a7-b6 f2-d2 d3-e3 d2-d3 b2-a1 d3-d2 e3-d3 d2-f2 a4-b4 f2-d2 b4-b2 d2-f2 b6-a7"
    )
    tail = [
        {"t": 481.97117, "off": "f2"},
        {"t": 482.59965, "on": "d2"},
        {"t": 482.71521, "off": "d3"},
        {"t": 482.71546, "on": "d3"},
        {"t": 482.71571, "off": "d3"},
        {"t": 482.74214, "off": "d2"},
        {"t": 482.74234, "on": "d2"},
        {"t": 482.74255, "off": "d2"},
        {"t": 482.88137, "on": "d2"},
        {"t": 484.18092, "on": "e3"},
        {"t": 484.19827, "off": "e3"},
        {"t": 484.20621, "on": "e3"},
        {"t": 484.28628, "off": "d2"},
        {"t": 485.34815, "on": "d2"},
        {"t": 488.0},
    ]
    header = {"profile": "twelve", "white": "human", "black": "human"}
    _replay_checked(header, record, tail, record + " f2-d2 d3-e3")


def test_a_man_lifted_and_put_back_after_a_touch_next_to_it_is_no_chain_of_three_turns():
    """Soak seed 183, no-flying: White lifts b4, touches b2 for 0.13 s and puts the man back on
    b4; a sleeve knocks e4 and it bounces back; then White moves Black's e3 to d3 by mistake,
    takes it back and plays d2-d3 (d2's lift nearly lost in a flicker). The board after the
    mistake nets to ``e3-d3``, which three turns explain (``b4-b2``, Black's ``e3-d3``,
    ``b2-b4``): but b2's man would have stood 0.13 s and left before Black's turn began. The
    mistake is shown, and only ``d2-d3`` recorded."""
    record = (
        "a7 c3 c5 d3 d6 b6 b4 a1 e4 g7 b2 f6 d7 e3xd7 d1 d5 f4 a4 b2-d2 c3-c4 f4-g4 d5-e5 g4-f4 "
        "e5-d5 f4-g4 g7-d7 g4-g7 c4-c3xc5 e4-e5 e3-e4 g7-g4 e4-f4 e5-e4 d3-e3"
    )
    tail = [
        {"t": 162.83825, "off": "b4"},
        {"t": 164.57308, "on": "b2"},
        {"t": 164.69946, "off": "b2"},
        {"t": 164.70954, "on": "b4"},
        {"t": 165.61135, "off": "e4"},
        {"t": 165.61154, "on": "e4"},
        {"t": 165.61173, "off": "e4"},
        {"t": 166.0768, "on": "e4"},
        {"t": 166.07691, "off": "e4"},
        {"t": 166.07697, "on": "e4"},
        {"t": 166.07722, "off": "e4"},
        {"t": 166.0774, "on": "e4"},
        {"t": 166.07767, "off": "e4"},
        {"t": 166.07785, "on": "e4"},
        {"t": 167.04654, "off": "e3"},
        {"t": 167.80151, "on": "d3"},
        {"t": 167.8018, "off": "d3"},
        {"t": 167.80205, "on": "d3"},
        {"t": 167.80225, "off": "d3"},
        {"t": 167.80249, "on": "d3"},
        {"t": 167.80269, "off": "d3"},
        {"t": 167.80286, "on": "d3"},
        {"t": 169.85936, "off": "d3"},
        {"t": 170.40488, "on": "e3"},
        {"t": 170.40507, "off": "e3"},
        {"t": 170.40522, "on": "e3"},
        {"t": 171.06995, "off": "d2"},
        {"t": 171.07015, "on": "d2"},
        {"t": 171.07026, "off": "d2"},
        {"t": 171.99834, "on": "d3"},
        {"t": 172.13728, "off": "d3"},
        {"t": 172.13755, "on": "d3"},
        {"t": 172.13777, "off": "d3"},
        {"t": 172.30202, "on": "d3"},
    ]
    _replay_checked({"profile": "no-flying", "white": "human", "black": "human"}, record, tail, record + " d2-d3")


def test_a_man_moved_on_again_while_the_reply_s_lift_was_lost():
    """Second generator seed 1 game 233, twelve: White's d1-g1 flickers on g1 for 0.6 s and
    White lifts g1 again for ``g1-d1``; Black's d6-d7 comes with d6's lift lost (a scan shows
    it). Once g1's man lands on d1, only ``d1-g1 d6-d7 g1-d1`` explains the board, every change
    seen and in causal order, and it is recorded."""
    record = (
        "a7 c4 e4 g1 d7 e3 d2 c3 f2 a4 f4 f6 d3 e5 c5 g7xd2 b4 a1 d5 d6 d1 g4xf2 b2 b6xb4 f4-f2 f6-f4 "
        "d1-d2xa4 a1-d1 b2-a1 c4-b4 a7-a4 e5-f6xa1 d7-a7 b4-c4 a7-d7 b6-a7 c5-b6 d1-a1 d2-d1 c3-b2 "
        "d5-e5 b2-d2 a4-b4 a1-b2 d3-c3 e3-d3 b6-c5 b2-a1 b4-b2 d6-d5 d7-d6 d3-e3 d6-b6 a7-a4 b6-b4 "
        "e3-d3 e4-e3 a4-a7 e3-e4 d5-d6 e5-d5 a7-a4 e4-e3 a4-a7 c5-b6xd2 g7-d7 f2-d2 a7-a4 b6-c5 g4-g7 "
        "d5-e5 g1-f2xc3 e5-e4 f2-g1 d2-f2 c4-c3 f2-d2 g7-g4 e4-e5 g4-g7 c5-b6xg1 d7-a7xe3 e5-d5 g7-g4 "
        "d5-e5 g4-g7 b6-c5 a7-d7 b4-b6 f4-e4 c5-c4 g7-g4 c4-b4xg4 a4-a7 d1-g1 d7-g7 b4-a4 d3-e3 "
        "a4-b4xa1 d6-d5 g1-d1 c3-c4 b6-c5 g7-d7 b4-b6 f6-f4 b2-a1 d7-d6 a1-a4 c4-b4 d2-f2 e3-d3 f2-d2 "
        "f4-f2 a4-a1 b4-c4 d2-b2 f2-d2 d1-g1 d2-d1 g1-g4 e4-e3 b2-c3 e3-e4 g4-f4 d1-d2 e5-f6 a7-a4 "
        "f4-g4 d2-f2 b6-b4 e4-e3 f6-g7 a4-a7 c5-b6 f2-d2 b4-a4 d5-e5 g4-g1 d6-d5 b6-d6 e3-f2 g7-f6 "
        "a7-d7 f6-f4 d3-e3 f4-g4 d7-a7 d6-f6 e3-e4 g1-d1 f2-f4 a1-b2 d2-d3 f6-g7 a7-d7 b2-a1 d3-d2 "
        "g4-g1xd5 d7-d6 g1-g4 d2-b2 d1-d2 e5-d5 a4-a7 d6-b6 d2-f2 b2-d2 c3-b2 d2-d1 b2-c3 e4-e3 a7-d7 "
        "f4-e4 g4-f4 b6-c5 d7-a7 c5-b6 c3-b2 b6-d6 f2-d2 d1-g1 f4-f6 e3-d3 a1-a4 g1-g4 a7-d7 d3-c3 "
        "d7-a7 c4-b4 a7-b6 d5-e5 b2-a1 b4-c4 g7-d7 e5-d5 a4-b4 e4-e5 b6-a7 g4-f4 a7-b6 f4-e4 b4-a4 "
        "d5-c5xf6 d2-d3 e5-f6 a1-b2 e4-e3 b6-b4 d6-d5 d7-d6 e3-e4 a4-a7 f6-f4 a7-a4 f4-g4 d6-f6 c5-b6 "
        "b2-d2 e4-e5 d3-e3 g4-g1 e3-f2 g1-d1 d2-b2 d5-d6 f2-e3 e5-e4 e3-f2 d1-a1 f6-f4 d6-f6 f2-e3 "
        "f6-e5 e3-f2 e5-f6 b2-d2 b6-d6 f2-e3 d6-d7 d2-d3 f6-g7 a4-a7 a1-d1 a7-a4 c4-c5 e3-f2 c5-c4 "
        "f2-d2 c3-b2 d3-e3 b2-a1 b4-b2 g7-f6 b2-b4 f6-d6 b4-b2 e4-e5 f4-e4 d7-a7 b2-b4 c4-c3 d2-d3 "
        "d1-d2 b4-b6 d6-d7 a4-b4 d7-g7 b6-d6 d2-d1 e4-f4 c3-b2 e3-e4 a7-b6 b4-c4 g7-f6 f4-f2 e5-d5 "
        "c4-c3 b6-c5"
    )
    tail = [
        {"t": 1346.0674, "off": "d3"},
        {"t": 1346.7731, "snapshot": ["d1", "a1", "d6", "f6", "f2", "b2", "c5", "d5", "e4", "c3"]},
        {"t": 1347.309, "on": "e3"},
        {"t": 1347.4258, "off": "e3"},
        {"t": 1347.4268, "on": "e3"},
        {"t": 1347.4277, "off": "e3"},
        {"t": 1347.4286, "on": "e3"},
        {"t": 1347.4305, "off": "e3"},
        {"t": 1347.8062, "on": "d2"},
        {"t": 1347.8081, "off": "d2"},
        {"t": 1347.8088, "on": "d2"},
        {"t": 1347.81, "off": "d2"},
        {"t": 1347.8106, "on": "d2"},
        {"t": 1347.8121, "off": "d2"},
        {"t": 1347.8136, "on": "d2"},
        {"t": 1347.944, "off": "d1"},
        {"t": 1349.3491, "on": "e3"},
        {"t": 1349.453, "off": "e3"},
        {"t": 1349.4694, "snapshot": ["a1", "d6", "f6", "f2", "d2", "b2", "c5", "d5", "e4", "c3"]},
        {"t": 1349.885, "on": "g4"},
        {"t": 1349.9852, "off": "g4"},
        {"t": 1349.9866, "on": "g4"},
        {"t": 1349.9871, "off": "g4"},
        {"t": 1349.988, "on": "g4"},
        {"t": 1349.9886, "off": "g4"},
        {"t": 1350.4841, "on": "g1"},
        {"t": 1350.5082, "off": "f2"},
        {"t": 1350.509, "on": "f2"},
        {"t": 1350.5108, "off": "f2"},
        {"t": 1350.5305, "off": "g1"},
        {"t": 1350.5925, "on": "f2"},
        {"t": 1350.6297, "on": "g1"},
        {"t": 1350.6314, "off": "g1"},
        {"t": 1350.6327, "on": "g1"},
        {"t": 1350.634, "off": "g1"},
        {"t": 1350.6351, "on": "g1"},
        {"t": 1350.6366, "off": "g1"},
        {"t": 1350.6382, "on": "g1"},
        {"t": 1350.734, "off": "g1"},
        {"t": 1350.8051, "on": "g1"},
        {"t": 1350.9399, "off": "g1"},
        {"t": 1350.9411, "on": "g1"},
        {"t": 1350.9428, "off": "g1"},
        {"t": 1350.9437, "on": "g1"},
        {"t": 1350.9445, "off": "g1"},
        {"t": 1350.978, "on": "g1"},
        {"t": 1351.0105, "off": "g1"},
        {"t": 1351.0504, "on": "g1"},
        {"t": 1351.0898, "off": "g1"},
        {"t": 1351.0913, "on": "g1"},
        {"t": 1351.0924, "off": "g1"},
        {"t": 1351.0944, "on": "g1"},
        {"t": 1351.0951, "off": "g1"},
        {"t": 1351.0967, "on": "g1"},
        {"t": 1351.0978, "off": "g1"},
        {"t": 1351.6362, "on": "d7"},
        {"t": 1352.1657, "snapshot": ["d7", "a1", "f6", "f2", "d2", "b2", "c5", "d5", "e4", "c3"]},
        {"t": 1353.2207, "on": "d1"},
        {"t": 1353.2217, "off": "d1"},
        {"t": 1353.2231, "on": "d1"},
        {"t": 1353.2248, "off": "d1"},
        {"t": 1353.2262, "on": "d1"},
        {"t": 1354.862, "snapshot": ["d7", "d1", "a1", "f6", "f2", "d2", "b2", "c5", "d5", "e4", "c3"]},
    ]
    expected = record + " d3-d2 d1-g1 d6-d7 g1-d1"
    _replay_checked({"profile": "twelve", "white": "human", "black": "human"}, record, tail, expected)


def test_men_lifted_and_put_back_and_a_man_put_on_the_wrong_point_are_no_three_turns():
    """Soak seed 274, club: White lifts c4 and puts it back, lifts b4 and puts it back, then
    carries c3 to b2 (no legal step) and back, and plays c3-d3. With the man on b2 the board
    reads as three turns, ``b4-b2``, Black's ``c4-b4`` and ``c3-c4``, each point seen changing:
    but c4 was filled again two seconds before c3's man left. Only ``c3-d3`` is recorded."""
    record = (
        "g1 d2 g4 c5 g7xd2 f4 d1 d6 a1xd6 d5 b2 c3 e4 f2 a7 e3 a4xe3 c4xb2 d1-d2 f4-f6 d2-d1xf2 d5-e5 "
        "g4-f4 c4-b4 g7-g4xb4 c3-c4 a4-b4 e5-d5 e4-e5 d5-d6 e5-d5 c4-c3 b4-c4 d6-b6 d5-d6 b6-b4 a7-a4"
    )
    tail = [
        {"t": 159.8964, "off": "c4"},
        {"t": 162.32369, "on": "c4"},
        {"t": 163.20352, "off": "b4"},
        {"t": 163.93026, "on": "b4"},
        {"t": 163.93048, "off": "b4"},
        {"t": 163.93076, "on": "b4"},
        {"t": 163.93088, "off": "b4"},
        {"t": 163.93104, "on": "b4"},
        {"t": 163.93115, "off": "b4"},
        {"t": 163.93139, "on": "b4"},
        {"t": 164.75512, "off": "c3"},
        {"t": 165.37734, "on": "b2"},
        {"t": 167.37968, "off": "b2"},
        {"t": 167.37975, "on": "b2"},
        {"t": 167.37981, "off": "b2"},
        {"t": 167.37999, "on": "b2"},
        {"t": 167.38023, "off": "b2"},
        {"t": 167.7114, "on": "c3"},
        {"t": 168.39223, "off": "c3"},
        {"t": 168.43641, "off": "c4"},
        {"t": 168.56004, "on": "c4"},
        {"t": 168.56033, "off": "c4"},
        {"t": 168.56054, "on": "c4"},
        {"t": 168.56062, "off": "c4"},
        {"t": 168.56085, "on": "c4"},
        {"t": 168.71442, "on": "d3"},
        {"t": 168.77307, "off": "d3"},
        {"t": 168.97624, "on": "d3"},
        {"t": 168.97635, "off": "d3"},
        {"t": 168.97651, "on": "d3"},
        {"t": 168.97656, "off": "d3"},
        {"t": 168.97663, "on": "d3"},
        {"t": 168.97692, "off": "d3"},
        {"t": 168.97701, "on": "d3"},
    ]
    _replay_checked({"profile": "club", "white": "human", "black": "human"}, record, tail, record + " c3-d3")


def test_a_moved_man_bouncing_off_centre_is_moved_on_again():
    """Second generator seed 2 game 10, lasker: White's e3-e4 is put down off-centre and e4
    closes three times in 0.4 s (65, 66 and 134 ms) before White lifts the man again for
    ``e4-e3``, just after Black lifted c4 for ``c4-c5``. No contact on e4 settled for long, yet
    once e3 holds a man again only the three turns explain the board, and they are recorded."""
    record = (
        "g4 d3 d6 f4 g7 c5 d6-d5 f4-f2 f4 f6 a7 d3-e3 d3 b2 b4 a1 b6 c5-c4 d5-c5 d6 a4 e5 a7-d7 e5-d5 "
        "d2 a1-d1 a4-a1 c3 b4-a4 e4 a4-a7xc4 b2-b4 c5-c4 d5-c5 a7-a4 c5-d5 d7-a7xd1 d5-c5 a7-d7 e4-e5 "
        "a1-d1xf2 b4-b2 d1-g1xc3 c5-d5 d3-c3 e3-e4 a4-b4 e4-e3 g1-d1"
    )
    tail = [
        {"t": 236.5171, "off": "e3"},
        {"t": 236.9738, "on": "e4"},
        {"t": 237.0393, "off": "e4"},
        {"t": 237.1489, "on": "e4"},
        {"t": 237.2147, "off": "e4"},
        {"t": 237.2383, "off": "c4"},
        {"t": 237.24, "on": "c4"},
        {"t": 237.2417, "off": "c4"},
        {"t": 237.2425, "on": "c4"},
        {"t": 237.244, "off": "c4"},
        {"t": 237.2446, "on": "c4"},
        {"t": 237.2457, "off": "c4"},
        {"t": 237.2523, "on": "e4"},
        {"t": 237.3868, "off": "e4"},
        {"t": 238.1406, "on": "c5"},
        {"t": 238.1415, "off": "c5"},
        {"t": 238.1426, "on": "c5"},
        {"t": 238.1442, "off": "c5"},
        {"t": 238.1455, "on": "c5"},
        {"t": 238.1998, "off": "c5"},
        {"t": 238.2018, "on": "c5"},
        {"t": 238.2031, "off": "c5"},
        {"t": 238.2042, "on": "c5"},
        {"t": 238.2059, "off": "c5"},
        {"t": 238.2076, "on": "c5"},
        {"t": 238.2096, "off": "c5"},
        {"t": 238.3079, "on": "c5"},
        {"t": 238.4208, "off": "c5"},
        {"t": 238.519, "on": "c5"},
        {"t": 238.5195, "off": "c5"},
        {"t": 238.5201, "on": "c5"},
        {"t": 238.5213, "off": "c5"},
        {"t": 238.5232, "on": "c5"},
        {"t": 238.5248, "off": "c5"},
        {"t": 238.5264, "on": "c5"},
        {"t": 238.5851, "off": "c5"},
        {"t": 238.627, "on": "c5"},
        {"t": 238.6643, "off": "c5"},
        {"t": 238.6657, "on": "c5"},
        {"t": 238.6674, "off": "c5"},
        {"t": 238.669, "on": "c5"},
        {"t": 238.6705, "off": "c5"},
        {"t": 238.6967, "on": "c5"},
        {"t": 238.8367, "off": "c5"},
        {"t": 238.8376, "on": "c5"},
        {"t": 238.8394, "off": "c5"},
        {"t": 238.9466, "on": "c5"},
        {"t": 238.9477, "off": "c5"},
        {"t": 238.9491, "on": "c5"},
        {"t": 238.951, "off": "c5"},
        {"t": 238.9525, "on": "c5"},
        {"t": 239.7281, "on": "e3"},
        {
            "t": 239.9406,
            "snapshot": [
                "d7",
                "g7",
                "g4",
                "d1",
                "b6",
                "d6",
                "f6",
                "f4",
                "d2",
                "b2",
                "b4",
                "c5",
                "d5",
                "e5",
                "e3",
                "c3",
            ],
        },
    ]
    expected = record + " e3-e4 c4-c5 e4-e3"
    _replay_checked({"profile": "lasker", "white": "human", "black": "human"}, record, tail, expected)
