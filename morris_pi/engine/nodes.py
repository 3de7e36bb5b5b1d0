"""One search's nodes: principal variation search below the root, with its per-search state.

``Searcher`` (in ``search``) owns what lasts between searches (the transposition table,
the evaluation cache, the endgame tables) and makes a ``NodeSearch`` for every search
with what lasts one search: the limits, the stop flag, the placing extension, the
killer and history tables, the repetitions and the node count. The hot path, ``_pvs``,
makes the child positions itself on plain integers (see ``search``'s module docstring
for the decisions).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from morris_pi.rules.position import RawTurn

from .movegen import TurnGenerator
from .ordering import CODE_MASK, TABLE_RANK, TURN_OF_CODE, history_index, ranks, turn_code
from .search_types import INF, MATE, Limits, SearchResult, StopFlag, _Stop
from .table import EXACT, LOWER, UPPER, TranspositionTable
from .zobrist import ZHAND, ZPOINT, ZQUIET, ZSIDE

if TYPE_CHECKING:
    from .egtb import EndgameTables

MAX_PLY = 40
CHECK_EVERY = 256  # nodes between stop checks: well under 10 ms of search here
EVAL_CACHE = 1 << 16  # leaf evaluations kept by position key (about 5 MB at most)
PLACING_EXTENSION = 0  # moving turns searched at least after the last placement (docs/engine.md, "Search")
MAX_PLACING_EXTENSION = 4

Evaluate = Callable[[int, int, int, int], int]


class NodeSearch:
    """The nodes of one search from one root; ``Searcher.search`` makes and drives it.

    ``table`` and ``evals`` are the searcher's, shared by its searches; everything else
    here lives for this search only.
    """

    def __init__(
        self,
        moves: TurnGenerator,
        evaluate: Evaluate,
        table: TranspositionTable,
        evals: dict[int, int],
        egtb: EndgameTables | None,
        *,
        limits: Limits,
        started: float,
        clock: Callable[[], float],
        stop_flag: StopFlag | None = None,
        placing_extension: int = PLACING_EXTENSION,
        repetitions: Iterable[int] = (),
    ) -> None:
        if not 0 <= placing_extension <= MAX_PLACING_EXTENSION:
            raise ValueError(
                f"placing_extension {placing_extension!r}: 0 (off) to {MAX_PLACING_EXTENSION} moving turns"
            )
        self.moves = moves
        # bound once: the hot path calls these at every node
        self.generate = moves.generate
        self.can_step = moves.can_step
        self.closes_mill = moves.closes_mill
        self.reset_on_mill = moves.reset_on_mill
        self.evaluate = evaluate
        self.table = table
        self.evals = evals
        self.egtb = egtb
        self.n_limit = moves.profile.n_move_limit
        self.q_from = max(0, self.n_limit - MAX_PLY)
        self.placing_extension = placing_extension
        self.clock = clock
        self.stop_flag = stop_flag
        self.max_nodes = limits.nodes
        self.deadline = started + limits.time if limits.time is not None else None
        # in the engine's thread the search hands the interpreter over now and then (see ``_check``)
        self.yields = threading.current_thread() is not threading.main_thread()
        self.nodes = 0
        self.check_at = CHECK_EVERY
        self.killers: list[list[RawTurn | None]] = [[None, None] for _ in range(MAX_PLY + 2)]
        self.pvt: list[tuple[RawTurn, ...]] = [()] * (MAX_PLY + 2)
        #: The best line of the iteration under way, as far as it got.
        self.root_pv: list[RawTurn] = []
        self.history: list[list[int]] = [[0] * (25 * 25) for _ in range(2)]  # by (origin + 1) * 25 + target
        self.rep: dict[int, int] = {}
        for key in repetitions:
            self.rep[key] = self.rep.get(key, 0) + 1

    def __repr__(self) -> str:
        return f"<NodeSearch nodes={self.nodes:,} max_nodes={self.max_nodes} extension={self.placing_extension}>"

    def table_key(self, key: int, quiet: int) -> int:
        """The position's key in the table: the N-move counter counts only near the limit."""
        return key ^ ZQUIET[quiet] if quiet >= self.q_from else key

    # -- the root ----------------------------------------------------------------------

    def root(
        self,
        order: list[RawTurn],
        args: tuple[int, int, int, int, int, int, int],
        depth: int,
        margin: int | None,
        alpha: int,
        beta: int,
        result: SearchResult,
    ) -> tuple[int, RawTurn, dict[RawTurn, int]]:
        """One iteration at the root in the window (``alpha``, ``beta``).

        ``args`` is the root as ``(me, op, hme, hop, side, quiet, key)``. Returns the best
        score, its turn and the exact scores found (the best turn's, and with a ``margin``
        those of every turn within it).
        """
        me, op, hme, hop, side, quiet, key = args
        floor = alpha
        best, best_turn = -INF, order[0]
        pv = [best_turn]
        scores: dict[RawTurn, int] = {}
        self.rep[key] = self.rep.get(key, 0) + 1
        try:
            for i, turn in enumerate(order):
                if i == 0:
                    lo = floor
                elif margin is None:
                    lo = max(floor, best)
                else:
                    lo = max(floor, best - margin)
                if i == 0 or lo <= -INF:
                    s = self._child(turn, me, op, hme, hop, side, quiet, key, depth, -beta, -lo, 0)
                else:
                    s = self._child(turn, me, op, hme, hop, side, quiet, key, depth, -lo - 1, -lo, 0)
                    if lo < s < beta:
                        s = self._child(turn, me, op, hme, hop, side, quiet, key, depth, -beta, -lo, 0)
                if s > lo and s < beta:
                    scores[turn] = s
                if s > best:
                    best, best_turn = s, turn
                    pv = [turn, *self.pvt[1]]
                    if s > floor:
                        # a move that beat the previous best in an unfinished iteration is still usable
                        self.root_pv = pv
                        result.turn, result.score = best_turn, best
                        if i == 0 and depth > 1:
                            result.depth = depth
                if s >= beta:
                    scores[turn] = s
                    break  # fail high: the caller searches again with a full window
        finally:
            self._unrep(key)
        if floor < best < beta:
            self.table.store(self.table_key(key, quiet), depth, EXACT, best, best_turn, 0, always=True)
        self.root_pv = pv
        return best, best_turn, scores

    # -- below the root ----------------------------------------------------------------

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
        elif self.reset_on_mill and not op and self.closes_mill(me, o, t):
            nq = 0
        return -self._pvs(nop, nme, hop, nh, side ^ 1, nq, nkey, depth - 1, alpha, beta, ply + 1)

    def _check(self) -> None:
        self.check_at = self.nodes + CHECK_EVERY
        if self.stop_flag is not None:
            if self.stop_flag.is_set():
                raise _Stop
            if self.yields:
                # in the engine's thread: let the board's loop have the interpreter now and then
                # (on the main thread nobody waits, and a sleep(0) costs tens of microseconds)
                time.sleep(0)
        if self.max_nodes is not None and self.nodes >= self.max_nodes:
            raise _Stop
        if self.deadline is not None and self.clock() >= self.deadline:
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
        if self.nodes >= self.check_at:
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
        entry = self.table.probe(tkey)
        tt_turn = None
        if entry is not None:
            tt_turn = entry.turn
            if entry.depth >= depth:
                s = entry.score_at(ply)
                bound = entry.bound
                if bound == EXACT or (bound == LOWER and s >= beta) or (bound == UPPER and s <= alpha):
                    return s
        if depth <= 0:
            # at the horizon: a side that cannot move has lost; otherwise the evaluation, cached
            # (about a third of the leaves are reached again: re-searches, transpositions the
            # table lost)
            if quiet >= self.n_limit and self.can_step(me, op, hme):
                return 0
            if not self.can_step(me, op, hme):
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
            for rank in scored:
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
                elif mill_resets and self.closes_mill(me, o, t):
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
                                hist[history_index(turn)] += depth * depth
                            break
                if deferred:
                    # the table's turn did not end the node: now the others, ranked
                    deferred = False
                    scored += ranks(self.generate(me, op, hme), hist, k0, k1, tt_turn)
        finally:
            self._unrep(key)
        bound = LOWER if best >= beta else (EXACT if best > alpha else UPPER)
        self.table.store(tkey, depth, bound, best, best_turn, ply)
        return best
