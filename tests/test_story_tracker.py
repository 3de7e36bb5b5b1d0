"""The story decoder behind the ``Tracker`` API: the board's controller reads the game through it.

Each test plays on a board on the table (the real controller over virtual ends, in virtual time)
with ``StoryTracker`` as its tracker, and checks what a player sees: the record, the LEDs, the
corrections. The decoder commits a turn once its switches have been quiet for a second, so the
hands wait a little longer than the ``Tracker``'s tests do.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tracker_kit import MOVING, QUIET, Table

from morris_pi import replay
from morris_pi.core.ports import FirstLegalOpponent
from morris_pi.rules import POINTS, Game
from morris_pi.traces import heldout
from morris_pi.tracker import Tracker
from morris_pi.tracker.story_tracker import StoryTracker

#: Long enough for a turn's switches to be quiet and the turn committed.
SETTLED = 2.5
CORPUS = Path(__file__).parent / "data" / "traces"


def board(record: str = "", **kwargs: object) -> Table:
    return Table(record, tracker=StoryTracker, **kwargs)  # type: ignore[arg-type]


def test_a_placement_is_shown_at_once_and_recorded_once_quiet():
    table = board()
    table.on("d6")
    table.wait(0.7)
    assert table.lit("last-move") == {"d6"} and table.record == ""
    table.wait(SETTLED)
    assert table.record == "d6"
    assert table.games == ["d6"]


def test_a_lifted_man_shows_where_he_may_go_and_a_mill_shows_what_may_be_taken():
    table = board(MOVING)
    table.lift("a1", wait=0.1)
    assert table.lit("lifted") == {"a1"} and "d1" in table.lit("legal-target")
    table.put("d1", wait=1.0)
    assert table.lit("removable"), "the mill d1-d2-d3 lets a black man be taken"
    taken = sorted(table.lit("removable"))[0]
    table.lift(taken, wait=SETTLED)
    assert table.record == f"{MOVING} a1-d1x{taken}"


def test_a_man_lifted_during_a_removal_that_may_not_be_taken_keeps_its_own_signal():
    table = board(MOVING)
    table.move("a1", "d1")  # the mill d1-d2-d3: a black man is to be taken
    table.wait(0.5)
    table.lift("g1")  # white's own man: not one that may be taken
    assert table.problems == ["this man may not be taken: put it back on g1"]
    assert table.leds["g1"] == "protected" and table.record == MOVING
    table.put("g1")
    assert not table.problems
    table.lift("a7", wait=SETTLED)
    assert table.record == f"{MOVING} a1-d1xa7"


def test_the_computer_turn_is_prompted_once_the_human_turn_is_recorded_and_read_when_done():
    table = board(computer="black", opponent=FirstLegalOpponent())
    table.put("d6", wait=SETTLED)
    assert table.record == "d6"
    assert table.snap.computer == "a7" and table.lit("computer-to") == {"a7"}
    table.put("a7", wait=SETTLED)
    assert table.record == "d6 a7"
    assert table.snap.computer is None


def test_a_prompted_turn_carried_out_elsewhere_is_never_recorded():
    table = board(computer="black", opponent=FirstLegalOpponent())
    table.put("d6", wait=SETTLED)
    table.put("d7", wait=SETTLED)  # a legal black placement, but not the one prompted
    assert table.record == "d6"
    assert set(table.problems) == {"take the man off d7"}
    table.move("d7", "a7")
    table.wait(SETTLED)
    assert table.record == "d6 a7"
    assert not table.problems


def test_a_man_set_down_where_no_rule_lets_him_go_is_shown_to_be_put_back():
    table = board(QUIET)
    table.move("f2", "g4")  # f2 and g4 are not neighbours, and white does not fly
    table.wait(SETTLED)
    assert table.record == QUIET
    assert set(table.problems) == {"take the man off g4", "put a man back on f2"}
    table.move("g4", "f2")
    table.wait(SETTLED)
    assert not table.problems
    table.move("f2", "d2")
    table.wait(SETTLED)
    assert table.record == f"{QUIET} f2-d2"


def test_undo_takes_the_turn_back_and_guides_the_board_back_before_reading_on():
    table = board()
    for point in ("d6", "a1"):
        table.put(point, wait=SETTLED)
    assert table.record == "d6 a1"
    table.press("undo")
    assert table.record == "d6"
    assert table.problems == ["take the man off a1"]
    table.lift("a1", wait=SETTLED)
    assert not table.problems
    table.put("g7", wait=SETTLED)
    assert table.record == "d6 g7"


def test_a_new_game_waits_for_the_board_to_be_cleared():
    table = board()
    for point in ("d6", "a1"):
        table.put(point, wait=SETTLED)
    table.press("new")
    assert table.record == ""
    assert sorted(table.problems) == ["take the man off a1", "take the man off d6"]
    table.put("g7", wait=SETTLED)  # a man put down before the board is clear is no turn
    assert table.record == ""
    for point in ("d6", "a1", "g7"):
        table.lift(point)
    table.wait(SETTLED)
    assert not table.problems
    table.put("b4", wait=SETTLED)
    assert table.record == "b4"


def test_a_move_taken_back_by_hand_is_withdrawn_and_the_turn_made_again_recorded():
    table = board(QUIET)
    table.move("f2", "d2")
    table.wait(SETTLED)
    assert table.record == f"{QUIET} f2-d2"
    table.move("d2", "f2")  # white thinks again: the man goes back where he came from
    table.wait(1.5)
    assert table.lit("last-move") == {"c3"}, "the LEDs show the board put back at once"
    assert table.record == f"{QUIET} f2-d2", "but the record withdraws a turn only once sure"
    table.wait(15.0)
    assert table.record == QUIET
    assert [e for e in table.games] == [f"{QUIET} f2-d2", QUIET]
    table.move("e3", "d3")
    table.wait(SETTLED)
    assert table.record == f"{QUIET} e3-d3"


def test_a_board_given_up_on_reads_again_once_put_back_as_the_record_has_it():
    table = board(QUIET)
    table.lift("f2", wait=40.0)  # a man kept in the hand until no story can wait for him
    assert table.controller.tracker.decoder.stalled
    assert table.problems == ["put a man back on f2"]
    table.put("f2", wait=5.0)
    assert table.controller.tracker.decoder.stalled, "the record's position passed through is no restart"
    table.wait(6.0)
    assert not table.controller.tracker.decoder.stalled
    table.move("f2", "d2")
    table.wait(SETTLED)
    assert table.record == f"{QUIET} f2-d2"


def test_clearing_the_board_after_the_end_starts_a_new_game():
    table = board(MOVING)
    table.press("resign")
    assert table.snap.outcome is not None
    for point in Game.from_record(MOVING).board:
        table.off(point)
    table.wait(SETTLED)
    assert table.record == "" and table.snap.outcome is None
    table.put("d6", wait=SETTLED)
    assert table.record == "d6"


def test_the_tracker_asks_the_computer_in_the_record():
    tracker = Tracker(Game.from_record("d6"), computer="black")
    assert tracker.asked_in is tracker.confirmed


def replayed(trace: Path) -> list[dict]:
    out, err = io.StringIO(), io.StringIO()
    code = replay.run(trace.read_text().splitlines(), out, err, as_json=True, tracker=StoryTracker)
    assert code == 0, err.getvalue()
    return [json.loads(line) for line in out.getvalue().splitlines()]


def assert_read_exactly(name: str) -> None:
    """The frozen game ``name`` replays to its whole record, and no moment shows a turn nobody
    played."""
    trace = CORPUS / f"{name}.jsonl"
    expected = json.loads(trace.with_name(trace.stem + ".expected.json").read_text())
    rows = replayed(trace)
    assert heldout.judge(rows, expected) == "exact"
    assert heldout.shown_wrong(rows, expected) is None


@pytest.mark.parametrize("trace", sorted(CORPUS.glob("takeback-*.jsonl")), ids=lambda p: p.stem)
def test_games_with_turns_taken_back_by_hand_replay_exactly(trace: Path):
    """Frozen physical games with turns made and taken back by hand, read through the controller:
    the ``Tracker`` shows a turn nobody played in two of them."""
    assert_read_exactly(trace.stem)


def test_a_man_put_down_before_a_move_was_taken_back_is_not_read_as_the_turn_made_instead():
    """A real game against the computer: the human's move, a man held over an empty point and
    taken away, then the computer's capture of the moved man carried out and the point he came
    from filled at once. The board passes through the position before the move, but the man on
    the empty point came before it: the turn made instead of one taken back comes after it."""
    assert_read_exactly("story-a-man-put-down-before-a-move-was-taken-back-is-not-its-replacement")


def test_a_man_lifted_by_mistake_during_a_removal_is_not_read_as_the_man_taken():
    """A real game between two people: a mill closed, the man taken off at once, and another man
    lifted meanwhile, unseen, and put back seconds later. Until he is back, the board reads as
    well as "that man taken, and the man really taken lifted for the next move": but a man held
    in the hand that long is as unlikely as a carry that long, so the removal is not written wrong."""
    assert_read_exactly("story-a-wrong-man-lifted-unseen-during-a-removal-is-not-the-man-taken")


def test_a_man_the_mill_could_not_take_lifted_and_put_back_during_its_removal_is_the_removers():
    """A real game against the computer: a cycle of captures, each man placed on the point just
    emptied. White takes d7 before his man lands on c5; black's hand, carrying out the
    computer's answer, lifts its own a7 and puts him back before taking c5. "White took a7, and
    d7 was knocked off and back" explains every change too, and cost less while any man lifted
    and put back was a knock: the remover's wrong man first is likelier while a removal is due."""
    assert_read_exactly("story-a-man-lifted-and-put-back-during-a-removal-is-the-removers-not-a-knock-and-a-capture")


def test_the_computers_man_put_down_on_the_wrong_point_before_its_prompt_showed_is_a_wrong_guess():
    """A real game against the computer: black's hand puts the computer's man down on e3 while the
    board is still reading white's capture, then moves it to g4 when the LEDs show g4. Read as no
    mistake at all (a guess cannot misread a prompt not yet shown), it cost more than a man
    astray, and the reading where e3 was the computer's turn, never prompted there, won: the
    other man taken, a turn nobody played."""
    assert_read_exactly("story-the-computers-man-put-down-astray-before-its-prompt-showed-is-a-wrong-guess")


def test_the_computers_answer_on_the_point_just_emptied_is_not_read_as_a_takeback():
    """A real game against the computer: black captures by placing, and the computer's prompted
    answer puts its man back on the point just emptied and takes black's. Those are the switches
    a takeback of black's capture changes too; ranked as one, it held the game up at the
    eleventh of 131 turns."""
    assert_read_exactly("story-the-computers-answer-on-the-point-just-emptied-is-not-a-takeback-of-the-capture")


def test_a_capture_answered_on_the_point_just_emptied_between_two_people_is_not_a_takeback():
    """A real game between two people: white places and takes, and black answers by placing on
    the point just emptied and taking white's man, lifting it first. No later change tells that
    from white's capture taken back by hand, which held the game up at its twentieth of 123
    turns."""
    assert_read_exactly("story-a-capture-answered-on-the-point-just-emptied-between-two-people-is-not-a-takeback")


def test_noise_on_a_point_a_written_turn_changed_is_dropped_with_the_turn():
    """A real game against the computer: the human sets a man down on the point the computer's
    move just emptied, takes him up again and moves elsewhere. Kept after that move was written,
    the excursion was paid for again in every later story, and the computer's next move, onto
    that point, was never read."""
    assert_read_exactly("story-noise-on-a-point-a-written-turn-changed-is-dropped-with-it")


def test_the_capture_that_ends_the_game_is_written_once_the_board_stays_silent():
    """A real game against the computer ends in a cycle of captures: the last two also read as a
    man knocked and a man set down and taken up again, and nothing later can tell them apart.
    The silence after the last change is the next player's wait in the story where the game
    goes on, so the story that ends it is written and the result is the computer's win."""
    assert_read_exactly("story-the-last-capture-of-a-cycle-that-ends-the-game-is-written-once-the-board-is-silent")


def test_a_button_pressed_while_whose_man_is_whose_is_in_doubt_acts_on_the_reading_shown():
    """A real game between two people: two men land 37 ms apart, and no later placement tells
    whose is whose, so two readings of the game are carried. Then the side to move resigns.
    The record held only what both readings agreed on, and the resignation went to the other
    side with seven turns missing: a button acts on what the LEDs show, so that reading stands."""
    trace = CORPUS / "story-a-button-pressed-while-whose-man-is-whose-is-in-doubt-ends-the-reading-shown.jsonl"
    expected = json.loads(trace.with_name(trace.stem + ".expected.json").read_text())
    rows = replayed(trace)
    assert heldout.judge(rows, expected) == "exact"
    assert rows[-1]["outcome"] == {"winner": "black", "reason": "resignation"}


def test_the_computer_prompted_in_one_reading_is_prompted_in_every_reading_that_reaches_it():
    """A real game against the computer: a capture whose man taken is in doubt (one taken first,
    another knocked off and back), carried as two readings that meet in one position. The
    computer was asked there in the reading believed and prompted a1, and the hand put its man on
    f4 first. The other reading reached that position unasked: where it read f4 as the computer's
    own turn, it came out cheaper and its capture, on the wrong man, was written."""
    assert_read_exactly("story-a-prompt-asked-in-one-reading-binds-every-reading-that-reaches-its-position")


def test_a_turn_told_by_other_changes_is_not_agreed_and_a_cycle_of_captures_keeps_its_turns():
    """A real game against the computer: three cycles of captures on c5 and a7, each man placed
    on the point just emptied, two of the middle cycle's changes lost until a scan. One reading
    took the middle cycle for noise, another for two turns; both begin "c5xa7", made by other
    changes. Taken as agreeing on it (and as one reading once both committed it), the cheaper
    dropped what the other needed, and two turns were missing from the record."""
    assert_read_exactly("story-a-cycle-of-captures-read-as-noise-does-not-merge-with-the-cycle-read-as-turns")


def test_a_man_answering_a_capture_whose_lift_only_a_read_showed_was_lifted_after_the_capture():
    """A real game between two people: a mill closed and a7 taken; the victim's answer, d6-d7,
    had its lift lost, found by the board's read a tenth of a second before the landing. d6 last
    changed seconds earlier, and with the lift anywhere in those seconds "d6 taken, a7 moved to
    d7" was cheaper: the read that found it came within the board's resync of it."""
    assert_read_exactly("story-a-man-answering-a-capture-whose-lift-was-lost-was-lifted-after-it")


@pytest.mark.parametrize(
    "name",
    [
        # two men land 7 ms apart and the first is knocked off 64 ms later by the next player's
        # quick hand: still the first placed, not a man touched and placed later
        "story-a-man-knocked-at-once-after-two-land-together-is-still-the-first-placed",
        # a hand held over a point for a tenth of a second, and the computer's man put down two
        # seconds later: not the human's man placed there and knocked, with the computer's
        # turn carried out a sixth of a second after it, before the LEDs could prompt it
        "story-the-computers-man-put-down-at-once-after-the-humans-is-a-guess",
    ],
)
def test_placements_close_together_are_read_in_the_order_they_landed(name: str):
    assert_read_exactly(name)


@pytest.mark.parametrize(
    "name",
    [
        # the remover takes c3, puts him back and takes him again while the victim holds f2:
        # "f2 taken, c3 in the victim's hand" is the only good story for the moment before f2 is
        # put back, and is not written in that moment
        "story-a-man-the-remover-puts-back-and-takes-again-is-not-decided-before-the-victims-hand-is-still",
        # stories that held another man in the hand doubted "d2-d3" until a moment before it
        # became the only good one; it waits, and b2 set back reads d2-b2 and c3-d3
        "story-a-move-read-after-the-hand-held-another-man-waits-as-long-as-any-doubt",
        # two readings of which man was taken meet in one position and stay good for good: the
        # cheaper is written, though the other told another turn a moment ago (it still does)
        "story-two-readings-that-meet-are-written-though-one-was-doubted-a-moment-ago",
    ],
)
def test_a_turn_is_written_only_confirm_s_after_the_last_ranking_that_doubted_it(name: str):
    assert_read_exactly(name)


def test_a_capture_whose_answer_landed_unseen_is_not_read_as_a_nudge_whose_return_was_lost():
    """A real game against the computer: white takes g7; black's answer knocks g4 off and back
    and puts its man on g7, a landing only a scan 2.8 s after the capture showed, and white
    resigns. "g4 taken, g7 nudged with its return lost" cost a hundredth less than the truth while
    the nudge's return could be anywhere in those seconds; priced over the whole window, it costs
    more than the truth, and the resignation first lets the computer answer, so black's turn on
    the board is recorded."""
    assert_read_exactly("story-a-capture-whose-answer-landed-unseen-is-not-read-as-a-nudge-whose-return-was-lost")


def test_a_wrong_man_set_down_on_the_target_and_taken_back_leaves_the_move_readable():
    """A real game between two people (lasker): after c4-c5, black lifts d1, sets him down on c4
    for a second, takes him back and plays b4-c4. c4 opened, closed, opened and closed: the
    move's landing is its second closing. The scorer kept only the cheapest ways of reading a
    point's changes as noise, and each of those put the man's lift or landing on another change,
    so the true turns could not be told at all and "c5", a placement nobody made, was written."""
    assert_read_exactly("story-a-wrong-man-set-down-and-taken-back-before-the-move-is-not-read-as-a-placement")


def test_a_doubt_about_quick_placements_that_outlasts_a_ranking_is_carried_as_two_readings():
    """A real game between two people placing fast: c5 and c3 land 22 ms apart and c5 bounces
    off and back, so either may have been first, and the next placements come before that is
    settled. Soon there was too much to tell at once, and the catch-up on the board's first
    changes only wrote what every story agreed on: nothing, so the board waited at turn 3 for
    the rest of the game. Two readings are carried instead, and the game goes on to its end."""
    assert_read_exactly(
        "story-two-quick-placements-in-doubt-past-the-turns-a-ranking-tells-are-carried-as-two-readings"
    )


def test_a_capture_whose_point_is_placed_on_again_in_a_burst_is_written_from_the_first_changes():
    """A real game between two people (lasker): c4 closes a mill, e3 is taken a moment before,
    b6-b4 follows, then e5 and e3 land 8 ms apart and more turns within two seconds: too much to
    tell at once. Told on the board's first changes, c4xe3 was the only good story and its
    switches had long been quiet, but e3 showed a man again by then (the later placement), so
    the capture was never done and the board waited at turn 20 for the rest of the game."""
    assert_read_exactly("story-a-capture-whose-point-is-placed-on-again-amid-a-burst-is-written-from-the-first-changes")


def test_a_placement_whose_landing_only_a_scan_showed_is_read_before_the_next():
    """A real game between two people (no-flying): c3 hovers and its landing is lost; d7 lands
    2.7 s later and a scan 50 ms after it shows c3. The lost landing happened in the second
    before the scan; read after d7, only its last 50 ms fit, and that cost nothing, so "d7 c3"
    was written, each man the other player's."""
    assert_read_exactly("story-a-placement-whose-landing-only-a-scan-showed-is-not-read-after-the-next")


def test_a_man_taken_unseen_as_the_mill_closed_is_not_read_as_another_taken_later():
    """A real game against the computer (club): the human closes a mill on c3 and takes d7, an
    opening lost and shown by a scan 80 ms after the landing; the computer's man goes on d7 and
    g4 is knocked off and back. The take was priced only in the 80 ms after the landing, so
    "g4 taken 5.8 s later, the computer's man on g4" was written."""
    assert_read_exactly("story-a-man-taken-unseen-as-the-mill-closed-is-not-read-as-another-taken-later")


def test_a_computers_capture_whose_landing_only_a_scan_showed_may_have_come_after_its_take():
    """A real game against the computer (club): the human places b4, and the computer's g1xb4 is
    carried out taking b4 first, g1's landing lost and shown by a scan a second later. Priced as
    made in the 30 ms after the landing's earliest moment, the take was too quick for a hand, so
    b4 was read as a hand over the point and g1 as the human's placement."""
    assert_read_exactly("story-a-computers-capture-whose-landing-only-a-scan-showed-may-have-come-after-its-take")


def run_to(tracker: StoryTracker, until: float) -> None:
    """Every deadline the tracker names up to ``until``."""
    while (due := tracker.next_deadline()) is not None and due <= until:
        tracker.tick(due)


@settings(max_examples=15, deadline=None)
@given(
    st.lists(st.tuples(st.floats(0.05, 3.0), st.sampled_from([*POINTS, "undo", "draw", "menu"])), max_size=12),
    st.sampled_from([None, "black"]),
)
def test_any_hands_on_the_switches_leave_a_legal_record_and_never_break_the_board(
    toggles: list[tuple[float, str]], computer: str | None
) -> None:
    """Men lifted and set down anywhere, at any pace, and buttons pressed between: the board's
    loop never raises, and the record is always a game the rules allow."""
    tracker = StoryTracker(computer=computer)
    t, board = 0.0, 0
    tracker.update(board, t)
    for gap, what in toggles:
        t += gap
        run_to(tracker, t)
        if what in POINTS:
            board ^= 1 << POINTS.index(what)
            tracker.update(board, t)
        else:
            tracker.press(what, t)
    run_to(tracker, t + 30.0)
    record = tracker.confirmed.record
    assert Game.from_record(record).record == record
    assert tracker.state.confirmed.record == record
