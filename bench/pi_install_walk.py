"""Walk the README's Pi install steps on this machine, as far as a PC can go.

    python bench/pi_install_walk.py [--source DIR] [--keep] [--build-sources]
    python bench/pi_install_walk.py --lines
    scripts/in-trixie sh -c 'apt-get update -qq && python3 bench/pi_install_walk.py --build-sources'

Run it on Bookworm (Python 3.11) and in the trixie chroot (Python 3.13): the
release is read from ``/etc/os-release``, and the apt names are looked up in that
release's package lists.

Reads the shell block between ``<!-- pi-install:begin`` and
``<!-- pi-install:end -->`` in README.md and carries out each line in a
temporary directory instead of on a Pi:

- ``apt`` lines are not run (they are for Raspberry Pi OS); the package names
  are looked up in this machine's apt cache when there is one;
- ``MORRIS_PI_REPO`` points at the local checkout (``--source``, default this
  repository; only committed work is cloned);
- ``git clone`` clones it into a temporary ``$HOME``;
- ``/opt/morris-pi`` becomes ``opt/morris-pi`` under a temporary root that has
  Raspberry Pi OS's gpio, spi and i2c groups, ``sudo`` is dropped;
- ``install-service`` runs with ``--dry-run --root`` into that root, so it
  finds the venv where the unit will look for it.

``--build-sources`` then builds, in the new venv with the same environment
(``PYPI=1``) and this release's packages, every package that pip builds from
source on a Pi of this release (``bench/pi_wheels.py`` asks the index which, for
aarch64 and armv7l): a PC builds them as the Pi would, only for another machine.

Then it goes on with what README step 5 does with the result: ``hwtest`` from
the venv's ``bin/`` (on a PC it must stop with exit 3 and a one-line reason,
not a traceback), and it checks the installed packages: the ARM-only C
libraries must have been left out by their markers, and every other package
must be within the extra's bounds. A line of the block this script does not
recognise is an error, so the README and the walk cannot drift apart.

``--lines`` runs nothing: it prints, as JSON, what the walk makes of each line of
the block (its kind, its arguments, and the build environment a pip line passes on).

The pip install takes a minute or two, which is why this is a bench script and
not part of the test suite (``tests/test_pi_install.py`` checks its ``--lines``).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PREFIX = "/opt/morris-pi"
ARM_ONLY = {"lgpio", "rpi-lgpio", "gpiod", "rpi-ws281x", "rpi.gpio"}


@dataclass(frozen=True)
class Line:
    kind: str  # apt-update, apt-install, repo, clone, venv, pip-install, install-service
    argv: tuple[str, ...]
    text: str


def readme_block(readme: Path = ROOT / "README.md") -> list[str]:
    """The command lines of the README's Pi install block."""
    text = readme.read_text(encoding="utf-8")
    found = re.search(r"<!-- pi-install:begin.*?-->\s*```sh\n(.*?)```\s*<!-- pi-install:end -->", text, re.S)
    if not found:
        raise SystemExit("README.md has no pi-install block")
    return [line.strip() for line in found.group(1).splitlines() if line.strip() and not line.strip().startswith("#")]


def classify(text: str) -> Line:
    """What one README line does; anything unknown is an error."""
    argv = tuple(shlex.split(text, comments=True))
    bare = argv[1:] if argv[:1] == ("sudo",) else argv
    if re.fullmatch(r"MORRIS_PI_REPO=\S+", text):
        return Line("repo", argv, text)
    if bare[:2] in (("apt", "update"), ("apt-get", "update")):
        return Line("apt-update", bare, text)
    if bare[:2] in (("apt", "install"), ("apt-get", "install")):
        return Line("apt-install", bare, text)
    if bare[:1] == ("env",):
        settings = [a for a in bare[1:] if re.fullmatch(r"[A-Z_][A-Z0-9_]*=\S*", a)]
        rest = bare[1 + len(settings) :]
        if len(rest) >= 2 and rest[0] == f"{PREFIX}/venv/bin/pip" and rest[1] == "install":
            return Line("pip-install", bare, text)
    if bare[:2] == ("git", "clone"):
        return Line("clone", bare, text)
    if bare[:3] == ("python3", "-m", "venv"):
        return Line("venv", bare, text)
    if len(bare) >= 2 and bare[0] == f"{PREFIX}/venv/bin/pip" and bare[1] == "install":
        return Line("pip-install", bare, text)
    if len(bare) >= 2 and bare[0] == f"{PREFIX}/venv/bin/morris-pi" and bare[1] == "install-service":
        return Line("install-service", bare, text)
    raise ValueError(f"README line not understood by the walk: {text!r}")


def release() -> str:
    """The Debian release this machine runs (``bookworm``, ``trixie``), from /etc/os-release."""
    try:
        text = Path("/etc/os-release").read_text()
    except OSError:
        return "unknown"
    found = re.search(r"^VERSION_CODENAME=(\S+)", text, re.M)
    return found.group(1).strip('"') if found else "unknown"


def pip_environment(line: Line) -> dict[str, str]:
    """The ``env NAME=VALUE`` settings a pip line passes to the builds it starts."""
    if line.argv[:1] != ("env",):
        return {}
    return dict(a.split("=", 1) for a in line.argv[1:] if re.fullmatch(r"[A-Z_][A-Z0-9_]*=\S*", a))


def walk(source: Path, tmp: Path, say=print, build_sources: bool = False) -> int:
    lines = [classify(text) for text in readme_block()]
    home, root = tmp / "home", tmp / "root"
    prefix = root / PREFIX.lstrip("/")
    home.mkdir(parents=True)
    (root / "etc").mkdir(parents=True)
    (root / "etc/passwd").write_text("root:x:0:0:root:/root:/bin/bash\n")
    (root / "etc/group").write_text("root:x:0:\ngpio:x:997:\ni2c:x:998:\nspi:x:999:\n")
    env = {**os.environ, "HOME": str(home)}
    env.pop("PIP_REQUIRE_VIRTUALENV", None)
    failures = 0
    say(f"release {release()}, Python {sys.version.split()[0]} on {os.uname().machine}")
    build_env: dict[str, str] = {}

    def local(arg: str) -> str:
        arg = arg.replace("$HOME", str(home)).replace("~/", f"{home}/")
        return arg.replace(PREFIX, str(prefix))

    def run(argv: list[str], **kw) -> subprocess.CompletedProcess:
        return subprocess.run(argv, env=env, text=True, capture_output=True, check=False, **kw)

    for line in lines:
        say(f"$ {line.text}")
        if line.kind == "apt-update":
            say("  skipped: apt is for Raspberry Pi OS")
        elif line.kind == "apt-install":
            names = [a for a in line.argv[2:] if not a.startswith("-")]
            if shutil.which("apt-cache"):
                missing = [n for n in names if run(["apt-cache", "show", n]).returncode != 0]
                say(
                    f"  not run; apt-cache here knows {len(names) - len(missing)} of {len(names)}"
                    + (f" (not: {', '.join(missing)}; this machine's lists may be stale)" if missing else "")
                )
            else:
                say("  not run (no apt here)")
        elif line.kind == "repo":
            env["MORRIS_PI_REPO"] = str(source)
            say(f"  MORRIS_PI_REPO={source} (the local checkout)")
        elif line.kind == "clone":
            argv = [a.replace("$MORRIS_PI_REPO", env["MORRIS_PI_REPO"]) for a in map(local, line.argv)]
            done = run(argv)
            say(f"  {'ok' if done.returncode == 0 else 'FAILED: ' + done.stderr.strip()}")
            failures += done.returncode != 0
        elif line.kind == "venv":
            done = run([sys.executable, *map(local, line.argv[1:])])
            say(f"  {'ok' if done.returncode == 0 else 'FAILED: ' + done.stderr.strip()} ({sys.executable})")
            failures += done.returncode != 0
        elif line.kind == "pip-install":
            start = time.monotonic()
            build_env = pip_environment(line)
            done = run([local(a) for a in line.argv])
            took = time.monotonic() - start
            say(f"  {'ok' if done.returncode == 0 else 'FAILED'} in {took:.0f} s")
            if done.returncode != 0:
                say(done.stdout[-3000:] + done.stderr[-3000:])
                failures += 1
        elif line.kind == "install-service":
            argv = [local(a) for a in line.argv] + ["--dry-run", "--root", str(root)]
            done = run(argv)
            steps = [out for out in done.stdout.splitlines() if not out.startswith("    |")]
            say(f"  with --dry-run --root {root}: exit {done.returncode}")
            for out in steps:
                say(f"    {out}")
            failures += done.returncode != 0 or "Traceback" in done.stderr

    venv = prefix / "venv"
    if not (venv / "bin/morris-pi").exists():
        say("the venv has no morris-pi; stopping here")
        return failures + 1
    config = tmp / "config.toml"
    shutil.copy(ROOT / "wiring/config.example.toml", config)
    hwtest = [str(venv / "bin/morris-pi"), "hwtest", "--config", str(config), "--no-sweep", "--show", "0"]
    say(f"$ {shlex.join(hwtest)}    # README step 5, on a PC")
    done = run(hwtest, timeout=120, stdin=subprocess.DEVNULL)
    say(f"  exit {done.returncode}: {done.stderr.strip()}")
    if done.returncode != 3 or "Traceback" in done.stderr:
        say("  FAILED: expected exit 3 (the hardware cannot be opened) with a one-line reason")
        failures += 1
    failures += check_packages(venv, say)
    if build_sources:
        failures += build_source_packages(venv, build_env, tmp, say)
    say("walk: " + ("every step went as far as a PC allows" if not failures else f"{failures} problem(s)"))
    return failures


def check_packages(venv: Path, say) -> int:
    """The ARM-only packages are absent here; the others are within the extra's bounds."""
    listed = json.loads(
        subprocess.run(
            [str(venv / "bin/pip"), "list", "--format=json"], text=True, capture_output=True, check=True
        ).stdout
    )
    versions = {p["name"].lower().replace("_", "-"): p["version"] for p in listed}
    extra = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]["pi"]
    check = subprocess.run(
        [str(venv / "bin/python"), "-c", _CHECK, json.dumps(extra), json.dumps(versions)],
        text=True,
        capture_output=True,
        check=False,
    )
    say(f"installed for this machine ({os.uname().machine}):")
    for out in check.stdout.splitlines():
        say(f"  {out}")
    problems = check.returncode != 0
    present_arm = sorted(ARM_ONLY & set(versions))
    if present_arm:
        say(f"  FAILED: ARM-only packages installed here: {', '.join(present_arm)}")
    return int(problems) + bool(present_arm)


def build_source_packages(venv: Path, env: dict[str, str], tmp: Path, say) -> int:
    """Build each package a Pi of this release builds from source, in ``venv`` with ``env``."""
    python = f"{sys.version_info.major}{sys.version_info.minor}"
    targets = [f"{machine}-cp{python}" for machine in ("aarch64", "armv7l")]
    # bench/pi_wheels.py needs pip and packaging: the new venv has both
    listing = subprocess.run(
        [str(venv / "bin/python"), str(ROOT / "bench/pi_wheels.py"), "list", "--json"]
        + [a for t in targets for a in ("--target", t)],
        text=True,
        capture_output=True,
        check=True,
    )
    wanted: dict[str, str] = {}
    for target, packages in json.loads(listing.stdout).items():
        for package in packages:
            if package["kind"] == "source":
                wanted.setdefault(f"{package['name']}=={package['version']}", target)
                say(f"  {target}: {package['name']} {package['version']} is built from source on the Pi")
    failures = 0
    for spec in sorted(wanted):
        start = time.monotonic()
        done = subprocess.run(
            [
                str(venv / "bin/pip"),
                "wheel",
                "--no-deps",
                "--no-binary",
                ":all:",
                "--wheel-dir",
                str(tmp / "built"),
                spec,
            ],
            env={**os.environ, **env},
            text=True,
            capture_output=True,
            check=False,
        )
        took = time.monotonic() - start
        settings = " ".join(f"{k}={v}" for k, v in env.items())
        say(
            f"  built {spec} from source{' with ' + settings if settings else ''}: "
            + ("ok" if done.returncode == 0 else "FAILED")
            + f" in {took:.0f} s"
        )
        if done.returncode != 0:
            say(done.stdout[-2000:] + done.stderr[-2000:])
            failures += 1
    return failures


# run inside the new venv: packaging comes with Blinka there
_CHECK = r"""
import json, platform, sys
from packaging.requirements import Requirement
extra, versions = json.loads(sys.argv[1]), json.loads(sys.argv[2])
bad = 0
for text in extra:
    req = Requirement(text)
    name = req.name.lower().replace("_", "-")
    wanted = req.marker is None or req.marker.evaluate()
    have = versions.get(name)
    if not wanted:
        print(f"{name}: left out by its marker ({'but installed ' + have if have else 'not installed'})")
        bad += have is not None
    elif have is None:
        print(f"{name}: MISSING"); bad += 1
    else:
        ok = req.specifier.contains(have, prereleases=True)
        print(f"{name} {have}: {'within' if ok else 'OUTSIDE'} {req.specifier}"); bad += not ok
sys.exit(1 if bad else 0)
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", type=Path, default=ROOT, help="the checkout to clone (default: this one)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory")
    parser.add_argument(
        "--build-sources", action="store_true", help="also build what the Pi builds from source (asks the index)"
    )
    parser.add_argument(
        "--lines", action="store_true", help="print what the walk makes of each README line (JSON), run nothing"
    )
    args = parser.parse_args()
    try:
        lines = [classify(text) for text in readme_block()]
    except ValueError as exc:
        parser.error(str(exc))
    if args.lines:
        plan = [{"text": ln.text, "kind": ln.kind, "argv": list(ln.argv), "env": pip_environment(ln)} for ln in lines]
        print(json.dumps(plan, indent=1))
        return 0
    tmp = Path(tempfile.mkdtemp(prefix="morris-pi-walk-"))
    try:
        return 1 if walk(args.source.resolve(), tmp, build_sources=args.build_sources) else 0
    finally:
        if args.keep:
            print(f"kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
