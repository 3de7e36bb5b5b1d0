"""``morris-pi analyze``: the JSON a user or a script reads, and its errors."""

from __future__ import annotations

import io
import json
from dataclasses import replace

import pytest
from test_engine_placing import TRAP
from test_engine_tactics import ENDGAME_B, MILL_IN_ONE

from morris_pi.cli import main
from morris_pi.engine import levels
from morris_pi.rules import Game, Turn


def analyze(capsys, *args):
    code = main(["analyze", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_prints_turn_score_depth_nodes_time_and_pv(capsys):
    code, out, _ = analyze(capsys, "--depth", "3", *MILL_IN_ONE[1].split())
    assert code == 0
    data = json.loads(out)
    assert {"turn", "score", "depth", "nodes", "time", "pv", "side", "profile", "record"} <= set(data)
    game = Game.from_record(MILL_IN_ONE[1])
    assert data["turn"] in [str(t) for t in game.legal_turns()]
    assert Turn.parse(data["turn"]).removal  # the mill-in-one
    assert data["depth"] == 3 and data["nodes"] > 0 and data["time"] >= 0
    assert isinstance(data["score"], int) and data["score"] > 0
    assert data["pv"][0] == data["turn"]
    for turn in data["pv"]:  # the variation is playable
        game.play(turn)


def test_level_budget_is_repeatable(capsys):
    _, first, _ = analyze(capsys, "--level", "4", "d6", "a1")
    _, second, _ = analyze(capsys, "--level", "4", "d6", "a1")
    a, b = json.loads(first), json.loads(second)
    assert a["limits"] == {"level": 4, "nodes": a["limits"]["nodes"]}
    assert (a["turn"], a["score"], a["nodes"], a["pv"]) == (b["turn"], b["score"], b["nodes"], b["pv"])


def test_a_level_is_searched_with_its_placing_extension(capsys, monkeypatch):
    # the placing trap of test_engine_placing at a small budget: the plain search walks into
    # f6, the extended one (as level 10 searches) does not; --depth stays the plain search
    for extension, turn in ((2, "g1"), (0, "f6")):
        small = replace(levels.LEVELS[10], nodes=5000, placing_extension=extension)
        monkeypatch.setitem(levels.LEVELS, 10, small)
        _, out, _ = analyze(capsys, "--level", "10", *TRAP.split())
        assert json.loads(out)["turn"] == turn
    _, out, _ = analyze(capsys, "--depth", "3", *TRAP.split())
    assert json.loads(out)["turn"] == "f6"


def test_known_win_is_given_as_win_in(capsys):
    # 75 quiet turns so far: 27 turns to mate would pass the N-move limit, but the capture
    # that restarts the counter comes in time (the tables' distance to conversion)
    code, out, _ = analyze(capsys, "--depth", "2", *ENDGAME_B.split())
    data = json.loads(out)
    assert code == 0
    assert data["score"] == {"win_in": 27}


def test_pending_removal_is_completed(capsys):
    code, out, _ = analyze(capsys, "--depth", "2", "d6", "a1", "f6", "a4", "b6")
    assert code == 0
    data = json.loads(out)
    assert data["pending"] == "b6"
    assert data["turn"] in ("b6xa1", "b6xa4")


def test_reads_the_record_from_stdin(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("d6 a1\n"))
    code, out, _ = analyze(capsys, "--depth", "1", "-")
    assert code == 0 and json.loads(out)["record"] == "d6 a1"


def test_finished_game_reports_the_outcome(capsys):
    record = (
        "d6 b4 f4 e4 d5 d7 f6 c4 f2xd7 a4xd5 b2 b6 d2xb6 g7 d7 b6 d5xb6 b6 d2-d1 a4-a1 d1-d2xc4 "
        "g7-g4 d2-d1 g4-g7 f4-g4 b4-c4 g4-f4xb6 a1-a4 d6-b6 c4-c5 f6-d6xg7 a4-a7 d1-d2xa7"
    )
    code, out, _ = analyze(capsys, "--depth", "1", *record.split())
    data = json.loads(out)
    assert code == 0 and data["turn"] is None and data["outcome"]["winner"] == "white"


@pytest.mark.parametrize(
    "args, message",
    [
        (["d6", "d6"], "d6 is occupied"),
        (["d6", "zz"], "not a turn"),
        (["--profile", "standard", "a1-a4"], "turn 1"),
    ],
)
def test_bad_records_exit_2_with_a_reason(capsys, args, message):
    code, out, err = analyze(capsys, *args)
    assert code == 2 and out == ""
    assert message in err


@pytest.mark.parametrize(
    "args",
    [
        ["--level", "0"],
        ["--level", "11"],
        ["--depth", "-1"],
        ["--time", "x"],
        ["--level", "3", "--depth", "2"],
        ["--profile", "nope"],
    ],
)
def test_bad_options_exit_2(capsys, args):
    with pytest.raises(SystemExit) as exc:
        main(["analyze", *args])
    assert exc.value.code == 2
    assert capsys.readouterr().err
