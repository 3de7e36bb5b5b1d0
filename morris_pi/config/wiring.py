"""Default wirings: which input and which LED belongs to which point.

Everything here follows the ring order of the board (outer, middle, inner ring;
each ring clockwise from its top-left corner), so a builder who wires in that
order needs no map in the config at all.

>>> POINTS[:3], POINTS[-1]
(('a7', 'd7', 'g7'), 'c4')
>>> [mcp_bit_name(*DEFAULT_MCP23017_MAP[p]) for p in ("a7", "b6", "c5", "a4", "b4", "c4")]
['0x20:A0', '0x20:B0', '0x21:A0', '0x21:B0', '0x21:B1', '0x21:B2']
>>> DEFAULT_GPIO_MAP["a7"], DEFAULT_GPIO_MAP["c4"]
(2, 26)
>>> DEFAULT_MATRIX_MAP["e4"]
(2, 3)
"""

from __future__ import annotations

from morris_pi.rules.board import RINGS

POINTS: tuple[str, ...] = tuple(p for ring in RINGS for p in ring)

#: Highest BCM GPIO number on the 40-pin header (every Pi model, Pi 5 included).
MAX_GPIO = 27

#: I2C addresses of the two MCP23017 expanders (A2 A1 A0 = 000 and 001).
DEFAULT_MCP23017_ADDRESSES: tuple[int, ...] = (0x20, 0x21)

#: Pins on the 40-pin header used by each I2C/SPI bus, as claimed by the kernel.
I2C_PINS: dict[int, tuple[int, ...]] = {1: (2, 3)}
#: SPI bus -> (MISO, MOSI, SCLK).
SPI_PINS: dict[int, tuple[int, int, int]] = {0: (9, 10, 11), 1: (19, 20, 21)}
#: SPI bus -> the chip-select pins the kernel holds with the set-up the docs name:
#: ``dtparam=spi=on`` (SPI0: CE0 GPIO 8, CE1 GPIO 7), ``dtoverlay=spi1-1cs`` (SPI1: CE0 GPIO 18).
SPI_CHIP_SELECTS: dict[int, tuple[int, ...]] = {0: (8, 7), 1: (18,)}
#: The MOSI pin of each SPI bus, which drives the LED data line.
SPI_MOSI: dict[int, int] = {bus: pins[1] for bus, pins in SPI_PINS.items()}
#: Pins the PWM/PCM NeoPixel driver (rpi_ws281x) can drive.
PWM_LED_PINS: tuple[int, ...] = (10, 12, 13, 18, 19, 21)


def _mcp_default(addresses: tuple[int, ...]) -> dict[str, tuple[int, int]]:
    """One ring per port: outer on GPA0-6 and middle on GPB0-6 of the first
    chip, inner on GPA0-6 of the second; the eighth point of each ring goes to
    GPB0-2 of the second chip. Bits 0-7 are GPA0-7, bits 8-15 GPB0-7.

    GPA7 and GPB7 stay unused: since revision D of the datasheet (2022),
    Microchip allows them only as outputs, because as inputs they can corrupt
    SDA during a read.
    """
    first, second = addresses[0], addresses[1]
    ports = ((first, 0), (first, 8), (second, 0))
    out: dict[str, tuple[int, int]] = {}
    for r, (ring, (address, base)) in enumerate(zip(RINGS, ports, strict=True)):
        for i, point in enumerate(ring[:7]):
            out[point] = (address, base + i)
        out[ring[7]] = (second, 8 + r)
    return out


def default_mcp23017_map(addresses: tuple[int, ...] = DEFAULT_MCP23017_ADDRESSES) -> dict[str, tuple[int, int]]:
    """The default point -> (address, bit) map for the given chip addresses."""
    return _mcp_default(addresses)


DEFAULT_MCP23017_MAP: dict[str, tuple[int, int]] = _mcp_default(DEFAULT_MCP23017_ADDRESSES)

#: 24 direct inputs: GPIO 2-17 and 19-26, leaving GPIO 18 for the PWM LED data
#: line and GPIO 27 for a button.
DEFAULT_GPIO_PINS: tuple[int, ...] = tuple(range(2, 18)) + tuple(range(19, 27))
DEFAULT_GPIO_MAP: dict[str, int] = dict(zip(POINTS, DEFAULT_GPIO_PINS, strict=True))

#: 3 x 8 diode matrix: one row per ring, one column per position in the ring.
DEFAULT_MATRIX_ROWS: tuple[int, ...] = (5, 6, 13)
DEFAULT_MATRIX_COLUMNS: tuple[int, ...] = (16, 17, 22, 23, 24, 25, 26, 27)
DEFAULT_MATRIX_MAP: dict[str, tuple[int, int]] = {
    point: (r, c) for r, ring in enumerate(RINGS) for c, point in enumerate(ring)
}

#: LED chain: LED i lights POINTS[i].
DEFAULT_LED_ORDER: tuple[str, ...] = POINTS


def mcp_bit_name(address: int, bit: int) -> str:
    """The label of an expander input as printed on breakout boards.

    >>> mcp_bit_name(0x20, 9)
    '0x20:B1'
    """
    return f"0x{address:02x}:{'AB'[bit // 8]}{bit % 8}"
