"""The validated configuration: a frozen tree of dataclasses.

``morris_pi.config.loader`` builds it from TOML; code that needs a config
without a file (tests, the simulator) can build it directly: every field has
the same default as a missing key.

>>> Config().sensors.backend, Config().leds.pin, Config().sensors.settle_ms
('mcp23017', 10, 200.0)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import TypeVar

from morris_pi.config import wiring
from morris_pi.core.assist import Assists
from morris_pi.core.opponents import DEFAULT_MAX_TIME_S
from morris_pi.guidance import DEFAULT_PALETTE, Look

K = TypeVar("K")
V = TypeVar("V")


def _frozen(mapping: Mapping[K, V]) -> Mapping[K, V]:
    return MappingProxyType(dict(mapping))


@dataclass(frozen=True)
class GameConfig:
    mode: str = "computer"  # "two-player" | "computer"
    human: str = "white"  # the human's colour against the computer
    level: int = 3  # computer strength 1-10
    profile: str = "standard"  # rule profile name
    menu: bool = True  # offer the set-up menu on the points at start


@dataclass(frozen=True)
class Mcp23017Config:
    i2c_bus: int = 1
    addresses: tuple[int, ...] = wiring.DEFAULT_MCP23017_ADDRESSES
    interrupt_pins: tuple[int, ...] = ()
    #: point -> (I2C address, bit 0-15; 0-7 = GPA0-7, 8-15 = GPB0-7)
    map: Mapping[str, tuple[int, int]] = field(default_factory=lambda: _frozen(wiring.DEFAULT_MCP23017_MAP))


@dataclass(frozen=True)
class GpioSensorsConfig:
    #: point -> BCM GPIO number
    map: Mapping[str, int] = field(default_factory=lambda: _frozen(wiring.DEFAULT_GPIO_MAP))


@dataclass(frozen=True)
class MatrixConfig:
    rows: tuple[int, ...] = wiring.DEFAULT_MATRIX_ROWS
    columns: tuple[int, ...] = wiring.DEFAULT_MATRIX_COLUMNS
    #: point -> (row index, column index)
    map: Mapping[str, tuple[int, int]] = field(default_factory=lambda: _frozen(wiring.DEFAULT_MATRIX_MAP))


@dataclass(frozen=True)
class SensorsConfig:
    backend: str = "mcp23017"  # "mcp23017" | "gpio" | "matrix"
    scan_hz: float = 100.0  # how often the service reads the sensors
    settle_ms: float = 200.0  # debounce window the tracker applies
    confirm_ms: float = 1000.0  # a turn read stays provisional this long without a full scan
    resync_ms: float = 500.0  # full re-read interval when events/interrupts are used
    mcp23017: Mcp23017Config = field(default_factory=Mcp23017Config)
    gpio: GpioSensorsConfig = field(default_factory=GpioSensorsConfig)
    matrix: MatrixConfig = field(default_factory=MatrixConfig)


@dataclass(frozen=True)
class LedsConfig:
    backend: str = "neopixel-spi"  # "neopixel-spi" | "neopixel" | "none"
    count: int = 24  # LEDs in the chain
    #: chain index -> point, or None for a LED that lights no point
    order: tuple[str | None, ...] = wiring.DEFAULT_LED_ORDER
    brightness: float = 0.3
    pixel_order: str = "GRB"
    pin: int | None = 10  # data pin (BCM); None when backend is "none"
    #: status LED name -> chain index
    status: Mapping[str, int] = field(default_factory=lambda: _frozen({}))

    @property
    def spi_bus(self) -> int | None:
        """The SPI bus whose MOSI is ``pin`` (neopixel-spi only)."""
        for bus, mosi in wiring.SPI_MOSI.items():
            if mosi == self.pin:
                return bus
        return None


@dataclass(frozen=True)
class ButtonsConfig:
    new: int | None = None
    undo: int | None = None
    hint: int | None = None
    menu: int | None = None
    debounce_ms: float = 30.0

    @property
    def pins(self) -> dict[str, int]:
        """Configured buttons: name -> BCM GPIO, in ``ports.BUTTONS`` order."""
        return {
            name: pin
            for name, pin in (("new", self.new), ("undo", self.undo), ("hint", self.hint), ("menu", self.menu))
            if pin is not None
        }


@dataclass(frozen=True)
class GpioConfig:
    pin_factory: str = "lgpio"  # "lgpio" | "rpigpio"


@dataclass(frozen=True)
class StorageConfig:
    state_dir: Path = Path("/var/lib/morris-pi")
    records_dir: Path = Path("/var/lib/morris-pi/records")


@dataclass(frozen=True)
class EngineConfig:
    seed: int | None = None
    max_time_s: float = DEFAULT_MAX_TIME_S  # wall-time cap on a computer turn and a hint


@dataclass(frozen=True)
class ServiceConfig:
    watchdog: bool = True
    log_level: str = "info"


@dataclass(frozen=True)
class WebConfig:
    enabled: bool = False
    host: str = "0.0.0.0"  # the LAN: anyone may watch, changes need pairing
    port: int = 8080
    pin: str | None = None  # pairs a browser without the menu button; never logged

    def __repr__(self) -> str:  # the PIN stays out of logs and tracebacks
        pin = "set" if self.pin else None
        return f"WebConfig(enabled={self.enabled}, host={self.host!r}, port={self.port}, pin={pin})"


@dataclass(frozen=True)
class Config:
    game: GameConfig = field(default_factory=GameConfig)
    sensors: SensorsConfig = field(default_factory=SensorsConfig)
    leds: LedsConfig = field(default_factory=LedsConfig)
    palette: Mapping[str, Look] = field(default_factory=lambda: _frozen(DEFAULT_PALETTE))
    buttons: ButtonsConfig = field(default_factory=ButtonsConfig)
    gpio: GpioConfig = field(default_factory=GpioConfig)
    storage: StorageConfig = field(default_factory=StorageConfig)
    engine: EngineConfig = field(default_factory=EngineConfig)
    service: ServiceConfig = field(default_factory=ServiceConfig)
    web: WebConfig = field(default_factory=WebConfig)
    #: each player's assistance (``[assist.white]``, ``[assist.black]``)
    assist: Assists = field(default_factory=Assists)
    #: the file this came from; None for built-in defaults
    source: str | None = field(default=None, compare=False)
