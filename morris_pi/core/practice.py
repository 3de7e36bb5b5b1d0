"""Practice positions (shipped data) and each player's record of them and of the games played.

The positions are made offline by ``bench/make_practice.py`` and shipped as
``morris_pi/data/practice.json``; ``practice-manifest.json`` holds its SHA-256, which the
loader checks, so a damaged or edited file is refused, never half-used. Each position has
a theme, a difficulty (1-3), a Sanmill FEN, the side to move and its solution: every first
turn that reaches the goal (keep the win, hold the draw, win the man, not be shut in), as
the endgame tables or a deeper search found it.

A player's record (``PlayerRecords``) is kept in ``STATE_DIR/players.json``, written
atomically: the practice positions each player solved, with the date. Games against each
level are counted from the finished records themselves (``games_by_level``), so they can
never disagree with them.

>>> positions = load_practice()
>>> all(p.solution and p.side in ("white", "black") for p in positions)
True
>>> check_turn(positions[0], positions[0].solution[0]).solved
True
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any

from morris_pi.errors import MorrisPiError
from morris_pi.rules import Game, Turn

from .safe_files import atomic_write_text

DATA_DIR = Path(__file__).resolve().parents[1] / "data"
PRACTICE_FILE = DATA_DIR / "practice.json"
MANIFEST = DATA_DIR / "practice-manifest.json"
#: The most names a board remembers (a LAN page cannot fill its storage).
MAX_PLAYERS = 50
MAX_NAME = 40


class PracticeDataError(MorrisPiError, ValueError):
    """The shipped practice positions are missing, damaged or do not match their checksum."""


@dataclass(frozen=True)
class PracticePosition:
    id: str
    theme: str
    title: str  # the theme in words, e.g. "win a man in 3"
    difficulty: int
    fen: str
    profile: str
    side: str
    solution: tuple[str, ...]
    best: str
    goal: str
    verified: str
    line: tuple[str, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "theme": self.theme,
            "title": self.title,
            "difficulty": self.difficulty,
            "fen": self.fen,
            "profile": self.profile,
            "side": self.side,
            "goal": self.goal,
            "verified": self.verified,
        }

    def game(self) -> Game:
        return Game.from_fen(self.fen, self.profile)


def parse_practice(text: str, where: str = "practice.json") -> list[PracticePosition]:
    """Positions from the file's text; ``PracticeDataError`` names the first bad entry."""
    try:
        data = json.loads(text)
        items = data["positions"]
    except (ValueError, KeyError, TypeError) as exc:
        raise PracticeDataError(f"{where}: not a practice file ({exc})") from None
    positions = []
    for number, item in enumerate(items, 1):
        try:
            position = PracticePosition(
                id=str(item["id"]),
                theme=str(item["theme"]),
                title=str(item["title"]),
                difficulty=int(item["difficulty"]),
                fen=str(item["fen"]),
                profile=str(item["profile"]),
                side=str(item["side"]),
                solution=tuple(str(t) for t in item["solution"]),
                best=str(item["best"]),
                goal=str(item["goal"]),
                verified=str(item["verified"]),
                line=tuple(str(t) for t in item.get("line", ())),
            )
            game = position.game()
            legal = {str(t) for t in game.legal_turns()}
            if game.turn != position.side or not position.solution or not set(position.solution) <= legal:
                raise ValueError("the side to move or a solution turn does not fit the FEN")
        except (KeyError, TypeError, ValueError) as exc:
            raise PracticeDataError(f"{where}: position {number}: {exc}") from None
        positions.append(position)
    return positions


def load_practice(path: Path = PRACTICE_FILE, manifest: Path = MANIFEST) -> tuple[PracticePosition, ...]:
    """The positions of ``path`` (default: the shipped ones, read once), after checking its SHA-256."""
    if path == PRACTICE_FILE and manifest == MANIFEST:
        return _shipped()
    return _read(path, manifest)


@cache
def _shipped() -> tuple[PracticePosition, ...]:
    return _read(PRACTICE_FILE, MANIFEST)


def _read(path: Path, manifest: Path) -> tuple[PracticePosition, ...]:
    try:
        raw = path.read_bytes()
        expected = json.loads(manifest.read_text(encoding="utf-8"))["sha256"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise PracticeDataError(f"cannot read the practice positions ({path.name}, {manifest.name}): {exc}") from None
    digest = hashlib.sha256(raw).hexdigest()
    if digest != expected:
        raise PracticeDataError(f"{path}: SHA-256 {digest} does not match {manifest.name}")
    return tuple(parse_practice(raw.decode("utf-8"), str(path)))


def practice_by_id(practice_id: str) -> PracticePosition:
    for position in load_practice():
        if position.id == practice_id:
            return position
    raise KeyError(f"no practice position {practice_id!r}")


@dataclass(frozen=True)
class Attempt:
    """A first turn played in a practice position, judged."""

    solved: bool
    turn: str
    solution: tuple[str, ...]
    best: str

    def to_json(self) -> dict[str, Any]:
        return {"solved": self.solved, "turn": self.turn, "solution": list(self.solution), "best": self.best}


def check_turn(position: PracticePosition, turn: Turn | str) -> Attempt:
    """Whether ``turn`` solves ``position``; ``ValueError`` if it is not a legal turn there."""
    parsed = Turn.parse(turn) if isinstance(turn, str) else turn
    text = str(parsed)
    if not position.game().is_legal(parsed):
        raise ValueError(f"{text}: not a legal turn in practice position {position.id}")
    return Attempt(text in position.solution, text, position.solution, position.best)


def clean_name(name: str) -> str:
    """A player's name as kept: printable, trimmed, at most ``MAX_NAME`` characters; ``ValueError`` if empty."""
    kept = "".join(c for c in name if c.isprintable()).strip()[:MAX_NAME]
    if not kept:
        raise ValueError("a player's name may not be empty")
    return kept


class PlayerRecords:
    """Each player's solved practice positions, in ``STATE_DIR/players.json``."""

    def __init__(self, state_dir: Path | str, clock: Any = None) -> None:
        self.path = Path(state_dir) / "players.json"
        self.clock = clock or (lambda: datetime.now(UTC))

    def load(self) -> dict[str, dict[str, Any]]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        players = data.get("players") if isinstance(data, dict) else None
        return {str(k): v for k, v in players.items() if isinstance(v, dict)} if isinstance(players, dict) else {}

    def solved(self, name: str) -> dict[str, str]:
        entry = self.load().get(clean_name(name), {})
        solved = entry.get("solved")
        return dict(solved) if isinstance(solved, dict) else {}

    def mark_solved(self, name: str, practice_id: str) -> dict[str, str]:
        """Keep that ``name`` solved ``practice_id`` (the first date stays); the player's solved positions."""
        name = clean_name(name)
        players = self.load()
        if name not in players and len(players) >= MAX_PLAYERS:
            raise ValueError(f"this board keeps the records of {MAX_PLAYERS} players at most")
        entry = players.setdefault(name, {})
        solved = entry.setdefault("solved", {})
        solved.setdefault(practice_id, self.clock().strftime("%Y-%m-%dT%H:%M:%SZ"))
        self.path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(
            self.path, json.dumps({"version": 1, "players": players}, ensure_ascii=False, indent=1) + "\n"
        )
        return dict(solved)


def games_by_level(records: Iterable[Any], name: str) -> dict[str, dict[str, int]]:
    """Games ``name`` finished against the computer, by level: won, drawn and lost.

    >>> from pathlib import Path
    >>> from morris_pi.core.record_format import Record
    >>> r = Record("x", Path("x.txt"), {"Mode": "computer", "Level": "3", "White": "Ann", "Black": "Computer (level 3)",
    ...                                 "Result": "1-0"}, "d6")
    >>> games_by_level([r], "Ann")
    {'3': {'won': 1, 'drawn': 0, 'lost': 0}}
    """
    counts: dict[str, dict[str, int]] = {}
    for record in records:
        tags = getattr(record, "tags", {})
        if tags.get("Mode") != "computer" or not tags.get("Level") or tags.get("Result", "*") == "*":
            continue
        if tags.get("White") == name:
            side = "white"
        elif tags.get("Black") == name:
            side = "black"
        else:
            continue
        result = tags["Result"]
        row = counts.setdefault(tags["Level"], {"won": 0, "drawn": 0, "lost": 0})
        if result == "1/2-1/2":
            row["drawn"] += 1
        elif (result == "1-0") == (side == "white"):
            row["won"] += 1
        else:
            row["lost"] += 1
    return dict(sorted(counts.items(), key=lambda kv: int(kv[0]) if kv[0].isdigit() else 0))
