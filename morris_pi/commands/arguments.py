"""Argument types the commands share: each refuses a bad value with a line naming it.

>>> level("7")
7
>>> positive("0")
Traceback (most recent call last):
argparse.ArgumentTypeError: 0 is not at least 1
"""

from __future__ import annotations

import argparse


def positive(text: str) -> int:
    """A whole number of at least 1 (games, turns)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:20]!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is not at least 1")
    return value


def level(text: str) -> int:
    """A computer level, 1 to 10."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"level must be a whole number 1-10, got {text[:20]!r}") from None
    if not 1 <= value <= 10:
        raise argparse.ArgumentTypeError(f"level must be 1-10, got {value}")
    return value
