"""The second_hands generator checks itself: its traces agree with the rules, and every kind of mess is played.

Not a tracker test: nothing here replays a trace. A trace must end on the board of its expected
record, its events must be what a switch can report, and at 100 % mess every kind must happen.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from morris_pi.cli import main
from morris_pi.rules import PROFILES, Game, Outcome, Turn, other_side
from morris_pi.traces import second_hands


@pytest.fixture(scope="module")
def traces() -> list[tuple[str, list[dict], dict]]:
    mess = second_hands.mess_levels(0.25, None, None)
    out = []
    for n, profile in enumerate(PROFILES):
        lines, expected, _ = second_hands.make_trace(f"test:{n}", profile, mess)
        out.append((profile, lines, expected))
    return out


def final_game(profile: str, expected: dict) -> Game:
    game = Game.from_record(expected["record"], profile)
    return game


def test_the_last_snapshot_is_the_board_of_the_expected_record(traces):
    for profile, lines, expected in traces:
        snapshots = [line["snapshot"] for line in lines[1:] if "snapshot" in line]
        game = final_game(profile, expected)
        assert set(snapshots[-1]) == set(game.board), (profile, expected["record"])


def test_the_events_rebuild_the_last_snapshot_and_never_repeat_a_switch_state(traces):
    for profile, lines, _ in traces:
        shown: set[str] = set()
        for line in lines[1:]:
            if "on" in line:
                assert line["on"] not in shown, (profile, line)
                shown.add(line["on"])
            elif "off" in line:
                assert line["off"] in shown, (profile, line)
                shown.discard(line["off"])
            elif "snapshot" in line:
                shown = set(line["snapshot"])


def test_time_never_goes_back_and_the_header_is_what_replay_reads(traces):
    for profile, lines, _ in traces:
        assert lines[0] == {"profile": profile, "white": "human", "black": "human"}
        times = [line["t"] for line in lines[1:]]
        assert times == sorted(times)
        assert all(set(line) <= {"t", "on", "off", "snapshot", "button"} for line in lines[1:])


def test_the_expected_outcome_follows_from_the_record_and_the_buttons(traces):
    for profile, lines, expected in traces:
        game = final_game(profile, expected)
        buttons = [line["button"] for line in lines[1:] if "button" in line]
        outcome = Outcome(expected["outcome"]["winner"], expected["outcome"]["reason"])
        if buttons == ["resign"]:
            assert game.outcome is None
            assert outcome == Outcome(other_side(game.turn), "resignation")
        elif buttons == ["draw"]:
            assert game.outcome is None and game.claimable_draw() == outcome.reason
        else:
            assert buttons == [] and game.outcome == outcome, (profile, expected)


def test_every_turn_of_the_record_is_legal_where_it_was_played(traces):
    for profile, _, expected in traces:
        game = Game(profile)
        for token in expected["record"].split():
            assert game.is_legal(Turn.parse(token)), (profile, token)
            game.play(token)


def test_every_kind_of_mess_happens_at_full_mess():
    mess = second_hands.mess_levels(1.0, None, None)
    seen: Counter[str] = Counter()
    # flying is short at full mess (most turns of a side with three men are re-drawn calm);
    # the move-this game has it
    for seed, profile in [("full:0", "standard"), ("full:1", "lasker"), ("full:6", "move-this")]:
        _, _, kinds = second_hands.make_trace(seed, profile, mess)
        seen.update(kinds)
    missing = [kind for kind in second_hands.KINDS if not seen[kind]]
    assert not missing, f"never played at 100 % mess: {missing}"


def test_a_kind_switched_off_never_happens():
    mess = second_hands.mess_levels(1.0, None, ["knock", "lost", "bounce"])
    _, _, kinds = second_hands.make_trace("off:0", "standard", mess)
    assert not kinds["knock"] and not kinds["lost"] and not kinds["bounce"]
    assert kinds["hesitate"]


def test_a_cut_trace_expects_the_record_so_far_and_no_outcome():
    mess = second_hands.mess_levels(0.25, None, None)
    lines, expected, _ = second_hands.make_trace("cut:0", "standard", mess, (3, 5), 8)
    assert expected == {"record": expected["record"]} and len(expected["record"].split()) == 8
    assert set([line for line in lines if "snapshot" in line][-1]["snapshot"]) == set(
        Game.from_record(expected["record"]).board
    )


def test_the_command_writes_traces_sidecars_and_a_summary(tmp_path):
    assert main(["traces", "second_hands", str(tmp_path), "--games", "2", "--seed", "5", "--profiles", "club"]) == 0
    assert len(list(tmp_path.glob("*.jsonl"))) == 2
    for sidecar in tmp_path.glob("*.expected.json"):
        assert set(json.loads(sidecar.read_text())) == {"record", "outcome"}
    assert json.loads((tmp_path / "summary.json").read_text())["games"] == 2
