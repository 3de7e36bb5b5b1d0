"""Shared fixtures."""

from __future__ import annotations

import pytest


@pytest.fixture
def mock_factory():
    """gpiozero's MockFactory as the default pin factory, restored afterwards
    (the pattern of gpiozero's own test suite)."""
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    saved = Device.pin_factory
    Device.pin_factory = MockFactory()
    try:
        yield Device.pin_factory
    finally:
        Device.pin_factory.reset()
        Device.pin_factory = saved
