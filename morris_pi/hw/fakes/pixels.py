"""A NeoPixel pixel object without a data line, built on the real pixel buffer.

``FakePixels`` subclasses ``adafruit_pixelbuf.PixelBuf`` (the base of both
Adafruit NeoPixel drivers) and only replaces the final transmit, so colour
parsing, byte order and brightness scaling are the library's own.
"""

from __future__ import annotations

import adafruit_pixelbuf

from morris_pi.hw.fakes.spi import bytes_to_colours

RGB = tuple[int, int, int]


class FakePixels(adafruit_pixelbuf.PixelBuf):  # type: ignore[misc, unused-ignore]  # the Adafruit library ships no types
    """``n`` pixels; ``transmitted`` holds the raw buffer of every ``show()``."""

    def __init__(
        self,
        n: int,
        *,
        pixel_order: str = "GRB",
        brightness: float = 1.0,
        auto_write: bool = False,
        chain_order: str = "GRB",
    ) -> None:
        super().__init__(n, byteorder=pixel_order, brightness=brightness, auto_write=auto_write)
        #: the channel order the physical LEDs expect on the wire
        self.chain_order = chain_order
        self.transmitted: list[bytes] = []
        self.deinited = False

    def __repr__(self) -> str:
        if self.deinited:
            return "<FakePixels deinited>"
        lit = sum(colour != (0, 0, 0) for colour in self.colours())
        return f"<FakePixels {len(self)} {self.chain_order} lit={lit} shows={len(self.transmitted)}>"

    def _transmit(self, buffer: bytearray) -> None:
        self.transmitted.append(bytes(buffer))

    def deinit(self) -> None:
        self.fill(0)
        self.show()
        self.deinited = True

    def colours(self) -> list[RGB]:
        """What the LEDs show after the last ``show()`` (dark before the first)."""
        if not self.transmitted:
            return [(0, 0, 0)] * len(self)
        return bytes_to_colours(self.transmitted[-1], self.chain_order)
