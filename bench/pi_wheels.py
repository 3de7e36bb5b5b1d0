"""What pip installs for a Raspberry Pi, worked out on a PC: wheel or source build, per platform.

    python bench/pi_wheels.py list [--target aarch64-cp313 ...] [--extra pi ...] [--json]
    python bench/pi_wheels.py install --target aarch64-cp313 --into DIR [REQUIREMENT ...]
    python bench/pi_wheels.py table [--write README.md] [--trixie-root DIR]
    python bench/pi_wheels.py targets [--extra pi ...] [--json]

A Pi runs Raspberry Pi OS on aarch64 (64-bit) or armv7l (32-bit), with Python 3.13
on trixie and 3.11 on Bookworm. pip's own ``--platform`` option picks wheels for
another machine but still judges environment markers (``platform_machine ==
'aarch64'``) by this one, so the ``pi`` extra's ARM-only packages would be left
out. This script follows the requirements itself: each marker is judged for the
target, each package is fetched with ``pip download --no-deps`` as a wheel for
the target if PyPI has one, else as its source distribution, and the wheel's own
requirements are followed the same way.

``list`` prints, per target, every package of the ``pi`` extra and its
dependencies with the version chosen and ``wheel`` or ``source`` (pip builds it
on the Pi: a compiler and the packages in the README's install step);
``install`` puts the wheels for the target into DIR (``pip install --target``),
for ``scripts/arm-check`` to import them under qemu, and names the packages that
only come as source; ``table`` writes the README's version table (between its
``pi-versions`` marks): each package of the extra, its bound, the newest release
within it, wheel or source on each platform, and the version Debian's own
package has on Bookworm (this machine's apt) and trixie (the chroot's, after an
``apt-get update`` there); ``targets`` asks nothing: it prints each target's
wheel tags and which of the extra's requirements its markers take in there.
Nothing but ``targets`` runs on every test run (``tests/test_pi_install.py``):
the others ask the package index.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import tomllib
import zipfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from email.parser import Parser
from pathlib import Path

from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Target:
    """A Pi's platform: its machine and Python, and the wheel tags pip may take for it."""

    name: str
    machine: str
    python: str  # "3.13"
    release: str  # the Raspberry Pi OS (Debian) release with that Python

    @property
    def abi(self) -> str:
        return "cp" + self.python.replace(".", "")

    def platforms(self) -> list[str]:
        """Every manylinux tag up to the release's glibc (2.36 on Bookworm, 2.41 on trixie), newest first.

        pip (23 still) takes ``--platform`` tags literally, without the older ones a Pi also runs.
        """
        glibc = 41 if self.release == "trixie" else 36
        tags = [f"manylinux_2_{minor}_{self.machine}" for minor in range(glibc, 16, -1)]
        return [*tags, f"manylinux2014_{self.machine}", f"linux_{self.machine}"]

    def environment(self) -> dict[str, str]:
        """The marker environment of the Pi (what ``platform_machine`` and friends say there)."""
        env = default_environment()
        env.update(
            {
                "platform_machine": self.machine,
                "python_version": self.python,
                "python_full_version": self.python + ".0",
                "implementation_name": "cpython",
                "platform_python_implementation": "CPython",
                "sys_platform": "linux",
                "os_name": "posix",
                "platform_system": "Linux",
            }
        )
        return env


TARGETS = {
    t.name: t
    for t in (
        Target("aarch64-cp313", "aarch64", "3.13", "trixie"),
        Target("armv7l-cp313", "armv7l", "3.13", "trixie"),
        Target("aarch64-cp311", "aarch64", "3.11", "bookworm"),
        Target("armv7l-cp311", "armv7l", "3.11", "bookworm"),
    )
}


@dataclass(frozen=True)
class Package:
    name: str
    version: str
    kind: str  # "wheel" | "source"
    file: Path
    wanted_by: str  # the requirement that brought it in


def taken(target: Target, requirement: Requirement) -> bool:
    """Whether ``requirement``'s marker (if any) takes it in on ``target``, judged for the Pi, not this machine."""
    return requirement.marker is None or requirement.marker.evaluate({**target.environment(), "extra": ""})


def pi_extra(*extras: str) -> list[str]:
    """The requirements of the ``pi`` extra (or of the ``extras`` named), as pyproject.toml has them."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return [text for extra in extras or ("pi",) for text in project["optional-dependencies"][extra]]


def _pip_download(target: Target, spec: str, into: Path, binary: bool) -> Path | None:
    before = set(into.iterdir())
    argv = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--dest", str(into)]
    if binary:
        argv += ["--only-binary=:all:", "--implementation", "cp", "--python-version", target.python]
        argv += [a for p in target.platforms() for a in ("--platform", p)]
        argv += [a for abi in (target.abi, "abi3", "none") for a in ("--abi", abi)]
    else:
        argv += ["--no-binary=:all:"]
    done = subprocess.run([*argv, spec], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        return None
    new = set(into.iterdir()) - before
    name = canonicalize_name(Requirement(spec).name)
    # pip leaves a file already there in place: find the one of this package
    candidates = new or {p for p in into.iterdir() if _dist_name(p) == name}
    return max(candidates, key=lambda p: p.stat().st_mtime) if candidates else None


def _dist_name(path: Path) -> str:
    stem = path.name.split("-")[0]
    return canonicalize_name(stem)


def _version(path: Path) -> str:
    if path.suffix == ".whl":
        return path.name.split("-")[1]
    match = re.match(r".+?-(\d[^-]*?)(\.tar\.gz|\.zip)$", path.name)
    return match.group(1) if match else "?"


def _requires(path: Path) -> list[str]:
    """The Requires-Dist lines of a wheel (a source distribution's are only known once built)."""
    if path.suffix != ".whl":
        return []
    with zipfile.ZipFile(path) as wheel:
        meta = next(n for n in wheel.namelist() if n.endswith(".dist-info/METADATA"))
        return Parser().parsestr(wheel.read(meta).decode()).get_all("Requires-Dist") or []


def resolve(target: Target, requirements: list[str], into: Path) -> list[Package]:
    """Every package pip would install on ``target`` for ``requirements``, first come first chosen."""
    chosen: dict[str, Package] = {}
    specs: dict[str, SpecifierSet] = {}
    queue = [(text, "the pi extra") for text in requirements]
    while queue:
        text, by = queue.pop(0)
        req = Requirement(text)
        if not taken(target, req):
            continue
        name = canonicalize_name(req.name)
        specs[name] = specs.get(name, SpecifierSet()) & req.specifier
        if name in chosen:
            if not specs[name].contains(chosen[name].version, prereleases=True):
                raise SystemExit(f"{target.name}: {name} {chosen[name].version} does not meet {specs[name]} ({by})")
            continue
        spec = f"{req.name}{specs[name]}"
        path = _pip_download(target, spec, into, binary=True)
        kind = "wheel"
        if path is None:
            path, kind = _pip_download(target, spec, into, binary=False), "source"
        if path is None:
            # pip could not even read the sdist's metadata without building it (pygame-ce: meson
            # and SDL2's -dev packages): a source build all the same, its version unread
            chosen[name] = Package(name, "?", "source", Path(), by)
            continue
        chosen[name] = Package(name, _version(path), kind, path, by)
        queue += [(dep, name) for dep in _requires(path)]
    return list(chosen.values())


def cmd_list(args: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory() as tmp:

        def one(name: str) -> list[dict[str, str]]:
            into = Path(tmp) / name
            into.mkdir()
            packages = resolve(TARGETS[name], pi_extra(*args.extra), into)
            return [{"name": p.name, "version": p.version, "kind": p.kind} for p in packages]

        # each pip call mostly waits on the index, so the targets go side by side
        with ThreadPoolExecutor(max_workers=len(args.target)) as pool:
            report = dict(zip(args.target, pool.map(one, args.target), strict=True))
    if args.json:
        print(json.dumps(report, indent=1))
        return 0
    for name, packages in report.items():
        built = [p["name"] for p in packages if p["kind"] == "source"]
        print(f"{name} ({TARGETS[name].release}): {len(packages)} packages, built from source: {', '.join(built)}")
        for p in packages:
            print(f"  {p['name']} {p['version']}: {p['kind']}")
    return 0


def cmd_targets(args: argparse.Namespace) -> int:
    extra = pi_extra(*args.extra)
    report = {
        name: {
            "machine": target.machine,
            "python": target.python,
            "release": target.release,
            "abi": target.abi,
            "platforms": target.platforms(),
            "requirements": [{"requirement": text, "taken": taken(target, Requirement(text))} for text in extra],
        }
        for name, target in TARGETS.items()
    }
    if args.json:
        print(json.dumps(report, indent=1))
        return 0
    for name, found in report.items():
        left_out = [r["requirement"] for r in found["requirements"] if not r["taken"]]
        print(f"{name} ({found['release']}): Python {found['python']} ({found['abi']}) on {found['machine']}")
        print(f"  wheel tags: {', '.join(found['platforms'])}")
        print(f"  left out by their markers: {', '.join(left_out) or 'none'}")
    return 0


def cmd_install(args: argparse.Namespace) -> int:
    target = TARGETS[args.target]
    args.into.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        packages = resolve(target, args.requirements or pi_extra(), Path(tmp))
        wheels = [str(p.file) for p in packages if p.kind == "wheel"]
        pip = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index", "--upgrade"]
        pip += ["--target", str(args.into), "--only-binary=:all:", "--implementation", "cp"]
        pip += ["--python-version", target.python, *(a for p in target.platforms() for a in ("--platform", p))]
        subprocess.run([*pip, *wheels], check=True)
    listing = {p.name: {"version": p.version, "kind": p.kind} for p in packages}
    (args.into / "pi-wheels.json").write_text(json.dumps(listing, indent=1) + "\n")
    source = [f"{p.name} {p.version}" for p in packages if p.kind == "source"]
    print(f"{target.name}: {len(wheels)} wheels into {args.into}; source only: {', '.join(source) or 'none'}")
    return 0


#: Debian's own package of each of the extra's packages, where Debian has one.
DEBIAN = {
    "gpiozero": "python3-gpiozero",
    "lgpio": "python3-lgpio",
    "rpi-lgpio": "python3-rpi-lgpio",
    "smbus2": "python3-smbus2",
    "gpiod": "python3-libgpiod",
}


def debian_version(package: str, root: Path | None = None) -> str | None:
    """The candidate version of a Debian package here (or in the chroot at ``root``), or None."""
    argv = ["apt-cache", "policy", package]
    if root is not None:
        argv = ["chroot", str(root), *argv]
    try:
        out = subprocess.run(argv, capture_output=True, text=True, check=False).stdout
    except OSError:
        return None
    found = re.search(r"Candidate:\s*(\S+)", out)
    if not found or found.group(1) == "(none)":
        return None
    return re.sub(r"^\d+:|[-+~].*$", "", found.group(1))  # the upstream version


def _bound(spec: SpecifierSet) -> str:
    """A bound as people write it: the lower end first (``>=2.0,<3``)."""
    return ",".join(sorted((str(s) for s in spec), key=lambda s: (not s.startswith(">"), s)))


def version_table(trixie_root: Path | None) -> str:
    extra = [Requirement(text) for text in pi_extra()]
    with tempfile.TemporaryDirectory() as tmp:

        def one(name: str) -> dict[str, Package]:
            into = Path(tmp) / name
            into.mkdir()
            return {p.name: p for p in resolve(TARGETS[name], pi_extra(), into)}

        with ThreadPoolExecutor(max_workers=len(TARGETS)) as pool:
            found = dict(zip(TARGETS, pool.map(one, TARGETS), strict=True))
    columns = ["aarch64-cp313", "armv7l-cp313", "aarch64-cp311", "armv7l-cp311"]
    heads = ["trixie 64-bit", "trixie 32-bit", "Bookworm 64-bit", "Bookworm 32-bit"]
    lines = [
        "| package | bound | newest within it | " + " | ".join(heads) + " | Debian bookworm | Debian trixie |",
        "|---|---|---|" + "---|" * len(heads) + "---|---|",
    ]

    def debian(name: str, spec: SpecifierSet, root: Path | None) -> str:
        package = DEBIAN.get(name)
        version = debian_version(package, root) if package else None
        if version is None:
            return "none"
        return f"{package} {version}" + ("" if spec.contains(version, prereleases=True) else " (below the bound)")

    for req in extra:
        name = canonicalize_name(req.name)
        cells = []
        newest = ""
        for column in columns:
            package = found[column].get(name)
            if package is None:
                cells.append("not installed")
                continue
            newest = newest or package.version
            cells.append("wheel" if package.kind == "wheel" else "**source**")
        if not newest:
            newest = next((p.version for t in found.values() for n, p in t.items() if n == name), "?")
        trixie = debian(name, req.specifier, trixie_root) if trixie_root is not None else "not looked up"
        lines.append(
            f"| `{req.name}` | `{_bound(req.specifier)}` | {newest} | "
            + " | ".join(cells)
            + f" | {debian(name, req.specifier, None)} | {trixie} |"
        )
    # the dependencies that come along and are built from source somewhere
    for name in sorted({n for t in found.values() for n, p in t.items() if p.kind == "source"}):
        if any(canonicalize_name(r.name) == name for r in extra):
            continue
        cells = [
            ("wheel" if found[c][name].kind == "wheel" else "**source**") if name in found[c] else "not installed"
            for c in columns
        ]
        version = next(found[c][name].version for c in columns if name in found[c])
        by = next(found[c][name].wanted_by for c in columns if name in found[c])
        lines.append(f"| `{name}` (for {by}) | | {version} | " + " | ".join(cells) + " | | |")
    return "\n".join(lines) + "\n"


def cmd_table(args: argparse.Namespace) -> int:
    table = version_table(args.trixie_root)
    if args.write is None:
        print(table, end="")
        return 0
    text = args.write.read_text()
    found = re.search(r"(<!-- pi-versions:begin[^>]*-->\n)(.*?)(<!-- pi-versions:end -->)", text, re.S)
    if not found:
        raise SystemExit(f"{args.write} has no <!-- pi-versions:begin --> ... <!-- pi-versions:end --> block")
    args.write.write_text(text[: found.start(2)] + table + text[found.end(2) :])
    print(f"wrote the version table into {args.write}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    listing = sub.add_parser("list", help="per target: each package, its version, wheel or source")
    listing.add_argument("--target", action="append", choices=sorted(TARGETS), help="default: all four")
    listing.add_argument("--extra", action="append", default=[], help="the extras to follow (default: pi)")
    listing.add_argument("--json", action="store_true")
    install = sub.add_parser("install", help="the target's wheels into a directory (pip install --target)")
    install.add_argument("--target", required=True, choices=sorted(TARGETS))
    install.add_argument("--into", required=True, type=Path)
    install.add_argument("requirements", nargs="*", help="default: the pi extra")
    table = sub.add_parser("table", help="the README's version table (printed, or written between its marks)")
    table.add_argument("--write", type=Path, help="the file whose pi-versions block to replace (README.md)")
    table.add_argument("--trixie-root", type=Path, help="a trixie chroot (scripts/rootfs trixie-amd64) for its apt")
    targets = sub.add_parser("targets", help="each target's wheel tags, and the extra's requirements it takes in")
    targets.add_argument("--extra", action="append", default=[], help="the extras to judge (default: pi)")
    targets.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.command == "targets":
        return cmd_targets(args)
    if args.command == "table":
        return cmd_table(args)
    if args.command == "list":
        args.target = args.target or list(TARGETS)
        return cmd_list(args)
    return cmd_install(args)


if __name__ == "__main__":
    sys.exit(main())
