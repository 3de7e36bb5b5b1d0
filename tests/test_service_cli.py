"""``morris-pi run`` as systemd runs it: READY over the notify socket, faults logged once, SIGTERM stops cleanly.

There is no sensor board or LED chain on the test machine, so the service runs
with both faults showing (and retried) — which is itself what a board with a
loose cable does.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def receive(sock: socket.socket, wanted: str, limit: int = 50) -> list[str]:
    got = []
    for _ in range(limit):
        message = sock.recv(4096).decode()
        got.append(message)
        if wanted in message.split("\n"):
            return got
    raise AssertionError(f"no {wanted} among {got}")


def test_run_notifies_systemd_and_stops_on_sigterm(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text(f'[game]\nmenu = false\n[storage]\nstate_dir = "{tmp_path / "state"}"\n')
    address = str(tmp_path / "notify")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(address)
    sock.settimeout(60)
    env = {**os.environ, "NOTIFY_SOCKET": address, "WATCHDOG_USEC": "1000000", "PYTHONPATH": str(ROOT)}
    env.pop("JOURNAL_STREAM", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "morris_pi.cli", "run", "--config", str(config)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        ready = receive(sock, "READY=1")
        assert any("STATUS=" in m and "white to move" in m for m in ready)
        receive(sock, "WATCHDOG=1")
        receive(sock, "WATCHDOG=1")  # pinged again about every half second
        proc.send_signal(signal.SIGTERM)
        receive(sock, "STOPPING=1")
        _out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
        sock.close()
    assert proc.returncode == 0
    lines = [line for line in err.splitlines() if line.startswith(("ERROR", "INFO", "WARNING", "CRITICAL"))]
    sensor_errors = [line for line in lines if line.startswith("ERROR morris_pi.service: the sensor board failed")]
    assert len(sensor_errors) == 1, err  # once per episode, not once per retry
    assert "I2C bus 1" in sensor_errors[0]
    assert any(line.startswith("ERROR morris_pi.service: the LED chain failed") for line in lines)
    assert "INFO morris_pi.service: got SIGTERM" in lines
