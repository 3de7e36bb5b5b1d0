"""Load and validate the board's TOML config.

The file lives at ``/etc/morris-pi/config.toml``; when that default file is
missing, the built-in defaults apply (the recommended build: two MCP23017
expanders and NeoPixels on SPI, wired in ring order). Every key is documented
in ``wiring/config.example.toml``.

Anything wrong (an unknown key, a wrong type, a value out of range, an
impossible wiring) raises ``ConfigError`` naming the file, the line and the
dotted key, so the service refuses to start with a message a builder can act
on. Every mistake in the file is reported at once, one line each:

>>> try:
...     parse_config('[leds]\\nbrightness = 2\\n[buttons]\\nnew = 10\\n', "board.toml")
... except ConfigError as exc:
...     print(exc)  # doctest: +NORMALIZE_WHITESPACE
board.toml:2: leds.brightness: must be between 0 and 1, got 2
board.toml:4: buttons.new: GPIO 10 is wanted for the new button but is already used for the LED data line
    (SPI0 MOSI) by leds.pin
>>> parse_config('[game]\\nlevel = 7\\n').game.level
7
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Mapping
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from morris_pi.config import wiring
from morris_pi.config.check import check_pins
from morris_pi.config.model import (
    ButtonsConfig,
    Config,
    EngineConfig,
    GameConfig,
    GpioConfig,
    GpioSensorsConfig,
    LedsConfig,
    MatrixConfig,
    Mcp23017Config,
    SensorsConfig,
    ServiceConfig,
    StorageConfig,
    WebConfig,
    _frozen,
)
from morris_pi.config.tomlpos import key_lines, locate
from morris_pi.config.values import ConfigError, Reader
from morris_pi.core.assist import MAX_HINTS, Assistance, Assists
from morris_pi.core.ports import BUTTONS, STATUS_LEDS
from morris_pi.guidance import BLINKS, DEFAULT_PALETTE, ROLES, Look
from morris_pi.rules import PROFILES

T = TypeVar("T")

__all__ = ["DEFAULT_PATH", "SCHEMA", "Config", "ConfigError", "load_config", "parse_config", "schema_paths"]

DEFAULT_PATH = Path("/etc/morris-pi/config.toml")
#: The fewest digits of ``[web] pin``.
MIN_PIN = 6
#: The most a config file may hold. A real one is a few KiB; the bound keeps a wrong path
#: (``/dev/zero``, a log file) from filling the memory before anything is checked.
MAX_CONFIG_BYTES = 256 * 1024

PIXEL_ORDERS: tuple[str, ...] = ("GRB", "RGB", "BRG", "RBG", "GBR", "BGR")

#: Every table and the keys it allows. Tables whose keys are data (points,
#: roles, status LED names) list those names.
SCHEMA: dict[str, tuple[str, ...]] = {
    "": ("game", "sensors", "leds", "palette", "buttons", "gpio", "storage", "engine", "service", "web", "assist"),
    "assist": ("white", "black"),
    "assist.white": ("targets", "warn", "hints"),
    "assist.black": ("targets", "warn", "hints"),
    "game": ("mode", "human", "level", "profile", "menu"),
    "sensors": ("backend", "scan_hz", "settle_ms", "confirm_ms", "resync_ms", "mcp23017", "gpio", "matrix"),
    "sensors.mcp23017": ("i2c_bus", "addresses", "interrupt_pins", "map"),
    "sensors.mcp23017.map": wiring.POINTS,
    "sensors.gpio": ("map",),
    "sensors.gpio.map": wiring.POINTS,
    "sensors.matrix": ("rows", "columns", "map"),
    "sensors.matrix.map": wiring.POINTS,
    "leds": ("backend", "count", "order", "brightness", "pixel_order", "pin", "status"),
    "leds.status": STATUS_LEDS,
    "palette": ROLES,
    **{f"palette.{role}": ("colour", "blink") for role in ROLES},
    "buttons": (*BUTTONS, "debounce_ms"),
    "gpio": ("pin_factory",),
    "storage": ("state_dir", "records_dir"),
    "engine": ("seed", "max_time_s"),
    "service": ("watchdog", "log_level"),
    "web": ("enabled", "host", "port", "pin"),
}


def schema_paths() -> list[str]:
    """Every dotted key the config understands (leaves only).

    >>> "leds.status.error" in schema_paths(), "leds.status" in schema_paths()
    (True, False)
    """
    return [
        f"{table}.{key}" if table else key
        for table, keys in SCHEMA.items()
        for key in keys
        if (f"{table}.{key}" if table else key) not in SCHEMA
    ]


def profile_names() -> tuple[str, ...]:
    """Names of the rule profiles a config may choose.

    >>> profile_names()[:2]
    ('standard', 'move-this')
    """
    return tuple(PROFILES)


def load_config(path: str | Path | None = None) -> Config:
    """Read and validate a config file.

    With no ``path``, ``/etc/morris-pi/config.toml`` is read, and a missing
    file gives the defaults. A ``path`` given explicitly must exist: a typo on
    the command line should not silently start with other hardware settings.
    """
    explicit = path is not None
    file = Path(path) if path is not None else DEFAULT_PATH
    try:
        with file.open("rb") as stream:
            raw = stream.read(MAX_CONFIG_BYTES + 1)
        if len(raw) > MAX_CONFIG_BYTES:
            raise ConfigError(f"larger than {MAX_CONFIG_BYTES // 1024} KiB: not a config file", file=str(file))
        text = raw.decode("utf-8")
    except FileNotFoundError:
        if explicit:
            raise ConfigError("no such file", file=str(file)) from None
        return Config()
    except OSError as exc:
        raise ConfigError(f"cannot read: {exc.strerror or exc}", file=str(file)) from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"cannot read: not UTF-8 text ({exc.reason} at byte {exc.start})", file=str(file)) from None
    return parse_config(text, str(file))


def parse_config(text: str, source: str = "<config>") -> Config:
    """Validate TOML text; ``source`` names it in error messages."""
    try:
        return _parse(text, source)
    except RecursionError:
        # tomllib (and the key walk) recurse per level of nesting: thousands of ``[`` are
        # no config either, and must end as one config error, not a traceback
        raise ConfigError(
            "nested too deeply (arrays or tables inside each other): not a config file", file=source
        ) from None


def _parse(text: str, source: str) -> Config:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError.from_toml(exc, source, text) from None
    r = Reader(text, source)
    r.table((), data, SCHEMA[""])
    d = Config()

    def section(read: Callable[[Reader, Any], T], name: str, default: T) -> T:
        # a section that is not even a table is reported once; its defaults stand in
        return r.guard(lambda: read(r, data.get(name, {})), default)

    config = Config(
        game=section(_game, "game", d.game),
        sensors=section(_sensors, "sensors", d.sensors),
        leds=section(_leds, "leds", d.leds),
        palette=section(_palette, "palette", d.palette),
        buttons=section(_buttons, "buttons", d.buttons),
        gpio=section(_gpio, "gpio", d.gpio),
        storage=section(_storage, "storage", d.storage),
        engine=section(_engine, "engine", d.engine),
        service=section(_service, "service", d.service),
        web=section(_web, "web", d.web),
        assist=section(_assist, "assist", d.assist),
        source=source,
    )
    check_pins(r, config)
    r.raise_errors()
    return config


def error_at(config: Config, key: str, reason: str) -> ConfigError:
    """A ``ConfigError`` at ``key`` of the file ``config`` was read from, for checks made
    after reading (such as whether the configured GPIO library can work on this machine)."""
    line = None
    if config.source is not None:
        try:
            text = Path(config.source).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            text = ""
        line = locate(key_lines(text), tuple(key.split(".")))
    return ConfigError(reason, file=config.source or "<config>", key=key, line=line)


def _game(r: Reader, t: Any) -> GameConfig:
    p = ("game",)
    r.table(p, t, SCHEMA["game"])
    d = GameConfig()
    return GameConfig(
        mode=r.choice(p, t, "mode", ("two-player", "computer"), d.mode),
        human=r.choice(p, t, "human", ("white", "black"), d.human),
        level=r.integer(p, t, "level", d.level, 1, 10),
        profile=r.choice(p, t, "profile", profile_names(), d.profile),
        menu=r.boolean(p, t, "menu", d.menu),
    )


def _sensors(r: Reader, t: Any) -> SensorsConfig:
    p = ("sensors",)
    r.table(p, t, SCHEMA["sensors"])
    d = SensorsConfig()
    return SensorsConfig(
        backend=r.choice(p, t, "backend", ("mcp23017", "gpio", "matrix"), d.backend),
        scan_hz=r.number(p, t, "scan_hz", d.scan_hz, 1, 1000),
        settle_ms=r.number(p, t, "settle_ms", d.settle_ms, 0, 2000),
        confirm_ms=r.number(p, t, "confirm_ms", d.confirm_ms, 0, 10000),
        resync_ms=r.number(p, t, "resync_ms", d.resync_ms, 20, 60000),
        mcp23017=r.guard(lambda: _mcp23017(r, t.get("mcp23017", {})), d.mcp23017),
        gpio=r.guard(lambda: _gpio_sensors(r, t.get("gpio", {})), d.gpio),
        matrix=r.guard(lambda: _matrix(r, t.get("matrix", {})), d.matrix),
    )


def _mcp23017(r: Reader, t: Any) -> Mcp23017Config:
    p = ("sensors", "mcp23017")
    r.table(p, t, SCHEMA["sensors.mcp23017"])
    d = Mcp23017Config()
    addresses = r.int_list(p, t, "addresses", d.addresses, 0x20, 0x27, min_len=2, max_len=8, unique=True, hexa=True)
    pins = r.int_list(p, t, "interrupt_pins", d.interrupt_pins, 0, wiring.MAX_GPIO, max_len=8)
    if "map" in t:
        mp = (*p, "map")
        raw = r.point_table(mp, t["map"])
        bits: dict[str, tuple[int, int]] = {}
        owner: dict[tuple[int, int], str] = {}
        for point, spec in raw.items():
            addr_bit = r.guard(partial(r.mcp_input, (*mp, point), spec), None)
            if addr_bit is None:
                continue
            if addr_bit[0] not in addresses:
                r.report((*mp, point), f"address 0x{addr_bit[0]:02x} is not in sensors.mcp23017.addresses")
            elif addr_bit in owner:
                r.report((*mp, point), f"{wiring.mcp_bit_name(*addr_bit)} is already used by {owner[addr_bit]}")
            else:
                owner[addr_bit] = point
            bits[point] = addr_bit
        r.all_points(mp, raw)
        mapping = bits
    else:
        mapping = wiring.default_mcp23017_map(addresses)
    return Mcp23017Config(
        i2c_bus=r.integer(p, t, "i2c_bus", d.i2c_bus, 0, 255),
        addresses=addresses,
        interrupt_pins=pins,
        map=_frozen(mapping),
    )


def _gpio_sensors(r: Reader, t: Any) -> GpioSensorsConfig:
    p = ("sensors", "gpio")
    r.table(p, t, SCHEMA["sensors.gpio"])
    if "map" not in t:
        return GpioSensorsConfig()
    mp = (*p, "map")
    raw = r.point_table(mp, t["map"])
    read = {pt: r.guard(partial(r.gpio, (*mp, pt), v), None) for pt, v in raw.items()}
    pins = {pt: pin for pt, pin in read.items() if pin is not None}
    r.all_points(mp, raw)
    return GpioSensorsConfig(map=_frozen(pins))


def _matrix(r: Reader, t: Any) -> MatrixConfig:
    p = ("sensors", "matrix")
    r.table(p, t, SCHEMA["sensors.matrix"])
    d = MatrixConfig()
    rows = r.int_list(p, t, "rows", d.rows, 0, wiring.MAX_GPIO, min_len=1, max_len=24)
    cols = r.int_list(p, t, "columns", d.columns, 0, wiring.MAX_GPIO, min_len=1, max_len=24)
    if len(rows) * len(cols) < len(wiring.POINTS):
        r.fail((*p, "columns"), f"{len(rows)} rows x {len(cols)} columns give fewer than {len(wiring.POINTS)} cells")
    if "map" not in t:
        if (len(rows), len(cols)) != (len(d.rows), len(d.columns)):
            r.fail(
                (*p, "rows"),
                f"a {len(rows)} x {len(cols)} matrix needs a [sensors.matrix.map]; "
                f"the default map is for {len(d.rows)} x {len(d.columns)}",
            )
        return MatrixConfig(rows=rows, columns=cols)
    mp = (*p, "map")
    raw = r.point_table(mp, t["map"])
    cells: dict[str, tuple[int, int]] = {}
    owner: dict[tuple[int, int], str] = {}
    for point, spec in raw.items():
        cell = r.guard(partial(r.cell, (*mp, point), spec, len(rows), len(cols)), None)
        if cell is None:
            continue
        if cell in owner:
            r.report((*mp, point), f"row {cell[0]}, column {cell[1]} is already used by {owner[cell]}")
        else:
            owner[cell] = point
        cells[point] = cell
    r.all_points(mp, raw)
    return MatrixConfig(rows=rows, columns=cols, map=_frozen(cells))


def _leds(r: Reader, t: Any) -> LedsConfig:
    p = ("leds",)
    r.table(p, t, SCHEMA["leds"])
    d = LedsConfig()
    backend = r.choice(p, t, "backend", ("neopixel-spi", "neopixel", "none"), d.backend)
    order = r.guard(lambda: r.led_order((*p, "order"), t["order"]), d.order) if "order" in t else d.order
    status_raw = t.get("status", {})
    status: dict[str, int] = {}
    if r.guard(lambda: r.table((*p, "status"), status_raw, STATUS_LEDS), None) is not None:
        for name in status_raw:
            if name in STATUS_LEDS:
                index = r.integer((*p, "status"), status_raw, name, -1, 0, 9999)
                if index >= 0:
                    status[name] = index
    needed = max([len(order), *(i + 1 for i in status.values())])
    count = r.integer(p, t, "count", needed, 1, 10000)
    if len(order) > count and not r.is_bad((*p, "order")) and not r.is_bad((*p, "count")):
        r.report((*p, "order"), f"lists {len(order)} LEDs but leds.count is {count}")
    taken = {i: f"leds.order[{i}] ({pt})" for i, pt in enumerate(order) if pt}
    for name, index in status.items():
        key = (*p, "status", name)
        if index >= count:
            r.report(key, f"LED index {index} is beyond the chain (leds.count = {count}, indices 0-{count - 1})")
        elif index in taken:
            r.report(key, f"LED index {index} is already used by {taken[index]}")
        taken[index] = f"leds.status.{name}"
    if backend == "neopixel-spi":
        pin = r.choice(p, t, "pin", tuple(wiring.SPI_MOSI.values()), wiring.SPI_MOSI[0])
    elif backend == "neopixel":
        pin = r.choice(p, t, "pin", wiring.PWM_LED_PINS, 18)
    else:
        pin = r.guard(lambda: r.gpio((*p, "pin"), t["pin"]), None) if "pin" in t else None
    return LedsConfig(
        backend=backend,
        count=count,
        order=order,
        brightness=r.number(p, t, "brightness", d.brightness, 0, 1),
        pixel_order=r.choice(p, t, "pixel_order", PIXEL_ORDERS, d.pixel_order),
        pin=pin,
        status=_frozen(status),
    )


def _palette(r: Reader, t: Any) -> Mapping[str, Look]:
    p = ("palette",)
    r.table(p, t, SCHEMA["palette"])
    out = dict(DEFAULT_PALETTE)
    for role, entry in t.items():
        if role not in DEFAULT_PALETTE:
            continue  # an unknown role, already reported by r.table
        rp = (*p, role)
        if r.guard(partial(r.table, rp, entry, SCHEMA[f"palette.{role}"]), None) is None:
            continue
        base = DEFAULT_PALETTE[role]
        colour = (
            r.guard(partial(r.colour, (*rp, "colour"), entry["colour"]), base.colour)
            if "colour" in entry
            else base.colour
        )
        blink = r.choice(rp, entry, "blink", tuple(BLINKS), base.blink)
        out[role] = Look(colour, blink)
    return _frozen(out)


def _buttons(r: Reader, t: Any) -> ButtonsConfig:
    p = ("buttons",)
    r.table(p, t, SCHEMA["buttons"])
    pins = {name: r.guard(partial(r.gpio, (*p, name), t[name]), None) for name in BUTTONS if name in t}
    return ButtonsConfig(**pins, debounce_ms=r.number(p, t, "debounce_ms", ButtonsConfig().debounce_ms, 1, 500))


def _gpio(r: Reader, t: Any) -> GpioConfig:
    r.table(("gpio",), t, SCHEMA["gpio"])
    return GpioConfig(pin_factory=r.choice(("gpio",), t, "pin_factory", ("lgpio", "rpigpio"), "lgpio"))


def _storage(r: Reader, t: Any) -> StorageConfig:
    p = ("storage",)
    r.table(p, t, SCHEMA["storage"])
    state = r.abs_path(p, t, "state_dir", StorageConfig().state_dir)
    return StorageConfig(state_dir=state, records_dir=r.abs_path(p, t, "records_dir", state / "records"))


def _engine(r: Reader, t: Any) -> EngineConfig:
    p = ("engine",)
    r.table(p, t, SCHEMA["engine"])
    seed = r.integer(p, t, "seed", 0, 0, 2**63 - 1) if "seed" in t else None
    cap = r.number(p, t, "max_time_s", EngineConfig().max_time_s, 0.01, 3600)
    return EngineConfig(seed=seed, max_time_s=cap)


def _service(r: Reader, t: Any) -> ServiceConfig:
    p = ("service",)
    r.table(p, t, SCHEMA["service"])
    d = ServiceConfig()
    return ServiceConfig(
        watchdog=r.boolean(p, t, "watchdog", d.watchdog),
        log_level=r.choice(p, t, "log_level", ("debug", "info", "warning", "error"), d.log_level),
    )


def _web(r: Reader, t: Any) -> WebConfig:
    p = ("web",)
    r.table(p, t, SCHEMA["web"])
    d = WebConfig()
    host = d.host
    if "host" in t:
        host = t["host"]
        if not isinstance(host, str) or not host.strip() or any(c.isspace() for c in host):
            r.report((*p, "host"), f"must be an IP address or host name to listen on, got {host!r}")
            host = d.host
    pin = None
    if "pin" in t:
        pin = t["pin"]
        # a PIN is typed on a phone: ASCII digits only (isdigit alone takes "٤" and "²"),
        # long enough that guessing it under the web side's lockout takes months
        if not isinstance(pin, str) or not (pin.isascii() and pin.isdigit()) or not MIN_PIN <= len(pin) <= 12:
            r.report((*p, "pin"), f'must be {MIN_PIN} to 12 digits 0-9 in quotes, like "471108"')
            pin = None
    return WebConfig(
        enabled=r.boolean(p, t, "enabled", d.enabled),
        host=host,
        port=r.integer(p, t, "port", d.port, 1, 65535),
        pin=pin,
    )


def _assist(r: Reader, t: Any) -> Assists:
    p = ("assist",)
    r.table(p, t, SCHEMA["assist"])
    out = Assists()
    for side in ("white", "black"):
        if side not in t:
            continue
        sp = (*p, side)
        table = t[side]
        if r.guard(partial(r.table, sp, table, SCHEMA[f"assist.{side}"]), None) is None:
            continue
        hints: int | None = None
        if "hints" in table:
            value = table["hints"]
            if value == "unlimited":
                hints = None
            elif isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_HINTS:
                hints = value
            else:
                r.report(
                    (*sp, "hints"),
                    f'must be a whole number 0-{MAX_HINTS} (hints a game; 0: none) or "unlimited", got {value!r}',
                )
        assistance = Assistance(
            targets=r.boolean(sp, table, "targets", False),
            warn=r.boolean(sp, table, "warn", False),
            hints=hints,
        )
        out = out.with_side(side, assistance)
    return out
