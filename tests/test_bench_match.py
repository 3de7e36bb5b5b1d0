"""The ladder bench (bench/match.py), run as a command: its game log, its summary, and bad input."""

from __future__ import annotations

import json

import pytest
from bench_kit import bench

from morris_pi.engine.levels import get_level
from morris_pi.rules import Game


def match(*args: object) -> str:
    """``bench/match.py ARGS``, which must succeed; its standard output."""
    done = bench("match", *args)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    return done.stdout


def test_the_log_has_every_game_and_each_record_replays_to_its_result(tmp_path):
    log = tmp_path / "ladder.jsonl"
    printed = match("--pairs", "random-1:2,greedy-2:1", "--jobs", "1", "--log", log)
    games = [json.loads(line) for line in log.read_text().splitlines()]
    assert [g["pairing"] for g in games].count("random-1") == 4  # two openings, both colours
    assert [g["pairing"] for g in games].count("greedy-2") == 2
    for g in games:
        assert g["strong"]["number"] == int(g["pairing"].split("-")[1])
        game = Game.from_record(g["record"])
        assert game.record.startswith(g["opening"])
        assert len(game.history) == g["turns"]
        outcome = game.outcome
        assert outcome is not None and outcome.reason == g["reason"]  # none of these reach the cap
        assert g["winner"] == outcome.winner
        strong_colour = "white" if g["strong_white"] else "black"
        assert g["score"] == (0.5 if outcome.winner is None else float(outcome.winner == strong_colour))
        assert g["turns_strong"] + g["turns_weak"] == g["turns"] - len(g["opening"].split())
    # each opening once with each colour
    seen = {(g["pairing"], g["opening_index"], g["strong_white"]) for g in games}
    assert len(seen) == len(games)
    assert "random v 1" in printed and "greedy v 2" in printed


def test_a_seeded_game_repeats_so_skip_extends_an_earlier_run(tmp_path):
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    match("--pairs", "1-2:2", "--jobs", "1", "--log", first)
    match("--pairs", "1-2:3", "--skip", "1", "--jobs", "1", "--log", second)
    a = {(g["opening_index"], g["strong_white"]): g["record"] for g in map(json.loads, first.read_text().splitlines())}
    b = {(g["opening_index"], g["strong_white"]): g["record"] for g in map(json.loads, second.read_text().splitlines())}
    assert sorted(b) == [(1, False), (1, True), (2, False), (2, True)]
    assert a[(1, True)] == b[(1, True)] and a[(1, False)] == b[(1, False)]
    table = match("--summarize", first, second)
    assert "1 v 2" in table and table.count(" v 2 ") == 1  # one row: the repeated games count once
    row = next(line for line in table.splitlines() if "1 v 2" in line)
    assert row.split()[3] == "6"  # openings 0-2, both colours


def test_other_settings_are_logged_and_summarized_as_their_own_row(tmp_path):
    log = tmp_path / "probe.jsonl"
    match("--pairs", "1-2:1", "--jobs", "1", "--log", log)
    match("--pairs", "1-2:1", "--jobs", "1", "--log", log, "--set", "2:noise=10,depth=2")
    games = [json.loads(line) for line in log.read_text().splitlines()]
    assert {g["strong"]["noise"] for g in games} == {get_level(2).noise, 10}
    table = match("--summarize", log)
    assert "1 v 2 #2" in table


@pytest.mark.parametrize(
    "args, message",
    [
        (["--set", "7:nodes=lots"], "--set"),
        (["--set", "7:speed=3"], "unknown setting 'speed'"),
        (["--set", "10:placing=9"], "placing='9': 0 (off) to 4"),
        (["--set", "12:noise=3"], "levels are 1 to 10"),
        (["--pairs", "1-x"], "--pairs: '1-x'"),
    ],
)
def test_bad_options_are_named_without_a_traceback(args, message):
    done = bench("match", *args)
    assert done.returncode == 2
    assert message in done.stderr and "Traceback" not in done.stderr


def test_a_bad_log_line_is_named_with_file_and_line(tmp_path):
    log = tmp_path / "bad.jsonl"
    log.write_text('{"pairing": "1-2"}\n')
    done = bench("match", "--summarize", log)
    assert done.returncode == 2
    assert f"{log}, line 1" in done.stderr and "Traceback" not in done.stderr
