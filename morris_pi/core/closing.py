"""``close()``, ``closed`` and ``with`` for everything that holds a resource, as gpiozero's devices have.

The hardware ends and their stand-ins (the simulator's, the virtual ones of replay and the
tests), the simulator's window, the web server and its event hub, the sessions, the watched
engine, the background reviewer and the systemd notifier derive from ``Closeable``. ``close()``
releases what the object holds once, and does nothing when called again; ``closed`` says
whether it was called; ``with`` closes at the end of the block, whatever happens in it. A
closed object refuses to be used with a ``ClosedError`` that names it:

>>> class Lamp(Closeable):
...     def light(self) -> str:
...         self._check_open("light")
...         return "lit"
...     def __repr__(self) -> str:
...         return "<Lamp closed>" if self.closed else "<Lamp>"
>>> with Lamp() as lamp:
...     lamp.light()
'lit'
>>> lamp.closed
True
>>> lamp.close()  # again: nothing happens
>>> lamp.light()
Traceback (most recent call last):
...
morris_pi.core.closing.ClosedError: <Lamp closed>: cannot light after close()
"""

from __future__ import annotations

from typing import Self

from morris_pi.errors import MorrisPiError

__all__ = ["Closeable", "ClosedError"]


class ClosedError(MorrisPiError, RuntimeError):
    """A device, the web server or a session used after ``close()``."""


class Closeable:
    """Idempotent ``close()``, a ``closed`` property and context-manager support.

    A subclass releases its resources in ``_release()``, which runs at most once, and calls
    ``_check_open(what)`` at the start of each method that needs them. A release that fails
    still leaves the object closed: what failed is reported once, and the part is built again
    rather than closed again.
    """

    _closed = False

    def close(self) -> None:
        """Release what this object holds; a second call does nothing."""
        if self._closed:
            return
        self._closed = True
        self._release()

    def _release(self) -> None:
        """Release the resources (runs once, from the first ``close()``)."""

    @property
    def closed(self) -> bool:
        """Whether ``close()`` was called."""
        return self._closed

    def _check_open(self, what: str) -> None:
        if self._closed:
            raise ClosedError(f"{self!r}: cannot {what} after close()")

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
