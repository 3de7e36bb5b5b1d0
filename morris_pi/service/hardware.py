"""The service's hardware ends, each in a slot that survives faults and retries with backoff.

``morris_pi.hw.factory`` builds the sensors, LEDs and buttons from the config.
Here each sits in a slot the session holds on to, so a part that could not be
built, or that fails later, is rebuilt or retried behind the session's back:

- ``SensorSlot.read`` raises ``SensorError`` while the sensors are missing;
  the service then shows the ``sensors`` pattern and calls ``retry`` on a
  backoff schedule (0.5 s doubling to 10 s), which rebuilds the backend if it
  was never built. The MCP23017 backend sets its chips up again by itself on
  the next read, so a read error needs no rebuild.
- ``LedSlot.show`` never raises: a failed write is remembered and written again
  on the backoff schedule, so the game goes on while the LED chain is out.
- ``ButtonSlot.pressed`` never raises either: a board whose buttons cannot be
  set up plays on without them (and says so).

Any exception from a driver, not only ``HardwareError`` (short data from the
bus, an odd value, a bug in a third-party driver), is a fault of that slot:
it is reported and retried the same way and never ends the service loop.

Each fault is logged once when it starts (ERROR) and once when it ends (INFO),
never on every scan.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any, Generic, TypeVar

from morris_pi.config.model import Config
from morris_pi.core.closing import Closeable
from morris_pi.core.ports import RGB, Buttons, Clock, LedStrip, SensorSource
from morris_pi.hw import factory
from morris_pi.hw.errors import HardwareError, SensorError
from morris_pi.hw.failures import describe

log = logging.getLogger("morris_pi.service")

#: The port a slot holds (sensors, LEDs or buttons).
E = TypeVar("E", SensorSource, LedStrip, Buttons)

FIRST_RETRY_S = 0.5
MAX_RETRY_S = 10.0


class Backoff:
    """One fault's episode: when to try again, and logging at its start and end only.

    >>> b = Backoff("sensors", "the sensor board")
    >>> b.failed(RuntimeError("no answer"), 10.0); b.failing, b.retry_at
    (True, 10.5)
    >>> b.failed(RuntimeError("no answer"), 10.5); b.retry_at
    11.5
    >>> b.recovered(12.0); b.failing
    False
    """

    def __init__(self, kind: str, what: str) -> None:
        self.kind = kind
        self.what = what
        self.failing = False
        self.message = ""
        self.retry_at = 0.0
        self.delay = FIRST_RETRY_S
        self.since = 0.0

    def due(self, now: float) -> bool:
        return self.failing and now >= self.retry_at

    def failed(self, exc: BaseException, now: float) -> None:
        message = str(exc) or type(exc).__name__
        if not self.failing:
            self.failing, self.since, self.delay = True, now, FIRST_RETRY_S
            log.error("%s failed: %s; retrying", self.what, message)
        else:
            if message != self.message:
                log.warning("%s still failing: %s", self.what, message)
            self.delay = min(self.delay * 2, MAX_RETRY_S)
        self.message = message
        self.retry_at = now + self.delay

    def recovered(self, now: float) -> None:
        if self.failing:
            log.info("%s works again (after %.1f s)", self.what, now - self.since)
        self.failing, self.message = False, ""


def _driver_fault(exc: BaseException) -> str:
    """An unexpected driver exception in one short line: its type and the start of its message."""
    text = str(exc)
    text = text if len(text) <= 120 else text[:120] + "..."
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


class _Slot(Generic[E]):
    def __init__(self, kind: str, what: str, build: Callable[[], E]) -> None:
        self.backoff = Backoff(kind, what)
        self.inner: E | None = None
        self._build: Callable[[], E] = build

    def open(self, now: float) -> bool:
        """Build the backend; on failure the slot is failing and retries later.

        Any exception counts, not only ``HardwareError``: a driver library can
        fail to load in ways of its own, and the service must show the fault
        and carry on rather than exit and leave a dark board.
        """
        try:
            self.inner = self._build()
        except Exception as exc:
            self.inner = None
            if not isinstance(exc, HardwareError):
                exc = HardwareError(f"cannot open {self.backoff.what}: {describe(exc)}")
            self.backoff.failed(exc, now)
            return False
        return True

    def close(self) -> None:
        inner, self.inner = self.inner, None
        if inner is not None:
            try:
                inner.close()
            except Exception as exc:  # closing down: report, close the rest
                log.warning("closing the %s: %s", self.backoff.what, exc)

    def _state(self) -> str:
        if self.backoff.failing:
            return f"failing: {self.backoff.message}"
        return f"open {self.inner!r}" if self.inner is not None else "not open"

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self._state()}>"


class SensorSlot(_Slot[SensorSource]):
    """The sensors; ``read`` raises ``SensorError`` while they are missing or failing."""

    def read(self) -> frozenset[str]:
        if self.inner is None:
            raise SensorError(self.backoff.message or "the sensors are not set up")
        try:
            closed = frozenset(self.inner.read())
            # Whether this read saw every switch (see ``SensorSource``): passed on to the tracker.
            self.full_scan = bool(getattr(self.inner, "full_scan", True))
            return closed
        except HardwareError:
            raise
        except Exception as exc:
            raise SensorError(f"the sensor driver failed: {_driver_fault(exc)}") from exc

    def retry(self, now: float) -> bool:
        """Rebuild if never built; whether the sensors are there to be read again."""
        if self.inner is None:
            return self.open(now)
        return True


class LedSlot(_Slot[LedStrip]):
    """The LED chain; a failed write is retried on the backoff schedule, never raised."""

    def __init__(self, kind: str, what: str, build: Callable[[], LedStrip], clock: Clock) -> None:
        super().__init__(kind, what, build)
        self.clock = clock
        self._frame: tuple[Mapping[str, RGB], Mapping[str, RGB]] | None = None
        self.writes = 0

    def show(self, points: Mapping[str, RGB], status: Mapping[str, RGB] = {}) -> None:
        self._frame = (points, status)
        if not self.backoff.failing:
            self._write(self.clock.now())

    def retry(self, now: float) -> None:
        if self.backoff.due(now):
            if self.inner is None and not self.open(now):
                return
            self._write(now)

    def _write(self, now: float) -> None:
        if self.inner is None or self._frame is None:
            return
        try:
            self.inner.show(*self._frame)
        except Exception as exc:  # HardwareError, or anything else the driver raises
            self.backoff.failed(
                exc
                if isinstance(exc, HardwareError)
                else HardwareError(f"the LED driver failed: {_driver_fault(exc)}"),
                now,
            )
            return
        self.writes += 1
        self.backoff.recovered(now)

    def close(self) -> None:
        super().close()

    def __repr__(self) -> str:
        return f"<LedSlot {self._state()} writes={self.writes}>"


class ButtonSlot(_Slot[Buttons]):
    """The buttons; a failing input gives no presses until it works again."""

    def __init__(self, kind: str, what: str, build: Callable[[], Buttons], clock: Clock) -> None:
        super().__init__(kind, what, build)
        self.clock = clock

    def pressed(self) -> list[str]:
        if self.inner is None:
            return []
        try:
            return list(self.inner.pressed())
        except Exception as exc:  # HardwareError, or anything else the driver raises
            self.backoff.failed(
                exc
                if isinstance(exc, HardwareError)
                else HardwareError(f"the button driver failed: {_driver_fault(exc)}"),
                self.clock.now(),
            )
            return []

    def retry(self, now: float) -> None:
        if self.backoff.due(now):
            self.close()
            if self.open(now):
                self.backoff.recovered(now)


class BoardHardware(Closeable):
    """Sensors, LEDs and buttons from the config, over injectable low-level objects.

    ``pin_factory``, ``bus``, ``spi`` and ``pixels`` go to ``morris_pi.hw.factory``
    (gpiozero's MockFactory and the fakes in tests and benchmarks; ``None`` opens
    the real hardware).
    """

    def __init__(
        self,
        config: Config,
        clock: Clock,
        *,
        pin_factory: Any = None,
        bus: Any = None,
        spi: Any = None,
        pixels: Any = None,
    ) -> None:
        pins = factory._pins(config, pin_factory)  # one lazily created pin factory for all three
        self.clock = clock
        self.sensors = SensorSlot(
            "sensors", "the sensor board", lambda: factory.build_sensors(config, pin_factory=pins, bus=bus, clock=clock)
        )
        self.leds = LedSlot("leds", "the LED chain", lambda: factory.build_leds(config, spi=spi, pixels=pixels), clock)
        self.buttons = ButtonSlot(
            "buttons", "the buttons", lambda: factory.build_buttons(config, pin_factory=pins, clock=clock), clock
        )

    def open(self) -> None:
        """Build all three; a part that fails is retried later (the LEDs first, to show faults)."""
        self._check_open("open the hardware")
        now = self.clock.now()
        self.leds.open(now)
        self.sensors.open(now)
        self.buttons.open(now)

    def faults(self) -> dict[str, str]:
        """The fault kinds failing now, with their messages (the buttons have no pattern)."""
        return {slot.backoff.kind: slot.backoff.message for slot in (self.sensors, self.leds) if slot.backoff.failing}

    def _release(self) -> None:
        """Close all; the LEDs last, so they go dark even after a sensor fault."""
        for slot in (self.sensors, self.buttons, self.leds):
            slot.close()

    def __repr__(self) -> str:
        if self.closed:
            return "<BoardHardware closed>"
        parts = []
        for slot in (self.sensors, self.leds, self.buttons):
            state = "failing" if slot.backoff.failing else "open" if slot.inner is not None else "not open"
            parts.append(f"{slot.backoff.kind}={state}")
        return f"<BoardHardware {' '.join(parts)}>"
