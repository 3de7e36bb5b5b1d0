"""The held-out measurement (``morris_pi.traces.heldout``, ``bench/soak.py``, ``bench/second_hands.py --measure``).

It counts what a player would notice: a game read exactly, a game where the board waits with a
true record so far, and a game with a turn nobody played; for any tracker named on the command
line, on seeds drawn at run time.
"""

from __future__ import annotations

import json

import pytest
from bench_kit import bench

from morris_pi.cli import main
from morris_pi.traces import heldout
from morris_pi.tracker import Tracker


class Blind(Tracker):
    """A tracker that never reads the switches: every game stops short, none goes wrong."""

    def update(self, occupancy, now, *, full=False):
        return None


def test_a_game_is_exact_stops_short_or_has_a_wrong_turn():
    truth = {"record": "d6 a1 f4", "outcome": {"winner": "white", "reason": "resigned"}}
    assert heldout.judge([{"record": "d6 a1 f4", "outcome": truth["outcome"]}], truth) == "exact"
    assert heldout.judge([{"record": "d6 a1", "outcome": None}], truth) == "short"
    assert heldout.judge([{"record": "d6 a1 f4", "outcome": None}], truth) == "short"  # the result not yet read
    assert heldout.judge([{"record": "d6 a4", "outcome": None}], truth) == "wrong"
    assert heldout.judge([{"record": "d6 a1 f4 g7", "outcome": None}], truth) == "wrong"
    assert heldout.judge([{"record": "d6 a1 f4", "outcome": {"winner": None, "reason": "draw"}}], truth) == "wrong"
    rows = [{"t": 1.0, "record": "d6 a4"}, {"t": 2.0, "record": "d6 a1"}]
    assert heldout.shown_wrong(rows, truth) == "t=1.0: d6 a4"


def test_a_seed_is_a_number_or_drawn_at_random():
    assert heldout.parse_seed("42") == 42
    drawn = {heldout.parse_seed("random") for _ in range(5)}
    assert len(drawn) > 1 and all(0 <= s < heldout.SEED_RANGE for s in drawn)
    # the seeds the readers were tuned on are never drawn as held out
    assert all(s >= heldout.TUNED_SEEDS for s in drawn)
    with pytest.raises(ValueError, match="whole number or 'random'"):
        heldout.parse_seed("soon")


def test_a_tracker_is_named_module_colon_callable_and_a_bad_name_is_told():
    assert heldout.load_tracker("morris_pi.tracker:Tracker") is Tracker
    for spec, message in [
        ("morris_pi.tracker", "MODULE:CALLABLE"),
        ("morris_pi.nowhere:Tracker", "cannot import morris_pi.nowhere"),
        ("morris_pi.tracker:Nobody", "has no Nobody"),
        ("morris_pi.tracker:__doc__", "is not callable"),
    ]:
        with pytest.raises(ValueError, match=message):
            heldout.load_tracker(spec)


def test_the_table_keeps_other_rows_and_replaces_a_run_of_the_same_cell(tmp_path):
    path = tmp_path / "heldout.md"
    old = heldout.Cell("soak", "morris_pi.tracker:Tracker", 7, 0.1, 10, 8, 1, 1, 2)
    other = heldout.Cell("second_hands", "morris_pi.tracker:Tracker", 7, 0.25, 10, 10, 0, 0, 0)
    heldout.write_table([old, other], path)
    new = heldout.Cell("soak", "morris_pi.tracker:Tracker", 7, 0.1, 20, 20, 0, 0, 0)
    heldout.write_table([new], path)
    rows = [line for line in path.read_text().splitlines() if line.startswith("| ") and "---" not in line][1:]
    assert len(rows) == 2
    assert any("| soak | `morris_pi.tracker:Tracker` | 7 | 10% | 20 | 20 | 0 | 0 | 0 | 100.0 |" in r for r in rows)
    assert any(r.startswith("| second_hands |") for r in rows)


def test_second_hands_measures_a_tracker_given_by_name_on_a_drawn_seed(tmp_path):
    table = tmp_path / "heldout.md"
    argv = ["--measure", "--games", "2", "--seed", "random", "--mess", "0.05", "--profiles", "standard"]
    done = bench("second_hands", *argv, "--table", table, "--tracker", "test_bench_heldout:Blind", importable=True)
    out = done.stdout
    assert done.returncode == 1, done.stderr  # not every game exact
    seed = int(out.split("seed drawn: ")[1].split()[0])
    # a tracker that reads nothing is never exact; whether a drawn game also ends with a
    # button (a resignation read without its turns counts wrong) depends on the draw
    assert f"seed {seed}, mess 5 %: 2 games, 0 exact (0.0 %)" in out
    assert f"| second_hands | `test_bench_heldout:Blind` | {seed} | 5% | 2 | 0 |" in table.read_text()


def test_soak_measures_each_mess_level_on_the_same_games(tmp_path):
    table = tmp_path / "heldout.md"
    out_dir = tmp_path / "failures"
    argv = ["--games", "2", "--seed", "3", "--noise", "0.05", "0.1", "--jobs", "1"]
    done = bench("soak", *argv, "--table", table, "--out", out_dir)
    code, out = done.returncode, done.stdout
    assert "soak morris_pi.tracker:Tracker seed 3, mess 5 %: 2 games" in out
    assert "soak morris_pi.tracker:Tracker seed 3, mess 10 %: 2 games" in out
    text = table.read_text()
    assert "| soak | `morris_pi.tracker:Tracker` | 3 | 5% | 2 |" in text and "| 3 | 10% | 2 |" in text
    assert code in (0, 1)


def test_a_failing_game_is_frozen_into_the_corpus_with_where_it_comes_from(tmp_path):
    games = tmp_path / "games"
    argv = [str(games), "--games", "1", "--seed", "4", "--mess", "0.05", "--turns", "6"]
    assert main(["traces", "second_hands", *argv]) == 0
    trace = next(games.glob("*.jsonl"))
    corpus = tmp_path / "corpus"
    argv = [trace, "--corpus", corpus, "--generator", "morris_pi.traces.second_hands", "--mess", "5 %"]
    done = bench("freeze_trace", *argv, "--seed", "4", "--game", "0", "--why", "six turns of a quiet game")
    assert done.returncode == 0, done.stderr
    assert "exact with morris_pi.tracker:Tracker" in done.stdout
    frozen = corpus / trace.name
    sidecar = json.loads(frozen.with_name(frozen.name.removesuffix(".jsonl") + ".expected.json").read_text())
    assert sidecar["exact"] is True and sidecar["seed"] == 4 and sidecar["profile"] == "standard"
    assert sidecar["mode"] == "two-player" and sidecar["why"] == "six turns of a quiet game"
    assert len(sidecar["record"].split()) == 6
    # Once there, it stays unless replaced on purpose; and a trace says where it comes from.
    done = bench("freeze_trace", *argv, "--why", "again")
    assert done.returncode == 1 and "already in the corpus" in done.stderr
    done = bench("freeze_trace", trace, "--corpus", tmp_path / "other", "--why", "no source")
    assert done.returncode == 1 and "--generator --mess" in done.stderr
