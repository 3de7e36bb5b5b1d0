"""A progress line on stderr for long commands (``perft``, ``analyze``); the result stays alone on stdout.

When it shows: ``--progress`` always, ``--no-progress`` never, and by default
only when stderr is a terminal, so a pipe or a log file gets only the result.
Nothing appears for the first second (quick runs stay quiet). On a terminal
one line is rewritten in place at most four times a second and erased at the
end; elsewhere (``--progress`` into a file) a line is written every
``every_line`` seconds. With ``--progress`` a last line says what was done.

>>> import io
>>> clock = iter([0.0, 0.5, 1.2, 1.3, 2.5, 3.0]).__next__
>>> err = io.StringIO()
>>> p = Progress("perft(6)", err, enabled=True, clock=clock, tty=False)
>>> for text in ("1 of 24", "2 of 24", "3 of 24", "4 of 24"):
...     p.update(text)
>>> p.finish("24 of 24 first turns")
>>> print(err.getvalue(), end="")
perft(6): 2 of 24 ...
perft(6): 4 of 24 ...
perft(6): done: 24 of 24 first turns in 3.0 s
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from typing import TextIO

#: Seconds of work before the first progress line.
DELAY = 1.0


def add_progress_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="show progress on stderr (default: only when stderr is a terminal); "
        "stdout carries only the result either way",
    )


class Progress:
    """One command's progress line; ``enabled=None`` means "if ``stream`` is a terminal"."""

    def __init__(
        self,
        label: str,
        stream: TextIO | None = None,
        *,
        enabled: bool | None = None,
        clock: Callable[[], float] = time.monotonic,
        tty: bool | None = None,
        every: float = 0.25,
        every_line: float = 1.0,
    ) -> None:
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.tty = _isatty(self.stream) if tty is None else tty
        self.forced = bool(enabled)
        self.enabled = self.tty if enabled is None else enabled
        self.clock = clock
        self.every = every if self.tty else every_line
        self.start = clock()
        self._last: float | None = None
        self._shown = False

    def elapsed(self) -> float:
        return self.clock() - self.start

    def update(self, text: str | Callable[[], str]) -> None:
        """Show ``text`` if it is time to (after the first second, then every ``every`` seconds).

        ``text`` may be a function, called only when the line is shown (for callers in a hot loop).
        """
        if not self.enabled:
            return
        now = self.clock()
        if now - self.start < DELAY or (self._last is not None and now - self._last < self.every):
            return
        self._last = now
        self._write(f"{self.label}: {text() if callable(text) else text} ...")

    def finish(self, text: str) -> None:
        """The work is done: erase the line on a terminal; with ``--progress`` say what was done."""
        if not self.enabled:
            return
        if self.tty and self._shown:
            self.stream.write("\r\033[K")
            self._shown = False
        if self.forced:
            self.stream.write(f"{self.label}: done: {text} in {self.elapsed():.1f} s\n")
        self.stream.flush()

    def _write(self, line: str) -> None:
        if self.tty:
            self.stream.write(f"\r\033[K{line}")
            self._shown = True
        else:
            self.stream.write(line + "\n")
        self.stream.flush()


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a closed or odd stream: no terminal
        return False
