"""The transposition table: what the search learnt about a position, kept by its Zobrist key.

The table is a fixed list of slots indexed by the key's low bits; a slot holds one
``TableEntry``. A win scores ``MATE - p`` at ply ``p`` from the root (see ``search``),
but an entry must serve the same position reached at any ply, so the table stores
a known result as its distance from the entry's own position and turns it back into
a distance from the root when it is read. That conversion lives here and nowhere
else: ``TranspositionTable.store`` and ``TableEntry.score_at``.

>>> from morris_pi.engine.search_types import MATE
>>> table = TranspositionTable(bits=4)
>>> table.store(0x2A, 3, EXACT, MATE - 5, (-1, 0, -1), ply=2)  # a win three plies below this node
>>> entry = table.probe(0x2A)
>>> entry.depth, entry.bound == EXACT, entry.score == MATE - 3
(3, True, True)
>>> entry.score_at(ply=4) == MATE - 7  # the same position two plies deeper: the win is two plies further
True
>>> table.probe(0x3A) is None  # same slot, another key
True
"""

# No ``from __future__ import annotations`` here: the API docs read ``TableEntry``'s field
# types from its generated constructor, which does not see this module's names.
from typing import NamedTuple

from morris_pi.rules.position import RawTurn

from .search_types import MATE_BOUND

#: The bounds an entry's score can be: the exact score, at least it (a cut), or at most it.
EXACT, LOWER, UPPER = 0, 1, 2


class TableEntry(NamedTuple):
    """One position's search result; ``score`` counts known results from this position."""

    key: int  # the full key, to tell this position from others in the same slot
    depth: int  # the depth searched below the position
    bound: int  # ``EXACT``, ``LOWER`` or ``UPPER``
    score: int  # centi-men, or ``MATE - n`` for a win ``n`` plies after this position
    turn: RawTurn | None  # the best turn found, tried first when the position comes again
    age: int  # the search that stored it (``TranspositionTable.age``)

    def score_at(self, ply: int) -> int:
        """The score as the search counts it at ``ply`` plies from the root."""
        score = self.score
        if score > MATE_BOUND:
            return score - ply
        if score < -MATE_BOUND:
            return score + ply
        return score


class TranspositionTable:
    """``2 ** bits`` slots; the entries of the current search are kept against shallower ones.

    A search calls ``new_search()`` first: entries of earlier searches may then be
    replaced by anything, entries of this one only by a search at least as deep (or
    of the same position).
    """

    __slots__ = ("_mask", "_slots", "age")

    def __init__(self, bits: int = 19) -> None:
        if not 1 <= bits <= 28:
            raise ValueError(f"table bits {bits!r}: 1 to 28 (2 to 268 million slots)")
        self._mask = (1 << bits) - 1
        self._slots: list[TableEntry | None] = [None] * (1 << bits)
        #: The current search's number, stored with its entries.
        self.age = 0

    def __len__(self) -> int:
        """The number of slots (used or not)."""
        return self._mask + 1

    def __repr__(self) -> str:
        return f"<TranspositionTable slots={len(self):,} used={self.used():,} age={self.age}>"

    def used(self) -> int:
        """Slots holding an entry (counts every slot: for display, not for the search)."""
        return sum(entry is not None for entry in self._slots)

    def clear(self) -> None:
        """Forget every entry."""
        self._slots = [None] * (self._mask + 1)

    def new_search(self) -> None:
        """Mark the entries stored from now on as the next search's."""
        self.age += 1

    def probe(self, key: int) -> TableEntry | None:
        """The entry of the position with ``key``, or ``None``."""
        entry = self._slots[key & self._mask]
        return entry if entry is not None and entry.key == key else None

    def store(
        self,
        key: int,
        depth: int,
        bound: int,
        score: int,
        turn: RawTurn | None,
        ply: int,
        always: bool = False,
    ) -> None:
        """Keep a search result (``score`` as the search counts it at ``ply``).

        ``always`` replaces whatever the slot holds (the root's result); otherwise an entry of
        this search from a deeper search of another position stays.
        """
        if score > MATE_BOUND:
            score += ply
        elif score < -MATE_BOUND:
            score -= ply
        slot = key & self._mask
        old = self._slots[slot]
        if always or old is None or old.age != self.age or depth >= old.depth or old.key == key:
            self._slots[slot] = TableEntry(key, depth, bound, score, turn, self.age)
