"""Argument types the commands share: each refuses a bad value with a line naming it.

>>> level("7")
7
>>> positive("0")
Traceback (most recent call last):
argparse.ArgumentTypeError: 0 is not at least 1
>>> probability("1.5")
Traceback (most recent call last):
argparse.ArgumentTypeError: must lie in 0..1, got 1.5
>>> seed("random"), seed("42")
('random', '42')
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TypeVar

_T = TypeVar("_T")


def _parsed(text: str, convert: Callable[[str], _T], refusal: str) -> _T:
    """``text`` converted, or ``refusal`` (with ``{text}``, the start of what was given) as the error."""
    try:
        return convert(text)
    except ValueError:
        raise argparse.ArgumentTypeError(refusal.format(text=repr(text[:20]))) from None


def positive(text: str) -> int:
    """A whole number of at least 1 (games, turns)."""
    value = _parsed(text, int, "{text} is not a whole number")
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is not at least 1")
    return value


def level(text: str) -> int:
    """A computer level, 1 to 10."""
    value = _parsed(text, int, "level must be a whole number 1-10, got {text}")
    if not 1 <= value <= 10:
        raise argparse.ArgumentTypeError(f"level must be 1-10, got {value}")
    return value


def probability(text: str) -> float:
    """A probability, 0 to 1 (how much mess)."""
    value = _parsed(text, float, "{text} is not a number")
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"must lie in 0..1, got {value}")
    return value


def seed(text: str) -> str:
    """A seed: a whole number, or ``random`` (drawn when the run starts, and printed)."""
    if text != "random":
        _parsed(text, int, "a whole number or 'random', got {text}")
    return text
