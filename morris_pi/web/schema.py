"""One schema layer for every request body, query and path value the API reads.

A body is bytes from anyone on the LAN. ``parse_json`` bounds its nesting before ``json`` sees
it (a 100,000-deep array would otherwise end in RecursionError), refuses bytes that are not
UTF-8 and the non-JSON constants ``NaN``/``Infinity``; ``check`` then holds the object against
the route's fields: each value's type, its choices or pattern, and that every string is real
text (a lone surrogate, ``"\\ud800"``, would fail later when the answer is encoded). Whatever
is wrong ends in ``BadInput``, a 400 naming the field, and nothing else reaches a handler.

>>> check(parse_json(b'{"do": "hint"}'), {"do": Text(choices=("hint", "resign"))})
{'do': 'hint'}
>>> check(parse_json(b'{"do": []}'), {"do": Text(choices=("hint", "resign"))})
Traceback (most recent call last):
...
morris_pi.web.schema.BadInput: do: must be text, got a list
>>> parse_json(b"[" * 100_000)
Traceback (most recent call last):
...
morris_pi.web.schema.BadInput: the body nests deeper than 4 levels
>>> check(parse_json(b'{"pin": "\\\\ud800"}'), {"pin": Text()})
Traceback (most recent call last):
...
morris_pi.web.schema.BadInput: pin: must be text without lone surrogates, got '\\ud800'
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from morris_pi.errors import MorrisPiError

#: Most levels of nesting a body may have (the API's bodies are flat objects: 1).
MAX_DEPTH = 4


class BadInput(MorrisPiError, ValueError):
    """A body, query or path value the API refuses: ``status`` (400) and a sentence naming the field."""

    def __init__(self, message: str, *, field: str | None = None, status: int = 400) -> None:
        super().__init__(f"{field}: {message}" if field else message)
        self.field = field
        self.status = status


def shown(value: object, limit: int = 40) -> str:
    """``value`` for a message: its repr in ASCII (so a surrogate or an escape cannot break the
    answer or the log), cut to ``limit`` characters.

    >>> shown("a\\x1b[2J" + "x" * 50)
    "'a\\\\x1b[2Jxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx..."
    """
    text = ascii(value)
    return text if len(text) <= limit else text[:limit] + "..."


_KIND = {dict: "an object", list: "a list", str: "text", bool: "true or false", type(None): "null"}


def kind_of(value: object) -> str:
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number"
    return _KIND.get(type(value), type(value).__name__)


def depth_of(text: str, limit: int) -> int:
    """How deep ``text`` nests (``[``/``{`` outside strings), counting no further than ``limit + 1``."""
    depth = deepest = 0
    in_string = escaped = False
    for c in text:
        if in_string:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    return deepest
        elif c in "]}":
            depth -= 1
    return deepest


def _no_constant(name: str) -> Any:
    raise BadInput(f"the body is not JSON: {name} is not a JSON value")


def parse_json(raw: bytes, *, max_depth: int = MAX_DEPTH) -> Any:
    """The JSON value of a body (an empty body is ``{}``); ``BadInput`` says what is wrong."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadInput(f"the body is not UTF-8 text (byte {exc.start})") from None
    if not text.strip():
        return {}
    if depth_of(text, max_depth) > max_depth:
        raise BadInput(f"the body nests deeper than {max_depth} levels")
    try:
        return json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise BadInput(f"the body is not JSON: {exc.msg} at character {exc.pos}") from None
    except RecursionError:  # cannot happen below max_depth; kept so no input can raise it
        raise BadInput(f"the body nests deeper than {max_depth} levels") from None


def real_text(value: str, field: str) -> str:
    """``value`` if it encodes as UTF-8 (no lone surrogates), else ``BadInput``."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise BadInput(f"must be text without lone surrogates, got {shown(value)}", field=field) from None
    return value


@dataclass(frozen=True)
class Text:
    """A string: at most ``max_len`` characters, one of ``choices`` or matching ``pattern`` (whole)."""

    choices: tuple[str, ...] | None = None
    pattern: str | None = None
    max_len: int = 64
    says: str | None = None  # what the pattern means, for the message

    def check(self, field: str, value: Any) -> str:
        if not isinstance(value, str):
            raise BadInput(f"must be text, got {kind_of(value)}", field=field)
        real_text(value, field)
        if len(value) > self.max_len:
            raise BadInput(f"must be at most {self.max_len} characters, got {len(value)}", field=field)
        if self.choices is not None and value not in self.choices:
            raise BadInput(f"must be one of {', '.join(self.choices)}; got {shown(value)}", field=field)
        if self.pattern is not None and not re.fullmatch(self.pattern, value):
            raise BadInput(f"must be {self.says or 'of the form ' + self.pattern}, got {shown(value)}", field=field)
        return value


@dataclass(frozen=True)
class Integer:
    """A whole number (not ``true``/``false``) from ``low`` to ``high``."""

    low: int
    high: int

    def check(self, field: str, value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise BadInput(f"must be a whole number, got {kind_of(value)}", field=field)
        if not self.low <= value <= self.high:
            raise BadInput(f"must be from {self.low} to {self.high}, got {value}", field=field)
        return value


@dataclass(frozen=True)
class Number:
    """Any JSON number (not ``true``/``false``); the session judges its range."""

    def check(self, field: str, value: Any) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise BadInput(f"must be a number, got {kind_of(value)}", field=field)
        if isinstance(value, int) and abs(value) > 2**53:
            raise BadInput(f"must be a number of ordinary size, got {shown(value)}", field=field)
        return value


Field = Text | Integer | Number


def check(data: Any, fields: Mapping[str, Field], *, required: tuple[str, ...] = ()) -> dict[str, Any]:
    """``data`` as a checked object of ``fields`` (every one optional but ``required``)."""
    if not isinstance(data, dict):
        raise BadInput(f"the request body must be a JSON object, got {kind_of(data)}")
    out: dict[str, Any] = {}
    for key, value in data.items():
        if key not in fields:
            known = ", ".join(fields) or "none"
            raise BadInput(f"unknown field {shown(key)} (fields here: {known})")
        out[key] = fields[key].check(key, value)
    for key in required:
        if key not in out:
            raise BadInput("is missing", field=key)
    return out


def query(params: Mapping[str, str], name: str, field: Field) -> Any:
    """The query parameter ``name`` checked as ``field`` (``None`` when absent)."""
    value = params.get(name)
    return None if value is None else field.check(name, value)


#: A turn count in a query (``?ply=12``): ASCII digits, so ``"²"`` or ``"٣"`` never reach ``int``.
PLY = Text(pattern=r"[0-9]{1,4}", max_len=4, says="a whole number of turns (0-9999)")
#: A record id, a unique prefix of one, or ``latest``.
RECORD_ID = Text(pattern=r"[0-9A-Za-z][0-9A-Za-z-]{0,39}", max_len=40, says="a record id like 20250601-140322")
