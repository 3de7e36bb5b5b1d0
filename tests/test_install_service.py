"""``morris-pi install-service`` into a staging root, with every command recorded, never run."""

from __future__ import annotations

import argparse
import io
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from morris_pi.commands import install_service

REPO = Path(__file__).resolve().parents[1]


def parse(argv):
    parser = argparse.ArgumentParser(prog="morris-pi")
    install_service.register(parser.add_subparsers(dest="command"))
    return parser.parse_args(["install-service", *argv])


class Recorder:
    def __init__(self, fail: str | None = None) -> None:
        self.calls: list[tuple[str, ...]] = []
        self.fail = fail

    def __call__(self, argv):
        self.calls.append(tuple(argv))
        return 1 if self.fail and argv[0] == self.fail else 0


def install(argv, runner=None, euid=0):
    out, err = io.StringIO(), io.StringIO()
    runner = runner or Recorder()
    code = install_service.run(parse(argv), runner=runner, out=out, err=err, euid=euid)
    return code, out.getvalue(), err.getvalue(), runner


@pytest.fixture
def target(tmp_path):
    """A staging root that looks like Raspberry Pi OS: the groups exist, the user does not."""
    root = tmp_path / "root"
    (root / "etc").mkdir(parents=True)
    (root / "etc/passwd").write_text("root:x:0:0:root:/root:/bin/bash\npi:x:1000:1000::/home/pi:/bin/bash\n")
    (root / "etc/group").write_text("root:x:0:\ngpio:x:997:pi\ni2c:x:998:pi\nspi:x:999:pi\n")
    exe = root / "opt/morris-pi/venv/bin/morris-pi"
    exe.parent.mkdir(parents=True)
    exe.write_text("#!/bin/sh\n")
    exe.chmod(0o755)
    return root


def unit_file(root: Path) -> Path:
    return root / "etc/systemd/system/morris-pi.service"


def test_fresh_install_creates_user_and_unit_and_enables_it(target):
    code, out, err, runner = install(["--root", str(target)])
    assert code == 0, err
    assert runner.calls == [
        (
            "useradd",
            "--root",
            str(target),
            "--system",
            "--user-group",
            "--home-dir",
            "/var/lib/morris-pi",
            "--no-create-home",
            "--shell",
            "/usr/sbin/nologin",
            "--comment",
            "morris-pi board service",
            "--groups",
            "gpio,spi,i2c",
            "morris",
        ),
        ("systemctl", "--root", str(target), "enable", "morris-pi.service"),
    ]
    assert unit_file(target).read_text() == (REPO / "systemd/morris-pi.service").read_text()
    assert unit_file(target).stat().st_mode & 0o777 == 0o644
    assert not (target / "etc/systemd/system/morris-pi.service.d").exists()
    assert f"write: {unit_file(target)}" in out


def test_on_the_live_system_it_reloads_and_starts():
    # Plan only: the live root is read, never written, and the commands are recorded.
    steps = install_service.plan("/opt/morris-pi", Path("/"))
    commands = [s.argv for s in steps if isinstance(s, install_service.Command)]
    assert commands[-2:] == [("systemctl", "daemon-reload"), ("systemctl", "enable", "--now", "morris-pi.service")]
    assert commands[0][0] in ("useradd", "usermod")
    assert all("--root" not in argv for argv in commands)
    no_start = install_service.plan("/opt/morris-pi", Path("/"), start=False)
    assert [s.argv for s in no_start if isinstance(s, install_service.Command)][-1] == (
        "systemctl",
        "enable",
        "morris-pi.service",
    )


def test_dry_run_prints_every_step_and_file_and_changes_nothing(target):
    before = sorted(p.relative_to(target) for p in target.rglob("*"))
    runner = Recorder()
    code, out, _, _ = install(["--root", str(target), "--dry-run", "--root-leds"], runner=runner, euid=1000)
    assert code == 0
    assert runner.calls == []
    assert sorted(p.relative_to(target) for p in target.rglob("*")) == before
    assert "would run: useradd --root" in out
    assert f"would write: {unit_file(target)}" in out
    assert "    | ExecStart=/opt/morris-pi/venv/bin/morris-pi run --config /etc/morris-pi/config.toml" in out
    assert "would write: " + str(target / "etc/systemd/system/morris-pi.service.d/root.conf") in out
    assert "    | User=root" in out
    assert f"would run: systemctl --root {target} enable morris-pi.service" in out


def test_refuses_without_root_privileges(target):
    code, out, err, runner = install(["--root", str(target)], euid=1000)
    assert code == 2 and runner.calls == [] and out == ""
    assert "run it with sudo" in err
    assert not unit_file(target).exists()


def test_second_run_changes_nothing_and_keeps_an_edited_config(target):
    install(["--root", str(target)])
    passwd = target / "etc/passwd"
    passwd.write_text(passwd.read_text() + "morris:x:996:996::/var/lib/morris-pi:/usr/sbin/nologin\n")
    config = target / "etc/morris-pi/config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text("# mine\n")
    code, out, _, runner = install(["--root", str(target)])
    assert code == 0
    assert runner.calls[0] == ("usermod", "--root", str(target), "--append", "--groups", "gpio,spi,i2c", "morris")
    assert f"unchanged: {unit_file(target)}" in out
    assert f"{config} exists; left as it is" in out
    assert config.read_text() == "# mine\n"


def test_prefix_moves_exec_start(target):
    exe = target / "srv/mp/venv/bin/morris-pi"
    exe.parent.mkdir(parents=True)
    exe.write_text("")
    code, out, _, _ = install(["--root", str(target), "--prefix", "/srv/mp"])
    assert code == 0
    exec_start = "ExecStart=/srv/mp/venv/bin/morris-pi run --config /etc/morris-pi/config.toml\n"
    assert exec_start in unit_file(target).read_text()
    assert "does not exist yet" not in out


def test_missing_executable_is_pointed_out(target):
    code, out, _, _ = install(["--root", str(target), "--prefix", "/usr/local/morris-pi"])
    assert code == 0
    assert "/usr/local/morris-pi/venv/bin/morris-pi does not exist yet" in out


@pytest.mark.parametrize("prefix", ["relative/path", "/with space"])
def test_bad_prefix_is_refused_before_anything_happens(target, prefix):
    code, _, err, runner = install(["--root", str(target), "--prefix", prefix])
    assert code == 1 and runner.calls == []
    assert "--prefix must be an absolute path of letters, digits" in err
    assert not unit_file(target).exists()


def test_bad_root_is_refused(tmp_path):
    code, _, err, _ = install(["--root", str(tmp_path / "nope")])
    assert code == 2 and "must be an existing absolute directory" in err


def test_missing_groups_get_a_drop_in_and_a_note(target):
    (target / "etc/group").write_text("root:x:0:\ngpio:x:997:\n")
    code, out, _, runner = install(["--root", str(target)])
    assert code == 0
    assert runner.calls[0][-3:] == ("--groups", "gpio", "morris")
    assert "group(s) spi, i2c do not exist here" in out
    drop_in = target / "etc/systemd/system/morris-pi.service.d/groups.conf"
    assert drop_in.read_text().endswith("[Service]\nSupplementaryGroups=\nSupplementaryGroups=gpio\n")


def test_root_leds_installs_the_drop_in(target):
    code, _, _, _ = install(["--root", str(target), "--root-leds"])
    assert code == 0
    drop_in = target / "etc/systemd/system/morris-pi.service.d/root.conf"
    assert drop_in.read_text() == (REPO / "systemd/morris-pi-root.conf").read_text()
    # Re-running without the flag keeps it but says that it still applies.
    _, out, _, _ = install(["--root", str(target)])
    assert drop_in.exists() and "still runs the service as root" in out


def test_a_failing_command_stops_the_installation(target):
    code, out, _, runner = install(["--root", str(target)], runner=Recorder(fail="useradd"))
    assert code == 1
    assert "useradd --root" in out and "failed with exit status 1; stopping" in out
    assert len(runner.calls) == 1
    assert not unit_file(target).exists()


def test_the_documented_example_config_is_installed(target):
    code, out, _, _ = install(["--root", str(target)])
    assert code == 0
    config = target / "etc/morris-pi/config.toml"
    assert config.read_text() == (REPO / "wiring/config.example.toml").read_text()
    assert config.stat().st_mode & 0o777 == 0o644  # the service user must read it
    assert f"edit {config} for your wiring" in out


def test_without_a_packaged_example_an_empty_config_is_written(target, monkeypatch):
    # The unit passes --config explicitly, so the file must exist; empty means the defaults.
    monkeypatch.setattr(install_service, "example_config", lambda: None)
    install(["--root", str(target)])
    text = (target / "etc/morris-pi/config.toml").read_text()
    assert text == install_service.MINIMAL_CONFIG
    from morris_pi.config.loader import parse_config

    assert parse_config(text) == parse_config("")


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")
def test_installed_unit_and_drop_ins_pass_systemd_analyze(target, tmp_path):
    (target / "etc/group").write_text("gpio:x:997:\n")
    prefix = tmp_path / "prefix"
    exe = prefix / "venv/bin/morris-pi"
    exe.parent.mkdir(parents=True)
    exe.write_text("#!/bin/sh\n")
    exe.chmod(0o755)
    install(["--root", str(target), "--prefix", str(prefix), "--root-leds"])
    unit_dir = target / "etc/systemd/system"
    result = subprocess.run(
        ["systemd-analyze", "verify", str(unit_dir / "morris-pi.service")],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "SYSTEMD_UNIT_PATH": f"{unit_dir}:", "SYSTEMD_LOG_COLOR": "0"},
        check=False,
    )
    assert (result.returncode, result.stdout + result.stderr) == (0, "")


# -- links inside the image ---------------------------------------------------------------------


def test_an_absolute_link_in_the_image_is_followed_inside_the_image(target, tmp_path):
    outside = tmp_path / "host-systemd"  # on this machine, outside the image
    outside.mkdir()
    (target / "etc/systemd").mkdir(parents=True)
    (target / "etc/systemd/system").symlink_to(outside)  # absolute: in the image it means <root>/<outside>
    code, _, err, _ = install(["--root", str(target)])
    assert code == 0, err
    assert list(outside.iterdir()) == []  # nothing written on this machine
    inner = target / str(outside).lstrip("/") / "morris-pi.service"
    assert inner.read_text().startswith("# morris-pi")


@pytest.mark.parametrize(
    "link, to",
    [
        ("etc/morris-pi", "../../outside"),
        ("etc/systemd", "../../../../../../../../../tmp"),
    ],
)
def test_a_relative_link_out_of_the_image_is_refused_before_anything_runs(target, tmp_path, link, to):
    (tmp_path / "outside").mkdir()
    (target / link).parent.mkdir(parents=True, exist_ok=True)
    (target / link).symlink_to(to)
    code, out, err, runner = install(["--root", str(target), "--root-leds"])
    assert code == 1 and "leads outside" in err and "refusing" in err
    assert runner.calls == [] and out == ""
    assert list((tmp_path / "outside").iterdir()) == []


def test_a_link_loop_in_the_image_is_refused(target):
    (target / "etc/morris-pi").symlink_to("morris-pi")
    code, _, err, runner = install(["--root", str(target)])
    assert code == 1 and "too many levels of symbolic links" in err and runner.calls == []
