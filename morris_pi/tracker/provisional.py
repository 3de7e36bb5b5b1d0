"""Turns read but not yet confirmed, with the evidence each was read from.

A turn the board shows goes into the live game at once (the LEDs follow it) and waits as a
``ProvisionalTurn`` until it is confirmed (``Tracker._confirm``) or dropped because a later
change or scan reads the board otherwise (``Tracker._rollback``).

>>> from morris_pi.rules import Turn
>>> from morris_pi.rules.board import mask_of
>>> entry = ProvisionalTurn(Turn.parse("d6"), mask_of(["d6"]), mask_of(["d6"]), 0, 1.0, 0)
>>> chain_of([entry])
(Turn('d6'),)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from morris_pi.rules import Turn


@dataclass(frozen=True, slots=True)
class ProvisionalTurn:
    """A turn read from the board and not yet confirmed."""

    turn: Turn
    #: The points the turn changes (a mask).
    points: int
    #: The board after it (a mask).
    after: int
    #: Empty points touched before a placement's own man came to rest: a man landing there may
    #: have come first (two men put down at once), so the placement waits for them.
    watch: int
    #: Raw time of the last change of its points when it was read: the confirm timer's start.
    last: float
    #: Those of ``watch`` that held a man when this one came to rest (knocked off since): they
    #: keep the placement provisional longer (``KNOCKED_HOLD_S``).
    held: int


def chain_of(entries: Iterable[ProvisionalTurn]) -> tuple[Turn, ...]:
    """The turns of ``entries``, oldest first."""
    return tuple(entry.turn for entry in entries)


def watched(entries: Iterable[ProvisionalTurn]) -> int:
    """Empty points touched before a provisional placement whose man may yet land there."""
    mask = 0
    for entry in entries:
        mask |= entry.watch
    return mask


def carried_or_knocked(chain: tuple[Turn, ...], turns: tuple[Turn, ...]) -> bool:
    """Whether ``chain`` is a move and a placement on the point it left, and ``turns`` one
    placement (or its step) on the move's target instead.

    Read a turn at a time, the move stands before its man's old point fills again; read from the
    position before it with all the evidence, the board may show a man knocked off while a
    placement was made, put back since.

    >>> carried_or_knocked((Turn.parse("g4-f4"), Turn.parse("g4")), (Turn.parse("f4"),))
    True
    >>> carried_or_knocked((Turn.parse("g4-f4"), Turn.parse("d6")), (Turn.parse("f4"),))
    False
    """
    if len(chain) != 2 or len(turns) != 1:
        return False
    move, reply = chain
    (one,) = turns
    return (
        move.origin is not None
        and reply.origin is None
        and reply.target == move.origin
        and one.origin is None
        and one.target == move.target
    )
