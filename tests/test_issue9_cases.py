"""Issue 9: the tracker must never write a turn the sensors did not show.

The issue's two cases, rebuilt as physical traces (``morris_pi.physical.cases``) for every
profile where they can happen, in two-player mode and against the computer on either side,
run through ``morris-pi replay --json``. Every line replay writes must carry a record that is
a beginning of the game's true record (no turn nobody played, not even for a moment), and the
last line the whole record and result.

Before the tracker read only event-backed turns, 17 of these cases wrote turns nobody played.
"""

from __future__ import annotations

import io
import json

import pytest

from morris_pi import replay
from morris_pi.physical import cases

CASES = [pytest.param(*key, id="-".join(key)) for key in cases.RECORDS]


def replay_rows(trace) -> tuple[int, list[dict], str]:
    out, err = io.StringIO(), io.StringIO()
    code = replay.run(trace.lines(), out, err, as_json=True)
    return code, [json.loads(line) for line in out.getvalue().splitlines()], err.getvalue()


@pytest.mark.parametrize("case, profile, mode", CASES)
def test_the_record_only_ever_holds_turns_that_were_played(case, profile, mode):
    trace = cases.case_trace(case, profile, mode)
    code, rows, err = replay_rows(trace)
    assert code == 0 and err == ""
    truth = trace.record.split()
    for row in rows:
        turns = row["record"].split()
        assert turns == truth[: len(turns)], f"t={row['t']}: record {' '.join(turns[-3:])!r} was never played"
    assert rows[-1]["record"] == trace.record
    assert rows[-1]["outcome"] == trace.outcome


def test_every_profile_has_both_cases_where_the_rules_allow_them():
    for profile in cases.PROFILES:
        for mode in ("two-player", "computer-white", "computer-black"):
            assert ("1", profile, mode) in cases.RECORDS
            # Case 2 needs a side that flies.
            assert (("2", profile, mode) in cases.RECORDS) == (profile != "no-flying")


@pytest.mark.parametrize("key", list(cases.RECORDS), ids="-".join)
def test_the_stored_records_are_the_issue_cases(key):
    from morris_pi.rules import Game, Turn

    case, profile, mode = key
    before, turn, centre = cases.RECORDS[key]
    game = Game.from_record(before, profile)
    turn = Turn.parse(turn)
    if case == "1":
        assert cases.case1_fits(game, turn, centre)
        if mode == "two-player":
            pending = game.copy()
            pending.play(turn.step)
            assert str(turn) == "b4-c4xd1" and centre == "g1"
            assert set(pending.removable) == {"a7", "d1", "f2"}
    else:
        flight = game.history[-1]
        assert cases.case2_shape(Game.from_record([str(t) for t in game.history[:-1]], profile), flight, turn) == centre
        assert game.flies("black") and len(game.board) - sum(c == "white" for c in game.board.values()) == 3
        if mode == "two-player":
            assert (str(flight), str(turn), centre) == ("f2-g7", "d2-f2xg7", "f4")
    if mode != "two-player":
        # Every computer turn is the one replay's first-legal player makes.
        side = mode.split("-")[1]
        replayed = Game(profile)
        for played in [*game.history, turn]:
            if replayed.turn == side:
                assert played == replayed.legal_turns()[0]
            replayed.play(played)
