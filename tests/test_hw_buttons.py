"""Buttons: gpiozero Button over MockFactory pins, debounced on the injected clock."""

from __future__ import annotations

import pytest

from morris_pi.core.ports import ManualClock
from morris_pi.hw.buttons import GpioButtons, NoButtons
from morris_pi.hw.errors import ButtonError
from morris_pi.hw.fakes.pins import WiredPin

PINS = {"new": 5, "undo": 6, "hint": 13, "menu": 19}


@pytest.fixture
def clock():
    return ManualClock()


@pytest.fixture
def buttons(mock_factory, clock):
    b = GpioButtons(PINS, debounce_s=0.03, clock=clock)
    yield b
    b.close()


def step(clock, buttons, seconds=0.01):
    clock.advance(seconds)
    return buttons.pressed()


def test_a_press_is_reported_once(mock_factory, clock, buttons):
    mock_factory.pin(PINS["undo"]).drive_low()
    seen = [name for _ in range(20) for name in step(clock, buttons)]
    assert seen == ["undo"]
    mock_factory.pin(PINS["undo"]).drive_high()
    seen = [name for _ in range(20) for name in step(clock, buttons)]
    assert seen == []  # the release is not a press


def test_contact_bounce_gives_one_press(mock_factory, clock, buttons):
    pin = mock_factory.pin(PINS["new"])
    seen = []
    for level in (0, 1, 0, 1, 0):  # bounce, 2 ms apart
        (pin.drive_low if level == 0 else pin.drive_high)()
        seen += step(clock, buttons, 0.002)
    for _ in range(10):
        seen += step(clock, buttons)
    for level in (1, 0, 1):  # bounce on release
        (pin.drive_low if level == 0 else pin.drive_high)()
        seen += step(clock, buttons, 0.002)
    for _ in range(10):
        seen += step(clock, buttons)
    assert seen == ["new"]


def test_a_glitch_shorter_than_the_debounce_is_ignored(mock_factory, clock, buttons):
    pin = mock_factory.pin(PINS["hint"])
    pin.drive_low()
    assert step(clock, buttons) == []
    pin.drive_high()
    assert [n for _ in range(10) for n in step(clock, buttons)] == []


def test_two_presses_in_a_row(mock_factory, clock, buttons):
    pin = mock_factory.pin(PINS["menu"])
    seen = []
    for _ in range(2):
        pin.drive_low()
        seen += [n for _ in range(8) for n in step(clock, buttons)]
        pin.drive_high()
        seen += [n for _ in range(8) for n in step(clock, buttons)]
    assert seen == ["menu", "menu"]


def test_simultaneous_presses_come_in_button_order(mock_factory, clock, buttons):
    mock_factory.pin(PINS["hint"]).drive_low()
    mock_factory.pin(PINS["new"]).drive_low()
    seen = [n for _ in range(5) for n in step(clock, buttons)]
    assert seen == ["new", "hint"]


def test_a_button_held_at_start_is_not_a_press(mock_factory, clock):
    held = mock_factory.pin(PINS["new"], pin_class=WiredPin)
    held.pull_line(True)  # held down while the service starts
    b = GpioButtons(PINS, clock=clock)
    assert [n for _ in range(10) for n in step(clock, b)] == []
    b.close()


def test_only_configured_buttons_and_pullups(mock_factory, clock):
    b = GpioButtons({"undo": 6}, clock=clock)
    assert mock_factory.pin(6).pull == "up"
    mock_factory.pin(5).drive_low()  # a pin nobody configured
    assert [n for _ in range(10) for n in step(clock, b)] == []
    b.close()


def test_pin_in_use_is_a_button_error(mock_factory, clock):
    from gpiozero import LED

    blocker = LED(13)
    with pytest.raises(ButtonError, match="hint button on GPIO 13"):
        GpioButtons(PINS, clock=clock)
    blocker.close()


def test_unknown_button_name_is_refused(mock_factory):
    with pytest.raises(ValueError, match="resign"):
        GpioButtons({"resign": 5})


def test_no_buttons():
    assert NoButtons().pressed() == []
