"""Debounce of the 24 reed switches on an injected clock.

A point's change *settles* when its raw state has held for the settle window
(default 0.08 s). That filters contact bounce (under 1 ms) and the shorter
closures of a magnet slid past a point. Longer slide closures (up to 150 ms)
do settle; the tracker makes them harmless by deciding only once the whole
board has been still for a while (see ``Settler.still_at``), from the whole
settled occupancy.

Occupancy is a 24-bit mask in ``morris_pi.rules.POINTS`` order.

>>> s = Settler(window=0.08)
>>> s.feed(0b1, 1.0)          # a7 closes ...
1
>>> s.feed(0b0, 1.0005)       # ... bounces open ...
1
>>> s.feed(0b1, 1.0009)       # ... and closes for good
1
>>> s.advance(1.05), s.settled
(0, 0)
>>> s.advance(1.0809), s.settled
(1, 1)
>>> s.changed_at(0)           # the raw time of the change that settled: for tie-breaks
1.0009
"""

from __future__ import annotations

import math

from morris_pi.rules.board import POINTS, bits

DEFAULT_SETTLE_S = 0.08


class Settler:
    """Per-point debounce of raw occupancy masks, with the time of every change."""

    __slots__ = ("window", "raw", "settled", "last_change", "_since", "_pending")

    def __init__(self, window: float = DEFAULT_SETTLE_S, occupied: int = 0, now: float = -math.inf) -> None:
        if not window >= 0:
            raise ValueError(f"settle window must be a number of seconds >= 0, got {window!r}")
        self.window = float(window)
        #: The switches as last read.
        self.raw = occupied
        #: The switches once each has held its state for the window.
        self.settled = occupied
        #: Raw time of the latest raw transition anywhere on the board.
        self.last_change = now
        self._since = [now] * len(POINTS)
        self._pending = 0  # points whose raw state differs from the settled one

    def feed(self, raw: int, now: float) -> int:
        """Take a raw reading; returns the mask of points whose raw state changed."""
        changed = raw ^ self.raw
        if changed:
            since = self._since
            for i in bits(changed):
                since[i] = now
            self.raw = raw
            self.last_change = now
            self._pending = raw ^ self.settled
        return changed

    def advance(self, now: float) -> int:
        """Settle every change that has held for the window; returns the mask of points that settled."""
        pending = self._pending
        if not pending:
            return 0
        done = 0
        since, window = self._since, self.window
        for i in bits(pending):
            if now >= since[i] + window:
                done |= 1 << i
        if done:
            self.settled ^= done
            self._pending = pending & ~done
        return done

    def changed_at(self, index: int) -> float:
        """Raw time of the last transition of a point (the order of settled changes)."""
        return self._since[index]

    @property
    def unsettled(self) -> int:
        """Points whose raw state has not yet held for the window."""
        return self._pending

    def next_deadline(self) -> float | None:
        """When the next pending change will settle, or ``None``."""
        if not self._pending:
            return None
        since, window = self._since, self.window
        return min(since[i] + window for i in bits(self._pending))

    def still_at(self, hold: float) -> float:
        """When the board will have been still for ``window + hold`` since its last raw change."""
        return self.last_change + (self.window + hold)
