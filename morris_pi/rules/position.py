"""Positions as 24-bit integer bitboards, with turn generation.

A ``Position`` is immutable: ``play`` returns a new one. Turns here are raw
``(origin, target, removal)`` index triples, with ``-1`` for "none" (a
placement has no origin; most turns remove nothing). A turn is atomic: the
move and the removal it earns are one turn, so sides strictly alternate.
The ``Game`` class builds notation, history and outcomes on top of this; the
engine searches it directly.

>>> p = Position.start("standard")
>>> len(p.turns())
24
>>> p.play((-1, POINTS.index("d6"), -1)).hand
(8, 9)
"""

from __future__ import annotations

from functools import cache
from typing import Literal

from .board import FULL, POINTS, WHITE, bits
from .fen_text import FenError, finished_by_removal, parse_fen
from .profiles import Profile, get_profile

RawTurn = tuple[int, int, int]
# What threefold repetition compares: men, men in hand, side to move.
PositionKey = tuple[tuple[int, int], tuple[int, int], int]
#: A side by name, as games, saves and records spell it.
Side = Literal["white", "black"]
SIDES: tuple[Side, Side] = ("white", "black")


def other_side(side: Side) -> Side:
    """The side that is not ``side``: whom a side plays against.

    >>> other_side("white"), other_side("black")
    ('black', 'white')
    """
    return "black" if side == "white" else "white"


class Tables:
    """A profile compiled into the lookup tables the generator uses."""

    __slots__ = (
        "adjacency",
        "flying",
        "men",
        "mill_count",
        "mill_low",
        "mill_of_field",
        "mills",
        "move_while_placing",
        "partners",
        "placements",
        "profile",
        "remove_all_in_mills",
        "reset_on_mill",
        "start",
        "steps_from",
    )

    def __init__(self, profile: Profile) -> None:
        geometry = profile.board
        self.profile = profile
        self.men = profile.men
        self.adjacency = geometry.adjacency
        self.partners = geometry.mill_partners
        self.mills = geometry.mills
        self.flying = profile.flying
        self.move_while_placing = profile.move_while_placing
        self.remove_all_in_mills = profile.all_in_mills == "any"
        self.reset_on_mill = profile.n_move_reset == "mill"
        self.start = Position(self, (0, 0), (profile.men, profile.men), WHITE, 0)
        # The generator's tables. A side's men per mill as 2-bit fields (field j: men on mill
        # j, at most 3, so no carries) are the sum of one entry per byte of the board; from
        # them the points that can close a mill come without a loop over points (the engine's
        # evaluation counts mills with them too). The turns of a step or a placement are
        # built once, looked up by the mask of free targets.
        self.mill_count: tuple[tuple[int, ...], ...] = tuple(
            tuple(
                sum((mill & (byte << 8 * k)).bit_count() << 2 * j for j, mill in enumerate(self.mills))
                for byte in range(256)
            )
            for k in range(3)
        )
        self.mill_low = sum(1 << 2 * j for j in range(len(self.mills)))
        self.mill_of_field = {1 << 2 * j: mill for j, mill in enumerate(self.mills)}
        place = [(-1, to, -1) for to in range(len(POINTS))]
        # placements by empty points: one table per 12-point half of the board
        self.placements = tuple(
            tuple(tuple(place[to] for to in bits(half << shift)) for half in range(1 << 12)) for shift in (0, 12)
        )
        self.steps_from: tuple[dict[int, tuple[RawTurn, ...]], ...] = tuple(
            {targets: tuple((origin, to, -1) for to in bits(targets)) for targets in _subsets(neighbours)}
            for origin, neighbours in enumerate(self.adjacency)
        )

    def __repr__(self) -> str:
        p = self.profile
        return f"<Tables {p.name} {len(self.adjacency)} points {len(self.mills)} mills {p.men} men>"

    def closing_points(self, own: int) -> int:
        """Points outside ``own`` that complete a mill with two men of ``own``.

        >>> t = tables_for("standard")
        >>> [POINTS[i] for i in bits(t.closing_points(1 << POINTS.index("a1") | 1 << POINTS.index("a4")))]
        ['a7']
        """
        c = self.mill_count
        counts = c[0][own & 255] + c[1][own >> 8 & 255] + c[2][own >> 16]
        two = counts >> 1 & ~counts & self.mill_low
        points = 0
        mill_of_field = self.mill_of_field
        while two:
            field = two & -two
            two ^= field
            points |= mill_of_field[field]
        return points & ~own


def _subsets(mask: int) -> list[int]:
    """Every subset of the set bits of ``mask`` (0 included)."""
    out = [0]
    for i in bits(mask):
        out += [s | 1 << i for s in out]
    return out


@cache
def tables_for(profile: str | Profile) -> Tables:
    return Tables(get_profile(profile))


class Position:
    """Men on the board, men in hand, side to move and the N-move counter.

    ``quiet`` counts turns since the last removal (or, for profiles whose
    N-move rule counts mills, since the last mill closed).
    """

    __slots__ = ("hand", "men", "quiet", "side", "tables")

    def __init__(self, tables: Tables, men: tuple[int, int], hand: tuple[int, int], side: int, quiet: int) -> None:
        self.tables = tables
        self.men = men
        self.hand = hand
        self.side = side
        self.quiet = quiet

    @classmethod
    def start(cls, profile: str | Profile = "standard") -> Position:
        return tables_for(profile).start

    @classmethod
    def from_fen(cls, fen: str, profile: str | Profile = "standard") -> Position:
        """The position of a Sanmill FEN (see ``morris_pi.rules.fen``); ``FenError`` names a bad field."""
        f = parse_fen(fen, profile)
        if finished_by_removal(f):
            return cls(tables_for(profile), f.men, f.hand, f.side ^ 1, 0)
        if f.pending_removal:
            raise FenError(
                "FEN field 4 (action) 'r': a removal is pending, which a Position cannot hold; use Game.from_fen"
            )
        return cls(tables_for(profile), f.men, f.hand, f.side, f.counter)

    @property
    def profile(self) -> Profile:
        return self.tables.profile

    def key(self) -> PositionKey:
        """What threefold repetition compares: men, men in hand, side to move."""
        return (self.men, self.hand, self.side)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Position)
            and self.tables is other.tables
            and self.key() == other.key()
            and self.quiet == other.quiet
        )

    def __hash__(self) -> int:
        return hash((self.key(), self.quiet))

    def __repr__(self) -> str:
        w = " ".join(POINTS[i] for i in bits(self.men[0]))
        b = " ".join(POINTS[i] for i in bits(self.men[1]))
        return (
            f"<Position {self.profile.name} white=[{w}] black=[{b}] hand={self.hand} "
            f"{SIDES[self.side]} to move quiet={self.quiet}>"
        )

    def count(self, side: int) -> int:
        """Men a side still has, in hand and on the board."""
        return self.hand[side] + self.men[side].bit_count()

    def flies(self, side: int) -> bool:
        return self.tables.flying and self.hand[side] == 0 and self.men[side].bit_count() == 3

    def can_move(self, side: int) -> bool:
        return self.hand[side] == 0 or self.tables.move_while_placing

    def removable(self, side: int) -> int:
        """Mask of the opponent men that ``side`` may remove after closing a mill."""
        return removable_mask(self.tables, self.men[side ^ 1])

    def closes_mill(self, origin: int, target: int) -> bool:
        """Whether moving (or placing, origin -1) the side to move's man to ``target`` closes a mill."""
        own = self.men[self.side]
        if origin >= 0:
            own &= ~(1 << origin)
        # A loop, not any(): the generator made Position.play a third slower under club rules
        # (about 1.2 -> 1.6 µs a turn), where every quiet turn asks whether it closed a mill.
        for pair in self.tables.partners[target]:  # noqa: SIM110
            if own & pair == pair:
                return True
        return False

    def steps(self) -> list[tuple[int, int]]:
        """Placements and moves ``(origin, target)`` available to the side to move, without removals."""
        t = self.tables
        side = self.side
        own = self.men[side]
        if self.hand[side] + own.bit_count() < 3:
            return []
        empty = FULL & ~(own | self.men[side ^ 1])
        out: list[tuple[int, int]] = []
        if self.hand[side]:
            out.extend((-1, to) for to in bits(empty))
        if self.hand[side] == 0 or t.move_while_placing:
            fly = t.flying and self.hand[side] == 0 and own.bit_count() == 3
            adjacency = t.adjacency
            for origin in bits(own):
                targets = empty if fly else adjacency[origin] & empty
                out.extend((origin, to) for to in bits(targets))
        return out

    def turns(self) -> list[RawTurn]:
        """Every legal turn, a mill-closing step expanded once per removable man."""
        side = self.side
        return generate_turns(self.tables, self.men[side], self.men[side ^ 1], self.hand[side])

    def count_turns(self) -> int:
        """``len(self.turns())`` without building the list (perft's leaf count)."""
        t = self.tables
        side = self.side
        own = self.men[side]
        hand = self.hand[side]
        if hand + own.bit_count() < 3:
            return 0
        empty = FULL & ~(own | self.men[side ^ 1])
        partners = t.partners
        extra = -1  # removals per mill-closing step, minus one; computed on first need
        closing = 0
        n = 0
        if hand:
            n = empty.bit_count()
            for to in bits(empty):
                for pair in partners[to]:
                    if own & pair == pair:
                        closing += 1
                        break
        if hand == 0 or t.move_while_placing:
            fly = t.flying and hand == 0 and own.bit_count() == 3
            adjacency = t.adjacency
            for origin in bits(own):
                rest = own & ~(1 << origin)
                targets = empty if fly else adjacency[origin] & empty
                n += targets.bit_count()
                for to in bits(targets):
                    for pair in partners[to]:
                        if rest & pair == pair:
                            closing += 1
                            break
        if closing:
            extra = max(self.removable(side).bit_count() - 1, 0)
            n += closing * extra
        return n

    def play(self, turn: RawTurn) -> Position:
        """The position after a raw turn. The turn is trusted: check it with ``turns()`` first."""
        origin, target, removal = turn
        side = self.side
        own = self.men[side] | (1 << target)
        opp = self.men[side ^ 1]
        hand = self.hand
        if origin >= 0:
            own &= ~(1 << origin)
        else:
            hand = (hand[0] - 1, hand[1]) if side == WHITE else (hand[0], hand[1] - 1)
        if removal >= 0:
            opp &= ~(1 << removal)
            quiet = 0
        elif self.tables.reset_on_mill and self.closes_mill(origin, target):
            quiet = 0
        else:
            quiet = self.quiet + 1
        men = (own, opp) if side == WHITE else (opp, own)
        return Position(self.tables, men, hand, side ^ 1, quiet)


def removable_mask(tables: Tables, opp: int) -> int:
    """The men of ``opp`` that may be removed after a mill: those outside mills, else the profile decides."""
    in_mill = 0
    for mill in tables.mills:
        if opp & mill == mill:
            in_mill |= mill
    free = opp & ~in_mill
    if free or not tables.remove_all_in_mills:
        return free
    return opp


def generate_turns(tables: Tables, own: int, opp: int, hand: int) -> list[RawTurn]:
    """Every legal turn of the side with men ``own`` and ``hand`` men in hand, against ``opp``.

    Plain integers in and out, so the search uses it without building positions. Placements
    come first, by target, then steps by origin and target; a step that closes a mill comes
    once per removable man.

    >>> t = tables_for("standard")
    >>> a1, a4, d1 = (1 << POINTS.index(p) for p in ("a1", "a4", "d1"))
    >>> [[POINTS[i] for i in turn[1:]] for turn in generate_turns(t, a1 | a4, d1, 1) if turn[2] >= 0]
    [['a7', 'd1']]
    """
    if hand + own.bit_count() < 3:
        return []
    empty = FULL & ~(own | opp)
    # Most turns close no mill: only a step to one of ``closing`` can, so the others take
    # their turns from the tables without a look at the mills.
    closing = tables.closing_points(own) & empty
    removals: tuple[int, ...] | None = None
    out: list[RawTurn]
    if not hand:
        out = []
    elif not closing:
        low, high = tables.placements
        out = [*low[empty & 0xFFF], *high[empty >> 12]]
    else:
        removals = bits(removable_mask(tables, opp))
        out = []
        for to in bits(empty):
            if removals and closing >> to & 1:
                out.extend([(-1, to, r) for r in removals])
            else:
                out.append((-1, to, -1))
    if hand == 0 or tables.move_while_placing:
        fly = tables.flying and hand == 0 and own.bit_count() == 3
        adjacency = tables.adjacency
        steps_from = tables.steps_from
        partners = tables.partners
        for origin in bits(own):
            targets = empty if fly else adjacency[origin] & empty
            if not targets & closing:
                if fly:
                    out.extend([(origin, to, -1) for to in bits(targets)])
                elif targets:
                    out.extend(steps_from[origin][targets])
                continue
            rest = own & ~(1 << origin)
            for to in bits(targets):
                if closing >> to & 1:
                    for pair in partners[to]:
                        if rest & pair == pair:
                            if removals is None:
                                removals = bits(removable_mask(tables, opp))
                            if removals:
                                out.extend([(origin, to, r) for r in removals])
                            else:
                                out.append((origin, to, -1))
                            break
                    else:
                        out.append((origin, to, -1))
                else:
                    out.append((origin, to, -1))
    return out


def perft(position: Position, depth: int) -> int:
    """Leaf count of the turn tree to ``depth`` (a move and its removal are one turn).

    Positions are not checked for history-dependent draws (repetition, N-move rule).

    >>> perft(Position.start(), 2)
    552
    """
    if depth <= 0:
        return 1
    if depth == 1:
        return position.count_turns()
    total = 0
    for turn in position.turns():
        total += perft(position.play(turn), depth - 1)
    return total
