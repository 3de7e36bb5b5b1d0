"""Logging for the service in the form journald reads best.

Under systemd, stdout and stderr go to the journal, which adds the time, the
unit and the process itself. A line that starts with a syslog priority in
angle brackets (``<3>`` error, ``<4>`` warning, ``<6>`` info, ``<7>`` debug)
is stored with that priority and the prefix removed (``SyslogLevelPrefix=``,
on by default), so ``journalctl -p warning -u morris-pi`` shows just the
problems. Every line of a multi-line message (a traceback) gets the prefix,
or its continuation lines would be filed as info.

Run by hand in a terminal, the same records read ``WARNING name: message``.
Which form is used follows ``$JOURNAL_STREAM``: systemd sets it to the device
and inode of the stream when stdout/stderr are connected to the journal.

Identical messages repeated back to back (a fault retried every second) are
logged once, then summed up when something else is logged.

>>> import logging
>>> record = logging.LogRecord("morris_pi.service", logging.WARNING, "", 0, "two\\nlines", None, None)
>>> print(JournalFormatter().format(record))
<4>morris_pi.service: two
<4>morris_pi.service: lines
"""

from __future__ import annotations

import logging
import os
import sys
import threading
from collections.abc import Mapping
from typing import IO

#: Python level -> syslog priority (sd-daemon.h: SD_ERR "<3>", SD_WARNING "<4>", SD_INFO "<6>", ...).
PRIORITIES: tuple[tuple[int, int], ...] = (
    (logging.CRITICAL, 2),
    (logging.ERROR, 3),
    (logging.WARNING, 4),
    (logging.INFO, 6),
    (logging.DEBUG, 7),
)


def priority(levelno: int) -> int:
    """The syslog priority of a logging level.

    >>> priority(logging.ERROR), priority(logging.INFO), priority(5)
    (3, 6, 7)
    """
    for level, prio in PRIORITIES:
        if levelno >= level:
            return prio
    return 7


class JournalFormatter(logging.Formatter):
    """``<priority>logger: message`` on every line; no time (the journal adds it)."""

    def __init__(self) -> None:
        super().__init__("%(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        prefix = f"<{priority(record.levelno)}>"
        head = f"{record.name}: "
        lines = text.splitlines() or [""]
        return "\n".join(prefix + (line if i == 0 else head + line) for i, line in enumerate(lines))


class PlainFormatter(logging.Formatter):
    """``LEVEL logger: message`` for a terminal (still without a time: run it under ``ts`` if wanted)."""

    def __init__(self) -> None:
        super().__init__("%(levelname)s %(name)s: %(message)s")


class RepeatFilter(logging.Filter):
    """Drop a record identical to the one before it from the same logger; say how many were dropped.

    >>> f = RepeatFilter()
    >>> r = lambda msg: logging.LogRecord("x", logging.ERROR, "", 0, msg, None, None)
    >>> [f.filter(r("engine failed")) for _ in range(3)], f.filter(r("engine works"))
    ([True, False, False], True)
    """

    def __init__(self) -> None:
        super().__init__()
        self._last: dict[str, tuple[int, str]] = {}
        self._dropped: dict[str, int] = {}
        self._lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        key = (record.levelno, record.getMessage())
        with self._lock:
            if self._last.get(record.name) == key and not record.exc_info:
                self._dropped[record.name] = self._dropped.get(record.name, 0) + 1
                return False
            dropped = self._dropped.pop(record.name, 0)
            self._last[record.name] = key
        if dropped:
            record.msg = f"[the previous message repeated {dropped} more times] {record.getMessage()}"
            record.args = None
        return True


def to_journal(stream: IO[str], env: Mapping[str, str] | None = None) -> bool:
    """Whether ``stream`` is connected to the journal (``$JOURNAL_STREAM`` names its device:inode)."""
    env = os.environ if env is None else env
    value = env.get("JOURNAL_STREAM", "")
    if not value:
        return False
    try:
        dev, ino = (int(part) for part in value.split(":"))
        st = os.fstat(stream.fileno())
    except (ValueError, OSError, AttributeError):
        return False
    return (st.st_dev, st.st_ino) == (dev, ino)


class _OwnHandler(logging.StreamHandler[IO[str]]):
    """The handler ``configure`` installs, told apart so that configuring again replaces it."""


def configure(
    level: str = "info", stream: IO[str] | None = None, env: Mapping[str, str] | None = None
) -> logging.Handler:
    """Send the root logger to ``stream`` (stderr) in the journal's or a terminal's form.

    Also routes uncaught exceptions in threads (the engine's) and in the main
    thread through logging, so they arrive with a priority too.
    """
    stream = stream or sys.stderr
    handler = _OwnHandler(stream)
    handler.setFormatter(JournalFormatter() if to_journal(stream, env) else PlainFormatter())
    handler.addFilter(RepeatFilter())
    root = logging.getLogger()
    for old in list(root.handlers):
        if isinstance(old, _OwnHandler):
            root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(getattr(logging, level.upper()))

    def thread_hook(args: threading.ExceptHookArgs) -> None:
        if args.exc_type is SystemExit:
            return
        name = args.thread.name if args.thread is not None else "?"
        logging.getLogger("morris_pi").error("thread %s stopped with an error", name, exc_info=args.exc_value)

    threading.excepthook = thread_hook
    return handler
