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

import threading
import time
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from morris_pi.rules.position import Position, RawTurn, Tables, tables_for
from morris_pi.rules.profiles import Profile, get_profile

from .evaluate import Evaluator
from .nodes import CHECK_EVERY, EXACT, LMR, LMR_FROM, MAX_PLY, PLACING_EXTENSION, NodeSearch, TTEntry
from .search_types import INF, MATE, MATE_BOUND, Limits, SearchResult, StopFlag, _Stop, score_form
from .zobrist import ZQUIET, zobrist

if TYPE_CHECKING:
    from .egtb import EndgameTables  # imported when the tables are first wanted

__all__ = [
    "ASPIRATION",
    "CHECK_EVERY",
    "EXACT",
    "INF",
    "LMR",
    "LMR_FROM",
    "MATE",
    "MATE_BOUND",
    "MAX_PLY",
    "PLACING_EXTENSION",
    "ZQUIET",
    "Limits",
    "SearchResult",
    "Searcher",
    "StopFlag",
    "TTEntry",
    "score_form",
    "zobrist",
]

ASPIRATION = 25  # half-width of the root window around the last iteration's score (0 = off)


class Searcher(NodeSearch):
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
