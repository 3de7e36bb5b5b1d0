"""Build the board's hardware ends from a validated config.

The backend is always the one the config names; nothing is guessed from the
machine. Every builder accepts the lowest-level objects it would otherwise
open itself (the gpiozero pin factory, the I2C bus, the SPI port, the pixel
object), so tests, benchmarks and ``hwtest`` dry runs use the real backend
code over emulated hardware:

>>> from gpiozero.pins.mock import MockFactory
>>> from morris_pi.config.loader import parse_config
>>> from morris_pi.core.ports import ManualClock
>>> from morris_pi.hw.fakes.i2c import FakeMcp23017, FakeSMBus
>>> from morris_pi.hw.fakes.spi import FakeSpi
>>> config = parse_config("")                      # the defaults: MCP23017 + SPI LEDs
>>> bus = FakeSMBus(FakeMcp23017(0x20), FakeMcp23017(0x21))
>>> hw = build_hardware(config, pin_factory=MockFactory(), bus=bus, spi=FakeSpi(), clock=ManualClock())
>>> bus.devices[0x20].close_switch(0); hw.sensors.read()
frozenset({'a7'})
>>> hw.close()
"""

from __future__ import annotations

import contextlib
import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ParamSpec, TypeVar

from morris_pi.config.model import Config
from morris_pi.core.closing import Closeable
from morris_pi.core.ports import Buttons, Clock, LedStrip, SensorSource
from morris_pi.hw import leds
from morris_pi.hw.buttons import GpioButtons, NoButtons
from morris_pi.hw.errors import ButtonError, HardwareError, LedError, SensorError
from morris_pi.hw.failures import describe
from morris_pi.hw.platform import Machine, rpigpio_problem
from morris_pi.hw.sensors_gpio import GpioSensors
from morris_pi.hw.sensors_matrix import MatrixSensors
from morris_pi.hw.sensors_mcp23017 import Mcp23017Sensors, open_i2c_bus

P = ParamSpec("P")
T = TypeVar("T")

PIN_FACTORIES: dict[str, tuple[str, str]] = {
    "lgpio": ("gpiozero.pins.lgpio", "LGPIOFactory"),
    "rpigpio": ("gpiozero.pins.rpigpio", "RPiGPIOFactory"),
}


def make_pin_factory(name: str) -> Any:
    """The gpiozero pin factory named in ``[gpio] pin_factory``."""
    try:
        module_name, class_name = PIN_FACTORIES[name]
    except KeyError:
        raise HardwareError(f"unknown pin factory {name!r}; choose {' or '.join(PIN_FACTORIES)}") from None
    if name == "rpigpio":
        problem = rpigpio_problem(Machine.here())
        if problem is not None:
            raise HardwareError(f"pin factory 'rpigpio' cannot work here: {problem}")
    package = {"lgpio": "lgpio", "rpigpio": "rpi-lgpio (the RPi.GPIO module on lgpio)"}[name]
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:
        raise HardwareError(f"pin factory {name!r} needs gpiozero and {package}: {describe(exc)}") from exc
    try:
        return getattr(module, class_name)()
    except Exception as exc:
        raise HardwareError(
            f"pin factory {name!r} cannot start (is this a Raspberry Pi, and is the "
            f"user in the gpio group?): {describe(exc)}"
        ) from exc


def _opening(error: type[HardwareError], what: str) -> Callable[[Callable[P, T]], Callable[P, T]]:
    """Decorator: any exception while opening becomes ``error``, so the caller's
    fault handling sees every failure (a library may raise anything on import)."""

    def wrap(build: Callable[P, T]) -> Callable[P, T]:
        def opened(*args: P.args, **kwargs: P.kwargs) -> T:
            try:
                return build(*args, **kwargs)
            except HardwareError:
                raise
            except Exception as exc:
                raise error(f"cannot open {what}: {describe(exc)}") from exc

        opened.__name__, opened.__doc__ = build.__name__, build.__doc__
        return opened

    return wrap


class _LazyPins:
    """Creates the configured pin factory on first use: an MCP23017 board with
    no interrupt line and SPI LEDs never needs one."""

    def __init__(self, config: Config, given: Any) -> None:
        self._name = config.gpio.pin_factory
        self._factory = given

    def get(self) -> Any:
        if self._factory is None:
            self._factory = make_pin_factory(self._name)
        return self._factory


def _pins(config: Config, pin_factory: Any) -> _LazyPins:
    return pin_factory if isinstance(pin_factory, _LazyPins) else _LazyPins(config, pin_factory)


@_opening(SensorError, "the sensors")
def build_sensors(
    config: Config, *, pin_factory: Any = None, bus: Any = None, clock: Clock | None = None
) -> SensorSource:
    """The ``SensorSource`` of ``[sensors] backend``."""
    s = config.sensors
    pins = _pins(config, pin_factory)
    if s.backend == "mcp23017":
        mcp = s.mcp23017
        owns = bus is None
        if owns:
            bus = open_i2c_bus(mcp.i2c_bus)
        try:
            return Mcp23017Sensors(
                bus,
                mcp.map,
                addresses=mcp.addresses,
                interrupt_pins=mcp.interrupt_pins,
                resync_s=s.resync_ms / 1000,
                clock=clock,
                pin_factory=pins.get() if mcp.interrupt_pins else None,
                bus_number=mcp.i2c_bus,
                owns_bus=owns,
            )
        except BaseException:
            if owns:
                bus.close()
            raise
    if s.backend == "gpio":
        return GpioSensors(s.gpio.map, resync_s=s.resync_ms / 1000, clock=clock, pin_factory=pins.get())
    if s.backend == "matrix":
        m = s.matrix
        return MatrixSensors(m.rows, m.columns, m.map, pin_factory=pins.get())
    raise HardwareError(f"unknown sensor backend {s.backend!r}")


@_opening(LedError, "the LED chain")
def build_leds(config: Config, *, spi: Any = None, pixels: Any = None) -> LedStrip:
    """The ``LedStrip`` of ``[leds] backend``."""
    backend = config.leds.backend
    if backend == "neopixel-spi":
        return leds.neopixel_spi_strip(config.leds, spi=spi)
    if backend == "neopixel":
        return leds.neopixel_strip(config.leds, pixels=pixels)
    if backend == "none":
        return leds.DarkStrip()
    raise HardwareError(f"unknown LED backend {backend!r}")


@_opening(ButtonError, "the buttons")
def build_buttons(config: Config, *, pin_factory: Any = None, clock: Clock | None = None) -> Buttons:
    """The ``Buttons`` of ``[buttons]``; a board without any gets ``NoButtons``."""
    pins = config.buttons.pins
    if not pins:
        return NoButtons()
    return GpioButtons(
        pins, debounce_s=config.buttons.debounce_ms / 1000, clock=clock, pin_factory=_pins(config, pin_factory).get()
    )


@dataclass
class Hardware(Closeable):
    """The three hardware ends of one board; ``close()`` closes all three."""

    sensors: SensorSource
    leds: LedStrip
    buttons: Buttons

    def __repr__(self) -> str:
        if self.closed:
            return "<Hardware closed>"
        return f"<Hardware sensors={self.sensors!r} leds={self.leds!r} buttons={self.buttons!r}>"

    def _release(self) -> None:
        """Close all three; LEDs last so they can still be switched off after a sensor fault."""
        errors: list[BaseException] = []
        for end in (self.sensors, self.buttons, self.leds):
            try:
                end.close()
            except Exception as exc:  # close the rest anyway
                errors.append(exc)
        if errors:
            raise errors[0]


def build_hardware(
    config: Config,
    *,
    pin_factory: Any = None,
    bus: Any = None,
    spi: Any = None,
    pixels: Any = None,
    clock: Clock | None = None,
) -> Hardware:
    """Sensors, LEDs and buttons; if one fails, those already open are closed again."""
    pins = _pins(config, pin_factory)
    opened: list[Any] = []
    try:
        sensors = build_sensors(config, pin_factory=pins, bus=bus, clock=clock)
        opened.append(sensors)
        strip = build_leds(config, spi=spi, pixels=pixels)
        opened.append(strip)
        buttons = build_buttons(config, pin_factory=pins, clock=clock)
    except BaseException:
        for end in reversed(opened):
            with contextlib.suppress(Exception):  # closing what opened; the first error is the one to show
                end.close()
        raise
    return Hardware(sensors=sensors, leds=strip, buttons=buttons)
