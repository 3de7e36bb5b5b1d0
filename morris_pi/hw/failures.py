"""Words for a hardware library that failed to load or start, naming the missing piece.

The Raspberry Pi libraries fail in many ways: an ``ImportError`` for a package
that is not installed, a ``RuntimeError`` when Adafruit Blinka 10 cannot find
its pin layer ``gpiod``, a ``NotImplementedError`` on a machine that is not a
Pi, an ``OSError`` for a device node. ``describe`` turns any of them into one
line that says what is missing and how to get it, keeping the original error
at the end for the log.

>>> print(describe(RuntimeError("The platform library 'gpiod' was not found")))  # doctest: +NORMALIZE_WHITESPACE
the Python package gpiod is missing (pip install 'morris-pi[pi]' installs it on a Raspberry Pi)
    [RuntimeError: The platform library 'gpiod' was not found]
>>> missing = ModuleNotFoundError("No module named '_rpi_ws281x'", name="_rpi_ws281x")
>>> print(describe(missing))  # doctest: +NORMALIZE_WHITESPACE
the Python package rpi_ws281x is missing (pip install 'morris-pi[pi]' installs it on a Raspberry Pi)
    [ModuleNotFoundError: No module named '_rpi_ws281x']
>>> print(describe(OSError(2, "No such file or directory", "/dev/spidev0.0")))
FileNotFoundError: [Errno 2] No such file or directory: '/dev/spidev0.0'
"""

from __future__ import annotations

import re

_EXTRA = "pip install 'morris-pi[pi]' installs it on a Raspberry Pi"

#: import name -> (distribution, how to get it)
PACKAGES: dict[str, tuple[str, str]] = {
    "gpiod": ("gpiod", _EXTRA),
    "lgpio": ("lgpio", _EXTRA),
    "RPi": ("rpi-lgpio", _EXTRA),
    "_rpi_ws281x": ("rpi_ws281x", _EXTRA),
    "rpi_ws281x": ("rpi_ws281x", _EXTRA),
    "adafruit_raspberry_pi5_neopixel_write": (
        "adafruit-blinka-raspberry-pi5-neopixel",
        "a pre-release, so not in the extra: pip install --pre adafruit-blinka-raspberry-pi5-neopixel",
    ),
    "board": ("adafruit-blinka", _EXTRA),
    "busio": ("adafruit-blinka", _EXTRA),
    "adafruit_blinka": ("adafruit-blinka", _EXTRA),
    "neopixel": ("adafruit-circuitpython-neopixel", _EXTRA),
    "neopixel_spi": ("adafruit-circuitpython-neopixel-spi", _EXTRA),
    "gpiozero": ("gpiozero", _EXTRA),
    "smbus2": ("smbus2", _EXTRA),
}

# Blinka 10 says "The platform library 'gpiod' was not found" (a RuntimeError)
_PLATFORM_LIBRARY = re.compile(r"platform library '([A-Za-z0-9_.]+)' was not found")


def missing_module(exc: BaseException) -> str | None:
    """The import name of the module whose absence caused ``exc``, if it was one."""
    seen: set[int] = set()
    error: BaseException | None = exc
    while error is not None and id(error) not in seen:
        seen.add(id(error))
        named = _PLATFORM_LIBRARY.search(str(error))
        if named:
            return named.group(1)
        if isinstance(error, ImportError) and error.name:
            return error.name.split(".")[0]
        error = error.__cause__ or error.__context__
    return None


#: Characters of the original error's message that ``describe`` keeps.
MAX_ORIGINAL = 160


def describe(exc: BaseException) -> str:
    """One line: the missing piece (if one is known) and the original error."""
    text = str(exc)
    if len(text) > MAX_ORIGINAL:  # a driver may put a whole buffer in its message; a log line stays short
        text = text[:MAX_ORIGINAL] + "..."
    original = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
    module = missing_module(exc)
    if module is None:
        return original
    package, how = PACKAGES.get(module, (module, _EXTRA))
    return f"the Python package {package} is missing ({how}) [{original}]"
