"""Issue 9: the tracker must never write a turn the sensors did not show.

The issue's two cases are rebuilt as physical traces (``morris_pi.traces.physical.cases``) for every
profile where they can happen, in two-player mode and against the computer on either side. The
traces are frozen in the regression corpus (``tests/data/traces/issue9-*``), where every replay
line must hold only turns that were played; these tests check that the cases are the issue's.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from morris_pi.traces.physical import cases

CORPUS = Path(__file__).parent / "data" / "traces"


def test_every_case_is_frozen_in_the_corpus():
    for case, profile, mode in cases.RECORDS:
        assert (CORPUS / f"issue9-case{case}-{profile}-{mode}.jsonl").is_file(), (case, profile, mode)


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
