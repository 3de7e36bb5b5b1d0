"""Typed reading of TOML values, with errors that name file, line and key.

A wrong value does not stop the reading: ``Reader`` records its error, the
key's default stands in for it, and reading goes on, so one run reports every
mistake in the file (``ConfigError.errors``) instead of one per edit-and-retry.
"""

from __future__ import annotations

import difflib
import functools
import re
import tomllib
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, NoReturn, ParamSpec, TypeVar, cast

from morris_pi.config import wiring
from morris_pi.config.tomlpos import key_lines, locate
from morris_pi.errors import MorrisPiError

KeyPath = tuple[str, ...]
P = ParamSpec("P")
R = TypeVar("R")

#: A TOML table as tomllib parses it; its values are checked by the reader, key by key.
Table = dict[str, Any]


class ConfigError(MorrisPiError, ValueError):
    """A config that cannot be used. ``file``, ``line`` and ``key`` say where.

    >>> str(ConfigError("must be true or false", file="c.toml", key="game.menu", line=3))
    'c.toml:3: game.menu: must be true or false'

    A file with several mistakes raises one ``ConfigError`` holding them all in
    ``errors`` (one line each, in file order); its own ``file``, ``line``,
    ``key`` and ``reason`` are the first one's.

    >>> both = ConfigError.of([ConfigError("b", file="c.toml", key="y", line=9),
    ...                        ConfigError("a", file="c.toml", key="x", line=2)])
    >>> print(both)
    c.toml:2: x: a
    c.toml:9: y: b
    >>> both.key, len(both.errors)
    ('x', 2)
    """

    def __init__(
        self, message: str, *, file: str | None = None, key: str | None = None, line: int | None = None
    ) -> None:
        self.file = file
        self.key = key
        self.line = line
        self.reason = message
        self.errors: list[ConfigError] = [self]
        where = file or "<config>"
        if line is not None:
            where += f":{line}"
        super().__init__(f"{where}: {key}: {message}" if key else f"{where}: {message}")

    @classmethod
    def of(cls, errors: list[ConfigError]) -> ConfigError:
        """One error carrying all of ``errors``, sorted by line (stable for equal lines)."""
        ordered = sorted(errors, key=lambda e: e.line if e.line is not None else 0)
        first = ordered[0]
        combined = cls(first.reason, file=first.file, key=first.key, line=first.line)
        combined.errors = ordered
        combined.args = ("\n".join(str(e) for e in ordered),)
        return combined

    def __str__(self) -> str:
        return str(self.args[0])

    @classmethod
    def from_toml(cls, exc: tomllib.TOMLDecodeError, file: str, source: str) -> ConfigError:
        """Wrap a TOML syntax error, keeping the line tomllib names in its message."""
        text = str(exc)
        found = re.search(r"\(at line (\d+), column \d+\)", text)
        if found:
            return cls(f"not valid TOML: {text[: found.start()].strip()}", file=file, line=int(found.group(1)))
        end = re.search(r"\(at end of document\)", text)
        line = max(1, len(source.splitlines())) if end else None
        reason = text[: end.start()].strip() if end else text
        return cls(f"not valid TOML: {reason} (at the end of the file)", file=file, line=line)


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "a table"
    return type(value).__name__


def _suggest(word: str, choices: Iterable[str]) -> str:
    close = difflib.get_close_matches(word, list(choices), n=1)
    return f"; did you mean {close[0]!r}?" if close else ""


_MCP_INPUT = re.compile(r"^0x([0-9a-fA-F]{2}):(?:GP)?([ABab])([0-7])$")
_COLOUR = re.compile(r"^#([0-9a-fA-F]{6})$")


class Invalid(MorrisPiError, ValueError):
    """A value could not be used; its ``ConfigError`` is already recorded by the ``Reader``."""


def _or_default(method: Callable[P, R]) -> Callable[P, R]:
    """A reader method whose bad value is recorded and replaced by its ``default`` argument."""

    @functools.wraps(method)
    def read(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return method(*args, **kwargs)
        except Invalid:
            default = kwargs["default"] if "default" in kwargs else args[_DEFAULT_ARG[method.__name__]]
            return cast(R, default)  # the method's own ``default`` parameter, declared as its result type

    return read


# position of ``default`` among the arguments, ``self`` first
_DEFAULT_ARG = {"choice": 5, "integer": 4, "number": 4, "boolean": 4, "abs_path": 4, "int_list": 4}


class Reader:
    """Reads values out of parsed TOML tables, recording a located error for each bad one.

    ``fail`` records an error and raises ``Invalid``: the methods that take a
    ``default`` return it instead, and the caller of any other method decides
    what stands in (``guard``). ``report`` records without interrupting.
    ``errors`` holds them all; ``bad`` the keys that had one, so later checks
    do not pile a second, derived error on the same key.
    """

    def __init__(self, text: str, source: str) -> None:
        self.source = source
        self.lines = key_lines(text)
        self.errors: list[ConfigError] = []
        self.bad: set[KeyPath] = set()

    # -- errors -----------------------------------------------------------
    def _bare(self, path: KeyPath) -> KeyPath:
        return tuple(part.split("[", 1)[0] for part in path)

    def present(self, path: KeyPath) -> bool:
        """Whether ``path`` is written in the file (not a default)."""
        return self._bare(path) in self.lines

    def report(self, path: KeyPath, message: str) -> None:
        """Record an error at ``path`` and go on."""
        self.errors.append(
            ConfigError(message, file=self.source, key=".".join(path), line=locate(self.lines, self._bare(path)))
        )
        self.bad.add(self._bare(path))

    def fail(self, path: KeyPath, message: str) -> NoReturn:
        """Record an error at ``path`` and abandon the value being read."""
        self.report(path, message)
        raise Invalid(".".join(path))

    def is_bad(self, path: KeyPath) -> bool:
        """Whether ``path``, or a table above it, already has an error."""
        bare = self._bare(path)
        return any(bare[:cut] in self.bad for cut in range(1, len(bare) + 1))

    def guard(self, read: Callable[[], R], default: R) -> R:
        """``read()``, or ``default`` when it fails (its error is recorded)."""
        try:
            return read()
        except Invalid:
            return default

    def raise_errors(self) -> None:
        """Raise every recorded error at once, if there are any."""
        if self.errors:
            raise ConfigError.of(self.errors)

    # -- tables -----------------------------------------------------------
    def table(self, path: KeyPath, value: Any, allowed: Iterable[str]) -> Table:
        allowed = tuple(allowed)
        if not isinstance(value, dict):
            self.fail(path, f"must be a table, got {_kind(value)}")
        for key in value:
            if key not in allowed:
                where = f"[{'.'.join(path)}]" if path else "the top level"
                shown = ", ".join(allowed) if len(allowed) <= 16 else "see wiring/config.example.toml"
                self.report((*path, key), f"unknown key in {where}{_suggest(key, allowed)} (known: {shown})")
        return value

    def point_table(self, path: KeyPath, value: Any) -> Table:
        """A table keyed by point names (check ``all_points`` once its values are read)."""
        return self.table(path, value, wiring.POINTS)

    def all_points(self, path: KeyPath, value: Table) -> None:
        missing = [p for p in wiring.POINTS if p not in value]
        if missing:
            self.report(path, f"every point needs an entry; missing: {', '.join(missing)}")

    # -- scalars ----------------------------------------------------------
    @_or_default
    def choice(self, path: KeyPath, t: Table, key: str, choices: tuple[object, ...], default: Any) -> Any:
        if key not in t:
            return default
        value = t[key]
        if value not in choices or isinstance(value, bool):
            shown = ", ".join(repr(c) if isinstance(c, str) else str(c) for c in choices)
            hint = _suggest(value, [str(c) for c in choices]) if isinstance(value, str) else ""
            self.fail((*path, key), f"must be one of {shown}, got {value!r}{hint}")
        return value

    @_or_default
    def integer(self, path: KeyPath, t: Table, key: str, default: int, lo: int, hi: int) -> int:
        if key not in t:
            return default
        return self._int((*path, key), t[key], lo, hi)

    def _int(self, path: KeyPath, value: Any, lo: int, hi: int, hexa: bool = False) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(path, f"must be an integer, got {_kind(value)}")
        if not lo <= value <= hi:
            fmt = (lambda v: f"0x{v:02x}") if hexa else str
            self.fail(path, f"must be between {fmt(lo)} and {fmt(hi)}, got {fmt(value)}")
        return value

    @_or_default
    def number(self, path: KeyPath, t: Table, key: str, default: float, lo: float, hi: float) -> float:
        if key not in t:
            return float(default)
        value = t[key]
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            self.fail((*path, key), f"must be a number, got {_kind(value)}")
        if not lo <= value <= hi:
            self.fail((*path, key), f"must be between {lo:g} and {hi:g}, got {value:g}")
        return float(value)

    @_or_default
    def boolean(self, path: KeyPath, t: Table, key: str, default: bool) -> bool:
        if key not in t:
            return default
        if not isinstance(t[key], bool):
            self.fail((*path, key), f"must be true or false, got {_kind(t[key])}")
        return bool(t[key])

    def gpio(self, path: KeyPath, value: Any) -> int:
        """A BCM GPIO number on the 40-pin header."""
        return self._int(path, value, 0, wiring.MAX_GPIO)

    @_or_default
    def abs_path(self, path: KeyPath, t: Table, key: str, default: Path) -> Path:
        if key not in t:
            return default
        value = t[key]
        if not isinstance(value, str) or not value:
            self.fail((*path, key), f"must be a directory path (a string), got {_kind(value)}")
        if not value.startswith("/"):
            self.fail((*path, key), f"must be an absolute path, got {value!r}")
        return Path(value)

    def colour(self, path: KeyPath, value: Any) -> tuple[int, int, int]:
        if not isinstance(value, str) or not _COLOUR.match(value):
            self.fail(path, f'must be a colour written "#rrggbb", got {value!r}')
        h = value[1:]
        return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)

    # -- arrays and wiring values ----------------------------------------
    @_or_default
    def int_list(
        self,
        path: KeyPath,
        t: Table,
        key: str,
        default: tuple[int, ...],
        lo: int,
        hi: int,
        *,
        min_len: int = 0,
        max_len: int = 64,
        unique: bool = False,
        hexa: bool = False,
    ) -> tuple[int, ...]:
        if key not in t:
            return tuple(default)
        value = t[key]
        kp = (*path, key)
        if not isinstance(value, list):
            self.fail(kp, f"must be an array of integers, got {_kind(value)}")
        if not min_len <= len(value) <= max_len:
            self.fail(kp, f"must have {min_len} to {max_len} entries, got {len(value)}")
        out = tuple(self._int((*path, f"{key}[{i}]"), v, lo, hi, hexa) for i, v in enumerate(value))
        if unique:
            for i, v in enumerate(out):
                if v in out[:i]:
                    self.fail((*path, f"{key}[{i}]"), f"{v:#04x} is listed twice" if hexa else f"{v} is listed twice")
        return out

    def mcp_input(self, path: KeyPath, value: Any) -> tuple[int, int]:
        """``"0x20:A0"`` (or ``"0x20:GPB2"``) -> (0x20, bit 0..15); GPA7 and GPB7 are refused."""
        found = _MCP_INPUT.match(value) if isinstance(value, str) else None
        if not found:
            self.fail(path, f'must name an expander input like "0x20:A0" or "0x21:B2", got {value!r}')
        address = int(found.group(1), 16)
        port, number = found.group(2).upper(), int(found.group(3))
        if number == 7:
            self.fail(
                path,
                f"GP{port}7 cannot be a switch input: since revision D of the MCP23017 datasheet "
                "GPA7 and GPB7 are outputs only (as inputs they can corrupt SDA during a read); "
                "use one of GPA0-6 or GPB0-6",
            )
        return address, (8 if port == "B" else 0) + number

    def cell(self, path: KeyPath, value: Any, rows: int, cols: int) -> tuple[int, int]:
        if (
            not isinstance(value, list)
            or len(value) != 2
            or any(isinstance(v, bool) or not isinstance(v, int) for v in value)
        ):
            self.fail(path, f"must be [row, column] (two integers), got {value!r}")
        r, c = value
        if not 0 <= r < rows:
            self.fail(path, f"row {r} does not exist; rows are 0-{rows - 1}")
        if not 0 <= c < cols:
            self.fail(path, f"column {c} does not exist; columns are 0-{cols - 1}")
        return r, c

    def led_order(self, path: KeyPath, value: Any) -> tuple[str | None, ...]:
        """Chain order: a point name per LED, ``""`` for a LED that lights no point."""
        if not isinstance(value, list):
            self.fail(path, f"must be an array of point names, got {_kind(value)}")
        seen: dict[str, int] = {}
        out: list[str | None] = []
        parent, key = path[:-1], path[-1]
        for i, name in enumerate(value):
            ip = (*parent, f"{key}[{i}]")
            if not isinstance(name, str):
                self.fail(ip, f'must be a point name or "", got {_kind(name)}')
            if name == "":
                out.append(None)
                continue
            if name not in wiring.POINTS:
                self.fail(ip, f"unknown point {name!r}{_suggest(name, wiring.POINTS)}")
            if name in seen:
                self.fail(ip, f"point {name!r} appears twice (also at index {seen[name]})")
            seen[name] = i
            out.append(name)
        missing = [p for p in wiring.POINTS if p not in seen]
        if missing:
            self.fail(path, f"every point needs a LED; missing: {', '.join(missing)}")
        return tuple(out)
