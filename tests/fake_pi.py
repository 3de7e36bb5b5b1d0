"""The board service on a pretend Raspberry Pi 4 whose Python lacks ``gpiod``.

Run as a script (in a process of its own, because Adafruit Blinka decides
which board it is on once per process)::

    BLINKA_FORCEBOARD=RASPBERRY_PI_4B BLINKA_FORCECHIP=BCM2XXX python tests/fake_pi.py CONFIG.toml SECONDS [--fake-leds]

Blinka then takes the real Raspberry Pi import path, which needs ``gpiod``;
an import hook makes that package (and ``lgpio``) absent even where it
happens to be installed. The LEDs are opened for real, unless ``--fake-leds``
gives the ``neopixel`` backend an emulated pixel buffer; the sensors are
emulated MCP23017 chips, with the pin factory (for an INT line or buttons)
opened for real. The real service loop runs on a manual clock for SECONDS of
board time, during which a man is put on d6. The outcome is one JSON line on
stdout; the log goes to stderr.
"""

from __future__ import annotations

import importlib.abc
import json
import logging
import sys
from pathlib import Path

if __name__ == "__main__":  # run as a script from anywhere: import the package from the checkout
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


class NoGpiod(importlib.abc.MetaPathFinder):
    """``import gpiod`` (and ``lgpio``) fail as they do where the package is not installed."""

    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("gpiod", "lgpio"):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)


def main(config_path: str, seconds: float, fake_leds: bool = False) -> dict:
    from morris_pi.config.loader import load_config
    from morris_pi.core.ports import ManualClock
    from morris_pi.guidance import DEFAULT_PALETTE
    from morris_pi.hw.fakes.i2c import FakeMcp23017, FakeSMBus
    from morris_pi.hw.fakes.pixels import FakePixels
    from morris_pi.service.loop import run_service
    from morris_pi.service.sdnotify import Notifier

    class Recording(Notifier):
        def __init__(self) -> None:
            super().__init__(env={})
            self.sent: list[str] = []

        def notify(self, *fields: str) -> bool:
            self.sent.extend(fields)
            return True

    config = load_config(config_path)
    clock = ManualClock(1000.0)
    chips = {address: FakeMcp23017(address) for address in config.sensors.mcp23017.addresses}
    notifier = Recording()
    seen: dict = {}
    pixels = FakePixels(config.leds.count) if fake_leds else None
    error_lit: set[str] = set()
    error = DEFAULT_PALETTE["error"].colour

    def sleep(step: float) -> None:
        if pixels is not None:
            error_lit.update(p for p, c in zip(config.leds.order, pixels.colours(), strict=False) if p and c == error)
        before = clock.now()
        clock.advance(step)
        if before < 1002.0 <= clock.now():  # two seconds in: a man on d6
            address, bit = config.sensors.mcp23017.map["d6"]
            chips[address].close_switch(bit)

    code = run_service(
        config,
        clock=clock,
        sleep=sleep,
        stop=lambda: clock.now() >= 1000.0 + seconds,
        notifier=notifier,
        env={},
        bus=FakeSMBus(*chips.values()),
        pixels=pixels,
        observe=lambda session: seen.setdefault("session", session),
    )
    session = seen["session"]
    return {
        "exit": code,
        "faults": dict(session.all_faults()),
        "record": session.controller.game.record if session.controller is not None else None,
        "notified": notifier.sent,
        "error_lit": sorted(error_lit),
    }


if __name__ == "__main__":
    sys.meta_path.insert(0, NoGpiod())
    logging.basicConfig(stream=sys.stderr, level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    print(json.dumps(main(sys.argv[1], float(sys.argv[2]), fake_leds="--fake-leds" in sys.argv[3:])))
