"""LED strips: the real NeoPixel_SPI driver over a fake SPI port decoded like a
WS2812 chain, and PixelStrip over a pixel object built on the real pixel buffer."""

from __future__ import annotations

import sys

import pytest

from morris_pi.config.model import LedsConfig
from morris_pi.config.wiring import POINTS
from morris_pi.core.controller import Controller, Snapshot
from morris_pi.core.ports import LedStrip, ManualClock
from morris_pi.core.virtual import VirtualSensors
from morris_pi.hw.errors import LedError
from morris_pi.hw.fakes.pixels import FakePixels
from morris_pi.hw.fakes.spi import FakeSpi, Ws2812Chain
from morris_pi.hw.leds import DarkStrip, neopixel_spi_strip, neopixel_strip

BLUE = (0, 90, 255)
GREEN = (0, 200, 60)
WHITE = (255, 255, 255)
DARK = (0, 0, 0)

#: A build whose chain runs inner ring first, with two spacer LEDs and status LEDs at the end.
ORDER = ("", *POINTS[16:], *POINTS[8:16], "", *POINTS[:8])
CUSTOM = LedsConfig(
    count=29, order=ORDER, brightness=1.0, status={"white-to-move": 26, "black-to-move": 27, "error": 28}
)


def spi_strip(config):
    spi = FakeSpi()
    return neopixel_spi_strip(config, spi=spi), Ws2812Chain(spi, config.count)


def test_spi_default_order_colours_at_the_right_leds():
    strip, chain = spi_strip(LedsConfig(brightness=1.0))
    strip.show({"a7": BLUE, "d6": GREEN, "c4": WHITE})
    leds = chain.colours()
    assert leds[POINTS.index("a7")] == BLUE
    assert leds[POINTS.index("d6")] == GREEN
    assert leds[23] == WHITE
    assert sum(1 for c in leds if c != DARK) == 3


def test_spi_custom_chain_order_and_status_leds():
    strip, chain = spi_strip(CUSTOM)
    strip.show({"c5": BLUE, "b6": GREEN, "a7": WHITE}, {"black-to-move": WHITE, "error": (255, 0, 0)})
    leds = chain.colours()
    assert leds[1] == BLUE  # c5: first after a spacer
    assert leds[9] == GREEN  # b6: middle ring follows the inner
    assert leds[18] == WHITE  # a7: after the second spacer
    assert leds[27] == WHITE and leds[28] == (255, 0, 0) and leds[26] == DARK
    assert leds[0] == leds[17] == DARK


def test_spi_brightness_scales_colours():
    strip, chain = spi_strip(LedsConfig(brightness=0.5))
    strip.show({"g7": (200, 100, 0)})
    assert chain.colours()[2] == (100, 50, 0)


def test_spi_pixel_order_must_match_the_leds():
    """An RGB chain configured as RGB shows the right colour; the wire carries R first."""
    spi = FakeSpi()
    strip = neopixel_spi_strip(LedsConfig(brightness=1.0, pixel_order="RGB"), spi=spi)
    strip.show({"a7": (10, 20, 30)})
    assert Ws2812Chain(spi, 24, channel_order="RGB").colours()[0] == (10, 20, 30)
    assert Ws2812Chain(spi, 24, channel_order="GRB").colours()[0] == (20, 10, 30)  # a mismatch swaps R/G


def test_one_spi_transfer_per_frame_and_none_for_an_unchanged_frame():
    strip, chain = spi_strip(LedsConfig())
    spi = chain.spi
    strip.show({"a7": BLUE})
    assert len(spi.writes) == 1
    strip.show({"a7": BLUE})
    strip.show({"a7": BLUE}, {"error": WHITE})  # no status LEDs fitted: same frame
    assert len(spi.writes) == 1
    strip.show({"a7": BLUE, "d7": BLUE})
    assert len(spi.writes) == 2
    strip.show({})
    assert len(spi.writes) == 3 and all(c == DARK for c in chain.colours())


def test_spi_bus_is_locked_only_during_a_write():
    strip, chain = spi_strip(LedsConfig())
    strip.show({"a7": BLUE})
    assert chain.spi.locked is False
    assert chain.spi.baudrate == 6_400_000


def test_close_switches_every_led_off():
    strip, chain = spi_strip(CUSTOM)
    strip.show({p: WHITE for p in POINTS}, {"error": WHITE})
    strip.close()
    assert all(c == DARK for c in chain.colours())


def test_unknown_point_is_refused():
    strip, _ = spi_strip(LedsConfig())
    with pytest.raises(ValueError, match="'z9'"):
        strip.show({"z9": BLUE})


def test_spi_write_failure_is_an_led_error_and_the_frame_is_retried():
    strip, chain = spi_strip(LedsConfig(brightness=1.0))
    spi = chain.spi
    broken = spi.write

    def fail(*args, **kwargs):
        raise OSError(5, "Input/output error")

    spi.write = fail
    with pytest.raises(LedError, match="writing the LED chain failed"):
        strip.show({"a7": BLUE})
    spi.locked = False
    spi.write = broken
    strip.show({"a7": BLUE})  # same frame, but it never arrived: sent now
    assert chain.colours()[0] == BLUE


# -- PWM neopixel backend (pixel object injected) ------------------------------


def test_neopixel_backend_over_the_pixel_buffer():
    pixels = FakePixels(29)
    strip = neopixel_strip(CUSTOM, pixels=pixels)
    strip.show({"c4": GREEN}, {"white-to-move": WHITE})
    leds = pixels.colours()
    assert leds[POINTS[16:].index("c4") + 1] == GREEN
    assert leds[26] == WHITE
    assert len(pixels.transmitted) == 1
    strip.show({"c4": GREEN}, {"white-to-move": WHITE})
    assert len(pixels.transmitted) == 1  # unchanged: not rewritten


def test_neopixel_backend_applies_brightness_and_turns_off_on_close():
    pixels = FakePixels(24)
    strip = neopixel_strip(LedsConfig(backend="neopixel", pin=18, brightness=0.25), pixels=pixels)
    strip.show({"a1": (200, 40, 8)})
    assert pixels.colours()[POINTS.index("a1")] == (50, 10, 2)
    strip.close()
    assert pixels.deinited and all(c == DARK for c in pixels.colours())


def test_neopixel_import_failure_is_a_clear_led_error(monkeypatch):
    """On a PC, ``import neopixel`` raises NotImplementedError (Blinka: board not supported)."""
    monkeypatch.delitem(sys.modules, "neopixel", raising=False)
    monkeypatch.delitem(sys.modules, "board", raising=False)
    with pytest.raises(LedError, match=r"the neopixel LED driver cannot be loaded: .*NotImplementedError"):
        neopixel_strip(LedsConfig(backend="neopixel", pin=18))


def test_spi_backend_without_an_spi_port_is_a_clear_led_error():
    # on a PC either Blinka refuses the board or it has no SPI port to open
    with pytest.raises(LedError, match=r"neopixel-spi LED driver cannot be loaded|cannot open SPI bus 0"):
        neopixel_spi_strip(LedsConfig())


def test_pixel_object_shorter_than_the_chain_is_refused():
    with pytest.raises(LedError, match=r"has 10 LEDs but leds.count is 24"):
        neopixel_strip(LedsConfig(), pixels=FakePixels(10))


def test_a_board_without_leds_still_keeps_the_game():
    """The ``none`` backend: a sensor-only rig plays a game with a mill; every frame goes nowhere."""
    strip = DarkStrip()
    assert isinstance(strip, LedStrip)
    clock, sensors = ManualClock(), VirtualSensors()
    controller = Controller(sensors=sensors, leds=strip, clock=clock)

    def settle() -> Snapshot:
        controller.step()  # the change is seen now; then time passes to every deadline
        controller.run_until(clock.now() + 1.0)
        return controller.step()

    controller.step()
    for point in ("d6", "a1", "f6", "a4", "b6"):
        sensors.close_switch(point)
        snap = settle()
    # the guidance is worked out as on a lit board, only nobody sees it
    assert {p for p, role in snap.leds.items() if role == "removable"} == {"a1", "a4"}
    sensors.open_switch("a1")
    snap = settle()
    assert snap.record == "d6 a1 f6 a4 b6xa1" and not snap.problems
    strip.show({"a7": BLUE}, {"error": WHITE})  # status LEDs too
    controller.close()
