"""The root of every error that morris-pi raises on purpose.

Each project error derives from ``MorrisPiError`` and from the builtin category that fits:
``ValueError`` for bad input (a turn, a record, a config, a trace), ``RuntimeError`` for a
part that fails although the input was fine (the hardware, the web server, a missing extra),
``OSError`` for a read the operating system failed (a trace on a failing SD card).
A caller catches one kind of the project's errors, or all of them:

>>> from morris_pi.rules import Game, IllegalTurnError
>>> try:
...     Game().play("d6-d5")
... except MorrisPiError as error:
...     print(type(error).__name__, isinstance(error, ValueError))
IllegalTurnError True

This module imports nothing, so every floor may import it (README, "Architecture").
"""

from __future__ import annotations

__all__ = ["MorrisPiError"]


class MorrisPiError(Exception):
    """Base class of every error morris-pi raises on purpose."""
