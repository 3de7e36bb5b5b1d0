"""``morris-pi hwtest --learn``: write the switch map the self-test found into the config file.

Only the map table of the configured sensor backend changes
(``[sensors.mcp23017.map]``, ``[sensors.gpio.map]`` or ``[sensors.matrix.map]``):
each point's value is replaced on its own line, keeping the line's comment and
every other line of the file as it was. A file without that table gets it
appended. The new text is checked by loading it as a config before it
replaces the file, atomically (temporary file, fsync, rename), with the old
file's permissions.

>>> text = '[sensors]\\nbackend = "gpio"  # wired by hand\\n'
>>> print(rewrite_map(text, "gpio", {"a7": 3, "d7": 2}).splitlines()[-2:])
['a7 = 3', 'd7 = 2']
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from datetime import date
from pathlib import Path
from typing import Any

from morris_pi.config import wiring
from morris_pi.config.loader import parse_config
from morris_pi.config.model import Config
from morris_pi.config.tomlpos import key_lines
from morris_pi.core.safe_files import atomic_write_text
from morris_pi.errors import MorrisPiError
from morris_pi.hwtest.selftest import Report


class LearnError(MorrisPiError, ValueError):
    """The map cannot be learned or written; says why."""


def current_map(config: Config) -> dict[str, Any]:
    """The configured (or default) point -> input map of the selected sensor backend."""
    s = config.sensors
    return dict({"mcp23017": s.mcp23017.map, "gpio": s.gpio.map, "matrix": s.matrix.map}[s.backend])


def format_value(backend: str, value: Any) -> str:
    """A map value as the config writes it.

    >>> format_value("mcp23017", (0x21, 9)), format_value("gpio", 4), format_value("matrix", (1, 7))
    ('"0x21:B1"', '4', '[1, 7]')
    """
    if backend == "mcp23017":
        return f'"{wiring.mcp_bit_name(*value)}"'
    if backend == "matrix":
        return f"[{value[0]}, {value[1]}]"
    return str(value)


def learned_map(config: Config, report: Report) -> dict[str, Any]:
    """The map that makes every switch read as its own point.

    A point whose switch never closed (or is stuck) keeps its input. If that
    leaves two points on one input, the map cannot be learned: ``LearnError``
    names them.
    """
    current = current_map(config)
    new = dict(current)
    for point, read_as in report.reads().items():
        new[point] = current[read_as]
    owner: dict[Any, str] = {}
    for point in wiring.POINTS:
        value = new[point]
        if value in owner:
            backend = config.sensors.backend
            raise LearnError(
                f"{owner[value]} and {point} would both be on input {format_value(backend, value)}: "
                "fix the switches the report lists first, then learn again"
            )
        owner[value] = point
    return new


_LINE = r'^(?P<head>\s*(?:[A-Za-z0-9_"\'.-]+\.)?["\']?{point}["\']?\s*=\s*)(?P<value>.*?)(?P<tail>\s*(?:#.*)?)$'


def rewrite_map(text: str, backend: str, mapping: Mapping[str, Any]) -> str:
    """``text`` with the backend's map table set to ``mapping`` (points absent from it stay)."""
    table = ("sensors", backend, "map")
    lines_of = key_lines(text)
    lines = text.splitlines(keepends=True)
    found = {p: lines_of.get((*table, p)) for p in mapping}
    if table not in lines_of and not any(found.values()):
        block = [
            f"\n# Switch map learned by 'morris-pi hwtest --learn' on {date.today().isoformat()}.\n",
            f"[sensors.{backend}.map]\n",
        ]
        block += [f"{p} = {format_value(backend, mapping[p])}\n" for p in wiring.POINTS if p in mapping]
        if lines and not lines[-1].endswith("\n"):
            lines[-1] += "\n"
        return "".join(lines + block)
    numbered = {p: n for p, n in found.items() if n is not None}
    if len(set(numbered.values())) != len(numbered) or len(numbered) != len(found):
        raise LearnError(
            f"sensors.{backend}.map is not written one point per line; write it as a "
            f"[sensors.{backend}.map] table (as in wiring/config.example.toml) to use --learn"
        )
    for point, number in numbered.items():
        line = lines[number - 1]
        ending = "\n" if line.endswith("\n") else ""
        match = re.match(_LINE.format(point=re.escape(point)), line.rstrip("\n"))
        if match is None:
            raise LearnError(f"line {number}: cannot find the value of {point} to replace")
        lines[number - 1] = match["head"] + format_value(backend, mapping[point]) + match["tail"] + ending
    return "".join(lines)


def learn(path: Path, config: Config, report: Report) -> list[str]:
    """Write the learned map into the config file at ``path``; returns the changes made, in words."""
    backend = config.sensors.backend
    new = learned_map(config, report)
    old = current_map(config)
    changes = [
        f"{p}: {format_value(backend, old[p])} -> {format_value(backend, new[p])}"
        for p in wiring.POINTS
        if new[p] != old[p]
    ]
    if not changes:
        return []
    try:
        text = path.read_text(encoding="utf-8")
        mode = os.stat(path).st_mode & 0o7777
    except FileNotFoundError:
        text, mode = "", 0o644
    updated = rewrite_map(text, backend, new)
    check = parse_config(updated, str(path))
    if current_map(check) != new:
        raise LearnError(f"{path}: the rewritten map does not read back as learned; the file is unchanged")
    atomic_write_text(path, updated, mode=mode)
    return changes
