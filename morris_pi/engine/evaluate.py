"""Static evaluation of a position from the side to move's point of view.

Terms (each counted for both sides, own minus opponent's), weighted per phase:

- ``men``: men on the board plus men in hand (material).
- ``closed``: mills standing closed.
- ``two``: two men of a mill with its third point empty.
- ``closable``: such a pair that a man can complete next turn (placing from
  hand, flying, or stepping in from a neighbouring point outside the mill).
- ``double``: a running double mill (Zwickmuehle): a man of a closed mill that
  steps to a neighbour and closes a second mill, and steps back to close the
  first again. While placing: an empty point that completes two mills.
- ``mobility``: steps along lines to empty points, in every phase (from the
  moving phase on not counted for a side that may fly).
- ``blocked``: men with no empty neighbour.
- ``threat``: the side to move can close a mill with its very next turn.
- ``liberties``: distinct empty points next to the side's men (its room to
  move). Counted while placing too: a side that places all its men into a
  pocket is smothered as soon as moving starts.
- ``cramped``: ``max(0, 5 - liberties) ** 2``, blockade danger. A side with
  few liberties can be shut in completely (it loses when it cannot move), so
  the penalty grows fast as the last exits close. Not counted for a side that
  may fly.

The phase is ``placing`` while anyone has men in hand, ``flying`` when a side
may fly, else ``moving``. Weights come from self-play tuning
(``morris_pi.engine.tune``); see ``DEFAULT_WEIGHTS``.

>>> from morris_pi.rules import Position
>>> ev = Evaluator(Position.start().tables)
>>> ev.evaluate(0, 0, 9, 9)
0
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace

from morris_pi.rules.board import FULL, bits
from morris_pi.rules.position import Tables

#: Below this many liberties a side counts as cramped (see ``cramped``).
CRAMP_FREE = 5


@dataclass(frozen=True, slots=True)
class PhaseWeights:
    """The weight of each term in one phase, centi-men per unit of the term."""

    men: int
    closed: int
    two: int
    closable: int
    double: int
    mobility: int
    blocked: int
    threat: int
    liberties: int
    cramped: int


@dataclass(frozen=True, slots=True)
class Weights:
    """The evaluation's weights, one ``PhaseWeights`` per phase.

    >>> DEFAULT_WEIGHTS.moving.cramped
    -40
    >>> DEFAULT_WEIGHTS.replaced({"moving": {"cramped": -30}}).moving.cramped
    -30
    >>> DEFAULT_WEIGHTS.replaced({"moving": {"space": 1}})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: unknown evaluation term 'space' in phase 'moving': choose from men, closed, ...
    """

    placing: PhaseWeights
    moving: PhaseWeights
    flying: PhaseWeights

    def phase(self, name: str) -> PhaseWeights:
        """The weights of phase ``name`` (``placing``, ``moving`` or ``flying``)."""
        if name not in PHASES:
            raise ValueError(f"unknown evaluation phase {name!r}: choose from {', '.join(PHASES)}")
        weights: PhaseWeights = getattr(self, name)
        return weights

    def replaced(self, overrides: Mapping[str, Mapping[str, int]] | None) -> Weights:
        """These weights with some replaced, per phase and term (e.g. a ``--weights`` JSON object)."""
        phases = {name: self.phase(name) for name in PHASES}
        for name, terms in (overrides or {}).items():
            current = self.phase(name)
            for term in terms:
                if term not in FEATURES:
                    raise ValueError(
                        f"unknown evaluation term {term!r} in phase {name!r}: choose from {', '.join(FEATURES)}"
                    )
            phases[name] = replace(current, **{term: int(value) for term, value in terms.items()})
        return Weights(**phases)

    def as_dict(self) -> dict[str, dict[str, int]]:
        """The weights as plain dictionaries (for JSON)."""
        return {name: asdict(self.phase(name)) for name in PHASES}


#: The terms, in the order ``Evaluator.side_features`` counts them.
FEATURES: tuple[str, ...] = tuple(f.name for f in fields(PhaseWeights))
PHASES: tuple[str, ...] = tuple(f.name for f in fields(Weights))

#: Weights per phase, in centi-men. Result of ``python -m morris_pi.engine.tune``, then
#: the space terms weighted against Sanmill (docs/history/engine.md has the runs).
DEFAULT_WEIGHTS = Weights(
    placing=PhaseWeights(
        men=100,
        closed=20,
        two=14,
        closable=6,
        double=40,
        mobility=12,
        blocked=-15,
        threat=24,
        liberties=20,
        cramped=-30,
    ),
    moving=PhaseWeights(
        men=100,
        closed=12,
        two=6,
        closable=30,
        double=70,
        mobility=6,
        blocked=-15,
        threat=60,
        liberties=12,
        cramped=-40,
    ),
    flying=PhaseWeights(
        men=100,
        closed=5,
        two=10,
        closable=30,
        double=20,
        mobility=0,
        blocked=0,
        threat=70,
        liberties=0,
        cramped=0,
    ),
)

WIN_SCORE = 30000  # a won position at the root; wins at ply p score WIN_SCORE - p


def merged(overrides: Mapping[str, Mapping[str, int]] | None) -> Weights:
    """The default weights with ``overrides`` (per phase, per term) replaced."""
    return DEFAULT_WEIGHTS.replaced(overrides)


class Evaluator:
    """Evaluates ``(me, op, hand_me, hand_op)`` bitboards of one profile's tables.

    The features are computed with whole-board bit operations rather than loops over
    points and mills, because the evaluation runs at every leaf and dominates the
    search's time: a side's men per mill come from byte tables as 2-bit counters (one
    field per mill), neighbours and steps from the few index distances along which the
    board's lines run. ``tests/test_engine_evaluate.py`` compares it with a plain
    point-by-point reference.
    """

    def __init__(self, tables: Tables, weights: Weights | None = None) -> None:
        self.adjacency = adjacency = tables.adjacency
        self.partners = tables.partners
        self.flying = tables.flying
        self.move_while_placing = tables.move_while_placing
        mills = tables.mills
        # men per mill as 2-bit fields, from the rules' byte tables (see ``Tables``)
        self._count = tables.mill_count
        self._low = tables.mill_low
        # field bit (2j) -> (mill mask, its points as (bit, neighbours))
        self._mill_at = {
            1 << 2 * j: (mill, tuple((1 << i, adjacency[i]) for i in bits(mill))) for j, mill in enumerate(mills)
        }
        self._adj_of_bit = {1 << i: adjacency[i] for i in range(len(adjacency))}
        # per point p and empty neighbour q: the pairs that close a mill at q without p
        self._pairs_without = {
            (pb, 1 << q): tuple(pair for pair in self.partners[q] if not pair & pb)
            for p in range(len(adjacency))
            for pb in (1 << p,)
            for q in bits(adjacency[p])
        }
        # Lines join points at a few index distances d (1, 7 and 8 on these boards); _edges
        # holds (d, mask of the lower points of such lines).
        by_distance: dict[int, int] = {}
        for p, neighbours in enumerate(adjacency):
            for q in bits(neighbours):
                if q > p:
                    by_distance[q - p] = by_distance.get(q - p, 0) | 1 << p
        self._edges = tuple(sorted(by_distance.items()))
        if len(self._edges) > 3:
            raise ValueError(f"board lines run along {len(self._edges)} index distances; the evaluation handles 3")
        # padded to exactly three for the unrolled code in ``evaluate``
        self._edges3 = self._edges + ((1, 0),) * (3 - len(self._edges))
        self.weights = weights = weights or DEFAULT_WEIGHTS
        self._placing, self._moving, self._flying = weights.placing, weights.moving, weights.flying
        self._mills = len(mills)

    def __repr__(self) -> str:
        flying = " flying" if self.flying else ""
        weights = "default" if self.weights == DEFAULT_WEIGHTS else "custom"
        return f"<Evaluator {len(self.adjacency)} points {self._mills} mills{flying} weights={weights}>"

    # -- features ------------------------------------------------------------------

    def _men_per_mill(self, men: int) -> int:
        c = self._count
        return c[0][men & 255] + c[1][men >> 8 & 255] + c[2][men >> 16]

    def _neighbours(self, mask: int) -> int:
        """The points next to any point of ``mask``."""
        out = 0
        for d, e in self._edges:
            out |= (mask & e) << d | (mask >> d) & e
        return out

    def _steps(self, mask: int, empty: int) -> int:
        """Steps from the points of ``mask`` to empty neighbours (counted per man)."""
        n = 0
        for d, e in self._edges:
            n += (mask & e & empty >> d).bit_count() + (empty & e & mask >> d).bit_count()
        return n

    def side_features(self, me: int, op: int, hme: int, fly: bool) -> tuple[int, ...]:
        """Feature counts of the side owning ``me`` (``threat``: it could close a mill next turn)."""
        empty = FULL & ~(me | op)
        low = self._low
        cm = self._men_per_mill(me)
        co = self._men_per_mill(op)
        closed_v = cm & cm >> 1 & low
        two_v = cm >> 1 & ~cm & ~(co | co >> 1) & low
        moving = hme == 0 or self.move_while_placing
        closed = closed_v.bit_count()
        two = two_v.bit_count()
        closable = double = 0
        if hme or fly:
            # placing from hand or flying: every open pair can be completed
            closable = two
        elif two_v:
            closable = self._closable(me, two_v)
        if closed_v and moving and not fly:
            double = self._running_doubles(me, empty, closed_v)
        if hme and not moving and two_v:
            double = self._placing_doubles(me, two_v)
        steps = self._steps(me, empty)
        room = self._neighbours(me) & empty
        blocked = (me & ~self._neighbours(empty)).bit_count()
        liberties = room.bit_count()
        cramped = 0 if fly or liberties >= CRAMP_FREE else (CRAMP_FREE - liberties) ** 2
        men = me.bit_count() + hme
        return (men, closed, two, closable, double, steps, blocked, 1 if closable else 0, liberties, cramped)

    def _running_doubles(self, me: int, empty: int, closed_v: int) -> int:
        """Men of closed mills that step out to a neighbour closing another mill (per mill, step)."""
        mill_at, pairs_without = self._mill_at, self._pairs_without
        double = 0
        v = closed_v
        while v:
            b = v & -v
            v ^= b
            for pb, nb in mill_at[b][1]:
                free = nb & empty
                while free:
                    qb = free & -free
                    free ^= qb
                    for pair in pairs_without[pb, qb]:
                        if me & pair == pair:
                            double += 1
                            break
        return double

    def _placing_doubles(self, me: int, two_v: int) -> int:
        """Empty points that complete two mills at once (each open pair's empty point, seen twice)."""
        mill_at = self._mill_at
        seen = twice = 0
        v = two_v
        while v:
            b = v & -v
            v ^= b
            e = mill_at[b][0] & ~me
            twice |= seen & e
            seen |= e
        return twice.bit_count()

    def _closable(self, me: int, two_v: int) -> int:
        """Open pairs (``two_v``) whose empty point a man steps into from outside the mill."""
        mill_at, adj_of_bit = self._mill_at, self._adj_of_bit
        n = 0
        while two_v:
            b = two_v & -two_v
            two_v ^= b
            m = mill_at[b][0]
            if adj_of_bit[m & ~me] & me & ~m:
                n += 1
        return n

    def evaluate(self, me: int, op: int, hme: int, hop: int) -> int:
        """Score in centi-men, positive when the side to move stands better.

        ``side_features`` for both sides and the weighted difference, written out in one
        function: this runs at every leaf, and Python calls cost as much as the terms.
        """
        fme = fop = False
        if self.flying:
            fme = hme == 0 and me.bit_count() == 3
            fop = hop == 0 and op.bit_count() == 3
        placing = hme or hop
        w = self._placing if placing else (self._flying if fme or fop else self._moving)
        empty = FULL & ~(me | op)
        c0, c1, c2 = self._count
        cm = c0[me & 255] + c1[me >> 8 & 255] + c2[me >> 16]
        co = c0[op & 255] + c1[op >> 8 & 255] + c2[op >> 16]
        low = self._low
        closed_a = cm & cm >> 1 & low
        closed_b = co & co >> 1 & low
        two_a = cm >> 1 & ~cm & ~(co | co >> 1) & low
        two_b = co >> 1 & ~co & ~(cm | cm >> 1) & low
        (d1, e1), (d2, e2), (d3, e3) = self._edges3
        n_me = (me & e1) << d1 | (me >> d1) & e1 | (me & e2) << d2 | (me >> d2) & e2 | (me & e3) << d3 | (me >> d3) & e3
        n_op = (op & e1) << d1 | (op >> d1) & e1 | (op & e2) << d2 | (op >> d2) & e2 | (op & e3) << d3 | (op >> d3) & e3
        n_em = (
            (empty & e1) << d1
            | (empty >> d1) & e1
            | (empty & e2) << d2
            | (empty >> d2) & e2
            | (empty & e3) << d3
            | (empty >> d3) & e3
        )
        lib_a = (n_me & empty).bit_count()
        lib_b = (n_op & empty).bit_count()
        score = (
            w.men * (me.bit_count() + hme - op.bit_count() - hop)
            + w.closed * (closed_a.bit_count() - closed_b.bit_count())
            + w.two * (two_a.bit_count() - two_b.bit_count())
            + w.blocked * ((me & ~n_em).bit_count() - (op & ~n_em).bit_count())
            + w.liberties * (lib_a - lib_b)
        )
        cramp_a = 0 if fme or lib_a >= CRAMP_FREE else (CRAMP_FREE - lib_a) ** 2
        cramp_b = 0 if fop or lib_b >= CRAMP_FREE else (CRAMP_FREE - lib_b) ** 2
        score += w.cramped * (cramp_a - cramp_b)
        # closable pairs and the side to move's threat
        if two_a:
            ca = two_a.bit_count() if hme or fme else self._closable(me, two_a)
            score += w.closable * ca + (w.threat if ca else 0)
        if two_b:
            score -= w.closable * (two_b.bit_count() if hop or fop else self._closable(op, two_b))
        # double mills: running ones while moving, two-mill points while placing
        mwp = self.move_while_placing
        if hme and not mwp:
            if two_a:
                score += w.double * self._placing_doubles(me, two_a)
        elif closed_a and not fme:
            score += w.double * self._running_doubles(me, empty, closed_a)
        if hop and not mwp:
            if two_b:
                score -= w.double * self._placing_doubles(op, two_b)
        elif closed_b and not fop:
            score -= w.double * self._running_doubles(op, empty, closed_b)
        # mobility: steps to empty neighbours; from the moving phase on not for a side that flies
        if placing or not fme:
            score += w.mobility * (
                (me & e1 & empty >> d1).bit_count()
                + (empty & e1 & me >> d1).bit_count()
                + (me & e2 & empty >> d2).bit_count()
                + (empty & e2 & me >> d2).bit_count()
                + (me & e3 & empty >> d3).bit_count()
                + (empty & e3 & me >> d3).bit_count()
            )
        if placing or not fop:
            score -= w.mobility * (
                (op & e1 & empty >> d1).bit_count()
                + (empty & e1 & op >> d1).bit_count()
                + (op & e2 & empty >> d2).bit_count()
                + (empty & e2 & op >> d2).bit_count()
                + (op & e3 & empty >> d3).bit_count()
                + (empty & e3 & op >> d3).bit_count()
            )
        return score
