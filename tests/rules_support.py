"""Shared helpers of the rules tests: RULES.md written out by hand, and random games.

``Referee`` is a second, deliberately naive reading of RULES.md: a dict board,
point names, the lines typed in from RULES.md and no bit tricks. It shares
nothing with ``morris_pi.rules`` except the profile settings it is given, so
agreement between the two over many random games is evidence that both read
the rules the same way.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from morris_pi.rules import Game, Profile, get_profile

# The 16 mills of RULES.md: the sides of the three squares, then the four spokes.
MILLS = [
    ("a7", "d7", "g7"),
    ("g7", "g4", "g1"),
    ("g1", "d1", "a1"),
    ("a1", "a4", "a7"),
    ("b6", "d6", "f6"),
    ("f6", "f4", "f2"),
    ("f2", "d2", "b2"),
    ("b2", "b4", "b6"),
    ("c5", "d5", "e5"),
    ("e5", "e4", "e3"),
    ("e3", "d3", "c3"),
    ("c3", "c4", "c5"),
    ("a4", "b4", "c4"),
    ("d7", "d6", "d5"),
    ("e4", "f4", "g4"),
    ("d1", "d2", "d3"),
]
# The four diagonals of twelve men's morris (issue 2).
DIAGONALS = [("a7", "b6", "c5"), ("g7", "f6", "e5"), ("g1", "f2", "e3"), ("a1", "b2", "c3")]
# RULES.md: ring neighbours (24 pairs) and the spokes (8 pairs).
OUTER = ["a7", "d7", "g7", "g4", "g1", "d1", "a1", "a4"]
MIDDLE = ["b6", "d6", "f6", "f4", "f2", "d2", "b2", "b4"]
INNER = ["c5", "d5", "e5", "e4", "e3", "d3", "c3", "c4"]
SPOKE_PAIRS = [
    ("a4", "b4"),
    ("b4", "c4"),
    ("d7", "d6"),
    ("d6", "d5"),
    ("g4", "f4"),
    ("f4", "e4"),
    ("d1", "d2"),
    ("d2", "d3"),
]
RING_PAIRS = [(ring[i], ring[(i + 1) % 8]) for ring in (OUTER, MIDDLE, INNER) for i in range(8)]
ALL_POINTS = OUTER + MIDDLE + INNER
PROFILE_NAMES = ("standard", "move-this", "club", "no-flying", "lasker", "twelve")
OTHER = {"white": "black", "black": "white"}


def lines_of(profile: Profile) -> list[tuple[str, str, str]]:
    return MILLS + (DIAGONALS if profile.geometry == "diagonal" else [])


def neighbours_of(profile: Profile) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {p: set() for p in ALL_POINTS}
    pairs = RING_PAIRS + SPOKE_PAIRS
    if profile.geometry == "diagonal":
        pairs = pairs + [(a, b) for a, b, c in DIAGONALS] + [(b, c) for a, b, c in DIAGONALS]
    for a, b in pairs:
        out[a].add(b)
        out[b].add(a)
    return out


@dataclass
class Referee:
    """RULES.md, played out slowly on names. ``play`` takes turn text in the atomic form."""

    profile: Profile
    board: dict[str, str] = field(default_factory=dict)
    hand: dict[str, int] = field(default_factory=dict)
    side: str = "white"
    quiet: int = 0
    seen: Counter = field(default_factory=Counter)

    def __post_init__(self) -> None:
        self.profile = get_profile(self.profile)
        self.hand = {"white": self.profile.men, "black": self.profile.men}
        self.lines = lines_of(self.profile)
        self.near = neighbours_of(self.profile)
        self.seen[self.key()] += 1

    def key(self):
        return (tuple(sorted(self.board.items())), self.hand["white"], self.hand["black"], self.side)

    def men(self, side: str) -> list[str]:
        return [p for p, s in self.board.items() if s == side]

    def in_mill(self, point: str, board: dict[str, str]) -> bool:
        side = board[point]
        return any(point in line and all(board.get(q) == side for q in line) for line in self.lines)

    def removable(self, side: str, board: dict[str, str]) -> list[str]:
        theirs = [p for p, s in board.items() if s == OTHER[side]]
        free = [p for p in theirs if not self.in_mill(p, board)]
        if free:
            return free
        return theirs if self.profile.all_in_mills == "any" else []

    def steps(self) -> list[tuple[str | None, str]]:
        me = self.side
        if self.hand[me] + len(self.men(me)) < 3:
            return []
        empty = [p for p in ALL_POINTS if p not in self.board]
        out: list[tuple[str | None, str]] = []
        if self.hand[me] > 0:
            out += [(None, p) for p in empty]
        if self.hand[me] == 0 or self.profile.move_while_placing:
            flying = self.profile.flying and self.hand[me] == 0 and len(self.men(me)) == 3
            for origin in self.men(me):
                out += [(origin, p) for p in empty if flying or p in self.near[origin]]
        return out

    def closes(self, origin: str | None, target: str) -> tuple[bool, dict[str, str]]:
        board = dict(self.board)
        if origin:
            del board[origin]
        board[target] = self.side
        return any(target in line and all(board.get(q) == self.side for q in line) for line in self.lines), board

    def legal(self) -> set[str]:
        out = set()
        for origin, target in self.steps():
            text = f"{origin}-{target}" if origin else target
            mill, board = self.closes(origin, target)
            victims = self.removable(self.side, board) if mill else []
            if victims:
                out.update(f"{text}x{v}" for v in victims)
            else:
                out.add(text)
        return out

    def play(self, text: str) -> None:
        assert text in self.legal(), text
        step, _, removal = text.partition("x")
        origin, _, target = step.rpartition("-")
        mill, board = self.closes(origin or None, target)
        if removal:
            del board[removal]
        if not origin:
            self.hand[self.side] -= 1
        self.board = board
        reset = removal if self.profile.n_move_reset == "removal" else mill
        self.quiet = 0 if reset else self.quiet + 1
        self.side = OTHER[self.side]
        self.seen[self.key()] += 1

    def outcome(self) -> tuple[str | None, str] | None:
        """RULES.md's order of checks: the side to move's loss, repetition, the N-move rule."""
        me = self.side
        if self.hand[me] + len(self.men(me)) < 3:
            return (OTHER[me], "fewer-than-three")
        if not self.steps():
            return (OTHER[me], "blocked")
        if self.profile.repetition_draw == "auto" and self.seen[self.key()] >= 3:
            return (None, "threefold-repetition")
        if self.profile.n_move_draw == "auto" and self.quiet >= self.profile.n_move_limit:
            return (None, "n-move-rule")
        return None

    def claimable(self) -> str | None:
        if self.outcome():
            return None
        if self.profile.repetition_draw == "claim" and self.seen[self.key()] >= 3:
            return "threefold-repetition"
        if self.profile.n_move_draw == "claim" and self.quiet >= self.profile.n_move_limit:
            return "n-move-rule"
        return None


def random_game(seed: int, profile: str = "standard", turns: int = 400, claim: bool = False) -> Game:
    """A game of random legal turns, ended by the rules or after ``turns`` turns.

    With ``claim``, a claimable draw ends the game as soon as it arises.
    """
    rng = random.Random(seed)
    game = Game(profile)
    for _ in range(turns):
        if game.outcome:
            break
        if claim and game.claimable_draw():
            game.claim_draw()
            break
        game.play(rng.choice(game.legal_turns()))
    return game


def shuffling_game(seed: int, profile: str = "standard", turns: int = 400) -> Game:
    """Random play that prefers turns without a removal, so games reach the draw rules."""
    rng = random.Random(seed)
    game = Game(profile)
    for _ in range(turns):
        if game.outcome or game.claimable_draw():
            break
        legal = game.legal_turns()
        quiet = [t for t in legal if t.removal is None]
        game.play(rng.choice(quiet if quiet and rng.random() < 0.97 else legal))
    return game
