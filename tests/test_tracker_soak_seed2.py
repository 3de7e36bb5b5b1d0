"""Soak failures of seeds 2 and 1 (``bench/soak.py --seed 2``, ``--seed 1``), each rebuilt from its trace.

Each test plays the game up to the trouble with clean events, then the failing trace's own
events (trimmed to those that matter, shifted in time), and requires that every replay line
holds only turns of the game (never a turn nobody played, not even for a moment) and that the
last holds the exact record.
"""

from __future__ import annotations

from test_tracker_soak_cases import _replay_checked

TWO_PLAYERS = {"white": "human", "black": "human"}


def test_three_men_in_quick_succession_the_last_closing_a_mill():
    """no-flying, game 363: White's e4, Black's a4 24 ms later and White's e3 70 ms after e4,
    e3 closing e3-e4-e5; White's hand nudges e4 off before it is firm, and a1 is taken later.
    The three are read together in the order they came, the last one's removal still to come:
    not a4 first (read while e4 was off), then e4 and e3 as the other side's."""
    tail = [
        {"t": 59.90671, "on": "e4"},
        {"t": 59.93059, "on": "a4"},
        {"t": 59.93086, "off": "a4"},
        {"t": 59.93115, "on": "a4"},
        {"t": 59.97669, "on": "e3"},
        {"t": 60.02551, "off": "e4"},
        {"t": 60.155, "on": "e4"},
        {"t": 61.38222, "off": "a1"},
        {"t": 64.4},
    ]
    prefix = "d2 f4 e5 a7 d5 g1 c5xf4 g7 d7 c4 d6xa7 a1 b4 b6"
    _replay_checked({"profile": "no-flying", **TWO_PLAYERS}, prefix, tail, f"{prefix} e4 a4 e3xa1")


TWELVE_1265 = (
    "d1 g1 c3 e5 g4 d7 a4 d6 b6 d5xb6 f2 c5xa4 b6 a4 d3 b4 e3xb4 f4 d2xa4 b4 b2xb4 g7 b4xg1 f6xg4 b4-a4 "
    "f4-g4 f2-f4 g4-g1 a4-a7 g7-g4 b2-b4 e5-e4 f4-f2 c5-c4 f2-f4 e4-e5 f4-e4 f6-f4 d2-f2 d6-f6 d3-d2 d7-d6 "
    "b6-c5 d6-d7 d2-b2 d5-d6 b2-a1 d6-d5 a1-a4 d5-d6 c5-b6 d6-d5 c3-d3 c4-c3 b4-c4 d5-d6 b6-c5 d6-b6 c5-d5 "
    "b6-c5 d1-d2 f6-d6 a4-b4 g1-d1 a7-b6 d1-a1 d2-d1 d7-g7 b4-a4 c3-b2 b6-a7 b2-d2 f2-g1 d2-b2 e3-f2 e5-f6 "
    "a7-b6 b2-c3 d3-d2 c3-d3 e4-e5 d6-d7 e5-e4 f6-e5 f2-e3 d7-d6 b6-a7 f4-f2 e4-f4 c5-b6 f4-f6 b6-b4 a7-d7 "
    "e5-e4 f6-f4 g7-f6 d5-c5 g4-g7 c5-b6 d6-d5 b6-c5 b4-b2 c5-b6 b2-b4 b6-c5 b4-b6 c4-c3 g7-g4 d7-d6 g4-g7 "
    "d2-b2 d3-d2 c3-c4"
)


def test_a_move_is_not_read_onto_a_point_touched_only_before_its_man_left():
    """twelve, game 1265: a sleeve knocks White's b2 off and pushes it back across b4 (b4
    touched 107 ms, its return lost); 0.5 s later Black lifts b6. The board then read as
    ``b6-b4`` with White's next turn begun taking b4, though b4 never closed after b6 was
    lifted. Nothing is read until the scan shows b2 back and Black's man lands on a7."""
    tail = [
        {"t": 595.14455, "off": "b2"},
        {"t": 595.14473, "on": "b2"},
        {"t": 595.14483, "off": "b2"},
        {"t": 597.15075, "on": "b4"},
        {"t": 597.25821, "off": "b4"},
        {"t": 597.73944, "off": "b6"},
        {"t": 598.08214, "snapshot": "a1 a4 b2 c4 c5 d1 d2 d5 d6 e3 e4 f2 f4 f6 g1 g7".split()},
        {"t": 598.29685, "on": "a7"},
        {"t": 598.31184, "off": "a4"},
        {"t": 598.36884, "on": "a4"},
        {"t": 601.4},
    ]
    _replay_checked({"profile": "twelve", **TWO_PLAYERS}, TWELVE_1265, tail, f"{TWELVE_1265} b6-a7")


def test_a_man_whose_return_only_a_scan_showed_came_before_a_man_slid_across_later():
    """no-flying, game 1047: White's f4, then Black's g4 20 ms later, knocked off after 34 ms
    and put back with the "on" lost; White's next man slides across b2 and b4 (b4 closed 85 ms)
    before the scan shows g4 back, and lands on b4 1.2 s later. When g4's man came back is only
    known to lie between his knock and the scan: b4's brief touch inside that time does not
    make b4's man the first. ``f4 g4 b4``, never ``f4 b4 g4``."""
    tail = [
        {"t": 3.61385, "on": "f4"},
        {"t": 3.63336, "on": "g4"},
        {"t": 3.66763, "off": "g4"},
        {"t": 4.95879, "on": "b2"},
        {"t": 5.05233, "off": "b2"},
        {"t": 5.10371, "on": "b4"},
        {"t": 5.18829, "off": "b4"},
        {"t": 5.22921, "snapshot": ["f4", "g4"]},
        {"t": 6.38206, "on": "b4"},
        {"t": 6.41133, "off": "b4"},
        {"t": 6.431, "on": "b4"},
        {"t": 9.5},
    ]
    _replay_checked({"profile": "no-flying", **TWO_PLAYERS}, "", tail, "f4 g4 b4")


def test_two_placements_are_not_read_in_the_order_their_men_did_not_come():
    """club, game 74: White's a7, Black's e5 129 ms later, then White lifts c4 by mistake (the
    lift lost; the scan shows c4 empty) and puts it back. Occupancy alone allows only the
    other order, e5 and then Black's a7 closing a7-a4-a1 and taking c4, but a7's man came
    first: the board waits until c4 is back and reads a7 and e5, then White's g7."""
    tail = [
        {"t": 21.4879, "on": "a7"},
        {"t": 21.61661, "on": "e5"},
        {"t": 22.19209, "snapshot": "a1 a4 a7 b4 b6 d1 d3 e3 e5 f4 g1".split()},
        {"t": 23.06998, "on": "c4"},
        {"t": 23.54614, "on": "g7"},
        {"t": 26.6},
    ]
    prefix = "b4 b6 f4 d3 d1 g1 c4 a4 e3 a1"
    _replay_checked({"profile": "club", **TWO_PLAYERS}, prefix, tail, f"{prefix} a7 e5 g7")


def test_the_computers_removal_made_first_and_answered_where_only_scans_showed_the_point():
    """twelve, the computer White, game 83: the hand takes f6 first for the prompted a1xf6 (the
    lift lost; a scan shows f6 empty), places a1, and Black's man, after hovering over f6, lands
    there with the landing lost; a scan shows it 0.8 s later. f6 was surely empty when a1 was
    placed and filled only after that: the computer's turn and Black's answer, not a1 with f6
    lifted and put back, the removal still owed."""
    tail = [
        {"t": 48.9685, "snapshot": "a7 d1 d3 d7 e3 e5 g1 g4 g7".split()},
        {"t": 49.15595, "on": "a1"},
        {"t": 49.27478, "on": "f6"},
        {"t": 49.29534, "off": "f6"},
        {"t": 49.94695, "snapshot": "a1 a7 d1 d3 d7 e3 e5 f6 g1 g4 g7".split()},
        {"t": 53.0},
    ]
    prefix = "a7 f4 d7 e5 g7xf4 e3 g4 a4 g1xa4 f6 d1 d3"
    header = {"profile": "twelve", "white": "computer", "black": "human"}
    _replay_checked(header, prefix, tail, f"{prefix} a1xf6 f6")


def test_a_mill_made_removal_first_and_answered_at_once_on_the_removed_point():
    """no-flying, game 201: White takes e4 first, places f6 closing f2-f4-f6 0.6 s later, and
    Black's man slides across e5 onto e4 98 ms after f6 landed, its landing bouncing. e4 was
    empty when f6's man touched down and filled only after: White's f6xe4 and Black's e4, not
    f6 with e4 lifted and put back and the removal still owed (the removal of another man
    later would then be read as this mill's)."""
    tail = [
        {"t": 31.6071, "off": "e4"},
        {"t": 32.23686, "on": "f6"},
        {"t": 32.28478, "on": "e5"},
        {"t": 32.31368, "off": "e5"},
        {"t": 32.33489, "on": "e4"},
        {"t": 32.33498, "off": "e4"},
        {"t": 32.33527, "on": "e4"},
        {"t": 32.33579, "off": "e4"},
        {"t": 32.33604, "on": "e4"},
        {"t": 35.4},
    ]
    prefix = "c5 c3 d6 d5 f2 a7 e3 e4 f4 g4"
    _replay_checked({"profile": "no-flying", **TWO_PLAYERS}, prefix, tail, f"{prefix} f6xe4 e4")


def test_a_hand_hesitating_over_a_removal_made_first_still_owes_it():
    """The same mill, the hesitation the other way round: e4 lifted, put back before f6 is
    placed. The step waits for its removal; nothing is read for Black."""
    tail = [
        {"t": 31.6071, "off": "e4"},
        {"t": 32.1, "on": "e4"},
        {"t": 32.8, "on": "f6"},
        {"t": 35.4},
    ]
    prefix = "c5 c3 d6 d5 f2 a7 e3 e4 f4 g4"
    _replay_checked({"profile": "no-flying", **TWO_PLAYERS}, prefix, tail, prefix)


def test_a_point_changing_again_holds_up_the_turn_that_hands_over_to_the_computer():
    """lasker, the computer White, game 424: Black lifts d2 by mistake and puts it back with the
    "on" lost, places f2 (closing f2-d2-b2) and the hand nudges d2 off 23 ms later; the scan
    falls inside the nudge, and d2's switch closes again 0.15 s later. Read at once, d2 off
    and f2 on was the move d2-f2, and d2's man an extra man on the computer's turn. The
    computer is asked only after the reading, so d2 changing again is no answer to it: the
    board is read when d2 has settled, as f2 closing the mill, and g1 is taken."""
    tail = [
        {"t": 69.4364, "off": "d2"},
        {"t": 71.41357, "on": "f2"},
        {"t": 71.43471, "off": "f2"},
        {"t": 71.55747, "on": "f2"},
        {"t": 71.58083, "off": "d2"},
        {"t": 71.66888, "snapshot": "a1 a7 b2 d1 d7 f2 g1 g4 g7".split()},
        {"t": 71.72629, "on": "d2"},
        {"t": 72.08284, "off": "d2"},
        {"t": 73.0161, "on": "d2"},
        {"t": 73.60774, "off": "g1"},
        {"t": 76.7},
    ]
    prefix = "a7 b6 d7 a1 g7xa1 a1 g4 b6-d6 g1xa1 d2 d1 f2 a1xd6 b2xg1 g1xf2 f2xd1 d1xf2 f2xg4 g4xf2"
    header = {"profile": "lasker", "white": "computer", "black": "human"}
    _replay_checked(header, prefix, tail, f"{prefix} f2xg1")


CLUB_1430 = (
    "d6 e3 d3 c4 e4 b4 a4 d1 d7 f4 d5xf4 f2 b6 g4 f6xe3 a7 e3 b2 e4-e5 d1-d2xe3 d3-e3 g4-g1 d7-g7 "
    "a7-d7 g7-g4 d7-a7 e5-e4 d2-d1 f6-f4xc4 d1-d2xd6 d5-e5xa7 d2-d1 e5-d5 d1-d2xa4 d5-e5xb4 g1-d1 "
    "g4-g1 d2-d3 b6-b4 d1-d2xf4 g1-d1 d3-c3 e3-d3"
)


def test_an_illegal_step_is_no_takeback_when_the_man_that_changes_colour_came_first():
    """club, the computer White (level 1), game 1430: after Black's d3-c3 and the computer's
    e3-d3, Black's sleeve knocks d3 off and it is put back; 4 s later Black carries c3 to e3
    (not adjacent), leaves it 1.2 s and puts it back. The board then equals the position
    before the two turns, and d3 changed twice, but d3's man was back before c3's man left:
    he is not c3's man retracing his step. No takeback; the record keeps both turns."""
    tail = [
        {"t": 215.039, "off": "d3"},
        {"t": 216.0093, "on": "e3"},
        {"t": 216.1208, "off": "e3"},
        {"t": 216.15465, "on": "d3"},
        {"t": 220.23827, "off": "c3"},
        {"t": 220.80783, "on": "e3"},
        {"t": 221.96796, "off": "e3"},
        {"t": 222.19083, "on": "c3"},
        {"t": 225.3},
    ]
    header = {"profile": "club", "white": "computer", "black": "human", "level": 1, "seed": 1432}
    _replay_checked(header, CLUB_1430, tail, CLUB_1430)


def test_a_man_on_the_target_before_the_origin_was_left_is_no_move():
    """lasker, game 1732: White places d7; 38 ms later the hand nudges White's g7 off and it
    slides back, then Black's sleeve knocks g7 off with the lift lost, and the scan shows g7
    empty. The board equals g7-d7, but g7 held its man when d7's man touched down for good: he
    did not come from g7. The board waits until g7 is back, then reads Black's c3-d3."""
    tail = [
        {"t": 57.50878, "on": "d7"},
        {"t": 57.54721, "off": "g7"},
        {"t": 57.62172, "on": "g7"},
        {"t": 58.43588, "snapshot": "b4 b6 c3 c4 c5 d1 d2 d5 d6 d7 e4 f2 f6 g4".split()},
        {"t": 59.04894, "on": "g7"},
        {"t": 59.43694, "off": "c3"},
        {"t": 59.72457, "on": "d3"},
        {"t": 62.9},
    ]
    prefix = "c5 d5 d2 b4 b2 b4-b6 g4 g1 d6 g1-d1 f2xd5 c3 b2-b4 c4 f6 d5 g7 e4"
    _replay_checked({"profile": "lasker", **TWO_PLAYERS}, prefix, tail, f"{prefix} d7 c3-d3")


def test_a_scan_that_still_showed_the_first_man_bounds_when_he_was_lifted():
    """standard, soak seed 1 game 1548: White's e4, Black's b2 48 ms later, White's a1 92 ms
    after that (its hover's opening lost). A scan shows b2 still there; Black then lifts b2 by
    mistake with the lift lost, a second scan shows it gone, and it is put back 0.9 s later.
    The lift came after the first scan, so b2 held its man when a1's came: b2 was first."""
    tail = [
        {"t": 9.12551, "on": "e4"},
        {"t": 9.1732, "on": "b2"},
        {"t": 9.26495, "on": "a1"},
        {"t": 9.49279, "on": "a1"},
        {"t": 9.54583, "snapshot": ["a1", "b2", "b4", "b6", "e4"]},
        {"t": 9.92074, "snapshot": ["a1", "b4", "b6", "e4"]},
        {"t": 10.79419, "on": "b2"},
        {"t": 11.75548, "on": "c4"},
        {"t": 11.79018, "off": "b4"},
        {"t": 11.8576, "on": "b4"},
        {"t": 14.9},
    ]
    _replay_checked({"profile": "standard", **TWO_PLAYERS}, "b6 b4", tail, "b6 b4 e4 b2 a1 c4")


def test_the_computers_placement_shown_only_by_a_scan_after_the_humans_answer():
    """no-flying, the computer White, game 1611: the hand puts the prompted a7 down off-centre
    (it flickers) with the landing lost; Black's b6 lands, and only then a scan shows a7. The
    prompt orders the turns: a7, then b6 (in two-player games the order the men came decides)."""
    tail = [
        {"t": 3.54862, "on": "a7"},
        {"t": 3.6582, "off": "a7"},
        {"t": 4.31472, "on": "a7"},
        {"t": 4.33, "off": "a7"},
        {"t": 4.34819, "on": "a7"},
        {"t": 4.40658, "off": "a7"},
        {"t": 5.75602, "on": "a4"},
        {"t": 5.80798, "off": "a4"},
        {"t": 6.16075, "on": "b6"},
        {"t": 6.40829, "snapshot": ["a7", "b6"]},
        {"t": 9.5},
    ]
    header = {"profile": "no-flying", "white": "computer", "black": "human"}
    _replay_checked(header, "", tail, "a7 b6")
