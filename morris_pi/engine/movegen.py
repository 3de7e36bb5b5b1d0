"""Turn generation on plain bitboards for the search.

All turns come from the rules' ``generate_turns`` on plain integers, without
creating objects per position. Two tests are the engine's own: the mill-closing
turns (``captures``, for quiescence) and whether a side can step at all
(``_can_step``, for the N-move rule and at the horizon). A subclass sets the
table attributes (see ``TurnGenerator.setup``).
"""

from __future__ import annotations

from morris_pi.rules.board import FULL, bits
from morris_pi.rules.position import RawTurn, Tables, generate_turns, removable_mask


class TurnGenerator:
    """Turns of the side owning ``me`` against ``op``, for one profile's tables."""

    def setup(self, t: Tables) -> None:
        self.tables = t
        self.profile = t.profile
        self.adj = t.adjacency
        self.partners = t.partners
        self.flying = t.flying
        self.mwp = t.move_while_placing
        self.reset_on_mill = t.reset_on_mill

    def removable(self, op: int) -> int:
        return removable_mask(self.tables, op)

    def generate(self, me: int, op: int, hme: int) -> list[RawTurn]:
        """Every turn of the side owning ``me``: the rules' own generator."""
        return generate_turns(self.tables, me, op, hme)

    def captures(self, me: int, op: int, hme: int) -> list[RawTurn]:
        """The turns that close a mill and remove a man."""
        rem = bits(self.removable(op))
        if not rem:
            return []
        empty = FULL & ~(me | op)
        partners = self.partners
        steps: list[tuple[int, int]] = []
        if hme:
            for t in bits(empty):
                for pair in partners[t]:
                    if me & pair == pair:
                        steps.append((-1, t))
                        break
        if not hme or self.mwp:
            fly = self.flying and not hme and me.bit_count() == 3
            adj = self.adj
            for o in bits(me):
                rest = me & ~(1 << o)
                for t in bits(empty if fly else adj[o] & empty):
                    for pair in partners[t]:
                        if rest & pair == pair:
                            steps.append((o, t))
                            break
        return [(o, t, r) for o, t in steps for r in rem]

    def _can_step(self, me: int, op: int, hme: int) -> bool:
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
