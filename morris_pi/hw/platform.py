"""Whether the GPIO library the config names can work on this machine.

``[gpio] pin_factory = "rpigpio"`` drives the pins through the ``RPi.GPIO``
module. Two packages provide that module, and they cannot be installed
together (both write ``RPi/GPIO``):

- **rpi-lgpio** (in the ``pi`` extra, and Raspberry Pi OS Bookworm's
  ``python3-rpi-lgpio``): the RPi.GPIO API on top of lgpio. It works on every
  supported Pi, the Pi 5 included, on any kernel.
- **RPi.GPIO** itself: it cannot detect edges on Linux 6.6 and later (the
  kernel stopped numbering the main GPIO chip from 0; gpiozero issue 1136),
  and gpiozero asks for edges on every input, so no switch or button could be
  read. It has no Pi 5 support at all.

So the original RPi.GPIO is refused, with the reason, where it cannot work;
the software still never picks a backend by itself. The facts are gathered in
``Machine`` so the decision is a pure function:

>>> old = Machine(model="Raspberry Pi 4 Model B Rev 1.5", kernel=(6, 1), rpi_gpio=("RPi.GPIO",))
>>> rpigpio_problem(old) is None
True
>>> pi4 = Machine(model="Raspberry Pi 4 Model B Rev 1.5", kernel=(6, 12), rpi_gpio=("RPi.GPIO",))
>>> print(rpigpio_problem(pi4))  # doctest: +NORMALIZE_WHITESPACE
the installed RPi.GPIO cannot detect edges on Linux 6.6 and later (this is 6.12; gpiozero issue 1136),
    and every switch and button input needs them; replace it with rpi-lgpio, which provides the same
    RPi.GPIO module on lgpio (pip uninstall RPi.GPIO, then pip install rpi-lgpio), or set pin_factory = "lgpio"
>>> rpigpio_problem(Machine(model="Raspberry Pi 5 Model B Rev 1.0", kernel=(6, 12), rpi_gpio=("rpi-lgpio",))) is None
True
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from morris_pi.config.loader import error_at
from morris_pi.config.model import Config

_FIX = (
    "replace it with rpi-lgpio, which provides the same RPi.GPIO module on lgpio "
    '(pip uninstall RPi.GPIO, then pip install rpi-lgpio), or set pin_factory = "lgpio"'
)


@dataclass(frozen=True)
class Machine:
    """What decides whether a GPIO library can work here."""

    #: ``/proc/device-tree/model``, e.g. "Raspberry Pi 5 Model B Rev 1.0"; None off a Pi
    model: str | None
    #: the running kernel's (major, minor)
    kernel: tuple[int, int] | None
    #: the distributions that install the module ``RPi.GPIO`` ("rpi-lgpio", "RPi.GPIO")
    rpi_gpio: tuple[str, ...]

    @classmethod
    def here(cls) -> Machine:
        try:
            model: str | None = Path("/proc/device-tree/model").read_text(errors="replace").strip("\0\n ")
        except OSError:
            model = None
        found = re.match(r"(\d+)\.(\d+)", os.uname().release)
        kernel = (int(found.group(1)), int(found.group(2))) if found else None
        providers = metadata.packages_distributions().get("RPi", [])
        return cls(model=model, kernel=kernel, rpi_gpio=tuple(sorted(set(providers))))

    @property
    def pi5(self) -> bool:
        return bool(self.model and re.search(r"Raspberry Pi (5|500)\b|Compute Module 5", self.model))


def rpigpio_problem(machine: Machine) -> str | None:
    """Why ``pin_factory = "rpigpio"`` cannot work on ``machine``, or None.

    A missing module is not a problem here: opening the pin factory reports
    it, as for any other missing package.
    """
    names = {name.lower().replace("_", "-").replace(".", "-") for name in machine.rpi_gpio}
    if "rpi-gpio" not in names:
        return None
    if "rpi-lgpio" in names:
        return (
            "both RPi.GPIO and rpi-lgpio are installed, and they install the same module; "
            "keep rpi-lgpio: pip uninstall RPi.GPIO, then pip install --force-reinstall rpi-lgpio"
        )
    if machine.pi5:
        return f"the installed RPi.GPIO does not support the {machine.model}; {_FIX}"
    if machine.kernel is not None and machine.kernel >= (6, 6):
        return (
            "the installed RPi.GPIO cannot detect edges on Linux 6.6 and later "
            f"(this is {machine.kernel[0]}.{machine.kernel[1]}; gpiozero issue 1136), and every switch "
            f"and button input needs them; {_FIX}"
        )
    return None


def gpio_pins_used(config: Config) -> bool:
    """Whether the configured hardware opens a gpiozero pin factory at all."""
    s = config.sensors
    return (
        s.backend in ("gpio", "matrix")
        or (s.backend == "mcp23017" and bool(s.mcp23017.interrupt_pins))
        or bool(config.buttons.pins)
    )


def check(config: Config, machine: Machine | None = None) -> None:
    """Raise a ``ConfigError`` at ``gpio.pin_factory`` if the chosen GPIO library cannot work here."""
    if config.gpio.pin_factory != "rpigpio" or not gpio_pins_used(config):
        return
    problem = rpigpio_problem(machine or Machine.here())
    if problem is not None:
        raise error_at(config, "gpio.pin_factory", f'"rpigpio" cannot work here: {problem}')
