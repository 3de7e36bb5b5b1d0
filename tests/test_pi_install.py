"""The README's Pi install path: one path, the same in docs/service-install.md, and walkable.

The walk itself (pip install of the ``pi`` extra into a fresh venv) takes a
minute or two, so it is ``bench/pi_install_walk.py``; here its reading of the
README (``--lines``) is checked, so a new README line the walk does not understand
fails at once. ``bench/pi_wheels.py targets`` shows how it judges a Pi's platform.
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path
from typing import Any

import pytest
from bench_kit import bench

from morris_pi.commands import install_service
from morris_pi.config.loader import load_config

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()
SERVICE_INSTALL = (ROOT / "docs/service-install.md").read_text()


@functools.cache
def walk_lines() -> list[dict[str, Any]]:
    """What ``bench/pi_install_walk.py --lines`` makes of each line of the README's block."""
    done = bench("pi_install_walk", "--lines")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def readme_block() -> list[str]:
    return [line["text"] for line in walk_lines()]


def of_kind(kind: str) -> list[dict[str, Any]]:
    return [line for line in walk_lines() if line["kind"] == kind]


def _pi_section(text: str, heading: str) -> str:
    start = text.index(heading)
    following = re.search(r"^##? ", text[start + len(heading) :], re.M)
    return text[start : start + len(heading) + following.start()] if following else text[start:]


def test_the_walk_understands_every_line_of_the_readme_block():
    kinds = [line["kind"] for line in walk_lines()]
    assert kinds == ["apt-update", "apt-install", "repo", "clone", "venv", "pip-install", "install-service"]


def test_the_apt_line_has_what_pip_needs_to_build():
    [apt] = of_kind("apt-install")
    assert {"python3-dev", "build-essential", "python3-venv", "git"} <= set(apt["argv"])
    # lgpio has no wheel for Python 3.13 (trixie): its SWIG wrapper is built on the Pi
    assert "swig" in apt["argv"]


def test_the_pip_line_builds_lgpio_with_its_own_c_library():
    """PYPI=1 makes lgpio's sdist compile the lg library it carries; Debian has no liblgpio-dev."""
    [pip] = of_kind("pip-install")
    assert pip["env"] == {"PYPI": "1"}
    assert pip["argv"][-1] == "$HOME/morris-pi[pi]"


@functools.cache
def pi_targets() -> dict[str, Any]:
    """``bench/pi_wheels.py targets --json``: each Pi platform as the bench judges it (it asks no index)."""
    pytest.importorskip("packaging.requirements")  # the bench's own import
    done = bench("pi_wheels", "targets", "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_pi_extras_markers_are_judged_for_the_pi_not_for_this_machine():
    requirements = pytest.importorskip("packaging.requirements")
    for name, target in pi_targets().items():
        arm_only = [r for r in target["requirements"] if "platform_machine" in r["requirement"]]
        assert {requirements.Requirement(r["requirement"]).name for r in arm_only} == {
            "lgpio",
            "rpi-lgpio",
            "gpiod",
            "rpi_ws281x",
        }
        assert all(r["taken"] for r in arm_only), name


def test_a_pi_takes_every_manylinux_tag_up_to_its_glibc():
    trixie, bookworm = pi_targets()["armv7l-cp313"], pi_targets()["aarch64-cp311"]
    assert trixie["platforms"][0] == "manylinux_2_41_armv7l" and "manylinux_2_17_armv7l" in trixie["platforms"]
    assert bookworm["platforms"][0] == "manylinux_2_36_aarch64" and "manylinux2014_aarch64" in bookworm["platforms"]
    assert (trixie["abi"], bookworm["abi"]) == ("cp313", "cp311")


def test_service_install_gives_the_same_commands():
    block = readme_block()
    found = re.search(r"```sh\n(.*?)```", SERVICE_INSTALL[SERVICE_INSTALL.index("## Installing on the Pi") :], re.S)
    lines = [line.strip() for line in found.group(1).splitlines() if line.strip()]
    assert lines == block


def test_the_clone_has_a_placeholder_the_text_explains():
    block = readme_block()
    assert any(line.startswith("MORRIS_PI_REPO=https://github.com/YOUR-ACCOUNT/") for line in block)
    assert 'git clone "$MORRIS_PI_REPO" ~/morris-pi' in block
    assert "`YOUR-ACCOUNT` is a placeholder" in README


def test_install_test_and_start_come_in_the_same_order_in_both_documents():
    def order(text: str) -> list[str]:
        marks = {
            "install": "install-service --no-start",
            "configure": "/etc/morris-pi/config.toml",
            "test": "venv/bin/morris-pi hwtest",
            "start": "systemctl enable --now morris-pi",
        }
        return sorted(marks, key=lambda k: text.index(marks[k]))

    readme = _pi_section(README, "## Running the real board")
    service = _pi_section(SERVICE_INSTALL, "## Installing on the Pi")
    assert order(readme) == order(service) == ["install", "configure", "test", "start"]


def test_hwtest_is_run_from_the_venv_in_the_pi_steps():
    for text in (
        _pi_section(README, "## Running the real board"),
        _pi_section(SERVICE_INSTALL, "## Installing on the Pi"),
        (ROOT / "hardware/README.md").read_text(),
    ):
        calls = re.findall(r"(\S*morris-pi) hwtest --config", text)
        assert calls and all(c.endswith("/opt/morris-pi/venv/bin/morris-pi") for c in calls), calls


def test_the_install_note_matches_the_example_config(tmp_path):
    """The example is installed as the live config: the note must say what it really enables."""
    example = load_config(ROOT / "wiring/config.example.toml")
    assert example.sensors.mcp23017.interrupt_pins == () and example.buttons.pins == {}
    assert dict(example.leds.status) == {}
    (tmp_path / "etc").mkdir()
    notes = [s.text for s in install_service.plan("/opt/morris-pi", tmp_path) if isinstance(s, install_service.Note)]
    edit = next(n for n in notes if n.startswith("edit "))
    assert "commented out" in edit and "enables" not in edit
    assert "commented out" in _pi_section(README, "## Running the real board")
