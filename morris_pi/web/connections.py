"""The socket limits: uvicorn's h11 protocol with a cap per client and timeouts on every request.

uvicorn closes a keep-alive connection that idles between requests (``timeout_keep_alive``),
but nothing closes one that never finishes its first request: a silent socket, headers sent a
byte a second (slowloris), a body that never ends. And its ``limit_concurrency`` answers 503
to everyone once one client holds the slots. ``guarded_protocol`` makes the protocol class
that adds, per server:

- at most ``MAX_SOCKETS`` open sockets and ``MAX_PER_CLIENT`` per client (``client_key``);
  one over is closed the moment it is accepted, so a flood never holds file descriptors;
- every request complete within ``REQUEST_TIMEOUT_S`` of its first byte, or the socket is closed;
- an answer blocked on a client that stopped reading for ``STALLED_WRITE_S`` closes the socket;
- each refusal logged at a bounded rate (``RateLimitedLog``), never one line per socket.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter, OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .limits import MAX_PER_CLIENT, MAX_SOCKETS, REQUEST_TIMEOUT_S, STALLED_WRITE_S, client_key
from .ratelog import RateLimitedLog

log = logging.getLogger("morris_pi.web")


@dataclass
class SocketCounts:
    """Open sockets, in all and per client, and what was refused (for the log and the bench)."""

    max_sockets: int = MAX_SOCKETS
    per_client: int = MAX_PER_CLIENT
    request_timeout_s: float = REQUEST_TIMEOUT_S
    stalled_write_s: float = STALLED_WRITE_S
    open: int = 0
    by_client: Counter[str] = field(default_factory=Counter)
    refused: Counter[str] = field(default_factory=Counter)  # why -> how many
    #: Sockets that have not sent a whole request yet, oldest first (each: the way to close it).
    idle: OrderedDict[int, Callable[[], None]] = field(default_factory=OrderedDict)

    def admit(self, key: str) -> str | None:
        """Count a new socket of ``key`` in, or say why not. When the board is full, the oldest
        socket that has not sent a request gives way to the new one, so silent sockets cannot
        keep a visitor out, and an event stream or a request being answered is never cut."""
        if self.by_client[key] >= self.per_client:
            return f"{key} already has {self.by_client[key]} connections open"
        if self.open >= self.max_sockets:
            if not self.idle:
                return f"the board already has {self.open} connections open, all busy"
            _, close = self.idle.popitem(last=False)
            self.refused["idle socket closed for a new one"] += 1
            close()  # its connection_lost releases it
        self.open += 1
        self.by_client[key] += 1
        return None

    def release(self, key: str) -> None:
        self.open -= 1
        self.by_client[key] -= 1
        if self.by_client[key] <= 0:
            del self.by_client[key]


def guarded_protocol(counts: SocketCounts, quiet: RateLimitedLog) -> type[asyncio.Protocol]:
    """uvicorn's ``H11Protocol`` with the limits of ``counts`` (pass it as ``Config(http=...)``)."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    waiting = (h11.IDLE, h11.SEND_BODY)  # the client owes us the rest of a request

    class GuardedH11Protocol(H11Protocol):
        _key: str | None = None
        _refused = False
        _deadline: asyncio.TimerHandle | None = None
        _stall: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            peer = transport.get_extra_info("peername")
            key = client_key(peer[0] if isinstance(peer, tuple) and peer else None)
            evicted = counts.refused["idle socket closed for a new one"]
            why = counts.admit(key)
            if counts.refused["idle socket closed for a new one"] > evicted:
                quiet.say(
                    "socket-evicted",
                    logging.WARNING,
                    "web: %d connections open: closed the oldest one that sent no request, for one from %s",
                    counts.max_sockets,
                    key,
                )
            if why is not None:
                self._refused = True
                counts.refused["socket over the cap"] += 1
                quiet.say("socket-cap", logging.WARNING, "web: closed a new connection from %s: %s", key, why)
                transport.abort()
                return
            self._key = key
            super().connection_made(transport)
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            if self._refused:  # refused in connection_made: uvicorn never saw it
                return
            if self._key is not None:
                counts.release(self._key)
                self._key = None
            self._disarm()
            if self._stall is not None:
                self._stall.cancel()
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.conn.their_state in waiting:
                if self._deadline is None:
                    self._arm()
            else:
                self._disarm()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            # between requests uvicorn's keep-alive timeout closes an idle socket; a next
            # request arms the deadline with its first byte (here, if it came early)
            self._disarm()
            if self.conn.their_state in waiting and self.conn.trailing_data[0]:
                self._arm()

        def pause_writing(self) -> None:
            super().pause_writing()
            if self._stall is None:
                self._stall = self.loop.call_later(counts.stalled_write_s, self._stalled)

        def resume_writing(self) -> None:
            super().resume_writing()
            if self._stall is not None:
                self._stall.cancel()
                self._stall = None

        def _arm(self) -> None:
            self._disarm()
            self._deadline = self.loop.call_later(counts.request_timeout_s, self._too_slow)
            counts.idle[id(self)] = self._give_way

        def _disarm(self) -> None:
            counts.idle.pop(id(self), None)
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _give_way(self) -> None:
            self._disarm()
            if self.transport is not None and not self.transport.is_closing():
                self.transport.abort()
            # abort calls connection_lost later; release now, so the newcomer's count is right
            if self._key is not None:
                counts.release(self._key)
                self._key = None

        def _too_slow(self) -> None:
            self._deadline = None
            if self.transport is None or self.transport.is_closing():
                return
            counts.refused["request too slow"] += 1
            quiet.say(
                "slow-request",
                logging.WARNING,
                "web: closed a connection from %s: no whole request within %.0f s",
                self._key,
                counts.request_timeout_s,
            )
            self.transport.abort()

        def _stalled(self) -> None:
            self._stall = None
            if self.transport is None or self.transport.is_closing():
                return
            counts.refused["client stopped reading"] += 1
            quiet.say(
                "stalled-write",
                logging.WARNING,
                "web: closed a connection from %s: it read nothing for %.0f s",
                self._key,
                counts.stalled_write_s,
            )
            self.transport.abort()

    return GuardedH11Protocol


def quiet_loop_errors(loop: asyncio.AbstractEventLoop, quiet: RateLimitedLog) -> None:
    """Route the event loop's own errors (an ``accept`` failing with EMFILE, a socket reset while
    being written) to one rate-limited line each, instead of a traceback per socket."""

    def handler(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        exc = context.get("exception")
        what = context.get("message", "event loop error")
        detail = f"{type(exc).__name__}: {exc}" if exc is not None else ""
        quiet.say(f"loop:{what}", logging.WARNING, "web: %s %s", what, detail)

    loop.set_exception_handler(handler)
