"""The save of the game in progress: one JSON document, its format named and versioned.

The save is JSON rather than TOML because the standard library both reads and
writes JSON, because any game text nests in it safely as one escaped string,
and because a file cut short anywhere fails to parse instead of reading as a
shorter but valid file. ``morris_pi.core.storage`` writes it atomically and
moves aside a save that ``parse_save`` refuses.

>>> from datetime import UTC, datetime
>>> from morris_pi.rules import Game
>>> text = save_document(Game.from_record("d6 a1"), {"mode": "two-player"}, datetime(2026, 1, 2, tzinfo=UTC))
>>> game, meta = parse_save(text.encode(), Game)
>>> game.record, meta
('d6 a1', {'mode': 'two-player'})
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from morris_pi.core.record_format import StorageError
from morris_pi.core.safe_files import UnreadableFile

#: Identifies a save file and its layout version; ``parse_save`` refuses others.
SAVE_FORMAT = "morris-pi/save"
SAVE_VERSION = 1

#: The largest save read. A real one is a few kB even for a 1,000-turn game;
#: anything bigger is not a save, and reading it whole could exhaust a Pi's memory.
MAX_SAVE_BYTES = 1 << 20


def save_document(game: Any, meta: Mapping[str, Any], saved_at: datetime) -> str:
    """The text of a save of ``game`` with its ``meta`` data; ``StorageError`` if ``meta`` is not plain JSON data."""
    document = {
        "format": SAVE_FORMAT,
        "version": SAVE_VERSION,
        "saved_at": saved_at.isoformat(timespec="seconds"),
        "meta": dict(meta),
        "game": game.to_text(),
    }
    try:
        return json.dumps(document, indent=2, sort_keys=False, allow_nan=False) + "\n"
    except (TypeError, ValueError) as exc:
        raise StorageError(f"cannot save the game: its meta data is not plain JSON data ({exc})") from None


def parse_save(raw: bytes, game_type: Any) -> tuple[Any, dict[str, Any]]:
    """The game and meta data in the bytes of a save; ``UnreadableFile`` says what is wrong.

    Any failure, whatever its exception (deep nesting, a number too long to
    convert, a game text the rules refuse), is turned into ``UnreadableFile``.

    >>> parse_save(b"[" * 100000, None)
    Traceback (most recent call last):
    ...
    morris_pi.core.safe_files.UnreadableFile: not valid JSON: nested too deeply
    """
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UnreadableFile(f"not UTF-8 text (byte {exc.start})") from None
    if not text.strip():
        raise UnreadableFile("empty file")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UnreadableFile(f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    except RecursionError:
        raise UnreadableFile("not valid JSON: nested too deeply") from None
    except Exception as exc:  # e.g. ValueError for an integer of thousands of digits
        raise UnreadableFile(f"not valid JSON: {_short(exc)}") from None
    problem = _check_save(data)
    if problem:
        raise UnreadableFile(problem)
    try:
        game = game_type.from_text(data["game"])
    except RecursionError:
        raise UnreadableFile("the game in it is inconsistent: nested too deeply") from None
    except Exception as exc:
        raise UnreadableFile(f"the game in it is inconsistent: {_short(exc)}") from None
    return game, dict(data["meta"])


def _short(exc: BaseException, limit: int = 200) -> str:
    """An exception's message, cut to ``limit`` characters (a bad value can be megabytes)."""
    text = str(exc) or type(exc).__name__
    return text if len(text) <= limit else text[:limit] + "..."


def _check_save(data: Any) -> str | None:
    """What is wrong with a parsed save document, or ``None``."""
    if not isinstance(data, dict):
        return f"expected a JSON object, found {type(data).__name__}"
    if data.get("format") != SAVE_FORMAT:
        return f"format is {data.get('format')!r}, expected {SAVE_FORMAT!r}"
    version = data.get("version")
    if version != SAVE_VERSION:
        return f"format version {version!r}, this program reads version {SAVE_VERSION}"
    if not isinstance(data.get("meta"), dict):
        return "'meta' is missing or not an object"
    if not isinstance(data.get("game"), str):
        return "'game' is missing or not text"
    return None
