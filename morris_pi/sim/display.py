"""Is there a screen to open the window on? Said in one line when there is not.

Without a display SDL quietly falls back to an offscreen driver: the window
would then run, invisible, until killed. So the window is opened only when

* ``SDL_VIDEODRIVER`` names a driver (a real one such as ``x11``, ``wayland``
  or ``kmsdrm``, or a headless one: ``dummy`` or ``offscreen`` is the caller
  saying "I know there is no screen", as the tests, ``docs/make_screenshots.py``
  and ``bench/sim_idle.py`` do), or
* on Linux and the other Unixes, ``DISPLAY`` or ``WAYLAND_DISPLAY`` is set
  (macOS and Windows always have a screen),

and, once SDL is up, only if it did not fall back to a headless driver that
nobody asked for (``DISPLAY`` set, but no X server answers there).

>>> missing_display({}, "linux")
'no display to open the window on (DISPLAY and WAYLAND_DISPLAY are not set)'
>>> missing_display({"DISPLAY": ":0"}, "linux") is None
True
>>> missing_display({"SDL_VIDEODRIVER": "dummy"}, "linux") is None
True
>>> unrequested_fallback("offscreen", {"DISPLAY": ":7"})
'no display to open the window on (SDL could not reach DISPLAY=:7 and fell back to its offscreen driver)'
>>> unrequested_fallback("offscreen", {"SDL_VIDEODRIVER": "offscreen"}) is None
True
"""

from __future__ import annotations

import sys
from collections.abc import Mapping

from morris_pi.errors import MorrisPiError

#: SDL's drivers that draw into memory only: nothing appears on any screen.
HEADLESS_DRIVERS = frozenset({"dummy", "offscreen", "evdev"})
#: Platforms where SDL always has a screen to open a window on.
DESKTOPS = ("darwin", "win32", "cygwin")
#: How to run the window without a screen, on purpose (the second half of the message).
HOW_HEADLESS = (
    "to run headless on purpose set SDL_VIDEODRIVER=dummy (nothing is shown: the tests in tests/test_sim_*.py, "
    "docs/make_screenshots.py and 'morris-pi hwtest --sim --auto' drive it that way), or run under xvfb-run; "
    "see docs/simulator.md"
)


class NoDisplayError(MorrisPiError, RuntimeError):
    """There is no screen for the window, and nobody asked for a headless one.

    ``str()`` is the whole line (why, and how to run headless); ``problem`` only the why.
    """

    def __init__(self, problem: str) -> None:
        super().__init__(message(problem))
        self.problem = problem


def requested_drivers(environ: Mapping[str, str]) -> list[str]:
    """The video drivers ``SDL_VIDEODRIVER`` names (SDL accepts a comma-separated list).

    >>> requested_drivers({"SDL_VIDEODRIVER": " X11, wayland "})
    ['x11', 'wayland']
    """
    return [name.strip().lower() for name in environ.get("SDL_VIDEODRIVER", "").split(",") if name.strip()]


def headless_requested(environ: Mapping[str, str]) -> bool:
    """Whether the caller asked for a window that no screen shows (``SDL_VIDEODRIVER=dummy``)."""
    return any(name in HEADLESS_DRIVERS for name in requested_drivers(environ))


def missing_display(environ: Mapping[str, str], platform: str = sys.platform) -> str | None:
    """Why no window can be shown, before SDL is started; ``None`` when one can (or a driver was named)."""
    if requested_drivers(environ) or platform.startswith(DESKTOPS):
        return None
    if environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY"):
        return None
    return "no display to open the window on (DISPLAY and WAYLAND_DISPLAY are not set)"


def unrequested_fallback(driver: str, environ: Mapping[str, str]) -> str | None:
    """Why the window would be invisible once SDL chose ``driver``; ``None`` if it shows, or was meant not to."""
    if driver.lower() not in HEADLESS_DRIVERS or headless_requested(environ):
        return None
    where = [f"{name}={environ[name]}" for name in ("DISPLAY", "WAYLAND_DISPLAY") if environ.get(name)]
    reach = f"SDL could not reach {' or '.join(where)}" if where else "SDL found no screen"
    return f"no display to open the window on ({reach} and fell back to its {driver} driver)"


def message(problem: str) -> str:
    """The one line a command prints: what is wrong, then how to run headless."""
    return f"{problem}; {HOW_HEADLESS}"
