"""NeoPixel (WS2812) LED chains: over SPI (recommended) or PWM.

Both backends drive an Adafruit pixel object (``adafruit_pixelbuf`` API:
``__setitem__``, ``fill``, ``show``, ``brightness``) through ``PixelStrip``,
which maps points and status LEDs to chain indices, writes a whole frame with
one ``show()`` and skips frames identical to the last one written.

- ``neopixel-spi``: ``neopixel_spi.NeoPixel_SPI`` on SPI0 MOSI (GPIO10) or SPI1
  MOSI (GPIO20). No root needed; works on Pi 3, 4, 5 and Zero 2 W.
- ``neopixel``: ``neopixel.NeoPixel`` (rpi_ws281x PWM on Pi 3/4, the RP1 PIO
  driver on Pi 5), on GPIO18 by default. Needs root on Pi 3/4.

The Adafruit modules are imported only inside the two factory functions. On
a machine that is not a Pi, ``import neopixel`` raises NotImplementedError
rather than ImportError; both are turned into ``LedError``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from morris_pi.board.config_types import LedsConfig
from morris_pi.board.ports import RGB
from morris_pi.hw.errors import LedError

_DARK: RGB = (0, 0, 0)


class PixelStrip:
    """A ``LedStrip`` over any pixel object with the adafruit_pixelbuf API."""

    def __init__(self, pixels: Any, config: LedsConfig) -> None:
        if len(pixels) < config.count:
            raise LedError(f"the pixel object has {len(pixels)} LEDs but leds.count is {config.count}")
        self.pixels = pixels
        self.count = config.count
        self._index = {point: i for i, point in enumerate(config.order) if point is not None}
        self._status = dict(config.status)
        pixels.auto_write = False
        pixels.brightness = config.brightness
        self._last: list[RGB] | None = None
        self.writes = 0  # frames actually sent down the chain

    def frame(self, points: Mapping[str, RGB], status: Mapping[str, RGB] = {}) -> list[RGB]:
        """The colour of every LED in chain order for this frame."""
        out = [_DARK] * self.count
        for point, colour in points.items():
            try:
                out[self._index[point]] = tuple(colour)  # type: ignore[assignment]
            except KeyError:
                raise ValueError(f"no LED is mapped to point {point!r}") from None
        for name, colour in status.items():
            index = self._status.get(name)
            if index is not None:  # status LEDs are optional: unfitted ones are skipped
                out[index] = tuple(colour)  # type: ignore[assignment]
        return out

    def show(self, points: Mapping[str, RGB], status: Mapping[str, RGB] = {}) -> None:
        frame = self.frame(points, status)
        if frame == self._last:
            return
        try:
            self.pixels[0:self.count] = frame
            self.pixels.show()
        except Exception as exc:
            self._last = None  # unknown what the chain shows now: rewrite next time
            raise LedError(f"writing the LED chain failed: {exc}") from exc
        self._last = frame
        self.writes += 1

    def close(self) -> None:
        """Turn every LED off and release the driver."""
        try:
            self.pixels.fill(_DARK)
            self.pixels.show()
            deinit = getattr(self.pixels, "deinit", None)
            if deinit is not None:
                deinit()
        except Exception as exc:
            raise LedError(f"switching the LEDs off failed: {exc}") from exc
        finally:
            self._last = None


class DarkStrip:
    """The ``none`` backend: a board without LEDs (or a sensor-only test rig)."""

    def show(self, points: Mapping[str, RGB], status: Mapping[str, RGB] = {}) -> None:
        pass

    def close(self) -> None:
        pass


def open_spi(bus: int) -> Any:
    """The Blinka ``busio.SPI`` object for SPI bus 0 (MOSI GPIO10) or 1 (MOSI GPIO20)."""
    try:
        import board
        import busio
    except (ImportError, NotImplementedError) as exc:
        raise LedError(f"the neopixel-spi backend needs Adafruit Blinka on a Raspberry Pi "
                       f"(pip install 'morris-pi[pi]'): {exc}") from exc
    try:
        if bus == 0:
            return busio.SPI(board.SCLK, MOSI=board.MOSI)
        return busio.SPI(board.SCLK_1, MOSI=board.MOSI_1)
    except Exception as exc:
        raise LedError(f"cannot open SPI bus {bus} (enable it with raspi-config or dtparam=spi=on; "
                       f"add the user to the spi group): {exc}") from exc


def neopixel_spi_strip(config: LedsConfig, *, spi: Any = None) -> PixelStrip:
    """LEDs fed from an SPI MOSI line. ``spi`` defaults to the bus that ``config.pin`` is on."""
    try:
        import neopixel_spi
    except (ImportError, NotImplementedError) as exc:
        raise LedError(f"the neopixel-spi backend needs adafruit-circuitpython-neopixel-spi: {exc}") from exc
    if spi is None:
        if config.spi_bus is None:
            raise LedError(f"GPIO {config.pin} is not an SPI MOSI pin (use 10 for SPI0 or 20 for SPI1)")
        spi = open_spi(config.spi_bus)
    try:
        pixels = neopixel_spi.NeoPixel_SPI(spi, config.count, brightness=config.brightness,
                                           auto_write=False, pixel_order=config.pixel_order)
    except Exception as exc:
        raise LedError(f"cannot start the SPI LED driver: {exc}") from exc
    return PixelStrip(pixels, config)


def neopixel_strip(config: LedsConfig, *, pixels: Any = None) -> PixelStrip:
    """LEDs on a PWM/PCM pin through the ``neopixel`` driver, or on an injected pixel object."""
    if pixels is None:
        try:
            import board
            import neopixel
        except (ImportError, NotImplementedError) as exc:
            raise LedError(f"the neopixel backend needs adafruit-circuitpython-neopixel and Adafruit "
                           f"Blinka on a Raspberry Pi (pip install 'morris-pi[pi]'): "
                           f"{type(exc).__name__}: {exc}") from exc
        try:
            pin = getattr(board, f"D{config.pin}")
            pixels = neopixel.NeoPixel(pin, config.count, brightness=config.brightness,
                                       auto_write=False, pixel_order=config.pixel_order)
        except Exception as exc:
            raise LedError(f"cannot start the NeoPixel driver on GPIO {config.pin} "
                           f"(it needs root on a Pi 3/4): {exc}") from exc
    return PixelStrip(pixels, config)
