"""What a refused command line must say, in words that do not depend on the Python version.

argparse words its own errors, and the wording moves between releases: Python 3.11
writes ``invalid choice: 7``, 3.13 ``invalid choice: '7'``. What a user needs is the
option and the value that was refused, on argparse's error line; that is what is checked.

>>> refused(["usage: x", "x: error: argument --level: invalid choice: '7' (choose from 1, 2)"], "--level", "7")
True
>>> refused("x: error: argument --level: invalid choice: 7 (choose from 1, 2)", "--level", "7")
True
>>> refused("x: error: argument --level: invalid choice: 3 (choose from 1, 2, 7)", "--level", "7")
False
"""

from __future__ import annotations

import re


def refused(err: str | list[str], option: str, value: str) -> bool:
    """``err``'s error line names ``option`` and, after it, ``value`` (bare or quoted) as the one refused."""
    lines = err if isinstance(err, list) else err.strip().splitlines()
    line = next((text for text in reversed(lines) if "error:" in text), "")
    head, found, rest = line.partition(option)
    if not found or "error:" not in head:
        return False
    # the refused value comes before argparse's list of the choices, if it gives one
    said = rest.split("(choose from", 1)[0]
    return re.search(rf"(?<![\w.-])['\"]?{re.escape(value)}['\"]?(?![\w.-])", said) is not None
