"""The import contract: the floors of the README's architecture section, enforced.

Each module of ``morris_pi`` sits on the floor the README's architecture diagram gives its
package (or file). It may import what is on a lower floor, and on its own floor only the
pairs in ``PEERS``; nothing upward, at the top of a module, under ``TYPE_CHECKING`` or inside
a function. The floors are read from the README itself, so the diagram and this contract
cannot drift apart.

An import inside a function is allowed only where it is a deliberate lazy import, each
named in ``LAZY`` with its reason; an import put in a function to dodge a cycle fails here.

The tests have a contract of their own: none loads a script of ``bench/`` or ``scripts/``,
by its path or as a module. What a test calls lives in the package; a script's command line
is run as a command (``tests/bench_kit.py``).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "morris_pi"
TESTS = ROOT / "tests"

#: Imports allowed between two parts on the same floor (importer, imported).
PEERS = {
    ("config", "core"),  # the port names (BUTTONS, STATUS_LEDS); core/ never imports config/
    ("sim", "hwtest"),  # the simulator runs the self-test on its own board
    ("sim", "web"),  # the simulator serves the companion page beside its window, or as the board
    ("service", "hw"),  # the service builds the board's hardware
    ("service", "web"),  # and serves the companion page
    ("traces", "replay.py"),  # a generator checks its traces, and a tracker is measured, by replaying them
    ("cli.py", "commands"),  # the console script and its subcommands
}

#: Parts whose functions may import lazily: a subcommand's work (the simulator, the service,
#: the web server, the engine) is imported when that subcommand runs, so ``morris-pi --help``
#: and every other subcommand start without it (half the start-up time of ``--help``), and a
#: subcommand whose optional extra is not installed still shows in ``--help`` (cli.py's design).
LAZY_PARTS = {"cli.py", "commands"}

#: Every other import inside a function, by (importing module, imported module), with why.
LAZY = {
    # optional heavy dependencies: an extra that may not be installed, or a hardware library
    ("morris_pi.hw.buttons", "gpiozero"): "the pi extra; only a board with buttons opens a pin",
    ("morris_pi.hw.sensors_gpio", "gpiozero"): "the pi extra; only when a GPIO sensor board is built",
    ("morris_pi.hw.sensors_matrix", "gpiozero"): "the pi extra; only when a matrix sensor board is built",
    ("morris_pi.hw.sensors_mcp23017", "gpiozero"): "the pi extra; only for the expander's interrupt pin",
    ("morris_pi.hw.sensors_mcp23017", "smbus2"): "the pi extra; only when the I2C bus is opened",
    ("morris_pi.render.png", "cairosvg"): "the png extra, and the system's libcairo2",
    ("morris_pi.sim.script", "morris_pi.sim.app"): "pygame (the sim extra), only when a window opens",
    ("morris_pi.web.server", "uvicorn"): "the web extra, only when the page is served",
    ("morris_pi.web.server", "morris_pi.web.app"): "Starlette (the web extra), only when the page is served",
    ("morris_pi.web.connections", "h11"): "the web extra (uvicorn's HTTP parser), only when serving",
    ("morris_pi.web.connections", "uvicorn.protocols.http.h11_impl"): "the web extra, only when serving",
    # the board plays on without its engine: a broken install still lets two people play,
    # and the computer plays its first legal turn, said loudly (tests/test_opponents.py)
    ("morris_pi.core.opponents", "morris_pi.engine.player"): "the board plays on without its engine",
    ("morris_pi.core.analysis", "morris_pi.engine.search"): "the board plays on without its engine",
    ("morris_pi.core.opponents", "morris_pi.engine.grading"): "the board plays on without its engine",
    ("morris_pi.core.opponents", "morris_pi.engine.search"): "the board plays on without its engine",
}


@dataclass(frozen=True)
class Import:
    module: str  # the importing module, e.g. morris_pi.core.storage
    target: str  # what it imports, absolute, e.g. morris_pi.rules.game or gpiozero
    line: int
    in_function: bool

    @property
    def where(self) -> str:
        return f"{self.module.replace('.', '/')}.py:{self.line}"


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def is_package(path: Path) -> bool:
    return path.name == "__init__.py"


def submodule_exists(name: str) -> bool:
    relative = Path(*name.split("."))
    return (ROOT / relative).with_suffix(".py").exists() or (ROOT / relative / "__init__.py").exists()


def imports_of(path: Path) -> list[Import]:
    """Every import in one file of the package."""
    return imports_in(path.read_text(encoding="utf-8"), module_name(path), is_package(path))


def imports_in(source: str, module: str, package: bool) -> list[Import]:
    """Every import in ``module``'s source, resolved to absolute names (``from pkg import mod`` names the module)."""
    tree = ast.parse(source)
    found: list[Import] = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inner = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
            if isinstance(child, ast.Import):
                found.extend(Import(module, alias.name, child.lineno, in_function) for alias in child.names)
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base = module.split(".") if package else module.split(".")[:-1]
                    base = base[: len(base) - (child.level - 1)]
                    source = ".".join([*base, *([child.module] if child.module else [])])
                else:
                    source = child.module or ""
                for alias in child.names:
                    target = f"{source}.{alias.name}"
                    if not (source.startswith("morris_pi") and submodule_exists(target)):
                        target = source
                    found.append(Import(module, target, child.lineno, in_function))
            visit(child, inner)

    visit(tree, False)
    return found


def all_imports() -> list[Import]:
    return [found for path in sorted(PACKAGE.rglob("*.py")) for found in imports_of(path)]


def part_of(name: str) -> str:
    """The part of the architecture a module belongs to: its package under morris_pi, or its file."""
    parts = name.split(".")
    if len(parts) == 1:
        return "__init__.py"
    return parts[1] if (PACKAGE / parts[1]).is_dir() else f"{parts[1]}.py"


def floors_of_readme() -> dict[str, int]:
    """The floors of the README's architecture diagram: {"rules": 1, "cli.py": 5, ...}."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("\n## Architecture\n", 1)[1]
    diagram = section.split("```", 2)[1]
    floors: dict[str, int] = {}
    floor = None
    for line in diagram.splitlines():
        heading = re.match(r"floor (\d+)\s+", line)
        if heading:
            floor = int(heading.group(1))
            line = " " * heading.end() + line[heading.end() :]
        names = line[:31].strip()
        if not names or floor is None:
            continue
        for name in names.split(","):
            floors[name.strip().rstrip("/") if name.strip().endswith("/") else name.strip()] = floor
    return floors


FLOORS = floors_of_readme()


def floor_of(name: str) -> int:
    return FLOORS[part_of(name)]


def test_the_readme_places_every_part_of_the_package_on_a_floor():
    parts = {part_of(module_name(path)) for path in PACKAGE.rglob("*.py")}
    assert parts - FLOORS.keys() == set(), "parts missing from the README's architecture diagram"
    assert FLOORS.keys() - parts == set(), "the README's architecture diagram names parts that do not exist"
    assert sorted(set(FLOORS.values())) == list(range(min(FLOORS.values()), max(FLOORS.values()) + 1))


def test_the_diagram_is_read_as_written():
    assert FLOORS["rules"] == 1 and FLOORS["cli.py"] == FLOORS["commands"] == 5
    assert FLOORS["errors.py"] == 0


def test_no_module_imports_upward_or_sideways():
    wrong = []
    for found in all_imports():
        if not found.target.startswith("morris_pi"):
            continue
        source, target = part_of(found.module), part_of(found.target)
        if source == target:
            continue
        upward = floor_of(found.target) > floor_of(found.module)
        sideways = floor_of(found.target) == floor_of(found.module) and (source, target) not in PEERS
        if upward or sideways:
            direction = "up" if upward else "sideways"
            wrong.append(
                f"{found.where}: {source} (floor {floor_of(found.module)}) imports {found.target} "
                f"(floor {floor_of(found.target)}, {direction})"
            )
    assert wrong == []


def test_imports_inside_functions_are_only_the_named_lazy_ones():
    wrong = [
        f"{found.where}: imports {found.target} inside a function"
        for found in all_imports()
        if found.in_function and part_of(found.module) not in LAZY_PARTS and (found.module, found.target) not in LAZY
    ]
    assert wrong == [], "import at the top of the module, or name the lazy import in LAZY with its reason"


def test_every_named_lazy_import_still_exists():
    used = {(found.module, found.target) for found in all_imports() if found.in_function}
    assert LAZY.keys() - used == set()


def test_the_peer_pairs_are_on_one_floor():
    assert all(FLOORS[a] == FLOORS[b] for a, b in PEERS)


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("from morris_pi import guidance", "morris_pi.guidance"),
        ("from morris_pi import __version__", "morris_pi"),
        ("from ..rules import Game", "morris_pi.rules"),
        ("from .fen import to_fen", "morris_pi.core.fen"),
        ("from . import keeper", "morris_pi.core.keeper"),
    ],
)
def test_imports_are_resolved_to_what_they_load(line, expected):
    [found] = imports_in(f"def f():\n    {line}\n", "morris_pi.core.storage", package=False)
    assert found.target == expected and found.in_function


def test_a_package_resolves_relative_imports_from_itself():
    [found] = imports_in("from .palette import RGB\n", "morris_pi.guidance", package=True)
    assert found.target == "morris_pi.guidance.palette" and not found.in_function


def test_the_readme_names_every_pair_allowed_within_a_floor():
    text = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert [pair for pair in sorted(PEERS) if f"`{pair[0]}` → `{pair[1]}`" not in text] == []


# -- the tests' contract: no bench or dev script loaded ---------------------------------------

#: The folders of scripts a test runs as commands and never loads.
SCRIPT_FOLDERS = ("bench", "scripts")

#: Calls that load a Python file by its path.
PATH_LOADERS = {"spec_from_file_location", "SourceFileLoader", "SourcelessFileLoader", "run_path", "load_source"}

#: The test modules that may load a file by its path, with what and why. A script of
#: ``SCRIPT_FOLDERS`` is never one of them.
LOADED_BY_PATH = {
    "test_docs_examples.py": "docs/make_examples.py, the docs' example writer beside the docs it writes: the "
    "test checks the documented output with the code that rewrites it, so the check and the rewrite agree",
}


def names_a_script_folder(text: str) -> bool:
    """Whether ``text`` (a call or a module name) names ``bench`` or ``scripts`` as a word."""
    return any(re.search(rf"(?<![\w-]){folder}(?![\w-])", text) for folder in SCRIPT_FOLDERS)


def script_loads(source: str, name: str) -> list[str]:
    """Each place in the test module ``name`` (its source) that loads a script of ``bench/`` or
    ``scripts/``, or loads any file by its path where ``LOADED_BY_PATH`` does not allow it."""
    found = [
        f"{name}:{i.line}: imports {i.target}"
        for i in imports_in(source, name.removesuffix(".py"), package=False)
        if i.target.split(".")[0] in SCRIPT_FOLDERS
    ]
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        called = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        text = ast.get_source_segment(source, node) or ""
        on_sys_path = isinstance(func, ast.Attribute) and ast.unparse(func.value) == "sys.path"
        if called in PATH_LOADERS and (name not in LOADED_BY_PATH or names_a_script_folder(text)):
            found.append(f"{name}:{node.lineno}: loads a file by its path: {text}")
        elif called in ("import_module", "__import__") and names_a_script_folder(text.split(",")[0]):
            found.append(f"{name}:{node.lineno}: imports a script: {text}")
        elif on_sys_path and names_a_script_folder(text):
            found.append(f"{name}:{node.lineno}: puts a script folder on the import path: {text}")
    return found


def test_no_test_loads_a_bench_or_dev_script():
    wrong = [
        where
        for path in sorted(TESTS.rglob("*.py"))
        for where in script_loads(path.read_text(encoding="utf-8"), path.name)
    ]
    assert wrong == [], "run the script as a command (tests/bench_kit.py), or move what the test calls into the package"


def test_every_test_allowed_to_load_by_path_still_does():
    for name in LOADED_BY_PATH:
        source = (TESTS / name).read_text(encoding="utf-8")
        assert any(loader in source for loader in PATH_LOADERS), f"{name} loads nothing by path: drop it from the list"


@pytest.mark.parametrize(
    "line",
    [
        'spec = importlib.util.spec_from_file_location("m", ROOT / "bench" / "sanmill.py")',
        'spec = spec_from_file_location("m", ROOT / "scripts/arm_check.py")',
        'SourceFileLoader("m", "bench/match.py").load_module()',
        'runpy.run_path(str(ROOT / "bench" / "soak.py"))',
        "import bench.sanmill",
        "from bench import match",
        "from bench.results import record",
        'importlib.import_module("bench.pi_wheels")',
        'sys.path.insert(0, str(ROOT / "bench"))',
        'sys.path.append("scripts")',
    ],
)
def test_a_script_loaded_by_path_or_as_a_module_is_found(line):
    assert script_loads(f"def f():\n    {line}\n", "test_x.py") != []
    # even in a module allowed to load its own file by path
    assert script_loads(f"def f():\n    {line}\n", "test_docs_examples.py") != []


@pytest.mark.parametrize(
    "line",
    [
        "from bench_kit import bench",
        'bench("sanmill", "--summarize", log)',
        'script("scripts/arm_check.py", "--list")',
        'importlib.import_module("test_bench_heldout")',
        "sys.path.insert(0, str(Path(__file__).resolve().parents[1]))",
    ],
)
def test_running_a_script_as_a_command_is_not_loading_it(line):
    assert script_loads(f"def f():\n    {line}\n", "test_x.py") == []
