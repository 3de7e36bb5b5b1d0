"""The service loop on emulated hardware, in real time: idle CPU, sensor-to-LED latency, peak memory.

Runs ``morris_pi.service.loop.run_service`` exactly as ``morris-pi run`` does (real
clock, real sleep, the config's scan rate), over the MCP23017 driver on the
emulated I2C bus and the real NeoPixel SPI driver on the emulated SPI port.
The board resumes a saved game in the moving phase, so every scan does the
work of a game in progress. Prints:

- idle CPU: process CPU time / wall time while nobody touches the board
  (target < 3 % of one core), polled expanders and with the INT line wired;
- latency: from a switch changing on the expander to the SPI write of the
  frame that answers it (a man lifted: its targets light at once), median,
  p99 and max (target p99 < 20 ms); and from the moment a move becomes firm
  (``settle_ms`` after the man is put down) to the write of the frame that
  shows the move recorded;
- peak RSS of the process, after the engine has searched a hint at full
  strength (target < 60 MB).

The figures go into ``bench/results/service.md``, a row per measure.

    python bench/service.py [--idle 10] [--moves 60]
"""

from __future__ import annotations

import argparse
import platform
import random
import resource
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gpiozero.pins.mock import MockFactory

from bench.results import record
from morris_pi.config.loader import parse_config
from morris_pi.core.menu import GameSettings
from morris_pi.core.storage import Storage
from morris_pi.hw.fakes.i2c import FakeMcp23017, FakeSMBus
from morris_pi.hw.fakes.pins import connect_interrupts
from morris_pi.hw.fakes.spi import FakeSpi
from morris_pi.rules import Game
from morris_pi.service.loop import run_service

#: Moving phase, white to move, no turn closes a mill yet.
MOVING = "f2 b2 d7 d6 e3 e4 c5 f4 c4 a4 b4 d1 d5 g1 b6 g7 a7 c3"


class TimedSpi(FakeSpi):
    """The emulated SPI port, noting when each frame goes out."""

    def __init__(self) -> None:
        super().__init__()
        self.times: list[float] = []

    def write(self, buf, start=0, end=None) -> None:
        super().write(buf, start, end)
        self.times.append(time.perf_counter())
        if len(self.writes) > 200:  # keep memory flat over a long run
            del self.writes[:100]


class Bench:
    def __init__(self, interrupts: bool, state: Path, record: str = MOVING) -> None:
        extra = "interrupt_pins = [4]\n" if interrupts else ""
        self.config = parse_config(f"""
[game]
mode = "two-player"
profile = "move-this"
menu = false
[sensors.mcp23017]
{extra}[buttons]
hint = 22
[storage]
state_dir = "{state}"
""")
        self.game = Game.from_record(record, "move-this")
        store = Storage(state)
        store.save_current(
            self.game, {"id": store.new_game_id(), **GameSettings(mode="two-player", profile="move-this").meta()}
        )
        self.factory = MockFactory()
        self.chips = {a: FakeMcp23017(a) for a in self.config.sensors.mcp23017.addresses}
        if interrupts:
            connect_interrupts(self.factory, 4, self.chips.values())
        self.spi = TimedSpi()
        self.stop = threading.Event()
        self.session = None
        self.up = threading.Event()
        self.board: set[str] = set()
        for point in self.game.board:
            self.set(point, True)
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        def observe(session) -> None:
            self.session = session
            self.up.set()

        run_service(
            self.config,
            stop=self.stop.is_set,
            pin_factory=self.factory,
            bus=FakeSMBus(*self.chips.values()),
            spi=self.spi,
            observe=observe,
            env={},
        )

    def set(self, point: str, closed: bool) -> None:
        address, bit = self.config.sensors.mcp23017.map[point]
        (self.chips[address].close_switch if closed else self.chips[address].open_switch)(bit)
        (self.board.add if closed else self.board.discard)(point)

    def start(self) -> None:
        self.thread.start()
        self.up.wait(30)
        time.sleep(1.0)  # the board resyncs with the save

    def close(self) -> None:
        self.stop.set()
        self.thread.join(10)

    def next_write_after(self, t: float, timeout: float = 1.0) -> float | None:
        end = time.perf_counter() + timeout
        while time.perf_counter() < end:
            later = [w for w in self.spi.times[-20:] if w >= t]
            if later:
                return min(later)
            time.sleep(0.0005)
        return None


def idle_cpu(bench: Bench, seconds: float) -> float:
    c0, w0 = time.process_time(), time.perf_counter()
    time.sleep(seconds)
    return (time.process_time() - c0) / (time.perf_counter() - w0)


def latencies(bench: Bench, moves: int, rng: random.Random) -> tuple[list[float], list[float]]:
    """Lift a man and put it on a legal target: (lift -> frame) and (firm -> frame) delays."""
    lift, decide = [], []
    settle = bench.config.sensors.settle_ms / 1000
    session = bench.session
    for _ in range(moves):
        game = session.controller.game
        turns = [t for t in game.legal_turns() if t.origin and not t.removal]
        turn = rng.choice(turns)
        time.sleep(rng.uniform(0.05, 0.15))
        t = time.perf_counter()
        bench.set(turn.origin, False)
        w = bench.next_write_after(t)
        if w is not None:
            lift.append(w - t)
        time.sleep(rng.uniform(0.1, 0.3))
        before = game.record
        t = time.perf_counter()
        bench.set(turn.target, True)
        firm = t + settle
        deadline = time.perf_counter() + 2.0
        while session.controller.game.record == before and time.perf_counter() < deadline:
            time.sleep(0.001)
        time.sleep(0.02)
        w = next((x for x in bench.spi.times[-20:] if x >= firm), None)
        if w is not None:
            decide.append(w - firm)
        time.sleep(0.25)
    return lift, decide


def summary(name: str, values: list[float]) -> str:
    values = sorted(values)
    if not values:
        return f"{name}: no samples"
    p99 = values[min(len(values) - 1, round(0.99 * (len(values) - 1)))]
    top = ", ".join(f"{v * 1000:.1f}" for v in values[-3:])
    return (
        f"{name}: n={len(values)} median {statistics.median(values) * 1000:.1f} ms, "
        f"p99 {p99 * 1000:.1f} ms, max {values[-1] * 1000:.1f} ms (largest three: {top} ms)"
    )


def spread(values: list[float]) -> str:
    """``median M ms, p99 P ms, max X ms (n = N)``, for the table."""
    values = sorted(values)
    if not values:
        return "no samples"
    p99 = values[min(len(values) - 1, round(0.99 * (len(values) - 1)))]
    return (
        f"median {statistics.median(values) * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, "
        f"max {values[-1] * 1000:.1f} ms (n = {len(values)})"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--idle", type=float, default=10.0, help="seconds of idle measurement per variant")
    parser.add_argument("--moves", type=int, default=60, help="moves for the latency measurement")
    args = parser.parse_args()
    rng = random.Random(1)
    rows: list[dict[str, object]] = []
    print(f"python {sys.version.split()[0]}; scan rate {parse_config('').sensors.scan_hz:g} Hz")
    for interrupts in (False, True):
        with tempfile.TemporaryDirectory() as state:
            bench = Bench(interrupts, Path(state))
            bench.start()
            try:
                share = idle_cpu(bench, args.idle)
                label = "INT line wired" if interrupts else "expanders polled"
                print(f"idle CPU ({label}): {share * 100:.2f} % of one core over {args.idle:g} s")
                rows.append(
                    {
                        "measure": f"idle CPU, {label}",
                        "measured": f"{share * 100:.2f} % of one core over {args.idle:g} s",
                        "target": "< 3 % of one core",
                    }
                )
                if not interrupts:
                    lift, decide = latencies(bench, args.moves, rng)
                    print(summary("latency, switch change -> LED frame written", lift))
                    print(summary("latency, move firm (settle_ms after the man is down) -> LED frame", decide))
                    rows.append(
                        {
                            "measure": "latency, switch change → LED frame written (a man lifted)",
                            "measured": spread(lift),
                            "target": "p99 < 20 ms",
                        }
                    )
                    rows.append(
                        {
                            "measure": "latency, move firm (settle_ms after the man is down) → LED frame",
                            "measured": spread(decide),
                            "target": "",
                        }
                    )
                    print(f"record after the moves: {len(bench.session.controller.game.history)} turns")
                    pin = bench.factory.pin(22)  # the hint button: a full-strength search (tables, TT)
                    pin.drive_low()
                    time.sleep(0.1)
                    pin.drive_high()
                    deadline = time.time() + 30
                    while bench.session.snapshot().hint is None and time.time() < deadline:
                        time.sleep(0.05)
                    print(f"hint after a full-strength search: {bench.session.snapshot().hint}")
            finally:
                bench.close()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak RSS: {peak:.1f} MB")
    rows.append(
        {"measure": "peak RSS, after a full-strength hint search", "measured": f"{peak:.1f} MB", "target": "< 60 MB"}
    )
    record(
        "service",
        "The board service on emulated hardware (bench/service.py)",
        ["measure", "measured", "target"],
        rows,
        notes="`morris_pi.service.loop.run_service` as `morris-pi run` runs it (real clock and sleep, "
        f"{parse_config('').sensors.scan_hz:g} Hz scan) over the MCP23017 driver on the emulated I2C bus and "
        "the NeoPixel SPI driver on the emulated SPI port, resuming a game in the moving phase; "
        f"this machine ({platform.machine()}, Python {platform.python_version()}). A change waits for the next "
        "scan, so the latency is the scan period plus the work.",
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
