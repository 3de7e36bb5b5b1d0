"""Building a whole board from each shipped config, over emulated hardware."""

from __future__ import annotations

from pathlib import Path

import pytest

from morris_pi.config.loader import load_config, parse_config
from morris_pi.config.wiring import DEFAULT_MATRIX_MAP, DEFAULT_MCP23017_MAP
from morris_pi.core.ports import Buttons, LedStrip, ManualClock, SensorSource
from morris_pi.hw.buttons import NoButtons
from morris_pi.hw.errors import HardwareError, LedError, SensorError
from morris_pi.hw.factory import build_hardware, build_leds, build_sensors, make_pin_factory
from morris_pi.hw.fakes.i2c import FakeMcp23017, FakeSMBus
from morris_pi.hw.fakes.pins import DiodeMatrix, connect_interrupts
from morris_pi.hw.fakes.pixels import FakePixels
from morris_pi.hw.fakes.spi import FakeSpi, Ws2812Chain
from morris_pi.hw.leds import DarkStrip

WIRING = Path(__file__).resolve().parent.parent / "wiring"
BLUE = (0, 90, 255)


def press(factory, clock, hw, pin):
    factory.pin(pin).drive_low()
    seen = []
    for _ in range(6):
        clock.advance(0.01)
        seen += hw.buttons.pressed()
    factory.pin(pin).drive_high()
    for _ in range(6):
        clock.advance(0.01)
        seen += hw.buttons.pressed()
    return seen


def test_mcp23017_build(mock_factory):
    config = load_config(WIRING / "mcp23017" / "config.toml")
    chips = FakeMcp23017(0x20), FakeMcp23017(0x21)
    connect_interrupts(mock_factory, 4, chips)
    spi, clock = FakeSpi(), ManualClock()
    hw = build_hardware(config, pin_factory=mock_factory, bus=FakeSMBus(*chips), spi=spi, clock=clock)
    assert isinstance(hw.sensors, SensorSource) and isinstance(hw.leds, LedStrip)
    assert isinstance(hw.buttons, Buttons)

    chips[0].close_switch(DEFAULT_MCP23017_MAP["d7"][1])
    assert hw.sensors.read() == {"d7"}
    hw.leds.show({"d7": BLUE})
    assert Ws2812Chain(spi, 24).colours()[1] == tuple(int(c * 0.3) for c in BLUE)
    assert press(mock_factory, clock, hw, 27) == ["undo"]
    hw.close()
    assert all(c == (0, 0, 0) for c in Ws2812Chain(spi, 24).colours())


def test_gpio_build_with_pwm_leds(mock_factory):
    config = load_config(WIRING / "gpio" / "config.toml")
    pixels, clock = FakePixels(24), ManualClock()
    hw = build_hardware(config, pin_factory=mock_factory, pixels=pixels, clock=clock)
    mock_factory.pin(config.sensors.gpio.map["e4"]).drive_low()
    assert hw.sensors.read() == {"e4"}
    hw.leds.show({"a7": (100, 100, 100)})
    assert pixels.colours()[0] == (30, 30, 30)
    assert press(mock_factory, clock, hw, 27) == ["menu"]
    hw.close()


def test_matrix_build(mock_factory):
    config = load_config(WIRING / "matrix" / "config.toml")
    matrix = DiodeMatrix(mock_factory, config.sensors.matrix.rows, config.sensors.matrix.columns)
    clock = ManualClock()
    hw = build_hardware(config, pin_factory=mock_factory, spi=FakeSpi(), clock=clock)
    matrix.set_closed({DEFAULT_MATRIX_MAP["f6"], DEFAULT_MATRIX_MAP["c3"]})
    assert hw.sensors.read() == {"f6", "c3"}
    assert press(mock_factory, clock, hw, 4) == ["new"]
    hw.close()


def test_polled_mcp23017_needs_no_pin_factory():
    """Without an interrupt line, no gpiozero pin factory is opened (none exists on a PC)."""
    sensors = build_sensors(parse_config(""), bus=FakeSMBus(FakeMcp23017(0x20), FakeMcp23017(0x21)))
    assert sensors.read() == frozenset()
    sensors.close()


def test_no_leds_and_no_buttons():
    config = parse_config('[leds]\nbackend = "none"\n')
    hw = build_hardware(config, bus=FakeSMBus(FakeMcp23017(0x20), FakeMcp23017(0x21)))
    assert isinstance(hw.leds, DarkStrip) and isinstance(hw.buttons, NoButtons)
    assert hw.buttons.pressed() == []
    hw.close()


def test_failed_led_start_closes_the_sensors(mock_factory):
    """A board whose LED driver cannot start leaves no GPIO claimed behind it."""
    config = load_config(WIRING / "gpio" / "config.toml")
    with pytest.raises(LedError):
        build_hardware(config, pin_factory=mock_factory)  # no pixel object, no Pi
    sensors = build_sensors(config, pin_factory=mock_factory)  # the pins are free again
    sensors.close()


def test_missing_i2c_bus_is_a_sensor_error():
    config = parse_config("[sensors.mcp23017]\ni2c_bus = 97\n")
    with pytest.raises(SensorError, match="I2C bus 97"):
        build_sensors(config)


def test_spi_leds_without_spi_port_is_an_led_error():
    with pytest.raises(LedError):
        build_leds(parse_config(""))


@pytest.mark.parametrize("name", ["lgpio", "rpigpio", "pigpio"])
def test_pin_factory_errors_are_clear(name):
    """On a PC neither Pi pin library starts; the message says what to do."""
    try:
        factory = make_pin_factory(name)
    except HardwareError as exc:
        assert repr(name) in str(exc)
    else:  # pragma: no cover - only on a real Pi
        factory.close()
