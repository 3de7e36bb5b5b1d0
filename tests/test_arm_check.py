"""The ARM check's own choices, checked natively: it runs under qemu only in CI (scripts/arm-check)."""

from __future__ import annotations

import re
from pathlib import Path

from bench_kit import script

ROOT = Path(__file__).resolve().parents[1]


def arm_check(*args: str) -> str:
    """``scripts/arm_check.py ARGS``, run natively, which must succeed; its standard output."""
    done = script("scripts/arm_check.py", *args)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_every_test_file_the_arm_check_runs_exists_and_covers_rules_tracker_and_engine():
    tests, quick = arm_check("--list").split(), arm_check("--list", "--quick").split()
    assert all((ROOT / path).is_file() for path in tests), [p for p in tests if not (ROOT / p).is_file()]
    kinds = {re.match(r"tests/test_(rules|tracker|engine)_?", path).group(1) for path in tests}
    assert kinds == {"rules", "tracker", "engine"}
    assert quick and set(quick) <= set(tests)


def test_the_arm_check_replays_messy_traces_to_their_records_here_too():
    out = arm_check("--only", "traces")
    summary = re.search(r"^-- messy traces replayed: (.*) \([\d.]+ s\)$", out, re.M).group(1)
    assert summary.startswith("3 games") and "exact record" in summary


def test_the_arm_check_starts_no_process():
    """A foreign-architecture child cannot start under qemu user mode without binfmt_misc."""
    text = (ROOT / "scripts/arm_check.py").read_text()
    assert "subprocess" not in text and "os.system" not in text and "multiprocessing" not in text
