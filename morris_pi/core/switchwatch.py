"""Switches that misbehave, noticed from the raw readings and said once per episode.

The tracker already keeps a bouncing or stuck switch from becoming a turn, but
the person fixing the board needs to know which switch it is. ``SwitchWatch``
looks at every raw reading (the set of closed switches) on the injected clock:

- **flapping**: a switch that changes ``flap_changes`` times within
  ``flap_window_s`` (a reed at the edge of its magnet's range, a loose wire).
  The episode ends when it has not changed for ``calm_s``.
- **stuck closed**: a switch that reads closed for ``stuck_s`` where the game
  has no man (``expected`` in ``observe``). The board cannot tell a man left
  there from a switch stuck closed, so the message names both. The episode
  ends when it opens or the game puts a man there.

Each episode is one WARNING naming the point when it starts and one INFO when
it ends. Memory is bounded: at most ``flap_changes`` times per point.

>>> w = SwitchWatch(flap_changes=4, flap_window_s=1.0)
>>> for i in range(5):
...     said = w.observe({"d6"} if i % 2 == 0 else set(), now=i * 0.01)
>>> said
['switch d6 is flapping: 4 changes within 1 s (check the reed switch, its wire and the magnet)']
>>> sorted(w.flapping)
['d6']
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Iterable

log = logging.getLogger("morris_pi.switches")


class SwitchWatch:
    """Flapping and stuck-closed switches, one warning per episode (see the module docstring)."""

    def __init__(
        self,
        *,
        flap_changes: int = 10,
        flap_window_s: float = 1.0,
        calm_s: float = 2.0,
        stuck_s: float = 20.0,
        logger: logging.Logger | None = None,
    ) -> None:
        self.flap_changes = flap_changes
        self.flap_window_s = flap_window_s
        self.calm_s = calm_s
        self.stuck_s = stuck_s
        self.log = logger or log
        #: Points flapping now, and points stuck closed now.
        self.flapping: set[str] = set()
        self.stuck: set[str] = set()
        #: Every point that flapped at some time (for a report at the end).
        self.ever_flapped: set[str] = set()
        self._last: frozenset[str] | None = None
        self._changes: dict[str, deque[float]] = {}
        self._closed_since: dict[str, float] = {}

    def observe(self, closed: Iterable[str], now: float, expected: Iterable[str] | None = None) -> list[str]:
        """One reading at ``now``; ``expected``: where the game has men (``None``: no game, no stuck check).

        Returns the warnings that started an episode now (they are logged too).
        """
        closed = frozenset(closed)
        said: list[str] = []
        if self._last is not None:
            for point in closed ^ self._last:
                times = self._changes.setdefault(point, deque(maxlen=self.flap_changes))
                times.append(now)
                if (
                    point not in self.flapping
                    and len(times) == self.flap_changes
                    and now - times[0] <= self.flap_window_s
                ):
                    self.flapping.add(point)
                    self.ever_flapped.add(point)
                    said.append(
                        f"switch {point} is flapping: {self.flap_changes} changes within "
                        f"{self.flap_window_s:g} s (check the reed switch, its wire and the magnet)"
                    )
        self._last = closed
        for point in list(self.flapping):
            if now - self._changes[point][-1] >= self.calm_s:
                self.flapping.discard(point)
                self.log.info("switch %s has stopped flapping", point)
        window = self.flap_window_s
        quiet = [p for p, times in self._changes.items() if p not in self.flapping and now - times[-1] > window]
        for point in quiet:
            del self._changes[point]  # forget quiet points: memory stays bounded by the flapping ones
        if expected is not None:
            odd = closed - frozenset(expected)
            for point in list(self._closed_since):
                if point not in odd:
                    del self._closed_since[point]
                    if point in self.stuck:
                        self.stuck.discard(point)
                        self.log.info("switch %s reads as expected again", point)
            for point in odd:
                since = self._closed_since.setdefault(point, now)
                if point not in self.stuck and now - since >= self.stuck_s:
                    self.stuck.add(point)
                    said.append(
                        f"switch {point} has read closed for {self.stuck_s:g} s where the game has no man: "
                        "a man left there, or the switch is stuck closed"
                    )
        for text in said:
            self.log.warning("%s", text)
        return said

    @property
    def busy(self) -> bool:
        """Whether a reading equal to the last can still change anything (a timer is running)."""
        return bool(self.flapping or self._changes or self._closed_since)

    def next_deadline(self) -> float | None:
        """When a stuck-closed episode could start without a new change (for a sleeping loop)."""
        times = [since + self.stuck_s for p, since in self._closed_since.items() if p not in self.stuck]
        return min(times) if times else None
