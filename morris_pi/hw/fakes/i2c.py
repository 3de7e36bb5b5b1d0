"""An emulated I2C bus carrying MCP23017 expanders, at the register level.

``FakeSMBus`` has the smbus2 methods the driver uses; ``FakeMcp23017`` keeps
the chip's 22 registers (both BANK layouts), computes pin levels from the
switches, the pull-ups and IPOL, and raises INTA/INTB on a change the way
the datasheet describes (INTF, INTCAP, cleared by reading GPIO or INTCAP,
MIRROR, open-drain or push-pull polarity).

>>> chip = FakeMcp23017(0x20)
>>> bus = FakeSMBus(chip)
>>> bus.write_byte_data(0x20, 0x0C, 0xFF)          # GPPUA: pull-ups on port A
>>> chip.close_switch(3)
>>> bin(bus.read_byte_data(0x20, 0x12))             # GPIOA: bit 3 pulled to ground
'0b11110111'
"""

from __future__ import annotations

import errno as _errno
import os
from collections import deque
from collections.abc import Callable

REGISTERS: tuple[str, ...] = (
    "IODIR",
    "IPOL",
    "GPINTEN",
    "DEFVAL",
    "INTCON",
    "IOCON",
    "GPPU",
    "INTF",
    "INTCAP",
    "GPIO",
    "OLAT",
)
_RESET = {"IODIR": 0xFF}
BANK, MIRROR, ODR, INTPOL = 0x80, 0x40, 0x04, 0x02


class FakeMcp23017:
    """One MCP23017 whose 16 pins each have a switch to ground."""

    def __init__(self, address: int = 0x20, *, floating_level: int = 0) -> None:
        self.address = address
        #: what an input with no pull-up reads; 0 makes a forgotten pull-up show as "all closed"
        self.floating_level = floating_level
        self.closed: set[int] = set()
        self.on_interrupt: Callable[[FakeMcp23017], None] | None = None
        self.power_cycle()

    def __repr__(self) -> str:
        pins = " ".join(f"{'AB'[bit // 8]}{bit % 8}" for bit in sorted(self.closed))
        flagged = "".join(port for i, port in enumerate("AB") if self.reg("INTF", i))
        interrupt = f" INTF={flagged}" if flagged else ""
        return f"<FakeMcp23017 {self.address:#04x} closed=[{pins}]{interrupt}>"

    # -- the chip's own state -------------------------------------------
    def power_cycle(self) -> None:
        """Lose every setting, as after a brown-out."""
        self.regs = {(name, port): _RESET.get(name, 0) for name in REGISTERS for port in (0, 1)}
        self._levels = [self._port_levels(0), self._port_levels(1)]
        self._signal()

    def reg(self, name: str, port: int = 0) -> int:
        return self.regs[(name, port)]

    def _bit_level(self, port: int, b: int) -> int:
        if not self.reg("IODIR", port) >> b & 1:
            return self.reg("OLAT", port) >> b & 1
        if port * 8 + b in self.closed:
            return 0
        if self.reg("GPPU", port) >> b & 1:
            return 1
        return self.floating_level

    def _port_levels(self, port: int) -> int:
        return sum(self._bit_level(port, b) << b for b in range(8))

    def _gpio_value(self, port: int) -> int:
        return self._levels[port] ^ (self.reg("IPOL", port) & self.reg("IODIR", port))

    def _update(self) -> None:
        new = [self._port_levels(0), self._port_levels(1)]
        for port in (0, 1):
            enabled = self.reg("GPINTEN", port) & self.reg("IODIR", port)
            intcon = self.reg("INTCON", port)
            trigger = (new[port] ^ self._levels[port]) & enabled & ~intcon
            trigger |= (new[port] ^ self.reg("DEFVAL", port)) & enabled & intcon
            trigger &= 0xFF
            if trigger:
                if not self.reg("INTF", port):
                    self._levels[port] = new[port]
                    self.regs[("INTCAP", port)] = self._gpio_value(port)
                self.regs[("INTF", port)] |= trigger
        self._levels = new
        self._signal()

    def int_asserted(self, port: int) -> bool:
        if self.reg("IOCON") & MIRROR:
            return bool(self.reg("INTF", 0) or self.reg("INTF", 1))
        return bool(self.reg("INTF", port))

    def int_pulls_low(self, port: int = 0) -> bool:
        """Whether this chip's INTA (port 0) or INTB pulls its line low now."""
        iocon = self.reg("IOCON")
        if iocon & ODR:  # open-drain: low when asserted, released otherwise
            return self.int_asserted(port)
        active_high = bool(iocon & INTPOL)
        return self.int_asserted(port) != active_high

    def _signal(self) -> None:
        if self.on_interrupt is not None:
            self.on_interrupt(self)

    # -- the world: switches ----------------------------------------------
    def close_switch(self, *bits: int) -> None:
        self.closed.update(bits)
        self._update()

    def open_switch(self, *bits: int) -> None:
        self.closed.difference_update(bits)
        self._update()

    def set_closed(self, bits: set[int] | frozenset[int]) -> None:
        self.closed = set(bits)
        self._update()

    # -- the bus side ---------------------------------------------------
    def _decode(self, address: int) -> tuple[str, int] | None:
        if self.reg("IOCON") & BANK:
            port, index = address >> 4, address & 0x0F
            if port > 1:
                return None
        else:
            port, index = address & 1, address >> 1
        return (REGISTERS[index], port) if index < len(REGISTERS) else None

    def next_address(self, address: int) -> int:
        """Sequential-mode address pointer after ``address`` (IOCON.SEQOP = 0)."""
        if self.reg("IOCON") & 0x20:
            return address
        if self.reg("IOCON") & BANK:
            nxt = address + 1
            return nxt if (nxt & 0x0F) < len(REGISTERS) else (0x10 if address < 0x10 else 0x00)
        return (address + 1) % (2 * len(REGISTERS))

    def read_register(self, address: int) -> int:
        found = self._decode(address)
        if found is None:
            return 0
        name, port = found
        if name == "GPIO":
            value = self._gpio_value(port)
        else:
            value = self.reg(name, port)
        if name in ("GPIO", "INTCAP") and self.reg("INTF", port):
            self.regs[("INTF", port)] = 0  # reading GPIO or INTCAP clears the interrupt
            self._update()  # a compare-mode (INTCON) condition that still holds fires again
        return value

    def write_register(self, address: int, value: int) -> None:
        found = self._decode(address)
        if found is None:
            return
        name, port = found
        value &= 0xFF
        if name in ("INTF", "INTCAP"):
            return  # read-only
        if name == "GPIO":
            name = "OLAT"
        if name == "IOCON":  # one register seen at two addresses
            self.regs[("IOCON", 0)] = self.regs[("IOCON", 1)] = value
        else:
            self.regs[(name, port)] = value
        self._update()


class FakeSMBus:
    """The smbus2 ``SMBus`` methods over emulated chips, with fault injection.

    ``transactions`` records the latest ``log_limit`` accesses as (op, address,
    register, data), so a long benchmark run keeps bounded memory.
    """

    def __init__(self, *chips: FakeMcp23017, log_limit: int = 10_000) -> None:
        self.devices: dict[int, FakeMcp23017] = {chip.address: chip for chip in chips}
        self.transactions: deque[tuple[str, int, int, tuple[int, ...]]] = deque(maxlen=log_limit)
        self.failing: dict[int, int] = {}
        #: address -> what every block read of it returns instead of the registers
        self.malformed: dict[int, object] = {}
        self.closed = False

    def __repr__(self) -> str:
        if self.closed:
            return "<FakeSMBus closed>"
        chips = " ".join(f"{address:#04x}" for address in sorted(self.devices))
        failing = f" failing=[{' '.join(f'{a:#04x}' for a in sorted(self.failing))}]" if self.failing else ""
        return f"<FakeSMBus chips=[{chips}] transactions={len(self.transactions)}{failing}>"

    def fail(self, address: int, error: int = _errno.EREMOTEIO) -> None:
        """Make every access to ``address`` fail with ``OSError(error)`` until ``heal``."""
        self.failing[address] = error

    def heal(self, address: int) -> None:
        self.failing.pop(address, None)
        self.malformed.pop(address, None)

    def answer_malformed(self, address: int, data: object = ()) -> None:
        """Make block reads of ``address`` return ``data`` (default: nothing) without raising,
        as a flaky bus driver can, until ``heal``."""
        self.malformed[address] = list(data) if isinstance(data, tuple) else data

    def _chip(self, address: int) -> FakeMcp23017:
        if self.closed:
            raise OSError(_errno.EBADF, "bus is closed")
        code = self.failing.get(address)
        if code is None and address not in self.devices:
            code = _errno.EREMOTEIO  # nobody acknowledged the address
        if code is not None:
            raise OSError(code, os.strerror(code))
        return self.devices[address]

    def read_byte_data(self, i2c_addr: int, register: int, force: bool | None = None) -> int:
        value = self._chip(i2c_addr).read_register(register)
        self.transactions.append(("read", i2c_addr, register, (value,)))
        return value

    def write_byte_data(self, i2c_addr: int, register: int, value: int, force: bool | None = None) -> None:
        self._chip(i2c_addr).write_register(register, value)
        self.transactions.append(("write", i2c_addr, register, (value,)))

    def read_i2c_block_data(self, i2c_addr: int, register: int, length: int, force: bool | None = None) -> list[int]:
        chip = self._chip(i2c_addr)
        if i2c_addr in self.malformed:
            # deliberately not a list[int] of the length asked: the answer of a misbehaving device
            return self.malformed[i2c_addr]  # type: ignore[return-value]
        out, pointer = [], register
        for _ in range(length):
            out.append(chip.read_register(pointer))
            pointer = chip.next_address(pointer)
        self.transactions.append(("read", i2c_addr, register, tuple(out)))
        return out

    def write_i2c_block_data(self, i2c_addr: int, register: int, data: list[int], force: bool | None = None) -> None:
        chip = self._chip(i2c_addr)
        pointer = register
        for value in data:
            chip.write_register(pointer, value)
            pointer = chip.next_address(pointer)
        self.transactions.append(("write", i2c_addr, register, tuple(data)))

    def close(self) -> None:
        self.closed = True

    def writes(self, address: int) -> dict[int, int]:
        """The last value written to each register of ``address``."""
        out: dict[int, int] = {}
        for op, addr, register, data in self.transactions:
            if op == "write" and addr == address:
                for i, value in enumerate(data):
                    out[register + i] = value
        return out
