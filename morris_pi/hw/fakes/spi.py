"""An emulated SPI port with a WS2812 LED chain on its MOSI line.

``FakeSpi`` has the ``busio.SPI`` methods the NeoPixel SPI driver uses.
``Ws2812Chain`` reads what went over the wire the way the LEDs do: each SPI
byte is one pulse, long pulses are 1 bits, short ones 0 bits, a low line of
50 us or more is a reset that latches the frame.

>>> spi = FakeSpi()
>>> chain = Ws2812Chain(spi, count=1)
>>> one, zero = 0b11110000, 0b11000000
>>> grb = [one] * 8 + [zero] * 8 + [zero] * 7 + [one]      # G=255, R=0, B=1
>>> spi.try_lock()
True
>>> spi.configure(baudrate=6_400_000); spi.write(bytes(64) + bytes(grb) + bytes(64))
>>> chain.colours()
[(0, 255, 1)]
"""

from __future__ import annotations

RGB = tuple[int, int, int]

#: A WS2812 samples the line roughly 0.6 us after a rising edge: a high pulse
#: of at most 0.55 us (the datasheet's longest 0) reads as 0, one of 0.6 us or
#: more as 1. The line held low for 50 us or more latches the frame.
ZERO_MAX_S = 0.55e-6
ONE_MIN_S = 0.60e-6
RESET_MIN_S = 50e-6


class FakeSpi:
    """A lockable SPI bus that records what it sends."""

    def __init__(self) -> None:
        self.locked = False
        self.baudrate = 100_000
        self.polarity = 0
        self.phase = 0
        self.writes: list[bytes] = []
        self.deinited = False

    def __repr__(self) -> str:
        if self.deinited:
            return "<FakeSpi deinited>"
        locked = " locked" if self.locked else ""
        return f"<FakeSpi {self.baudrate:,} Hz writes={len(self.writes)}{locked}>"

    def try_lock(self) -> bool:
        if self.locked:
            return False
        self.locked = True
        return True

    def unlock(self) -> None:
        self.locked = False

    def configure(self, *, baudrate: int = 100_000, polarity: int = 0, phase: int = 0, bits: int = 8) -> None:
        if not self.locked:
            raise RuntimeError("configure() on an SPI bus that is not locked")
        self.baudrate, self.polarity, self.phase = baudrate, polarity, phase

    @property
    def frequency(self) -> int:
        return self.baudrate

    def write(self, buf: bytes | bytearray, start: int = 0, end: int | None = None) -> None:
        if not self.locked:
            raise RuntimeError("write() on an SPI bus that is not locked")
        self.writes.append(bytes(buf[start:end]))

    def deinit(self) -> None:
        self.deinited = True


def decode_ws2812(wire: bytes, baudrate: int) -> bytes:
    """The data bytes a WS2812 chain receives from one SPI transfer."""
    bit_s = 1.0 / baudrate
    start = 0
    while start < len(wire) and wire[start] == 0:
        start += 1
    end = len(wire)
    while end > start and wire[end - 1] == 0:
        end -= 1
    if start * 8 * bit_s < RESET_MIN_S:
        raise ValueError(f"leading reset too short ({start * 8 * bit_s * 1e6:.1f} us)")
    if (len(wire) - end) * 8 * bit_s < RESET_MIN_S:
        raise ValueError("trailing reset too short: the frame would not latch")
    bits: list[int] = []
    for i, byte in enumerate(wire[start:end]):
        inverted = ~byte & 0xFF
        if byte == 0 or (inverted + 1) & inverted:
            raise ValueError(f"byte {start + i} ({byte:#010b}) is not one high pulse")
        high_s = (8 - inverted.bit_length()) * bit_s
        if high_s <= ZERO_MAX_S:
            bits.append(0)
        elif high_s >= ONE_MIN_S:
            bits.append(1)
        else:
            raise ValueError(f"pulse of {high_s * 1e6:.2f} us is neither a 0 nor a 1")
    if len(bits) % 8:
        raise ValueError(f"{len(bits)} bits is not a whole number of bytes")
    return bytes(int("".join(map(str, bits[i : i + 8])), 2) for i in range(0, len(bits), 8))


def bytes_to_colours(data: bytes, channel_order: str = "GRB") -> list[RGB]:
    """Split a chain's data bytes into (r, g, b) per LED, given the LEDs' wire order."""
    out: list[RGB] = []
    for i in range(0, len(data) - len(data) % 3, 3):
        chunk = dict(zip(channel_order, data[i : i + 3], strict=True))
        out.append((chunk["R"], chunk["G"], chunk["B"]))
    return out


class Ws2812Chain:
    """``count`` WS2812 LEDs on a ``FakeSpi``; their colours after each frame."""

    def __init__(self, spi: FakeSpi, count: int, channel_order: str = "GRB") -> None:
        self.spi = spi
        self.count = count
        self.channel_order = channel_order

    def __repr__(self) -> str:
        try:
            lit = f"lit={sum(colour != (0, 0, 0) for colour in self.colours())}"
        except ValueError:  # the last transfer is no frame the LEDs can read
            lit = "unreadable"
        return f"<Ws2812Chain {self.count} LEDs {self.channel_order} {lit} frames={len(self.spi.writes)}>"

    @property
    def frames(self) -> list[list[RGB]]:
        return [self._decode(w) for w in self.spi.writes]

    def _decode(self, wire: bytes) -> list[RGB]:
        colours = bytes_to_colours(decode_ws2812(wire, self.spi.baudrate), self.channel_order)
        return colours[: self.count]

    def colours(self) -> list[RGB]:
        """What the LEDs show now (all dark before the first frame)."""
        if not self.spi.writes:
            return [(0, 0, 0)] * self.count
        return self._decode(self.spi.writes[-1])
