"""``morris-pi install-service``: install the systemd unit, its user and config (run with sudo).

    sudo /opt/morris-pi/venv/bin/morris-pi install-service            # install, enable, start
    morris-pi install-service --dry-run                               # print every step and file
    sudo morris-pi install-service --root /mnt/sdcard --no-start      # stage an SD card image

Steps, in order (each is skipped when already done):

1. the ``morris`` system user, in the groups gpio, spi and i2c that exist;
2. ``/etc/morris-pi/config.toml`` from the example config, only if absent;
3. ``/etc/systemd/system/morris-pi.service`` from the packaged unit (ExecStart
   adjusted to ``--prefix``), plus drop-ins: ``root.conf`` with ``--root-leds``,
   ``groups.conf`` when some of gpio/spi/i2c do not exist on this system (a
   missing supplementary group would stop the service from starting);
4. ``systemctl daemon-reload`` and ``systemctl enable --now morris-pi.service``.

With ``--root DIR`` files go under DIR, ``useradd``/``usermod`` get ``--root DIR``
and ``systemctl --root DIR enable`` only links the unit (nothing is started).
Every path under DIR is resolved as the image itself will see it
(``inside_root``): an absolute symbolic link in the image points into the
image, not into this machine, and a relative one that climbs out of DIR is
refused before anything is done.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TextIO

from morris_pi.core.safe_files import atomic_write_text
from morris_pi.errors import MorrisPiError

from . import Subparsers

DEFAULT_PREFIX = "/opt/morris-pi"
USER = "morris"
GROUPS = ("gpio", "spi", "i2c")
UNIT_NAME = "morris-pi.service"
UNIT_DIR = "etc/systemd/system"
CONFIG_PATH = "etc/morris-pi/config.toml"
STATE_DIR = "/var/lib/morris-pi"
PACKAGED_EXEC = "/opt/morris-pi/venv/bin/morris-pi"

Runner = Callable[[Sequence[str]], int]

#: Written when no example config is packaged: an empty config means the defaults.
MINIMAL_CONFIG = """\
# morris-pi configuration. Empty, so the built-in defaults apply: two MCP23017
# expanders at 0x20 and 0x21 (polled), NeoPixels on SPI (GPIO 10), no buttons,
# every wire in ring order. Every key is documented in wiring/config.example.toml.
"""


@dataclass(frozen=True)
class Command:
    argv: tuple[str, ...]
    why: str


@dataclass(frozen=True)
class WriteFile:
    path: Path  # absolute, under the target root
    text: str
    why: str
    mode: int = 0o644


@dataclass(frozen=True)
class Note:
    text: str


Step = Command | WriteFile | Note


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "install-service",
        help="install and start the systemd service (run with sudo)",
        description="Create the morris user, /etc/morris-pi/config.toml and the systemd unit, then enable "
        "and start it. Each step is skipped when already done.",
    )
    parser.add_argument(
        "--prefix",
        default=DEFAULT_PREFIX,
        help=f"install prefix; the unit runs PREFIX/venv/bin/morris-pi (default {DEFAULT_PREFIX})",
    )
    parser.add_argument(
        "--root",
        default="/",
        metavar="DIR",
        help="install into DIR instead of / (an SD card image); nothing is started",
    )
    parser.add_argument("--dry-run", action="store_true", help="print every step and file without doing anything")
    parser.add_argument(
        "--root-leds",
        action="store_true",
        help="also install the drop-in that runs the service as root (PWM NeoPixels on GPIO18, Pi 3/4)",
    )
    parser.add_argument("--no-start", action="store_true", help="enable the service but do not start it now")
    parser.set_defaults(func=run)


# -- planning: pure, reads only the target root -----------------------------------------


class RootEscapeError(MorrisPiError, ValueError):
    """A path in the image leads outside it."""


def inside_root(root: Path, path: str) -> Path:
    """``path`` (absolute, as seen inside the image at ``root``) resolved inside ``root``.

    Symbolic links are followed as they will be when the image runs: an absolute
    target starts again at ``root``. A relative target that climbs above ``root``
    raises ``RootEscapeError``; so does a loop of links.

    >>> import tempfile, os
    >>> root = Path(tempfile.mkdtemp())
    >>> (root / "etc").mkdir(); os.symlink("/usr/lib/x", root / "etc" / "x")
    >>> inside_root(root, "/etc/x/unit").relative_to(root).as_posix()
    'usr/lib/x/unit'
    """
    if root == Path("/"):
        return Path(os.path.realpath(path))
    parts = [p for p in path.split("/") if p not in ("", ".")]
    resolved: list[str] = []
    hops = 0
    while parts:
        name = parts.pop(0)
        if name == "..":
            if not resolved:
                raise RootEscapeError(f"{path} leads outside {root} (a '..' above the image's /); refusing")
            resolved.pop()
            continue
        candidate = root.joinpath(*resolved, name)
        if candidate.is_symlink():
            hops += 1
            if hops > 40:
                raise RootEscapeError(f"{path} in {root}: too many levels of symbolic links; refusing")
            target = os.readlink(candidate)
            if target.startswith("/"):
                resolved = []  # absolute inside the image: from the image's root, not this machine's
            elif _climbs_out(resolved, target):
                raise RootEscapeError(
                    f"{candidate} is a link to {target}, which leads outside {root}; refusing to write through it"
                )
            parts = [p for p in target.split("/") if p not in ("", ".")] + parts
            continue
        resolved.append(name)
    return root.joinpath(*resolved)


def _climbs_out(base: list[str], target: str) -> bool:
    depth = len(base)
    for part in target.split("/"):
        if part == "..":
            depth -= 1
            if depth < 0:
                return True
        elif part not in ("", "."):
            depth += 1
    return False


def _names_in(path: Path) -> set[str]:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        return set()
    return {line.split(":", 1)[0] for line in lines if line and not line.startswith("#")}


def existing_groups(root: Path) -> list[str]:
    if root == Path("/"):
        import grp

        found = []
        for name in GROUPS:
            try:
                grp.getgrnam(name)
                found.append(name)
            except KeyError:
                pass
        return found
    names = _names_in(inside_root(root, "/etc/group"))
    return [g for g in GROUPS if g in names]


def user_exists(root: Path) -> bool:
    if root == Path("/"):
        import pwd

        try:
            pwd.getpwnam(USER)
            return True
        except KeyError:
            return False
    return USER in _names_in(inside_root(root, "/etc/passwd"))


def packaged(name: str) -> str:
    return resources.files("morris_pi.data").joinpath(name).read_text(encoding="utf-8")


def example_config() -> str | None:
    try:
        return packaged("config.example.toml")
    except (FileNotFoundError, OSError):
        return None


#: What a prefix may hold. The unit writes it into ExecStart=, where systemd reads quotes,
#: ``%`` specifiers, ``$`` variables and ``;`` as syntax, and the sudoers-style tools that
#: start it read spaces and control characters: a plain path is all it needs to be.
PREFIX_PATTERN = re.compile(r"/(?:[A-Za-z0-9._+-]+/?)*")


def check_prefix(prefix: str) -> None:
    """``ValueError`` naming what is wrong with ``--prefix``, if anything.

    >>> check_prefix("/opt/morris-pi")
    >>> check_prefix("/opt/m%i")
    Traceback (most recent call last):
    ...
    ValueError: --prefix must be an absolute path of letters, digits and . _ + - between slashes; '/opt/m%i' has '%'
    """
    if PREFIX_PATTERN.fullmatch(prefix) and ".." not in prefix.split("/"):
        return
    bad = next((c for c in prefix if not (c.isascii() and (c.isalnum() or c in "/._+-"))), None)
    what = f"has {bad!r}" if bad is not None else ("is not absolute" if not prefix.startswith("/") else "has '..'")
    raise ValueError(
        f"--prefix must be an absolute path of letters, digits and . _ + - between slashes; {prefix!r} {what}"
    )


def unit_text(prefix: str) -> str:
    """The packaged unit, with ExecStart pointing into ``prefix``."""
    text = packaged(UNIT_NAME)
    if PACKAGED_EXEC not in text:
        raise ValueError(f"packaged {UNIT_NAME} has no ExecStart={PACKAGED_EXEC} to adjust")
    return text.replace(PACKAGED_EXEC, f"{prefix.rstrip('/')}/venv/bin/morris-pi")


def plan(prefix: str, root: Path, *, root_leds: bool = False, start: bool = True) -> list[Step]:
    """Every step the installation takes, in order, given what already exists under ``root``."""
    check_prefix(prefix)
    staging = root != Path("/")
    root_opt = ("--root", str(root)) if staging else ()
    groups = existing_groups(root)
    missing = [g for g in GROUPS if g not in groups]
    steps: list[Step] = []

    if user_exists(root):
        if groups:
            steps.append(
                Command(
                    ("usermod", *root_opt, "--append", "--groups", ",".join(groups), USER),
                    f"make sure {USER} is in the groups {', '.join(groups)}",
                )
            )
        else:
            steps.append(Note(f"user {USER} exists"))
    else:
        steps.append(
            Command(
                (
                    "useradd",
                    *root_opt,
                    "--system",
                    "--user-group",
                    "--home-dir",
                    STATE_DIR,
                    "--no-create-home",
                    "--shell",
                    "/usr/sbin/nologin",
                    "--comment",
                    "morris-pi board service",
                    *(("--groups", ",".join(groups)) if groups else ()),
                    USER,
                ),
                f"create the system user {USER}",
            )
        )
    if missing:
        steps.append(
            Note(
                f"group(s) {', '.join(missing)} do not exist here; the service runs without them "
                "(Raspberry Pi OS creates gpio, spi and i2c; elsewhere give the device nodes to a group yourself)"
            )
        )

    config = inside_root(root, "/" + CONFIG_PATH)
    if config.exists():
        steps.append(Note(f"{config} exists; left as it is"))
    else:
        # The unit passes --config explicitly, and an explicit config must exist.
        text = example_config()
        if text is None:
            steps.append(WriteFile(config, MINIMAL_CONFIG, "an empty config: the built-in defaults"))
        else:
            steps.append(WriteFile(config, text, "the config, from the documented example"))
            steps.append(
                Note(
                    f"edit {config} for your wiring: it is the built-in defaults written out; the expanders' INT "
                    "line, buttons and status LEDs are there commented out (see wiring/ for each option)"
                )
            )

    steps.append(WriteFile(inside_root(root, f"/{UNIT_DIR}/{UNIT_NAME}"), unit_text(prefix), "the systemd unit"))
    drop_ins = inside_root(root, f"/{UNIT_DIR}/{UNIT_NAME}.d")
    if root_leds:
        steps.append(
            WriteFile(
                inside_root(root, f"/{UNIT_DIR}/{UNIT_NAME}.d/root.conf"),
                packaged("morris-pi-root.conf"),
                "run as root for the PWM NeoPixel driver",
            )
        )
    elif (drop_ins / "root.conf").exists():
        steps.append(
            Note(
                f"{drop_ins / 'root.conf'} exists and still runs the service as root; delete it if the "
                "LEDs are on SPI now"
            )
        )
    if missing:
        kept = " ".join(groups)
        steps.append(
            WriteFile(
                inside_root(root, f"/{UNIT_DIR}/{UNIT_NAME}.d/groups.conf"),
                "# Written by morris-pi install-service: only these of gpio, spi, i2c exist here.\n"
                "[Service]\nSupplementaryGroups=\n" + (f"SupplementaryGroups={kept}\n" if kept else ""),
                "leave out the groups that do not exist, or the service would not start",
            )
        )

    executable = inside_root(root, f"{prefix.rstrip('/')}/venv/bin/morris-pi")
    if not executable.exists():
        steps.append(
            Note(
                f"{executable} does not exist yet; the service cannot start until morris-pi is "
                f"installed in {prefix}/venv"
            )
        )

    if staging:
        steps.append(Command(("systemctl", "--root", str(root), "enable", UNIT_NAME), "start it at boot"))
    else:
        steps.append(Command(("systemctl", "daemon-reload"), "make systemd read the new unit"))
        steps.append(
            Command(
                ("systemctl", "enable", *(() if not start else ("--now",)), UNIT_NAME),
                "start it at boot" + (" and now" if start else ""),
            )
        )
        if start:
            steps.append(Note("follow it with: journalctl -u morris-pi -f"))
    return steps


# -- doing ------------------------------------------------------------------------------


def _subprocess_runner(argv: Sequence[str]) -> int:
    return subprocess.run(list(argv), check=False).returncode


def execute(steps: Sequence[Step], *, dry_run: bool, run: Runner, out: TextIO) -> int:
    """Carry out (or, dry, only print) the steps; stop at the first failure."""
    for step in steps:
        if isinstance(step, Note):
            out.write(f"note: {step.text}\n")
        elif isinstance(step, Command):
            line = shlex.join(step.argv)
            out.write(f"{'would run' if dry_run else 'run'}: {line}    # {step.why}\n")
            if not dry_run:
                code = run(step.argv)
                if code != 0:
                    out.write(f"error: {line} failed with exit status {code}; stopping\n")
                    return 1
        else:
            current = step.path.read_text(encoding="utf-8") if step.path.is_file() else None
            if current == step.text:
                out.write(f"unchanged: {step.path}\n")
                continue
            verb = "write" if current is None else "replace"
            out.write(f"{'would ' if dry_run else ''}{verb}: {step.path}    # {step.why}\n")
            if dry_run:
                out.write("".join(f"    | {line}\n" for line in step.text.splitlines()))
                continue
            step.path.parent.mkdir(mode=0o755, parents=True, exist_ok=True)
            atomic_write_text(step.path, step.text, mode=step.mode)
    return 0


def run(
    args: argparse.Namespace,
    *,
    runner: Runner = _subprocess_runner,
    out: TextIO | None = None,
    err: TextIO | None = None,
    euid: int | None = None,
) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    root = Path(args.root)
    if not root.is_absolute() or (root != Path("/") and not root.is_dir()):
        err.write(f"morris-pi install-service: error: --root {args.root!r} must be an existing absolute directory\n")
        return 2
    euid = os.geteuid() if euid is None else euid
    if not args.dry_run and euid != 0:
        err.write(
            "morris-pi install-service: error: needs root to create users and install units; "
            "run it with sudo, or look first with --dry-run\n"
        )
        return 2
    try:
        steps = plan(args.prefix, root, root_leds=args.root_leds, start=not args.no_start)
        return execute(steps, dry_run=args.dry_run, run=runner, out=out)
    except (ValueError, OSError) as exc:
        err.write(f"morris-pi install-service: error: {exc}\n")
        return 1
