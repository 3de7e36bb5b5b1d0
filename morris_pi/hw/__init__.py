"""Hardware backends: the only place gpiozero, smbus2 and the Adafruit drivers are used.

- ``sensors_mcp23017``, ``sensors_gpio``, ``sensors_matrix``: ``SensorSource`` backends
- ``leds``: ``LedStrip`` backends (NeoPixels over SPI or PWM)
- ``buttons``: ``Buttons`` over gpiozero
- ``factory``: builds all of them from a validated ``Config``
- ``fakes``: register-level emulations of the I2C expanders, the SPI LED chain
  and a diode matrix, for tests, benchmarks and dry runs

Nothing here is imported by the lower layers, and each third-party library is
imported only by the backend that needs it.
"""
