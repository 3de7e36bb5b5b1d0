"""The story decoder on evidence written out by hand: what the switches did, what was read.

Each case is a physical situation at the board (a man carried over a point, a neighbour knocked,
a man flickering as it is put down, a mill and its removal), given as a static ``Evidence``.
"""

from __future__ import annotations

import dataclasses
import math
import re
from pathlib import Path

import pytest
from decoder_support import decoder_on, feed, mask, record_after, replay_steps, settle
from hypothesis import given, settings
from hypothesis import strategies as st
from tracker_kit import MOVING

from morris_pi.rules import POINTS, Game, Position, Turn
from morris_pi.tracker.decoder import StoryDecoder
from morris_pi.tracker.evidence import FOUND_S, Evidence, SwitchLog
from morris_pi.tracker.model import DEFAULT_MODEL, Model
from morris_pi.tracker.scoring import Scorer
from morris_pi.tracker.stories import explain, read_stories

#: Every man placed, no mill made: the moving phase begins with white to move.
PLACED = "e4 b6 f2 c4 e5 a7 d5 d6 b2 d7 g1 d1 f4 d3 a1 c5 g7 a4"


def best(position: Position, base: int, changes: dict[str, list[tuple[float, bool]]], now: float) -> str:
    stories = read_stories(position, Evidence.static(base, changes, now))
    assert stories, "no story explains the evidence"
    return str(stories[0])


def test_a_placement_is_one_closing() -> None:
    assert best(Position.start(), 0, {"d6": [(1.0, True)]}, 3.0) == "d6"


def test_a_magnet_carried_over_a_point_is_not_a_man_put_down() -> None:
    # black's placement at a4 comes in over a7: a7 closes for 40 ms on the way
    changes = {"a7": [(2.0, True), (2.04, False)], "a4": [(2.3, True)]}
    assert best(Game.from_record("d6").position, mask("d6"), changes, 4.0) == "a4"


def test_a_man_flickering_as_it_is_put_down_is_one_placement() -> None:
    flicker = [(1.0, True), (1.05, False), (1.09, True), (1.2, False), (1.23, True)]
    assert best(Position.start(), 0, {"g7": flicker}, 3.0) == "g7"


def test_a_nudged_neighbour_does_not_move() -> None:
    game = Game.from_record(PLACED)
    # white moves b2-b4; the sleeve nudges c4 off its switch for 80 ms on the way
    changes = {"b2": [(5.0, False)], "c4": [(5.3, False), (5.38, True)], "b4": [(5.8, True)]}
    occupied = mask(*game.board)
    assert best(game.position, occupied, changes, 8.0) == "b2-b4"


def test_a_mill_and_its_removal_are_one_turn() -> None:
    game = Game.from_record("d6 a1 f6 a4")
    changes = {"b6": [(1.0, True)], "a4": [(2.2, False)]}
    assert best(game.position, mask(*game.board), changes, 4.0) == "b6xa4"


def test_a_man_lifted_and_not_yet_put_down_is_a_turn_in_the_hand() -> None:
    game = Game.from_record(PLACED)
    stories = read_stories(game.position, Evidence.static(mask(*game.board), {"e4": [(5.0, False)]}, 6.0))
    assert str(stories[0]) == "(e4 lifted)"


def test_two_placements_in_a_row_are_read_in_the_order_they_landed() -> None:
    changes = {"d6": [(1.0, True)], "a1": [(2.5, True)]}
    assert best(Position.start(), 0, changes, 5.0) == "d6 a1"


def test_the_decoder_commits_turns_once_their_switches_are_quiet() -> None:
    d = StoryDecoder()
    feed(d, [(0.0, ()), (1.0, ("d6",)), (3.0, ("d6", "a1"))])
    assert d.record == "d6"  # a1 landed just now: not yet confirmed
    settle(d, 10.0)
    assert d.record == "d6 a1"


def test_a_knocked_man_still_off_its_switch_holds_the_record_back() -> None:
    # white places d3, black places c3 and knocks d3 off its switch; d3 comes back 1.4 s later.
    # While d3 is off, "c3 alone" and "d3, then c3" both explain the board: c3 is not written
    # until d3 is back, then both placements are, in their order.
    game = Game.from_record("d6 a1")
    d = StoryDecoder(game)
    base = ("d6", "a1")
    feed(d, [(0.0, base), (10.0, (*base, "d3")), (12.06, (*base,)), (12.31, (*base, "c3"))])
    settle(d, 13.6)
    assert d.record in ("d6 a1", "d6 a1 d3")
    feed(d, [(13.7, (*base, "c3", "d3"))])
    settle(d, 20.0)
    assert d.record == "d6 a1 d3 c3"


@settings(max_examples=30, deadline=None)
@given(st.lists(st.sampled_from(POINTS), min_size=1, max_size=4, unique=True), st.floats(0.5, 4.0))
def test_placements_played_cleanly_are_read_exactly(points: list[str], gap: float) -> None:
    d = StoryDecoder()
    feed(d, [(0.0, ())])
    shown: list[str] = []
    t = 1.0
    for p in points:
        shown.append(p)
        feed(d, [(t, tuple(shown))])
        t += gap
    settle(d, t + 5.0)
    assert d.record == " ".join(points)


def test_a_bounce_is_not_a_change() -> None:
    log = SwitchLog(0, 0.0)
    for t, m in [(1.0, 1), (1.0003, 0), (1.0006, 1), (1.001, 0), (1.0013, 1)]:
        log.feed(m, t)
    assert len(log.evidence(2.0).points[0].changes) == 1


def test_a_change_only_a_scan_showed_is_bounded_by_the_read_before_it_when_every_read_is_kept() -> None:
    """A board that reads every switch on a clock, with each read in the record: the change the
    read at 8 s found happened since the read at 5 s."""
    log = SwitchLog(0, 0.0)
    for t in (2.0, 5.0):
        log.feed(0, t, full=True)
    log.feed(mask("d6"), 8.0, full=True)
    change = log.evidence(8.0).points[POINTS.index("d6")].changes[0]
    assert (change.lo, change.t, change.seen) == (5.0, 8.0, False)


def test_a_change_only_a_scan_showed_happened_within_the_boards_resync_when_only_finding_reads_are_kept() -> None:
    """A record that shows a read only when it found something (a read at 2 s, the next at 9 s,
    off the pace): the board read every switch in between, so the change happened within its
    resync of the read that found it, not at any moment since 2 s."""
    log = SwitchLog(0, 0.0)
    log.feed(0, 2.0, full=True)
    log.feed(mask("d6"), 9.0, full=True)
    change = log.evidence(9.0).points[POINTS.index("d6")].changes[0]
    assert (change.lo, change.t) == (9.0 - FOUND_S, 9.0)


def test_a_man_back_on_his_point_only_by_a_scan_was_knocked_not_nudged() -> None:
    """Off for 80 ms a man was brushed by a hand; back only at a scan 2.8 s later, he was off
    for seconds (the board's resync found him back within one of them), as a knocked man is."""
    position = Game.from_record("d6").position
    brushed = SwitchLog(mask("d6"), 0.0)
    brushed.feed(0, 1.0)
    brushed.feed(mask("d6"), 1.08)
    scanned = SwitchLog(mask("d6"), 0.0)
    scanned.feed(0, 1.0)
    scanned.feed(mask("d6"), 3.8, full=True)
    roles = []
    for log in (brushed, scanned):
        evidence = log.evidence(5.0)
        story = read_stories(position, evidence)[0]
        assert str(story) == ""  # no turn either way
        roles.append(next(p.role for p in explain(evidence, story) if p.where == "d6#0"))
    assert roles == ["nudge", "knock"]


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from([f.name for f in dataclasses.fields(Model) if f.type == "Duration"]),
    st.floats(0.0, 6.0),
    st.floats(0.0, 6.0),
    st.floats(0.0, 6.0),
)
def test_a_duration_with_an_unseen_end_costs_no_less_than_its_role_and_more_the_wider_it_is(
    name: str, lo: float, hi: float, wider: float
) -> None:
    """However wide the window an unreported change leaves, its duration costs at least its
    role's prior; as the window closes it costs what a seen one does; and a window widened on
    the side away from the most likely duration only grows dearer."""
    duration = getattr(DEFAULT_MODEL, name)
    lo, hi = min(lo, hi), max(lo, hi)
    cost = duration.cost_between(lo, hi)
    assert cost >= duration.prior
    if hi - lo < 1e-3:
        assert cost == pytest.approx(duration.cost((lo + hi) / 2))
    if lo >= duration.median * 1.01:
        assert duration.cost_between(lo, hi + wider) >= cost - 1e-9


def test_a_board_that_polls_every_switch_sees_each_change_as_it_happens() -> None:
    # the service reads every switch each scan: a change there is seen, not lost since the last
    # scan, and its contact bounce is dropped as a reported change's is
    log = SwitchLog(0, 0.0)
    for t, m in [(1.0, 1), (1.0003, 0), (1.0006, 1), (1.001, 0), (1.0013, 1), (5.0, 0)]:
        log.feed(m, t, full=True, seen=True)
    changes = log.evidence(6.0).points[0].changes
    assert [(round(c.t), c.seen) for c in changes] == [(1, True), (5, True)]


@pytest.mark.parametrize("profile", ["standard", "twelve", "lasker"])
def test_the_decoder_starts_from_the_profile(profile: str) -> None:
    d = StoryDecoder(profile=profile)
    feed(d, [(0.0, ()), (1.0, ("d6",))])
    settle(d, 5.0)
    assert d.record == "d6" and d.game.position.profile.name == profile


def test_placements_quicker_than_the_board_are_read_in_the_order_they_landed() -> None:
    # both players place at once, four men within half a second, with a slide over c3 on the way:
    # more turns than a story tells at first, so longer stories are told before anything is written
    d = StoryDecoder()
    feed(d, [(0.0, ()), (6.29, ("f2",)), (6.41, ("f2", "c3")), (6.46, ("f2",)), (6.76, ("f2", "c4"))])
    feed(d, [(6.81, ("f2", "c4", "b4")), (6.85, ("f2", "c4", "b4", "d6")), (8.8, ("f2", "c4", "b4", "d6", "d1"))])
    settle(d, 40.0)
    assert d.record == "f2 c4 b4 d6 d1"


def test_what_a_story_costs_is_the_sum_of_its_parts() -> None:
    game = Game.from_record(PLACED)
    changes = {"b2": [(5.0, False)], "c4": [(5.3, False), (5.38, True)], "b4": [(5.8, True)], "d3": [(7.0, False)]}
    evidence = Evidence.static(mask(*game.board), changes, 8.0)
    for story in read_stories(game.position, evidence):
        parts = explain(evidence, story)
        assert sum(p.cost for p in parts) == pytest.approx(story.cost)
        assert {p.role for p in parts} >= {"turn"}
    top = read_stories(game.position, evidence)[0]
    assert [p.role for p in explain(evidence, top) if p.role in ("nudge", "carry")] == ["nudge", "carry"]


#: Points of ``PLACED`` that hands reach for in a few seconds of play: men that may move or be
#: nudged, and empty points they may land on.
REACHED = ("b2", "c4", "b4", "d3", "c3", "e4", "e3", "a4", "a1", "d2")


@settings(max_examples=60, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(REACHED),
        st.lists(st.floats(0.5, 8.0, allow_nan=False), min_size=1, max_size=4, unique=True),
        min_size=1,
        max_size=5,
    )
)
def test_each_story_costs_what_it_costs_scored_alone(times: dict[str, list[float]]) -> None:
    # One scorer prices every chain of a ranking and keeps what a point's reading adds across
    # them: a chain must cost what it costs priced on its own, whatever was scored before it.
    game = Game.from_record(PLACED)
    men = set(game.board)
    changes = {p: [(t, (p not in men) == (k % 2 == 0)) for k, t in enumerate(sorted(ts))] for p, ts in times.items()}
    evidence = Evidence.static(mask(*men), changes, 9.0)
    for story in read_stories(game.position, evidence):
        final = game.position
        for turn in story.turns:
            final = final.play(turn)
        alone = Scorer(evidence, DEFAULT_MODEL).score(story.turns, story.pending, final)
        assert alone is not None
        assert (alone.cost, alone.matched) == (story.cost, story.matched)
        # A ranking prices a chain out before weighing its hands when its points alone cost more
        # than the ranking still keeps: a chain costing exactly that much must not be lost so.
        kept = Scorer(evidence, DEFAULT_MODEL).score(story.turns, story.pending, final, ceiling=story.cost)
        assert kept is not None
        assert (kept.cost, kept.matched) == (story.cost, story.matched)


def test_a_known_line_keeps_only_the_stories_that_follow_it() -> None:
    # a7 closes for 40 ms as black's man comes in: the cheapest story calls it a slide, the line
    # says a7 was placed and taken at once, and only stories that follow the line are told
    game = Game.from_record("d6")
    evidence = Evidence.static(mask("d6"), {"a7": [(2.0, True), (2.04, False)], "a4": [(2.3, True)]}, 4.0)
    line = [Turn.parse("a4").to_raw()]
    assert [str(s) for s in read_stories(game.position, evidence, line=line)][:1] == ["a4"]
    assert all(str(s).startswith("a4") or not s.turns for s in read_stories(game.position, evidence, line=line))


def test_a_man_is_not_put_down_and_taken_in_the_same_moment() -> None:
    # Black's man comes in over a7 (closed for 40 ms) to b6. "Black placed a7, White's b6 took it
    # first" explains the same changes, but the man would have stood 40 ms: nobody takes a man
    # that fast, so it is no good story.
    game = Game.from_record("d6 a1 f6")
    evidence = Evidence.static(mask("d6", "a1", "f6"), {"a7": [(1.0, True), (1.04, False)], "b6": [(1.8, True)]}, 4.0)
    stories = [str(s) for s in read_stories(game.position, evidence)]
    assert stories[0] == "b6"
    assert "a7 b6xa7" not in stories


def test_a_story_says_how_long_a_man_stood_before_he_moved_on() -> None:
    # white b2-b4, black d1-d2, white b4-b2: the man stood on b4 for 6.2 s, which costs nothing
    game = Game.from_record(PLACED)
    changes = {"b2": [(5.0, False), (12.8, True)], "b4": [(5.8, True), (12.0, False)], "d1": [(9.0, False)]}
    changes["d2"] = [(9.6, True)]
    evidence = Evidence.static(mask(*game.board), changes, 15.0)
    top = read_stories(game.position, evidence)[0]
    assert str(top) == "b2-b4 d1-d2 b4-b2"
    stands = [p for p in explain(evidence, top) if p.role == "stand"]
    assert [(p.where, round(p.lo, 1), p.cost) for p in stands] == [("b4, turns 1-3", 6.2, 0.0)]


def test_the_next_player_may_lift_long_before_the_mover_lands() -> None:
    # white carries b2 to b4 over 2.2 s; black lifts d1 1.9 s before that man lands, then d1-d2
    game = Game.from_record(PLACED)
    d = StoryDecoder(game.copy())
    board = set(game.board)
    steps = [(5.0, "b2", False), (5.3, "d1", False), (7.2, "b4", True), (7.8, "d2", True)]
    feed(d, [(0.0, tuple(board))])
    for t, point, closed in steps:
        board = board | {point} if closed else board - {point}
        feed(d, [(t, tuple(board))])
    settle(d, 20.0)
    assert d.record == f"{PLACED} b2-b4 d1-d2"


def test_a_change_no_turn_explains_for_long_ends_the_reading() -> None:
    # white lifts e4 and holds it: "e4 lifted" is all any story can say, and nothing is written;
    # once the next look comes more than half a minute on, the board waits for good and names no
    # deadline
    game = Game.from_record(PLACED)
    d = StoryDecoder(game.copy())
    board = tuple(game.board)
    feed(d, [(0.0, board), (5.0, tuple(p for p in board if p != "e4"))])
    settle(d, 30.0)
    assert not d.stalled and d.record == PLACED
    settle(d, 60.0)
    assert d.stalled and d.record == PLACED and d.next_deadline() == float("inf")


def test_stories_that_meet_in_one_position_are_decided_by_what_they_cost() -> None:
    # white g7-g4 closes a mill and takes d1, whose report is lost (a scan shows d1 empty); black
    # lifts d3 and moves it to d2. "g7-g4xd3, d1-d2" explains every change too, and as d1's lift
    # is known only to have come before the scan, neither reading has black's hand begin before
    # the removal. Both leave the same men on the same points: no later change can tell them
    # apart, so waiting is no use and the cheaper story is written
    d, board = decoder_on(Game.from_record(PLACED), 0.0)
    replay_steps(d, board, [(5.0, "-g7"), (5.9, "+g4"), (8.18, "-d3"), (8.5, "scan -d1"), (8.8, "+d2")])
    settle(d, 9.6)
    assert [str(s) for s in d.stories][:2] == ["g7-g4xd1 d3-d2", "g7-g4xd3 d1-d2"]
    settle(d, 30.0)
    assert d.record == f"{PLACED} g7-g4xd1 d3-d2"


def test_a_turn_begun_before_the_mills_removal_is_not_read() -> None:
    # white g7-g4 closes a mill and takes d1; black lifts d3 0.18 s later and moves it to d2.
    # "g7-g4xd3, d1-d2" explains every change too, but has black lift d1 before white took d3:
    # the other side waits to see which man is taken, so that reading is beyond the margin
    game = Game.from_record(PLACED)
    steps = [(5.0, "g7", False), (5.9, "g4", True), (8.0, "d1", False), (8.18, "d3", False), (8.8, "d2", True)]
    changes = {p: [(t, closed)] for t, p, closed in steps}
    evidence = Evidence.static(mask(*game.board), changes, 11.0)
    stories = read_stories(game.position, evidence)
    assert [str(s) for s in stories] == ["g7-g4xd1 d3-d2"]
    swapped = read_stories(game.position, evidence, prefix=[Turn.parse(t).to_raw() for t in ("g7-g4xd3", "d1-d2")])
    assert "before the removal" in [p.role for p in explain(evidence, swapped[0])]


def test_a_point_just_emptied_is_not_filled_at_once_by_the_other_hand() -> None:
    # white's b6 closes a mill and takes a4; the remover's sleeve knocks a1 off his switch for
    # 0.4 s, and black places on a4 1.5 s after it was emptied. "b6xa1 a1" meets the same position
    # and explains every change as well (a4 knocked for 1.5 s), but it has black's man land on a1
    # 0.4 s after white's hand took a man off it: the remover has barely cleared the point (and
    # a4 lies off his point across both turns)
    game = Game.from_record("d6 a1 f6 a4")
    changes = {"b6": [(1.0, True)], "a4": [(2.0, False), (3.5, True)], "a1": [(2.05, False), (2.45, True)]}
    stories = read_stories(game.position, Evidence.static(mask(*game.board), changes, 6.0))
    assert [str(s) for s in stories][:1] == ["b6xa4 a4"]
    evidence = Evidence.static(mask(*game.board), changes, 6.0)
    turns = tuple(Turn.parse(t).to_raw() for t in ("b6xa1", "a1"))
    mirror = Scorer(evidence, DEFAULT_MODEL).score(turns, None, game.position.play(turns[0]).play(turns[1]))
    assert mirror is not None
    assert {p.role for p in explain(evidence, mirror)} >= {"clear", "left off"}
    clear = [p for p in explain(Evidence.static(mask(*game.board), changes, 6.0), stories[0]) if p.role == "clear"]
    assert [round(p.lo, 2) for p in clear] == [1.5]


def test_a_man_is_not_knocked_off_by_the_hand_that_just_put_him_down() -> None:
    # black's man comes in over b4 (closed 57 ms) and d3 to c4; white places b4 0.8 s later.
    # "black placed b4, knocked it off at once, white placed c4, b4 went back" would need a hand
    # to reach b4 within 57 ms of its landing: it is no good story
    game = Game.from_record("g7 c3 c5")
    changes = {
        "b4": [(18.255, True), (18.312, False), (19.623, True)],
        "d3": [(18.586, True), (18.698, False)],
        "c4": [(18.787, True)],
    }
    evidence = Evidence.static(mask(*game.board), changes, 21.0)
    stories = [str(s) for s in read_stories(game.position, evidence)]
    assert stories[0] == "c4 b4"
    assert "b4 c4" not in stories


def test_a_burst_longer_than_the_turns_told_is_followed_to_its_end() -> None:
    # both players keep reaching at once: seven men land within a second, more turns than any
    # story tells, and the good stories are followed further from their beginnings
    points = ["a1", "g7", "d1", "d7", "b4", "d2", "f4"]
    d = StoryDecoder()
    feed(d, [(0.0, ())])
    for k in range(len(points)):
        feed(d, [(2.0 + 0.14 * k, tuple(points[: k + 1]))])
    settle(d, 40.0)
    assert d.record == " ".join(points)


def test_stories_may_be_told_from_a_given_beginning() -> None:
    game = Game.from_record("d6")
    evidence = Evidence.static(mask("d6"), {"a4": [(2.3, True)], "g7": [(4.0, True)]}, 6.0)
    head = (Turn.parse("a4").to_raw(),)
    stories = read_stories(game.position, evidence, prefix=head)
    assert stories and all(s.turns[:1] == head for s in stories)
    assert str(stories[0]) == "a4 g7"


def test_a_magnet_over_one_point_while_a_man_lands_on_another_is_a_second_hand() -> None:
    # white places c5, black places f4 22 ms later, and black's sleeve knocks c5 off its switch
    # 115 ms after that; c5 lies off for a second. "c5 was a magnet passing over, f4 the only
    # turn" needs a magnet over c5 while f4's man was put down: a second hand, so it is no longer
    # the only good story, and f4 is not written alone while c5 is off
    d = StoryDecoder()
    feed(d, [(0.0, ()), (7.790, ("c5",)), (7.812, ("c5", "f4")), (7.927, ("f4",))])
    settle(d, 9.6)
    assert d.record == ""
    evidence = Evidence.static(0, {"c5": [(7.790, True), (7.927, False)], "f4": [(7.812, True)]}, 9.6)
    alone = next(s for s in read_stories(Position.start(), evidence) if str(s) == "f4")
    parts = explain(evidence, alone)
    assert [p.where for p in parts if p.role == "second hand"] == ["c5 while f4"]
    assert sum(p.cost for p in parts) == pytest.approx(alone.cost)


def test_a_man_settling_after_his_landing_was_written_is_still_settling() -> None:
    # f4's man landed at 1.0 and was written; he rattles on his switch 20 ms later. Read from the
    # written position, the rattle is the landing settling (a flicker), not a neighbour nudged
    game = Game.from_record("f4")
    log = SwitchLog(0, 0.0)
    log.feed(mask("f4"), 1.0)
    log.feed(0, 1.02)
    log.feed(mask("f4"), 1.031)
    log.rebase(mask("f4"), [2 if p == "f4" else 0 for p in POINTS], 1.0)
    evidence = log.evidence(3.0)
    stories = read_stories(game.position, evidence)
    assert stories and stories[0].turns == ()
    roles = [part.role for part in explain(evidence, stories[0])]
    assert "flicker" in roles and "nudge" not in roles


def test_a_man_that_landed_just_before_the_written_position_has_stood_only_briefly() -> None:
    # white's f4-f6 was written as f6 landed; black's mill b6-b4 takes f6 0.8 s after it landed:
    # the story prices how long f6 stood, as it would had both turns been read together
    game = Game.from_record(f"{PLACED} f4-f6")
    start = mask(*Game.from_record(PLACED).board)
    f4, f6, b6, b4 = (mask(p) for p in ("f4", "f6", "b6", "b4"))
    log = SwitchLog(start, 0.0)
    log.feed(start - f4, 0.5)
    log.feed(start - f4 + f6, 1.0)
    log.rebase(mask(*game.board), [0] * len(POINTS), 1.0)
    for t, occupied in ((1.05, start - f4 + f6 - b6), (1.3, start - f4 + f6 - b6 + b4), (1.8, start - f4 - b6 + b4)):
        log.feed(occupied, t)
    evidence = log.evidence(4.0)
    story = read_stories(game.position, evidence)[0]
    assert str(story) == "b6-b4xf6"
    stand = [part for part in explain(evidence, story) if part.role == "stand"]
    assert [round(part.lo, 3) for part in stand] == [0.8] and stand[0].cost > 0


def test_a_man_put_back_is_let_go_before_another_hand_lifts_him() -> None:
    # white's mill g7-g4 takes c5; black lifts b6 and flies it to f2, and the hand passes over
    # the empty c5 (closed 15 ms). "g7-g4xb6, and c5 knocked off for half a second, put back and
    # lifted 15 ms later to fly to f2" would need the hand that put c5 back to let go and another
    # to lift him at once: the man taken is c5
    game = Game.from_record(
        "f4 d3 f6 d6 e4 b2 g4xd3 a4 c3 b6 f2xb2 e5 d2 d1 b2xa4 e3 a1xe5 d3 a4 b4 a7xd1 c5 c4 e5 g4-g7 "
        "d6-d5xc4 g7-g4xe3 d3-e3 a1-d1 c5-c4 a4-a1xc4 e3-d3 g4-g7 d5-c5 f2-g1xd3 b4-c4",
        "twelve",
    )
    changes = {
        "g7": [(169.883, False)],
        "g4": [(171.011, True)],
        "c5": [(173.097, False), (173.649, True), (173.664, False)],
        "b6": [(173.276, False)],
        "f2": [(174.770, True)],
    }
    evidence = Evidence.static(mask(*game.board), changes, 175.0)
    stories = read_stories(game.position, evidence)
    assert str(stories[0]) == "g7-g4xc5 b6-f2"
    moved = [s for s in stories if str(s) == "g7-g4xb6 c5-f2"]
    assert not moved or moved[0].cost > stories[0].cost + 1


def test_a_man_put_back_is_let_go_before_the_same_hand_lifts_another() -> None:
    # white's b6 closes a mill and takes a4; black's man is placed on a4 0.9 s later, and that
    # hand's sleeve knocks a1 off his switch 35 ms after, for a second. "b6xa1 a1" explains every
    # change as well (a4 knocked and put back), but the hand that put a4 back would have lifted a1
    # 35 ms later: a second hand, so it is no longer a good story
    game = Game.from_record("d6 a1 f6 a4")
    changes = {"b6": [(1.0, True)], "a4": [(2.0, False), (2.9, True)], "a1": [(2.935, False), (4.0, True)]}
    evidence = Evidence.static(mask(*game.board), changes, 6.0)
    stories = [str(s) for s in read_stories(game.position, evidence)]
    assert stories[0] == "b6xa4 a4"
    assert "b6xa1 a1" not in stories
    story = read_stories(game.position, evidence, prefix=(Turn.parse("b6xa1").to_raw(),), ceiling=1e9)[0]
    put_back = [(p.where, round(p.lo, 3)) for p in explain(evidence, story) if p.role == "put back"]
    assert put_back == [("a4", 0.035)]


def test_a_man_nudged_slides_back_without_a_hand() -> None:
    # a sleeve brushes d6's man off his switch for 0.1 s and he slides back; 0.1 s later a hand
    # knocks him off for a second. No hand put him down when he slid back, so the knock is not
    # priced as a hand reaching him just after it let go of him
    game = Game.from_record("d6 a1 f6 a4")
    changes = {"d6": [(2.0, False), (2.1, True), (2.2, False), (3.2, True)]}
    evidence = Evidence.static(mask(*game.board), changes, 6.0)
    story = read_stories(game.position, evidence)[0]
    assert story.turns == ()
    roles = {p.role: p.cost for p in explain(evidence, story)}
    assert roles["knock"] == pytest.approx(DEFAULT_MODEL.knock.cost(1.0))


def test_a_man_lifted_early_is_read_though_his_point_chatters_after() -> None:
    # white's f2-e3; black lifts e4, sets him down on f2 (not a legal target), where he chatters
    # on the switch and rests for seconds, takes him back to e4 and then moves e4-e5. Read as noise
    # alone, f2's changes are cheapest as a man standing there and knocked about, with his lift
    # the last opening, after e3 had landed: the lift at the first opening must still be tried
    game = Game.from_record(
        "b6 f4 c3 a4 d3 d2 g7 f2 e4 d1 d6 b2xd3 e3 a1 b4 a7xb4 d3xf4 d5 g4 c4 f4xd5 e5 b4 d5 g7-d7 "
        "c4-c5xb4 g4-g7 c5-c4 b6-b4 d5-c5 f4-f6 f2-f4 d6-d5 f4-g4 b4-b6 c4-b4 c3-c4 g4-f4 d3-c3 "
        "d1-g1 f6-d6xb2 g1-d1 d6-f6 d2-d3 c3-b2 d3-c3 b6-d6xc3 d1-g1 e3-f2 g1-d1 b2-d2 b4-b2 c4-c3 "
        "c5-c4 d5-c5 d1-g1 d6-b6 g1-d1 f2-g1 e5-d5 b6-b4 f4-f2 d2-d3 a7-b6 f6-f4",
        "twelve",
    )
    chatter = [2.697, 2.842, 2.889, 2.998, 3.077, 3.191, 3.256, 3.292, 3.356, 3.5, 3.578, 3.679, 3.79, 3.83, 3.939]
    changes = {
        "f2": [(1.0, False), *((t, k % 2 == 0) for k, t in enumerate(chatter)), (6.675, False)],
        "e3": [(2.155, True)],
        "e4": [(2.216, False), (7.177, True), (8.301, False)],
        "e5": [(8.998, True)],
        "d1": [(9.428, False), (11.274, True), (11.89, False)],
        "d2": [(1.839, True), (1.959, False), (12.49, True)],
    }
    evidence = Evidence.static(mask(*game.board), changes, 14.0)
    line = [Turn.parse(word).to_raw() for word in ("f2-e3", "e4-e5", "d1-d2")]
    stories = read_stories(game.position, evidence, line=line, turns=3)
    assert [str(s) for s in stories[:1]] == ["f2-e3 e4-e5 d1-d2"]


def test_men_put_down_after_the_last_turn_told_are_left_for_a_longer_story() -> None:
    # seven placements, and g7's man (the second) is knocked off his switch at the end. A story of
    # five turns leaves the last two men unexplained and g7's knock going on: three excursions not
    # over yet. It must still be told, or the stories followed further all begin without g7
    changes = {
        "d5": [(1.0, True)],
        "g7": [(1.018, True), (18.5, False)],
        "d3": [(4.0, True)],
        "d1": [(14.0, True)],
        "d6": [(14.05, True)],
        "c4": [(17.0, True)],
        "f4": [(17.03, True)],
    }
    stories = read_stories(Position.start(), Evidence.static(0, changes, 18.5), turns=5)
    assert str(stories[0]) == "d5 g7 d3 d1 d6"


def test_a_man_set_down_astray_and_put_back_is_not_a_move() -> None:
    # white's a1-a4 closes a mill and takes f4. Black lifts g1 170 ms later, sets him down on f6
    # (not a point g1 may go to), leaves him there 2.7 s, puts him back on g1 and then plays
    # g1-g4. "a1-a4xg1 f4-f6" fits the switches too, but has black lift f4 before white took g1
    # (the other side waits to see which man is taken): the removal of f4 is written while the
    # man stands astray, and the man astray is never read as black's move
    game = Game.from_record(
        "f4 e3 d5 g4 d1 a1 e5 g7 c5xg7 a4 f6 b4 f2xa1 c3 g7xg4 b6 g1 d3xg1 b2 e4 g1 c4xd1 d2xb6 d1 "
        "f6-d6 d1-a1 g7-d7xa1 a4-a1 d2-d1 a1-a4xb2 g1-g4 a4-a1 g4-g1",
        "twelve",
    )
    before = game.record
    d = StoryDecoder(game)
    board = set(game.board)
    steps = [
        (181.682, "-a1"),
        (183.07, "+a4"),
        (183.177, "-a4"),
        (183.188, "+a4"),
        (183.968, "-f4"),
        (184.138, "-g1"),
        (185.130, "+f6"),
        (187.795, "-f6"),
        (188.625, "+g1"),
        (189.816, "-g1"),
        (190.961, "+f4"),
        (191.034, "-f4"),
        (191.188, "+g4"),
    ]
    events = [(181.0, tuple(board))]
    for t, step in steps:
        (board.add if step[0] == "+" else board.discard)(step[1:])
        events.append((t, tuple(board)))
    feed(d, events[:8])
    settle(d, 187.7)
    assert d.record == before + " a1-a4xf4"
    assert d.best is not None and d.best.stray == (POINTS.index("g1"), POINTS.index("f6"))
    feed(d, events[8:])
    settle(d, 196.0)
    assert d.record == before + " a1-a4xf4 g1-g4"


def test_a_man_set_down_astray_is_one_mistake_while_he_stands_there() -> None:
    # white plays b2-b4; black lifts d1 and sets him down on c3, where no turn lets him go, and
    # leaves him there. That is one mistake still on the board, not a knock and a drop apart: the
    # story prices it as such, white's turn is written, and nothing of black's is
    game = Game.from_record(PLACED)
    changes = {"b2": [(5.0, False)], "b4": [(5.8, True)], "d1": [(7.0, False)], "c3": [(7.4, True)]}
    evidence = Evidence.static(mask(*game.board), changes, 8.4)
    story = read_stories(game.position, evidence)[0]
    assert str(story) == "b2-b4" and story.stray == (POINTS.index("d1"), POINTS.index("c3"))
    parts = explain(evidence, story)
    assert sum(p.cost for p in parts) == pytest.approx(story.cost)
    assert [p.where for p in parts if p.role == "astray"] == ["d1 to c3"]
    d = StoryDecoder(game.copy())
    board = set(game.board)
    feed(d, [(0.0, tuple(board))])
    steps = [(5.0, "-b2"), (5.8, "+b4"), (7.0, "-d1"), (7.4, "+c3"), (9.4, "-c3"), (9.9, "+d1")]
    steps += [(11.0, "-d1"), (11.6, "+d2")]
    for t, step in steps:
        (board.add if step[0] == "+" else board.discard)(step[1:])
        feed(d, [(t, tuple(board))])
        if t == 7.4:
            settle(d, 9.3)
            assert d.record == f"{PLACED} b2-b4"
    settle(d, 20.0)
    assert d.record == f"{PLACED} b2-b4 d1-d2"


def test_the_other_sides_man_stepped_as_if_ones_own_is_a_mistake_too() -> None:
    # after white's b2-b4, black takes white's f4 for his own and steps it to g4, next to it: one
    # mistake while he stands there. Set down on a point f4 is not next to, it is no such mistake
    # (a man put back where he came from reads like that, and must not be taken for one)
    game = Game.from_record(PLACED)
    moved = {"b2": [(5.0, False)], "b4": [(5.8, True)], "f4": [(7.0, False)]}
    for target, stray in (("g4", True), ("c3", False)):
        changes = {**moved, target: [(7.4, True)]}
        story = read_stories(game.position, Evidence.static(mask(*game.board), changes, 8.4))[0]
        assert str(story) == "b2-b4"
        assert (story.stray == (POINTS.index("f4"), POINTS.index(target))) is stray


def test_a_turn_in_the_hand_at_the_last_turn_told_asks_for_a_longer_story() -> None:
    # a frozen stretch of a generated game: c4 is placed (its switch's report lost, a scan shows
    # it) and taken 0.3 s later by f2's mill, then e5, g1 and e4 (lost too) are placed. Told in
    # four turns, "f2 e5 g1" with e4 read as a mill's step awaiting its removal is the only good
    # story. It uses every turn told, so five are told, and the true story is cheaper: once the
    # next player lifts a7, it is written
    game = Game.from_record("a7 c3 f6 d5 c5 a1 b2 b6 d1 b4 e3 d3 d2", "move-this")
    before = game.record
    steps = [
        (4.6198, "-d1"), (4.7464, "+d1"), (5.0619, "scan"), (7.8053, "+a4"), (7.8862, "-a4"),
        (7.8871, "+a4"), (7.8879, "-a4"), (7.8898, "+a4"), (7.8910, "-a4"), (7.8918, "+a4"),
        (7.8929, "-a4"), (8.2009, "-c3"), (8.2015, "+c3"), (8.2032, "-c3"), (8.3468, "+c3"),
        (8.4567, "scan +c4"), (8.7567, "-c4"), (8.7578, "+c4"), (8.7593, "-c4"), (10.7102, "+f2"),
        (11.8515, "scan"), (12.8242, "+e5"), (12.8947, "-d5"), (12.9303, "+d5"), (13.6489, "+g1"),
        (15.2463, "scan"), (15.9360, "+f4"), (15.9974, "-f4"), (16.3959, "+c4"), (16.4740, "-c4"),
        (16.4747, "+c4"), (16.4756, "-c4"), (18.6411, "scan +e4"), (22.0360, "scan"),
        (25.4308, "scan"), (26.2664, "-a7"),
    ]  # fmt: skip
    assert record_after(game, 0.0, steps, 27.0) == before + " c4 f2xc4 e5 g1 e4"


def test_a_ranking_past_its_budget_decides_nothing_and_the_board_waits() -> None:
    events = [(0.0, ()), (1.0, ("d6",)), (3.0, ("d6", "a1"))]
    starved, enough = StoryDecoder(rank_chains=1), StoryDecoder(rank_chains=1000)
    for d in (starved, enough):
        feed(d, events)
        settle(d, 10.0)
    assert starved.record == "" and not starved.stalled
    assert enough.record == "d6 a1"


def test_whose_man_is_whose_is_carried_forward_until_a_removal_tells() -> None:
    # a frozen stretch of a generated game: both players reach at once, and black's e5 lands 57 ms
    # before white's e4, then a sleeve knocks e5 off for 1.1 s. "e4 e5" explains the switches a
    # little better than "e5 e4", and nothing in the next nine placements tells them apart, so
    # one reading of the game per belief goes on, each committing its own turns. Black's mill at
    # b2 then takes e4, which only white's man can be: the record is written from the reading left
    game = Game.from_record("f6 a4 d6 f4 b6xa4", "no-flying")
    before = game.record
    d, board = decoder_on(game, 11.0)
    steps = [
        (11.35916, "+e5"), (11.35938, "-e5"), (11.35948, "+e5"), (11.35963, "-e5"),
        (11.35973, "+e5"), (11.41626, "+e4"), (11.45668, "-e5"), (12.59492, "+e5"),
        (13.08703, "+a7"), (13.16557, "-a7"), (13.16574, "+a7"), (13.16591, "-a7"),
        (13.16611, "+a7"), (13.16624, "-a7"), (13.16646, "+a7"), (13.16671, "-a7"),
        (13.17728, "+a4"), (13.31997, "-a4"), (13.37314, "+a4"), (17.31122, "+g1"),
        (17.35853, "+d3"), (17.37225, "+a7"), (20.11786, "+d2"), (20.1768, "+g7"),
        (21.56701, "+f2"), (21.56728, "-f2"), (21.56747, "+f2"), (21.56776, "-f2"),
        (21.56794, "+f2"), (21.59731, "-d2"), (21.59744, "+d2"), (21.59771, "-d2"),
        (21.59797, "+d2"), (21.59819, "-d2"), (21.72653, "+d2"), (25.45092, "+g4"),
        (25.45321, "-g7"), (25.54227, "+g7"), (27.40936, "scan -d3"), (27.57032, "-f2"),
        (28.23805, "+f2"), (28.93342, "+b2"), (30.36596, "-a4"), (31.85847, "+a4"),
        (32.56657, "-e4"), (36.03513, "+d7"), (36.08463, "-d7"), (36.24935, "+d7"),
    ]  # fmt: skip
    replay_steps(d, board, [(t, step) for t, step in steps if t < 28.9])
    assert d.record == before  # nine turns on, neither belief is written
    replay_steps(d, board, [(t, step) for t, step in steps if t >= 28.9])
    settle(d, 42.0)
    assert d.record == before + " e5 e4 a4 g1 d3 a7 d2 g7 f2 g4xd3 b2xe4"


def test_the_man_taken_is_told_only_once_the_victims_next_hand_is_done() -> None:
    # a frozen stretch of a generated game: white's f4-e4 closes a mill, and black, to move next,
    # reaches for c3 before white has taken anything, then puts him back when white takes d2
    # (knocked a moment before). While c3 is still off, "xc3, then d2 lifted" explains the
    # switches best; once black's hand is done, c3 back on his point says he was not taken
    game = Game.from_record(
        "g4 d6 e5 d3 a1 d7 d5 e3 c5xe3 g1 f6 c4 g7 d1 e3 c3 a4 d2xg7 a4-a7 d7-g7 a1-a4 c4-b4 "
        "f6-f4 d2-f2 f4-e4xd3 d1-d2 g4-f4 d2-b2 a7-d7 f2-d2 a4-a7 d6-b6xd7 f4-f6 b4-a4 a7-d7 "
        "g1-d1 e4-f4 d1-g1",
        "move-this",
    )
    before = game.record
    steps = [
        (185.72263, "-b2"), (186.36456, "+b2"), (186.79336, "-c5"), (187.27971, "+b4"),
        (188.3136, "-b4"), (188.52717, "+c5"), (188.52727, "-c5"), (188.52745, "+c5"),
        (188.98139, "-f4"), (189.89833, "+e4"), (190.74009, "-d2"), (191.24009, "-c3"),
        (191.6314, "+d2"), (192.75915, "-d2"), (193.13018, "+c3"), (194.07609, "-c3"),
        (195.10739, "+c4"),
    ]  # fmt: skip
    assert record_after(game, 185.66, steps, 198.0) == before + " f4-e4xd2 c3-c4"


def test_a_turn_is_not_written_while_a_switch_it_changed_shows_otherwise() -> None:
    # a frozen stretch of a generated game: black's f6-d6, the lift of f6 lost (the next of the
    # board's reads, every 3.4 s, shows it), d6's man put down off-centre and flickering, and a
    # sleeve knocking d5 off for 1.1 s.
    # Until the scan, "d5-d6" with another man set down on d5 explains the switches best, but d5
    # no longer shows what that turn left there, so it is not written; the scan shows f6 empty
    game = Game.from_record(
        "d7 d2 b6 f4 e5 b2 f6 a4 b4 g7 d6xf4 d5 c5 f2xb4 g4 a1 d3 c3 f6-f4 b2-b4 e5-e4xd5 c3-c4xb6 "
        "f4-f6 a1-d1 f6-f4xd2 c4-c3 d3-d2 c3-c4xd2 c5-d5xd1 a4-a1 d6-f6 a1-a4xd7"
    )
    before = game.record
    d, board = decoder_on(game, 192.5)
    steps = [
        (192.6825, "scan"), (196.0984, "scan"), (196.6296, "-d5"), (196.8288, "+d6"), (196.958, "-d6"),
        (197.0552, "+d6"), (197.1461, "-d6"), (197.2397, "+d6"), (197.375, "-d6"),
        (197.4728, "+d6"), (197.5214, "-d6"), (197.555, "+d6"), (197.5558, "-d6"),
        (197.5566, "+d6"), (197.6388, "-d6"), (197.6731, "+d6"), (197.752, "+d5"),
        (199.5143, "scan -f6"),
    ]  # fmt: skip
    replay_steps(d, board, steps[:-1])
    settle(d, 199.5)
    assert d.record == before
    replay_steps(d, board, steps[-1:])
    settle(d, 203.0)
    assert d.record == before + " f6-d6"


def test_a_man_resting_off_his_switch_once_a_scan_has_read_it_is_written() -> None:
    # a frozen stretch of a generated game: black's f6-d6, d6's man chattering as he is put down
    # and left resting off his switch; white's d2-b2, d2's lift lost (the next scan shows it) and
    # b2 chattering. d6 shows otherwise than f6-d6 left it, but no hand comes back to him, and
    # scans read d6 open for seconds: he rests there, and both turns are written before the next
    game = Game.from_record(
        "d2 c3 d5 a4 d7 b2 d1 e3 e4 b4 a7 g7 c5 b6xa7 g1 a1 d6xg7 c4xc5 d7-g7 e3-d3 e4-e3 a4-a7 "
        "d6-d7 a7-a4xe3 d5-e5 d3-e3 g7-g4 e3-d3 e5-e4 c4-c5 g4-f4 a4-a7 g1-g4xc3 c5-c4 d2-f2 "
        "c4-c5 g4-g1 c5-d5 d7-g7 d3-e3 e4-e5 a7-a4 e5-e4 d5-e5 f2-d2 e5-d5 e4-e5 e3-d3 e5-e4 "
        "d3-e3 d2-f2 e3-d3 e4-e3 d5-e5 g7-d7 a4-a7 d1-d2 e5-d5 d2-d1 a7-a4 e3-e4 b2-d2 f4-f6 "
        "b4-b2 d7-g7 b6-d6 g7-d7 b2-b4 f2-f4 d3-c3 d7-g7 b4-b6 f4-g4xb6 d6-b6 e4-e5 d5-d6 "
        "g4-f4 d2-f2 g7-d7 f2-d2 f4-f2 d6-d5"
    )
    before = game.record
    steps = [
        (368.7769, "scan"), (368.8094, "-f6"), (370.4203, "+c5"), (370.5402, "-c5"),
        (370.8806, "+c4"), (370.9616, "-c4"), (371.3458, "+d6"), (371.3472, "-d6"),
        (371.3488, "+d6"), (371.3496, "-d6"), (371.3508, "+d6"), (371.3834, "-d7"),
        (371.4607, "+d7"), (371.6967, "-d6"), (371.6982, "+d6"), (371.6993, "-d6"),
        (371.6999, "+d6"), (371.7014, "-d6"), (371.7019, "+d6"), (371.7036, "-d6"),
        (372.129, "+b2"), (372.1299, "-b2"), (372.1305, "+b2"), (372.25, "-b2"), (372.292, "+b2"),
        (372.3726, "-b2"), (372.3734, "+b2"), (372.3747, "-b2"), (372.3752, "+b2"),
        (372.3762, "-b2"), (372.4512, "+b2"), (372.528, "-b2"), (372.6, "+b2"), (372.637, "-b2"),
        (372.7015, "+b2"), (372.7026, "-b2"), (372.7042, "+b2"), (372.7047, "-b2"),
        (372.7053, "+b2"), (372.7066, "-b2"), (372.7081, "+b2"), (372.7389, "-b2"),
        (372.7631, "scan -d2"), (372.8414, "+b2"), (372.9369, "-b2"), (373.0352, "+b2"),
        (373.1138, "-b2"), (373.1152, "+b2"), (373.1162, "-b2"), (373.1678, "+b2"),
        (374.5938, "-b6"), (375.4829, "+b6"), (376.7492, "scan"),
    ]  # fmt: skip
    assert record_after(game, 364.8, steps, 378.0) == before + " f6-d6 d2-b2"


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.floats(0.02, 3.0), st.sampled_from(["d6", "d5", "c4", "e4", "f6"])), max_size=14))
def test_a_turn_once_written_is_never_taken_back_whatever_the_switches_do(toggles: list[tuple[float, str]]) -> None:
    # however the switches chatter, and whatever beliefs are carried and dropped meanwhile, the
    # record only grows: what a player saw written stays written
    d = StoryDecoder()
    feed(d, [(0.0, ())])
    board: set[str] = set()
    t, seen = 1.0, ""
    for gap, point in toggles:
        t += gap
        (board.discard if point in board else board.add)(point)
        feed(d, [(t, tuple(board))])
        assert d.record.startswith(seen)
        seen = d.record
    settle(d, t + 10.0)
    assert d.record.startswith(seen)


def test_a_burst_too_big_to_tell_at_once_is_told_from_its_oldest_turns() -> None:
    # a frozen stretch of a generated game: after d1's mill takes e3, black's d1 rattles and
    # placements follow one another within a second (b6, b4, a1, g4), with men flickering, a7 and
    # a4 touched and d6 nudged on the way. One ranking of all of it scores more chains than its
    # budget, and every later one more still: the oldest turns are told on the board as it stood
    # before the later changes, and written once their switches are quiet.
    game = Game.from_record("d7 e3 d3 f6 d6 a7 d5xa7 f2 f4 b2 d2 g1 d1xe3", "lasker")
    before = game.record
    steps = [
        (56.39656, "-d1"), (57.50272, "+a1"), (57.55478, "-a1"), (57.55498, "+a1"),
        (57.55516, "-a1"), (57.59364, "+d1"), (58.21901, "-f6"), (59.54298, "+f6"),
        (59.54308, "-f6"), (59.54329, "+f6"), (59.54348, "-f6"), (59.5436, "+f6"),
        (59.86255, "+b6"), (59.86265, "-b6"), (59.86286, "+b6"), (59.86308, "-b6"),
        (59.86323, "+b6"), (59.97831, "-b6"), (59.97847, "+b6"), (59.97853, "-b6"),
        (60.10763, "+b6"), (60.10784, "-b6"), (60.10803, "+b6"), (60.10818, "-b6"),
        (60.1083, "+b6"), (60.10858, "-b6"), (60.10881, "+b6"), (60.13453, "-d6"),
        (60.16875, "+d6"), (60.24721, "+b4"), (60.38565, "-b4"), (60.45622, "+b4"),
        (60.5725, "+a7"), (60.57257, "-a7"), (60.57262, "+a7"), (60.57284, "-a7"),
        (60.57301, "+a7"), (60.57324, "-a7"), (60.57334, "+a7"), (60.70245, "-a7"),
        (60.71725, "+a4"), (60.71748, "-a4"), (60.71764, "+a4"), (60.77302, "-a4"),
        (60.8083, "+a1"), (60.9455, "+g4"), (64.15665, "-d3"), (64.15691, "+d3"),
        (64.15713, "-d3"), (64.15731, "+d3"), (64.15755, "-d3"), (64.1577, "+d3"),
        (64.15787, "-d3"), (65.52687, "+c3"), (65.52712, "-c3"), (65.52718, "+c3"),
        (65.52735, "-c3"), (65.52751, "+c3"), (65.5278, "-c3"), (65.52791, "+c3"),
        (65.63041, "-c3"), (65.66607, "+d3"),
    ]  # fmt: skip
    assert record_after(game, 55.4, steps, 66.0) == before + " b6 b4 a1 g4"


def test_a_move_whose_lift_was_lost_began_when_its_man_was_carried_off() -> None:
    # a frozen stretch of a generated game: white's g4-f4 with the lift of g4 lost (the next scan,
    # 2 s later, shows it) and f4's man chattering as he lands; black lifts g7 0.3 s before f4
    # closes and carries him to g4; then white's b2-d2. White's move began when his man was lifted,
    # a carry before f4 closed, not when the scan showed it: read from the scan, black's lift came
    # first and no story of the true turns was told, so "b2-d2" was written on its own
    game = Game.from_record(
        "g4 d6 f6 d3 e5 b4 g7 e3 d2 f4 c4 f2 e4 b6 b2 d7 a4 a7 a4-a1 a7-a4 c4-c5 a4-a7 e5-d5 b4-a4 "
        "b2-b4 d3-c3 d2-d3 c3-c4 d3-d2 e3-d3 d2-b2 d3-c3 b2-d2 c3-d3 d2-d1 f2-d2 g4-g1xd6 f4-g4 e4-f4 "
        "d7-d6 d5-e5 d2-f2 g7-d7 d3-e3 e5-d5 f2-d2 d5-e5 c4-c3 f4-f2 g4-f4 e5-d5 e3-e4 b4-b2 c3-c4 "
        "b2-b4 e4-e5 d7-g7 f4-g4 g7-d7 d2-b2 f2-d2 e5-e4 d2-f2 b2-d2 f6-f4 e4-e3 d5-e5 d2-b2 c5-d5 "
        "d6-f6 d5-c5 c4-c3 d1-d2 c3-c4 a1-d1 b6-d6 d7-g7 a4-a1 f4-e4 d6-d7 d2-d3 d7-d6 e5-d5 b2-d2 "
        "d3-c3 d2-b2 c3-d3",
        "move-this",
    )
    before = game.record
    steps = [
        (467.1791, "scan"), (469.2767, "scan"), (469.7262, "-g7"), (470.0281, "+f4"),
        (470.0719, "-f2"), (470.1062, "-f4"), (470.1068, "+f4"), (470.108, "-f4"), (470.1401, "+f2"),
        (470.1817, "+f4"), (470.2287, "-f4"), (470.281, "+f4"), (470.381, "-f4"), (470.3818, "+f4"),
        (470.3828, "-f4"), (470.4264, "+f4"), (470.495, "-f4"), (470.5961, "+f4"), (470.5972, "-f4"),
        (470.599, "+f4"), (470.5998, "-f4"), (470.6014, "+f4"), (470.6027, "-f4"), (470.604, "+f4"),
        (470.7288, "-f4"), (470.8285, "+f4"), (470.8775, "-f4"), (470.9015, "+f4"), (470.9035, "-f4"),
        (470.9049, "+f4"), (471.0155, "-f4"), (471.0653, "+f4"), (471.1413, "-f4"), (471.142, "+f4"),
        (471.1425, "-f4"), (471.1441, "+f4"), (471.1453, "-f4"), (471.1463, "+f4"), (471.1478, "-f4"),
        (471.2565, "+f4"), (471.3743, "scan -g4"), (472.2968, "+g4"), (472.2973, "-g4"),
        (472.2987, "+g4"), (472.3776, "-g1"), (472.4598, "+g1"), (472.4604, "-g1"), (472.4618, "+g1"),
        (472.4624, "-g1"), (472.4638, "+g1"), (473.4719, "scan"), (473.8433, "-e3"), (474.251, "+e3"),
        (474.7828, "-b2"), (474.7834, "+b2"), (474.7841, "-b2"), (474.7859, "+b2"), (474.7878, "-b2"),
        (475.5696, "scan"), (476.0538, "+d2"), (476.0997, "-d1"), (476.1003, "+d1"), (476.1019, "-d1"),
        (476.1915, "-d2"), (476.2268, "+d1"), (476.306, "+d2"), (476.4544, "-d2"), (476.5031, "+d2"),
        (476.5044, "-d2"), (476.5054, "+d2"), (476.6276, "-d2"), (476.6518, "+d2"), (476.7068, "-d2"),
        (476.7086, "+d2"), (476.7092, "-d2"), (476.7107, "+d2"), (476.7116, "-d2"), (476.7746, "+d2"),
        (477.6672, "scan"),
    ]  # fmt: skip
    assert record_after(game, 467.0, steps, 480.0) == before + " g4-f4 g7-g4 b2-d2"


def test_a_turn_is_read_though_no_single_points_other_reading_fits_its_timing() -> None:
    # a frozen stretch of a generated game: black's d6-d5 after a man touched d5 for 0.3 s and d6
    # was knocked, white's d7-d6, black's b6-b4 with the lift of b6 lost. Each point's cheapest
    # reading puts d5's landing at the touch, before d6 was lifted, and d6's lift and landing at the
    # knock, before d7 was lifted. Read again one point at a time, a man still lands before he is
    # lifted, and the true story was never scored: "b6-b4" was written on its own
    game = Game.from_record(
        "c5 d3 a7 d5 d7 e3 e5 c3xa7 d7-a7 e3-e4 e3 d3-d2 d7 d2-d3 g4 a1 g4-g7xe4 f6 g1 f6-f4 g4xd3 d1 "
        "f2 a1-a4 d7-d6 f4-f6 d6-d7xc3 d6 e3-e4 b6xe4 f2-f4 a4-a1 e5-e4xd1 a1-d1 f4-f2 d5-e5 e4-e3 d3 "
        "f2-d2 f6-f4 e3-e4 f4-f6xc5 d2-f2 d3-e3 f2-f4xd1",
        "lasker",
    )
    before = game.record
    steps = [
        (216.4826, "scan"), (218.5654, "scan"), (218.8445, "+d5"), (219.1529, "-d5"), (219.4529, "-d6"),
        (219.9324, "+d6"), (219.9333, "-d6"), (219.9351, "+d6"), (220.6483, "scan"), (221.7432, "-d6"),
        (221.7437, "+d6"), (221.745, "-d6"), (222.0964, "+d5"), (222.3418, "-d7"), (222.3437, "+d7"),
        (222.3446, "-d7"), (222.7311, "scan -b6"), (222.9494, "+d6"), (224.8139, "scan"),
        (226.5471, "+b4"), (226.8967, "scan"), (228.1923, "-b4"), (228.9796, "scan"),
    ]  # fmt: skip
    assert record_after(game, 216.3, steps, 231.0) == before + " d6-d5 d7-d6 b6-b4"


def test_turns_read_past_a_third_repetition_end_the_game_there() -> None:
    # White and black shuffle g4-g7 and e5-e4 to and fro: the second pair repeats the position a
    # third time. Three moves read in one go run past that end, which only the game's history
    # knows (a story knows positions): the record stops at the draw, and nothing breaks
    repeating = MOVING + " g7-g4 e4-e5 g4-g7 e5-e4 g7-g4 e4-e5"
    d, board = decoder_on(Game.from_record(repeating), 0.0)
    replay_steps(d, board, [(1.0, "-g4"), (1.7, "+g7"), (2.4, "-e5"), (3.1, "+e4"), (3.8, "-g7"), (4.5, "+g4")])
    settle(d, 30.0)
    assert d.record == repeating + " g4-g7 e5-e4"
    assert d.game.outcome is not None and d.game.outcome.reason == "threefold-repetition"


def test_the_model_page_gives_every_number_of_the_model_one_row() -> None:
    # docs/tracker-decoder.md is the model's specification: a number added to the model and
    # not explained there, or a row left for a number taken out, is a page a newcomer misreads
    page = (Path(__file__).resolve().parent.parent / "docs" / "tracker-decoder.md").read_text()
    table = page[page.index("## The model") : page.index("## The decision")]
    rows = re.findall(r"^\| `([a-z_]+)` \|", table, flags=re.MULTILINE)
    assert sorted(rows) == sorted(f.name for f in dataclasses.fields(Model))


@pytest.mark.parametrize(
    ("lifted", "role"),
    [
        ("f6", "fumble"),  # the remover's own man, in the mill just closed: the wrong man first
        ("a1", "knock"),  # a man the mill could take, given back: a change of mind, as rare as a knock
    ],
)
def test_a_man_the_mill_cannot_take_lifted_and_put_back_while_the_removal_is_due_is_the_removers(
    lifted: str, role: str
) -> None:
    game = Game.from_record("d6 a1 f6 a4")
    changes = {"b6": [(1.0, True)], lifted: [(1.8, False), (2.6, True)], "a4": [(3.2, False)]}
    evidence = Evidence.static(mask(*game.board), changes, 8.0)
    top = read_stories(game.position, evidence)[0]
    assert str(top) == "b6xa4"
    parts = explain(evidence, top, base=game.position)
    assert [p.role for p in parts if p.where == f"{lifted}#0"] == [role]
    assert sum(p.cost for p in parts) == pytest.approx(top.cost)


def test_a_man_lifted_and_put_back_before_the_mill_is_closed_is_a_knock() -> None:
    """The same man lifted before the mill's step landed: no removal was due yet, so he was knocked."""
    game = Game.from_record("d6 a1 f6 a4")
    changes = {"f6": [(0.2, False), (1.0, True)], "b6": [(1.8, True)], "a4": [(3.2, False)]}
    evidence = Evidence.static(mask(*game.board), changes, 8.0)
    top = read_stories(game.position, evidence)[0]
    assert str(top) == "b6xa4"
    parts = explain(evidence, top, base=game.position)
    assert [p.role for p in parts if p.where == "f6#0"] == ["knock"]
    assert sum(p.cost for p in parts) == pytest.approx(top.cost)
    changes = {"b6": [(0.2, True)], "f6": [(1.0, False), (1.8, True)], "a4": [(3.2, False)]}
    inside = Evidence.static(mask(*game.board), changes, 8.0)
    fumbled = read_stories(game.position, inside)[0]
    (knock,) = [p for p in parts if p.where == "f6#0"]
    (fumble,) = [p for p in explain(inside, fumbled, base=game.position) if p.where == "f6#0"]
    # as long, inside the removal: cheaper by as much as a knock is rarer than a fumble
    assert knock.cost - fumble.cost == pytest.approx(DEFAULT_MODEL.knock.prior - DEFAULT_MODEL.fumble.prior)


def test_a_landing_only_a_scan_showed_came_before_the_next_landing_if_most_of_its_window_did() -> None:
    """c3's landing was lost and a scan 50 ms after d7 landed showed it: it happened somewhere in
    the board's resync (up to a second, at a pace not known) before the scan, most likely before
    d7. Read after d7, only the last 50 ms fit: a change is found that soon one time in five
    (0.05 * (1 - ln 0.05)), and the order costs that."""
    log = SwitchLog(0, 0.0)
    log.feed(0, 5.0, full=True)
    log.feed(mask("d7"), 10.0)
    log.feed(mask("c3", "d7"), 10.05, full=True)
    stories = {str(s): s.cost for s in read_stories(Game().position, log.evidence(13.0))}
    assert min(stories, key=stories.__getitem__) == "c3 d7"
    assert stories["d7 c3"] - stories["c3 d7"] == pytest.approx(math.log(0.8 / 0.2), abs=0.01)


def test_a_man_taken_unseen_as_the_mill_closed_may_have_been_taken_first() -> None:
    """a7 closes a mill at 10 s, and a scan 80 ms later shows d7 gone: taken in the second before
    the scan, most of it before the mill closed (taken first). Black's man lands on d7, then b6 is
    knocked off and back. Priced only in the 80 ms after the mill, the removal was too quick to
    be a hand's, and "b6 taken 5 s later, black's man put there" was the only capture told."""
    game = Game.from_record("a1 d7 a4 b6")
    men = set(game.board)
    log = SwitchLog(mask(*men), 0.0)
    log.feed(mask(*men), 5.0, full=True)
    log.feed(mask(*men, "a7"), 10.0)
    log.feed(mask(*(men - {"d7"}), "a7"), 10.08, full=True)
    log.feed(mask(*men, "a7"), 12.3)
    log.feed(mask(*(men - {"b6"}), "a7"), 15.0)
    log.feed(mask(*men, "a7"), 15.7)
    stories = {str(s): s.cost for s in read_stories(game.position, log.evidence(19.0))}
    assert stories["a7xd7 d7"] < stories["a7xb6 b6"]
