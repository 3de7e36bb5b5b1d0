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

A practice game is judged turn by turn (``judge_line``): every turn the player makes, up to the
position's bound (``turns_bound``), gets a verdict (grade, loss, better turn, and whether it
keeps the goal), and the game ends ``solved`` or ``not-solved`` once the goal is reached, a turn
gives it away, or the bound passes.

>>> positions = load_practice()
>>> all(p.solution and p.side in ("white", "black") for p in positions)
True
>>> check_turn(positions[0], positions[0].solution[0]).solved
True
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from morris_pi.engine.egtb import tables_for_profile
from morris_pi.engine.grading import Grade, TurnGrade, TurnScores, score_turns
from morris_pi.errors import MorrisPiError
from morris_pi.rules import Game, Turn

from .safe_files import atomic_write_text

DATA_DIR = Path(__file__).resolve().parents[1] / "data"
PRACTICE_FILE = DATA_DIR / "practice.json"
MANIFEST = DATA_DIR / "practice-manifest.json"
#: The most names a board remembers (a LAN page cannot fill its storage).
MAX_PLAYERS = 50
MAX_NAME = 40
#: The player's turns a flying endgame is judged for: a win must be made, or a draw held, within
#: them (the longest shipped win takes 13 of the winner's turns with best play).
FLYING_TURNS = 20
#: The player's turns a blockade is judged for: its nearest loss comes within them.
BLOCKADE_TURNS = 3
#: The player's turns to win a man in ("win a man in 3"; every shipped line takes it within them).
MAN_TURNS = 3
#: The budget each judged turn is graded on (that of the board's live assistance).
JUDGE_BUDGET = "quick"


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

    def turns_bound(self) -> int:
        """How many of the player's turns the practice game is judged for.

        A man is to be won in the theme's three turns, even where the known line takes it sooner
        (the computer need not defend as the line does).

        >>> [practice_by_id(i).turns_bound() for i in ("win-a-man-01", "avoid-blockade-01", "flying-win-01")]
        [3, 3, 20]
        """
        if self.verified == "tables":
            return FLYING_TURNS
        return MAN_TURNS if self.goal == "man" else BLOCKADE_TURNS


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


SOLVED = "solved"
NOT_SOLVED = "not-solved"
PLAYING = "playing"


@dataclass(frozen=True)
class Verdict:
    """One of the player's turns in a practice game, judged."""

    number: int  # the player's turn: 1 for the first
    turn: str
    graded: TurnGrade
    kept: bool  # whether the turn keeps the position's goal in reach
    #: the turn to have played instead: a missed first turn names the position's verified best
    better: str | None

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "turn": self.turn,
            "grade": self.graded.grade.value,
            "loss": self.graded.loss_json(),
            "better": self.better,
            "kept": self.kept,
        }


@dataclass(frozen=True)
class LineJudgement:
    """A practice game judged turn by turn: each of the player's turns, and where it ended.

    ``status`` is ``playing`` until the goal is reached (``solved``), a turn gives it away or the
    bound passes (``not-solved``); ``reason`` says which in a sentence. Turns after that are not judged.
    """

    id: str
    status: str
    verdicts: tuple[Verdict, ...]
    bound: int
    reason: str

    @property
    def solved(self) -> bool:
        return self.status == SOLVED

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "status": self.status,
            "solved": self.solved,
            "turns": [v.to_json() for v in self.verdicts],
            "bound": self.bound,
            "reason": self.reason,
        }


def judge_line(position: PracticePosition, turns: Sequence[str], *, budget: str = JUDGE_BUDGET) -> LineJudgement:
    """Judge the practice game ``turns`` (both sides' turns from the position, the player's first).

    The first turn must be one of the solution's; each later one must keep the goal: for a
    flying endgame the result the tables give after it (the win, or at least the draw), for a
    man to win a grade of ``good`` or better, for a blockade no walk into a proven loss that
    the best turn avoids. The goal is reached by the game won (every theme), a man taken
    (``win-a-man``, with no man lost since the position), a game drawn (a draw to hold, a
    blockade to avoid), or by holding a draw or avoiding the blockade for all the bound's
    turns. ``ValueError`` names the first turn that is not legal.

    >>> p = practice_by_id("win-a-man-02")
    >>> judge_line(p, ["f4-f2"]).status, judge_line(p, ["f4-f2", "f6-f4", "f2-d2xe4"]).status
    ('playing', 'solved')
    """
    game = position.game()
    bound = position.turns_bound()
    verdicts: list[Verdict] = []
    lost_a_man = False
    played: list[str] = []
    for ply, text in enumerate(turns, 1):
        try:
            parsed = Turn.parse(text)
        except ValueError as exc:
            raise ValueError(f"turn {ply}: {exc}") from None
        if game.outcome is not None or not game.is_legal(parsed):
            raise ValueError(f"turn {ply}: {parsed}: not a legal turn in practice position {position.id}")
        mine = game.turn == position.side
        if mine:
            graded = _scores(position.fen, position.profile, tuple(played), budget).grade(parsed)
            first = not verdicts
            kept = _keeps(position, game, parsed, graded, first=first)
            better = position.best if first and not kept else str(graded.better) if graded.better else None
            verdicts.append(Verdict(len(verdicts) + 1, str(parsed), graded, kept, better))
        game.play(parsed)
        played.append(str(parsed))
        if not mine and parsed.removal is not None:
            lost_a_man = True
        ended = _ended(position, game, verdicts, bound, lost_a_man, mine)
        if ended is not None:
            return LineJudgement(position.id, ended[0], tuple(verdicts), bound, ended[1])
    left = bound - len(verdicts)
    return LineJudgement(position.id, PLAYING, tuple(verdicts), bound, f"{left} of {bound} turns to go")


@lru_cache(maxsize=128)
def _scores(fen: str, profile: str, played: tuple[str, ...], budget: str) -> TurnScores:
    # the page sends the whole game after every turn: the earlier turns' grades are kept
    game = Game.from_fen(fen, profile)
    for text in played:
        game.play(text)
    return score_turns(game, budget=budget)


def _result_after(game: Game, turn: Turn, side: str) -> str:
    """``win``, ``draw`` or ``loss`` for ``side`` after ``turn``, from the outcome or the endgame tables."""
    after = game.copy()
    after.play(turn)
    if after.outcome is not None:
        winner = after.outcome.winner
        return "draw" if winner is None else "win" if winner == side else "loss"
    tables = tables_for_profile(game.profile)
    position = after.position
    code = tables.probe(position.men[position.side], position.men[position.side ^ 1]) if tables else None
    if code is None:
        return "unknown"
    if code == 0:
        return "draw"
    mover_wins = (code - 1) % 2 == 1  # the code is 1 + the distance, and an odd distance wins for the side to move
    return "win" if mover_wins == (after.turn == side) else "loss"


def _keeps(position: PracticePosition, game: Game, turn: Turn, graded: TurnGrade, *, first: bool) -> bool:
    if first:
        return str(turn) in position.solution
    if position.verified == "tables":
        result = _result_after(game, turn, position.side)
        return result == "win" if position.goal == "win" else result in ("win", "draw")
    if position.goal == "man":
        return graded.grade.rank <= Grade.GOOD.rank
    return graded.value.result != "loss" or graded.best_value.result == "loss"


def _ended(
    position: PracticePosition, game: Game, verdicts: list[Verdict], bound: int, lost_a_man: bool, mine: bool
) -> tuple[str, str] | None:
    """``(status, reason)`` once the practice game is decided, else ``None``."""
    if mine and not verdicts[-1].kept:
        last = verdicts[-1]
        instead = f"; {last.better} was better" if last.better is not None and last.better != last.turn else ""
        return NOT_SOLVED, f"turn {last.number}, {last.turn}, gives the goal away{instead}"
    outcome = game.outcome
    if outcome is not None:
        if outcome.winner == position.side:
            return SOLVED, "the game is won"
        if outcome.winner is None and position.goal in ("draw", "not-lose"):
            return SOLVED, "the game is drawn"
        return NOT_SOLVED, f"the game ended: {outcome}"
    if not mine:
        return None
    last = verdicts[-1]
    if position.goal == "man" and Turn.parse(last.turn).removal is not None and not lost_a_man:
        return SOLVED, f"a man won in {last.number} turns"
    if last.number >= bound:
        if position.goal in ("draw", "not-lose"):
            return SOLVED, f"held for {bound} turns"
        return NOT_SOLVED, f"not won within {bound} turns"
    return None


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
