"""Cross-section wiring checks: no GPIO may serve two purposes.

Only the backends actually selected claim pins; the settings of an unselected
sensor backend may stay in the file without getting in the way.

SPI LEDs also claim their bus's chip-select pins, though a LED chain has no
chip select: the kernel's SPI driver holds them as soon as the bus is on
(``dtparam=spi=on`` holds CE0 and CE1, GPIO 8 and 7; ``dtoverlay=spi1-1cs``,
the overlay the docs name for SPI1, holds its CE0, GPIO 18), and a button
there would never read a press.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from morris_pi.config import wiring

if TYPE_CHECKING:
    from morris_pi.config.model import Config
    from morris_pi.config.values import KeyPath, Reader


def pin_claims(config: Config) -> list[tuple[int, KeyPath, str]]:
    """Every GPIO the selected hardware uses: (pin, config key, what for)."""
    claims: list[tuple[int, KeyPath, str]] = []
    leds = config.leds
    if leds.backend == "neopixel-spi" and leds.spi_bus is not None:
        for pin, role in zip(wiring.SPI_PINS[leds.spi_bus], ("MISO", "MOSI", "SCLK"), strict=True):
            claims.append((pin, ("leds", "pin"), f"the LED data line (SPI{leds.spi_bus} {role})"))
        held = wiring.SPI_CHIP_SELECTS[leds.spi_bus]
        which = "both chip selects" if len(held) > 1 else "its chip select"
        for i, pin in enumerate(held):
            claims.append(
                (
                    pin,
                    ("leds", "pin"),
                    f"SPI{leds.spi_bus} CE{i} (the kernel's SPI driver holds {which} while SPI is on, "
                    f"though the LEDs use {'neither' if len(held) > 1 else 'none'})",
                )
            )
    elif leds.backend == "neopixel" and leds.pin is not None:
        claims.append((leds.pin, ("leds", "pin"), "the LED data line"))
    sensors = config.sensors
    if sensors.backend == "mcp23017":
        mcp = sensors.mcp23017
        # a bus without fixed header pins (a software I2C bus) claims none
        for pin, role in zip(wiring.I2C_PINS.get(mcp.i2c_bus, ()), ("SDA", "SCL"), strict=False):
            claims.append((pin, ("sensors", "mcp23017", "i2c_bus"), f"I2C bus {mcp.i2c_bus} {role}"))
        for i, pin in enumerate(mcp.interrupt_pins):
            claims.append((pin, ("sensors", "mcp23017", f"interrupt_pins[{i}]"), "an expander interrupt line"))
    elif sensors.backend == "gpio":
        for point, pin in sensors.gpio.map.items():
            claims.append((pin, ("sensors", "gpio", "map", point), f"the switch at {point}"))
    elif sensors.backend == "matrix":
        for i, pin in enumerate(sensors.matrix.rows):
            claims.append((pin, ("sensors", "matrix", f"rows[{i}]"), f"matrix row {i}"))
        for i, pin in enumerate(sensors.matrix.columns):
            claims.append((pin, ("sensors", "matrix", f"columns[{i}]"), f"matrix column {i}"))
    for name, pin in config.buttons.pins.items():
        claims.append((pin, ("buttons", name), f"the {name} button"))
    return claims


def check_pins(r: Reader, config: Config) -> None:
    """Report every GPIO claimed twice, at the key of the later claim.

    Claims from keys that already have an error are left out: their value is a
    stand-in, and a clash with it would only repeat that error.
    """
    owner: dict[int, tuple[KeyPath, str]] = {}
    for pin, key, what in pin_claims(config):
        if r.is_bad(key):
            continue
        if pin in owner:
            other_key, other_what = owner[pin]
            if other_key == key:
                continue  # one setting claiming several pins never collides with itself
            default = "" if r.present(key) else " (a default; set this key to change it)"
            r.report(
                key,
                f"GPIO {pin}{default} is wanted for {what} but is already used for "
                f"{other_what} by {'.'.join(other_key)}",
            )
            continue
        owner[pin] = (key, what)
