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
- At the horizon the evaluation stands: there is no quiescence search. Its
  ``threat`` term (the side to move can close a mill) stands in for one; the
  measurements are in docs/history/engine.md.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence

from morris_pi.rules.position import Position, RawTurn, Tables, tables_for
from morris_pi.rules.profiles import Profile, get_profile

from .egtb import EndgameTables, tables_for_profile
from .evaluate import Evaluator, Weights
from .movegen import TurnGenerator
from .nodes import CHECK_EVERY, MAX_PLACING_EXTENSION, MAX_PLY, PLACING_EXTENSION, NodeSearch
from .search_types import INF, MATE, MATE_BOUND, Limits, SearchResult, StopFlag, _Stop, score_form
from .table import TranspositionTable
from .zobrist import ZQUIET, zobrist

__all__ = [
    "ASPIRATION",
    "CHECK_EVERY",
    "INF",
    "MATE",
    "MATE_BOUND",
    "MAX_PLY",
    "PLACING_EXTENSION",
    "ZQUIET",
    "Limits",
    "NodeSearch",
    "SearchResult",
    "Searcher",
    "StopFlag",
    "TranspositionTable",
    "score_form",
    "zobrist",
]

ASPIRATION = 25  # half-width of the root window around the last iteration's score (0 = off)


class Searcher:
    """A search for one profile. Keeps its transposition table between calls (``clear()`` resets).

    ``endgame``: ``True`` loads the shipped endgame tables valid for the profile (if any),
    ``None`` or ``False`` searches without, or pass ``EndgameTables``.

    ``placing_extension`` (0 = off) is the default of ``search``'s: a line whose last
    placement falls at or near the horizon is searched on until it has seen this many
    moving turns, so its evaluation sees the room the placing left each side rather
    than guessing it from a placing position. Every line leaves the placing phase at
    most once, so it is extended at most once, by at most this many turns.

    >>> s = Searcher("standard")
    >>> r = s.search(Position.start(), limits=Limits(depth=2))
    >>> r.turn in Position.start().turns()
    True
    >>> s  # doctest: +ELLIPSIS
    <Searcher profile='standard' table=524,288 slots endgame=... extension=0 nodes=...>
    """

    #: What one search's nodes are searched with (a subclass may watch them).
    node_search: type[NodeSearch] = NodeSearch

    def __init__(
        self,
        profile: str | Profile = "standard",
        *,
        weights: Weights | None = None,
        tt_bits: int = 19,
        endgame: EndgameTables | bool | None = True,
        aspiration: int = ASPIRATION,
        placing_extension: int = PLACING_EXTENSION,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        tables: Tables = tables_for(get_profile(profile))
        self.profile = tables.profile
        self.moves = TurnGenerator(tables)
        self.ev = Evaluator(tables, weights)
        self.aspiration = aspiration
        if not 0 <= placing_extension <= MAX_PLACING_EXTENSION:
            raise ValueError(
                f"placing_extension {placing_extension!r}: 0 (off) to {MAX_PLACING_EXTENSION} moving turns"
            )
        self.placing_extension = placing_extension
        self.clock = clock
        if endgame is True:  # the tables themselves load on first use, once per setting
            endgame = tables_for_profile(self.profile)
        self.egtb: EndgameTables | None = endgame or None
        self.table = TranspositionTable(tt_bits)
        #: Leaf evaluations by position key, kept between searches like the table.
        self.evals: dict[int, int] = {}
        #: The search under way, or the last one (its node count and line so far).
        self.current: NodeSearch | None = None

    def __repr__(self) -> str:
        endgame = "yes" if self.egtb is not None else "no"
        return (
            f"<Searcher profile={self.profile.name!r} table={len(self.table):,} slots endgame={endgame}"
            f" extension={self.placing_extension} nodes={self.nodes:,}>"
        )

    @property
    def nodes(self) -> int:
        """Nodes of the search under way (read from another thread while it runs) or of the last one."""
        current = self.current
        return current.nodes if current is not None else 0

    @property
    def root_pv(self) -> list[RawTurn]:
        """The best line of the search under way as far as it got (or of the last one)."""
        current = self.current
        return current.root_pv if current is not None else []

    def clear(self) -> None:
        """Forget the transposition table and the evaluation cache."""
        self.table.clear()
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
        placing_extension: int | None = None,
    ) -> SearchResult:
        """Search ``position`` (the game's earlier ``history`` positions count as repetitions).

        ``margin`` also proves the exact score of every root turn within ``margin`` of the
        best (the others fail low cheaply) and reports them in ``root_scores``: the noisy
        levels choose among those. ``all_scores`` searches every root turn with a full
        window (an unlimited margin). ``restrict`` limits the root to some turns (e.g. the
        completions of a step whose removal is pending). ``placing_extension`` is this
        search's (``None``: the searcher's default).
        """
        if position.profile != self.profile:
            raise ValueError(f"position is of profile {position.profile.name!r}, searcher of {self.profile.name!r}")
        if all_scores:
            margin = 2 * INF
        limits = limits or Limits(depth=4)
        started = self.clock()
        self.table.new_search()
        nodes = self.current = self.node_search(
            self.moves,
            self.ev.evaluate,
            self.table,
            self.evals,
            self.egtb,
            limits=limits,
            started=started,
            clock=self.clock,
            stop_flag=stop_flag,
            placing_extension=self.placing_extension if placing_extension is None else placing_extension,
            repetitions=[zobrist(past) for past in history if past is not position],
        )
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
                best, best_turn, scores = nodes.root(order, args, depth, margin, lo, hi, result)
                if best <= lo or best >= hi:
                    # outside the aspiration window: the scores are bounds, search again in full
                    best, best_turn, scores = nodes.root(order, args, depth, margin, -INF, INF, result)
                result.turn, result.score, result.depth = best_turn, best, depth
                result.root_scores = dict(scores)
                order.sort(key=lambda t: -scores.get(t, -INF))
                if abs(best) > MATE_BOUND and not wide and depth > 2:
                    break  # a proven result does not change with depth
                if len(root_turns) == 1 and not wide and depth >= 2:
                    break
        except _Stop:
            pass
        result.nodes = nodes.nodes
        result.time = self.clock() - started
        result.pv = self._pv(position, result.turn, nodes.root_pv)
        return result

    # -- principal variation -----------------------------------------------------------

    def _pv(self, position: Position, first: RawTurn | None, root_pv: list[RawTurn]) -> list[RawTurn]:
        """The principal variation, each turn checked against the rules' generator."""
        if first is None:
            return []
        line = list(root_pv) if root_pv and root_pv[0] == first else [first]
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
