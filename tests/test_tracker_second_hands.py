"""Traces of the second generator (``bench/second_hands.py``) the tracker once misread.

That generator was written apart from the tracker, from how hands, magnets and switches behave.
Each case is one of its games (of its 300-game run with seed 1, unless a seed is named) with
mess only on the turns that matter, cut off just after them; the replay must end on the game's
exact record, and no line may hold a turn nobody played.
"""

from __future__ import annotations

import json

import pytest
from test_second_hands import load
from test_tracker_soak_cases import assert_only_turns_of

from morris_pi.physical.files import replay_lines

MESS = 0.25


@pytest.fixture(scope="module")
def second_hands():
    return load("second_hands")


def _replays_exactly(second_hands, game: int, profile: str, window: tuple[int, int], turns: int, seed: int = 1) -> None:
    lines, expected, _ = second_hands.make_trace(
        f"{seed}:{game}", profile, second_hands.mess_levels(MESS, None, None), window, turns
    )
    code, rows, err = replay_lines([json.dumps(line) for line in lines])
    assert code == 0, err
    assert_only_turns_of(rows, str(expected["record"]))


def test_a_fast_move_while_the_last_man_still_flickers_off_centre(second_hands):
    """Game 16, lasker: Black's b2-d2 is put down off-centre and its switch flickers for 1.4 s;
    White lifts a4 0.2 s after the first touch and puts it on b4 while d2 still flickers, and a
    scan catches d2 open. Read as soon as b4 was firm, the board showed b2-b4 (d2 open, a4 in the
    hand), and the scan confirmed it. The board is read once d2 keeps still."""
    _replays_exactly(second_hands, 16, "lasker", (121, 122), 123)


def test_a_fast_move_onto_a_point_next_to_a_flickering_man(second_hands):
    """Game 143, twelve: White's b4-c5 flickers, and Black's d1-a1 lands 0.15 s later; read as
    White's b4-a1 while c5 was open."""
    _replays_exactly(second_hands, 143, "twelve", (57, 58), 59)


def test_a_man_knocked_off_beside_the_move_and_put_back(second_hands):
    """Game 27, no-flying: White takes b6 first, lifts g1, puts it back, lifts it again; a sleeve
    knocks White's own f4 off, g1's man lands on g4 and f4 goes back 1 s later: g1-g4xb6, not
    f4-g4 (which leaves g1 and b6 unexplained)."""
    _replays_exactly(second_hands, 27, "no-flying", (22, 22), 23)


def test_a_man_knocked_off_beside_a_move_while_placing_in_lasker(second_hands):
    """Game 64, lasker: the same shape while men are still in hand: c3-d3xb6 with d2 knocked off
    and put back, not d2-d3."""
    _replays_exactly(second_hands, 64, "lasker", (43, 43), 44)


def test_the_next_player_lifts_before_the_man_in_the_air_has_landed(second_hands):
    """Game 29, twelve: Black's c5-d5 is put down off-centre; White lifts a7 within half a
    second, and Black already lifts d7 for the next turn before White's man lands on a4. The
    board then holds two whole turns and a third begun: both are read, and the third from there.
    (Read as at most one turn and the next begun, the game stopped here.)"""
    _replays_exactly(second_hands, 29, "twelve", (69, 72), 74)


def test_three_hands_on_the_board_with_an_illegal_step_and_a_lost_landing(second_hands):
    """Game 20, club: a turn with an off-centre landing, a knocked man, an illegal step taken
    back and fast play, the next player lifting before the man landed, and a landing whose event
    was lost (a scan shows it)."""
    _replays_exactly(second_hands, 20, "club", (65, 68), 70)


def test_a_flicker_is_no_man_landed_and_taken(second_hands):
    """Game 140, club: Black's f6-d6 lands off-centre and d6 flickers for 1.2 s while White's
    b2-d2 closes a mill; White takes f4, then Black lifts d6 for the next turn. Read between two
    flickers, d6 looked filled and emptied: f6-d6 and b2-d2xd6, with f4 in the hand. The board is
    read once d6 keeps still: b2-d2xf4."""
    _replays_exactly(second_hands, 140, "club", (29, 30), 32)


def test_a_removal_and_a_refill_are_not_read_from_a_flicker(second_hands):
    """Game 281, twelve: White's d7-a7 closes a mill and White takes d1, while a4, where a man
    stands, flickers as a hand brushes it. Read while it flickered, a4 looked emptied and filled:
    d7-a7xa4 and Black's d1-a4."""
    _replays_exactly(second_hands, 281, "twelve", (48, 48), 50)


def test_a_man_flickering_where_no_begun_turn_can_go_holds_the_reading(second_hands):
    """Game 161, twelve: White flies g4 to a4, where the man flickers off-centre for 1.4 s;
    Black has lifted b2 and puts it on d2 meanwhile. Read at a moment a4 was open, White's man
    looked flown to d2 with Black's b2 in the hand, though b2 cannot go to a4: the man on a4
    was left unexplained. The board is read once a4 keeps still: g4-a4, then b2-d2."""
    _replays_exactly(second_hands, 161, "twelve", (30, 32), 34)


def test_a_touch_before_the_man_left_is_another_hand(second_hands):
    """Game 163, move-this: White's hand, hesitating, rests on g1 for half a second and leaves;
    White then lifts d3, carries it over d1 and g4 and puts it on g1 (off-centre), and Black
    takes f2 first before moving d6-d5. Because g1 was first touched before d3 was lifted, d3's man was taken as not
    carried there, and the board read as f2-g1 with d3 to be removed. A touch that was over
    before the man even left his point is not his."""
    _replays_exactly(second_hands, 163, "move-this", (33, 35), 37)


def test_which_man_was_taken_and_which_moved_goes_by_who_lifted_first(second_hands):
    """Game 247, move-this: White takes b2 first, then carries d2 to f2 (closing a mill); as
    f2's man lands, Black lifts d1 and puts it on d2. The same men also read as d2-f2xd1 and
    Black's b2-d2, with b2 held through White's whole turn. Both chains are backed by every
    change; the one whose reply was lifted after the turn it answers began is read (before, the
    tie left the game stopped)."""
    _replays_exactly(second_hands, 247, "move-this", (29, 30), 32)


def test_one_turn_with_the_next_begun_before_two_with_a_third_begun(second_hands):
    """Seed 2, game 80, club: White moves g7-g4 (the landing flickers) and a sleeve knocks
    White's g1 off and back; Black lifts f4 to fly before g4 is firm. Read as g1-g4 and Black's
    f4-g1 with White's g7 lifted for the next turn, two turns and a third begun, where one turn
    with the next begun explains the same changes: fewer hands are the likelier story."""
    _replays_exactly(second_hands, 80, "club", (158, 162), 164, seed=2)


def test_a_man_nudged_off_while_the_mill_man_still_flickers_is_no_removal_answered(second_hands):
    """Game 52, lasker: Black's b6 is put down off-centre and flickers for 0.7 s; the hand
    nudges d6 off for 118 ms meanwhile, and d1 is taken 1.4 s later. d6 was empty when b6's man
    first touched and full again before he came to rest: not Black's mill taking d6 answered at
    once by White's man on d6, but b6 waiting for its removal, b6xd1."""
    _replays_exactly(second_hands, 52, "lasker", (20, 20), 22)


def test_a_takeback_waits_for_the_hold_after_the_board_is_firm(second_hands):
    """Game 15, no-flying: White's c5-d5 lands with c5's lift lost, and White's sleeve knocks
    Black's d6 (the man Black just moved there from d5) off 0.4 s later. The switches then show
    d5 full, d6 empty and c5 still full: the board before Black's d5-d6, a takeback by hand. The
    scan that shows c5 empty came 1.04 s after d6 opened; the takeback was read 1 s after that
    opening, just before it, and the game then waited for good. The board must show the older
    position for the whole hold once it is firm: the scan comes first, and c5-d5 is read."""
    _replays_exactly(second_hands, 15, "no-flying", (26, 26), 28)


def test_a_flying_man_that_flickers_as_he_lands_arrived_at_his_first_touch(second_hands):
    """Game 116, club: Black flies e4-d6 and the man flickers off-centre on d6 for 0.25 s; White
    takes d7 first, 2 ms before d6's last closing, then closes the mill with d2-b2. Timed from
    d6's last (settled) closing, the removal looked made before Black's man arrived, so the
    chain was no reply and the game stopped; he arrived at his first touch after leaving e4."""
    _replays_exactly(second_hands, 116, "club", (49, 50), 51)


def test_a_man_moved_on_again_after_the_reply(second_hands):
    """Game 123, no-flying: White's b6-b4 flickers off-centre for a second while Black's g1-d1
    is made with the other hand; b4's man stands half a second, and White lifts him again for
    ``b4-b6`` just after d1's man came. The two turns are read as soon as he is lifted, and he
    is lit as the man in the hand with his targets, not as three corrections to make (the lift
    of a man the first turn put down was taken for a hover, and the game stopped)."""
    lines, expected, _ = second_hands.make_trace(
        "1:123", "no-flying", second_hands.mess_levels(MESS, None, None), (196, 199), 200
    )
    code, rows, err = replay_lines([json.dumps(line) for line in lines])
    assert code == 0, err
    assert_only_turns_of(rows, str(expected["record"]))
    in_hand = [row for row in rows if row["record"].endswith("b6-b4 g1-d1") and row["leds"].get("b4") == "lifted"]
    assert in_hand, "b4's man lifted for b4-b6 was never shown as the man in the hand"
    assert {"b6", "a4", "b2"} <= {p for p, role in in_hand[0]["leds"].items() if role == "legal-target"}
    assert not in_hand[0]["problems"]


def test_a_man_lifted_again_for_the_next_step_while_the_reply_is_in_the_air(second_hands):
    """Game 182, club: White's d1-a1 flickers for 0.66 s; Black lifts c4, and White lifts a1
    again for ``a1-a4`` before Black's man lands on c3. Once a4 holds a man only three turns
    explain the board, each change seen: ``d1-a1``, ``c4-c3``, ``a1-a4``."""
    _replays_exactly(second_hands, 182, "club", (48, 50), 51)


def test_three_whole_turns_the_third_closing_a_mill(second_hands):
    """Game 285, no-flying: the same with a mill: ``a1-a4`` (a4 flickers 0.75 s), ``e5-d5``,
    and ``a4-a7xf6``."""
    _replays_exactly(second_hands, 285, "no-flying", (39, 41), 42)


def test_a_long_run_of_turns_while_the_board_waits(second_hands):
    """Seed 2 game 60, standard: six turns while the board waits on a lost lift (d3 to e3 and
    back, b6 out and back); the first reading that fits (``c3-d3``, ``d2-d1``, d3 lifted) leaves
    out that d3 stood empty for seconds in between, and is not made."""
    _replays_exactly(second_hands, 60, "standard", (111, 117), 118, seed=2)


@pytest.mark.parametrize(
    ("seed", "game", "profile", "window", "turns"),
    [
        (1, 53, "twelve", (22, 24), 25),
        (2, 131, "twelve", (22, 24), 25),
        (2, 294, "standard", (16, 18), 19),
    ],
)
def test_a_hover_over_a_point_is_no_man_put_down_and_moved_on(second_hands, seed, game, profile, window, turns):
    """A hand hovering over a point before placing elsewhere touches it for about a tenth of a
    second (seed 1 game 53: c5 touched 94 ms, then c4 placed). That is no man put down there and
    lifted again for the next turn."""
    _replays_exactly(second_hands, game, profile, window, turns, seed=seed)
