"""``--fen`` for ``analyze``, ``legal`` and ``perft``: start from a position instead of replaying a record."""

from __future__ import annotations

import json

from morris_pi.cli import main
from morris_pi.rules import Game, perft

# Reached by this record in a game; the FEN is what Sanmill printed for it (tests/data/sanmill_fens.json).
RECORD = "a4 e4 e5 g1 d2 e3 g7 a7 c4 b6 c3 a1 f2 d5 b4 xd5 d3 c5 xe4 f6 b4-b2 xg1 f6-f4 c4-b4 a1-d1 b4-c4 xe3 d1-a1"
FEN = "*O**@OOO/**@OOO*@/*O***@O@ w m s 9 0 5 0 0 0 0 0 0 0 0 1 15"
MILL = "********/OO*****O/*****@@* w p r 3 6 2 7 1 0 0 0 0 0 0 0 3"  # after d6 a1 f6 a4 b6


def run(capsys, *args):
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_legal_from_a_fen_lists_what_the_record_allows(capsys):
    code, out, _ = run(capsys, "legal", "--fen", FEN)
    assert code == 0
    assert out.split() == [str(t) for t in Game.from_record(RECORD).legal_turns()]


def test_a_record_after_the_fen_continues_from_it(capsys):
    _, out, _ = run(capsys, "legal", "--fen", FEN, "b2-b4xd3", "a1-d1")
    assert out.split() == [str(t) for t in Game.from_record(RECORD + " b2-b4 xd3 a1-d1").legal_turns()]


def test_a_pending_removal_in_the_fen_is_completed_by_a_lone_removal(capsys):
    _, out, _ = run(capsys, "legal", "--fen", MILL)
    assert sorted(out.split()) == ["b6xa1", "b6xa4"]
    _, out, _ = run(capsys, "legal", "--fen", MILL, "xa4", "d7")
    assert out.split() == [str(t) for t in Game.from_record("d6 a1 f6 a4 b6xa4 d7").legal_turns()]


def test_perft_from_a_fen(capsys):
    code, out, _ = run(capsys, "perft", "3", "--fen", FEN)
    assert code == 0
    assert out.startswith(f"perft(3) = {perft(Game.from_record(RECORD).position, 3)} ")


def test_analyze_from_a_fen_names_it_and_searches_the_same_position(capsys):
    code, out, _ = run(capsys, "analyze", "--depth", "3", "--fen", FEN)
    assert code == 0
    data = json.loads(out)
    assert data["fen"] == FEN and data["record"] == "" and data["side"] == "white"
    _, out2, _ = run(capsys, "analyze", "--depth", "3", *RECORD.split())
    assert data["turn"] == json.loads(out2)["turn"]


def test_a_bad_fen_or_turn_after_it_is_a_message_not_a_traceback(capsys):
    code, out, err = run(capsys, "analyze", "--fen", FEN.replace(" w ", " v "))
    assert code == 2 and out == ""
    assert err.startswith("morris-pi analyze: ") and "field 2 (side to move)" in err
    code, _, err = run(capsys, "legal", "--fen", MILL, "xd6")
    assert code == 2 and "turn 1 after the FEN" in err and "own man" in err
    code, _, err = run(capsys, "perft", "2", "--fen", MILL)
    assert code == 2 and "waits for its removal" in err
