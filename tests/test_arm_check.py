"""The ARM check's own choices, checked natively: it runs under qemu only in CI (scripts/arm-check)."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _arm_check():
    spec = importlib.util.spec_from_file_location("arm_check", ROOT / "scripts/arm_check.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(spec.name, module)
    spec.loader.exec_module(module)
    return module


def test_every_test_file_the_arm_check_runs_exists_and_covers_rules_tracker_and_engine():
    check = _arm_check()
    assert all((ROOT / path).is_file() for path in check.TESTS), [p for p in check.TESTS if not (ROOT / p).is_file()]
    kinds = {re.match(r"tests/test_(rules|tracker|engine)_?", path).group(1) for path in check.TESTS}
    assert kinds == {"rules", "tracker", "engine"}
    assert set(check.QUICK) <= set(check.TESTS)


def test_the_arm_check_replays_messy_traces_to_their_records_here_too():
    summary = _arm_check().replay_traces()
    assert summary.startswith("3 games") and "exact record" in summary


def test_the_arm_check_starts_no_process():
    """A foreign-architecture child cannot start under qemu user mode without binfmt_misc."""
    text = (ROOT / "scripts/arm_check.py").read_text()
    assert "subprocess" not in text and "os.system" not in text and "multiprocessing" not in text
