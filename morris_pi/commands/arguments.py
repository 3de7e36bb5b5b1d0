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


def probability(text: str) -> float:
    """A probability, 0 to 1 (how much mess)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:20]!r} is not a number") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"must lie in 0..1, got {value}")
    return value


def seed(text: str) -> str:
    """A seed: a whole number, or ``random`` (drawn when the run starts, and printed)."""
    if text != "random":
        try:
            int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"a whole number or 'random', got {text[:20]!r}") from None
    return text
