"""Opening book for the first turns of the placing phase.

The book is made offline by deep searches (``python -m morris_pi.engine.book_build``)
and shipped as ``data/book.txt`` with its SHA-256 and build settings in
``data/book.json``; the loader refuses a file that does not match. It holds one
turn per position for every position of the first ``plies`` turns in which the
side to move has followed the book so far (the opponent's turns are all
covered). Positions are stored reduced by the 16 symmetries of the board
(``egtb.SYMMETRIES``), so a position and its mirror images share one entry.

Validity: the placing turns depend only on the board's lines, the number of men,
whether men may move while placing and which men may be removed; the book
applies to profiles that agree with the one it was built for in those settings
(``covers``).

A line of ``book.txt``: ``white black hand_white hand_black side origin target removal
score depth`` (masks in hex, the turn in canonical coordinates, ``-1`` for none).

>>> book = opening_book("standard")
>>> book is None or book.turn(Position.start()) in Position.start().turns()
True
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from morris_pi.errors import MorrisPiError
from morris_pi.rules.position import Position, RawTurn
from morris_pi.rules.profiles import Profile, get_profile

from .egtb import SYMMETRIES, transform

DATA_DIR = Path(__file__).with_name("data")
BOOK_FILE = DATA_DIR / "book.txt"
MANIFEST = DATA_DIR / "book.json"

#: Profile settings a placing-phase book depends on.
BOOK_SETTINGS = ("men", "geometry", "move_while_placing", "all_in_mills")

#: A position in the book: white and black men (canonical), men in hand of each, side to move.
BookKey = tuple[int, int, int, int, int]

INVERSE: tuple[tuple[int, ...], ...] = tuple(tuple(perm.index(c) for c in range(24)) for perm in SYMMETRIES)


class BookDataError(MorrisPiError, ValueError):
    """An opening-book file that is missing, corrupt or does not match its manifest."""


@dataclass(frozen=True)
class Entry:
    turn: RawTurn  # canonical coordinates
    score: int
    depth: int


def canonical(position: Position) -> tuple[BookKey, int]:
    """The symmetry-reduced key of a position and the symmetry that maps it there.

    >>> from morris_pi.rules import Game
    >>> canonical(Game.from_record("a7").position)[0] == canonical(Game.from_record("g1").position)[0]
    True
    """
    w, b = position.men

    def image(sym: int) -> tuple[int, int]:
        return transform(sym, w), transform(sym, b)

    best_sym = min(range(len(SYMMETRIES)), key=image)  # the first of equal images, as the book was built
    cw, cb = image(best_sym)
    return (cw, cb, position.hand[0], position.hand[1], position.side), best_sym


def to_canonical(turn: RawTurn, sym: int) -> RawTurn:
    perm = SYMMETRIES[sym]
    o, t, r = turn
    return (perm[o] if o >= 0 else -1, perm[t], perm[r] if r >= 0 else -1)


def from_canonical(turn: RawTurn, sym: int) -> RawTurn:
    inv = INVERSE[sym]
    o, t, r = turn
    return (inv[o] if o >= 0 else -1, inv[t], inv[r] if r >= 0 else -1)


def settings(profile: Profile) -> dict[str, object]:
    return {name: getattr(profile, name) for name in BOOK_SETTINGS}


def format_line(key: BookKey, entry: Entry) -> str:
    w, b, hw, hb, side = key
    o, t, r = entry.turn
    return f"{w:06x} {b:06x} {hw} {hb} {side} {o} {t} {r} {entry.score} {entry.depth}"


class OpeningBook:
    """Book turns by canonical position; ``turn()`` answers in the position's own coordinates."""

    def __init__(self, entries: dict[BookKey, Entry], plies: int, settings: dict[str, object]) -> None:
        self.entries = entries
        self.plies = plies
        self.settings = settings

    def __len__(self) -> int:
        return len(self.entries)

    def __repr__(self) -> str:
        return f"<OpeningBook {len(self.entries):,} positions to ply {self.plies}>"

    def covers(self, profile: Profile) -> bool:
        return settings(profile) == self.settings

    def entry(self, position: Position) -> tuple[RawTurn, Entry] | None:
        """The book turn for ``position`` (checked against its legal turns) and its entry, or ``None``."""
        if not self.covers(position.profile):
            return None
        key, sym = canonical(position)
        found = self.entries.get(key)
        if found is None:
            return None
        turn = from_canonical(found.turn, sym)
        if turn not in position.turns():
            return None  # never trust data over the rules
        return turn, found

    def turn(self, position: Position) -> RawTurn | None:
        hit = self.entry(position)
        return hit[0] if hit else None

    @classmethod
    def parse(cls, text: str, plies: int, settings: dict[str, object], where: str = "book") -> OpeningBook:
        entries: dict[BookKey, Entry] = {}
        for number, line in enumerate(text.splitlines(), 1):
            if not line.strip() or line.startswith("#"):
                continue
            fields = line.split()
            try:
                if len(fields) != 10:
                    raise ValueError(f"{len(fields)} fields, expected 10")
                w, b = int(fields[0], 16), int(fields[1], 16)
                hw, hb, side, o, t, r, score, depth = (int(x) for x in fields[2:])
                if not (0 <= t < 24 and -1 <= o < 24 and -1 <= r < 24 and side in (0, 1)) or w & b:
                    raise ValueError("point or side out of range")
            except ValueError as exc:
                raise BookDataError(f"{where}, line {number}: {exc}") from None
            entries[(w, b, hw, hb, side)] = Entry((o, t, r), score, depth)
        return cls(entries, plies, settings)

    @classmethod
    def load(cls, path: Path = BOOK_FILE, manifest: Path = MANIFEST) -> OpeningBook:
        try:
            meta = json.loads(manifest.read_text())
            data = path.read_bytes()
        except (OSError, ValueError) as exc:
            raise BookDataError(f"cannot read the opening book ({manifest.name}, {path.name}): {exc}") from None
        digest = hashlib.sha256(data).hexdigest()
        if digest != meta.get("sha256"):
            raise BookDataError(f"{path}: SHA-256 {digest} does not match {manifest.name}")
        return cls.parse(data.decode("ascii"), int(meta["plies"]), dict(meta["settings"]), str(path))


@cache
def _shipped() -> OpeningBook | None:
    if not MANIFEST.exists():
        return None
    return OpeningBook.load()


def opening_book(profile: str | Profile) -> OpeningBook | None:
    """The shipped book if it applies to ``profile``, else ``None``."""
    book = _shipped()
    if book is None or not book.covers(get_profile(profile)):
        return None
    return book
