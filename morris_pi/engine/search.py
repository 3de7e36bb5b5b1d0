"""Iterative-deepening principal variation search over rules positions.

The search runs on plain integers (two 24-bit bitboards, men in hand, side to
move, the N-move counter and an incremental Zobrist key) so that no objects
are built per node. Its turns come from the rules' own ``generate_turns`` on
those integers (one generator for the rules and the engine); the turns the
search returns at the root always come from ``Position.turns()``.

Decisions:

- Scores are centi-men from the side to move's view. A win at ply ``p``
  scores ``MATE - p`` (an endgame-table win adds the table's distance), so
  the fastest win and the slowest loss are preferred.
- The transposition table is a fixed list indexed by the Zobrist key. The
  N-move counter enters the key only when a search from that node could reach
  the limit (``quiet >= limit - MAX_PLY``); below that the value cannot depend
  on it and positions reached with different counters share entries.
- A position already on the search path or in the game's history scores as a
  draw (the usual approximation of threefold repetition). Profiles with
  claimed draws are searched the same way: the side that profits claims.
- Quiescence over pending mills (at the horizon the side to move may still
  close mills, stand-pat allowed) is available but off: in self-play at equal
  node budgets it lost (35% at 5000 nodes, 42% at 1500; each mill-closing step
  expands into one turn per removable man, which eats the budget). The
  evaluation's ``threat`` term stands in for it.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from morris_pi.rules.board import bits
from morris_pi.rules.position import Position, RawTurn, Tables, tables_for
from morris_pi.rules.profiles import Profile, get_profile

from .evaluate import WIN_SCORE, Evaluator
from .movegen import TurnGenerator
from .ordering import CODE_MASK, TABLE_RANK, TURN_OF_CODE, history_index, ranks, turn_code

if TYPE_CHECKING:
    from .egtb import EndgameTables  # imported when the tables are first wanted

MATE = WIN_SCORE
MATE_BOUND = MATE - 1000  # scores beyond this are known wins/losses
INF = MATE + 1
MAX_PLY = 40
EXACT, LOWER, UPPER = 0, 1, 2
ASPIRATION = 25  # half-width of the root window around the last iteration's score (0 = off)
CHECK_EVERY = 256  # nodes between stop checks: well under 10 ms of search here
LMR = False  # late-move reductions: measured, not kept (docs/engine.md, "Second pass")
LMR_DEPTH = 3  # reduce only at nodes this deep or deeper
LMR_FROM = 3  # reduce from the fourth turn in the order on
EVAL_CACHE = 1 << 16  # leaf evaluations kept by position key (about 5 MB at most)
PLACING_EXTENSION = 0  # moving turns searched at least after the last placement (docs/engine.md, "Placing depth")
#: A transposition-table entry: (key, depth, bound, score, best turn, search id).
TTEntry = tuple[int, int, int, int, RawTurn | None, int]
#: Zobrist numbers, one row per side: by point, or by the number of men in hand.
ZobristRows = tuple[tuple[int, ...], ...]


class StopFlag(Protocol):
    """What the search asks every ``CHECK_EVERY`` nodes whether to stop (e.g. a ``threading.Event``)."""

    def is_set(self) -> bool: ...


class _Stop(Exception):
    pass


@dataclass
class Limits:
    """When to stop: any of maximum depth (turns), nodes, seconds, or an external stop flag."""

    depth: int | None = None
    nodes: int | None = None
    time: float | None = None


@dataclass
class SearchResult:
    turn: RawTurn | None
    score: int
    depth: int
    nodes: int
    time: float
    pv: list[RawTurn] = field(default_factory=list)
    #: Scores of every root turn from the last completed iteration (``all_scores`` searches only).
    root_scores: dict[RawTurn, int] = field(default_factory=dict)
    #: The turn came from the opening book (score and depth are the book search's).
    book: bool = False


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


def score_form(score: int) -> int | dict[str, int]:
    """A score as JSON: centi-men, or ``{"win_in": n}`` / ``{"loss_in": n}`` turns for known results."""
    if score > MATE_BOUND:
        return {"win_in": MATE - score}
    if score < -MATE_BOUND:
        return {"loss_in": MATE + score}
    return score


class Searcher(TurnGenerator):
    """A search for one profile. Keeps its transposition table between calls (``clear()`` resets).

    ``endgame``: ``True`` loads the shipped endgame tables valid for the profile (if any),
    ``None`` or ``False`` searches without, or pass ``EndgameTables``.

    ``placing_extension`` (0 = off): a line whose last placement falls at or near the
    horizon is searched on until it has seen this many moving turns, so its evaluation
    sees the room the placing left each side rather than guessing it from a placing
    position. Every line leaves the placing phase at most once, so it is extended at
    most once, by at most this many turns.

    >>> s = Searcher("standard")
    >>> r = s.search(Position.start(), limits=Limits(depth=2))
    >>> r.turn in Position.start().turns()
    True
    """

    def __init__(
        self,
        profile: str | Profile = "standard",
        *,
        weights: dict[str, dict[str, int]] | None = None,
        tt_bits: int = 19,
        endgame: EndgameTables | bool | None = True,
        quiescence: bool = False,
        aspiration: int = ASPIRATION,
        lmr: bool = LMR,
        lmr_from: int = LMR_FROM,
        placing_extension: int = PLACING_EXTENSION,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        t: Tables = tables_for(get_profile(profile))
        self.setup(t)
        self.n_limit = t.profile.n_move_limit
        self.q_from = max(0, self.n_limit - MAX_PLY)
        self.ev = Evaluator(t, weights)
        self.evaluate = self.ev.evaluate
        self.quiescence = quiescence
        self.aspiration = aspiration
        self.lmr = lmr
        self.lmr_from = lmr_from
        if not 0 <= placing_extension <= 4:
            raise ValueError(f"placing_extension {placing_extension!r}: 0 (off) to 4 moving turns")
        self.placing_extension = placing_extension
        self.clock = clock
        if endgame is True:
            from .egtb import tables_for_profile

            endgame = tables_for_profile(self.profile)
        self.egtb: EndgameTables | None = endgame or None
        self.tt_mask = (1 << tt_bits) - 1
        self.tt: list[TTEntry | None] = [None] * (1 << tt_bits)
        self.evals: dict[int, int] = {}
        self.age = 0
        self.stop_flag: StopFlag | None = None
        self._yield = False
        self.nodes = 0
        # per search (set up by ``search``)
        self._check_at = CHECK_EVERY
        self._max_nodes: int | None = None
        self._deadline: float | None = None
        self.killers: list[list[RawTurn | None]] = []
        self.pvt: list[tuple[RawTurn, ...]] = []
        self.root_pv: list[RawTurn] = []
        self.history: list[list[int]] = []
        self.rep: dict[int, int] = {}
        # history additions made while a node's table turn is searched before its other turns
        self._journal: list[tuple[list[int], int, int]] = []
        self._pending = 0  # nodes waiting to rank their other turns

    def clear(self) -> None:
        self.tt = [None] * (self.tt_mask + 1)
        self.evals = {}

    # -- the search --------------------------------------------------------------------

    def search(
        self,
        position: Position,
        history: Sequence[Position] = (),
        limits: Limits | None = None,
        *,
        all_scores: bool = False,
        margin: int | None = None,
        stop_flag: StopFlag | None = None,
        restrict: Iterable[RawTurn] | None = None,
    ) -> SearchResult:
        """Search ``position`` (the game's earlier ``history`` positions count as repetitions).

        ``margin`` also proves the exact score of every root turn within ``margin`` of the
        best (the others fail low cheaply) and reports them in ``root_scores``: the noisy
        levels choose among those. ``all_scores`` searches every root turn with a full
        window (an unlimited margin). ``restrict`` limits the root to some turns (e.g. the
        completions of a step whose removal is pending).
        """
        if position.profile != self.profile:
            raise ValueError(f"position is of profile {position.profile.name!r}, searcher of {self.profile.name!r}")
        if all_scores:
            margin = 2 * INF
        limits = limits or Limits(depth=4)
        started = self.clock()
        self.nodes = 0
        self.age += 1
        self._check_at = CHECK_EVERY
        self._max_nodes = limits.nodes
        self._deadline = started + limits.time if limits.time is not None else None
        self.stop_flag = stop_flag
        self._yield = threading.current_thread() is not threading.main_thread()
        self.killers = [[None, None] for _ in range(MAX_PLY + 2)]
        self.pvt = [()] * (MAX_PLY + 2)
        self.root_pv = []
        self.history = [[0] * (25 * 25) for _ in range(2)]  # by (origin + 1) * 25 + target
        self.rep = {}
        self._journal, self._pending = [], 0
        for past in history:
            if past is not position:
                k = zobrist(past)
                self.rep[k] = self.rep.get(k, 0) + 1
        root_turns = position.turns()
        if restrict is not None:
            allowed = set(restrict)
            root_turns = [t for t in root_turns if t in allowed]
        side = position.side
        me, op = position.men[side], position.men[side ^ 1]
        hme, hop = position.hand[side], position.hand[side ^ 1]
        key = zobrist(position)
        result = SearchResult(None, 0, 0, 0, 0.0)
        if not root_turns:
            result.score = -MATE
            return result
        result.turn = root_turns[0]
        order = list(root_turns)
        scores: dict[RawTurn, int] = {}
        max_depth = min(limits.depth or MAX_PLY - 4, MAX_PLY - 4)
        depth = 0
        wide = margin is not None and margin >= INF
        args = (me, op, hme, hop, side, position.quiet, key)
        try:
            for depth in range(1, max_depth + 1):
                lo, hi = -INF, INF
                prev = result.score
                if self.aspiration and depth >= 3 and not wide and abs(prev) < MATE_BOUND:
                    lo, hi = prev - self.aspiration - (margin or 0), prev + self.aspiration
                best, best_turn, scores = self._root(order, *args, depth, margin, lo, hi, result)
                if best <= lo or best >= hi:
                    # outside the aspiration window: the scores are bounds, search again in full
                    best, best_turn, scores = self._root(order, *args, depth, margin, -INF, INF, result)
                result.turn, result.score, result.depth = best_turn, best, depth
                result.root_scores = dict(scores)
                order.sort(key=lambda t: -scores.get(t, -INF))
                if abs(best) > MATE_BOUND and not wide and depth > 2:
                    break  # a proven result does not change with depth
                if len(root_turns) == 1 and not wide and depth >= 2:
                    break
        except _Stop:
            pass
        result.nodes = self.nodes
        result.time = self.clock() - started
        result.pv = self._pv(position, result.turn)
        return result

    def _root(
        self,
        order: list[RawTurn],
        me: int,
        op: int,
        hme: int,
        hop: int,
        side: int,
        quiet: int,
        key: int,
        depth: int,
        margin: int | None,
        alpha: int,
        beta: int,
        result: SearchResult,
    ) -> tuple[int, RawTurn, dict[RawTurn, int]]:
        """One iteration at the root in the window (``alpha``, ``beta``).

        Returns the best score, its turn and the exact scores found (the best turn's, and
        with a ``margin`` those of every turn within it).
        """
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
            tkey = key ^ ZQUIET[quiet] if quiet >= self.q_from else key
            self.tt[tkey & self.tt_mask] = (tkey, depth, EXACT, best, best_turn, self.age)
        self.root_pv = pv
        return best, best_turn, scores

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

    # -- principal variation -----------------------------------------------------------

    def _pv(self, position: Position, first: RawTurn | None) -> list[RawTurn]:
        """The principal variation, each turn checked against the rules' generator."""
        if first is None:
            return []
        line = list(self.root_pv) if self.root_pv and self.root_pv[0] == first else [first]
        pv = []
        pos = position
        for turn in line:
            if turn not in pos.turns():
                break
            pv.append(turn)
            pos = pos.play(turn)
            if pos.count(pos.side) < 3:
                break
        return pv
