"""Second generator games (``bench/second_hands.py``) where both players' hands overlap so far that
the board shows three turns at once, or a tie only the order of the lifts breaks.

Each case is cut from a game that stopped short (the tracker waited and never read the rest):
mess only on the turns that matter, cut off just after them. The replay must end on the game's
exact record, and no line may hold a turn nobody played (``_replays_exactly``).
"""

from __future__ import annotations

import pytest
from test_second_hands import load
from test_tracker_second_hands import _replays_exactly


@pytest.fixture(scope="module")
def second_hands():
    return load("second_hands")


def test_a_removal_refilled_at_once_and_the_next_placement_are_three_turns(second_hands):
    """Seed 1, game 144, standard: White's d1 closes a mill and takes a4; Black puts his next man
    on a4 at once, the landing lost, and a scan shows a4 full: the fewest turns read the removal
    as not yet made. Once White's c4 lands, only d1xa4, a4 and c4 are legal, and every change is
    backed (a4 emptied and, by the scan, filled again): the three are read together."""
    _replays_exactly(second_hands, 144, "standard", (8, 12), 13)


def test_three_whole_turns_with_both_hands_on_the_board(second_hands):
    """Seed 2, game 288, standard: Black's g7-g4 lands off-centre and flickers for a second while
    White has already lifted c3; White's man flickers on c4 while Black lifts e4 and puts it on
    e3. No moment shows fewer than three hands' work: g7-g4, c3-c4 and e4-e3 are read together,
    in the order the men left and landed (e4-e3 first would have g4's man come to stay before
    e3's was put down)."""
    _replays_exactly(second_hands, 288, "standard", (117, 119), 121, seed=2)


def test_which_man_was_taken_first_goes_by_when_the_turn_began(second_hands):
    """Seed 2, game 114, standard: Black takes e3 first, then puts his man on d5 (closing a mill,
    off-centre); White lifts f4 as d5's man still flickers and puts it on e4, and Black lifts a7.
    The same men read as d5xf4 and White's e3-e4, with e3's man held from before Black's man
    was even put down. The reply's man left after the first turn began (its removal made first):
    d5xe3 and f4-e4."""
    _replays_exactly(second_hands, 114, "standard", (5, 19), 20, seed=2)


def test_two_turns_and_a_removal_made_first_for_the_third(second_hands):
    """Seed 1, game 56, club: White's e4-e3 flickers on e3 for 1.3 s while Black carries f2 to d2
    (a sleeve knocks f4 off and back meanwhile), and White takes a7 for c5-c4xa7 before e3 keeps
    still. The board shows two whole turns and the third begun with its removal: e4-e3 and
    f2-d2 are read, and c5-c4xa7 from there."""
    _replays_exactly(second_hands, 56, "club", (144, 147), 149)
