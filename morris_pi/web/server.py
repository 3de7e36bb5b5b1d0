"""The web server beside the board loop: uvicorn in a thread of its own, on a socket bound first.

The socket is bound in the caller's thread, so a port already in use or a
host that is not this machine's is a clear error at start (``WebError``),
not a traceback in a background thread. The server's thread runs its own
event loop; it meets the board loop only through the ``BoardSeam``.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from collections.abc import Mapping
from typing import Any

from morris_pi.core.closing import Closeable
from morris_pi.core.ports import BUTTONS, Clock, MonotonicClock
from morris_pi.errors import MorrisPiError
from morris_pi.guidance import DEFAULT_PALETTE, Look

from .connections import SocketCounts, guarded_protocol
from .limits import MAX_HEADER_BYTES
from .ratelog import QuietFilter, RateLimitedLog
from .seam import BoardSeam

log = logging.getLogger("morris_pi.web")


#: Seconds a keep-alive connection may idle between two requests.
KEEP_ALIVE_S = 5


class WebError(MorrisPiError, RuntimeError):
    """The web side cannot start: what and where, in one sentence."""


def parse_address(text: str, default_host: str = "127.0.0.1") -> tuple[str, int]:
    """``HOST:PORT``, ``:PORT`` or ``PORT`` for ``--web``.

    >>> parse_address("8080"), parse_address("0.0.0.0:80"), parse_address("[::1]:8080")
    (('127.0.0.1', 8080), ('0.0.0.0', 80), ('::1', 8080))
    >>> parse_address("x:y")
    Traceback (most recent call last):
    ...
    ValueError: --web must look like HOST:PORT or PORT (port 1-65535), got 'x:y'
    """
    host, _, port = text.rpartition(":")
    host = host.strip("[]") or default_host
    if not port.isdigit() or not 1 <= int(port) <= 65535:
        raise ValueError(f"--web must look like HOST:PORT or PORT (port 1-65535), got {text!r}")
    return host, int(port)


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port``; ``WebError`` says why not."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise WebError(f"web: cannot listen on {host}:{port}: {exc.strerror}") from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(16)
    except OSError as exc:
        sock.close()
        raise WebError(f"web: cannot listen on {host}:{port}: {exc.strerror}") from None
    sock.setblocking(False)
    return sock


class WebServer(Closeable):
    """The companion page for one board, served from ``start()`` until ``close()``."""

    def __init__(
        self,
        seam: BoardSeam,
        host: str,
        port: int,
        *,
        storage: Any = None,
        pin: str | None = None,
        clock: Clock | None = None,
        palette: Mapping[str, Look] = DEFAULT_PALETTE,
        board: bool = False,
        buttons: tuple[str, ...] = BUTTONS,
        limits: Any = None,
        trust_loopback: bool = False,
    ) -> None:
        """``limits`` (a ``connections.SocketCounts``) sets the socket caps and timeouts
        (default: those of ``limits``); ``trust_loopback``: a page on this machine needs no
        pairing (``create_app``)."""
        try:
            import uvicorn

            from .app import create_app
        except ImportError as exc:
            raise WebError(
                f"web: the web extra is not installed ({exc.name} is missing); "
                "install it with: pip install 'morris-pi[web]'"
            ) from None
        quiet = RateLimitedLog(log, MonotonicClock())
        self.app = create_app(
            seam,
            storage=storage,
            pin=pin,
            clock=clock,
            palette=palette,
            board=board,
            buttons=buttons,
            quiet=quiet,
            trust_loopback=trust_loopback,
        )
        self.sock = bind(host, port)
        self.host, self.port = self.sock.getsockname()[:2]
        #: Open sockets and what was refused (``connections``); the bench reads it.
        self.counts = limits if limits is not None else SocketCounts()
        # no access log: the journal stays quiet and no request line is kept. The caps on
        # sockets (in all and per client), on header bytes and on the time a request may take
        # keep a Pi Zero's memory and file table bounded whatever the LAN does; uvicorn's own
        # warnings ("Invalid HTTP request received.") come at a bounded rate
        config = uvicorn.Config(
            self.app,
            log_level="warning",
            access_log=False,
            lifespan="on",
            timeout_graceful_shutdown=1,
            limit_concurrency=self.counts.max_sockets + 1,  # the socket cap comes first; the +1 is the newcomer
            timeout_keep_alive=KEEP_ALIVE_S,
            h11_max_incomplete_event_size=MAX_HEADER_BYTES,
            http=guarded_protocol(self.counts, quiet),
            server_header=False,
        )
        for name in ("uvicorn.error", "asyncio"):  # after Config, which sets up uvicorn's logging
            logger = logging.getLogger(name)
            if not any(isinstance(f, QuietFilter) for f in logger.filters):
                logger.addFilter(QuietFilter())
        self.server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._serve, name="morris-pi-web", daemon=True)
        self.failed: BaseException | None = None

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        shown = "127.0.0.1" if self.host in ("0.0.0.0", "") else host
        return f"http://{shown}:{self.port}/"

    def _serve(self) -> None:
        try:
            self.server.run(sockets=[self.sock])
        except BaseException as exc:  # uvicorn exits the thread with SystemExit on a failed start
            self.failed = exc
            log.error("the web server stopped: %s", exc)

    def start(self) -> WebServer:
        self._check_open("start")
        self._thread.start()
        log.info("web page on %s (listening on %s:%d)", self.url, self.host, self.port)
        return self

    def started(self, timeout: float = 5.0) -> bool:
        """Wait until the server accepts requests (for scripts and tests)."""
        nap = threading.Event()
        for _ in range(int(timeout / 0.01)):
            if self.server.started or not self._thread.is_alive():
                break
            nap.wait(0.01)
        return bool(self.server.started)

    def __repr__(self) -> str:
        if self.closed:
            return "<WebServer closed>"
        running = "serving" if self._thread.is_alive() else "not started" if self._thread.ident is None else "stopped"
        return f"<WebServer {self.url} {running}>"

    def _release(self) -> None:
        self.app.state.hub.close()  # open event streams end first, so the server need not wait for them
        self.server.should_exit = True
        if self._thread.is_alive():
            self._thread.join(timeout=5)
        self.sock.close()


def serve_board(config: Any, session: Any, clock: Clock) -> tuple[BoardSeam, WebServer] | None:
    """The service's web side for ``[web]``: the seam and the running server, or ``None`` when it
    cannot start or must not (logged: the board plays on without its page).

    A service running as root (the drop-in for the PWM LED driver) serves no page: the web
    server would run with root's rights and ``/dev/mem``, one parser bug away from the
    whole Pi. Boards with SPI LEDs run unprivileged and serve it."""
    web = config.web
    if geteuid() == 0:
        log.error(
            "web: not served while the service runs as root (the PWM LED driver needs it); "
            'move the LEDs to SPI (leds.backend = "neopixel-spi") to have the page. The board plays on'
        )
        return None
    buttons = tuple(config.buttons.pins)
    seam = BoardSeam(session)
    try:
        server = WebServer(
            seam,
            web.host,
            web.port,
            storage=session.storage,
            pin=web.pin,
            clock=clock,
            palette=config.palette,
            buttons=buttons,
        )
    except WebError as exc:
        log.error("%s; the board plays on without its web page", exc)
        return None
    if len(buttons) < 2 and web.pin is None:
        log.warning(
            "web: this board has %s and no [web] pin: no browser can pair to control it "
            "(add a PIN, or wire two buttons or more)",
            "one button" if len(buttons) == 1 else "no buttons",
        )
    seam.publish()
    return seam, server.start()


def geteuid() -> int:
    """The effective user id (a seam for the tests: ``os.geteuid`` is not on every platform)."""
    return os.geteuid() if hasattr(os, "geteuid") else -1
