"""The story decoder's shadow bench (``bench/shadow_tracker.py``) and the model fit, run as commands."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from bench_kit import bench


@pytest.fixture(autouse=True)
def _tables_elsewhere(tmp_path, monkeypatch):
    monkeypatch.setenv("MORRIS_PI_BENCH_RESULTS", str(tmp_path / "results"))


def test_the_shadow_bench_counts_games_and_writes_its_table(tmp_path) -> None:
    run = bench("shadow_tracker", "--gen", "physical", "--seed", "0", "--games", "2", "--jobs", "1", "--mess", "0")
    assert run.returncode == 0, run.stderr
    assert "seed 0, generator physical, two-player, mess 0.0, 2 games" in run.stdout
    assert "exact 2, short 0, wrong 0" in run.stdout
    assert re.search(r"\d+ wakes, p99 \d+\.\d ms, max \d+ ms", run.stdout)
    table = (tmp_path / "results" / "shadow_tracker.md").read_text()
    assert "| physical seed 0 mess 0 | 2 | 2 | 0 | 0 |" in table
    assert "| p99 ms per wake |" in table


def test_games_against_the_computer_are_read_with_its_prompts(tmp_path) -> None:
    run = bench(
        "shadow_tracker", "--gen", "physical", "--seed", "0", "--games", "2", "--jobs", "1", "--mess", "0",
        "--mode", "computer-white",
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "exact 2, short 0, wrong 0" in run.stdout
    table = (tmp_path / "results" / "shadow_tracker.md").read_text()
    assert "| physical seed 0 mess 0 computer-white | 2 | 2 | 0 | 0 |" in table


def test_takebacks_by_hand_are_played_only_when_named(tmp_path) -> None:
    run = bench(
        "shadow_tracker", "--gen", "physical", "--seed", "2", "--games", "2", "--jobs", "1", "--mess", "0.5",
        "--kinds", "takeback",
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    table = (tmp_path / "results" / "shadow_tracker.md").read_text()
    assert "| physical seed 2 mess 0.5 kinds takeback | 2 | 2 | 0 | 0 |" in table


def test_a_frozen_corpus_is_read_against_its_true_records(tmp_path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    source = Path(__file__).parent / "data" / "traces"
    for name in ("tracing-standard-two-player-0", "tracing-club-computer-black-0"):
        for suffix in (".jsonl", ".expected.json"):
            shutil.copy(source / (name + suffix), corpus)
    run = bench("shadow_tracker", "--corpus", str(corpus), "--jobs", "1", "--beside-tracker")
    assert run.returncode == 0, run.stderr
    assert "exact 2, short 0, wrong 0" in run.stdout and "Tracker exact / short / wrong 2 / 0 / 0" in run.stdout
    table = (tmp_path / "results" / "shadow_tracker.md").read_text()
    assert f"| corpus {corpus.resolve()} | 2 | 2 | 0 | 0 |" in table
    empty = bench("shadow_tracker", "--corpus", str(tmp_path), "--no-table")
    assert empty.returncode == 2 and "--corpus: no traces" in empty.stderr


@pytest.mark.parametrize(
    ("trace", "sidecar", "said"),
    [
        ('{"t": 0, "on": "d6"}\n', None, "x.jsonl: [Errno 2]"),
        ('{"t": 0, "on": "d6"}\n', "[]", "x.jsonl: x.expected.json has no record"),
        ('{"profile": "chess"}\n', '{"record": ""}', "x.jsonl: line 1: profile: unknown rule profile 'chess'"),
        ("not json\n", '{"record": ""}', "x.jsonl: Expecting value"),
    ],
)
def test_a_bad_corpus_trace_is_refused_naming_it(tmp_path, trace: str, sidecar: str | None, said: str) -> None:
    (tmp_path / "x.jsonl").write_text(trace)
    if sidecar is not None:
        (tmp_path / "x.expected.json").write_text(sidecar)
    run = bench("shadow_tracker", "--corpus", str(tmp_path), "--no-table")
    assert run.returncode == 2
    assert said in run.stderr and "Traceback" not in run.stderr


def test_only_the_physical_generator_plays_against_the_computer() -> None:
    run = bench("shadow_tracker", "--gen", "second", "--mode", "computer-black", "--no-table")
    assert run.returncode == 2
    assert "--mode: only the physical generator plays against the computer" in run.stderr
    run = bench("shadow_tracker", "--corpus", "--mode", "computer-black", "--no-table")
    assert run.returncode == 2
    assert "--mode: a corpus's traces name the computer's side in their headers" in run.stderr


def test_beside_the_decoder_the_same_traces_are_replayed_by_the_tracker(tmp_path) -> None:
    run = bench("shadow_tracker", "--gen", "second", "--seed", "0", "--games", "2", "--jobs", "1", "--beside-tracker")
    assert run.returncode in (0, 1), run.stderr
    assert "; Tracker exact / short / wrong " in run.stdout
    table = (tmp_path / "results" / "shadow_tracker.md").read_text()
    lines = table.splitlines()
    assert next(line for line in lines if line.startswith("| run |")).endswith(
        "| Tracker exact / short / wrong | commit | date | python |"
    )
    row = next(line for line in lines if line.startswith("| second seed 0 mess 0.25 |"))
    summary = next(line for line in run.stdout.splitlines() if line.startswith("exact "))
    counts = summary.rsplit("Tracker exact / short / wrong ", 1)[1].strip()
    assert "slowest games: " in run.stdout
    assert f"| {counts} |" in row


@pytest.mark.parametrize(
    ("argument", "said"),
    [
        (("--seed", "soon"), "--seed: a whole number or 'random', got 'soon'"),
        (("--mess", "1.5"), "--mess: must lie in 0..1, got 1.5"),
        (("--games", "0"), "--games: 0 is not at least 1"),
        (("--gen", "physical", "--kinds", "sneeze"), "unknown kind(s) sneeze; kinds are bounce"),
        (("--gen", "second", "--kinds", "takeback"), "--kinds: only the physical generator's games take kinds of mess"),
    ],
)
def test_a_bad_argument_is_refused_naming_it(argument: tuple[str, str], said: str) -> None:
    run = bench("shadow_tracker", *argument, "--no-table")
    assert run.returncode == 2
    assert said in run.stderr and "Traceback" not in run.stderr


def test_a_model_that_cannot_tell_noise_from_turns_is_seen_in_the_counts(tmp_path) -> None:
    # every closing as cheap as a turn's: the same clean games are no longer all read
    model = tmp_path / "model.json"
    model.write_text(json.dumps({"touch": [0.05, 50.0, 0.0], "drop": [1.5, 50.0, 0.0], "turn": 40.0}))
    run = bench(
        "shadow_tracker",
        "--gen",
        "physical",
        "--seed",
        "0",
        "--games",
        "2",
        "--jobs",
        "1",
        "--mess",
        "0",
        "--model",
        model,
        "--no-table",
    )
    assert run.returncode in (0, 1) and "of 2;" in run.stdout, run.stderr
    assert "exact 2," not in run.stdout, run.stdout
    assert not (tmp_path / "results" / "shadow_tracker.md").exists()


def test_the_fit_reads_games_along_their_records_and_prints_a_model() -> None:
    run = bench(
        "fit_tracker_model", "--gen", "physical", "--seeds", "0", "--games", "1", "--rounds", "1", "--jobs", "1"
    )
    assert run.returncode == 0, run.stderr
    assert "turns read along the record" in run.stderr
    assert run.stdout.startswith("Model(carry=Duration(")


def test_the_fit_refuses_the_seeds_that_judge_it() -> None:
    run = bench("fit_tracker_model", "--seeds", "10-12")
    assert run.returncode == 2
    assert "seeds 0 to 9 only" in run.stderr


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('{"knok": [1, 2, 3]}', "'knok' is no field of the model"),
        ('{"knock": 3}', "knock needs [median, sigma, prior], got 3"),
        ('{"margin": "wide"}', "margin needs a number, got 'wide'"),
        ("[1]", "a JSON object of model fields is needed"),
        ("nope", "model.json: Expecting value"),
    ],
)
def test_a_bad_model_file_is_refused_naming_what_is_wrong(tmp_path, text: str, said: str) -> None:
    model = tmp_path / "model.json"
    model.write_text(text)
    run = bench("shadow_tracker", "--games", "1", "--model", model, "--no-table")
    assert run.returncode == 2
    assert "--model:" in run.stderr and said in run.stderr and "Traceback" not in run.stderr


def test_the_fit_refuses_seeds_it_cannot_read() -> None:
    run = bench("fit_tracker_model", "--seeds", "1-x")
    assert run.returncode == 2
    assert "--seeds: a range a-b or a list a,b,c of whole numbers, got '1-x'" in run.stderr
