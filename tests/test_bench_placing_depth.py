"""bench/placing_depth.py: where the placing extension acts, from a logged game; bad input."""

from __future__ import annotations

import json

import pytest
from bench_kit import bench

GAME = "e3 f2 d6 b4 c3 d3 d5 d7 c5 e5 c4xd7 d7 d2 g7 a7 f4 f6 e4 d6-b6"


def test_it_reports_depths_turns_and_nodes_of_a_logged_game(tmp_path):
    log = tmp_path / "run.jsonl"
    log.write_text(json.dumps({"record": GAME}) + "\n")
    done = bench("placing_depth", "--log", log, "--games", "1", "--nodes", "600", "--depth", "3")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    # one position at each cut, then the nodes at depth 3 (the trap position grows the most)
    assert out.count(" of 1") == 3
    assert "3 positions: N = 0: " in out and "N = 2: " in out


def test_a_file_that_is_no_log_is_named(tmp_path):
    log = tmp_path / "run.jsonl"
    log.write_text("not json\n")
    done = bench("placing_depth", "--log", log)
    assert done.returncode == 2
    err = done.stderr
    assert f"--log {log}: not a log of bench/sanmill.py" in err and "Traceback" not in err


@pytest.mark.parametrize("option", ["--games", "--nodes", "--depth"])
def test_a_count_below_one_is_refused(option):
    done = bench("placing_depth", option, "0")
    assert done.returncode == 2
    err = done.stderr
    assert f"argument {option}: 0 is not at least 1" in err and "Traceback" not in err


def test_a_log_without_games_is_named(tmp_path):
    log = tmp_path / "run.jsonl"
    log.write_text("\n")
    done = bench("placing_depth", "--log", log, "--games", "1")
    assert done.returncode == 2
    assert f"--log {log}: no game in it" in done.stderr
