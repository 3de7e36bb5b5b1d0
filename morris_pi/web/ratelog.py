"""Log lines at a bounded rate: a flood of refused requests must never fill the journal or the card.

``RateLimitedLog.say(kind, ...)`` logs the first event of a kind at once, then at most one line
per ``every`` seconds for that kind, which counts the events it left out. ``QuietFilter`` does the
same to other libraries' loggers (uvicorn's "Invalid HTTP request received.", asyncio's accept
errors), and drops their tracebacks: a refused socket is news, not a bug.

>>> from morris_pi.core.ports import ManualClock
>>> import logging, io
>>> stream = io.StringIO(); logger = logging.getLogger("doctest.ratelog")
>>> logger.addHandler(logging.StreamHandler(stream)); logger.propagate = False
>>> clock = ManualClock(); quiet = RateLimitedLog(logger, clock, every=10)
>>> said = [quiet.say("pin", logging.WARNING, "a wrong PIN from %s", "10.0.0.9") for n in range(1000)]
>>> said.count(True)
1
>>> clock.advance(10); quiet.say("pin", logging.WARNING, "a wrong PIN from %s", "10.0.0.9")
True
>>> print(stream.getvalue(), end="")
a wrong PIN from 10.0.0.9
a wrong PIN from 10.0.0.9 (and 999 more like it in the last 10 s)
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from morris_pi.core.ports import Clock, MonotonicClock

#: Seconds between two lines of one kind.
EVERY_S = 10.0


class RateLimitedLog:
    """At most one line per kind per ``every`` seconds; the next line says how many it left out."""

    def __init__(self, logger: logging.Logger, clock: Clock | None = None, *, every: float = EVERY_S) -> None:
        self.logger = logger
        self.clock = clock or MonotonicClock()
        self.every = every
        self._lock = threading.Lock()
        self._kinds: dict[str, tuple[float, int]] = {}  # kind -> (when last logged, left out since)

    def say(self, kind: str, level: int, message: str, *args: Any) -> bool:
        """Log ``message % args`` unless a line of ``kind`` went out less than ``every`` s ago;
        returns whether it was logged."""
        now = self.clock.now()
        with self._lock:
            last, left_out = self._kinds.get(kind, (None, 0))
            if last is not None and now - last < self.every:
                self._kinds[kind] = (last, left_out + 1)
                return False
            self._kinds[kind] = (now, 0)
            if len(self._kinds) > 64:  # kinds are a few fixed words; never let them grow
                self._kinds = {kind: self._kinds[kind]}
        if left_out:
            message += f" (and {left_out} more like it in the last {now - last:.0f} s)"  # type: ignore[operator]
        self.logger.log(level, message, *args)
        return True


class QuietFilter(logging.Filter):
    """A logging filter for other libraries' loggers: each message text at a bounded rate, with
    no traceback (``exc_info`` is reduced to its one-line summary)."""

    def __init__(self, clock: Clock | None = None, *, every: float = EVERY_S) -> None:
        super().__init__()
        self.clock = clock or MonotonicClock()
        self.every = every
        self._lock = threading.Lock()
        self._seen: dict[str, tuple[float, int]] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        kind = f"{record.name}:{record.msg}"[:200]
        now = self.clock.now()
        with self._lock:
            last, left_out = self._seen.get(kind, (None, 0))
            if last is not None and now - last < self.every:
                self._seen[kind] = (last, left_out + 1)
                return False
            self._seen[kind] = (now, 0)
            if len(self._seen) > 64:
                self._seen = {kind: self._seen[kind]}
        if record.exc_info and record.exc_info[1] is not None:
            exc = record.exc_info[1]
            record.msg = f"{record.getMessage()}: {type(exc).__name__}: {exc}"
            record.args = None
            record.exc_info = None
            record.exc_text = None
        if left_out:
            record.msg = f"{record.getMessage()} (and {left_out} more like it in the last {now - last:.0f} s)"  # type: ignore[operator]
            record.args = None
        return True
