"""Occupancy from reed switches on MCP23017 expanders (the recommended build).

Each switch closes its expander input to ground; the chip's pull-up holds an
open input high, so a 0 bit is a man on the point.

With interrupt pins configured, ``read()`` leaves the bus alone unless an
expander signals a change on its INT line, or a full re-read is due
(``resync_s``, default 0.5 s, on the injected clock). That re-read also
notices a chip that lost its set-up in a power glitch and sets it up again.
If it finds a change that no interrupt announced (an INT line configured but
not wired, or broken), the backend logs a warning and polls from then on, so
a wrong config costs bus traffic, never half a second of latency per move.
Without interrupt pins every ``read()`` reads the inputs: 2 short transfers
per chip.

A missing or failing chip raises ``SensorError`` naming its address; the next
``read()`` sets the chips up again, so the caller retries by reading again.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from typing import Any

from morris_pi.core.closing import Closeable
from morris_pi.core.ports import Clock, MonotonicClock
from morris_pi.hw.errors import SensorError
from morris_pi.hw.mcp23017 import Mcp23017

log = logging.getLogger(__name__)


class Mcp23017Sensors(Closeable):
    """A ``SensorSource`` over MCP23017 expanders on one I2C bus.

    ``bus`` is an smbus2 ``SMBus`` (or anything with its methods);
    ``point_bits`` maps each point to (chip address, bit 0-15).

    >>> from morris_pi.hw.fakes.i2c import FakeMcp23017, FakeSMBus
    >>> chip = FakeMcp23017(0x20)
    >>> with Mcp23017Sensors(FakeSMBus(chip), {"a7": (0x20, 0), "d7": (0x20, 1)}, bus_number=1) as sensors:
    ...     chip.close_switch(1)  # a man on d7
    ...     sensors.read(), sensors
    (frozenset({'d7'}), <Mcp23017Sensors 0x20 on I2C bus 1 polled occupied=[d7]>)
    """

    def __init__(
        self,
        bus: Any,
        point_bits: Mapping[str, tuple[int, int]],
        *,
        addresses: Iterable[int] | None = None,
        interrupt_pins: Iterable[int] = (),
        resync_s: float = 0.5,
        clock: Clock | None = None,
        pin_factory: Any = None,
        bus_number: int | None = None,
        owns_bus: bool = False,
    ) -> None:
        self._bus = bus
        self._owns_bus = owns_bus
        chip_addresses = sorted(set(addresses or ()) | {a for a, _ in point_bits.values()})
        self._chips = [Mcp23017(bus, a, bus_number) for a in chip_addresses]
        #: per chip: (mask of a bit, point)
        self._bits: dict[int, list[tuple[int, str]]] = {a: [] for a in chip_addresses}
        for point, (address, bit) in point_bits.items():
            self._bits[address].append((1 << bit, point))
        self._resync_s = resync_s
        self._clock = clock or MonotonicClock()
        self._interrupts: list[Any] = []
        self._polling = False
        self._ready = False
        self._state: frozenset[str] = frozenset()
        #: Whether the last ``read`` read every input (see ``ports.SensorSource``).
        self.full_scan = False
        self._next_resync = float("-inf")
        self.bus_reads = 0  # full input reads so far; lets tests and benchmarks see the bus load
        pins = list(interrupt_pins)
        if pins:
            from gpiozero import DigitalInputDevice  # gpiozero only when an INT line is wired

            try:
                for pin in pins:
                    # INT is open-drain, active low: the Pi's pull-up holds the idle line high
                    self._interrupts.append(DigitalInputDevice(pin, pull_up=True, pin_factory=pin_factory))
            except Exception as exc:
                self.close()
                raise SensorError(f"expander interrupt line on GPIO {pin}: {exc}") from exc

    @property
    def uses_interrupts(self) -> bool:
        """Whether reads wait for an interrupt (False after a missed one)."""
        return bool(self._interrupts) and not self._polling

    def _interrupted(self) -> bool:
        return any(line.is_active for line in self._interrupts)

    def _setup(self) -> None:
        for chip in self._chips:
            chip.setup(interrupts=bool(self._interrupts))
        self._ready = True

    def read(self) -> frozenset[str]:
        self._check_open("read the expanders")
        now = self._clock.now()
        resync = now >= self._next_resync
        waiting = self._ready and self.uses_interrupts
        interrupted = waiting and self._interrupted()
        if waiting and not resync and not interrupted:
            self.full_scan = False  # the state as last read: a missed interrupt would hide a change
            return self._state
        trust_check = waiting and not interrupted  # a resync with no interrupt pending
        try:
            if not self._ready:
                self._setup()
            elif resync and not all(chip.still_configured() for chip in self._chips):
                log.warning("an MCP23017 lost its set-up (power glitch?); setting the expanders up again")
                self._setup()
                trust_check = False  # its interrupts were off: a missed change proves nothing
            closed: set[str] = set()
            for chip in self._chips:
                levels = chip.read_inputs()
                closed.update(point for mask, point in self._bits[chip.address] if not levels & mask)
        except SensorError:
            self._ready = False
            raise
        self.bus_reads += 1
        self.full_scan = True  # every input of every expander was read just now
        if resync:
            self._next_resync = now + self._resync_s
        state = frozenset(closed)
        if trust_check and state != self._state:
            pins = ", ".join(str(line.pin) for line in self._interrupts)
            log.warning(
                "the MCP23017 inputs changed without an interrupt on %s; is the INT line wired? "
                "Polling the expanders from now on",
                pins,
            )
            self._polling = True
        self._state = state
        return self._state

    def _release(self) -> None:
        for line in self._interrupts:
            line.close()
        self._interrupts = []
        if self._owns_bus and self._bus is not None:
            self._bus.close()
            self._bus = None

    def __repr__(self) -> str:
        if self.closed:
            return "<Mcp23017Sensors closed>"
        chips = ",".join(f"0x{chip.address:02x}" for chip in self._chips)
        bus = self._chips[0].bus_number if self._chips else None
        where = f" on I2C bus {bus}" if bus is not None else ""
        how = "interrupts" if self.uses_interrupts else "polled"
        return f"<Mcp23017Sensors {chips}{where} {how} occupied=[{' '.join(sorted(self._state))}]>"


def open_i2c_bus(number: int) -> Any:
    """The kernel's ``/dev/i2c-<number>`` through smbus2, with a clear error."""
    try:
        from smbus2 import SMBus
    except ImportError as exc:
        raise SensorError("the mcp23017 backend needs smbus2: pip install 'morris-pi[pi]'") from exc
    try:
        return SMBus(number)
    except FileNotFoundError as exc:
        raise SensorError(
            f"I2C bus {number} is not available (/dev/i2c-{number} is missing): "
            "enable I2C with raspi-config or dtparam=i2c_arm=on"
        ) from exc
    except PermissionError as exc:
        raise SensorError(f"no permission to open /dev/i2c-{number}: add the user to the i2c group") from exc
    except OSError as exc:
        raise SensorError(f"cannot open I2C bus {number}: {exc}") from exc
