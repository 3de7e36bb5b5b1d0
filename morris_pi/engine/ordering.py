"""The order in which the search tries a node's turns, as sortable integers.

A turn's rank is one integer, ``score << CODE_BITS | code``: the ordering score (the
transposition table's turn, then mill-closing turns, the two killers, then the history)
above a code that grows with ``(origin, target, removal)``. Sorting the ranks gives the order
sorting ``(score, turn)`` pairs gave, but compares integers instead of tuples: ties on the
score are common, and every tied tuple comparison fell through to comparing the turns.

>>> TURN_OF_CODE[sorted([turn_code((3, 4, -1)), turn_code((-1, 9, 2))])[0]]
(-1, 9, 2)
"""

from __future__ import annotations

import itertools

from morris_pi.rules.position import RawTurn

CODE_BITS = 14
CODE_MASK = (1 << CODE_BITS) - 1
TABLE_RANK = 1 << 40 + CODE_BITS  # the transposition table's turn comes first
CAPTURE_RANK = 1 << 36 + CODE_BITS  # mill-closing turns next, before killers and history
KILLER_RANKS = (1 << 34 + CODE_BITS, 1 << 33 + CODE_BITS)


def turn_code(turn: RawTurn) -> int:
    """The turn's rank among turns, ``(origin, target, removal)`` compared in that order.

    >>> turn_code((-1, 0, -1)) < turn_code((-1, 0, 5)) < turn_code((-1, 1, -1)) < turn_code((0, 0, -1))
    True
    >>> TURN_OF_CODE[turn_code((7, 23, 23))]
    (7, 23, 23)
    """
    o, t, r = turn
    return (o + 1) * 625 + t * 25 + r + 1


#: The turn of each code (points 0-23); codes no turn has hold ``(-1, -1, -1)``.
TURN_OF_CODE: list[RawTurn] = [(-1, -1, -1)] * (1 << CODE_BITS)
for _turn in itertools.product(range(-1, 24), range(24), range(-1, 24)):
    TURN_OF_CODE[turn_code(_turn)] = _turn


def history_index(turn: RawTurn) -> int:
    """The turn's step in the history table (origin + 1) * 25 + target; times 25 plus
    removal + 1 it is the turn's code."""
    return turn[0] * 25 + turn[1] + 25


def ranks(
    turns: list[RawTurn], history: list[int], k0: RawTurn | None, k1: RawTurn | None, first: RawTurn | None
) -> list[int]:
    """The turns' ranks, best first: ``first`` (the table's turn) left out, as it was searched
    already; then mill-closing turns, the killers ``k0`` and ``k1``, then the ``history``."""
    # One comprehension, then the few special turns patched in: a loop with a branch per
    # turn cost more than the search of the turns it ordered.
    out = [
        (history[(step := o * 25 + t + 25)] << CODE_BITS) + step * 25 + r + 1 + (CAPTURE_RANK if r >= 0 else 0)
        for o, t, r in turns
    ]
    if k0 is not None and k0 != first and k0 in turns:
        out[turns.index(k0)] = KILLER_RANKS[0] | turn_code(k0)
    if k1 is not None and k1 != first and k1 in turns:
        out[turns.index(k1)] = KILLER_RANKS[1] | turn_code(k1)
    if first is not None and first in turns:
        del out[turns.index(first)]
    out.sort(reverse=True)
    return out
