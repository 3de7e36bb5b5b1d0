"""What the switches did since a base position: one typed object, no callables.

Per point the evidence is its state at the base and every change since, each change with the
time it was seen and, for a change only a scan of every switch showed, the earliest time it
can have happened (``lo``). A change reported as it happened has ``lo == t``.

Contact bounce (under a millisecond, ``BOUNCE_S`` at most) is not evidence: a change undone
that quickly is dropped with the change it undid.

>>> log = SwitchLog(0)
>>> log.feed(0b1, 1.0); log.feed(0b0, 1.0004); log.feed(0b1, 1.0009)   # a7 lands, bounces once
>>> log.evidence(2.0).points[0].changes
(Change(t=1.0009, lo=1.0009, closed=True),)
>>> log.feed(0b0, 3.0, full=True)                  # a scan finds a7 open again
>>> log.evidence(3.0).points[0].changes[-1]
Change(t=3.0, lo=2.0, closed=False)

The read found the change within the board's resync (``FOUND_S``) of it: no read before it is
in the record. Where the record shows every read, on a steady pace, the read before bounds it:

>>> log = SwitchLog(0)
>>> for t in (0.0, 3.0, 6.0):
...     log.feed(0b0, t, full=True)
>>> log.feed(0b1, 9.0, full=True)
>>> log.evidence(9.0).points[0].changes[-1]
Change(t=9.0, lo=6.0, closed=True)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from morris_pi.rules.board import POINTS

#: The longest contact bounce: a change undone within this is not a change.
BOUNCE_S = 0.005
#: Scans of every switch remembered (the latest).
SCANS_KEPT = 16
#: The longest a board takes to read every switch again (its resync): a change a read found,
#: where the record keeps only the reads that found something, happened at most this long before.
FOUND_S = 1.0
#: How alike the gaps between reads are when the board reads on a clock and the record shows
#: every read (a share of the longer gap).
PACE_SLACK = 0.1


@dataclass(frozen=True, slots=True)
class Change:
    """A switch closed (a magnet came) or opened (it left) at ``t``, or somewhere in ``[lo, t]``."""

    t: float
    lo: float
    closed: bool

    @property
    def seen(self) -> bool:
        """Whether the change was reported as it happened rather than found by a later scan."""
        return self.lo == self.t


@dataclass(frozen=True, slots=True)
class PointEvidence:
    """One point: closed at the base or not, and its changes since, oldest first (they alternate)."""

    closed: bool
    changes: tuple[Change, ...] = ()
    #: When the man standing at the base landed, if that was seen since the game's start: a brief
    #: opening soon after it is the same landing settling, not a knock.
    landed: float = -math.inf

    @property
    def now_closed(self) -> bool:
        return self.changes[-1].closed if self.changes else self.closed


@dataclass(frozen=True, slots=True)
class Evidence:
    """All 24 points at time ``now``, in ``POINTS`` order."""

    points: tuple[PointEvidence, ...]
    now: float
    #: When the last turn before the base ended (its last change), if the evidence knows.
    since: float = -math.inf
    #: When every switch was last read at once (the latest scans, oldest first): a switch that a
    #: scan read after its last change has lost no change since.
    scans: tuple[float, ...] = ()

    @classmethod
    def static(cls, base: int, changes: dict[str, list[tuple[float, bool]]], now: float) -> Evidence:
        """Evidence written out by hand: the base occupancy mask and seen changes per point name.

        >>> Evidence.static(0, {"d6": [(1.0, True)]}, 2.0).points[POINTS.index("d6")].now_closed
        True
        """
        out = []
        for i, name in enumerate(POINTS):
            seq = tuple(Change(t, t, closed) for t, closed in changes.get(name, ()))
            out.append(PointEvidence(bool(base >> i & 1), seq))
        return cls(tuple(out), now)

    def until(self, t: float) -> Evidence:
        """The evidence as it stood at ``t``: the changes seen by then."""
        points = tuple(
            p
            if not p.changes or p.changes[-1].t <= t
            else PointEvidence(p.closed, tuple(c for c in p.changes if c.t <= t), p.landed)
            for p in self.points
        )
        return Evidence(points, t, self.since, tuple(s for s in self.scans if s <= t))

    @property
    def mask(self) -> int:
        """The occupancy the switches show now."""
        return sum(1 << i for i, p in enumerate(self.points) if p.now_closed)

    @property
    def first_change(self) -> float:
        """When the earliest change anywhere was seen (``inf`` when nothing changed)."""
        return min((p.changes[0].t for p in self.points if p.changes), default=math.inf)

    @property
    def last_change(self) -> float:
        """The time of the latest change anywhere (``-inf`` when nothing changed)."""
        return max((p.changes[-1].t for p in self.points if p.changes), default=-math.inf)


class SwitchLog:
    """The raw readings since a base, turned into ``Evidence`` on request.

    ``feed`` takes each reading; ``full`` says it read every switch at once (a scan), so a point
    found changed without a report changed unseen, after its last known state.
    """

    __slots__ = ("_base", "_changes", "_known_at", "_landed", "_scans", "raw", "since")

    def __init__(self, occupied: int, now: float = -math.inf) -> None:
        self.raw = occupied
        self._base = occupied
        self._changes: list[list[Change]] = [[] for _ in POINTS]
        #: Per point, since when its state is known to hold (its last change, or a scan).
        self._known_at = [now] * len(POINTS)
        #: Per point closed at the base, when its man landed (``-inf``: before anything was seen).
        self._landed = [-math.inf] * len(POINTS)
        #: When the last turn before the base ended (``-inf``: not known).
        self.since = -math.inf
        self._scans: list[float] = []

    def feed(self, occupied: int, now: float, *, full: bool = False, seen: bool | None = None) -> None:
        """A reading; ``full``: every switch was read at once (a scan). A change a scan shows
        happened somewhere since the point was last known, unless ``seen``: the source reads
        every switch so often (a board's own polling) that each change is seen when it happens."""
        unseen = full if seen is None else not seen
        diff = occupied ^ self.raw
        self.raw = occupied
        i = 0
        while diff:
            if diff & 1:
                self._add(i, bool(occupied >> i & 1), now, unseen)
            diff >>= 1
            i += 1
        if full:
            self._known_at = [now] * len(POINTS)
            self._scans = [*self._scans[1 - SCANS_KEPT :], now]

    def _add(self, i: int, closed: bool, now: float, unseen: bool) -> None:
        seq = self._changes[i]
        lo = self._known_at[i] if unseen else now
        if seq and not unseen and seq[-1].seen and now - seq[-1].t <= BOUNCE_S:
            seq.pop()
            self._known_at[i] = seq[-1].t if seq else self._known_at[i]
            return
        if unseen and not self._on_pace(now):
            lo = max(lo, now - FOUND_S)
        seq.append(Change(now, min(lo, now), closed))
        self._known_at[i] = now

    def _on_pace(self, now: float) -> bool:
        """Whether the reads of every switch up to ``now`` came at one steady pace: the record
        shows each read the board made, and the read before this one bounds what it found. A
        record that shows a read only now and then keeps only the reads that found something."""
        scans = self._scans
        if len(scans) < 2:
            return False
        last, before = now - scans[-1], scans[-1] - scans[-2]
        return abs(last - before) <= PACE_SLACK * max(last, before)

    def evidence(self, now: float) -> Evidence:
        points = tuple(
            PointEvidence(bool(self._base >> i & 1), tuple(seq), self._landed[i]) for i, seq in enumerate(self._changes)
        )
        return Evidence(points, now, self.since, tuple(self._scans))

    def rebase(self, base: int, keep: list[int], since: float = -math.inf) -> None:
        """Start again from ``base``, keeping only the last ``keep[i]`` changes of point ``i``.

        ``since`` is when the turns that led to ``base`` ended.

        The caller (who knows which changes the committed turns explained) checks that each point's
        kept changes start from its state in ``base``.
        """
        self._base = base
        self.since = since
        for i, seq in enumerate(self._changes):
            n = keep[i]
            gone = seq[: len(seq) - n]
            if not base >> i & 1:
                self._landed[i] = -math.inf
            elif gone and gone[-1].closed:
                self._landed[i] = gone[-1].lo
            self._changes[i] = seq[len(seq) - n :] if n else []

    def copy(self) -> SwitchLog:
        """An independent log with the same readings (a reading of the game that parts from this one)."""
        other = SwitchLog(self._base)
        other.raw = self.raw
        other._changes = [list(seq) for seq in self._changes]
        other._known_at = list(self._known_at)
        other._landed = list(self._landed)
        other.since = self.since
        other._scans = list(self._scans)
        return other

    def reset(self, occupied: int, now: float) -> None:
        """Forget everything: the board is as ``occupied`` says, as of ``now``."""
        self.raw = occupied
        self._base = occupied
        self._changes = [[] for _ in POINTS]
        self._known_at = [now] * len(POINTS)
        self._landed = [-math.inf] * len(POINTS)
        self.since = -math.inf
        self._scans = []
