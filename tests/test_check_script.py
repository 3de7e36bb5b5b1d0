"""scripts/check: every gate named runs, each gets a summary line, and any failure fails the run.

The gates run over a stand-in venv whose ``python -m TOOL`` succeeds or fails on demand, so
the script's own logic is tested without running ruff, mypy or pytest for real.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

CHECK = Path(__file__).resolve().parents[1] / "scripts" / "check"

# `python -m TOOL ...`: says which tool ran, and exits 3 for the tools listed in FAKE_FAIL
FAKE_PYTHON = """#!/bin/sh
echo "ran $2"
case " $FAKE_FAIL " in *" $2 "*) exit 3 ;; esac
exit 0
"""


def check(tmp_path: Path, *gates: str, fail: str = "") -> subprocess.CompletedProcess[str]:
    python = tmp_path / "venv" / "bin" / "python"
    if not python.exists():
        python.parent.mkdir(parents=True)
        python.write_text(FAKE_PYTHON)
        python.chmod(0o755)
    env = {**os.environ, "VENV": str(tmp_path / "venv"), "FAKE_FAIL": fail}
    return subprocess.run(
        ["bash", str(CHECK), *gates], capture_output=True, text=True, env=env, check=False, timeout=60
    )


def summary(result: subprocess.CompletedProcess[str]) -> list[str]:
    """The lines after ``== summary``, the time of each gate left out."""
    lines = result.stdout.split("== summary\n", 1)[1].splitlines()
    return [re.sub(r" in \d+ s$", "", line) for line in lines]


def test_every_gate_passing_gives_one_line_each_and_success(tmp_path):
    result = check(tmp_path)
    assert result.returncode == 0, result.stderr
    assert summary(result) == [
        "lint: passed",
        "format: passed",
        "types: passed",
        "tests: passed",
        "== all passed: lint format types tests",
    ]


def test_a_failing_gate_fails_the_run_and_the_gates_after_it_still_run(tmp_path):
    result = check(tmp_path, "types", "tests", fail="mypy")
    assert result.returncode == 1
    assert "ran pytest" in result.stdout  # the tests ran although the types failed
    assert summary(result) == ["types: FAILED (exit 3)", "tests: passed"]
    assert result.stderr.strip() == "== failed: types"


def test_each_failed_gate_is_named(tmp_path):
    result = check(tmp_path, "lint", "format", "types", fail="ruff")
    assert result.returncode == 1
    assert summary(result) == ["lint: FAILED (exit 3)", "format: FAILED (exit 3)", "types: passed"]
    assert result.stderr.strip() == "== failed: lint format"


def test_an_unknown_gate_is_refused_before_anything_runs(tmp_path):
    result = check(tmp_path, "lint", "speed")
    assert result.returncode == 2
    assert "ran" not in result.stdout
    assert "unknown gate 'speed'" in result.stderr


def test_a_missing_venv_says_how_to_make_one(tmp_path):
    env = {**os.environ, "VENV": str(tmp_path / "nowhere")}
    result = subprocess.run(["bash", str(CHECK)], capture_output=True, text=True, env=env, check=False, timeout=60)
    assert result.returncode == 2
    assert "no venv at" in result.stderr and "pip install -e '.[test]'" in result.stderr
