"""Push buttons on GPIO pins (new game, takeback, hint, menu), each optional.

Each button closes its GPIO to ground against the internal pull-up. Debounce
runs here on the injected clock, not in gpiozero (its mock pins ignore
``bounce_time``, and our clock must be the one the tests drive): a level
counts once it has stayed the same for ``debounce_s``. A press is reported
once, on the press itself rather than the release, so the board answers at
once. There is no long press: four buttons cover the board's needs, and the
menu button opens the set-up menu on the points, where every other choice is
made.

``pressed()`` samples the pins, so it must be called more often than the
shortest press (the service calls it every scan, 100 times a second by
default; a deliberate press lasts 50 ms or more).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from morris_pi.core.closing import Closeable
from morris_pi.core.ports import BUTTONS, Clock, MonotonicClock
from morris_pi.hw.errors import ButtonError


class _Debounced:
    """One input's debounced level on an injected clock."""

    def __init__(self, device: Any, now: float) -> None:
        self.device = device
        self.stable = bool(device.is_active)  # a button held at start-up is not a press
        self.raw = self.stable
        self.since = now

    def sample(self, now: float, debounce_s: float) -> bool:
        """True when the button has just become pressed."""
        raw = bool(self.device.is_active)
        if raw != self.raw:
            self.raw = raw
            self.since = now
        if raw != self.stable and now - self.since >= debounce_s:
            self.stable = raw
            return raw
        return False


class GpioButtons(Closeable):
    """A ``Buttons`` over gpiozero input devices with pull-ups: name -> BCM pin.

    >>> from gpiozero.pins.mock import MockFactory
    >>> with GpioButtons({"new": 5, "undo": 6}, pin_factory=MockFactory()) as buttons:
    ...     buttons
    <GpioButtons new=GPIO5 undo=GPIO6 held=[]>
    >>> buttons
    <GpioButtons closed>
    """

    def __init__(
        self,
        pins: Mapping[str, int],
        *,
        debounce_s: float = 0.03,
        clock: Clock | None = None,
        pin_factory: Any = None,
    ) -> None:
        # DigitalInputDevice rather than gpiozero's Button: Button adds a hold
        # thread per button, which we would never use (presses are sampled and
        # debounced here), and which costs a thread and a slow close.
        from gpiozero import DigitalInputDevice

        unknown = [name for name in pins if name not in BUTTONS]
        if unknown:
            raise ValueError(f"unknown button name(s) {', '.join(unknown)}; buttons are {', '.join(BUTTONS)}")
        self._clock = clock or MonotonicClock()
        self._debounce_s = debounce_s
        self._buttons: dict[str, _Debounced] = {}
        self._pins = {name: pins[name] for name in BUTTONS if name in pins}
        now = self._clock.now()
        for name in BUTTONS:  # fixed order: simultaneous presses come out in BUTTONS order
            if name not in pins:
                continue
            try:
                device = DigitalInputDevice(pins[name], pull_up=True, bounce_time=None, pin_factory=pin_factory)
            except Exception as exc:
                self.close()
                raise ButtonError(f"{name} button on GPIO {pins[name]}: {exc}") from exc
            self._buttons[name] = _Debounced(device, now)

    def pressed(self) -> list[str]:
        self._check_open("read the buttons")
        now = self._clock.now()
        return [name for name, button in self._buttons.items() if button.sample(now, self._debounce_s)]

    def _release(self) -> None:
        for button in self._buttons.values():
            button.device.close()
        self._buttons = {}

    def __repr__(self) -> str:
        if self.closed:
            return "<GpioButtons closed>"
        pins = " ".join(f"{name}=GPIO{pin}" for name, pin in self._pins.items())
        held = " ".join(name for name, button in self._buttons.items() if button.stable)
        return f"<GpioButtons {pins} held=[{held}]>"


class NoButtons(Closeable):
    """A board without buttons: everything is done through the set-up menu."""

    def pressed(self) -> list[str]:
        self._check_open("read the buttons")
        return []

    def __repr__(self) -> str:
        return "<NoButtons closed>" if self.closed else "<NoButtons>"
