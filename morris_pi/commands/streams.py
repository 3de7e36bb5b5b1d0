"""Standard input and output for every command: bounded reads, and an output that may go away.

``run_guarded`` runs a command so that a closed, full or broken standard
output never shows a traceback:

- a broken pipe (the reader left, as in ``morris-pi legal | head -1``) ends the
  command quietly with exit status 141, what a shell reports for a program
  killed by SIGPIPE;
- any other write error (``> /dev/full``, a closed descriptor with ``>&-``) ends
  it with one line on stderr naming the error, and exit status 1.

``read_stdin_capped`` reads a record given as ``-`` with a cap, so an endless
or enormous input (``/dev/zero``, a binary file) costs bounded memory and time.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sys
from collections.abc import Callable
from typing import Any, BinaryIO

from morris_pi.errors import MorrisPiError

#: Exit status after a broken pipe: 128 + SIGPIPE, as a shell reports a program killed by it.
EXIT_BROKEN_PIPE = 141
#: The most a record read from standard input may be. A 1,000-turn game is under 10 kB.
MAX_STDIN_RECORD = 1 << 20


class InputTooLarge(MorrisPiError, ValueError):
    """Standard input held more than a command reads."""


class _ClosedOutput:
    """Stands in for ``sys.stdout`` when descriptor 1 was closed at start (``>&-``)."""

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "standard output is closed")

    def flush(self) -> None:
        pass

    def fileno(self) -> int:
        raise OSError(errno.EBADF, "standard output is closed")


def _detach_stdout() -> None:
    # Python flushes sys.stdout once more at exit; point descriptor 1 at /dev/null so that
    # flush has somewhere to go and prints no "Exception ignored" message.
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass
    with contextlib.suppress(OSError):
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - lives until exit


def run_guarded(func: Callable[[Any], int | None], args: Any, prog: str) -> int:
    """Run ``func(args)`` and flush stdout; a failing stdout gives an exit status, never a traceback."""
    if sys.stdout is None:
        sys.stdout = _ClosedOutput()
    try:
        code = int(func(args) or 0)
        sys.stdout.flush()
        return code
    except BrokenPipeError:
        _detach_stdout()
        return EXIT_BROKEN_PIPE
    except OSError as exc:
        if not stdout_fails():
            raise  # not the output: the command's own error, reported as such
        _detach_stdout()
        try:
            sys.stderr.write(f"{prog}: cannot write the output: {exc.strerror or exc}\n")
            sys.stderr.flush()
        except (OSError, ValueError, AttributeError):
            pass
        return 1


def stdout_fails() -> bool:
    """Whether standard output fails now (a full device or a closed descriptor keeps failing)."""
    try:
        sys.stdout.write("\n" if isinstance(sys.stdout, _ClosedOutput) else "")
        sys.stdout.flush()
        os.fstat(sys.stdout.fileno())
    except (OSError, ValueError):
        return True
    return False


def read_stdin_capped(limit: int = MAX_STDIN_RECORD, stream: BinaryIO | None = None) -> str:
    """Standard input as text, at most ``limit`` bytes; ``ValueError`` says what is wrong.

    >>> import io
    >>> read_stdin_capped(10, io.BytesIO(b"d6 a1\\n"))
    'd6 a1\\n'
    >>> read_stdin_capped(4, io.BytesIO(b"\\0" * 1000))
    Traceback (most recent call last):
    ...
    morris_pi.commands.streams.InputTooLarge: standard input is longer than 4 bytes; a record is far shorter
    """
    if stream is None:
        if sys.stdin is None:  # descriptor 0 closed: an empty record
            return ""
        stream = getattr(sys.stdin, "buffer", None)
        if stream is None:  # a text stream put in its place (an embedding program, a test)
            text = sys.stdin.read(limit + 1)
            if len(text) > limit:
                raise InputTooLarge(f"standard input is longer than {limit:,} characters; a record is far shorter")
            return text
    chunks, total = [], 0
    while True:
        chunk = stream.read(min(1 << 16, limit + 1 - total))
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
        if total > limit:
            raise InputTooLarge(f"standard input is longer than {limit:,} bytes; a record is far shorter")
    data = b"".join(chunks)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"standard input is not UTF-8 text (byte {exc.start + 1})") from None
