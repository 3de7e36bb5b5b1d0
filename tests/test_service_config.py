"""``morris-pi run`` refuses a bad config with the file, line and key, and exits 2 (no restart loop)."""

from __future__ import annotations

import logging
import threading
from pathlib import Path

import pytest

from morris_pi import cli
from morris_pi.commands.run import EXIT_CONFIG

ROOT = Path(__file__).resolve().parents[1]

BAD = {
    "unknown key": ("[game]\nlevle = 3\n", "bad.toml:2: game.levle: unknown key in [game]; did you mean 'level'?"),
    "wrong type": (
        '[game]\nmode = "computer"\n\n[sensors]\nscan_hz = "fast"\n',
        "bad.toml:5: sensors.scan_hz: must be a number, got a string",
    ),
    "two points on one input": (
        '[sensors.mcp23017.map]\na7 = "0x20:A0"\nd7 = "0x20:A0"\n',
        "bad.toml:3: sensors.mcp23017.map.d7: 0x20:A0 is already used by a7",
    ),
    "LED index beyond the chain": (
        "[leds]\ncount = 25\n[leds.status]\nerror = 25\n",
        "bad.toml:4: leds.status.error: LED index 25 is beyond the chain",
    ),
    "one GPIO twice": ('[sensors]\nbackend = "gpio"\n', "sensors.gpio.map.a4: GPIO 9"),
    "not TOML": ("[game\nlevel = 3\n", "bad.toml:1: not valid TOML"),
}


@pytest.fixture
def logs_restored():
    root = logging.getLogger()
    saved = (list(root.handlers), root.level, threading.excepthook)
    yield
    root.handlers[:] = saved[0]
    root.setLevel(saved[1])
    threading.excepthook = saved[2]


@pytest.mark.parametrize("case", list(BAD))
def test_a_bad_config_stops_start_up_naming_file_line_and_key(case, tmp_path, capsys, logs_restored, monkeypatch):
    text, expected = BAD[case]
    path = tmp_path / "bad.toml"
    path.write_text(text)
    monkeypatch.chdir(tmp_path)
    code = cli.main(["run", "--config", "bad.toml"])
    err = capsys.readouterr().err
    assert code == EXIT_CONFIG == 2
    assert expected in err
    assert err.startswith("CRITICAL morris_pi.service: config error, not starting: ")


def test_a_missing_explicit_config_is_a_config_error(tmp_path, capsys, logs_restored):
    assert cli.main(["run", "--config", str(tmp_path / "nope.toml")]) == 2
    assert "no such file" in capsys.readouterr().err


def test_under_systemd_the_message_carries_a_journal_priority(tmp_path, capfd, logs_restored, monkeypatch):
    import os
    import sys

    path = tmp_path / "bad.toml"
    path.write_text("[game]\nlevel = 11\n")
    st = os.fstat(sys.stderr.fileno())
    monkeypatch.setenv("JOURNAL_STREAM", f"{st.st_dev}:{st.st_ino}")
    assert cli.main(["run", "--config", str(path)]) == 2
    err = capfd.readouterr().err
    assert err.startswith("<2>morris_pi.service: config error, not starting: ")
    assert "bad.toml:2: game.level: must be between 1 and 10, got 11" in err


@pytest.mark.parametrize("unit", ["systemd/morris-pi.service", "morris_pi/data/morris-pi.service"])
def test_systemd_does_not_restart_into_a_config_error(unit):
    lines = (ROOT / unit).read_text().splitlines()
    assert "Restart=on-failure" in lines
    assert f"RestartPreventExitStatus={EXIT_CONFIG}" in lines
