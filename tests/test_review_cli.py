"""``morris-pi review``: one JSON line per turn, the same every time, from a record, an id or stdin."""

from __future__ import annotations

import argparse
import io
import json
from datetime import UTC, datetime

import pytest

from morris_pi.commands import review as review_cmd
from morris_pi.core.storage import Storage
from morris_pi.rules import Game

FIELDS = {"ply", "turn", "side", "grade", "loss", "better"}


def run(argv: list[str]) -> tuple[int, list[dict], str]:
    parser = argparse.ArgumentParser(prog="morris-pi")
    review_cmd.register(parser.add_subparsers(dest="command"))
    out, err = io.StringIO(), io.StringIO()
    code = review_cmd.run(parser.parse_args(["review", *argv]), out=out, err=err)
    return code, [json.loads(line) for line in out.getvalue().splitlines()], err.getvalue()


def test_each_turn_gets_a_line_and_the_ignored_mill_is_a_mistake() -> None:
    code, lines, _ = run(["--budget", "quick", "d6", "a1", "f6", "a4"])
    assert code == 0
    assert [line["ply"] for line in lines] == [1, 2, 3, 4]
    assert all(set(line) >= FIELDS for line in lines)
    last = lines[-1]
    assert (last["turn"], last["side"], last["grade"]) == ("a4", "black", "mistake")
    assert last["better"] is not None and last["loss"] > 100


def test_a_review_repeats_exactly() -> None:
    first = run(["--budget", "quick", "d6", "a1", "f6", "a4", "b6xa1"])
    again = run(["--budget", "quick", "d6", "a1", "f6", "a4", "b6xa1"])
    assert first == again


def test_a_record_quoted_as_one_argument_is_its_turns() -> None:
    assert run(["--budget", "quick", "d6 a1 f6 a4"]) == run(["--budget", "quick", "d6", "a1", "f6", "a4"])


def test_a_stored_record_is_reviewed_by_its_id(tmp_path) -> None:
    store = Storage(tmp_path, clock=lambda: datetime(2025, 6, 1, 20, 15, tzinfo=UTC))
    won = Game.from_record("d6 a1 f6 a4 b6xa1")
    won.resign("black")
    store.finish(won, {"mode": "two-player"})
    code, lines, _ = run(["--budget", "quick", "--state-dir", str(tmp_path), "latest"])
    assert code == 0
    assert [line["turn"] for line in lines] == ["d6", "a1", "f6", "a4", "b6xa1"]


def test_turns_after_a_fen_are_numbered_on_from_it() -> None:
    fen = Game.from_record("d6 a1 f6").fen
    code, lines, _ = run(["--budget", "quick", "--fen", fen, "a4", "b6xa1"])
    assert code == 0
    assert [(line["turn"], line["side"]) for line in lines] == [("a4", "black"), ("b6xa1", "white")]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([], "give the turns, a record id"),
        (["d6", "d6"], "turn 2: d6: d6 is occupied"),
        (["--state-dir", "{tmp}", "nosuchgame"], "'nosuchgame' is neither a turn nor a record"),
        (["--fen", "not a fen"], "morris-pi review: "),
    ],
)
def test_bad_input_is_named_and_nothing_is_printed(argv, message, tmp_path, capsys) -> None:
    code, lines, err = run([a.replace("{tmp}", str(tmp_path)) for a in argv])
    assert code == 2
    assert lines == []
    assert message in err + capsys.readouterr().err
