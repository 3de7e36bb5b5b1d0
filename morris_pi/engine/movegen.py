"""Turn generation on plain bitboards for the search.

The same turns as ``morris_pi.rules.position.Position.turns`` (the tests
compare the two over random positions of every profile), built from the same
tables (``tables_for``), without creating objects per position. A subclass
sets the table attributes (see ``TurnGenerator.setup``).
"""

from __future__ import annotations

from morris_pi.rules.board import FULL, bits
from morris_pi.rules.position import RawTurn, Tables


class TurnGenerator:
    """Turns of the side owning ``me`` against ``op``, for one profile's tables."""

    def setup(self, t: Tables) -> None:
        self.tables = t
        self.profile = t.profile
        self.adj = t.adjacency
        self.partners = t.partners
        self.mills = t.mills
        self.flying = t.flying
        self.mwp = t.move_while_placing
        self.remove_all = t.remove_all_in_mills
        self.reset_on_mill = t.reset_on_mill

    def removable(self, op: int) -> int:
        in_mill = 0
        for m in self.mills:
            if op & m == m:
                in_mill |= m
        free = op & ~in_mill
        if free or not self.remove_all:
            return free
        return op

    def generate(self, me: int, op: int, hme: int) -> list[RawTurn]:
        """Every turn of the side owning ``me``: the same set as ``Position.turns()``."""
        if hme + me.bit_count() < 3:
            return []
        empty = FULL & ~(me | op)
        partners = self.partners
        out: list[RawTurn] = []
        rem = None
        if hme:
            for t in bits(empty):
                for pair in partners[t]:
                    if me & pair == pair:
                        if rem is None:
                            rem = bits(self.removable(op))
                        if rem:
                            out.extend([(-1, t, r) for r in rem])
                        else:
                            out.append((-1, t, -1))
                        break
                else:
                    out.append((-1, t, -1))
        if not hme or self.mwp:
            fly = self.flying and not hme and me.bit_count() == 3
            adj = self.adj
            for o in bits(me):
                rest = me & ~(1 << o)
                for t in bits(empty if fly else adj[o] & empty):
                    for pair in partners[t]:
                        if rest & pair == pair:
                            if rem is None:
                                rem = bits(self.removable(op))
                            if rem:
                                out.extend([(o, t, r) for r in rem])
                            else:
                                out.append((o, t, -1))
                            break
                    else:
                        out.append((o, t, -1))
        return out

    def captures(self, me: int, op: int, hme: int) -> list[RawTurn]:
        """The turns that close a mill and remove a man."""
        rem = bits(self.removable(op))
        if not rem:
            return []
        empty = FULL & ~(me | op)
        partners = self.partners
        steps = []
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
        for p in bits(me):
            if adj[p] & empty:
                return True
        return False
