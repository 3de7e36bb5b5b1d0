"""The record of a finished game as a file: PGN-like tag lines, a blank line, the turns.

::

    [Event "Casual game"]
    [White "Player"]
    [Result "1-0"]

    d6 a1 f4 ...

Tag values are one line each, with ``\\`` and ``"`` escaped. ``Storage``
(``morris_pi.core.storage``) keeps one such file per game; this module only
writes and reads the text.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from morris_pi.errors import MorrisPiError
from morris_pi.rules import Side, other_side

#: Tags written first, in this order; any further tags follow alphabetically.
RECORD_TAGS: tuple[str, ...] = (
    "Event",
    "Site",
    "Date",
    "Time",
    "White",
    "Black",
    "Profile",
    "Result",
    "Reason",
    "Turns",
)

_TAG_LINE = re.compile(r'^\[([A-Za-z][A-Za-z0-9_]*) "((?:[^"\\]|\\.)*)"\]$')


class StorageError(MorrisPiError, ValueError):
    """Bad input to storage: an unknown record id, a record file that does not parse, ..."""


class RecordExistsError(StorageError):
    """The file a record is to be exported to exists already (and overwriting was not allowed)."""

    def __init__(self, path: Path, what: str = "a file") -> None:
        super().__init__(f"{path} already exists ({what}); choose another name or allow overwriting")
        self.path = path
        self.what = what


class RecordNotFoundError(StorageError):
    """No record has the given id."""


@dataclass(frozen=True)
class Record:
    """One finished game as stored: its id, file, header tags and notation."""

    id: str
    path: Path
    tags: dict[str, str] = field(default_factory=dict)
    record: str = ""
    error: str | None = None  # why the file could not be parsed, if it could not

    @property
    def turns(self) -> list[str]:
        return self.record.split()


def _escape(value: str) -> str:
    value = " ".join(str(value).split())  # tag values are one line
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def format_record(tags: Mapping[str, str], record: str, width: int = 79) -> str:
    """The text of a record file: tag lines, a blank line, the turns wrapped at ``width``.

    >>> print(format_record({"Result": "1-0", "Event": "Casual game"}, "d6 a1 f4"))
    [Event "Casual game"]
    [Result "1-0"]
    <BLANKLINE>
    d6 a1 f4
    <BLANKLINE>
    """
    ordered = [t for t in RECORD_TAGS if t in tags] + sorted(t for t in tags if t not in RECORD_TAGS)
    lines = []
    for name in ordered:
        if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", name):
            raise StorageError(f"record tag name {name!r} must be letters, digits and '_'")
        lines.append(f'[{name} "{_escape(tags[name])}"]')
    lines.append("")
    row: list[str] = []
    for token in record.split():
        if row and len(" ".join([*row, token])) > width:
            lines.append(" ".join(row))
            row = []
        row.append(token)
    if row:
        lines.append(" ".join(row))
    return "\n".join(lines) + "\n"


def parse_record(text: str, where: str = "record") -> tuple[dict[str, str], str]:
    """Split a record file into its tags and its turns; ``StorageError`` names the bad line.

    >>> parse_record('[Result "0-1"]\\n\\nd6 a1\\nf4\\n')
    ({'Result': '0-1'}, 'd6 a1 f4')
    """
    tags: dict[str, str] = {}
    lines = text.splitlines()
    body_start = len(lines)
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        if not stripped:
            body_start = number
            break
        match = _TAG_LINE.match(stripped)
        if not match:
            if stripped.startswith("["):
                raise StorageError(f"{where}, line {number}: malformed tag line {stripped!r}")
            body_start = number - 1
            break
        tags[match.group(1)] = _unescape(match.group(2))
    body = " ".join(" ".join(lines[body_start:]).split())
    for offset, line in enumerate(lines[body_start:], body_start + 1):
        if line.strip().startswith("["):
            raise StorageError(f"{where}, line {offset}: tag line after the turns")
    return tags, body


def plain_value(value: Any) -> Any:
    """An enum member's value, else the value itself."""
    return getattr(value, "value", value)


def result_tag(outcome: Any) -> str:
    """``1-0``, ``0-1``, ``1/2-1/2`` or ``*`` (unfinished), as in PGN."""
    if outcome is None:
        return "*"
    winner = plain_value(getattr(outcome, "winner", None))
    if winner is None:
        return "1/2-1/2"
    return {"white": "1-0", "black": "0-1"}.get(str(winner).lower(), "*")


def player_names(meta: Mapping[str, Any]) -> tuple[str, str]:
    """White and Black tag values from the game's meta data.

    >>> player_names({"mode": "computer", "human": "black", "level": 4})
    ('Computer (level 4)', 'Player')
    >>> player_names({"mode": "two-player"})
    ('Player', 'Player')
    """
    names = {"white": "Player", "black": "Player"}
    if meta.get("mode") == "computer":
        # meta comes from a file: anything but "white" has always counted as black
        human: Side = "white" if meta.get("human", "white") == "white" else "black"
        computer = other_side(human)
        level = meta.get("level")
        names[computer] = f"Computer (level {level})" if level is not None else "Computer"
    for side in names:
        if meta.get(side):
            names[side] = str(meta[side])
    return names["white"], names["black"]


def game_tags(meta: Mapping[str, Any]) -> dict[str, str]:
    """The record's tags for what a game keeps beside its settings: its engine seed, its clock, the
    position it was set up from (``FEN``, with PGN's ``SetUp``) and how each player was assisted.

    >>> game_tags({"seed": 7, "timing": {"control": "5+3", "left": {"white": 61.5, "black": 4.0},
    ...                                 "turns": [2.5, 11.0], "flagged": None}})
    {'Seed': '7', 'TimeControl': '5+3', 'WhiteClock': '1:01.5', 'BlackClock': '0:04.0', 'TurnTimes': '2.5 11.0'}
    """
    tags: dict[str, str] = {}
    seed = meta.get("seed")
    if isinstance(seed, int) and not isinstance(seed, bool):
        tags["Seed"] = str(seed)
    fen = meta.get("fen")
    if isinstance(fen, str) and fen:
        tags["SetUp"] = "1"
        tags["FEN"] = fen
    assist = meta.get("assist")
    if isinstance(assist, Mapping):
        tags["Assistance"] = "; ".join(f"{side}: {assist[side]}" for side in ("white", "black") if side in assist)
    used = meta.get("hints_used")
    if isinstance(used, Mapping):
        tags["HintsUsed"] = " ".join(f"{side} {used[side]}" for side in ("white", "black") if side in used)
    clock = meta.get("timing")
    if isinstance(clock, Mapping) and isinstance(clock.get("control"), str):
        tags["TimeControl"] = clock["control"]
        left = clock.get("left")
        if isinstance(left, Mapping):
            for side, name in (("white", "WhiteClock"), ("black", "BlackClock")):
                value = left.get(side)
                if isinstance(value, (int, float)) and not isinstance(value, bool):
                    tags[name] = clock_text(float(value))
        turns = clock.get("turns")
        if isinstance(turns, list):
            tags["TurnTimes"] = " ".join(f"{float(t):.1f}" for t in turns if isinstance(t, (int, float)))
        if clock.get("flagged") in ("white", "black"):
            tags["TimeForfeit"] = str(clock["flagged"])
    return tags


def clock_text(seconds: float) -> str:
    """Seconds on a clock: ``m:ss.s`` (``h:mm:ss.s`` from an hour).

    >>> clock_text(61.54), clock_text(4), clock_text(3725.0)
    ('1:01.5', '0:04.0', '1:02:05.0')
    """
    tenths = round(max(0.0, seconds) * 10)
    minutes, rest = divmod(tenths, 600)
    text = f"{rest // 10:02d}.{rest % 10}"
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{text}" if hours else f"{minutes}:{text}"
