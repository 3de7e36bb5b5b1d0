"""Debounce of the 24 reed switches on an injected clock, at two levels.

A point's change is *settled* when its raw state has held for the settle
window (default 0.08 s): that filters contact bounce (under 1 ms) and the
shorter closures of a magnet slid past a point. It is *firm* when it has held
for the window plus a hold (default 0.12 s, so 0.2 s in all). A magnet slid
past a point closes it for at most 150 ms, so a slide never becomes firm,
even over a point the lifted man could legally go to: occupancy alone could
not tell that from a move there. The tracker reads turns from the firm
occupancy, and lets a fix of the board show as soon as it has settled.

Occupancy is a 24-bit mask in ``morris_pi.rules.POINTS`` order.

>>> s = Settler(window=0.08, hold=0.12)
>>> s.feed(0b1, 1.0)          # a7 closes ...
1
>>> s.feed(0b0, 1.0005)       # ... bounces open ...
1
>>> s.feed(0b1, 1.0009)       # ... and closes for good
1
>>> s.advance(1.05), s.settled
((0, 0), 0)
>>> s.advance(1.0809), s.settled, s.firm
((1, 0), 1, 0)
>>> s.advance(1.2009), s.firm
((0, 1), 1)
>>> s.changed_at(0)           # the raw time of the change: for tie-breaks
1.0009
>>> s.once, s.twice           # a7 settled once since the start (bounce never counts)
(1, 0)

Besides the state, the settler keeps what each point *did* since a base
position (``rebase``): ``once`` has the points whose settled state changed at
least once, ``twice`` those that changed at least twice (emptied and refilled,
or filled and emptied). A reading of the board may only change a point the
sensors saw change; see ``reconcile``.

The counts are kept for a stack of bases: the confirmed position first, then
one per provisional turn read on top of it (``push``). ``once``/``twice`` are
those of the newest base. Confirming a turn drops the oldest base
(``confirm``); dropping the provisional turns goes back to the counts since
the confirmed position (``rollback``), so a reading made again sees every
change since then.

>>> s.push(0b1); s.once, s.twice      # a reading on top: a7 is where it should be
(0, 0)
>>> s.rollback(); s.once              # the reading dropped: a7 changed since the confirmed base
1
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from morris_pi.rules.board import POINTS, bits

DEFAULT_SETTLE_S = 0.08
DEFAULT_HOLD_S = 0.12
#: A point that held a man until firm, then was open for no longer than this, still holds the
#: same man: it was nudged off its switch and slid back.
REST_GAP_S = 0.3
#: The shortest closing a man makes: a magnet carried across a switch at hand speed.
SHORTEST_CLOSING_S = 0.02
#: Transitions kept per point: enough for a man's landing with bounce and a few touches.
LOG_LENGTH = 32
#: Scans of every switch kept: enough to bound when a change only a later scan showed happened.
SCANS_KEPT = 16
#: Seconds at most a switch that keeps changing holds up the reading of the board: a man put
#: down off-centre flickers for up to a second or so; longer is a fault of the switch.
RESTLESS_MAX_S = 2.5


class Settler:
    """Per-point debounce of raw occupancy masks, with the time of every change."""

    __slots__ = (
        "_bases",
        "_log",
        "_rest",
        "_scans",
        "_settled_at",
        "_since",
        "_unfirm",
        "_unsettled",
        "firm",
        "first",
        "hold",
        "last_change",
        "once",
        "raw",
        "settled",
        "twice",
        "window",
    )

    def __init__(
        self,
        window: float = DEFAULT_SETTLE_S,
        hold: float = DEFAULT_HOLD_S,
        occupied: int = 0,
        now: float = -math.inf,
    ) -> None:
        if not window >= 0:
            raise ValueError(f"settle window must be a number of seconds >= 0, got {window!r}")
        if not hold >= 0:
            raise ValueError(f"hold must be a number of seconds >= 0, got {hold!r}")
        self.window = float(window)
        self.hold = float(hold)
        #: The switches as last read.
        self.raw = occupied
        #: The switches once each has held its state for the window.
        self.settled = occupied
        #: The switches once each has held its state for the window and the hold.
        self.firm = occupied
        #: Raw time of the latest raw transition anywhere on the board.
        self.last_change = now
        #: Points whose settled state changed at least once / twice since the base (``rebase``).
        self.once = 0
        self.twice = 0
        #: Per point, the raw time of its first settled change since the base (``inf``: none):
        #: the first touch that held, which orders two men put down at once.
        self.first = [math.inf] * len(POINTS)
        #: ``[once, twice, first]`` of the older bases (confirmed first); the newest is above.
        self._bases: list[list[Any]] = []
        self._since = [now] * len(POINTS)
        #: Per point, the raw time its man came to rest: the closing after which the point
        #: was open only for nudges (see ``REST_GAP_S``).
        self._rest = [now] * len(POINTS)
        #: Per point, its latest raw transitions ``(time, closed, seen)``, oldest first; ``seen``
        #: is false for a change only a scan showed (it happened some time before).
        self._log: list[list[tuple[float, bool, bool]]] = [[] for _ in POINTS]
        # Per point, the raw time of the change its settled state holds (``_since`` moves on
        # with a newer raw change that has not settled yet).
        self._settled_at = [now] * len(POINTS)
        self._unsettled = 0  # points whose raw state differs from the settled one
        self._unfirm = 0  # points whose raw state differs from the firm one
        #: Raw times of the latest scans of every switch (``scanned``), oldest first.
        self._scans: list[float] = []

    def feed(self, raw: int, now: float, held: int = 0) -> int:
        """Take a raw reading; returns the mask of points whose raw state changed.

        ``held``: points whose change is known to be older than the settle window (a scan of
        every switch showed a change never reported): they settle at once.
        """
        changed = raw ^ self.raw
        if changed:
            since, rest, log = self._since, self._rest, self._log
            firm = self.window + self.hold
            for i in bits(changed):
                seen = not held >> i & 1
                t = now if seen else now - self.window
                closed = bool(raw >> i & 1)
                # Back within the gap after resting there at least until firm: the same man.
                if closed and (t - since[i] > REST_GAP_S or since[i] - rest[i] < firm):
                    rest[i] = t
                since[i] = t
                history = log[i]
                history.append((t, closed, seen))
                if len(history) > LOG_LENGTH:
                    del history[0]
            self.raw = raw
            self.last_change = now
            self._unsettled = raw ^ self.settled
            self._unfirm = raw ^ self.firm
        return changed

    def scanned(self, now: float) -> None:
        """Every switch was read at raw time ``now``: a change it did not show came after it."""
        scans = self._scans
        if not scans or now > scans[-1]:
            scans.append(now)
            if len(scans) > SCANS_KEPT:
                del scans[0]

    def advance(self, now: float) -> tuple[int, int]:
        """Settle every change that has held for the window, and firm up those that have held
        for the window and the hold; returns the masks of points that settled and that firmed now."""
        done = firmed = 0
        since, window = self._since, self.window
        pending = self._unsettled
        if pending:
            for i in bits(pending):
                if now >= since[i] + window:
                    done |= 1 << i
            if done:
                self.settled ^= done
                self._unsettled = pending & ~done
                self.twice |= self.once & done
                self.once |= done
                first = self.first
                settled_at = self._settled_at
                for i in bits(done):
                    settled_at[i] = since[i]
                    if first[i] == math.inf:
                        first[i] = since[i]
                for counts in self._bases:
                    counts[1] |= counts[0] & done
                    counts[0] |= done
                    first = counts[2]
                    for i in bits(done):
                        if first[i] == math.inf:
                            first[i] = since[i]
        pending = self._unfirm
        if pending:
            longer = window + self.hold
            for i in bits(pending):
                if now >= since[i] + longer:
                    firmed |= 1 << i
            if firmed:
                self.firm ^= firmed
                self._unfirm = pending & ~firmed
        return done, firmed

    def rebase(self, base: int) -> None:
        """Start counting changes from the position ``base`` (a mask of the men that should stand).

        A point that already differs from ``base`` has changed once: its man is
        in the hand, or a man was put there, before the position was decided.
        """
        self.once = self.settled ^ base
        self.twice = 0
        self.first = self._firsts(self.once)
        self._bases = []

    def push(self, base: int) -> None:
        """Count from ``base`` too (a provisional reading), keeping the counts of the older bases."""
        self._bases.append([self.once, self.twice, self.first])
        self.once = self.settled ^ base
        self.twice = 0
        self.first = self._firsts(self.once)

    def _firsts(self, changed: int) -> list[float]:
        # The change that made the settled state, not a newer one still settling (a man that
        # landed and is being lifted again right now touched first when it landed).
        first = [math.inf] * len(POINTS)
        for i in bits(changed):
            first[i] = self._settled_at[i]
        return first

    def first_at(self, index: int) -> float:
        """Raw time of the point's first settled change since the base, else of its last change."""
        t = self.first[index]
        return t if t != math.inf else self._since[index]

    def confirm(self) -> None:
        """The oldest base is left behind: the turn read on it is confirmed."""
        if self._bases:
            del self._bases[0]

    def base_counts(self) -> tuple[int, int]:
        """``(once, twice)`` since the oldest base (the confirmed position)."""
        if self._bases:
            return self._bases[0][0], self._bases[0][1]
        return self.once, self.twice

    def base_first_at(self, index: int) -> float:
        """``first_at`` since the oldest base (the confirmed position)."""
        if self._bases:
            t = self._bases[0][2][index]
            return t if t != math.inf else self._since[index]
        return self.first_at(index)

    def rollback(self) -> None:
        """Back to the counts since the oldest base: the provisional readings are dropped."""
        self.rollback_to(0)

    def counts_at(self, depth: int) -> tuple[int, int]:
        """``(once, twice)`` since the base ``depth`` (0: the oldest, the confirmed position)."""
        if depth < len(self._bases):
            return self._bases[depth][0], self._bases[depth][1]
        return self.once, self.twice

    def first_since(self, depth: int) -> Callable[[int], float]:
        """``first_at`` since the base ``depth``."""
        if depth >= len(self._bases):
            return self.first_at
        first = self._bases[depth][2]
        since = self._since
        return lambda i: first[i] if first[i] != math.inf else since[i]

    def rollback_to(self, depth: int) -> None:
        """Back to the counts since the base ``depth``: the readings made on top of it are dropped."""
        if depth < len(self._bases):
            self.once, self.twice, self.first = self._bases[depth]
            del self._bases[depth:]

    def settled_at(self, index: int) -> float:
        """Raw time of the change the point's settled state holds (a flicker since does not count)."""
        return self._settled_at[index]

    def landed_at(self, index: int) -> float:
        """Raw time the man on an occupied point came to rest (see ``REST_GAP_S``)."""
        return self._rest[index]

    def closed_since(self, index: int, t: float) -> float | None:
        """When the closing that held the point's switch closed at raw time ``t`` began, or
        ``None`` if it was open then, or may have been: it opened at a time only a scan showed,
        and ``t`` is later than the shortest closing after it closed."""
        history = self._log[index]
        after: tuple[float, bool, bool] | None = None
        for entry in reversed(history):
            when, closed, _ = entry
            if when <= t:
                if not closed:
                    return None
                if after is not None and not after[2] and t - when > SHORTEST_CLOSING_S:
                    # The opening came at some time before the scan that showed it, but after
                    # any earlier scan that still showed the point closed.
                    shown = after[0] + self.window
                    if not any(t <= scan < shown - 1e-9 for scan in self._scans):
                        return None
                return when
            after = entry
        return None

    def open_at(self, index: int, t: float) -> bool:
        """Whether the point's switch was surely open at raw time ``t``: its last change before
        ``t`` an opening, reported or shown by a scan made by then, and its next change not a
        closing only a scan showed (that one may have come before ``t``).

        >>> settler = Settler()
        >>> for raw, now in ((1, 1.0), (0, 1.5), (1, 3.0)):
        ...     _ = settler.feed(raw, now)
        >>> settler.open_at(0, 2.0), settler.open_at(0, 1.2), settler.open_at(0, 0.5)
        (True, False, False)
        """
        history = self._log[index]
        before = None
        for n, (when, closed, seen) in enumerate(history):
            if when > t:
                if before is None or (closed and not seen):
                    return False
                break
            before = n
        if before is None:
            return False
        when, closed, seen = history[before]
        return not closed and (seen or when + self.window <= t)

    def touched_after(self, index: int, t: float) -> float:
        """When the point's switch was first closed at or after raw time ``t``: ``t`` itself if
        it was closed then, ``inf`` if it has not closed since (or changes older than the log
        keeps would be needed).

        >>> settler = Settler()
        >>> for raw, now in ((1, 1.0), (0, 1.5), (1, 3.0)):  # a1 touched, left, then a man lands
        ...     _ = settler.feed(raw, now)
        >>> settler.touched_after(0, 1.2), settler.touched_after(0, 2.0)
        (1.2, 3.0)
        >>> settler.touched_after(1, 2.0)  # never touched
        inf
        """
        closed_then = self._closed_at(index, t)
        if closed_then is None:
            return math.inf
        if closed_then:
            return t
        return next((when for when, closed, _ in self._log[index] if when > t and closed), math.inf)

    def _closed_at(self, index: int, t: float) -> bool | None:
        """Whether the point's switch was closed at raw time ``t`` by its log (``None``: older
        changes than the log keeps would be needed)."""
        history = self._log[index]
        for when, closed, _ in reversed(history):
            if when <= t:
                return closed
        if len(history) >= LOG_LENGTH:
            return None
        # Every change came after t: the state at t is the one before the first of them.
        return not history[0][1] if history else bool(self.raw >> index & 1)

    def longest_open(self, index: int, start: float, end: float) -> float:
        """The longest time the point's switch stayed open between raw times ``start`` and
        ``end`` (``inf`` if the log no longer reaches back to ``start``).

        >>> settler = Settler()
        >>> for raw, now in ((1, 1.0), (0, 1.25), (1, 1.5), (0, 2.0), (1, 3.0)):
        ...     _ = settler.feed(raw, now)
        >>> settler.longest_open(0, 1.0, 1.9), settler.longest_open(0, 1.0, 3.5)
        (0.25, 1.0)
        """
        closed_then = self._closed_at(index, start)
        if closed_then is None:
            return math.inf
        open_since = None if closed_then else start
        longest = 0.0
        for when, closed, _ in self._log[index]:
            if when <= start or when > end:
                continue
            if closed and open_since is not None:
                longest = max(longest, when - open_since)
                open_since = None
            elif not closed and open_since is None:
                open_since = when
        if open_since is not None:
            longest = max(longest, end - open_since)
        return longest

    def restless(self, points: int, now: float) -> int:
        """Those of ``points`` whose switch keeps changing: its latest run of changes, each
        within the firm time of the one before, has lasted longer than the settle window (a
        bounce is over sooner), began less than ``RESTLESS_MAX_S`` before ``now`` (a switch
        flickering for longer is faulty and holds up nothing) and has not yet been still for the
        firm time."""
        firm = self.window + self.hold
        mask = 0
        for i in bits(points):
            history = self._log[i]
            if not history or now - history[-1][0] >= firm:
                continue
            since = history[-1][0]
            for when, _, _ in reversed(history[:-1]):
                if since - when > firm:
                    break
                since = when
            if history[-1][0] - since > self.window and now - since < RESTLESS_MAX_S:
                mask |= 1 << i
        return mask

    def lifted_at(self, index: int) -> float:
        """Raw time of the point's latest opening that the switch reported itself (``-inf``: none
        kept); an opening only a scan showed has no time."""
        for when, closed, seen in reversed(self._log[index]):
            if seen and not closed:
                return when
        return -math.inf

    def arrived_first(self, first: int, second: int) -> bool:
        """Whether the man on point ``first`` came before the man on point ``second``.

        Two men put down at once: the one whose point already held a man when the other came
        to rest was first, even if it was knocked off and put back since; if each held a man
        when the other came to rest, the one that closed first. Otherwise the one that came
        to rest first.
        """
        rest = self._rest
        at_second = self._held_at_rest(first, second)
        at_first = self._held_at_rest(second, first)
        if (at_second is None) != (at_first is None):
            return at_second is not None
        if at_second is not None and at_first is not None:
            return at_second < at_first
        return rest[first] < rest[second]

    def _held_at_rest(self, point: int, other: int) -> float | None:
        """When the closing that held ``point`` when the man on ``other`` came to rest began, or
        ``None`` (see ``closed_since``). A man whose landing only a scan showed came to rest at
        some time after his point's last reported change: ``point`` held a man then only if it
        held one throughout (as when g4's man came back before b4 was touched by a man
        slid across it, and the scan came 50 ms after that touch)."""
        rest = self._rest[other]
        at = self.closed_since(point, rest)
        if at is not None:
            history = self._log[other]
            for n in range(len(history) - 1, 0, -1):
                when, closed, seen = history[n]
                if when == rest and closed:
                    if not seen and at > history[n - 1][0]:
                        return None
                    break
        return at

    def changed_at(self, index: int) -> float:
        """Raw time of the last transition of a point (the order of changes)."""
        return self._since[index]

    def next_deadline(self) -> float | None:
        """When the next pending change will settle or firm up, or ``None``."""
        since, window = self._since, self.window
        times = [since[i] + window for i in bits(self._unsettled)]
        longer = window + self.hold
        times.extend(since[i] + longer for i in bits(self._unfirm))
        return min(times) if times else None
