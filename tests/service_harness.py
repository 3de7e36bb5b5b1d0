"""The real ``morris-pi run`` loop over emulated hardware, driven step by step.

``FakeBoard`` runs ``morris_pi.service.loop.run_service`` in a thread with a manual
clock. The loop's ``sleep`` advances that clock and parks until the test asks
for more time (``run``), so the test and the loop take turns and nothing waits
for real time. Underneath are the real backends: the MCP23017 driver over the
emulated I2C bus (``FakeSMBus``), gpiozero buttons and the INT line over
``MockFactory`` pins, and the real ``NeoPixel_SPI`` driver over ``FakeSpi``,
whose wire bytes are decoded back into colours the way the LEDs read them.

Run as a script it is the same board in a process of its own, for the power
cut test: one JSON command per line on stdin, one JSON state per line on stdout::

    python tests/service_harness.py CONFIG.toml
    {"close": "d6"}  {"open": "d6"}  {"press": "undo"}  {"run": 0.5}  {"state": true}
"""

from __future__ import annotations

import json
import sys
import threading
from pathlib import Path
from typing import Any

if __name__ == "__main__":  # run as a script from anywhere: import the package from the checkout
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gpiozero.pins.mock import MockFactory

from morris_pi.config.loader import parse_config
from morris_pi.core.ports import ManualClock
from morris_pi.hw.fakes.i2c import FakeMcp23017, FakeSMBus
from morris_pi.hw.fakes.pins import connect_interrupts
from morris_pi.hw.fakes.spi import FakeSpi, Ws2812Chain
from morris_pi.service.loop import engine_factory, run_service
from morris_pi.service.sdnotify import Notifier

RGB = tuple[int, int, int]


class RecordingNotifier(Notifier):
    """sd_notify messages kept in a list instead of sent to a socket."""

    def __init__(self) -> None:
        super().__init__(env={})
        self.sent: list[tuple[str, ...]] = []

    def notify(self, *fields: str) -> bool:
        self.sent.append(fields)
        return True


class FakeBoard:
    """A board on the bench: emulated chips, buttons and LED chain under the real service loop."""

    def __init__(
        self,
        config_text: str,
        *,
        env: dict[str, str] | None = None,
        opponent_factory=None,
        engine_threaded: bool = True,
        start: float = 1000.0,
        storage=None,
    ) -> None:
        self.config = parse_config(config_text, "test.toml")
        self.clock = ManualClock(start)
        self.factory = MockFactory()
        mcp = self.config.sensors.mcp23017
        self.chips = {address: FakeMcp23017(address) for address in mcp.addresses}
        for pin in mcp.interrupt_pins:
            connect_interrupts(self.factory, pin, self.chips.values())
        self.bus = FakeSMBus(*self.chips.values())
        self.spi = FakeSpi()
        self.chain = Ws2812Chain(self.spi, self.config.leds.count)
        self.notifier = RecordingNotifier()
        self.env = env or {}
        self.opponent_factory = opponent_factory or engine_factory(self.config, threaded=engine_threaded)
        self.storage = storage
        self.session = None
        self.exit_code: int | None = None
        self.error: BaseException | None = None
        self._cv = threading.Condition()
        self._budget = 0.0
        self._parked = False
        self._stopping = False
        self._finished = False
        self._decoded = 0
        self._history: list[tuple[float, dict[str, RGB]]] = []
        self._thread = threading.Thread(target=self._main, name="service-loop", daemon=True)

    # -- the loop's side --------------------------------------------------------------

    def _main(self) -> None:
        try:
            self.exit_code = run_service(
                self.config,
                clock=self.clock,
                sleep=self._sleep,
                stop=lambda: self._stopping,
                notifier=self.notifier,
                env=self.env,
                pin_factory=self.factory,
                bus=self.bus,
                spi=self.spi,
                opponent_factory=self.opponent_factory,
                observe=self._observe,
                storage=self.storage,
            )
        except BaseException as exc:  # handed to the test thread
            self.error = exc
        finally:
            with self._cv:
                self._finished = True
                self._cv.notify_all()

    def _observe(self, session) -> None:
        self.session = session

    def _sleep(self, seconds: float) -> None:
        self._record_frames()  # what the last scan wrote, at the time it wrote it
        with self._cv:
            while self._budget <= 1e-12 and not self._stopping:
                self._parked = True
                self._cv.notify_all()
                self._cv.wait()
            self._parked = False
            step = min(seconds, self._budget) if not self._stopping else 0.0
            self._budget -= step
        self.clock.advance(step)

    def _record_frames(self) -> None:
        writes = self.spi.writes
        while self._decoded < len(writes):
            colours = self.chain._decode(writes[self._decoded])
            self._decoded += 1
            self._history.append((self.clock.now(), self._points_of(colours)))
        if len(self._history) > 2000:
            del self._history[:1000]

    # -- the test's side ----------------------------------------------------------------

    def start(self) -> FakeBoard:
        self._thread.start()
        self._wait()
        return self

    def _wait(self) -> None:
        with self._cv:
            if not self._cv.wait_for(lambda: self._finished or (self._parked and self._budget <= 1e-12), 120):
                raise TimeoutError("the service loop did not come back")
        if self.error is not None:
            raise self.error

    def run(self, seconds: float = 0.5) -> None:
        """Let ``seconds`` of board time pass."""
        with self._cv:
            if self._finished:
                raise RuntimeError("the service has stopped")
            self._budget += seconds
            self._parked = False
            self._cv.notify_all()
        self._wait()

    def stop(self) -> int | None:
        """SIGTERM, as systemd sends it: the loop finishes its scan and shuts down."""
        with self._cv:
            self._stopping = True
            self._cv.notify_all()
        self._thread.join(30)
        if self.error is not None:
            raise self.error
        return self.exit_code

    # -- hands ------------------------------------------------------------------------

    def _bit(self, point: str) -> tuple[FakeMcp23017, int]:
        address, bit = self.config.sensors.mcp23017.map[point]
        return self.chips[address], bit

    def close(self, point: str) -> None:
        chip, bit = self._bit(point)
        chip.close_switch(bit)

    def open(self, point: str) -> None:
        chip, bit = self._bit(point)
        chip.open_switch(bit)

    def closed(self) -> set[str]:
        return {p for p in self.config.sensors.mcp23017.map if self._bit(p)[1] in self._bit(p)[0].closed}

    def put(self, point: str, wait: float = 0.5) -> None:
        self.close(point)
        self.run(wait)

    def take(self, point: str, wait: float = 0.5) -> None:
        self.open(point)
        self.run(wait)

    def press(self, name: str) -> None:
        """Press and release a button for 0.1 s each (longer than the debounce)."""
        pin = self.factory.pin(self.config.buttons.pins[name])
        pin.drive_low()
        self.run(0.1)
        pin.drive_high()
        self.run(0.1)

    # -- eyes -------------------------------------------------------------------------

    def _points_of(self, colours: list[RGB]) -> dict[str, RGB]:
        return {p: c for p, c in zip(self.config.leds.order, colours, strict=False) if p and c != (0, 0, 0)}

    def leds(self) -> dict[str, RGB]:
        """The point LEDs lit now, decoded from the SPI wire."""
        return self._points_of(self.chain.colours())

    def status_leds(self) -> dict[str, RGB]:
        colours = self.chain.colours()
        return {name: colours[i] for name, i in self.config.leds.status.items() if colours[i] != (0, 0, 0)}

    def seen(self, seconds: float = 1.3) -> dict[str, set[RGB]]:
        """Every colour each point showed while ``seconds`` passed (blinking LEDs included)."""
        start = self.clock.now()
        out: dict[str, set[RGB]] = {p: {c} for p, c in self.leds().items()}
        self.run(seconds)
        for when, points in self._history:
            if when >= start:
                for p, c in points.items():
                    out.setdefault(p, set()).add(c)
        return out

    def state(self) -> dict[str, Any]:
        snap = self.session.snapshot() if self.session is not None else None
        return {
            "t": self.clock.now(),
            "state": self.session.state if self.session is not None else "starting",
            "record": snap.record if snap else None,
            "computer": snap.computer if snap else None,
            "roles": dict(snap.leds) if snap else {},
            "problems": [p.to_dict() for p in snap.problems] if snap else [],
            "outcome": snap.outcome.to_dict() if snap and snap.outcome else None,
            "leds": {p: list(c) for p, c in self.leds().items()},
            "closed": sorted(self.closed()),
        }


def main() -> int:
    board = FakeBoard(Path(sys.argv[1]).read_text(encoding="utf-8")).start()
    out = sys.stdout
    for line in sys.stdin:
        command = json.loads(line)
        if "close" in command:
            board.close(command["close"])
        if "open" in command:
            board.open(command["open"])
        if "press" in command:
            board.press(command["press"])
        if "run" in command:
            board.run(float(command["run"]))
        out.write(json.dumps(board.state()) + "\n")
        out.flush()
    return board.stop() or 0


if __name__ == "__main__":
    sys.exit(main())
