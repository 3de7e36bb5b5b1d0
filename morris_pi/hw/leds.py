"""NeoPixel (WS2812) LED chains: over SPI (recommended) or PWM.

Both backends drive an Adafruit pixel object (``adafruit_pixelbuf`` API:
``__setitem__``, ``fill``, ``show``, ``brightness``) through ``PixelStrip``,
which maps points and status LEDs to chain indices, writes a whole frame with
one ``show()`` and skips frames identical to the last one written.

- ``neopixel-spi``: ``neopixel_spi.NeoPixel_SPI`` on SPI0 MOSI (GPIO10) or SPI1
  MOSI (GPIO20). No root needed; works on Pi 3, 4, 5 and Zero 2 W.
- ``neopixel``: ``neopixel.NeoPixel`` (rpi_ws281x PWM on Pi 3/4, the RP1 PIO
  driver on Pi 5), on GPIO18 by default. Needs root on Pi 3/4.

The Adafruit modules are imported only inside the two factory functions.
Whatever goes wrong there becomes a ``LedError`` that names the missing
piece: an ``ImportError``, the ``NotImplementedError`` of ``import neopixel``
on a machine that is not a Pi, or the ``RuntimeError`` Adafruit Blinka 10
raises when its pin layer ``gpiod`` is absent.

Blinka 10 offers to pip-install missing platform packages when it runs on a
terminal (``hwtest``). The board never changes its own installation while it
runs, so that check is switched off (``BLINKA_SKIP_DEPENDENCY_CHECK``) and a
missing package is reported instead.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Mapping
from typing import Any

from morris_pi.config.model import LedsConfig
from morris_pi.core.closing import Closeable
from morris_pi.core.ports import RGB
from morris_pi.hw.errors import LedError
from morris_pi.hw.failures import describe

_DARK: RGB = (0, 0, 0)


def _rgb(colour: RGB) -> RGB:
    """A plain tuple of a colour (a caller may pass any sequence of three)."""
    r, g, b = colour
    return r, g, b


class PixelStrip(Closeable):
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
                out[self._index[point]] = _rgb(colour)
            except KeyError:
                raise ValueError(f"no LED is mapped to point {point!r}") from None
        for name, colour in status.items():
            index = self._status.get(name)
            if index is not None:  # status LEDs are optional: unfitted ones are skipped
                out[index] = _rgb(colour)
        return out

    def show(self, points: Mapping[str, RGB], status: Mapping[str, RGB] = {}) -> None:
        self._check_open("show a frame")
        frame = self.frame(points, status)
        if frame == self._last:
            return
        try:
            self.pixels[0 : self.count] = frame
            self.pixels.show()
        except Exception as exc:
            self._last = None  # unknown what the chain shows now: rewrite next time
            raise LedError(f"writing the LED chain failed: {describe(exc)}") from exc
        self._last = frame
        self.writes += 1

    def _release(self) -> None:
        """Turn every LED off and release the driver."""
        try:
            self.pixels.fill(_DARK)
            self.pixels.show()
            deinit = getattr(self.pixels, "deinit", None)
            if deinit is not None:
                deinit()
        except Exception as exc:
            raise LedError(f"switching the LEDs off failed: {describe(exc)}") from exc
        finally:
            self._last = None

    def __repr__(self) -> str:
        if self.closed:
            return "<PixelStrip closed>"
        lit = sum(1 for colour in self._last if colour != _DARK) if self._last is not None else 0
        return f"<PixelStrip {self.count} LEDs lit={lit} writes={self.writes}>"


class DarkStrip(Closeable):
    """The ``none`` backend: a board without LEDs (or a sensor-only test rig)."""

    def show(self, points: Mapping[str, RGB], status: Mapping[str, RGB] = {}) -> None:
        self._check_open("show a frame")

    def __repr__(self) -> str:
        return "<DarkStrip closed>" if self.closed else "<DarkStrip>"


def load(backend: str, *modules: str) -> tuple[Any, ...]:
    """Import the driver modules of an LED backend; any failure is a ``LedError`` naming what is missing."""
    os.environ.setdefault("BLINKA_SKIP_DEPENDENCY_CHECK", "1")
    try:
        return tuple(importlib.import_module(name) for name in modules)
    except Exception as exc:
        raise LedError(f"the {backend} LED driver cannot be loaded: {describe(exc)}") from exc


def open_spi(bus: int) -> Any:
    """The Blinka ``busio.SPI`` object for SPI bus 0 (MOSI GPIO10) or 1 (MOSI GPIO20)."""
    board, busio = load("neopixel-spi", "board", "busio")
    try:
        if bus == 0:
            return busio.SPI(board.SCLK, MOSI=board.MOSI)
        return busio.SPI(board.SCLK_1, MOSI=board.MOSI_1)
    except Exception as exc:
        raise LedError(
            f"cannot open SPI bus {bus} (enable it with raspi-config or dtparam=spi=on"
            f"{'; SPI1 needs dtoverlay=spi1-1cs' if bus == 1 else ''}; "
            f"add the user to the spi group): {describe(exc)}"
        ) from exc


def neopixel_spi_strip(config: LedsConfig, *, spi: Any = None) -> PixelStrip:
    """LEDs fed from an SPI MOSI line. ``spi`` defaults to the bus that ``config.pin`` is on."""
    (neopixel_spi,) = load("neopixel-spi", "neopixel_spi")
    if spi is None:
        if config.spi_bus is None:
            raise LedError(f"GPIO {config.pin} is not an SPI MOSI pin (use 10 for SPI0 or 20 for SPI1)")
        spi = open_spi(config.spi_bus)
    try:
        pixels = neopixel_spi.NeoPixel_SPI(
            spi, config.count, brightness=config.brightness, auto_write=False, pixel_order=config.pixel_order
        )
    except Exception as exc:
        raise LedError(f"cannot start the SPI LED driver: {describe(exc)}") from exc
    return PixelStrip(pixels, config)


def neopixel_strip(config: LedsConfig, *, pixels: Any = None) -> PixelStrip:
    """LEDs on a PWM/PCM pin through the ``neopixel`` driver, or on an injected pixel object."""
    if pixels is None:
        board, neopixel = load("neopixel", "board", "neopixel")
        try:
            pin = getattr(board, f"D{config.pin}")
            pixels = neopixel.NeoPixel(
                pin, config.count, brightness=config.brightness, auto_write=False, pixel_order=config.pixel_order
            )
        except Exception as exc:
            raise LedError(
                f"cannot start the NeoPixel driver on GPIO {config.pin} (it needs root on a Pi 3/4): {describe(exc)}"
            ) from exc
    return PixelStrip(pixels, config)
