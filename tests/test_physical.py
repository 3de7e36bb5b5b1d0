"""The physical trace generator: well-formed traces, every ending, honest mess counts, determinism."""

from __future__ import annotations

import io
import json
import random
from collections import Counter, defaultdict
from itertools import pairwise

import pytest

from morris_pi import replay
from morris_pi.rules import Game
from morris_pi.traces.physical import CLEAN, KINDS, MODES, generate, noise
from morris_pi.traces.physical.hands import Hands
from morris_pi.traces.physical.people import endings
from morris_pi.traces.physical.playing import Plan, carry_out, plan_game
from morris_pi.traces.physical.switches import Contacts

PROFILES = ("standard", "move-this", "club", "no-flying", "lasker", "twelve")


def replay_rows(trace) -> tuple[int, list[dict], str]:
    out, err = io.StringIO(), io.StringIO()
    code = replay.run(trace.lines(), out, err, as_json=True)
    return code, [json.loads(line) for line in out.getvalue().splitlines()], err.getvalue()


def changes(trace) -> list[tuple[float, str, bool]]:
    return [(e["t"], e.get("on") or e.get("off"), "on" in e) for e in trace.events if "on" in e or "off" in e]


def test_every_line_is_one_replay_accepts_and_time_never_goes_back():
    trace = generate("lasker", 4, mode="computer-white", mess=noise(0.5))
    lines = trace.lines()
    assert replay.parse_line(lines[0], 1, True) == replay.Header("lasker", "white", None, None)
    times = [replay.parse_line(line, n, False).t for n, line in enumerate(lines[1:], start=2)]
    assert times == sorted(times) and times[0] > 0


@pytest.mark.parametrize("mode", MODES)
def test_clean_traces_of_every_profile_replay_to_their_record(mode):
    for profile in PROFILES:
        trace = generate(profile, 1, mode=mode, mess=CLEAN, target="open", max_turns=60)
        code, rows, err = replay_rows(trace)
        assert (code, err) == (0, "")
        assert rows[-1]["record"] == trace.record and rows[-1]["outcome"] == trace.outcome
        assert rows[-1]["problems"] == []


def test_a_clean_trace_holds_one_change_per_man_moved_and_nothing_else():
    trace = generate("standard", 2, mess=CLEAN, target="fewer-than-three")
    game = Game.from_record(trace.record)
    expected = sum(1 + (t.origin is not None) + (t.removal is not None) for t in game.history)
    assert len(changes(trace)) == expected
    assert set(trace.mess.values()) == {0}


@pytest.mark.parametrize("profile", PROFILES)
def test_every_ending_of_the_profile_is_reached(profile):
    for target in endings(profile):
        trace = generate(profile, 0, mess=CLEAN, target=target)
        outcome = trace.outcome
        if target == "resignation":
            assert outcome["reason"] == "resignation" and trace.header and trace.events[-2]["button"] == "resign"
        elif target.startswith("claim"):
            reason = "threefold-repetition" if target == "claim-repetition" else "n-move-rule"
            assert outcome == {"winner": None, "reason": reason}
            assert trace.events[-2] == {"t": trace.events[-2]["t"], "button": "draw"}
        elif target == "full-board":
            assert outcome["reason"] == "blocked" and trace.turns == 24 and len(trace.record.split()) == 24
        else:
            assert outcome["reason"] == target, (target, outcome)


def test_the_flying_phase_is_reached_where_the_profile_flies():
    for profile in PROFILES:
        flew = any(generate(profile, seed, mess=CLEAN, target="fewer-than-three").flying for seed in range(3))
        assert flew == (profile != "no-flying")


def test_against_the_computer_the_computer_turns_are_the_first_legal_ones():
    trace = generate("standard", 5, mode="computer-black", mess=CLEAN, target="open", max_turns=40)
    game = Game()
    for text in trace.record.split():
        if game.turn == "black":
            assert text == str(game.legal_turns()[0])
        game.play(text)
    assert trace.header == {"profile": "standard", "white": "human", "black": "computer"}


def test_against_the_engine_the_record_is_what_replay_plays():
    pytest.importorskip("morris_pi.engine.player")
    from morris_pi.traces.physical import Engine

    trace = generate(
        "standard", 6, mode="computer-white", mess=CLEAN, target="open", max_turns=24, computer=Engine(1, 6)
    )
    assert trace.header["level"] == 1 and trace.header["seed"] == 6
    code, rows, _ = replay_rows(trace)
    assert code == 0 and rows[-1]["record"] == trace.record


def test_the_same_seed_gives_the_same_trace_and_another_seed_another():
    a = generate("club", 11, mess=noise(0.25))
    b = generate("club", 11, mess=noise(0.25))
    c = generate("club", 12, mess=noise(0.25))
    assert a.lines() == b.lines() and a.mess == b.mess and a.record == b.record
    assert a.lines() != c.lines()


def test_bounce_count_is_the_number_of_makes_and_breaks_that_chattered():
    trace = generate("standard", 3, mess=noise(0.5, ["bounce"]), target="open", max_turns=40)
    by_point = defaultdict(list)
    for t, point, _ in changes(trace):
        by_point[point].append(t)
    chattered = 0
    for times in by_point.values():
        group = [times[0]]
        for t in times[1:]:
            if t - group[-1] < 0.001:
                group.append(t)
            else:
                chattered += len(group) > 1
                group = [t]
        chattered += len(group) > 1
    assert chattered == trace.mess["bounce"] > 0


def test_each_lost_change_is_followed_by_one_scan_of_every_switch():
    trace = generate("standard", 3, mess=noise(0.5, ["lost"]), target="open", max_turns=40)
    clean = generate("standard", 3, mess=CLEAN, target="open", max_turns=40)
    scans = [e for e in trace.events if "snapshot" in e]
    assert len(scans) == trace.mess["lost"] > 0
    assert len(changes(trace)) == len(changes(clean)) - trace.mess["lost"]


def test_both_reaching_at_once_puts_two_men_down_within_60_ms_and_neither_is_lost():
    # Only the order of the two makes says whose man is whose, so neither change may go missing.
    trace = generate("standard", 1, mess=noise(1.0, ["both_reach", "lost"]), target="open", max_turns=30)
    ons = [t for t, _, on in changes(trace) if on]
    close = sum(1 for a, b in pairwise(ons) if b - a <= 0.06)
    assert close == trace.mess["both_reach"] > 0


def test_two_players_reaching_at_once_never_put_the_second_man_where_a_man_was_just_taken():
    """The second man of two put down at once lands within 60 ms of the first: onto a point the
    removal before emptied a moment ago, that would be a nudge to anyone watching (soak seeds 759
    and 1373). White's b6xa1 empties a1; Black plays fast, and White's a1 must wait."""
    game = Game("standard")
    for text in "d6 a1 f6 a4 b6xa1 g1 a1".split():
        game.play(text)
    plan = Plan(list(game.history), None)
    for seed in range(20):
        trace = generate("standard", seed, mess=noise(1.0, ["fast", "both_reach"]), plan=plan)
        a1 = [(t, on) for t, point, on in changes(trace) if point == "a1"]
        taken = next(t for t, on in a1 if not on)
        put = next(t for t, on in a1 if on and t > taken)
        assert put - taken >= 0.5, (seed, a1)


def test_slides_and_hovers_are_the_only_brief_contacts():
    def brief(trace) -> int:
        last_on = {}
        count = 0
        for t, point, on in changes(trace):
            if on:
                last_on[point] = t
            elif point in last_on and t - last_on[point] <= 0.15:
                count += 1
        return count

    quiet = generate("twelve", 2, mess=noise(0.0), target="open", max_turns=60)
    sliding = generate("twelve", 2, mess=noise(1.0, ["slide", "hover"]), target="open", max_turns=60)
    assert brief(quiet) == 0
    assert brief(sliding) >= sliding.mess["slide"] + sliding.mess["hover"] > 0


def test_kinds_switched_off_never_happen():
    trace = generate("standard", 7, mess=noise(1.0, ["wrong_man", "lift_replace"]))
    assert trace.mess["wrong_man"] > 0 and trace.mess["lift_replace"] > 0
    assert all(n == 0 for kind, n in trace.mess.items() if kind not in ("wrong_man", "lift_replace"))


def test_bad_arguments_are_named():
    with pytest.raises(ValueError, match=r"unknown mess kind.*sneeze"):
        noise(0.2, ["sneeze"])
    with pytest.raises(ValueError, match="probability 0-1"):
        noise(1.5)
    with pytest.raises(ValueError, match="unknown mode 'robot'"):
        generate(mode="robot")
    with pytest.raises(ValueError, match="unknown target 'stalemate'"):
        generate(target="stalemate")
    with pytest.raises(ValueError, match="unknown rule profile"):
        generate("chess")
    with pytest.raises(ValueError, match="attempts must be 1 or more, got 0"):
        generate(attempts=0)
    with pytest.raises(ValueError, match="the white side is the computer's, but no computer player was given"):
        plan_game("standard", "open", random.Random(0), None, "white")
    assert sorted(KINDS) == sorted(noise(0.1))


def test_an_illegal_step_never_lifts_the_man_the_other_side_just_put_down_within_a_hovers_time():
    """Lifting the man the opponent set down 0.1 s ago, on purpose, looks to anyone watching
    like that man hovering: a deliberate step waits until 0.5 s have passed."""
    game = Game("standard")
    for text in "a1 a7 d2 d6 g4 b4 b6 f6 f2 b2 e4 c4 c3 c5 e3 d5 g1 f4 g4-g7".split():
        game.play(text)
    turn = game.legal_turns()[0]
    lifted_at = []
    for seed in range(300):
        hands = Hands("standard", Contacts(), random.Random(seed), {**CLEAN, "illegal": 1.0}, Counter())
        hands.men = dict(game.board)
        hands.contacts.close(10.0, "g7")
        hands.t = 10.1
        carry_out(hands, game, turn, computer_turn=False)
        lifted_at += [c.t for c in hands.contacts.changes if c.point == "g7" and c.t > 10.0]
    assert lifted_at and min(lifted_at) >= 10.5


def test_a_turn_taken_back_by_hand_is_made_only_when_named_and_leaves_the_planned_record():
    plain = generate("standard", 5, mess=noise(0.0), target="open", max_turns=40)
    taking = generate("standard", 5, mess=noise(1.0, ["takeback"]), target="open", max_turns=40)
    assert generate("standard", 5, target="open", max_turns=40).mess["takeback"] == 0  # not by default
    assert taking.mess["takeback"] > 0
    assert taking.record == plain.record  # the turns taken back are not the game's
    made = taking.expected()["taken_back"]  # but they were played: the sidecar says which, and where
    assert len(made) == taking.mess["takeback"] and all(
        turn not in plain.record.split()[ply : ply + 1] for ply, turn in made
    )
    # each turn taken back lands a man, and its takeback puts one back (a move's, or the man it took)
    lands = sum(1 for e in taking.events if "on" in e)
    assert lands >= sum(1 for e in plain.events if "on" in e) + 2 * taking.mess["takeback"]
