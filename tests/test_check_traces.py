"""bench/check_traces.py and bench/soak.py: outside traces checked against replay, only exact records count."""

from __future__ import annotations

import json

from bench_kit import bench

from morris_pi.traces.physical import CLEAN, generate
from morris_pi.traces.physical.files import expectation, write


def check(*args):
    return bench("check_traces", *args)


def clean_trace(seed: int = 1):
    return generate("standard", seed, mess=CLEAN, target="open", max_turns=20)


def test_a_trace_with_its_sidecar_counts_when_replay_ends_with_exactly_its_record(tmp_path):
    write(clean_trace(), tmp_path, "good")
    done = check(tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 traces in" in done.stdout


def test_a_wrong_expected_record_is_a_mismatch_naming_the_turn(tmp_path):
    trace = clean_trace()
    path = write(trace, tmp_path, "bad")
    data = trace.expected()
    turns = data["record"].split()
    data["record"] = " ".join([*turns[:-1], "a1"])
    path.with_name("bad.expected.json").write_text(json.dumps(data))
    done = check(tmp_path)
    assert done.returncode == 1
    out = done.stdout
    assert f"MISMATCH turn {len(turns)}" in out and "0 replayed to it exactly" in out


def test_the_expected_record_may_sit_in_the_header_and_is_taken_out_before_replay(tmp_path):
    trace = clean_trace()
    lines = trace.lines()
    header = json.loads(lines[0])
    header["expected"] = {"record": trace.record}
    (tmp_path / "inline.jsonl").write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    replay_lines, expected, _ = expectation(tmp_path / "inline.jsonl")
    assert expected == {"record": trace.record} and "expected" not in json.loads(replay_lines[0])
    assert check(tmp_path).returncode == 0


def test_traces_without_an_expectation_are_skipped_and_bad_sidecars_named(tmp_path):
    (tmp_path / "loose.jsonl").write_text("\n".join(clean_trace().lines()) + "\n")
    write(clean_trace(2), tmp_path, "broken")
    (tmp_path / "broken.expected.json").write_text("{not json")
    done = check(tmp_path)
    assert done.returncode == 1
    out = done.stdout
    assert "skipped (no sidecar, no expected record in the header): loose.jsonl" in out
    assert "broken.jsonl: cannot read:" in out and "not valid JSON" in out


def test_a_sidecar_whose_turns_taken_back_are_malformed_is_named(tmp_path):
    write(clean_trace(2), tmp_path, "odd")
    sidecar = tmp_path / "odd.expected.json"
    sidecar.write_text(json.dumps({**json.loads(sidecar.read_text()), "taken_back": [["3", "d6"]]}))
    done = check(tmp_path)
    assert done.returncode == 1
    assert "odd.jsonl: cannot read:" in done.stdout and '"taken_back" needs [turns before, "turn"] pairs' in done.stdout


def test_a_missing_folder_is_reported(tmp_path):
    done = check(tmp_path / "nope")
    assert done.returncode == 1 and "is not a folder" in done.stderr


def test_the_soak_writes_each_failure_where_replay_can_show_it_again(tmp_path):
    done = bench("soak", "--games", "3", "--jobs", "1", "--noise", "0", "--out", tmp_path, "--no-table")
    assert done.returncode == 0, done.stderr
    assert "exact record and outcome: 3 of 3 (100.0 %)" in done.stdout
    assert list(tmp_path.iterdir()) == []
    done = bench("soak", "--kinds", "sneeze")
    assert done.returncode == 2 and "unknown mess kind(s) sneeze" in done.stderr
