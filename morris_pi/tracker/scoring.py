"""Scoring one chain of turns against the switch evidence: what each reading of it costs.

A chain's flips (``story.flips_of``) are matched with each point's changes; the changes left
over are noise excursions with roles from the model, and the flips' times price the hands that
made them (carries, removals, stands, overlaps). ``Scorer`` caches each point's readings across
the many chains one ranking scores (``stories.read_stories``).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from morris_pi.rules import Position
from morris_pi.rules.board import POINTS
from morris_pi.rules.position import removable_mask

from .evidence import FOUND_S, Change, Evidence, PointEvidence
from .model import Duration, Model
from .story import Flip, Flips, Part, RawTurn, Setting, Span, Story, flips_of, joined, setting_span

#: Ways of aligning one point's changes with its flips that are scored in full.
ALIGNMENTS_KEPT = 4
#: Slack for sums of the same costs taken in another order, when a bound decides alone.
_ROUNDING = 1e-9

#: Spans of time, each from its start to its end.
Spans = tuple[tuple[float, float], ...]
#: One way to read a point's changes: its cost as noise, which changes are flips, and the spans
#: a magnet surely stood over the point while no man of the story was on it.
Option = tuple[float, tuple[int, ...], Spans]


#: When something happened on a point: the point, and the earliest and latest time.
Moment = tuple[int, float, float]
#: A man lifted and put back read as a remover's fumble: the point, when it began at the latest
#: and ended at the earliest, and what it costs more as the noise it is if no removal was due.
Fumble = tuple[int, float, float, float]
#: When a removal was due (from its mill's step to its man's lift, at the latest), and the men
#: the mill could not take, as a mask of points.
Due = tuple[float, float, int]
#: The roles of a standing man lifted by a hand and put back on his point.
_PUT_BACK = ("knock", "fumble")
#: What one point's reading adds to a chain: its noise, its men's stands, its flips' times (by
#: ply and role), the magnets it holds, whether it ends with half of a man astray, when its
#: setting's flips were, when knocked men were put back on it, when its turns' men were lifted,
#: when each of its flips happened, its fumbles, and when its knocked men were off.
_Piece = tuple[
    float,
    float,
    list[tuple[tuple[int, str], tuple[float, float]]],
    list[Moment],
    bool,
    Span | None,
    tuple[Moment, ...],
    list[Moment],
    list[Moment],
    tuple[Fumble, ...],
    tuple[Moment, ...],
]


@dataclass(frozen=True, slots=True)
class _Still:
    """Per point, its reading with no flip (``options(i, 0)``): its cost (and all of theirs
    together), the magnets it holds and whether it ends with half of a man astray."""

    options: list[list[Option]]
    costs: list[float]
    total: float
    magnets: list[tuple[int, float, float]]
    strays: list[int]
    put_back: list[Moment]
    fumbles: list[Fumble]
    knocked: list[Moment]


class Scorer:
    """Scores chains against one evidence object; per-point work is cached across chains."""

    def __init__(self, evidence: Evidence, model: Model) -> None:
        self.ev = evidence
        self.model = model
        self.counts = [len(p.changes) for p in evidence.points]
        #: The points that changed (most did not: no flip or noise of theirs to price).
        self.changed = [i for i, n in enumerate(self.counts) if n]
        self._options: dict[tuple[int, int], list[Option]] = {}
        self._excursions: dict[tuple[int, int], tuple[float, str]] = {}
        # What each excursion read as a fumble costs more as the noise it is when no removal is due.
        self._unfumbled: dict[tuple[int, int], tuple[float, str]] = {}
        self._fumbles: dict[tuple[int, tuple[int, ...]], tuple[Fumble, ...]] = {}
        self._spared: dict[tuple[tuple[RawTurn, ...], Position], dict[int, int]] = {}
        self._ongoing: dict[tuple[int, int], tuple[float, str]] = {}
        self._plain: dict[tuple[int, int], tuple[float, str]] = {}
        self._steps: dict[Position, frozenset[tuple[int, int]]] = {}
        self.lost = sum(model.lost for p in evidence.points for c in p.changes if not c.seen)
        self._still_points: _Still | None = None
        self._lifted: dict[tuple[int, tuple[int, ...]], tuple[int, ...]] = {}
        # What one point's reading adds to a chain, by the flips the chain needs there: the chains
        # of one ranking share most points' flips, so each is worked out once per evidence.
        self._pieces: dict[tuple[int, tuple[tuple[int, str], ...], int], _Piece] = {}
        # The cheapest a point's readings cost, with their men's stands, by the flips needed there.
        self._least: dict[tuple[int, tuple[tuple[int, str], ...]], float] = {}

    def _still(self) -> _Still:
        """Every point read as noise alone, as most points of every chain are."""
        if self._still_points is None:
            options = [self.options(i, 0) for i in range(len(POINTS))]
            costs = [o[0][0] for o in options]
            # a point that did not change holds no magnet, no half of a man astray, no man put back
            changed = [(i, options[i][0]) for i in self.changed]
            self._still_points = _Still(
                options,
                costs,
                sum(costs),
                [(i, lo, hi) for i, o in changed for lo, hi in o[2]],
                [i for i, o in changed if self.stray_end(i, o[1])],
                [m for i, o in changed for m in self.put_back(i, o[1])],
                [f for i, o in changed for f in self.fumbles(i, o[1])],
                [k for i, o in changed for k in self.knocked(i, o[1])],
            )
        return self._still_points

    def _roles(self, seq: tuple[Change, ...], a: int, landed: float) -> tuple[tuple[str, Duration], ...]:
        """The roles changes ``a`` (and ``a + 1``) of a point may play as noise."""
        m = self.model
        if seq[a].closed:  # closed over an empty point
            return (("touch", m.touch), ("drop", m.drop))
        if seq[a].t - _landing(seq, a, landed) <= m.flicker_window_s:
            return (("nudge", m.nudge), ("knock", m.knock), ("flicker", m.flicker))
        return (("nudge", m.nudge), ("knock", m.knock))

    def excursion_role(self, i: int, a: int) -> tuple[float, str]:
        """The cheapest role for changes ``a`` and ``a + 1`` of point ``i`` as one excursion, and its cost."""
        got = self._excursions.get((i, a))
        if got is None:
            seq = self.ev.points[i].changes
            first, back = seq[a], seq[a + 1]
            d_lo, d_hi = max(back.lo - first.t, 0.0), back.t - first.lo
            landed = self.ev.points[i].landed
            roles = self._roles(seq, a, landed)
            if not first.closed:
                roles = (*roles, ("fumble", self.model.fumble))
            priced = [(d.cost_between(d_lo, d_hi) + self._stood(i, a, name), name) for name, d in roles]
            got = min(priced)
            if got[1] == "fumble":
                # priced as the remover's fumble here, so that every point's own reading stays a
                # floor of the chain's; a chain with no removal due then pays the difference
                plain = min((c, name) for c, name in priced if name != "fumble")
                self._unfumbled[(i, a)] = (plain[0] - got[0], plain[1])
            self._excursions[(i, a)] = got
        return got

    def ongoing_role(self, i: int, a: int) -> tuple[float, str]:
        """The cheapest role for point ``i``'s last change as an excursion not over yet, and its cost.

        ``astray`` is half of a man set down where no rule lets him go (his lift, or his landing):
        it holds only if the story pairs it with the other half (``strays``).
        """
        got = self._ongoing.get((i, a))
        if got is None:
            plain = self.ongoing_plain(i, a)
            m = self.model
            seq = self.ev.points[i].changes
            half = m.astray / 2
            if seq[a].closed:
                half += m.unfinished + m.stray.tail(self.ev.now - seq[a].t)
            got = min(plain, (half, "astray"))
            self._ongoing[(i, a)] = got
        return got

    def unfinished(self, *, pile: bool = False) -> tuple[str, ...]:
        """Per point, what its last change read as an excursion not over yet does to the price
        of the others: ``touch``, a magnet held over it while a later change elsewhere happened
        (a second hand); ``astray``, half of a man set down astray that another half may pair
        with (``pile``: the computer's men, put down from its pile, may be); ``noise``, nothing
        (``""``: the point did not change).

        As time passes one reading of an excursion gives way to another (a hand resting becomes
        a man set down astray). Each costs more the longer it lasts, so while these stay as they
        are, every reading of the board costs more as time passes, never less.
        """
        last = self.ev.last_change
        ends: list[tuple[str, Change] | None] = [
            (self.ongoing_role(i, n - 1)[1], self.ev.points[i].changes[-1]) if n else None
            for i, n in enumerate(self.counts)
        ]
        lifts = any(e is not None and e[0] == "astray" and not e[1].closed for e in ends)
        lands = any(e is not None and e[0] == "astray" and e[1].closed for e in ends)
        out = []
        for end in ends:
            if end is None:
                out.append("")
                continue
            role, change = end
            if role == "touch" and last > change.t:
                out.append("touch")
            elif role == "astray" and (lifts or pile if change.closed else lands):
                out.append("astray")
            else:
                out.append("noise")
        return tuple(out)

    def ongoing_plain(self, i: int, a: int) -> tuple[float, str]:
        """The cheapest role for point ``i``'s last change as noise not over yet (no mistake)."""
        got = self._plain.get((i, a))
        if got is None:
            seq = self.ev.points[i].changes
            landed = self.ev.points[i].landed
            d = self.ev.now - seq[a].t
            cost, name = min((dur.tail(d) + self._stood(i, a, name), name) for name, dur in self._roles(seq, a, landed))
            got = self._plain[(i, a)] = (self.model.unfinished + cost, name)
        return got

    def _not_astray(self, i: int) -> float:
        """What point ``i``'s last change costs more as plain noise than as half of a man astray."""
        a = self.counts[i] - 1
        return self.ongoing_plain(i, a)[0] - self.ongoing_role(i, a)[0]

    def stray_end(self, i: int, picked: tuple[int, ...]) -> bool:
        """Whether point ``i``, its changes ``picked`` as flips, ends with half of a man astray."""
        n = self.counts[i]
        after = n - (picked[-1] + 1 if picked else 0)
        return after % 2 == 1 and self.ongoing_role(i, n - 1)[1] == "astray"

    def strays(
        self,
        ends: list[int],
        illegal: Callable[[int, int], bool],
        times: Mapping[tuple[int, str], tuple[float, float]],
        parts: list[Part] | None = None,
    ) -> tuple[float, tuple[int, int] | None]:
        """What the halves of a man astray at points ``ends`` cost together: one lift and a later
        landing that ``illegal`` allows (no rule lets that man go there) are one mistake, with
        his carry; every other half is read as the noise it would be without it.

        The mistake is the next turn made wrongly: he is lifted after the story's last turn began
        and set down after every flip of the story (``times``, as ``timing`` takes them)."""
        m = self.model
        points = self.ev.points
        last = {i: points[i].changes[-1] for i in ends}
        lifts = [i for i in ends if not last[i].closed]
        lands = [i for i in ends if last[i].closed]
        if not lands and parts is None:
            return sum(self._not_astray(i) for i in ends), None
        final = max((ply for ply, _ in times), default=-1)
        begun = min((t for (ply, _), (_, t) in times.items() if ply == final), default=-math.inf)
        ended = max((lo for lo, _ in times.values()), default=-math.inf)
        pair = next(
            (
                (o, t)
                for t in lands
                for o in lifts
                if begun < last[o].t and last[o].lo < last[t].t and ended < last[t].t and illegal(o, t)
            ),
            None,
        )
        if pair is None:
            # the computer's man put down from its pile where the LEDs do not prompt it
            pair = next(((-1, t) for t in lands if ended < last[t].t and illegal(-1, t)), None)
        cost = 0.0
        if pair is not None and pair[0] < 0:
            c = m.astray / 2
            cost += c
            if parts is not None:
                parts.append(Part("astray", f"pile to {POINTS[pair[1]]}", 0.0, 0.0, c))
        elif pair is not None:
            o, t = pair
            lo, hi = max(last[t].lo - last[o].t, 1e-3), last[t].t - last[o].lo
            c = m.carry.cost_between(lo, hi)
            cost += c
            if parts is not None:
                parts.append(Part("astray", f"{POINTS[o]} to {POINTS[t]}", lo, hi, c))
        for i in ends:
            if pair is None or i not in pair:
                c = self._not_astray(i)
                cost += c
                if parts is not None:
                    parts.append(Part("not astray", POINTS[i], 0.0, 0.0, c))
        return cost, pair

    def _stood(self, i: int, a: int, role: str) -> float:
        """A knocked man has been let go first: a hand reaches him only after a hand last put him
        down. A man nudged or flickering slid back on his own, and no hand let go of him then."""
        if role not in _PUT_BACK:
            return 0.0
        seq = self.ev.points[i].changes
        b = a
        while (
            b >= 2 and seq[b - 1].closed and not seq[b - 2].closed and self.excursion_role(i, b - 2)[1] not in _PUT_BACK
        ):
            b -= 2
        since = seq[a].t - _landing(seq, b, self.ev.points[i].landed)
        if math.isinf(since):
            return 0.0
        return self.model.reach.head(since)

    def floors(self, i: int, most: int) -> list[float]:
        """Per ``k`` up to ``most + 1``: the least point ``i``'s changes cost with ``k`` or more of them flips."""
        n = self.counts[i]
        if not n:  # most points did not change: no flip costs nothing, any is impossible
            return [0.0] + [math.inf] * (most + 1)
        top = min(n, most)
        # best[j][k]: the cheapest way to explain the first j changes with k flips
        best = [[math.inf] * (top + 1) for _ in range(n + 1)]
        best[0][0] = 0.0
        for j in range(n):
            row = best[j]
            for k in range(top + 1):
                c = row[k]
                if c == math.inf:
                    continue
                if k < top and c < best[j + 1][k + 1]:
                    best[j + 1][k + 1] = c
                if j + 1 < n:
                    e = c + self.excursion_role(i, j)[0]
                    best[j + 2][k] = min(best[j + 2][k], e)
        exact = [best[n][k] for k in range(top + 1)]
        if n:
            tail = self.ongoing_role(i, n - 1)[0]
            exact = [min(exact[k], best[n - 1][k] + tail) for k in range(top + 1)]
        out = [math.inf] * (most + 2)
        low = math.inf
        for k in range(most + 1, -1, -1):
            if k <= top:
                low = min(low, exact[k])
            out[k] = low
        return out

    def options(self, i: int, m: int) -> list[Option]:
        """The cheapest ways to pick ``m`` of point ``i``'s changes as flips, the rest as noise."""
        key = (i, m)
        got = self._options.get(key)
        if got is not None:
            return got
        n = self.counts[i]
        if not n:  # most points did not change
            got = self._options[key] = [(0.0, (), ())] if m == 0 else []
            return got
        found: list[Option] = []

        def walk(start: int, left: int, picked: tuple[int, ...], cost: float, magnets: Spans) -> None:
            if left == 0:
                a = start
                while a + 1 < n:
                    cost += self.excursion_role(i, a)[0]
                    magnets += self.held(i, a, ongoing=False)
                    a += 2
                if a < n:
                    cost += self.ongoing_role(i, a)[0]
                    magnets += self.held(i, a, ongoing=True)
                found.append((cost, picked, magnets))
                return
            for j in range(start, n - left + 1, 2):  # an even number of noise changes before j
                walk(j + 1, left - 1, (*picked, j), cost, magnets)
                if j + 1 < n:
                    cost += self.excursion_role(i, j)[0]
                    magnets += self.held(i, j, ongoing=False)

        walk(0, m, (), 0.0, ())
        found.sort()
        # The cheapest as noise may all put a flip where the chain's timing cannot have it (a man
        # lifted after he landed elsewhere, a man set down on a point and taken back before the
        # move that lands there): keep the cheapest for each pair of changes its first and its
        # last flip can be too.
        kept = found[:ALIGNMENTS_KEPT]
        ends = {o[1][:1] + o[1][-1:] for o in kept}
        for o in found[ALIGNMENTS_KEPT:]:
            first_last = o[1][:1] + o[1][-1:]
            if first_last not in ends:
                ends.add(first_last)
                kept.append(o)
        found = kept
        self._options[key] = found
        return found

    def held(self, i: int, a: int, *, ongoing: bool) -> Spans:
        """When a magnet surely was over point ``i``, if its changes from ``a`` are one passing over it
        (``ongoing``: still there)."""
        role = self.ongoing_role(i, a)[1] if ongoing else self.excursion_role(i, a)[1]
        if role != "touch":
            return ()
        seq = self.ev.points[i].changes
        end = self.ev.now if ongoing else seq[a + 1].lo
        return ((seq[a].t, end),) if end > seq[a].t else ()

    def flip_moments(self, i: int, picked: tuple[int, ...]) -> list[Moment]:
        """When the chain's flips on point ``i`` (its changes ``picked``) happened."""
        seq = self.ev.points[i].changes
        return [(i, seq[j].lo, seq[j].t) for j in picked]

    def second_hands(
        self,
        magnets: list[tuple[int, float, float]],
        flips: Sequence[Moment],
        parts: list[Part] | None = None,
    ) -> float:
        """What the magnets over empty points cost while a flip elsewhere happened: the hand that
        makes the flip cannot also hold a man over another point, so a second hand was over the
        board at once (as when the next player reaches before this one has let go).

        ``flips`` gives when each of the chain's flips happened (``flip_moments``)."""
        cost = 0.0
        for i, lo, hi in magnets:
            for p, start, end in flips:
                if p != i and lo < start and end < hi:
                    cost += self.model.second_hand
                    if parts is not None:
                        where = f"{POINTS[i]} while {POINTS[p]}"
                        parts.append(Part("second hand", where, lo, hi, self.model.second_hand))
                    break
        return cost

    def _lifted_back(self, i: int, picked: tuple[int, ...]) -> tuple[int, ...]:
        """Point ``i``'s excursions (their first changes) in which a hand lifted the standing man
        and put him back (a knock or a fumble), its changes ``picked`` as flips."""
        key = (i, picked)
        got = self._lifted.get(key)
        if got is None:
            got = self._lifted[key] = tuple(
                a
                for a, ongoing in self.excursions(i, picked)
                if not ongoing and self.excursion_role(i, a)[1] in _PUT_BACK
            )
        return got

    def put_back(self, i: int, picked: tuple[int, ...]) -> tuple[Moment, ...]:
        """When knocked men were put back on point ``i``, its changes ``picked`` as flips: the
        closing that ends each excursion read as a knock."""
        seq = self.ev.points[i].changes
        return tuple((i, seq[a + 1].lo, seq[a + 1].t) for a in self._lifted_back(i, picked))

    def knocked(self, i: int, picked: tuple[int, ...]) -> tuple[Moment, ...]:
        """When men were off point ``i`` between a knock and being put back, its changes ``picked``
        as flips: from the lift at the latest to the return at the earliest."""
        seq = self.ev.points[i].changes
        return tuple((i, seq[a].t, seq[a + 1].lo) for a in self._lifted_back(i, picked))

    def left_off(
        self,
        knocked: Sequence[Moment],
        times: Mapping[tuple[int, str], tuple[float, float]],
        parts: list[Part] | None = None,
    ) -> float:
        """What the knocked men cost that stayed off while flips of two turns or more happened
        elsewhere (``times``, as ``timing`` takes them): a sleeve knocks a man while its hand
        carries one, and puts him back once that man is down, before the next turn."""
        cost = 0.0
        for i, began, ended in knocked:
            plies = {ply for (ply, _), (lo, hi) in times.items() if began < lo and hi < ended and ply >= 0}
            if len(plies) >= 2:
                cost += self.model.left_off
                if parts is not None:
                    parts.append(
                        Part("left off", f"{POINTS[i]} over {len(plies)} turns", began, ended, self.model.left_off)
                    )
        return cost

    def fumbles(self, i: int, picked: tuple[int, ...]) -> tuple[Fumble, ...]:
        """Point ``i``'s excursions read as a remover's fumble, its changes ``picked`` as flips:
        when each began (at the latest) and ended (at the earliest), and what it costs more where
        no removal is due (``misplaced``)."""
        key = (i, picked)
        got = self._fumbles.get(key)
        if got is not None:
            return got
        seq = self.ev.points[i].changes
        got = self._fumbles[key] = tuple(
            (i, seq[a].t, seq[a + 1].lo, self._unfumbled[(i, a)][0])
            for a, ongoing in self.excursions(i, picked)
            if not ongoing and self.excursion_role(i, a)[1] == "fumble"
        )
        return got

    def unfumbled(self, i: int, a: int) -> tuple[float, str]:
        """What excursion ``a`` of point ``i``, read as a fumble, costs more as the noise it is
        where no removal is due, and that role."""
        return self._unfumbled[(i, a)]

    def spared(self, turns: tuple[RawTurn, ...], final: Position | None) -> dict[int, int]:
        """Per ply of ``turns`` that takes a man, the men its mill could not take (the remover's
        own, and the other side's in mills), as a mask of points. ``final`` is where the turns
        lead (``None``: not known, and no removal counts)."""
        if final is None or all(r < 0 for _, _, r in turns):
            return {}
        key = (turns, final)
        got = self._spared.get(key)
        if got is not None:
            return got
        # the board walked back from where the chain leads
        men = list(final.men)
        side = final.side
        got = {}
        for ply in range(len(turns) - 1, -1, -1):
            side ^= 1
            o, t, r = turns[ply]
            men[side] &= ~(1 << t)
            if o >= 0:
                men[side] |= 1 << o
            if r >= 0:
                men[side ^ 1] |= 1 << r
                got[ply] = (men[0] | men[1]) & ~removable_mask(final.tables, men[side ^ 1])
        self._spared[key] = got
        return got

    def removals_due(
        self, times: Mapping[tuple[int, str], tuple[float, float]], spared: Mapping[int, int]
    ) -> list[Due]:
        """When the chain's removals were due, and the men each could not take (``spared``): from
        each mill's step (``times``, as ``timing`` takes them) to the lift of the man it takes, at
        the latest. A removal not made yet is not counted: a story that owes one would read every
        man lifted since as the remover's."""
        windows = []
        for ply, mask in spared.items():
            land, take = times.get((ply, "land")), times.get((ply, "take"))
            if land is not None and take is not None and take[1] >= land[0]:
                windows.append((land[0], take[1], mask))
        return windows

    def misplaced(self, fumbles: Sequence[Fumble], due: Sequence[Due]) -> float:
        """What the fumbles cost more that no removal was due for (``due``, from ``removals_due``):
        a man the mill could not take (the remover's own, or one in a mill), lifted and put back
        wholly while the removal was due, is the remover's, one per removal (one hand); any other
        is the knock it would be."""
        free = list(due)
        cost = 0.0
        for i, began, ended, extra in sorted(fumbles, key=lambda f: f[1]):
            window = next((w for w in free if w[0] <= began and ended <= w[1] and w[2] >> i & 1), None)
            if window is None:
                cost += extra
            else:
                free.remove(window)
        return cost

    def excursions(self, i: int, picked: tuple[int, ...]) -> Iterator[tuple[int, bool]]:
        """Point ``i``'s noise, its changes ``picked`` as flips: the first change of each
        excursion, and whether it is still going on (its last change, unpaired)."""
        n = self.counts[i]
        flips = set(picked)
        a = 0
        while a < n:
            if a in flips:
                a += 1
            elif a + 1 < n and a + 1 not in flips:
                yield a, False
                a += 2
            else:
                yield a, True
                a += 1

    def lifted(self, i: int, flips: Sequence[Flip], picked: tuple[int, ...]) -> list[Moment]:
        """When the turns' men were lifted or taken off point ``i`` (not a setting's)."""
        seq = self.ev.points[i].changes
        return [(i, seq[j].lo, seq[j].t) for f, j in zip(flips, picked, strict=True) if f.role != "land" and f.ply >= 0]

    def one_hand(self, put_back: Sequence[Moment], lifts: Sequence[Moment], parts: list[Part] | None = None) -> float:
        """What knocked men put back cost beside the turns' lifts on other points: the hand that
        puts a man back lets go of him before it reaches another, so a lift a moment before or
        after was a second hand's."""
        cost = 0.0
        for i, lo, hi in put_back:
            gap = min(
                (max(abs(end - lo), abs(hi - start)) for p, start, end in lifts if p != i),
                default=math.inf,
            )
            if gap < self.model.put_back.median:
                c = self.model.put_back.head(gap)
                cost += c
                if parts is not None:
                    parts.append(Part("put back", POINTS[i], gap, gap, c))
        return cost

    def stands(self, i: int, flips: Sequence[Flip], picked: tuple[int, ...], parts: list[Part] | None = None) -> float:
        """What the men that land on point ``i`` and leave it again within the story cost as they
        stand: the man standing there at the base too, if his landing was seen."""
        seq = self.ev.points[i].changes
        cost = 0.0
        landed = self.ev.points[i].landed
        if flips[0].role != "land" and landed > -math.inf:
            longest = seq[picked[0]].t - landed
            cost += self.model.stand.head(longest)
            if parts is not None:
                parts.append(Part("stand", f"{POINTS[i]}, to turn {flips[0].ply + 1}", longest, longest, cost))
        for (f, j), (g, k) in itertools.pairwise(zip(flips, picked, strict=True)):
            longest = seq[k].t - seq[j].lo
            # a man stands from his landing until another hand lifts him; a point emptied by
            # one hand is filled by another only once the first has cleared it
            role, duration = ("stand", self.model.stand) if f.role == "land" else ("clear", self.model.clear)
            c = duration.head(longest)
            cost += c
            if parts is not None:
                parts.append(Part(role, f"{POINTS[i]}, turns {f.ply + 1}-{g.ply + 1}", longest, longest, c))
        # A knocked man put back is let go by the hand that put him back before another lifts him.
        taken = set(picked)
        for f, j in zip(flips, picked, strict=True):
            if f.role != "land" and j >= 2 and j - 1 not in taken and self.excursion_role(i, j - 2)[1] in _PUT_BACK:
                longest = seq[j].t - seq[j - 1].lo
                c = self.model.stand.head(longest)
                cost += c
                if parts is not None:
                    parts.append(Part("stand", f"{POINTS[i]}, put back to turn {f.ply + 1}", longest, longest, c))
        return cost

    def timing(
        self,
        turns: int,
        times: dict[tuple[int, str], tuple[float, float]],
        parts: list[Part] | None = None,
        *,
        set_up: Span | None = None,
        replies: int = -1,
    ) -> float:
        """What the chain's flips cost as hands move: carries, removals, turns after turns.

        ``replies``: against the computer, the parity of the plies it plays (``-1``: none); a
        hand carries them out once the LEDs prompt them, after the turn before was read.

        ``set_up``: when the setting's flips began and ended. The board is put right before the
        first turn is made, as a turn is made after the one before: it cannot begin before the
        setting did, and beginning before it ended is priced as an early turn is."""
        m = self.model
        cost = 0.0
        prev_start = -math.inf if set_up is None else set_up[0]
        # when the turn before can have begun at the earliest: before ``prev_start`` where only a
        # scan bounds its first change
        prev_earliest = prev_start
        prev_end = self.ev.since if set_up is None else max(self.ev.since, set_up[1])
        # a move whose lift only a scan showed: when it can have begun at the earliest, where it
        # landed, and the span its carry was priced on
        lost_lift: tuple[float, float, float, float] | None = None
        # when the turn before surely still owed its removal (made after its step)
        owed = -math.inf

        def priced(role: str, ply: int, c: float, lo: float, hi: float) -> float:
            if parts is not None:
                parts.append(Part(role, f"turn {ply + 1}", lo, hi, c))
            return c

        for ply in range(turns):
            lift = times.get((ply, "lift"))
            land = times.get((ply, "land"))
            take = times.get((ply, "take"))
            carried = None
            if lift is not None and land is None and take is None:
                # the man still in the hand: his carry has lasted this long so far, as a carry
                # that ends does (else a man lifted is the cheapest way to explain any opening)
                held = max(self.ev.now - lift[1], 0.0)
                cost += priced("carry so far", ply, m.carry.tail(held), held, held)
            if lift is not None and land is not None:
                if land[1] <= lift[0]:
                    return math.inf
                lo, hi = max(land[0] - lift[1], 1e-3), land[1] - lift[0]
                cost += priced("carry", ply, m.carry.cost_between(lo, hi), lo, hi)
                if lift[0] < lift[1]:
                    carried = (lift[0], land[0], lo, hi)
            removed = -math.inf
            if take is not None and land is not None:
                lo, hi = take[0] - land[1], take[1] - land[0]
                if lo < 0.0 < hi:
                    # the take or the landing only a scan showed, so either may have come first:
                    # taken after the landing, or first, each as likely as its share of the span
                    after = hi / (hi - lo)
                    late = m.remove.cost_between(1e-3, hi)
                    first = m.taken_first + m.remove.cost_between(1e-3, -lo)
                    c = -math.log(after * math.exp(-late) + (1 - after) * math.exp(-first))
                    cost += priced("remove, after or first", ply, c, lo, hi)
                    removed = take[0]
                elif take[1] >= land[0]:
                    lo, hi = max(take[0] - land[1], 1e-3), take[1] - land[0]
                    cost += priced("remove", ply, m.remove.cost_between(lo, hi), lo, hi)
                    removed = take[0]
                else:
                    lo, hi = land[0] - take[1], land[1] - take[0]
                    cost += priced("taken_first", ply, m.taken_first + m.remove.cost_between(lo, hi), lo, hi)
            stamps = [x for x in (lift, land, take) if x is not None]
            if not stamps:
                continue
            start = min(x[1] for x in stamps)
            earliest = min(x[0] for x in stamps)
            end = max(x[0] for x in stamps)
            # A change only a scan showed happened somewhere in its window, more likely late in it
            # (``_found_within``); where the order of the turns leaves only part of the window,
            # how likely the change lies there is what the order costs.
            if earliest < start and prev_start < start:
                squeezed = _found_within(start - max(earliest, prev_start)) / _found_within(start - earliest)
                cost += priced("after the turn before", ply, -math.log(squeezed), earliest, start)
            if start <= prev_start and lost_lift is None and prev_earliest < start:
                left = 1.0 - _found_within(prev_start - start) / _found_within(prev_start - prev_earliest)
                cost += priced("before the next turn", ply - 1, -math.log(max(left, 1e-9)), prev_earliest, prev_start)
            elif start <= prev_start:
                if lost_lift is None or start <= lost_lift[0]:
                    return math.inf
                # The move before began with a lift only a scan showed, so it began when its man,
                # carried to where he landed, was lifted: before this turn, if his carry was long
                # enough. Its carry is priced again on what is left of its span.
                _, landed, lo, hi = lost_lift
                longer = max(landed - start, lo)
                extra = m.carry.cost_between(longer, hi) - m.carry.cost_between(lo, hi)
                cost += priced("carry, lifted before the next turn", ply - 1, extra, longer, hi)
            if start < prev_end:
                cost += priced("early", ply, m.early.tail(prev_end - start), prev_end - start, prev_end - start)
            elif ply % 2 == replies and prev_end > -math.inf:
                cost += priced("reply", ply, m.reply.head(start - prev_end), start - prev_end, start - prev_end)
            if start < owed:
                cost += priced("before the removal", ply, m.before_removal, owed - start, owed - start)
            prev_start, prev_end = start, max(end, prev_end)
            prev_earliest = earliest
            lost_lift = carried
            owed = removed
        return cost

    def carried(
        self, setting: Setting, picked: Mapping[int, tuple[int, ...]], parts: list[Part] | None = None
    ) -> float:
        """What the men a setting carries cost in the air (``inf`` if one lands before he left).

        ``picked`` gives, per point, which of its changes are the chain's flips (the setting's first)."""
        cost = 0.0
        points = self.ev.points
        for a, b in setting.carries:
            lift = points[a].changes[picked[a][0]]
            land = points[b].changes[picked[b][1 if setting.lifts >> b & 1 else 0]]
            if land.t <= lift.lo:
                return math.inf
            lo, hi = max(land.lo - lift.t, 1e-3), land.t - lift.lo
            c = self.model.carry.cost_between(lo, hi)
            cost += c
            if parts is not None:
                parts.append(Part("carry, taken back", f"{POINTS[a]} to {POINTS[b]}", lo, hi, c))
        return cost

    def illegal_steps(self, final: Position | None, placing: int | None = None) -> Callable[[int, int], bool]:
        """Whether a man lifted from one point and set down on another in ``final`` is a mistake a
        player makes: his own man where no turn lets him go, or the other side's man stepped to a
        neighbouring point, as if it were his own (``None``: a turn is still in the hand, and no
        man is read as astray). A man from the side's pile (origin ``-1``) is astray only when the
        LEDs prompt the computer's man to be put elsewhere (``placing``: that point). He may have
        landed before they showed it: a hand guessing the reply guessed wrong, and is shown so."""
        if final is None:
            return lambda o, t: False
        if placing is not None:
            steps = self.illegal_steps(final)
            return lambda o, t: t != placing if o < 0 else steps(o, t)
        own = final.men[final.side]
        other = final.men[1 - final.side]
        adjacency = final.tables.adjacency

        def illegal(o: int, t: int) -> bool:
            if o < 0:
                return False
            if other >> o & 1:
                return bool(adjacency[o] >> t & 1)
            if not own >> o & 1:
                return False
            steps = self._steps.get(final)
            if steps is None:
                steps = self._steps[final] = frozenset((a, b) for a, b, _ in final.turns())
            return (o, t) not in steps

        return illegal

    def score(
        self,
        turns: tuple[RawTurn, ...],
        pending: RawTurn | None,
        final: Position | None = None,
        setting: Setting | None = None,
        placing: int | None = None,
        replies: int = -1,
        ceiling: float = math.inf,
    ) -> Story | None:
        """The chain's cheapest reading after ``setting``; ``final`` is where its turns lead (a man
        set down astray after them is one where no turn of it lets him go, or, when the computer
        is prompted to put a man on a point, ``placing``, a man put down anywhere else).
        ``replies``: the parity of the plies the computer plays (``timing``). None when no reading
        costs ``ceiling`` or less, which is often known from each point's own cheapest reading
        before the hands are priced."""
        need = flips_of(turns, pending, setting)
        points = self.ev.points
        plies = len(turns) + (pending is not None)
        choice: list[int] = [0] * len(POINTS)
        still = self._still()
        opts: list[list[Option]] = list(still.options)
        moving = [i for i, flips in enumerate(need) if flips]
        for i in moving:
            o = self.options(i, len(need[i]))
            if not o:
                return None
            opts[i] = o

        pieces = self._pieces
        signature = {i: tuple((f.ply, f.role) for f in need[i]) for i in moving}

        def piece(i: int, k: int) -> _Piece:
            key = (i, signature[i], k)
            got = pieces.get(key)
            if got is None:
                flips = need[i]
                c, picked, held = opts[i][k]
                seq = points[i].changes
                got = pieces[key] = (
                    c,
                    self.stands(i, flips, picked),
                    [((f.ply, f.role), (seq[j].lo, seq[j].t)) for f, j in zip(flips, picked, strict=True)],
                    [(i, lo, hi) for lo, hi in held],
                    self.stray_end(i, picked),
                    setting_span(flips, picked, seq),
                    self.put_back(i, picked),
                    self.lifted(i, flips, picked),
                    self.flip_moments(i, picked),
                    self.fumbles(i, picked),
                    self.knocked(i, picked),
                )
            return got

        # Every cost is positive, so the points' own cheapest readings bound the chain from below:
        # most chains of a ranking are priced out by that alone, before their hands are weighed.
        if ceiling < math.inf:
            least = self._least
            bound = still.total + self.lost + self.model.turn * plies
            for i in moving:
                key = (i, signature[i])
                low = least.get(key)
                if low is None:
                    low = least[key] = min(c + self.stands(i, need[i], picked) for c, picked, _ in opts[i])
                bound += low - still.costs[i]
            if bound > ceiling + _ROUNDING:
                return None

        illegal = self.illegal_steps(final if pending is None else None, placing)
        # Points with no flip of the chain keep their cheapest reading: priced once, not per choice.
        still_noise = sum(c for i, c in enumerate(still.costs) if not need[i])
        still_magnets = [(i, lo, hi) for i, lo, hi in still.magnets if not need[i]]
        still_strays = [i for i in still.strays if not need[i]]
        still_put_back = [m for m in still.put_back if not need[m[0]]]
        still_fumbles = [f for f in still.fumbles if not need[f[0]]]
        still_knocked = [k for k in still.knocked if not need[k[0]]]

        def total(choice: list[int], limit: float = math.inf) -> float:
            # The cost, or, once what is added up already reaches ``limit``, any as high: a reading
            # that cannot beat the best one found is not priced in full. The hands' timing comes
            # first, as most chains a ranking scores are impossible in time.
            noise = still_noise
            times: dict[tuple[int, str], tuple[float, float]] = {}
            spans: list[Span | None] = []
            for i in moving:
                got = piece(i, choice[i])
                noise += got[0]
                noise += got[1]
                times.update(got[2])
                spans.append(got[5])
            if noise >= limit:
                return noise
            hands = self.timing(plies, times, set_up=joined(spans), replies=replies)
            if noise + hands >= limit:
                return noise + hands
            magnets = list(still_magnets)
            ends = list(still_strays)
            put_back = list(still_put_back)
            fumbles = list(still_fumbles)
            knocked = list(still_knocked)
            lifts: list[Moment] = []
            flips: list[Moment] = []
            for i in moving:
                _, _, _, held, stray, _, back, lifted, moments, fumbled, off = piece(i, choice[i])
                fumbles.extend(fumbled)
                knocked.extend(off)
                flips.extend(moments)
                put_back.extend(back)
                lifts.extend(lifted)
                magnets.extend(held)
                if stray:
                    ends.append(i)
            if magnets:
                noise += self.second_hands(magnets, flips)
            if setting is not None and setting.carries:
                noise += self.carried(setting, {p: opts[p][choice[p]][1] for p in moving})
            if ends:
                noise += self.strays(ends, illegal, times)[0]
            if put_back and lifts:
                noise += self.one_hand(put_back, lifts)
            if fumbles:
                noise += self.misplaced(fumbles, self.removals_due(times, self.spared(turns, final)))
            if knocked:
                noise += self.left_off(knocked, times)
            return noise + hands

        def descend(choice: list[int]) -> float:
            # one point's reading changed at a time, while that makes the chain cheaper
            best = total(choice)
            for _ in range(2):
                improved = False
                for i in moving:
                    o = opts[i]
                    if len(o) < 2:
                        continue
                    keep = choice[i]
                    for k in range(len(o)):
                        if k == keep:
                            continue
                        choice[i] = k
                        c = total(choice, best)
                        if c < best:
                            best, keep, improved = c, k, True
                    choice[i] = keep
                if not improved:
                    break
            return best

        best = descend(choice)
        if math.isinf(best):
            # The cheapest readings as noise can put flips where no timing of the chain fits, and
            # no single point's other reading mends that (a man landing before he was lifted, each
            # of two points read early): begin again from every point's latest flips, the reading
            # of a board whose noise came before its turns.
            choice = [_latest(o) if need[i] else 0 for i, o in enumerate(opts)]
            if not math.isinf(total(choice)):
                best = descend(choice)
        if math.isinf(best):
            return None
        cost = best + self.lost + self.model.turn * plies
        matched = tuple(opts[i][choice[i]][1] for i in range(len(POINTS)))
        ends = [i for i in self.changed if self.stray_end(i, matched[i])]
        stray = self.strays(ends, illegal, _times(points, need, matched))[1] if ends else None
        return Story(turns, pending, cost, matched, stray, setting)


def _found_within(seconds: float) -> float:
    """How likely a change a scan found happened at most ``seconds`` before it: the board reads
    every switch again at some pace up to ``FOUND_S``, any as likely, and the change came at any
    moment of the read's period, so a change found is more often a recent one.

    >>> _found_within(FOUND_S), round(_found_within(FOUND_S / 2), 3), _found_within(0.0)
    (1.0, 0.847, 0.0)
    """
    u = min(max(seconds / FOUND_S, 0.0), 1.0)
    return u - u * math.log(u) if u > 0.0 else 0.0


def _latest(options: list[Option]) -> int:
    """Which of a point's readings puts its flips on the latest changes."""
    return max(range(len(options)), key=lambda k: options[k][1])


def _times(
    points: Sequence[PointEvidence], need: Flips, matched: Sequence[tuple[int, ...]]
) -> dict[tuple[int, str], tuple[float, float]]:
    """When each flip of a chain happened (its earliest and latest time), by ply and role."""
    return {
        (f.ply, f.role): (points[i].changes[j].lo, points[i].changes[j].t)
        for i, flips in enumerate(need)
        for f, j in zip(flips, matched[i], strict=True)
    }


def _landing(seq: tuple[Change, ...], a: int, landed: float) -> float:
    """When the man that change ``a`` (an opening) lifts landed: the closing before it, or the
    landing before the evidence began (``-inf``: not known)."""
    if a > 0:
        return seq[a - 1].lo if seq[a - 1].closed else -math.inf
    return landed
