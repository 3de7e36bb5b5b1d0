"""The command line under hostile or broken input: a config that is no config, a failing card,
records whose tags carry terminal escapes, an install prefix that would break the unit."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from morris_pi.commands import install_service
from morris_pi.config.loader import MAX_CONFIG_BYTES, ConfigError, load_config
from morris_pi.core.record_format import format_record

MORRIS_PI = [sys.executable, "-m", "morris_pi.cli"]


def morris_pi(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "NOTIFY_SOCKET"}
    return subprocess.run([*MORRIS_PI, *args], capture_output=True, text=True, timeout=timeout, env=env, check=False)


def test_run_with_dev_zero_as_config_stops_at_once_with_the_config_exit_code():
    done = morris_pi("run", "--config", "/dev/zero", timeout=30)
    assert done.returncode == 2, done.stderr
    assert "/dev/zero: larger than 256 KiB: not a config file" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_config_read_is_bounded_whatever_the_file(tmp_path):
    big = tmp_path / "big.toml"
    big.write_text("# a comment\n" * (MAX_CONFIG_BYTES // 12 + 10))
    with pytest.raises(ConfigError, match="larger than 256 KiB"):
        load_config(big)
    bad = tmp_path / "latin1.toml"
    bad.write_bytes(b"[game]\n# caf\xe9\n")
    with pytest.raises(ConfigError, match="not UTF-8 text"):
        load_config(bad)


@pytest.mark.parametrize(
    "text",
    ["a = " + "[" * 5000 + "]" * 5000, "a = " + "{b = " * 3000 + "1" + "}" * 3000, "[game]\nx = " + "[" * 900],
)
def test_deep_nesting_in_the_config_is_a_config_error_with_exit_2(tmp_path, text):
    path = tmp_path / "deep.toml"
    path.write_text(text + "\n")
    with pytest.raises(ConfigError):
        load_config(path)
    done = morris_pi("run", "--config", str(path), timeout=30)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and "config error, not starting" in done.stderr


@pytest.mark.skipif(not Path("/proc/self/mem").exists(), reason="needs /proc/self/mem (Linux) for a read that fails")
def test_replay_of_a_file_that_fails_to_read_says_so_in_one_line():
    # /proc/self/mem opens but fails every read at offset 0 with EIO, as a failing SD card does
    done = morris_pi("replay", "/proc/self/mem")
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [
        "morris-pi replay: cannot read /proc/self/mem after line 0: Input/output error"
    ]


def _record_with_tags(directory: Path, **tags: str) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    base = {"Event": "casual", "Date": "2025.06.01", "Time": "14:03:22Z", "Result": "1-0", "Profile": "standard"}
    (directory / "20250601-140322.txt").write_text(format_record({**base, **tags}, "d6 a1 f6 a4 b6xa1"))


@pytest.mark.parametrize("action", [["list"], ["show", "20250601"]])
def test_records_never_print_terminal_escapes_from_a_record(tmp_path, action):
    from morris_pi import cli

    records = tmp_path / "records"
    _record_with_tags(records, White="Ann\x1b]0;pwned\x07\x1b[2J", Black="Bob\u202egnik", Reason="\x9b31m")
    out, err = io.StringIO(), io.StringIO()
    from morris_pi.commands import records as records_command

    parser = cli.build_parser()
    args = parser.parse_args(["records", "--state-dir", str(tmp_path), "--records-dir", str(records), *action])
    assert records_command.run(args, out, err) == 0, err.getvalue()
    shown = out.getvalue()
    assert not any(c in shown for c in "\x1b\x07\x9b\u202e"), repr(shown)
    assert "Ann\\x1b]0;pwned\\x07\\x1b[2J" in shown and "Bob\\u202egnik" in shown


@pytest.mark.parametrize(
    "prefix",
    ['/opt/m"p', "/opt/m%i", "/opt/$HOME", "/opt/a;b", "/opt/a\nb", "/opt/a\x00b", "opt/m", "/opt/../etc", "/a b"],
)
def test_install_service_refuses_a_prefix_that_would_break_the_unit(tmp_path, prefix):
    with pytest.raises(ValueError, match="--prefix must be an absolute path"):
        install_service.plan(prefix, tmp_path)
    out, err = io.StringIO(), io.StringIO()
    from morris_pi import cli

    args = cli.build_parser().parse_args(["install-service", "--dry-run", "--root", str(tmp_path), "--prefix", prefix])
    assert install_service.run(args, out=out, err=err, euid=0) != 0
    assert "--prefix must be an absolute path" in err.getvalue() and "wrote" not in out.getvalue()
    assert not (tmp_path / "etc").exists()


def test_install_service_takes_an_ordinary_prefix(tmp_path):
    steps = install_service.plan("/opt/morris-pi_2.1+x", tmp_path)
    unit = next(s for s in steps if "ExecStart=" in getattr(s, "text", ""))
    assert "ExecStart=/opt/morris-pi_2.1+x/venv/bin/morris-pi run" in unit.text
