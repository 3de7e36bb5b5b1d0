"""``morris-pi traces GENERATOR OUT``: the one command of the three trace generators.

Each writes its games as traces with their sidecars and a summary; the same arguments write the
same files; a trace played without mess replays to exactly the record its sidecar holds; a bad
argument is refused in one line.
"""

from __future__ import annotations

import json

import pytest
from bench_kit import bench

from morris_pi.cli import main
from morris_pi.traces import heldout
from morris_pi.traces.physical.files import expectation

GENERATORS = {
    "simple": ["--max-turns", "40"],
    "physical": ["--mess", "0.1"],
    "second_hands": ["--turns", "12"],
}


def run(capsys, *args):
    code = main(["traces", *map(str, args)])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def files(folder):
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


@pytest.mark.parametrize("generator", list(GENERATORS))
def test_each_generator_writes_traces_sidecars_and_a_summary(generator, tmp_path, capsys):
    code, out, _ = run(capsys, generator, tmp_path, "--games", "3", "--seed", "2", *GENERATORS[generator])
    assert code == 0 and out.startswith(f"3 traces in {tmp_path}\n")
    traces = sorted(tmp_path.glob("*.jsonl"))
    assert len(traces) == 3
    for trace in traces:
        lines, expected, source = expectation(trace)
        assert expected is not None and source.endswith(".expected.json")
        assert "t" not in json.loads(lines[0])  # the header replay reads first
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["games"] == 3 and summary["seed"] == 2 and sum(summary["counts"].values()) > 0


@pytest.mark.parametrize("generator", list(GENERATORS))
def test_the_same_arguments_write_the_same_files(generator, tmp_path, capsys):
    argv = ["--games", "2", "--seed", "7", "--profiles", "lasker", "club", *GENERATORS[generator]]
    assert run(capsys, generator, tmp_path / "a", *argv)[0] == 0
    assert run(capsys, generator, tmp_path / "b", *argv)[0] == 0
    assert files(tmp_path / "a") == files(tmp_path / "b")


def test_games_cycle_through_the_profiles_then_the_modes(tmp_path, capsys):
    argv = ["--games", "4", "--seed", "10", "--profiles", "standard", "twelve", "--max-turns", "20"]
    assert run(capsys, "simple", tmp_path, *argv, "--modes", "two-player", "computer-black")[0] == 0
    assert sorted(path.name for path in tmp_path.glob("*.jsonl")) == [
        "simple-standard-computer-black-seed12.jsonl",
        "simple-standard-two-player-seed10.jsonl",
        "simple-twelve-computer-black-seed13.jsonl",
        "simple-twelve-two-player-seed11.jsonl",
    ]
    header = json.loads((tmp_path / "simple-twelve-computer-black-seed13.jsonl").read_text().splitlines()[0])
    assert header == {"profile": "twelve", "white": "human", "black": "computer"}


@pytest.mark.parametrize(("generator", "clean"), [("simple", ["--clean"]), ("physical", ["--mess", "0"])])
def test_a_trace_without_mess_replays_to_exactly_its_record(generator, clean, tmp_path, capsys):
    assert run(capsys, generator, tmp_path, "--games", "3", "--seed", "1", *clean)[0] == 0
    for trace in sorted(tmp_path.glob("*.jsonl")):
        lines, expected, _ = expectation(trace)
        code, rows, err = heldout.replay_rows(lines)
        assert code == 0, err
        assert heldout.judge(rows, expected) == "exact", trace.name


def test_a_drawn_seed_is_printed_so_the_run_can_be_made_again(tmp_path, capsys):
    code, out, _ = run(capsys, "second_hands", tmp_path / "a", "--games", "1", "--seed", "random", "--turns", "4")
    assert code == 0
    seed = int(out.split("seed drawn: ")[1].split()[0])
    assert run(capsys, "second_hands", tmp_path / "b", "--games", "1", "--seed", seed, "--turns", "4")[0] == 0
    assert files(tmp_path / "a") == files(tmp_path / "b")


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["simple", "OUT", "--games", "0"], "argument --games: 0 is not at least 1"),
        (["physical", "OUT", "--mess", "1.5"], "argument --mess: must lie in 0..1, got 1.5"),
        (["second_hands", "OUT", "--seed", "soon"], "argument --seed: a whole number or 'random', got 'soon'"),
        (["physical", "OUT", "--level", "11"], "argument --level: level must be 1-10, got 11"),
    ],
)
def test_a_bad_argument_is_refused_by_the_parser(argv, says, tmp_path, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["traces", *[str(tmp_path) if a == "OUT" else a for a in argv]])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert says in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--kinds", "sneeze"], "unknown mess kind(s) sneeze"),
        (["--target", "nowhere"], "unknown target 'nowhere'"),
    ],
)
def test_a_kind_or_target_the_generator_does_not_know_is_named(argv, says, tmp_path, capsys):
    code, _, err = run(capsys, "physical", tmp_path, "--games", "1", *argv)
    assert code == 2 and err.startswith("morris-pi traces physical: ") and says in err


def test_bench_second_hands_writes_what_the_command_writes(tmp_path, capsys):
    argv = ["--games", "2", "--seed", "3", "--mess", "0.1", "--turns", "10", "--profiles", "standard"]
    done = bench("second_hands", tmp_path / "bench", *argv)
    assert done.returncode == 0, done.stderr
    assert run(capsys, "second_hands", tmp_path / "command", *argv)[0] == 0
    assert files(tmp_path / "bench") == files(tmp_path / "command")
