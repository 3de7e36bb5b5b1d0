"""Stories: the legal histories that could have made the switch evidence, each with its cost.

A story is a chain of up to ``MAX_TURNS`` legal turns from the base position, perhaps ending
in a turn still in the hand (a man lifted, or a mill's step made and its removal not yet). It
explains every change of every switch: a change is either a flip the chain needs (a man
lifted, landed, taken) or one half of a noise excursion with a role from the model (a magnet
passing, a nudge, a knock, a flicker, a man set down and taken up). Hard constraints: a man
leaves before he lands, a turn begins after the turn it answers began, flips on one point come
in the chain's order. Everything else is priced by the model (``model.py``).

>>> from morris_pi.rules import Position
>>> ev = Evidence.static(0, {"d6": [(1.0, True)], "a1": [(3.0, True)]}, 5.0)
>>> [str(s) for s in read_stories(Position.start(), ev)][:1]
['d6 a1']
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from morris_pi.rules import Position, Turn
from morris_pi.rules.board import POINTS

from .evidence import Change, Evidence
from .model import DEFAULT_MODEL, Model

#: The longest chain of turns a story tells beyond the base position.
MAX_TURNS = 3
#: Stories kept per reading, cheapest first.
MAX_STORIES = 400
#: Points at most whose last change starts an excursion still going on (a man off-centre, a
#: hand resting on a point) in one story.
ONGOING_MAX = 2
#: Ways of aligning one point's changes with its flips that are scored in full.
ALIGNMENTS_KEPT = 4

RawTurn = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class Flip:
    """A change a story needs: point ``point`` opens or closes for turn ``ply`` of the chain."""

    point: int
    closed: bool
    ply: int
    role: str  # "lift", "land" or "take"


@dataclass(frozen=True, slots=True)
class Story:
    """A chain of turns, the turn still in the hand, what it costs, and which change is which."""

    turns: tuple[RawTurn, ...]
    #: A turn begun and not finished: ``(origin, -1, -1)`` a man lifted, or a mill's step
    #: ``(origin, target, -1)`` whose removal is due.
    pending: RawTurn | None
    cost: float
    #: Per point (index), the indices of its changes that are the chain's flips, in order.
    matched: tuple[tuple[int, ...], ...] = field(repr=False)

    def __str__(self) -> str:
        words = [str(Turn.from_raw(t)) for t in self.turns]
        if self.pending is not None:
            o, t, _ = self.pending
            words.append(f"({POINTS[o]}" + (f"-{POINTS[t]})" if t >= 0 else " lifted)") if o >= 0 else f"({POINTS[t]})")
        return " ".join(words)


def flips_of(turns: tuple[RawTurn, ...], pending: RawTurn | None) -> list[list[Flip]]:
    """Per point, the flips a chain needs, in chain order."""
    out: list[list[Flip]] = [[] for _ in POINTS]
    for ply, (o, t, r) in enumerate((*turns, *((pending,) if pending else ()))):
        if o >= 0:
            out[o].append(Flip(o, False, ply, "lift"))
        if t >= 0:
            out[t].append(Flip(t, True, ply, "land"))
        if r >= 0:
            out[r].append(Flip(r, False, ply, "take"))
    return out


class _Scorer:
    """Scores chains against one evidence object; per-point work is cached across chains."""

    def __init__(self, evidence: Evidence, model: Model) -> None:
        self.ev = evidence
        self.model = model
        self.counts = [len(p.changes) for p in evidence.points]
        self._options: dict[tuple[int, int], list[tuple[float, tuple[int, ...]]]] = {}
        self.lost = sum(model.lost for p in evidence.points for c in p.changes if not c.seen)

    def excursion(self, seq: tuple[Change, ...], a: int) -> float:
        """The cheapest role for changes ``a`` and ``a + 1`` of a point as one excursion."""
        m = self.model
        first, back = seq[a], seq[a + 1]
        d_lo, d_hi = max(back.lo - first.t, 0.0), back.t - first.lo
        if first.closed:  # closed over an empty point
            return min(m.touch.cost_between(d_lo, d_hi), m.drop.cost_between(d_lo, d_hi))
        cost = min(m.nudge.cost_between(d_lo, d_hi), m.knock.cost_between(d_lo, d_hi))
        if a > 0 and seq[a - 1].closed and first.t - seq[a - 1].t <= m.flicker_window_s:
            cost = min(cost, m.flicker.cost_between(d_lo, d_hi))
        return cost

    def ongoing(self, seq: tuple[Change, ...], a: int) -> float:
        """The cheapest role for a point's last change as an excursion not over yet."""
        m = self.model
        first = seq[a]
        d = self.ev.now - first.t
        if first.closed:
            return min(m.touch.tail(d), m.drop.tail(d))
        cost = min(m.nudge.tail(d), m.knock.tail(d))
        if a > 0 and seq[a - 1].closed and first.t - seq[a - 1].t <= m.flicker_window_s:
            cost = min(cost, m.flicker.tail(d))
        return cost

    def options(self, i: int, m: int) -> list[tuple[float, tuple[int, ...]]]:
        """The cheapest ways to pick ``m`` of point ``i``'s changes as flips, the rest as noise."""
        key = (i, m)
        got = self._options.get(key)
        if got is not None:
            return got
        seq = self.ev.points[i].changes
        n = len(seq)
        found: list[tuple[float, tuple[int, ...]]] = []

        def walk(start: int, left: int, picked: tuple[int, ...], cost: float) -> None:
            if left == 0:
                a = start
                while a + 1 < n:
                    cost += self.excursion(seq, a)
                    a += 2
                if a < n:
                    cost += self.ongoing(seq, a)
                found.append((cost, picked))
                return
            for j in range(start, n - left + 1, 2):  # an even number of noise changes before j
                walk(j + 1, left - 1, (*picked, j), cost)
                if j + 1 < n:
                    cost += self.excursion(seq, j)

        walk(0, m, (), 0.0)
        found.sort()
        found = found[:ALIGNMENTS_KEPT]
        self._options[key] = found
        return found

    def timing(self, turns: int, times: dict[tuple[int, str], tuple[float, float]]) -> float:
        """What the chain's flips cost as hands move: carries, removals, turns after turns."""
        m = self.model
        cost = 0.0
        prev_start = -math.inf
        prev_end = -math.inf
        for ply in range(turns):
            lift = times.get((ply, "lift"))
            land = times.get((ply, "land"))
            take = times.get((ply, "take"))
            if lift is not None and land is not None:
                if land[1] <= lift[0]:
                    return math.inf
                cost += m.carry.cost_between(max(land[0] - lift[1], 1e-3), land[1] - lift[0])
            if take is not None and land is not None:
                if take[1] >= land[0]:
                    cost += m.remove.cost_between(max(take[0] - land[1], 1e-3), take[1] - land[0])
                else:
                    cost += m.taken_first + m.remove.cost_between(land[0] - take[1], land[1] - take[0])
            stamps = [x for x in (lift, land, take) if x is not None]
            if not stamps:
                continue
            start = min(x[1] for x in stamps)
            end = max(x[0] for x in stamps)
            if start <= prev_start:
                return math.inf
            if start < prev_end:
                if prev_end - start > m.overlap_s:
                    return math.inf
                cost += m.early
            prev_start, prev_end = start, max(end, prev_end)
        return cost

    def score(self, turns: tuple[RawTurn, ...], pending: RawTurn | None) -> Story | None:
        need = flips_of(turns, pending)
        points = self.ev.points
        plies = len(turns) + (pending is not None)
        choice: list[int] = [0] * len(POINTS)
        opts: list[list[tuple[float, tuple[int, ...]]]] = []
        for i, flips in enumerate(need):
            o = self.options(i, len(flips))
            if not o:
                return None
            opts.append(o)

        def total(choice: list[int]) -> float:
            noise = 0.0
            times: dict[tuple[int, str], tuple[float, float]] = {}
            for i, flips in enumerate(need):
                c, picked = opts[i][choice[i]]
                noise += c
                seq = points[i].changes
                for f, j in zip(flips, picked, strict=True):
                    times[(f.ply, f.role)] = (seq[j].lo, seq[j].t)
            return noise + self.timing(plies, times)

        best = total(choice)
        for _ in range(2):
            improved = False
            for i, o in enumerate(opts):
                if len(o) < 2 or not need[i]:
                    continue
                keep = choice[i]
                for k in range(len(o)):
                    if k == keep:
                        continue
                    choice[i] = k
                    c = total(choice)
                    if c < best:
                        best, keep, improved = c, k, True
                choice[i] = keep
            if not improved:
                break
        if math.isinf(best):
            return None
        cost = best + self.lost + self.model.turn * len(turns)
        matched = tuple(opts[i][choice[i]][1] for i in range(len(POINTS)))
        return Story(turns, pending, cost, matched)


def _pendings(pos: Position) -> list[RawTurn]:
    """The turns that can be in the hand now: a man lifted, or a mill's step awaiting its removal."""
    out: set[RawTurn] = set()
    for o, t, r in pos.turns():
        if o >= 0:
            out.add((o, -1, -1))
        if r >= 0:
            out.add((o, t, -1))
    return sorted(out)


def read_stories(base: Position, evidence: Evidence, model: Model = DEFAULT_MODEL) -> list[Story]:
    """Every story of up to ``MAX_TURNS`` turns that explains ``evidence``, cheapest first."""
    scorer = _Scorer(evidence, model)
    counts = scorer.counts
    used = [0] * len(POINTS)
    odd = sum(1 for n in counts if n % 2)
    found: list[Story] = []

    def touch(turn: RawTurn, step: int) -> int:
        nonlocal odd
        for p in turn:
            if p >= 0:
                used[p] += step
                odd += 1 if (counts[p] - used[p]) % 2 else -1
        return odd

    def fits(turn: RawTurn) -> bool:
        return all(p < 0 or used[p] < counts[p] for p in turn)

    def walk(pos: Position, chain: tuple[RawTurn, ...]) -> None:
        if len(found) >= MAX_STORIES:
            return
        if odd <= ONGOING_MAX:
            story = scorer.score(chain, None)
            if story is not None:
                found.append(story)
        if odd <= 2 + ONGOING_MAX:
            for pending in _pendings(pos):
                if fits(pending):
                    touch(pending, 1)
                    if odd <= ONGOING_MAX:
                        story = scorer.score(chain, pending)
                        if story is not None:
                            found.append(story)
                    touch(pending, -1)
        if len(chain) == MAX_TURNS or odd > 3 * (MAX_TURNS - len(chain)) + ONGOING_MAX + 2:
            return
        for turn in pos.turns():
            if not fits(turn):
                continue
            touch(turn, 1)
            walk(pos.play(turn), (*chain, turn))
            touch(turn, -1)

    walk(base, ())
    found.sort(key=lambda s: s.cost)
    return found
