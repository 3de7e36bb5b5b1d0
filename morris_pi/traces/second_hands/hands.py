"""The two people's hands turn by turn: the contacts of magnets with switches, and the kinds of mess
they play (``KINDS``); see the package's docstring for the timings and the kinds."""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from morris_pi.rules import POINTS, PROFILES, Game, Position, Turn, coordinates, point_index

from .plan import Plan, after_raw, occupancy, wrong_occupancies

KINDS: tuple[str, ...] = (
    "bounce",
    "slide",
    "off_centre",
    "hover",
    "hesitate",
    "wrong_man",
    "knock",
    "nudge",
    "removal_first",
    "protected",
    "own_lift",
    "illegal",
    "fast",
    "both_hands",
    "lost",
    "two_lifted",
    "captured_dropped",
)
#: Kinds whose state lasts long enough to be read as a turn, so every such state is checked.
LINGERING = frozenset(KINDS) - {"bounce", "slide", "off_centre", "hover", "nudge", "fast"}
#: A state shorter than this is a glitch, not something a person left on the board.
LINGER_S = 0.25
#: How long a man stands still before the same point is touched again by the other side.
SETTLE_S = 0.5
ATTEMPTS = 8
SIDE_NAMES = ("white", "black")


@dataclass
class Contact:
    """A magnet coming within reach of a switch (``closed``) or leaving it."""

    t: float
    point: str
    closed: bool
    brief: bool = False  # part of a glitch; never chosen as the lost change
    bounce: bool = False
    lost: bool = False


@dataclass
class Script:
    """One turn's contacts, and what the next turn must wait for."""

    contacts: list[Contact] = field(default_factory=list)
    kinds: Counter[str] = field(default_factory=Counter)
    main_end: float = 0.0  # the last lift or landing of the turn proper
    settled: float = 0.0  # when the man put down stopped flickering
    must_wait: float = 0.0  # knocked men back, lost change healed
    early: tuple[str, float] | None = None  # the next player's man already lifted (both_hands)


def _u(rng: random.Random, lo: float, hi: float) -> float:
    return rng.uniform(lo, hi)


def _think(rng: random.Random) -> float:
    return math.exp(rng.uniform(math.log(1.0), math.log(10.0)))


def path_points(start: tuple[float, float], end: tuple[float, float], skip: set[str]) -> list[str]:
    """Points within half a grid step of the straight way from ``start`` to ``end``, in order.

    >>> path_points((0, 0), (6, 0), {"a1", "g1"})
    ['d1']
    """
    (x0, y0), (x1, y1) = start, end
    dx, dy = x1 - x0, y1 - y0
    length2 = dx * dx + dy * dy or 1.0
    found = []
    for p in POINTS:
        if p in skip:
            continue
        px, py = coordinates(p)
        u = ((px - x0) * dx + (py - y0) * dy) / length2
        if not 0.0 < u < 1.0:
            continue
        if math.hypot(x0 + u * dx - px, y0 + u * dy - py) < 0.5:
            found.append((u, p))
    return [p for _, p in sorted(found)]


class Hands:
    """Two players and a board: scripts each turn as contacts, checked for decidability."""

    def __init__(
        self,
        seed: str,
        plan: Plan,
        mess: dict[str, float],
        window: tuple[int, int] | None = None,
        turns: int | None = None,
    ) -> None:
        # a generator of its own for every turn, so that a turn plays the same whatever the
        # mess of the others (a failing turn is then cut out with the mess around it removed)
        self.seed = seed
        self.rng = rng = random.Random(f"{seed}:board")
        self.plan = plan
        self.all_mess = mess
        self.mess = mess
        self.window = window
        self.turns = len(plan.turns) if turns is None else turns
        self.geometry = PROFILES[plan.profile].board
        self.contacts: list[Contact] = []
        self.busy_until: dict[str, float] = dict.fromkeys(POINTS, 0.0)
        self.counts: Counter[str] = Counter()
        self.scan_period = rng.uniform(2.0, 5.0)
        self.scan_phase = rng.uniform(0.5, self.scan_period)
        self.checked_turns = 0
        self.redrawn = 0

    def next_scan(self, t: float) -> float:
        k = math.floor((t - self.scan_phase) / self.scan_period) + 1
        return self.scan_phase + max(k, 0) * self.scan_period

    # the whole game

    def play(self) -> tuple[list[Contact], float]:
        t = 1.0
        main_end, must_wait, settled = 0.0, 0.0, 0.0
        early: tuple[str, float] | None = None
        for i in range(self.turns):
            self.rng = rng = random.Random(f"{self.seed}:{i}:start")
            quiet = self.window is not None and not self.window[0] <= i <= self.window[1]
            self.mess = {} if quiet else self.all_mess
            fast = False
            if early is not None:
                start = must_wait
            elif i and self.rng.random() < self.mess.get("fast", 0.0):
                start = main_end + _u(rng, 0.05, 0.5)
                origin = self.plan.turns[i].origin
                if origin is None or self._crossed(i - 1, origin):
                    # a placement shows nothing before it lands, so only the order of the
                    # landings tells who put which man: it lands after the last one settled;
                    # so does a move that could have swapped targets with the last one (a
                    # flickering man reads as well as a hand hovering there)
                    start = max(start, settled)
                fast = True
            else:
                start = (main_end if i else t) + (_think(rng) if i else 0.0)
            start = max(start, must_wait)
            script = self.script_turn(i, start, early)
            if fast:
                script.kinds["fast"] += 1
            self.counts.update(script.kinds)
            self.contacts.extend(script.contacts)
            for c in script.contacts:
                self.busy_until[c.point] = max(self.busy_until[c.point], c.t + 0.02)
            main_end, must_wait, early = script.main_end, script.must_wait, script.early
            settled = script.settled
        return self.contacts, max(main_end, must_wait)

    def script_turn(self, i: int, start: float, early: tuple[str, float] | None) -> Script:
        pos, turn = self.plan.positions[i], self.plan.turns[i]
        wrong: set[int] | None = None
        for attempt in range(ATTEMPTS + 1):
            calm = attempt == ATTEMPTS
            self.rng = random.Random(f"{self.seed}:{i}:{attempt}")
            script = self._attempt(i, start, early, calm)
            if not (set(script.kinds) & LINGERING):
                return script
            if wrong is None:
                wrong = wrong_occupancies(pos, turn)
                self.checked_turns += 1
            if self._decidable(script, pos, turn, early, wrong):
                return script
            self.redrawn += 1
        raise AssertionError("a calm turn has no lingering kinds")

    # checking

    def _states(self, script: Script, start_occ: int, seen: bool) -> list[tuple[float, float, int]]:
        """(start, duration, occupancy) of every state during the script, as switches or events show it."""
        contacts = sorted(script.contacts, key=lambda c: c.t)
        occ = start_occ
        truth = start_occ
        states: list[tuple[float, float, int]] = []
        t_prev = contacts[0].t if contacts else 0.0
        scans = []
        if seen and contacts:
            s = self.next_scan(contacts[0].t)
            while s <= contacts[-1].t + self.scan_period:
                scans.append(s)
                s += self.scan_period
        items: list[tuple[float, int, Contact | None]] = [(c.t, 0, c) for c in contacts]
        items += [(s, 1, None) for s in scans]
        items.sort(key=lambda x: (x[0], x[1]))
        for t, _, c in items:
            if t > t_prev:
                states.append((t_prev, t - t_prev, occ))
                t_prev = t
            if c is None:
                occ = truth
                continue
            bit = 1 << point_index(c.point)
            truth = truth | bit if c.closed else truth & ~bit
            if not (seen and c.lost):
                occ = occ | bit if c.closed else occ & ~bit
        states.append((t_prev, math.inf, occ))
        return states

    def _decidable(
        self, script: Script, pos: Position, turn: Turn, early: tuple[str, float] | None, wrong: set[int]
    ) -> bool:
        start_occ = occupancy(pos)
        if early:
            start_occ &= ~(1 << point_index(early[0]))
        # once the turn is complete, the board shown before its removal is no longer ours: it
        # reads as the other side's placement on the point just emptied, while it has men to place
        done = after_raw(occupancy(pos), (*turn.to_raw()[:2], -1))
        placing = pos.hand[pos.side ^ 1] > 0
        if placing and any(c.closed and not c.brief and c.t > script.main_end for c in script.contacts):
            # a man put on a point after the turn is complete (a knocked man put back, a taken
            # man dropped) reads as the other side's placement there
            return False
        placing = placing and bool(turn.removal)
        for seen in (False, True):
            for t, duration, occ in self._states(script, start_occ, seen):
                if duration < LINGER_S:
                    continue
                if occ in wrong or (placing and t >= script.main_end and occ == done):
                    return False
        return True

    # one turn

    def _attempt(self, i: int, start: float, early: tuple[str, float] | None, calm: bool) -> Script:
        rng = self.rng
        pos, turn = self.plan.positions[i], self.plan.turns[i]
        me = pos.side
        own = {POINTS[b] for b in range(24) if pos.men[me] >> b & 1}
        opp = {POINTS[b] for b in range(24) if pos.men[me ^ 1] >> b & 1}
        occ = own | opp
        if early:
            occ = occ - {early[0]}
        s = Script()
        touched: set[str] = {p for p in (turn.origin, turn.target, turn.removal) if p}
        if early:
            touched.add(early[0])

        def roll(kind: str) -> bool:
            if calm and kind in LINGERING:
                return False
            return rng.random() < self.mess.get(kind, 0.0)

        def free(candidates: Iterable[str], at: float) -> list[str]:
            return sorted(p for p in candidates if p not in touched and self.busy_until[p] < at)

        def add(t: float, point: str, closed: bool, brief: bool = False) -> None:
            s.contacts.append(Contact(t, point, closed, brief=brief))

        def lift_and_return(t: float, point: str, hold: tuple[float, float], pause: tuple[float, float]) -> float:
            """A man lifted, held, and put back on his point; returns when the hand moves on."""
            add(t, point, False)
            t += _u(rng, *hold)
            add(t, point, True)
            return t + _u(rng, *pause)

        def land(t: float, point: str) -> float:
            """Put a man down; returns when it has settled."""
            add(t, point, True)
            if roll("off_centre"):
                s.kinds["off_centre"] += 1
                u = t
                for _ in range(rng.randint(2, 8)):
                    u += _u(rng, 0.03, 0.15)
                    add(u, point, False, brief=True)
                    u += _u(rng, 0.01, 0.12)
                    add(u, point, True, brief=True)
                return u
            return t

        # a man still settling from the last turn is not touched before it has settled
        # (a man just put down by the other side has to have stood a moment before it is taken:
        # taken while it still flickers, it would read as a hover and never a turn)
        t = max([start] + [self.busy_until[p] + SETTLE_S for p in (turn.origin, turn.removal) if p])
        removed_early = False
        origin, target, removal = turn.origin, turn.target, turn.removal

        # before the step
        if removal and not early and roll("removal_first"):
            s.kinds["removal_first"] += 1
            add(t, removal, False)
            removed_early = True
            t += _u(rng, 0.5, 1.5)
        if not early:
            if origin and not pos.flies(me) and roll("illegal"):
                far = free((p for p in POINTS if p not in occ and not self.geometry.are_adjacent(origin, p)), t)
                if far:
                    z = rng.choice(far)
                    touched.add(z)
                    s.kinds["illegal"] += 1
                    add(t, origin, False)
                    t += _u(rng, 0.3, 1.5)
                    t = land(t, z) + _u(rng, 1.0, 3.0)
                    add(t, z, False)
                    t += _u(rng, 0.3, 1.0)
                    add(t, origin, True)
                    t += _u(rng, 0.5, 2.0)
            if origin and roll("hesitate"):
                s.kinds["hesitate"] += 1
                t = lift_and_return(t, origin, (0.3, 2.0), (0.5, 3.0))
            if origin and roll("wrong_man"):
                others = free(own, t)
                if others:
                    x = rng.choice(others)
                    touched.add(x)
                    s.kinds["wrong_man"] += 1
                    t = lift_and_return(t, x, (0.3, 1.5), (0.2, 1.0))

        # the step
        if origin:
            if early:
                t_lift = early[1]
                t = max(t, t_lift + 0.3)
            else:
                add(t, origin, False)
                t_lift = t
            carry = _u(rng, 0.3, 1.5)
            way_from: tuple[float, float] = coordinates(origin)
        else:
            t_lift = t
            carry = _u(rng, 0.3, 1.0)
            # a man to place comes in from the player's own edge of the board
            way_from = (float(coordinates(target)[0]), -1.5 if me == 0 else 7.5)
        if origin and not early and pos.flies(me) and roll("two_lifted"):
            others = free(own, t)
            if others:
                x2 = rng.choice(others)
                touched.add(x2)
                s.kinds["two_lifted"] += 1
                add(t + _u(rng, 0.01, 0.08), x2, False)
                add(t + _u(rng, 0.3, 0.9), x2, True)
                carry = max(carry, 1.0)
        t_land = t + carry
        if roll("slide"):
            way = [p for p in path_points(way_from, coordinates(target), {target}) if p not in occ]
            way = free(way, t)
            if way:
                s.kinds["slide"] += 1
                n = len(way)
                for k, q in enumerate(way):
                    u = t + carry * (k + 1) / (n + 2)
                    add(u, q, True, brief=True)
                    add(u + _u(rng, 0.015, 0.06), q, False, brief=True)
                    touched.add(q)
        if roll("hover"):
            near = [p for p in free(POINTS, t_land) if p not in occ and p != target]
            near.sort(key=lambda p: math.dist(coordinates(p), coordinates(target)))
            if near:
                s.kinds["hover"] += 1
                for q in near[: rng.randint(1, 2)]:
                    t_land += _u(rng, 0.2, 0.6)
                    add(t_land, q, True, brief=True)
                    add(t_land + _u(rng, 0.04, 0.12), q, False, brief=True)
                    touched.add(q)
                t_land += _u(rng, 0.2, 0.6)
        knock = roll("knock")
        knock_before = knock and rng.random() < 0.5
        put_back = 0.0
        if knock_before:
            u = _u(rng, t_lift, t_land)
            put_back = self._knock(s, u, origin, target, occ, touched, free)
        settled = land(t_land, target)
        s.main_end = t_land
        s.settled = settled
        if roll("nudge"):
            near = [p for p in free(self.geometry.neighbours(target), t_land) if p in occ]
            if near:
                nudged = rng.choice(near)
                touched.add(nudged)
                s.kinds["nudge"] += 1
                u = t_land + _u(rng, 0.0, 0.1)
                add(u, nudged, False, brief=True)
                add(u + _u(rng, 0.03, 0.15), nudged, True, brief=True)
        if knock and not knock_before:
            put_back = self._knock(s, t_land + _u(rng, 0.05, 0.5), origin, target, occ, touched, free)
        t = max(settled, t_land)

        # the removal
        if removal:
            t += _u(rng, 0.4, 3.0)
            if put_back:
                t = max(t, put_back + 0.2)
            if not removed_early:
                protected = sorted(p for p in opp if not pos.removable(me) >> point_index(p) & 1)
                protected = free(protected, t)
                if protected and roll("protected"):
                    p = rng.choice(protected)
                    touched.add(p)
                    s.kinds["protected"] += 1
                    t = lift_and_return(t, p, (0.5, 2.0), (0.3, 1.5))
                mine = free(own - {origin} if origin else own, t)
                if mine and roll("own_lift"):
                    m = rng.choice(mine)
                    touched.add(m)
                    s.kinds["own_lift"] += 1
                    t = lift_and_return(t, m, (0.4, 1.5), (0.3, 1.5))
                add(t, removal, False)
                s.main_end = t
            if roll("captured_dropped"):
                spots = free((p for p in POINTS if p not in occ), t)
                if self.busy_until[removal] < t:
                    spots.append(removal)
                if spots:
                    q = rng.choice(spots)
                    touched.add(q)
                    s.kinds["captured_dropped"] += 1
                    u = max(t, s.main_end) + _u(rng, 0.3, 1.2)
                    add(u, q, True)
                    u += _u(rng, 0.3, 0.8)
                    add(u, q, False)
                    put_back = max(put_back, u)
        s.must_wait = max(put_back + 0.3, s.main_end)

        # the next player's hand, already on a man
        nxt = i + 1
        if (
            not removal
            and origin
            and not early
            and nxt < self.turns
            and t_land - t_lift > 0.5
            and pos.hand == (0, 0)
            and roll("both_hands")
        ):
            u_turn = self.plan.turns[nxt]
            c = u_turn.origin
            u_at = t_lift + _u(rng, 0.1, t_land - t_lift - 0.2)
            if c and c not in touched and self.busy_until[c] < u_at and not self._crossed(i, c):
                s.kinds["both_hands"] += 1
                add(u_at, c, False)
                s.early = (c, u_at)
                s.must_wait = max(s.must_wait, t_land + _u(rng, 0.1, 0.5))

        # one switch change the board never reports, until its next scan
        if roll("lost"):
            long = [c for c in s.contacts if not c.brief]
            if long:
                gone = rng.choice(long)
                gone.lost = True
                s.kinds["lost"] += 1
                last = max(x.t for x in s.contacts)
                s.must_wait = max(s.must_wait, self.next_scan(last) + 0.3)
        for contact in s.contacts:
            if roll("bounce"):
                contact.bounce = True
                s.kinds["bounce"] += 1
        return s

    def _knock(
        self,
        s: Script,
        at: float,
        origin: str | None,
        target: str,
        occ: set[str],
        touched: set[str],
        free: Callable[[Iterable[str], float], list[str]],
    ) -> float:
        """A sleeve knocks a man near the hand off its point; its owner puts it back."""
        rng = self.rng
        near: set[str] = set()
        for p in (origin, target):
            if p:
                near.update(self.geometry.neighbours(p))
        men = [p for p in free(near, at) if p in occ]
        if not men:
            return 0.0
        k = rng.choice(men)
        touched.add(k)
        s.kinds["knock"] += 1
        s.contacts.append(Contact(at, k, False))
        back = at + _u(rng, 0.5, 2.5)
        s.contacts.append(Contact(back, k, True))
        return back

    def _crossed(self, i: int, c: str) -> bool:
        """Whether the two men in the air could have landed the other way round, legally."""
        pos, turn = self.plan.positions[i], self.plan.turns[i]
        nxt = self.plan.turns[i + 1]
        if turn.origin is None or nxt.target == turn.origin:
            return False
        first = Turn(nxt.target, turn.origin)
        second = Turn(turn.target, c)
        game = Game.from_position(pos)
        try:
            game.play(first)
            if game.pending:
                return True
            game.play(second)
        except ValueError:
            return False
        return True


# -- the sensor layer ------------------------------------------------------------------------
