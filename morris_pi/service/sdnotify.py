"""A small sd_notify sender: tell systemd we are ready, what we are doing, and that we are alive.

systemd passes ``NOTIFY_SOCKET`` to a ``Type=notify`` service: a filesystem path,
or an abstract socket written with a leading ``@``. Each message is one AF_UNIX
datagram of ``KEY=value`` lines. Without ``NOTIFY_SOCKET`` (run by hand, in the
simulator, in tests) every call does nothing, so callers need no conditionals.

>>> notifier = Notifier(env={})
>>> notifier.enabled, notifier.ready("waiting for the first move")
(False, False)
>>> watchdog_interval(env={"WATCHDOG_USEC": "30000000"})
15.0
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Mapping

from morris_pi.core.closing import Closeable

log = logging.getLogger(__name__)


def _address(value: str) -> str | bytes | None:
    if not value:
        return None
    if value.startswith("@"):
        # Abstract namespace: a leading NUL byte instead of the '@'.
        return b"\0" + value[1:].encode()
    if value.startswith("/"):
        return value
    # systemd also allows vsock: addresses for VMs; a Pi service never gets one.
    log.warning("NOTIFY_SOCKET=%r is neither a path nor an abstract socket; not notifying systemd", value)
    return None


class Notifier(Closeable):
    """Sends notifications to the socket named by ``NOTIFY_SOCKET`` in ``env`` (default ``os.environ``).

    A failed send is logged once and reported as ``False``; it never raises,
    because the board should keep playing even if systemd's socket went away.
    ``close()`` (or the end of a ``with`` block) closes the socket once; a closed
    notifier sends nothing and says ``False``, as one without ``NOTIFY_SOCKET`` does.
    """

    def __init__(self, env: Mapping[str, str] | None = None) -> None:
        env = os.environ if env is None else env
        self.address = _address(env.get("NOTIFY_SOCKET", ""))
        self._sock: socket.socket | None = None
        self._warned = False

    @property
    def enabled(self) -> bool:
        return self.address is not None

    def notify(self, *fields: str) -> bool:
        """Send ``KEY=value`` fields as one datagram; ``True`` if systemd got it.

        >>> Notifier(env={}).notify("READY=1", "STATUS=up")
        False
        """
        if self.address is None or self.closed:
            return False
        for f in fields:
            if "=" not in f or "\n" in f:
                raise ValueError(f"sd_notify field {f!r} must be KEY=value on one line")
        try:
            if self._sock is None:
                self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
            self._sock.sendto("\n".join(fields).encode(), self.address)
        except OSError as exc:
            if not self._warned:
                log.warning("cannot notify systemd at %r: %s", self.address, exc)
                self._warned = True
            return False
        return True

    def ready(self, status: str | None = None) -> bool:
        """Start-up is done; with ``Type=notify`` systemd considers the service started now."""
        return self.notify("READY=1", *([f"STATUS={_one_line(status)}"] if status else []))

    def status(self, text: str) -> bool:
        """A one-line status shown by ``systemctl status morris-pi``."""
        return self.notify(f"STATUS={_one_line(text)}")

    def watchdog(self) -> bool:
        """Still alive. Must come at least every ``WatchdogSec``, or systemd restarts the service."""
        return self.notify("WATCHDOG=1")

    def stopping(self, status: str | None = None) -> bool:
        return self.notify("STOPPING=1", *([f"STATUS={_one_line(status)}"] if status else []))

    def _release(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None

    def __repr__(self) -> str:
        if self.closed:
            return "<Notifier closed>"
        return f"<Notifier {self.address!r}>" if self.enabled else "<Notifier disabled>"


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def watchdog_interval(env: Mapping[str, str] | None = None, pid: int | None = None) -> float | None:
    """Seconds between ``WATCHDOG=1`` pings: half of systemd's period, or ``None`` if none is wanted.

    ``WATCHDOG_USEC`` is the period in microseconds. If ``WATCHDOG_PID`` is set
    it must be this process: the variables may have been inherited by a child.

    >>> watchdog_interval(env={"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"}, pid=2) is None
    True
    """
    env = os.environ if env is None else env
    usec = env.get("WATCHDOG_USEC", "")
    if not usec:
        return None
    try:
        period = int(usec)
    except ValueError:
        log.warning("ignoring WATCHDOG_USEC=%r: not a whole number of microseconds", usec)
        return None
    if period <= 0:
        return None
    owner = env.get("WATCHDOG_PID", "")
    if owner:
        try:
            if int(owner) != (os.getpid() if pid is None else pid):
                return None
        except ValueError:
            log.warning("ignoring WATCHDOG_PID=%r: not a process id", owner)
            return None
    return period / 2 / 1_000_000
