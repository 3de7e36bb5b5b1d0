"""Errors raised by the hardware backends.

They subclass ``MorrisPiError`` and ``RuntimeError`` (not ``ValueError``): the
input was fine, the hardware was not. The service catches ``HardwareError``, shows an error
pattern on whatever still works, logs the message and retries.
"""

from __future__ import annotations

from morris_pi.errors import MorrisPiError


class HardwareError(MorrisPiError, RuntimeError):
    """A device is missing, unreachable or misbehaving."""


class SensorError(HardwareError):
    """The occupancy sensors cannot be read (names the device: address, pin)."""


class LedError(HardwareError):
    """The LED chain cannot be driven."""


class ButtonError(HardwareError):
    """A button input cannot be set up."""
