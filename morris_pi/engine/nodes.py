"""The node search of ``Searcher``: principal variation search, quiescence, table probes.

The hot path: the child positions are made in ``_pvs`` itself, on plain integers (see
``search``'s module docstring for the decisions). ``Searcher`` (in ``search``) sets
the attributes declared here and drives these methods from the root.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from morris_pi.rules.position import RawTurn

from .movegen import TurnGenerator
from .ordering import CODE_MASK, TABLE_RANK, TURN_OF_CODE, history_index, ranks, turn_code
from .search_types import INF, MATE, MATE_BOUND, StopFlag, _Stop
from .zobrist import ZHAND, ZPOINT, ZQUIET, ZSIDE

if TYPE_CHECKING:
    from .egtb import EndgameTables

MAX_PLY = 40
EXACT, LOWER, UPPER = 0, 1, 2
CHECK_EVERY = 256  # nodes between stop checks: well under 10 ms of search here
LMR = False  # late-move reductions: measured, not kept (docs/engine.md, "Second pass")
LMR_DEPTH = 3  # reduce only at nodes this deep or deeper
LMR_FROM = 3  # reduce from the fourth turn in the order on
EVAL_CACHE = 1 << 16  # leaf evaluations kept by position key (about 5 MB at most)
PLACING_EXTENSION = 0  # moving turns searched at least after the last placement (docs/engine.md, "Placing depth")
#: A transposition-table entry: (key, depth, bound, score, best turn, search id).
TTEntry = tuple[int, int, int, int, RawTurn | None, int]


class NodeSearch(TurnGenerator):
    """The search below the root; ``Searcher`` is the one to use."""

    # set by ``Searcher.__init__`` and ``Searcher.search``
    n_limit: int
    q_from: int
    evaluate: Callable[[int, int, int, int], int]
    quiescence: bool
    lmr: bool
    lmr_from: int
    placing_extension: int
    clock: Callable[[], float]
    egtb: EndgameTables | None
    tt_mask: int
    tt: list[TTEntry | None]
    evals: dict[int, int]
    age: int
    stop_flag: StopFlag | None
    _yield: bool
    nodes: int
    _check_at: int
    _max_nodes: int | None
    _deadline: float | None
    killers: list[list[RawTurn | None]]
    pvt: list[tuple[RawTurn, ...]]
    history: list[list[int]]
    rep: dict[int, int]
    _journal: list[tuple[list[int], int, int]]
    _pending: int

    def _unrep(self, key: int) -> None:
        n = self.rep[key] - 1
        if n:
            self.rep[key] = n
        else:
            del self.rep[key]

    def _child(
        self,
        turn: RawTurn,
        me: int,
        op: int,
        hme: int,
        hop: int,
        side: int,
        quiet: int,
        key: int,
        depth: int,
        alpha: int,
        beta: int,
        ply: int,
    ) -> int:
        """Score of playing ``turn``, from the mover's view (the negated child search)."""
        o, t, r = turn
        nme = me | (1 << t)
        nkey = key ^ ZPOINT[side][t] ^ ZSIDE
        nh = hme
        if o >= 0:
            nme &= ~(1 << o)
            nkey ^= ZPOINT[side][o]
        else:
            nh = hme - 1
            nkey ^= ZHAND[side][hme] ^ ZHAND[side][nh]
            if not nh and not hop and depth <= self.placing_extension:
                # the last placement: the child is the first moving position; see at least
                # ``placing_extension`` moving turns before evaluating (only placements pay this test)
                depth = self.placing_extension + 1
        nop = op
        nq = quiet + 1
        if r >= 0:
            nop = op & ~(1 << r)
            nkey ^= ZPOINT[side ^ 1][r]
            nq = 0
            if hop + nop.bit_count() < 3:
                self.pvt[ply + 1] = ()
                return MATE - ply - 1
        elif self.reset_on_mill and not op and self._closes(me, o, t):
            nq = 0
        return -self._pvs(nop, nme, hop, nh, side ^ 1, nq, nkey, depth - 1, alpha, beta, ply + 1)

    def _closes(self, me: int, o: int, t: int) -> bool:
        own = me & ~(1 << o) if o >= 0 else me
        return any(own & pair == pair for pair in self.partners[t])

    def _check(self) -> None:
        self._check_at = self.nodes + CHECK_EVERY
        if self.stop_flag is not None:
            if self.stop_flag.is_set():
                raise _Stop
            if self._yield:
                # in the engine's thread: let the board's loop have the interpreter now and then
                # (on the main thread nobody waits, and a sleep(0) costs tens of microseconds)
                time.sleep(0)
        if self._max_nodes is not None and self.nodes >= self._max_nodes:
            raise _Stop
        if self._deadline is not None and self.clock() >= self._deadline:
            raise _Stop

    def _probe(self, egtb: EndgameTables, me: int, op: int, quiet: int, ply: int) -> int | None:
        """Endgame-table score, or None when the tables do not know (or the N-move rule may intervene)."""
        code = egtb.probe(me, op)
        if code is None:
            return None
        if code == 0:
            return 0
        dtm = code - 1
        if quiet + dtm > self.n_limit:
            conversion = egtb.conversion(me, op)
            if conversion is None or quiet + conversion - 1 > self.n_limit:
                return None  # the N-move rule may come first
        return MATE - ply - dtm if dtm & 1 else -(MATE - ply - dtm)

    def _pvs(
        self,
        me: int,
        op: int,
        hme: int,
        hop: int,
        side: int,
        quiet: int,
        key: int,
        depth: int,
        alpha: int,
        beta: int,
        ply: int,
    ) -> int:
        self.pvt[ply] = ()
        self.nodes += 1
        if self.nodes >= self._check_at:
            self._check()
        if key in self.rep:
            return 0
        if self.egtb is not None and not hme and not hop and me.bit_count() + op.bit_count() <= 7:
            s = self._probe(self.egtb, me, op, quiet, ply)
            if s is not None:
                return s
        if ply >= MAX_PLY:
            return self.evaluate(me, op, hme, hop)
        tkey = key ^ ZQUIET[quiet] if quiet >= self.q_from else key
        e = self.tt[tkey & self.tt_mask]
        tt_turn = None
        if e is not None and e[0] == tkey:
            tt_turn = e[4]
            if e[1] >= depth:
                s = e[3]
                if s > MATE_BOUND:
                    s -= ply
                elif s < -MATE_BOUND:
                    s += ply
                flag = e[2]
                if flag == EXACT or (flag == LOWER and s >= beta) or (flag == UPPER and s <= alpha):
                    return s
        if depth <= 0:
            if quiet >= self.n_limit and self._can_step(me, op, hme):
                return 0
            if self.quiescence:
                return self._qs(me, op, hme, hop, alpha, beta, ply)
            # _qs without quiescence, with the evaluations cached: about a third of the
            # leaves are reached again (re-searches, transpositions the table lost)
            if not self._can_step(me, op, hme):
                return -(MATE - ply)
            s = self.evals.get(key)
            if s is None:
                if len(self.evals) >= EVAL_CACHE:
                    self.evals.clear()
                s = self.evals[key] = self.evaluate(me, op, hme, hop)
            return s
        # order: table turn, mill-closing turns, killers, then history
        killers = self.killers[ply]
        hist = self.history[side]
        k0, k1 = killers
        # The table's turn is tried before the others are generated: it often ends the node
        # (a quarter of the inner nodes here), and then the rest was never needed. A turn
        # stored for this key is this position's; the test only guards the boards against a
        # key collision.
        deferred = False
        if tt_turn is not None:
            o, t, r = tt_turn
            deferred = bool(me >> o & 1 if o >= 0 else hme) and not (me | op) >> t & 1 and (r < 0 or bool(op >> r & 1))
        if deferred:
            if quiet >= self.n_limit:
                return 0
            scored = [TABLE_RANK | turn_code((o, t, r))]
            mark = len(self._journal)
            self._pending += 1
        else:
            turns = self.generate(me, op, hme)
            if not turns:
                return -(MATE - ply)
            if quiet >= self.n_limit:
                return 0
            scored = ranks(turns, hist, k0, k1, None)
        turn_of = TURN_OF_CODE
        best = -INF
        best_turn: RawTurn | None = None
        a = alpha
        self.rep[key] = self.rep.get(key, 0) + 1
        # late-move reductions: quiet turns late in the order are first searched one turn
        # shallower, and again at full depth only if they beat the best so far
        reduce_from = self.lmr_from if self.lmr and depth >= LMR_DEPTH else 1 << 30
        # The child positions are made here rather than by ``_child`` (which the root uses):
        # the same steps, written out because a call per searched turn cost a tenth of the search.
        pvs = self._pvs
        zme, zop, zhand = ZPOINT[side], ZPOINT[side ^ 1], ZHAND[side]
        ext = self.placing_extension
        last_placement = hme == 1 and not hop
        mill_resets = self.reset_on_mill and not op
        child_side = side ^ 1
        child_ply = ply + 1
        try:
            first = True
            for i, rank in enumerate(scored):
                turn = turn_of[rank & CODE_MASK]
                o, t, r = turn
                nme = me | 1 << t
                nkey = key ^ zme[t] ^ ZSIDE
                nh = hme
                floor = 0  # the least depth the child is searched to (the placing extension)
                if o >= 0:
                    nme &= ~(1 << o)
                    nkey ^= zme[o]
                else:
                    nh = hme - 1
                    nkey ^= zhand[hme] ^ zhand[nh]
                    if last_placement and ext:
                        floor = ext + 1
                nop = op
                nq = quiet + 1
                won = False
                if r >= 0:
                    nop = op & ~(1 << r)
                    nkey ^= zop[r]
                    nq = 0
                    won = hop + nop.bit_count() < 3
                elif mill_resets and self._closes(me, o, t):
                    nq = 0
                d = depth - 1 if depth > floor else floor - 1
                if won:
                    self.pvt[child_ply] = ()
                    s = MATE - child_ply
                    first = False
                elif first:
                    s = -pvs(nop, nme, hop, nh, child_side, nq, nkey, d, -beta, -a, child_ply)
                    first = False
                else:
                    if i >= reduce_from and r < 0 and turn not in (k0, k1):
                        s = -pvs(
                            nop,
                            nme,
                            hop,
                            nh,
                            child_side,
                            nq,
                            nkey,
                            depth - 2 if depth - 1 > floor else floor - 1,
                            -a - 1,
                            -a,
                            child_ply,
                        )
                        if s > a:
                            s = -pvs(nop, nme, hop, nh, child_side, nq, nkey, d, -a - 1, -a, child_ply)
                    else:
                        s = -pvs(nop, nme, hop, nh, child_side, nq, nkey, d, -a - 1, -a, child_ply)
                    if a < s < beta:
                        s = -pvs(nop, nme, hop, nh, child_side, nq, nkey, d, -beta, -a, child_ply)
                if s > best:
                    best, best_turn = s, turn
                    if s > a:
                        a = s
                        if s < beta:
                            self.pvt[ply] = (turn,) + self.pvt[ply + 1]
                        else:
                            if turn[2] < 0:
                                if turn != k0:
                                    killers[1] = k0
                                    killers[0] = turn
                                index = history_index(turn)
                                hist[index] += depth * depth
                                if self._pending:
                                    self._journal.append((hist, index, depth * depth))
                            break
                if deferred:
                    # The table's turn did not end the node: rank the rest by the history as it
                    # stood before that turn's search added to it, as if ranked together.
                    deferred = False
                    self._pending -= 1
                    added = [entry for entry in self._journal[mark:] if entry[0] is hist]
                    for _, index, amount in added:
                        hist[index] -= amount
                    scored += ranks(self.generate(me, op, hme), hist, k0, k1, tt_turn)
                    for _, index, amount in added:
                        hist[index] += amount
                    if not self._pending:
                        self._journal.clear()
        finally:
            if deferred:
                self._pending -= 1
                if not self._pending:
                    self._journal.clear()
            self._unrep(key)
        flag = LOWER if best >= beta else (EXACT if best > alpha else UPPER)
        stored = best
        if stored > MATE_BOUND:
            stored += ply
        elif stored < -MATE_BOUND:
            stored -= ply
        slot = tkey & self.tt_mask
        old = self.tt[slot]
        # keep deeper entries of this search; replace anything older
        if old is None or old[5] != self.age or depth >= old[1] or old[0] == tkey:
            self.tt[slot] = (tkey, depth, flag, stored, best_turn, self.age)
        return best

    def _qs(self, me: int, op: int, hme: int, hop: int, alpha: int, beta: int, ply: int) -> int:
        """Quiescence: the side to move may stand pat or close a mill."""
        if not self._can_step(me, op, hme):
            return -(MATE - ply)
        stand = self.evaluate(me, op, hme, hop)
        if not self.quiescence or stand >= beta or ply >= MAX_PLY:
            return stand
        caps = self.captures(me, op, hme)
        if not caps:
            return stand
        alpha = max(alpha, stand)
        best = stand
        for o, t, r in caps:
            self.nodes += 1
            if self.nodes >= self._check_at:
                self._check()
            nop = op & ~(1 << r)
            if hop + nop.bit_count() < 3:
                return MATE - ply - 1
            nme = (me | (1 << t)) & ~(1 << o) if o >= 0 else me | (1 << t)
            nh = hme if o >= 0 else hme - 1
            if self.egtb is not None and not nh and not hop and nme.bit_count() + nop.bit_count() <= 7:
                s = self._probe(self.egtb, nop, nme, 0, ply + 1)
                s = -s if s is not None else -self._qs(nop, nme, hop, nh, -beta, -alpha, ply + 1)
            else:
                s = -self._qs(nop, nme, hop, nh, -beta, -alpha, ply + 1)
            if s > best:
                best = s
                if s > alpha:
                    alpha = s
                    if s >= beta:
                        break
        return best
