"""The TOML config: defaults, shipped examples, and an error naming file, line and
key for every kind of bad config."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from morris_pi.config import loader as config_module
from morris_pi.config.loader import ConfigError, load_config, parse_config, schema_paths
from morris_pi.config.model import Config
from morris_pi.config.tomlpos import key_lines
from morris_pi.config.wiring import DEFAULT_MCP23017_MAP, POINTS
from morris_pi.guidance import BLINKS, DEFAULT_PALETTE, ROLES, Look
from morris_pi.rules import PROFILES

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "wiring" / "config.example.toml"
SHIPPED = sorted((ROOT / "wiring").rglob("*.toml"))
_COMMENTED_KEY = re.compile(r"^# ?(([A-Za-z0-9_-]+) = .*)$")


def uncommented(text: str) -> str:
    """The example with its commented-out keys switched on (keys this version knows)."""
    known = {path.rsplit(".", 1)[-1] for path in schema_paths()} | set(ROLES)

    def switch(line: str) -> str:
        found = _COMMENTED_KEY.match(line)
        return found.group(1) if found and found.group(2) in known else line

    return "\n".join(switch(line) for line in text.splitlines())


# -- defaults and shipped files --------------------------------------------------


def test_missing_default_file_gives_defaults(tmp_path, monkeypatch):
    monkeypatch.setattr(config_module, "DEFAULT_PATH", tmp_path / "absent.toml")
    assert load_config() == Config()


def test_default_file_is_read_when_present(tmp_path, monkeypatch):
    path = tmp_path / "config.toml"
    path.write_text("[game]\nlevel = 9\n")
    monkeypatch.setattr(config_module, "DEFAULT_PATH", path)
    assert load_config().game.level == 9
    assert load_config().source == str(path)


def test_an_explicit_missing_file_is_an_error(tmp_path):
    with pytest.raises(ConfigError, match=r"absent.toml: no such file"):
        load_config(tmp_path / "absent.toml")


def test_empty_file_equals_the_defaults():
    config = parse_config("")
    assert config == Config()
    assert config.sensors.backend == "mcp23017" and config.leds.backend == "neopixel-spi"
    assert dict(config.sensors.mcp23017.map) == DEFAULT_MCP23017_MAP
    assert config.leds.order == POINTS and config.leds.count == 24
    assert config.buttons.pins == {}
    assert config.engine.seed is None and config.engine.max_time_s == 3.0


def test_the_config_is_frozen():
    config = parse_config("")
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.game.level = 5  # type: ignore[misc]
    with pytest.raises(TypeError):
        config.sensors.gpio.map["a7"] = 4  # type: ignore[index]
    with pytest.raises(TypeError):
        config.palette["hint"] = Look((1, 2, 3))  # type: ignore[index]


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_shipped_example_is_valid(path):
    config = load_config(path)
    assert config.source == str(path)
    parse_config(uncommented(path.read_text()), str(path))  # the commented-out options too


def test_there_is_an_example_for_every_sensor_backend():
    backends = {load_config(p).sensors.backend for p in SHIPPED}
    leds = {load_config(p).leds.backend for p in SHIPPED}
    assert backends == {"mcp23017", "gpio", "matrix"}
    assert {"neopixel", "neopixel-spi"} <= leds


def test_the_example_documents_every_key():
    lines = key_lines(uncommented(EXAMPLE.read_text()))
    written = {".".join(path) for path in lines}
    missing = [key for key in schema_paths() if key not in written]
    assert missing == []


def test_the_example_palette_lines_are_valid_overrides():
    config = parse_config(uncommented(EXAMPLE.read_text()))
    assert load_config(EXAMPLE).palette == Config().palette  # commented out: no change
    assert all(look.blink in BLINKS for look in config.palette.values())


def test_the_example_shows_the_default_maps():
    config = load_config(EXAMPLE)
    default = Config()
    assert config.sensors.mcp23017.map == default.sensors.mcp23017.map
    assert config.sensors.gpio == default.sensors.gpio
    assert config.sensors.matrix == default.sensors.matrix
    assert config.leds.order == default.leds.order


def test_the_example_as_shipped_is_exactly_the_defaults():
    """install-service installs it as the live config: it must change nothing."""
    assert load_config(EXAMPLE) == Config()


def test_the_example_with_every_option_switched_on():
    config = parse_config(uncommented(EXAMPLE.read_text()), str(EXAMPLE))
    assert config.sensors.mcp23017.interrupt_pins == (4,)
    assert config.buttons.pins == {"new": 17, "undo": 27, "hint": 22, "menu": 23}
    assert config.leds.count == 27 and len(config.leds.status) == 3
    assert config.engine.seed == 12345


# -- values ------------------------------------------------------------------


def test_values_are_read():
    config = parse_config("""
[game]
mode = "two-player"
human = "black"
level = 10
profile = "lasker"
menu = false
[sensors]
backend = "matrix"
scan_hz = 50.5
settle_ms = 120
[leds]
backend = "neopixel"
pin = 12
brightness = 1
pixel_order = "RGB"
[buttons]
undo = 21
debounce_ms = 15
[gpio]
pin_factory = "rpigpio"
[storage]
state_dir = "/srv/morris"
[engine]
seed = 7
max_time_s = 2
[service]
watchdog = false
log_level = "debug"
""")
    assert config.game.mode == "two-player" and config.game.human == "black" and config.game.level == 10
    assert config.game.profile == "lasker" and config.game.menu is False
    assert config.sensors.scan_hz == 50.5 and config.sensors.settle_ms == 120.0
    assert (config.leds.pin, config.leds.brightness, config.leds.pixel_order) == (12, 1.0, "RGB")
    assert config.buttons.pins == {"undo": 21} and config.buttons.debounce_ms == 15
    assert config.gpio.pin_factory == "rpigpio"
    assert config.storage.records_dir == Path("/srv/morris/records")  # follows state_dir
    assert (config.engine.seed, config.engine.max_time_s) == (7, 2.0)
    assert config.service.watchdog is False and config.service.log_level == "debug"


def test_palette_override_keeps_what_is_not_given():
    config = parse_config('[palette]\nhint = { colour = "#0000FF" }\n[palette.mill]\nblink = "fast"\n')
    assert config.palette["hint"] == Look((0, 0, 255), DEFAULT_PALETTE["hint"].blink)
    assert config.palette["mill"] == Look(DEFAULT_PALETTE["mill"].colour, "fast")
    assert config.palette["error"] == DEFAULT_PALETTE["error"]


def test_custom_wirings():
    config = parse_config("""
[sensors.mcp23017]
addresses = [0x24, 0x25]
[leds]
order = ["", "c4", "c3", "d3", "e3", "e4", "e5", "d5", "c5",
         "b4", "b2", "d2", "f2", "f4", "f6", "d6", "b6",
         "a4", "a1", "d1", "g1", "g4", "g7", "d7", "a7"]
[leds.status]
error = 0
""")
    assert config.sensors.mcp23017.map["a7"] == (0x24, 0)  # default map follows the addresses
    assert config.leds.order[0] is None and config.leds.order[1] == "c4"
    assert config.leds.count == 25 and config.leds.status == {"error": 0}


def test_a_config_may_choose_every_profile_of_the_rules():
    names = config_module.profile_names()
    assert names == tuple(PROFILES)
    for name in names:
        assert parse_config(f'[game]\nprofile = "{name}"\n').game.profile == name


# -- every kind of bad config -----------------------------------------------------

GPIO_ON_SPI = '[sensors]\nbackend = "gpio"\n'
MATRIX_MAP_ALL = "\n".join(f"{p} = [{i // 8}, {i % 8}]" for i, p in enumerate(POINTS))

BAD = [
    # (name, toml, key, line, message pattern)
    ("unknown section", "[gmae]\nlevel = 3\n", "gmae", 1, r"unknown key .*did you mean 'game'"),
    (
        "unknown key",
        "[game]\nlevel = 3\nlevle = 4\n",
        "game.levle",
        3,
        r"unknown key in \[game\]; did you mean 'level'",
    ),
    ("unknown nested key", "[sensors.mcp23017]\nbus = 1\n", "sensors.mcp23017.bus", 2, "unknown key"),
    ("unknown palette field", '[palette.hint]\ncolor = "#ffffff"\n', "palette.hint.color", 2, "did you mean 'colour'"),
    ("unknown role", '[palette]\nglow = { colour = "#ffffff" }\n', "palette.glow", 2, "unknown key"),
    ("unknown status LED", "[leds.status]\nbusy = 3\n", "leds.status.busy", 2, "unknown key"),
    ("string for integer", '[game]\n\nlevel = "3"\n', "game.level", 3, "must be an integer, got a string"),
    ("bool for integer", "[game]\nlevel = true\n", "game.level", 2, "must be an integer, got true/false"),
    ("integer for bool", "[game]\nmenu = 1\n", "game.menu", 2, "must be true or false, got an integer"),
    ("string for number", '[leds]\nbrightness = "dim"\n', "leds.brightness", 2, "must be a number"),
    ("value for table", "game = 3\n", "game", 1, "must be a table"),
    ("level too high", "[game]\nlevel = 11\n", "game.level", 2, "between 1 and 10, got 11"),
    ("brightness too high", "[leds]\nbrightness = 1.5\n", "leds.brightness", 2, "between 0 and 1"),
    ("scan rate zero", "[sensors]\nscan_hz = 0\n", "sensors.scan_hz", 2, "between 1 and 1000"),
    (
        "address out of range",
        "[sensors.mcp23017]\naddresses = [0x20, 0x30]\n",
        "sensors.mcp23017.addresses[1]",
        2,
        "between 0x20 and 0x27, got 0x30",
    ),
    (
        "address twice",
        "[sensors.mcp23017]\naddresses = [0x20, 0x20]\n",
        "sensors.mcp23017.addresses[1]",
        2,
        "listed twice",
    ),
    ("one expander", "[sensors.mcp23017]\naddresses = [0x20]\n", "sensors.mcp23017.addresses", 2, "2 to 8 entries"),
    ("GPIO beyond the header", "[buttons]\nnew = 40\n", "buttons.new", 2, "between 0 and 27"),
    ("bad choice", '[sensors]\nbackend = "mcp23008"\n', "sensors.backend", 2, "did you mean 'mcp23017'"),
    ("bad profile", '[game]\nprofile = "standart"\n', "game.profile", 2, "did you mean 'standard'"),
    ("bad pixel order", '[leds]\npixel_order = "RGBW"\n', "leds.pixel_order", 2, "must be one of"),
    ("bad blink", '[palette]\nhint = { blink = "strobe" }\n', "palette.hint.blink", 2, "must be one of"),
    ("bad colour", '[palette]\nhint = { colour = "yellow" }\n', "palette.hint.colour", 2, "#rrggbb"),
    ("bad log level", '[service]\nlog_level = "verbose"\n', "service.log_level", 2, "must be one of"),
    ("relative path", '[storage]\nstate_dir = "var/morris"\n', "storage.state_dir", 2, "absolute path"),
    ("TOML syntax", "[game]\nlevel = = 3\n", None, 2, "not valid TOML"),
    ("TOML unterminated", '[game]\nprofile = "standard\n', None, 2, "not valid TOML"),
    ("mcp bad input name", '[sensors.mcp23017.map]\na7 = "GPA0"\n', "sensors.mcp23017.map.a7", 2, r'like "0x20:A0"'),
    (
        "mcp two points on one input",
        "[sensors.mcp23017.map]\n"
        + "\n".join(
            f'{p} = "0x20:A0"' if p == "d7" else f'{p} = "0x{a:02x}:{"AB"[b // 8]}{b % 8}"'
            for p, (a, b) in DEFAULT_MCP23017_MAP.items()
        ),
        "sensors.mcp23017.map.d7",
        3,
        "0x20:A0 is already used by a7",
    ),
    (
        "mcp address not configured",
        '[sensors.mcp23017.map]\na7 = "0x27:A0"\n',
        "sensors.mcp23017.map.a7",
        2,
        "0x27 is not in sensors.mcp23017.addresses",
    ),
    ("mcp point missing", '[sensors.mcp23017.map]\na7 = "0x20:A0"\n', "sensors.mcp23017.map", 1, "missing: d7, g7"),
    ("map unknown point", "[sensors.gpio.map]\nh8 = 4\n", "sensors.gpio.map.h8", 2, "unknown key"),
    (
        "gpio two points on one pin",
        '[sensors]\nbackend = "gpio"\n[leds]\nbackend = "neopixel"\n[sensors.gpio.map]\n'
        + "\n".join(f"{p} = {2 + i + (i >= 16)}" for i, p in enumerate(POINTS[:-1]))
        + "\nc4 = 5\n",
        "sensors.gpio.map.c4",
        29,
        "GPIO 5 .* already used for the switch at g4",
    ),
    (
        "matrix two points on one cell",
        "[sensors.matrix.map]\n" + MATRIX_MAP_ALL.replace("d7 = [0, 1]", "d7 = [0, 0]"),
        "sensors.matrix.map.d7",
        3,
        "row 0, column 0 is already used by a7",
    ),
    (
        "matrix cell beyond the matrix",
        "[sensors.matrix.map]\n" + MATRIX_MAP_ALL.replace("c4 = [2, 7]", "c4 = [3, 0]"),
        "sensors.matrix.map.c4",
        25,
        "row 3 does not exist",
    ),
    ("matrix too small", "[sensors.matrix]\nrows = [5, 6]\n", "sensors.matrix.columns", 1, "fewer than 24"),
    (
        "matrix shape without map",
        "[sensors.matrix]\nrows = [5, 6, 13, 19]\ncolumns = [16, 17, 22, 23, 24, 25]\n",
        "sensors.matrix.rows",
        2,
        r"4 x 6 matrix needs a \[sensors.matrix.map\]",
    ),
    ("LED point twice", '[leds]\norder = ["a7", "d7", "a7"]\n', "leds.order[2]", 2, "'a7' appears twice"),
    ("LED point missing", '[leds]\norder = ["a7", "d7"]\n', "leds.order", 2, "missing: g7"),
    ("LED unknown point", '[leds]\norder = ["a8"]\n', "leds.order[0]", 2, "unknown point 'a8'"),
    ("LED order beyond count", "[leds]\ncount = 20\n", "leds.order", 1, "lists 24 LEDs but leds.count is 20"),
    (
        "status LED beyond the chain",
        "[leds]\ncount = 25\n[leds.status]\nerror = 25\n",
        "leds.status.error",
        4,
        r"index 25 is beyond the chain \(leds.count = 25",
    ),
    (
        "status LED on a point LED",
        "[leds.status]\nerror = 3\n",
        "leds.status.error",
        2,
        r"already used by leds.order\[3\] \(g4\)",
    ),
    (
        "two status LEDs on one LED",
        "[leds.status]\nerror = 30\nwhite-to-move = 30\n",
        "leds.status.white-to-move",
        3,
        "already used by leds.status.error",
    ),
    ("SPI LEDs on a non-MOSI pin", "[leds]\npin = 18\n", "leds.pin", 2, "must be one of 10, 20"),
    ("PWM LEDs on an unsupported pin", '[leds]\nbackend = "neopixel"\npin = 17\n', "leds.pin", 3, "must be one of"),
    (
        "gpio sensors with SPI LEDs",
        GPIO_ON_SPI,
        "sensors.gpio.map.a4",
        1,
        r"GPIO 9 \(a default.*the switch at a4.*SPI0 MISO\) by leds.pin",
    ),
    ("button on an LED SPI pin", "[buttons]\nnew = 11\n", "buttons.new", 2, "SPI0 SCLK"),
    ("button on the I2C bus", "[buttons]\nundo = 3\n", "buttons.undo", 2, "I2C bus 1 SCL"),
    (
        "two buttons on one pin",
        "[buttons]\nnew = 17\nundo = 17\n",
        "buttons.undo",
        3,
        "already used for the new button",
    ),
    (
        "button on a sensor pin",
        '[sensors]\nbackend = "matrix"\n[buttons]\nhint = 16\n',
        "buttons.hint",
        4,
        "matrix column 0",
    ),
    (
        "interrupt line on a button pin",
        "[sensors.mcp23017]\ninterrupt_pins = [4]\n[buttons]\nmenu = 4\n",
        "buttons.menu",
        4,
        "expander interrupt line",
    ),
    (
        "matrix row on a column pin",
        '[sensors]\nbackend = "matrix"\n[sensors.matrix]\nrows = [5, 6, 16]\n',
        "sensors.matrix.columns[0]",
        3,
        "matrix row 2",
    ),
    (
        "button on SPI0 CE0",
        "[buttons]\nnew = 8\n",
        "buttons.new",
        2,
        r"GPIO 8 .*SPI0 CE0 \(the kernel's SPI driver holds both chip selects while SPI is on",
    ),
    ("button on SPI0 CE1", "[buttons]\nmenu = 7\n", "buttons.menu", 2, "SPI0 CE1"),
    (
        "button on SPI1 CE0",
        "[leds]\npin = 20\n[buttons]\nhint = 18\n",
        "buttons.hint",
        4,
        r"SPI1 CE0 \(the kernel's SPI driver holds its chip select",
    ),
    (
        "mcp sensor on GPA7",
        '[sensors.mcp23017.map]\na7 = "0x20:A7"\n',
        "sensors.mcp23017.map.a7",
        2,
        r"GPA7 cannot be a switch input: since revision D .* outputs only",
    ),
    (
        "mcp sensor on GPB7",
        '[sensors.mcp23017.map]\nb6 = "0x21:GPB7"\n',
        "sensors.mcp23017.map.b6",
        2,
        r"GPB7 cannot be a switch input",
    ),
    ("negative seed", "[engine]\nseed = -1\n", "engine.seed", 2, "between 0 and"),
    ("think time zero", "[engine]\nmax_time_s = 0\n", "engine.max_time_s", 2, "between 0.01 and 3600"),
]


@pytest.mark.parametrize("name, text, key, line, pattern", BAD, ids=[b[0] for b in BAD])
def test_bad_config_names_file_line_and_key(name, text, key, line, pattern, tmp_path):
    path = tmp_path / "config.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    error = caught.value
    assert isinstance(error, ValueError)
    # every error of the file is reported; the one this case is about is among them
    found = [e for e in error.errors if (e.file, e.key, e.line) == (str(path), key, line)]
    assert found and any(re.search(pattern, e.reason) for e in found), str(error)
    prefix = f"{path}:{line}: " + (f"{key}: " if key else "")
    assert any(text.startswith(prefix) and re.search(pattern, text) for text in str(error).splitlines()), str(error)
    assert str(error).splitlines() == [str(e) for e in error.errors]


def test_unselected_backend_settings_do_not_collide():
    """The gpio map may stay in the file while the mcp23017 backend is in use."""
    config = parse_config(
        "[sensors.gpio.map]\n"
        + "\n".join(f"{p} = {2 + i + (i >= 16)}" for i, p in enumerate(POINTS))
        + "\n[buttons]\nnew = 5\n"
    )
    assert config.buttons.new == 5


def test_unreadable_file_is_an_error(tmp_path):
    path = tmp_path / "config.toml"
    path.write_bytes(b"\xff\xfe[game]\n")
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(path)


# -- every error at once ----------------------------------------------------------


def test_every_error_in_the_file_is_reported_at_once_in_file_order(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text("""[game]
levle = 4
level = 11
[sensors.mcp23017.map]
a7 = "0x20:A7"
[leds]
brightness = 2
[buttons]
new = 8
undo = 40
""")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    lines = str(caught.value).splitlines()
    assert [(e.line, e.key) for e in caught.value.errors] == [
        (2, "game.levle"),
        (3, "game.level"),
        (4, "sensors.mcp23017.map"),
        (5, "sensors.mcp23017.map.a7"),
        (7, "leds.brightness"),
        (9, "buttons.new"),
        (10, "buttons.undo"),
    ]
    assert all(re.match(rf"{re.escape(str(path))}:\d+: [a-z0-9.\[\]-]+: \S", line) for line in lines), lines
    assert "missing: d7" in lines[2] and "GPA7" in lines[3] and "SPI0 CE0" in lines[5]


def test_a_bad_value_is_reported_once_without_knock_on_clashes():
    """leds.pin = 99 is wrong; its stand-in must not also clash with the gpio sensors."""
    with pytest.raises(ConfigError) as caught:
        parse_config('[sensors]\nbackend = "gpio"\n[leds]\nbackend = "neopixel"\npin = 99\n', "c.toml")
    assert [e.key for e in caught.value.errors] == ["leds.pin"]


def test_chip_selects_are_free_without_spi_leds():
    config = parse_config('[leds]\nbackend = "neopixel"\n[buttons]\nnew = 8\nundo = 7\n')
    assert config.buttons.pins == {"new": 8, "undo": 7}
    assert parse_config("[leds]\npin = 20\n[buttons]\nnew = 8\n").buttons.new == 8  # SPI1 leaves SPI0's free


def test_the_input_example_in_the_error_is_a_usable_input():
    with pytest.raises(ConfigError) as caught:
        parse_config('[sensors.mcp23017.map]\na7 = "A0"\n')
    suggested = re.findall(r'"(0x2\d:[AB]\d)"', str(caught.value))
    assert suggested and all(not s.endswith("7") for s in suggested)
    names = {p: f"0x{a:02x}:{'AB'[b // 8]}{b % 8}" for p, (a, b) in DEFAULT_MCP23017_MAP.items()}
    for spec in suggested:  # each example the message gives is accepted as a switch input
        mapping = dict(names)
        holder = next(p for p, name in names.items() if name == spec)
        mapping[holder], mapping["a7"] = mapping["a7"], spec
        text = "[sensors.mcp23017.map]\n" + "\n".join(f'{p} = "{n}"' for p, n in mapping.items())
        assert parse_config(text).sensors.mcp23017.map["a7"] == DEFAULT_MCP23017_MAP[holder]
