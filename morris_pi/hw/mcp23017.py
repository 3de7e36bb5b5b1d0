"""A register-level driver for the MCP23017 16-bit I/O expander, inputs only.

It talks to any object with the smbus2 ``SMBus`` methods ``read_byte_data``,
``write_byte_data`` and ``read_i2c_block_data``: the real bus on a Pi, or
``morris_pi.hw.fakes.i2c.FakeSMBus`` in tests, which emulates the chip's
registers so this code runs unchanged.

Set-up (datasheet DS20001952): all 16 pins inputs (IODIR = 1), pull-ups on
(GPPU = 1), no inversion (IPOL = 0), interrupt on any change (INTCON = 0,
GPINTEN = 1 when an interrupt line is wired), and IOCON = MIRROR | ODR: INTA
and INTB both signal a change on either port, as open-drain outputs, so the
INTA pins of several chips can share one pulled-up GPIO. Reading GPIOA/GPIOB
clears the interrupt.
"""

from __future__ import annotations

from typing import Any

from morris_pi.hw.errors import SensorError

# Register addresses with IOCON.BANK = 0 (the power-on default).
IODIRA, IODIRB = 0x00, 0x01
IPOLA, IPOLB = 0x02, 0x03
GPINTENA, GPINTENB = 0x04, 0x05
DEFVALA, DEFVALB = 0x06, 0x07
INTCONA, INTCONB = 0x08, 0x09
IOCON = 0x0A
GPPUA, GPPUB = 0x0C, 0x0D
INTFA, INTFB = 0x0E, 0x0F
INTCAPA, INTCAPB = 0x10, 0x11
GPIOA, GPIOB = 0x12, 0x13
OLATA, OLATB = 0x14, 0x15

#: Where IOCON sits when IOCON.BANK = 1 (a mode other software may have left).
IOCON_BANK1 = 0x05

# IOCON bits.
BANK, MIRROR, SEQOP, DISSLW, HAEN, ODR, INTPOL = 0x80, 0x40, 0x20, 0x10, 0x08, 0x04, 0x02

_ERRNO_HINTS = {
    121: "no answer: is the expander powered and wired, with this address on A2-A0? (try i2cdetect)",
    110: "the bus timed out: check SDA/SCL wiring and pull-ups",
    5: "I/O error on the bus",
}


class Mcp23017:
    """One expander on one bus, used as 16 pulled-up inputs.

    ``read_inputs()`` returns the 16 pin levels: bit 0-7 = GPA0-7,
    bit 8-15 = GPB0-7; 1 = high (open switch), 0 = low (closed to ground).
    """

    def __init__(self, bus: Any, address: int, bus_number: int | None = None) -> None:
        self.bus = bus
        self.address = address
        self.bus_number = bus_number

    def __repr__(self) -> str:
        return f"<{self.describe()}>"

    def describe(self) -> str:
        where = f" on I2C bus {self.bus_number}" if self.bus_number is not None else ""
        return f"MCP23017 at 0x{self.address:02x}{where}"

    def _error(self, doing: str, exc: OSError) -> SensorError:
        hint = _ERRNO_HINTS.get(getattr(exc, "errno", None) or 0, str(exc))
        return SensorError(f"{self.describe()}: {doing} failed: {hint}")

    def _write(self, register: int, value: int) -> None:
        try:
            self.bus.write_byte_data(self.address, register, value)
        except OSError as exc:
            raise self._error(f"writing register 0x{register:02x}", exc) from exc

    def _read_pair(self, register: int) -> tuple[int, int]:
        """Registers A and B in one sequential read (IOCON.SEQOP = 0)."""
        try:
            data = self.bus.read_i2c_block_data(self.address, register, 2)
        except OSError as exc:
            raise self._error(f"reading register 0x{register:02x}", exc) from exc
        # A bus driver that answers with short or odd data instead of raising is as broken
        # as one that raises: never let it turn into an IndexError in the service loop.
        try:
            a, b = data
            if not (isinstance(a, int) and isinstance(b, int) and 0 <= a <= 0xFF and 0 <= b <= 0xFF):
                raise ValueError
        except (TypeError, ValueError):
            shown = repr(data)
            shown = shown if len(shown) <= 40 else shown[:40] + "..."
            raise SensorError(
                f"{self.describe()}: reading register 0x{register:02x} gave a malformed answer {shown} "
                "(expected two bytes)"
            ) from None
        return a, b

    def setup(self, interrupts: bool) -> None:
        """Configure all pins as pulled-up inputs and check the chip took it."""
        # If the chip was left in BANK=1 mode, 0x05 is IOCON and writing 0
        # returns it to BANK=0; in BANK=0 it is GPINTENB, which is set below.
        self._write(IOCON_BANK1, 0x00)
        self._write(IOCON, MIRROR | ODR)
        enable = 0xFF if interrupts else 0x00
        for register, value in (
            (IODIRA, 0xFF),
            (IODIRB, 0xFF),
            (IPOLA, 0x00),
            (IPOLB, 0x00),
            (GPPUA, 0xFF),
            (GPPUB, 0xFF),
            (DEFVALA, 0x00),
            (DEFVALB, 0x00),
            (INTCONA, 0x00),
            (INTCONB, 0x00),
            (GPINTENA, enable),
            (GPINTENB, enable),
        ):
            self._write(register, value)
        iodir, gppu = self._read_pair(IODIRA), self._read_pair(GPPUA)
        if iodir != (0xFF, 0xFF) or gppu != (0xFF, 0xFF):
            raise SensorError(
                f"{self.describe()}: the device answers but does not behave like an MCP23017 "
                f"(IODIR read back {iodir[0]:#04x}/{iodir[1]:#04x}, GPPU {gppu[0]:#04x}/{gppu[1]:#04x})"
            )

    def still_configured(self) -> bool:
        """False after a power glitch reset the chip (pull-ups come back off)."""
        return self._read_pair(GPPUA) == (0xFF, 0xFF)

    def read_inputs(self) -> int:
        a, b = self._read_pair(GPIOA)
        return a | (b << 8)
