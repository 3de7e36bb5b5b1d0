"""Turn generation on plain bitboards for the search.

All turns come from the rules' ``generate_turns`` on plain integers, without
creating objects per position. Two tests are the engine's own: whether a side
can step at all (``can_step``, for the N-move rule and at the horizon) and
whether a step closes a mill (``closes_mill``, for profiles whose N-move
counter restarts at a mill).

>>> from morris_pi.rules import Position
>>> moves = TurnGenerator(Position.start().tables)
>>> len(moves.generate(0, 0, 9)), moves.can_step(0, 0, 9)
(24, True)
"""

from __future__ import annotations

from morris_pi.rules.board import FULL, bits
from morris_pi.rules.position import RawTurn, Tables, generate_turns


class TurnGenerator:
    """Turns of the side owning ``me`` against ``op``, for one profile's tables."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self.profile = tables.profile
        self.adj = tables.adjacency
        self.partners = tables.partners
        self.flying = tables.flying
        self.mwp = tables.move_while_placing
        self.reset_on_mill = tables.reset_on_mill

    def __repr__(self) -> str:
        return f"<TurnGenerator profile={self.profile.name!r}>"

    def generate(self, me: int, op: int, hme: int) -> list[RawTurn]:
        """Every turn of the side owning ``me``: the rules' own generator."""
        return generate_turns(self.tables, me, op, hme)

    def closes_mill(self, me: int, o: int, t: int) -> bool:
        """Whether the step from ``o`` (-1: from hand) to ``t`` closes a mill of ``me``."""
        own = me & ~(1 << o) if o >= 0 else me
        return any(own & pair == pair for pair in self.partners[t])

    def can_step(self, me: int, op: int, hme: int) -> bool:
        """Whether the side owning ``me`` has any turn at all."""
        if hme and (me | op) != FULL:
            return True
        if hme and not self.mwp:
            return False
        if self.flying and not hme and me.bit_count() == 3:
            return (me | op) != FULL
        empty = FULL & ~(me | op)
        adj = self.adj
        # a plain loop: this runs at every leaf, and any() over a generator costs three times as much here
        for p in bits(me):  # noqa: SIM110
            if adj[p] & empty:
                return True
        return False
