"""The systemd unit: valid for systemd, as documented, and shipped inside the package."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
UNIT = REPO / "systemd" / "morris-pi.service"
DROP_IN = REPO / "systemd" / "morris-pi-root.conf"
SYSTEMD_ANALYZE = shutil.which("systemd-analyze")


def settings(text: str) -> dict[str, list[str]]:
    """Key -> values in file order (systemd allows a key more than once)."""
    found: dict[str, list[str]] = {}
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith(("#", ";", "[")):
            key, _, value = line.partition("=")
            found.setdefault(key, []).append(value)
    return found


@pytest.mark.parametrize(
    "name, source",
    [
        ("morris-pi.service", "systemd/morris-pi.service"),
        ("morris-pi-root.conf", "systemd/morris-pi-root.conf"),
        ("config.example.toml", "wiring/config.example.toml"),
    ],
)
def test_packaged_copy_is_identical_to_the_source(name, source):
    packaged = resources.files("morris_pi.data").joinpath(name).read_text(encoding="utf-8")
    assert packaged == (REPO / source).read_text(encoding="utf-8"), (
        f"morris_pi/data/{name} differs from {source}; run: cp {source} morris_pi/data/{name}"
    )


def test_packaged_example_config_is_a_valid_config():
    from morris_pi.config.loader import parse_config

    text = resources.files("morris_pi.data").joinpath("config.example.toml").read_text(encoding="utf-8")
    config = parse_config(text, "config.example.toml")
    assert config.storage.state_dir == Path("/var/lib/morris-pi")  # the unit's StateDirectory


def test_unit_runs_the_board_unprivileged_and_hardened():
    unit = settings(UNIT.read_text())
    expected = {
        "Type": "notify",
        "NotifyAccess": "main",
        "ExecStart": "/opt/morris-pi/venv/bin/morris-pi run --config /etc/morris-pi/config.toml",
        "WatchdogSec": "30",
        "Restart": "on-failure",
        "User": "morris",
        "Group": "morris",
        "SupplementaryGroups": "gpio spi i2c",
        "StateDirectory": "morris-pi",
        "ConfigurationDirectory": "morris-pi",
        "NoNewPrivileges": "yes",
        "ProtectSystem": "strict",
        "ProtectHome": "yes",
        "PrivateTmp": "yes",
        "Environment": "PYTHONUNBUFFERED=1",
        "WantedBy": "multi-user.target",
    }
    for key, value in expected.items():
        assert unit.get(key) == [value], key
    # Device nodes must stay reachable through the gpio/spi/i2c groups.
    for key in ("PrivateDevices", "DevicePolicy", "DeviceAllow", "ProtectClock", "ProtectKernelTunables"):
        assert key not in unit, f"{key} would cut off /dev/gpiochip*, /dev/spidev* or /dev/i2c-*"
    # lgpio needs a writable working directory for its notification pipes.
    assert unit["WorkingDirectory"] == ["/run/morris-pi"] and unit["RuntimeDirectory"] == ["morris-pi"]


def _bytes(size: str) -> int:
    units = {"K": 1024, "M": 1024**2, "G": 1024**3}
    return int(size[:-1]) * units[size[-1]] if size[-1] in units else int(size)


def test_unit_bounds_the_memory_files_and_tasks_of_a_pi_zero_2_w():
    """A client on the LAN may push the process to its limits, never the Pi: the unit caps what
    the kernel gives the service, below a Zero 2 W's 512 MB and above what the board needs."""
    unit = settings(UNIT.read_text())
    memory = _bytes(unit["MemoryMax"][0])
    assert 100 * 1024**2 <= memory <= 256 * 1024**2  # the bench's peak is under 80 MB
    files = int(unit["LimitNOFILE"][0])
    from morris_pi.web.limits import MAX_SOCKETS

    assert MAX_SOCKETS + 64 <= files <= 1024  # the page's sockets and the board's own files fit
    assert 32 <= int(unit["TasksMax"][0]) <= 128  # the loop, the web thread, the engine, anyio's 40 workers


def test_root_drop_in_changes_only_user_and_capability_and_closes_other_devices():
    assert settings(DROP_IN.read_text()) == {
        "User": ["root"],
        "Group": ["root"],
        "CapabilityBoundingSet": ["CAP_SYS_RAWIO"],
        # root could open any device: only what rpi_ws281x and the sensors and buttons use
        "DevicePolicy": ["closed"],
        "DeviceAllow": ["/dev/mem rw", "/dev/vcio rw", "/dev/gpiomem rw", "char-gpiochip rw", "char-i2c rw"],
    }


def runnable_executable() -> str:
    # verify checks that ExecStart's binary exists and is executable by whoever runs it;
    # the real one lives in /opt/morris-pi on the Pi, so point it at one that exists here.
    for candidate in (os.path.realpath(sys.executable), shutil.which("true"), "/bin/sh"):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    pytest.skip("no executable to stand in for ExecStart")


def staged_unit(directory: Path) -> Path:
    """The unit with only ExecStart's program replaced; every other line is identical."""
    lines = UNIT.read_text().splitlines(keepends=True)
    prefix = "ExecStart=/opt/morris-pi/venv/bin/morris-pi "
    replaced = [
        f"ExecStart={runnable_executable()} {line[len(prefix) :]}" if line.startswith(prefix) else line
        for line in lines
    ]
    assert sum(a != b for a, b in zip(lines, replaced, strict=True)) == 1
    path = directory / "morris-pi.service"
    path.write_text("".join(replaced))
    return path


def verify(unit: Path, unit_path: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "SYSTEMD_UNIT_PATH": f"{unit_path}:", "SYSTEMD_LOG_COLOR": "0"}
    return subprocess.run(
        [SYSTEMD_ANALYZE, "verify", str(unit)], capture_output=True, text=True, env=env, timeout=60, check=False
    )


@pytest.mark.skipif(SYSTEMD_ANALYZE is None, reason="systemd-analyze is not installed")
def test_systemd_analyze_verify_reports_nothing(tmp_path):
    # Any output at all fails the test: verify prints unknown keys, bad values and
    # missing dependencies as warnings while still exiting 0. On systemd 252 it says
    # nothing about the morris user or the gpio/spi/i2c groups being absent from a
    # build machine, so no message is filtered.
    result = verify(staged_unit(tmp_path), tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout + result.stderr == ""


@pytest.mark.skipif(SYSTEMD_ANALYZE is None, reason="systemd-analyze is not installed")
def test_systemd_analyze_verify_with_the_root_drop_in(tmp_path):
    unit = staged_unit(tmp_path)
    (tmp_path / "morris-pi.service.d").mkdir()
    shutil.copy(DROP_IN, tmp_path / "morris-pi.service.d" / "root.conf")
    result = verify(unit, tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout + result.stderr == ""


@pytest.mark.skipif(SYSTEMD_ANALYZE is None, reason="systemd-analyze is not installed")
def test_verify_would_catch_a_mistake(tmp_path):
    # Guards the two tests above against passing because verify silently checked nothing.
    unit = staged_unit(tmp_path)
    unit.write_text(unit.read_text().replace("WatchdogSec=30", "WatchdogSec=30\nWatchDogSec=30"))
    result = verify(unit, tmp_path)
    assert "WatchDogSec" in result.stdout + result.stderr


@pytest.mark.skipif(SYSTEMD_ANALYZE is None, reason="systemd-analyze is not installed")
def test_verify_reads_the_device_allow_list(tmp_path):
    # Guards the drop-in test above: verify does parse DeviceAllow= and says so when it is wrong.
    unit = staged_unit(tmp_path)
    (tmp_path / "morris-pi.service.d").mkdir()
    text = DROP_IN.read_text().replace("DeviceAllow=/dev/mem rw", "DeviceAllow=/dev/mem rwz")
    (tmp_path / "morris-pi.service.d" / "root.conf").write_text(text)
    result = verify(unit, tmp_path)
    assert "Invalid device rights 'rwz'" in result.stdout + result.stderr


def test_the_sandbox_allows_the_web_page_socket_and_nothing_more():
    from morris_pi.config.model import WebConfig

    unit = settings(UNIT.read_text())
    # AF_UNIX for journald and sd_notify, TCP for the page; no packet, netlink or other sockets
    assert unit["RestrictAddressFamilies"] == ["AF_UNIX AF_INET AF_INET6"]
    # bind only the page's default port, talk only to this machine and the private LAN ranges
    assert unit["SocketBindDeny"] == ["any"]
    assert unit["SocketBindAllow"] == [f"tcp:{WebConfig().port}"]
    assert unit["IPAddressDeny"] == ["any"]
    allowed = unit["IPAddressAllow"][0].split()
    assert {"localhost", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16"} <= set(allowed)
    assert "any" not in allowed and "0.0.0.0/0" not in allowed
    # and none of the other relaxations
    for key in ("PrivateNetwork", "CAP_NET_BIND_SERVICE", "AmbientCapabilities=CAP"):
        assert key not in UNIT.read_text().replace("CapabilityBoundingSet=\n", ""), key
    assert unit["CapabilityBoundingSet"] == [""] and unit["AmbientCapabilities"] == [""]


@pytest.mark.skipif(SYSTEMD_ANALYZE is None, reason="systemd-analyze is not installed")
def test_systemd_analyze_security_rates_the_unit_ok(tmp_path):
    # docs/service.md records the full table; the web page's socket costs 0.2 of exposure (2.1 -> 2.3)
    env = {**os.environ, "SYSTEMD_LOG_COLOR": "0"}
    result = subprocess.run(
        [SYSTEMD_ANALYZE, "security", "--offline=true", "--no-pager", str(staged_unit(tmp_path))],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,  # the verdict is the exposure line below, whatever the exit status
    )
    last = (result.stdout.strip().splitlines() or [""])[-1]
    assert "Overall exposure level" in last, result.stdout + result.stderr
    score = float(last.split(":")[1].split()[0])
    assert score <= 2.5 and " OK" in last, last
    assert "RestrictAddressFamilies=~AF_PACKET" in result.stdout  # ✓: still no packet sockets
