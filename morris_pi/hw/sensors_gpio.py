"""Occupancy from 24 reed switches wired straight to GPIO inputs.

Each switch closes its GPIO to ground against the Pi's internal pull-up. The
pins report edges (gpiozero events), so ``read()`` re-reads the 24 pins only
after an edge or when a full re-read is due (``resync_s`` on the injected
clock, to recover from a missed edge); otherwise it returns the last state
without touching the pins.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from morris_pi.core.closing import Closeable
from morris_pi.core.ports import Clock, MonotonicClock
from morris_pi.hw.errors import SensorError


class GpioSensors(Closeable):
    """A ``SensorSource`` over one gpiozero ``DigitalInputDevice`` per point.

    >>> from gpiozero.pins.mock import MockFactory
    >>> with GpioSensors({"a7": 2, "d7": 3}, pin_factory=MockFactory()) as sensors:
    ...     sensors
    <GpioSensors 2 switches occupied=[] (not read yet)>
    """

    def __init__(
        self,
        point_pins: Mapping[str, int],
        *,
        resync_s: float = 0.5,
        clock: Clock | None = None,
        pin_factory: Any = None,
    ) -> None:
        from gpiozero import DigitalInputDevice

        self._clock = clock or MonotonicClock()
        self._resync_s = resync_s
        self._devices: dict[str, Any] = {}
        self._dirty = True
        self._next_resync = float("-inf")
        self._state: frozenset[str] = frozenset()
        #: Whether the last ``read`` read every pin (see ``ports.SensorSource``).
        self.full_scan = False
        self.pin_reads = 0  # full re-reads so far (for tests and benchmarks)
        for point, pin in point_pins.items():
            try:
                device = DigitalInputDevice(pin, pull_up=True, pin_factory=pin_factory)
            except Exception as exc:
                self.close()
                raise SensorError(f"switch at {point} on GPIO {pin}: {exc}") from exc
            # the callback may run on gpiozero's event thread: it only raises a flag
            device.when_activated = self._changed
            device.when_deactivated = self._changed
            self._devices[point] = device

    def _changed(self) -> None:
        self._dirty = True

    def read(self) -> frozenset[str]:
        self._check_open("read the switches")
        now = self._clock.now()
        if self._dirty or now >= self._next_resync:
            # clear the flag before reading: an edge during the read marks it again
            self._dirty = False
            try:
                self._state = frozenset(p for p, d in self._devices.items() if d.is_active)
            except Exception as exc:
                self._dirty = True
                raise SensorError(f"reading the switch GPIOs failed: {exc}") from exc
            self.pin_reads += 1
            self._next_resync = now + self._resync_s
            self.full_scan = True  # every pin was read just now
        else:
            self.full_scan = False  # the state as last read: a missed edge would hide a change
        return self._state

    def _release(self) -> None:
        for device in self._devices.values():
            device.close()
        self._devices = {}

    def __repr__(self) -> str:
        if self.closed:
            return "<GpioSensors closed>"
        read = "" if self.pin_reads else " (not read yet)"
        return f"<GpioSensors {len(self._devices)} switches occupied=[{' '.join(sorted(self._state))}]{read}>"
