"""Bad input and bad output on the real command line: a clear message, no traceback, bounded work.

Each command runs as a subprocess of the installed console script's module, so the
exit status and everything the user sees on stderr are what a shell would show.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from morris_pi.commands.streams import EXIT_BROKEN_PIPE, MAX_STDIN_RECORD
from morris_pi.replay import MAX_BAD_LINES

CLI = [sys.executable, "-m", "morris_pi.cli"]


def morris(*argv: str, stdin: bytes | None = b"", stdout=subprocess.PIPE, timeout: float = 120):
    return subprocess.run(
        [*CLI, *argv], input=stdin, stdout=stdout, stderr=subprocess.PIPE, timeout=timeout, check=False
    )


def no_traceback(result) -> str:
    err = result.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err and "Exception ignored" not in err, err
    return err


# -- standard output ------------------------------------------------------------------------

COMMANDS = [("legal",), ("perft", "2"), ("analyze", "--depth", "1"), ("records", "--state-dir", "{tmp}", "list")]


@pytest.mark.parametrize("argv", COMMANDS, ids=lambda a: a[0])
def test_a_full_output_ends_with_one_line_and_status_1(argv, tmp_path):
    argv = [a.format(tmp=tmp_path) for a in argv]
    with open("/dev/full", "wb") as full:
        result = morris(*argv, stdout=full)
    err = no_traceback(result)
    assert result.returncode == 1
    assert err.strip() == f"morris-pi {argv[0]}: cannot write the output: No space left on device"


@pytest.mark.parametrize("argv", COMMANDS, ids=lambda a: a[0])
def test_a_closed_output_ends_with_one_line_and_status_1(argv, tmp_path):
    argv = [a.format(tmp=tmp_path) for a in argv]
    result = subprocess.run(
        " ".join([*CLI, *argv]) + " >&-", shell=True, stderr=subprocess.PIPE, timeout=120, check=False
    )
    err = no_traceback(result)
    assert result.returncode == 1 and "cannot write the output" in err


@pytest.mark.parametrize("argv", COMMANDS, ids=lambda a: a[0])
def test_a_broken_pipe_ends_quietly_with_status_141(argv, tmp_path):
    argv = [a.format(tmp=tmp_path) for a in argv]
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader has gone, as after `| head -1`
    try:
        result = morris(*argv, stdout=write_end)
    finally:
        os.close(write_end)
    assert no_traceback(result) == ""
    assert result.returncode == EXIT_BROKEN_PIPE


def test_replay_into_a_broken_pipe_ends_quietly(tmp_path):
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        result = morris("replay", "-", "--json", stdin=b'{"t": 1, "on": "d6"}\n', stdout=write_end)
    finally:
        os.close(write_end)
    assert no_traceback(result) == "" and result.returncode == EXIT_BROKEN_PIPE


# -- records from standard input --------------------------------------------------------------


@pytest.mark.parametrize("command", [("legal",), ("perft", "1"), ("analyze", "--depth", "1")], ids=lambda a: a[0])
@pytest.mark.parametrize(
    "garbage", [b"\0" * (MAX_STDIN_RECORD + 10), os.urandom(3 * MAX_STDIN_RECORD)], ids=["zeros", "random"]
)
def test_a_huge_record_on_stdin_is_refused_after_the_cap(command, garbage):
    result = morris(*command, "-", stdin=garbage)
    err = no_traceback(result)
    assert result.returncode == 2
    assert err.strip() == (
        f"morris-pi {command[0]}: standard input is longer than 1,048,576 bytes; a record is far shorter"
    )


def test_an_endless_stdin_is_cut_at_the_cap():
    with open("/dev/zero", "rb") as zero:
        result = subprocess.run([*CLI, "legal", "-"], stdin=zero, capture_output=True, timeout=60, check=False)
    assert result.returncode == 2 and "longer than 1,048,576 bytes" in no_traceback(result)


@pytest.mark.parametrize(
    "data, expected",
    [
        (b"d6 \xff a1", "not UTF-8 text (byte 4)"),
        (b"d6 a1 " + b"q" * 100_000, "turn 3: "),
    ],
)
def test_a_bad_record_on_stdin_is_named_briefly(data, expected):
    result = morris("legal", "-", stdin=data)
    err = no_traceback(result)
    assert result.returncode == 2 and expected in err and len(err) < 400


def test_a_good_record_on_stdin_still_works():
    result = morris("legal", "-", stdin=b"d6 a1 f6 a4 b6\n")
    assert result.returncode == 0 and result.stdout.split() == [b"b6xa1", b"b6xa4"]


# -- depth limits -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv, limit",
    [
        (("perft", "1000"), "DEPTH must be 0 to 7"),
        (("perft", "30"), "DEPTH must be 0 to 7"),
        (("perft", "9" * 5000), "is not a whole number"),
        (("analyze", "--depth", "999999999"), "--depth must be 1 to 16"),
        (("analyze", "--depth", "17"), "--depth must be 1 to 16"),
    ],
)
def test_depths_beyond_the_limit_are_refused_with_the_limit(argv, limit):
    result = morris(*argv, timeout=30)
    err = no_traceback(result)
    assert result.returncode == 2 and limit in err and len(err) < 1000


# -- replay -----------------------------------------------------------------------------------

GOOD = b'{"t": 1.0, "on": "d6"}\n{"t": 2.0}\n'


def replay(data: bytes, *extra: str):
    result = morris("replay", "-", *extra, stdin=data, timeout=60)
    return result, no_traceback(result), result.stdout.decode()


@pytest.mark.parametrize(
    "bad, message",
    [
        (b"\xe9t\xe9\n", "line 3: not UTF-8 text (byte 1 of the line)"),  # one latin-1 line
        ("caf\u00e9".encode("utf-16") + b"\n", "line 3: not UTF-8 text"),
        (b"[" * 60_000 + b"\n", "line 3: not valid JSON: nested too deeply"),
        (b'{"t": ' + b"9" * 400 + b"}\n", "line 3: t must be a number of seconds from 0 to 1e+09, got 9999"),
        (b'{"t": ' + b"9" * 5000 + b"}\n", "line 3: not valid JSON: 'Exceeds the limit"),
        (b'{"t": 3, "on": "' + b"x" * 60_000 + b'"}\n', "line 3: on: unknown point 'xxxxxxxx"),
    ],
)
def test_a_bad_line_after_good_ones_is_named_and_the_good_ones_are_replayed(bad, message):
    result, err, out = replay(GOOD + bad)
    assert result.returncode == 1
    assert message in err and len(err) < 400
    assert "1. d6" in out and "record: d6" in out


def test_a_giant_line_stops_the_replay_quoting_only_its_start():
    result, err, out = replay(GOOD + b'{"t": "' + b"x" * 50_000_000 + b'"}\n' + GOOD)
    assert result.returncode == 1
    assert "line 3: longer than 65,536 bytes" in err and len(err) < 300
    assert "record: d6" in out


def test_endless_input_ends_the_replay():
    with open("/dev/zero", "rb") as zero:
        result = subprocess.run([*CLI, "replay", "-"], stdin=zero, capture_output=True, timeout=60, check=False)
    err = no_traceback(result)
    assert result.returncode == 1 and "line 1: longer than 65,536 bytes" in err


def test_binary_garbage_gives_a_bounded_number_of_error_lines():
    garbage = bytes(range(1, 256)).replace(b"\n", b"") + b"\n"
    result, err, _ = replay(garbage * 10_000)
    lines = err.splitlines()
    assert result.returncode == 1
    assert len(lines) == MAX_BAD_LINES + 1 and "stopping after 20 bad lines" in lines[-1]


def test_a_bad_file_is_read_the_same_way(tmp_path):
    trace = tmp_path / "game.jsonl"
    trace.write_bytes(GOOD + b"\xff\xfe\n")
    result = morris("replay", str(trace))
    assert result.returncode == 1 and "line 3: not UTF-8 text" in no_traceback(result)
    assert b"record: d6" in result.stdout


# -- sim --record-trace -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "where, why",
    [
        ("/nonexistent/x.jsonl", "the folder /nonexistent does not exist"),
        ("{tmp}", "it is a directory"),
    ],
)
def test_sim_refuses_a_trace_path_it_could_not_write_before_opening_a_window(where, why, tmp_path):
    result = morris("sim", "--record-trace", where.format(tmp=tmp_path), timeout=60)
    err = no_traceback(result)
    assert result.returncode == 2 and why in err and "--record-trace" in err
