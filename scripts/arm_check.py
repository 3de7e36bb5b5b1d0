"""The ARM check, in one Python process (``scripts/arm-check`` runs it under qemu user mode).

    python3 scripts/arm_check.py WHEELS_DIR [--quick] [--only PART ...]
    python3 scripts/arm_check.py --list [--quick]

With the project on ``PYTHONPATH`` and the target's wheels in ``WHEELS_DIR``
(``bench/pi_wheels.py install``), it runs, in this process and in this order:

1. the rules, tracker and engine tests (``TESTS``; with ``--quick`` only
   ``QUICK``) through ``pytest.main``;
2. replays of messy traces of real games (bounce, slides, nudges, missed
   events) to exactly their records;
3. the service loop (``run_service``, as ``morris-pi run`` runs it) for a few
   seconds of real time over the emulated MCP23017 expanders and the real
   NeoPixel SPI driver on the emulated SPI port, with men lifted and put;
4. an import of every module of every wheel the ``pi`` extra installs for this
   platform, and of each compiled extension module among them.

A foreign-architecture process cannot start a child under qemu user mode
without binfmt_misc, so nothing here starts a process. It prints what it ran
and how long each part took, and exits with 1 if any part failed.

``--only PART`` (``tests``, ``traces``, ``service``, ``imports``; repeatable) runs
those parts alone; only ``imports`` needs ``WHEELS_DIR``. ``--list`` prints the test
files the first part runs, one a line, and runs nothing.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import json
import platform
import random
import struct
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: The rules, tracker and engine tests run under emulation. Emulated Python is 30-100x slower
#: than native on this machine (the hypothesis-driven comparisons the most), so these are files
#: that take well under a second natively: the rules' play, notation, outcomes and two-step
#: removals; the tracker's own cases and its confirm window; the engine's endgame tables, opening book
#: and tactics (turns it must find). Left to the native runs on 3.11 and 3.13: the hypothesis
#: properties, the FEN fuzzing, the referee games, perft, saves, the evaluation against its plain
#: reference, the search tree node for node and the engine's self-play.
TESTS = [
    "tests/test_rules_board.py",
    "tests/test_rules_notation.py",
    "tests/test_rules_outcomes.py",
    "tests/test_rules_play.py",
    "tests/test_rules_twostep.py",
    "tests/test_tracker.py",
    "tests/test_tracker_confirm.py",
    "tests/test_engine_egtb.py",
    "tests/test_engine_book.py",
    "tests/test_engine_tactics.py",
]
#: A handful for a quick look.
QUICK = ["tests/test_rules_play.py", "tests/test_tracker.py", "tests/test_engine_tactics.py"]

#: Top-level modules of the wheels that cannot be imported off a Raspberry Pi by design, and why.
NEEDS_A_PI = {
    "board": "Blinka's board module names the board it runs on, and refuses an unknown one",
    "neopixel": "imports Blinka's board module",
    "neopixel_write": "imports Blinka's board module",
    "digitalio": "imports Blinka's board module",
    "busio": "imports Blinka's board module",
    "microcontroller": "Blinka names the chip it runs on, and refuses an unknown one",
    "pwmio": "imports Blinka's microcontroller module",
    "analogio": "imports Blinka's microcontroller module",
    "bitbangio": "imports Blinka's microcontroller module",
    "keypad": "imports Blinka's microcontroller module",
    "pulseio": "imports Blinka's microcontroller module",
    "rainbowio": "imports Blinka's microcontroller module",
    "usb_hid": "imports Blinka's microcontroller module",
}


class Part:
    def __init__(self, name: str) -> None:
        self.name = name
        self.seconds = 0.0
        self.ok = False
        self.summary = ""


def timed(parts: list[Part], name: str, work: Callable[[], str]) -> None:
    part = Part(name)
    parts.append(part)
    print(f"\n== {name}", flush=True)
    start = time.perf_counter()
    try:
        part.summary = work()
        part.ok = True
    except Exception as exc:  # a part that fails is reported, and the others still run
        traceback.print_exc()
        part.summary = f"FAILED: {exc}"
    part.seconds = time.perf_counter() - start
    print(f"-- {name}: {part.summary} ({part.seconds:.1f} s)", flush=True)


def run_tests(files: list[str]) -> str:
    import pytest

    code = pytest.main(["-p", "no:cacheprovider", "--durations=5", "--rootdir", str(ROOT), *files])
    if code != 0:
        raise RuntimeError(f"pytest exit {int(code)}")
    return f"{len(files)} test files passed"


def replay_traces() -> str:
    from morris_pi import replay
    from morris_pi.traces.simple import game_trace, random_game

    count = 0
    for profile, seed, computer in (("standard", 3, None), ("twelve", 5, None), ("standard", 8, "black")):
        game = random_game(profile, random.Random(seed), max_turns=100, computer=computer)
        events = game_trace(game, seed=seed, computer=computer)
        r = replay.Replay(replay.parse_header(events[0]))
        for number, event in enumerate(events[1:], start=2):
            r.feed(replay.parse_event(event, number), number)
        final = r.finish()
        if final.record != game.record or final.problems:
            raise RuntimeError(f"{profile} seed {seed}: replayed {final.record!r}, played {game.record!r}")
        count += len(events)
    return f"3 games, {count} trace events, each replayed to its exact record"


def service_loop(seconds: float = 4.0) -> str:
    from gpiozero.pins.mock import MockFactory

    from morris_pi.config.loader import parse_config
    from morris_pi.hw.fakes.i2c import FakeMcp23017, FakeSMBus
    from morris_pi.hw.fakes.spi import FakeSpi
    from morris_pi.service.loop import run_service

    with tempfile.TemporaryDirectory() as state:
        config = parse_config(
            f'[game]\nmode = "two-player"\nmenu = false\n[storage]\nstate_dir = "{state}"\n'
            "[service]\nwatchdog = false\n"
        )
        chips = {a: FakeMcp23017(a) for a in config.sensors.mcp23017.addresses}
        spi = FakeSpi()
        stop = threading.Event()
        up = threading.Event()
        sessions = []

        def observe(session: object) -> None:
            sessions.append(session)
            up.set()

        def run() -> None:
            run_service(
                config,
                stop=stop.is_set,
                pin_factory=MockFactory(),
                bus=FakeSMBus(*chips.values()),
                spi=spi,
                observe=observe,
                env={},
            )

        def switch(point: str, closed: bool) -> None:
            address, bit = config.sensors.mcp23017.map[point]
            (chips[address].close_switch if closed else chips[address].open_switch)(bit)

        thread = threading.Thread(target=run, name="service", daemon=True)
        thread.start()
        if not up.wait(120):
            raise RuntimeError("the service did not come up within 120 s")
        session = sessions[0]
        # the board reads its switches first (the empty board the game starts from): a frame shows it
        deadline = time.perf_counter() + 60
        while not spi.writes and time.perf_counter() < deadline:
            time.sleep(0.05)
        time.sleep(1.0)
        started = time.perf_counter()
        placed: list[str] = []
        # a man put on a point, then the next once the board has recorded it (settle_ms is 200 ms),
        # as long as the time lasts
        for point in ("d6", "a1", "f6", "a4", "b4", "g7", "c3"):  # no mill among them
            if time.perf_counter() - started > seconds:
                break
            switch(point, True)
            placed.append(point)
            deadline = time.perf_counter() + 10
            while session.controller.game.record != " ".join(placed) and time.perf_counter() < deadline:
                time.sleep(0.05)
        record = session.controller.game.record
        stop.set()
        thread.join(30)
        if thread.is_alive():
            raise RuntimeError("the service loop did not stop")
        if record != " ".join(placed):
            raise RuntimeError(f"the board recorded {record!r} for the men put on {' '.join(placed)}")
        if not spi.writes:
            raise RuntimeError("no frame reached the LED chain")
        return f"{len(placed)} men placed and recorded ({record}), {len(spi.writes)} LED frames over SPI"


def import_wheels(wheels: Path) -> str:
    listing = json.loads((wheels / "pi-wheels.json").read_text())
    source_only = sorted(name for name, p in listing.items() if p["kind"] == "source")
    modules: dict[str, str] = {}
    compiled: list[str] = []
    for dist in importlib.metadata.distributions(path=[str(wheels)]):
        for file in dist.files or ():
            parts = file.parts
            if parts[0].endswith((".dist-info", ".data")) or parts[0] == "bin" or parts[0].startswith("__"):
                continue
            if file.suffix not in (".py", ".so") or "tests" in parts:
                continue
            name = ".".join((*parts[:-1], parts[-1].split(".")[0]))
            name = name.removesuffix(".__init__")
            if "-" in name:
                continue
            if file.suffix == ".so":
                compiled.append(name)
            modules.setdefault(name, dist.metadata["Name"])
    failed, off_pi = [], []
    for name in sorted(modules):
        top = name.split(".")[0]
        if "." in name and name not in compiled:
            continue  # the top-level module imports what it needs; compiled parts are tried one by one
        try:
            importlib.import_module(name)
        except Exception as exc:
            why = NEEDS_A_PI.get(top)
            missing = getattr(exc, "name", None)
            if why:
                off_pi.append(f"{name} ({why})")
            elif (
                isinstance(exc, ImportError)
                and missing
                and missing.split(".")[0] in {"lgpio", "_lgpio", "_rpi_ws281x", "rpi_ws281x"}
            ):
                off_pi.append(f"{name} (needs {missing}, built from source on the Pi)")
            else:
                failed.append(f"{name} ({modules[name]}): {type(exc).__name__}: {exc}")
    for line in off_pi:
        print(f"   not importable off a Pi, as expected: {line}")
    for line in failed:
        print(f"   FAILED: {line}")
    tops = sorted({n for n in modules if "." not in n})
    if failed:
        raise RuntimeError(f"{len(failed)} of {len(tops)} modules failed to import")
    return (
        f"{len(listing) - len(source_only)} wheels: {len(tops)} modules, {len(compiled)} compiled extensions "
        f"({', '.join(sorted(compiled)) or 'none'}) imported; source builds, not here: {', '.join(source_only)}"
    )


#: The parts, in the order they run.
PARTS = ("tests", "traces", "service", "imports")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("wheels", nargs="?", type=Path, metavar="WHEELS_DIR", help="the platform's wheels")
    parser.add_argument("--quick", action="store_true", help="run only a few of the tests")
    parser.add_argument("--only", action="append", choices=PARTS, metavar="PART", help=f"one of {', '.join(PARTS)}")
    parser.add_argument("--list", action="store_true", help="print the test files it runs and exit")
    args = parser.parse_args(argv)
    files = QUICK if args.quick else TESTS
    if args.list:
        print("\n".join(files))
        return 0
    wanted = args.only or PARTS
    wheels = args.wheels
    if "imports" in wanted and wheels is None:
        parser.error("WHEELS_DIR is needed for the imports of the wheels (bench/pi_wheels.py install)")
    word = struct.calcsize("P") * 8
    source = f"wheels from {wheels}" if wheels is not None else "no wheels"
    print(f"arm check: Python {platform.python_version()} on {platform.machine()} ({word}-bit), {source}")
    parts: list[Part] = []
    if "tests" in wanted:
        timed(parts, "rules, tracker and engine tests", lambda: run_tests(files))
    if "traces" in wanted:
        timed(parts, "messy traces replayed", replay_traces)
    if "service" in wanted:
        timed(parts, "service loop over emulated MCP23017 and SPI LEDs", service_loop)
    if wheels is not None and "imports" in wanted:
        timed(parts, "imports of the pi extra's wheels", lambda: import_wheels(wheels))
    print(f"\n== arm check on {platform.machine()}, Python {platform.python_version()}:")
    for part in parts:
        print(f"{'ok    ' if part.ok else 'FAILED'} {part.seconds:7.1f} s  {part.name}: {part.summary}")
    return 0 if all(p.ok for p in parts) else 1


if __name__ == "__main__":
    sys.exit(main())
