"""The board on a Raspberry Pi whose Python packages are incomplete or wrong.

A pretend Pi 4 (``BLINKA_FORCEBOARD``) takes Adafruit Blinka's real Raspberry
Pi import path, without ``gpiod`` or ``lgpio``: the service must show the
fault, log what is missing, and keep running. ``pin_factory = "rpigpio"`` must
be refused, with the reason, where the installed RPi.GPIO cannot work. And
the ``pi`` extra must keep the bounds the README promises.
"""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys
import threading
import tomllib
from pathlib import Path

import pytest

from morris_pi import cli
from morris_pi.config.loader import ConfigError, parse_config
from morris_pi.core.ports import ManualClock
from morris_pi.core.session import ERROR_PATTERNS
from morris_pi.hw import factory, platform
from morris_pi.hw.errors import HardwareError, LedError
from morris_pi.service.hardware import LedSlot, SensorSlot

ROOT = Path(__file__).resolve().parents[1]
FAKE_PI = {"BLINKA_FORCEBOARD": "RASPBERRY_PI_4B", "BLINKA_FORCECHIP": "BCM2XXX"}


def fake_pi(tmp_path: Path, config: str, *args: str) -> tuple[dict, str]:
    path = tmp_path / "config.toml"
    path.write_text(config + f'\n[storage]\nstate_dir = "{tmp_path / "state"}"\n')
    env = {**os.environ, **FAKE_PI}
    done = subprocess.run(
        [sys.executable, str(ROOT / "tests" / "fake_pi.py"), str(path), "5", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout), done.stderr


TWO_PLAYERS = '[game]\nmode = "two-player"\nmenu = false\n'


@pytest.fixture
def logs_restored():
    """``morris-pi run`` configures the root logger; put it back afterwards."""
    root = logging.getLogger()
    saved = (list(root.handlers), root.level)
    yield
    root.handlers[:] = saved[0]
    root.setLevel(saved[1])


def test_a_pi_without_gpiod_shows_the_led_fault_and_the_game_goes_on(tmp_path):
    outcome, log = fake_pi(tmp_path, TWO_PLAYERS)
    assert outcome["exit"] == 0  # stopped when asked, not by the fault
    assert "gpiod" in outcome["faults"]["leds"] and "sensors" not in outcome["faults"]
    assert outcome["record"] == "d6"  # the man put on d6 was read as a turn
    assert any("fault" in n and "gpiod" in n for n in outcome["notified"] if n.startswith("STATUS="))
    errors = [line for line in log.splitlines() if line.startswith("ERROR")]
    assert len(errors) == 1, log  # logged once, not on every retry
    assert "the LED chain failed" in errors[0] and "the Python package gpiod is missing" in errors[0]
    assert "Traceback" not in log


def test_a_pi_without_lgpio_shows_the_sensor_pattern_and_keeps_running(tmp_path):
    config = TWO_PLAYERS + '[sensors.mcp23017]\ninterrupt_pins = [4]\n[leds]\nbackend = "neopixel"\nbrightness = 1.0\n'
    outcome, log = fake_pi(tmp_path, config, "--fake-leds")
    assert outcome["exit"] == 0
    assert "the Python package lgpio is missing" in outcome["faults"]["sensors"]
    assert outcome["error_lit"] == sorted(ERROR_PATTERNS["sensors"])
    assert outcome["record"] == ""  # no turn is read while the sensors are out
    assert "the sensor board failed" in log and "Traceback" not in log


def test_morris_pi_run_on_a_pi_without_gpiod_stays_up_until_stopped(tmp_path):
    """The command systemd starts, on the real clock: up with its faults, then a clean SIGTERM."""
    shadow = tmp_path / "shadow" / "gpiod"
    shadow.mkdir(parents=True)
    (shadow / "__init__.py").write_text("raise ModuleNotFoundError(\"No module named 'gpiod'\", name='gpiod')\n")
    path = tmp_path / "config.toml"
    path.write_text(TWO_PLAYERS + f'[storage]\nstate_dir = "{tmp_path / "state"}"\n[service]\nwatchdog = false\n')
    env = {**os.environ, **FAKE_PI, "PYTHONPATH": str(tmp_path / "shadow")}
    env.pop("NOTIFY_SOCKET", None)
    proc = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys; from morris_pi.cli import main; sys.exit(main())",
            "run",
            "--config",
            str(path),
        ],
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    guard = threading.Timer(120, proc.kill)  # only if it hangs; the test waits for lines, not time
    guard.start()
    lines: list[str] = []
    try:
        for line in proc.stderr:
            lines.append(line)
            if "board up" in line:
                break
        assert proc.poll() is None, "".join(lines)  # still running after the faults
        proc.send_signal(signal.SIGTERM)
        rest = proc.stderr.read()
        code = proc.wait()
    finally:
        guard.cancel()
        if proc.poll() is None:
            proc.kill()
    log = "".join(lines) + rest
    assert code == 0, log
    assert "the Python package gpiod is missing" in log and "Traceback" not in log


# -- any exception while opening is a fault -----------------------------------------------


def test_a_slot_turns_any_exception_at_open_into_a_fault():
    clock = ManualClock(5.0)

    def explode():
        raise ZeroDivisionError("a driver bug")

    leds = LedSlot("leds", "the LED chain", explode, clock)
    sensors = SensorSlot("sensors", "the sensor board", lambda: {}["no such bus"])
    assert leds.open(clock.now()) is False and sensors.open(clock.now()) is False
    assert leds.backoff.failing and "ZeroDivisionError: a driver bug" in leds.backoff.message
    assert sensors.backoff.failing and "KeyError" in sensors.backoff.message
    with pytest.raises(HardwareError):
        sensors.read()


def test_the_factory_wraps_whatever_a_driver_raises(monkeypatch):
    from morris_pi.hw import leds

    def broken(config, *, spi=None):
        raise AttributeError("module 'board' has no attribute 'SCLK'")

    monkeypatch.setattr(leds, "neopixel_spi_strip", broken)
    with pytest.raises(LedError, match="cannot open the LED chain: AttributeError: module 'board'"):
        factory.build_leds(parse_config(""))


# -- pin_factory = "rpigpio" ------------------------------------------------------------------

PI4_OLD = platform.Machine("Raspberry Pi 4 Model B Rev 1.5", (6, 1), ("RPi.GPIO",))
PI4_NEW = platform.Machine("Raspberry Pi 4 Model B Rev 1.5", (6, 12), ("RPi.GPIO",))
PI5_REAL = platform.Machine("Raspberry Pi 5 Model B Rev 1.0", (6, 6), ("RPi.GPIO",))
PI5_DROP_IN = platform.Machine("Raspberry Pi 5 Model B Rev 1.0", (6, 12), ("rpi-lgpio",))
ZERO_DROP_IN = platform.Machine("Raspberry Pi Zero 2 W Rev 1.0", (6, 12), ("rpi_lgpio",))
BOTH = platform.Machine("Raspberry Pi 3 Model B Plus Rev 1.3", (6, 12), ("RPi.GPIO", "rpi-lgpio"))


@pytest.mark.parametrize(
    "machine, problem",
    [
        (PI4_OLD, None),
        (PI4_NEW, "cannot detect edges on Linux 6.6 and later (this is 6.12; gpiozero issue 1136)"),
        (PI5_REAL, "does not support the Raspberry Pi 5 Model B Rev 1.0"),
        (PI5_DROP_IN, None),
        (ZERO_DROP_IN, None),
        (BOTH, "both RPi.GPIO and rpi-lgpio are installed"),
        (platform.Machine(None, (6, 12), ()), None),  # not installed: opening the pins says so
    ],
    ids=["pi4-kernel-6.1", "pi4-kernel-6.12", "pi5-rpi-gpio", "pi5-rpi-lgpio", "zero2w-rpi-lgpio", "both", "neither"],
)
def test_which_rpi_gpio_can_work(machine, problem):
    found = platform.rpigpio_problem(machine)
    assert (found is None) if problem is None else (problem in found), found
    if found is not None and "both" not in found:
        assert "rpi-lgpio" in found and 'pin_factory = "lgpio"' in found  # says what to do


def test_rpigpio_where_it_cannot_work_is_a_config_error_at_its_line(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text('[buttons]\nnew = 17\n\n[gpio]\npin_factory = "rpigpio"\n')
    from morris_pi.config.loader import load_config

    config = load_config(path)
    with pytest.raises(ConfigError) as caught:
        platform.check(config, PI5_REAL)
    assert str(caught.value).startswith(f'{path}:5: gpio.pin_factory: "rpigpio" cannot work here: ')
    platform.check(config, PI5_DROP_IN)  # the drop-in works on a Pi 5
    platform.check(parse_config('[gpio]\npin_factory = "rpigpio"\n'), PI5_REAL)  # no GPIO opened at all


def test_morris_pi_run_refuses_it_with_exit_2(tmp_path, monkeypatch, capsys, logs_restored):
    path = tmp_path / "config.toml"
    path.write_text(
        f'[sensors]\nbackend = "matrix"\n[gpio]\npin_factory = "rpigpio"\n[storage]\nstate_dir = "{tmp_path}"\n'
    )
    monkeypatch.setattr(platform.Machine, "here", classmethod(lambda cls: PI4_NEW))
    assert cli.main(["run", "--config", str(path)]) == 2  # RestartPreventExitStatus=2: no restart loop
    err = capsys.readouterr().err
    assert f"config error, not starting: {path}:4: gpio.pin_factory:" in err and "gpiozero issue 1136" in err


def test_the_pin_factory_refuses_it_too(monkeypatch):
    """hwtest and the service's retries open pins through here, config check or not."""
    monkeypatch.setattr(platform.Machine, "here", classmethod(lambda cls: PI5_REAL))
    with pytest.raises(HardwareError, match=r"pin factory 'rpigpio' cannot work here: the installed RPi.GPIO"):
        factory.make_pin_factory("rpigpio")


def test_this_machine_is_described():
    here = platform.Machine.here()
    assert here.kernel is not None and isinstance(here.rpi_gpio, tuple)


# -- the pi extra ------------------------------------------------------------------------------


def _pi_extra() -> list[str]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]["pi"]


def test_the_pi_extra_bounds_every_dependency_and_picks_rpi_lgpio():
    requirements = pytest.importorskip("packaging.requirements")
    parsed = {r.name.lower().replace("_", "-"): r for r in map(requirements.Requirement, _pi_extra())}
    assert "rpi-lgpio" in parsed and "rpi.gpio" not in parsed  # they install the same module
    for name, req in parsed.items():
        assert any(s.operator == ">=" for s in req.specifier), name
    assert req_allows(parsed["adafruit-blinka"], "10.0.0") and not req_allows(parsed["adafruit-blinka"], "11.0")
    assert not req_allows(parsed["adafruit-blinka"], "9.2.0")  # its Pi pin layer differs: RPi.GPIO
    assert req_allows(parsed["gpiod"], "2.2.2") and not req_allows(parsed["gpiod"], "3.0")
    assert not req_allows(parsed["gpiozero"], "3.0") and req_allows(parsed["rpi-ws281x"], "5.0.0")


def req_allows(req, version: str) -> bool:
    return req.specifier.contains(version, prereleases=True)


@pytest.mark.parametrize(
    "machine, expected",
    [
        (
            "x86_64",
            {
                "gpiozero",
                "smbus2",
                "adafruit-blinka",
                "adafruit-circuitpython-neopixel-spi",
                "adafruit-circuitpython-neopixel",
            },
        ),
        (
            "aarch64",
            {
                "gpiozero",
                "smbus2",
                "adafruit-blinka",
                "adafruit-circuitpython-neopixel-spi",
                "adafruit-circuitpython-neopixel",
                "lgpio",
                "rpi-lgpio",
                "gpiod",
                "rpi-ws281x",
            },
        ),
        (
            "armv7l",
            {
                "gpiozero",
                "smbus2",
                "adafruit-blinka",
                "adafruit-circuitpython-neopixel-spi",
                "adafruit-circuitpython-neopixel",
                "lgpio",
                "rpi-lgpio",
                "gpiod",
                "rpi-ws281x",
            },
        ),
    ],
)
def test_the_c_libraries_install_only_on_arm_linux(machine, expected):
    requirements = pytest.importorskip("packaging.requirements")
    env = {"platform_machine": machine, "sys_platform": "linux", "python_version": "3.11"}
    chosen = {
        r.name.lower().replace("_", "-")
        for r in map(requirements.Requirement, _pi_extra())
        if r.marker is None or r.marker.evaluate(env)
    }
    assert chosen == expected


def test_a_driver_failing_to_open_with_a_huge_message_is_one_short_fault_line():
    """A driver that puts a whole buffer into its exception: the fault shown stays one short line."""
    clock = ManualClock()

    def explode():
        raise ValueError("bad answer: " + "ff " * 5000)

    leds = LedSlot("leds", "the LED chain", explode, clock)
    assert leds.open(clock.now()) is False
    message = leds.backoff.message
    assert message.startswith("cannot open the LED chain: ValueError: bad answer: ff ff")
    assert message.endswith("...") and len(message) < 250
