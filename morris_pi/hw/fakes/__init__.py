"""Emulated hardware at the lowest level: an I2C bus with MCP23017 chips, an SPI
port feeding a WS2812 chain, a NeoPixel pixel buffer, gpiozero mock pins
wired like the board (interrupt lines, a diode matrix), and a disk that fills up.

The real drivers run on top of these, so tests, benchmarks and dry runs
exercise the same code paths as a board, down to the register writes.
"""
