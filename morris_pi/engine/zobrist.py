"""Zobrist keys of positions: the search's incremental keys start from ``zobrist``."""

from __future__ import annotations

import random

from morris_pi.rules.board import bits
from morris_pi.rules.position import Position

#: Zobrist numbers, one row per side: by point, or by the number of men in hand.
ZobristRows = tuple[tuple[int, ...], ...]


def _zobrist_tables(seed: int = 0x5EED) -> tuple[ZobristRows, ZobristRows, int, tuple[int, ...]]:
    rng = random.Random(seed)

    def r64() -> int:
        return rng.getrandbits(64)

    points = tuple(tuple(r64() for _ in range(24)) for _ in range(2))
    hands = tuple(tuple(r64() for _ in range(16)) for _ in range(2))
    quiet = tuple(r64() for _ in range(256))
    return points, hands, r64(), quiet


ZPOINT, ZHAND, ZSIDE, ZQUIET = _zobrist_tables()


def zobrist(position: Position) -> int:
    """The Zobrist key of a position (board, men in hand, side to move; not the N-move counter)."""
    key = ZSIDE if position.side else 0
    for side in (0, 1):
        for i in bits(position.men[side]):
            key ^= ZPOINT[side][i]
        key ^= ZHAND[side][position.hand[side]]
    return key
