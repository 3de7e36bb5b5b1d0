"""A turn answered at once, where the board alone would also read as one turn.

Where placing and moving mix (``lasker``), a move answered at once by a placement on the
point it left shows the same men as one placement with a man lifted and put back. The
switches tell them apart: the man was in the hand when the other landed. And a reply cannot
have been done before the turn it answers. Each test is a soak trace (``bench/soak.py``,
lasker, two players) trimmed to the trouble: the game up to it played cleanly, then the
trace's own events, shifted in time; every replay line must hold only turns of the game.
"""

from __future__ import annotations

from test_tracker_soak_cases import _replay_checked

LASKER = {"profile": "lasker", "white": "human", "black": "human"}


def test_a_move_answered_at_once_on_the_point_it_left_is_two_turns():
    """Seed 0, game 490: White lifts g4 and puts it on f4 (0.8 s in the hand, the landing
    bouncing for 0.8 s); Black puts a man on g4 0.11 s after f4 stopped bouncing, before f4
    was firm. One placement on f4 with g4 lifted and put back leaves the same men, but g4's
    man was in the air when f4's landed: read as "g4-f4 g4", not "f4"."""
    record = "c4 f4 f6 a1 e5 d7 g1 f4-g4 d5 g4-g7 c4-b4 d3 g4 d7-a7 d2 a7-a4 c3 a7xg1 c5xg7 g1"
    bounce = [93.07334, 93.60236, 93.63559, 93.64821, 93.64848, 93.6486, 93.64868, 93.64894, 93.64924]
    bounce += [93.64953, 93.68245, 93.68251, 93.68259, 93.68267, 93.68276, 93.68292, 93.68302]
    bounce += [93.70983, 93.72578, 93.75393]
    tail = [{"t": 92.16233, "off": "g4"}, {"t": 92.16258, "on": "g4"}, {"t": 92.16287, "off": "g4"}]
    tail += [{"t": 92.97948, "on": "f4"}]
    tail += [{"t": t, ("off" if i % 2 == 0 else "on"): "f4"} for i, t in enumerate(bounce)]
    tail += [{"t": 93.86336, "on": "g4"}, {"t": 96.9}]
    _replay_checked(LASKER, record, tail, record + " g4-f4 g4")


def test_a_knocked_man_put_back_after_a_placement_is_still_one_placement():
    """The same men, but g4 knocked off by the hand on its way (0.1 s before the man touched
    f4) and put back 0.5 s after it landed: not carried, so one placement. (Left off for longer
    than the confirm time, the board would show the move g4-f4 standing.)"""
    record = "c4 f4 f6 a1 e5 d7 g1 f4-g4 d5 g4-g7 c4-b4 d3 g4 d7-a7 d2 a7-a4 c3 a7xg1 c5xg7 g1"
    tail = [{"t": 92.88, "off": "g4"}, {"t": 92.98, "on": "f4"}, {"t": 93.5, "on": "g4"}, {"t": 97.0}]
    _replay_checked(LASKER, record, tail, record + " f4")


def test_a_placement_after_a_man_was_lifted_and_put_back_is_one_placement():
    """g4 lifted and put back before the placement: nothing of it was in the hand when f4 landed."""
    record = "c4 f4 f6 a1 e5 d7 g1 f4-g4 d5 g4-g7 c4-b4 d3 g4 d7-a7 d2 a7-a4 c3 a7xg1 c5xg7 g1"
    tail = [{"t": 91.5, "off": "g4"}, {"t": 92.3, "on": "g4"}, {"t": 93.4, "on": "f4"}, {"t": 97.0}]
    _replay_checked(LASKER, record, tail, record + " f4")


def test_a_move_answered_at_once_with_the_reply_shown_only_by_a_scan():
    """Seed 1, game 364: Black carries g7 to g4 in 0.4 s; White's man put on g7 at once is never
    reported, and the next scan shows it. Putting g7's man back and bringing another from the
    tray would not fit in the 0.4 s before g4 was touched: "g7-g4 g7"."""
    record = "g7 b4 c4 b4-b2 b6 a4 c4-b4 c4 f2 f4"
    tail = [
        {"t": 47.70663, "off": "g7"},
        {"t": 48.10367, "on": "g4"},
        {"t": 48.22667, "off": "g4"},
        {"t": 48.28628, "on": "g4"},
        {"t": 48.90678, "snapshot": ["a4", "b2", "b4", "b6", "c4", "f2", "f4", "g4", "g7"]},
        {"t": 51.95},
    ]
    _replay_checked(LASKER, record, tail, record + " g7-g4 g7")


def test_a_move_answered_at_once_whose_landing_bounced_off_first():
    """Seed 0, game 1894: White lifts f2 and puts it back, lifts it again and carries it to f4,
    where it touches down 0.72 s after the lift, comes off for 75 ms and stays; Black's man put
    on f2 at once is never reported, and the next scan shows it. The first touch, not the
    first change long enough to settle (1.04 s after the lift), is when the man arrived: too
    soon for a tray trip, so "f2-f4 f2", not the placement f4 closing the mill f2-f4-f6."""
    record = "e4 f6 d1 d5 d6 f2 c5 b2 d1-a1 d7 b6 d7-g7 d6-d7"
    tail = [
        {"t": 41.15086, "off": "f2"},
        {"t": 42.19281, "on": "f2"},
        {"t": 43.17572, "off": "f2"},
        {"t": 43.89753, "on": "f4"},
        {"t": 43.89769, "off": "f4"},
        {"t": 43.89786, "on": "f4"},
        {"t": 43.97231, "off": "f4"},
        {"t": 44.22012, "on": "f4"},
        {"t": 44.68327, "snapshot": ["a1", "b2", "b6", "c5", "d5", "d7", "e4", "f2", "f4", "f6", "g7"]},
        {"t": 48.0},
    ]
    _replay_checked(LASKER, record, tail, record + " f2-f4 f2")


def test_a_reply_whose_man_stood_before_the_turn_landed_is_not_read():
    """Seed 1, game 760: after White's d5-e5 the hand nudges e4 (off 0.1 s); Black lifts d1 and
    puts it back, then places e3. Black's man on e5 is knocked off with its event lost, and a
    scan shows e5 empty. "e4-e3 e5-e4" leaves those men, but e4's man came back 2 s before e3
    was touched: no reply stands before the turn it answers. Black's e3, then White's c5."""
    record = "d3 a1 d7 a1-a4 e5 b6 f2 e4 e5-d5 a4-a1 d7-a7 d1 d5-e5"
    tail = [
        {"t": 50.45957, "off": "e4"},
        {"t": 50.55775, "on": "e4"},
        {"t": 50.68346, "off": "d1"},
        {"t": 52.07317, "on": "d1"},
        {"t": 52.57395, "on": "e3"},
        {"t": 53.26213, "snapshot": ["a1", "a7", "b6", "d1", "d3", "e3", "e4", "f2"]},
        {"t": 53.98532, "on": "e5"},
        {"t": 54.39576, "on": "c5"},
        {"t": 57.5},
    ]
    _replay_checked(LASKER, record, tail, record + " e3 c5")


def test_a_reply_whose_removal_was_made_before_the_turn_landed_is_not_read():
    """Seed 1, game 238: White lifts g4 and puts it back, lifts it again and carries it to g1
    over 2 s; Black's e4-f4 closes a mill (e4's lift lost). "g1 e4-f4xg4" leaves the same men,
    but g4 was empty before g1 was touched, so Black's removal would have come before the turn
    it answers: White's g4-g1, then Black's e4-f4 taking a7."""
    record = "e4 d3 c4 a7 a4 d3-e3 f6 d1 e4-e5 e3-e4 f2 g4 c3 d1-g1 a4-b4 e4-e3 f4xg1 d6 d3 d6-d5"
    record += " f4-e4 d6 c5xd5 d1 d5xe3"
    tail = [
        {"t": 98.10947, "off": "g4"},
        {"t": 98.78027, "on": "g4"},
        {"t": 99.62458, "off": "g4"},
        {"t": 101.78399, "on": "g1"},
        {"t": 101.80505, "off": "g1"},
        {"t": 101.83199, "on": "g1"},
        {"t": 102.40077, "on": "f4"},
        {"t": 102.47442, "off": "f4"},
        {"t": 102.60287, "on": "f4"},
        {"t": 102.63429, "off": "f6"},
        {"t": 102.68521, "snapshot": ["a7", "b4", "c3", "c4", "c5", "d1", "d3", "d5", "d6", "e5", "f2", "f4", "g1"]},
        {"t": 102.77018, "on": "f6"},
        {"t": 103.40884, "off": "f2"},
        {"t": 103.90151, "on": "f2"},
        {"t": 105.2, "off": "a7"},
        {"t": 108.0},
    ]
    _replay_checked(LASKER, record, tail, record + " g4-g1 e4-f4xa7")


TWELVE_COMPUTER = {"profile": "twelve", "white": "computer", "black": "human", "level": 2, "seed": 479}
BEFORE_MILL = "d6 b4 b6 g4 f6xg4 d2 g1 d7 f4 b2"  # the computer (White) is then prompted f2xb4


def test_the_computers_removal_made_first_and_the_point_filled_at_once_by_the_reply():
    """Seed 0, game 479: the hand carries out the computer's f2xb4 removal first (b4 off), puts
    the man on f2, and the human's own man lands on b4 0.1 s later. The board equals f2 with b4
    lifted and put back, the removal still to come; but b4 left before f2 was touched and was
    empty when f2's man came to rest: the removal is done, and b4 is Black's answer."""
    tail = [{"t": 55.2968, "off": "b4"}, {"t": 56.12529, "on": "f2"}, {"t": 56.22623, "on": "b4"}, {"t": 60.0}]
    _replay_checked(TWELVE_COMPUTER, BEFORE_MILL, tail, BEFORE_MILL + " f2xb4 b4")


def test_a_hand_hesitating_over_the_computers_removal_still_owes_it():
    """The same turn, the step first: b4 lifted after f2 landed and put back at once is a hand
    hesitating, not a removal answered; the removal is recorded when b4 really goes."""
    tail = [
        {"t": 55.3, "on": "f2"},
        {"t": 55.9, "off": "b4"},
        {"t": 56.05, "on": "b4"},
        {"t": 58.0, "off": "b4"},
        {"t": 61.0},
    ]
    _replay_checked(TWELVE_COMPUTER, BEFORE_MILL, tail, BEFORE_MILL + " f2xb4")
