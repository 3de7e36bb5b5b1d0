"""What any client may send, checked before a route sees the request (an ASGI middleware).

``Guard`` wraps the whole app:

- **Rates**: a client may make ``CLIENT_RATE`` requests a second (bursts of
  ``CLIENT_BURST``), all clients together ``TOTAL_RATE``; more get 429 at once, so a flood
  of requests costs the board loop next to nothing.
- **Host**: every request, ``GET`` included, must name the board the way a LAN does
  (``lan_host``); a page on a public domain that resolves to the board (DNS rebinding)
  cannot even read the game.
- **Bodies**: each route has a cap (``MAX_BODY``, a few hundred bytes to 2 KiB of JSON). A
  ``Content-Length`` above it is refused at once with 413, before a byte of the body is read;
  a chunked body is counted while it is read and refused the moment it passes the cap. The
  connection is then closed, so the rest is never read either.
- **Headers** on every answer: a Content-Security-Policy without inline script,
  ``frame-ancestors 'none'``, ``nosniff``, no referrer.

The socket-level limits (connections per client, header and idle timeouts) are in
``connections``; these constants size both.
"""

from __future__ import annotations

import ipaddress
import json
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: Bytes of body each route takes; anything else that is not a GET takes ``DEFAULT_MAX_BODY``.
MAX_BODY: dict[str, int] = {
    "/api/pair": 512,
    "/api/pair/claim": 512,
    "/api/unpair": 256,
    "/api/action": 1024,
    "/api/hand": 512,
}
DEFAULT_MAX_BODY = 256
#: Open sockets the server keeps at once; one more is closed as soon as it is accepted.
MAX_SOCKETS = 48
#: Open sockets one client (an IPv4 address, or an IPv6 /64) may hold: one page needs two or three.
MAX_PER_CLIENT = 8
#: Seconds a request may take from its first byte to its last (headers and body); a silent or
#: trickling socket is closed then.
REQUEST_TIMEOUT_S = 5.0
#: Seconds an answer may wait for a client that stopped reading (an event stream nobody reads).
STALLED_WRITE_S = 15.0
#: Bytes of request line and headers (uvicorn's h11 limit; a browser sends under 2 KiB).
MAX_HEADER_BYTES = 8 * 1024
#: Requests per second one client may make, with bursts up to ``CLIENT_BURST`` (a page load is
#: five requests; the page then listens on its event stream and asks only when a person clicks).
CLIENT_RATE = 10.0
CLIENT_BURST = 40.0
#: Requests per second all clients together may make: the board loop shares the Pi's core
#: with the server, and a flood must not delay its turns.
TOTAL_RATE = 100.0
TOTAL_BURST = 200.0

#: The page's scripts and styles come from the board and nowhere else; no inline script runs,
#: no other site may frame it. Inline styles stay allowed: the board picture (an inline SVG)
#: carries its blinking as style attributes, and a style cannot run code.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS: list[tuple[bytes, bytes]] = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-resource-policy", b"same-origin"),
    (b"cross-origin-opener-policy", b"same-origin"),
]

#: Host name endings of a LAN (mDNS, home routers, RFC 8375).
LAN_SUFFIXES = (".local", ".lan", ".home", ".home.arpa", ".internal", ".localdomain")


def lan_host(host: str) -> bool:
    """Whether a ``Host`` header names the board the way a LAN does: an IP address, a bare
    name, ``localhost``, or a name under a LAN suffix.

    >>> [lan_host(h) for h in ("192.168.1.20:8080", "[fe80::1]:8080", "morris:8080", "morris.local", "x.example.com")]
    [True, True, True, True, False]
    >>> lan_host("evil.example.com.:8080"), lan_host(""), lan_host("a b")
    (False, False, False)
    """
    if not host or not host.isascii() or not host.isprintable() or " " in host:
        return False
    name = host.rsplit(":", 1)[0] if not host.startswith("[") else host[1:].split("]", 1)[0]
    if not name:
        return False
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        pass
    name = name.lower().rstrip(".")
    return "." not in name or name.endswith(LAN_SUFFIXES)


def client_key(address: str | None) -> str:
    """Whom a socket counts against: an IPv4 address, or an IPv6 address's /64 (one device can
    take a whole /64 of addresses, so counting each would give it thousands of shares).

    >>> client_key("192.168.1.7"), client_key("2001:db8:1:2:aaaa::1"), client_key("::ffff:10.0.0.3")
    ('192.168.1.7', '2001:db8:1:2::/64', '10.0.0.3')
    """
    if not address:
        return "?"
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address[:64]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


async def _answer(send: Send, status: int, message: str, *, close: bool = False, retry_after: bool = False) -> None:
    body = json.dumps({"error": message}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if close:
        headers.append((b"connection", b"close"))
    if retry_after:
        headers.append((b"retry-after", b"1"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class Bucket:
    """A token bucket: ``take`` is true while requests come no faster than ``rate`` per second,
    with bursts of up to ``burst``.

    >>> b = Bucket(rate=1, burst=2, now=0.0)
    >>> [b.take(0.0), b.take(0.0), b.take(0.0), b.take(1.0)]
    [True, True, False, True]
    """

    __slots__ = ("burst", "rate", "tokens", "when")

    def __init__(self, rate: float, burst: float, now: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.when = now

    def take(self, now: float) -> bool:
        self.tokens = min(self.burst, self.tokens + (now - self.when) * self.rate)
        self.when = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class RequestRates:
    """A bucket per client (the 1,024 seen last) and one for all of them."""

    def __init__(
        self,
        clock: Callable[[], float] = time.monotonic,
        *,
        client_rate: float = CLIENT_RATE,
        client_burst: float = CLIENT_BURST,
        total_rate: float = TOTAL_RATE,
        total_burst: float = TOTAL_BURST,
    ) -> None:
        self.clock = clock
        self.client_rate = client_rate
        self.client_burst = client_burst
        self.total = Bucket(total_rate, total_burst, clock())
        self.clients: OrderedDict[str, Bucket] = OrderedDict()
        self.refused = 0

    def allow(self, client: str) -> str | None:
        """``None`` if ``client`` may be answered now, else why not."""
        now = self.clock()
        bucket = self.clients.get(client)
        if bucket is None:
            bucket = self.clients[client] = Bucket(self.client_rate, self.client_burst, now)
            if len(self.clients) > 1024:
                self.clients.popitem(last=False)
        else:
            self.clients.move_to_end(client)
        if not bucket.take(now):
            self.refused += 1
            return "too many requests from this device: slow down"
        # the total keeps a flood from many devices off the board loop's core; a device that
        # asks little (its own bucket still more than half full: a person at a page) is served
        # even then, so the owner is never shut out by the others' flood
        if not self.total.take(now) and bucket.tokens < bucket.burst / 2:
            self.refused += 1
            return "the board is busy: try again in a moment"
        return None


class Guard:
    """The ASGI middleware in front of the app: Host check, request rates, body caps, security headers."""

    def __init__(self, app: ASGIApp, rates: RequestRates | None = None) -> None:
        self.app = app
        self.rates = rates or RequestRates()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", ()), *SECURITY_HEADERS]
            await send(message)

        headers = scope.get("headers", ())
        host = next((v for k, v in headers if k == b"host"), b"").decode("latin-1")
        if not lan_host(host):
            shown = ascii(host[:60])
            await _answer(
                send_with_headers, 403, f"name the board by its LAN address or name (this request names {shown})"
            )
            return
        client = scope.get("client")
        why = self.rates.allow(client_key(client[0] if client else None))
        if why is not None:
            await _answer(send_with_headers, 429, why, retry_after=True)
            return
        if scope.get("method") in ("GET", "HEAD"):
            await self.app(scope, receive, send_with_headers)
            return
        cap = MAX_BODY.get(scope.get("path", ""), DEFAULT_MAX_BODY)
        length = next((v for k, v in headers if k == b"content-length"), None)
        if length is not None and (not length.isdigit() or int(length) > cap):
            await _answer(send_with_headers, 413, f"the request body may have at most {cap} bytes here", close=True)
            return
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            if len(body) > cap:
                await _answer(send_with_headers, 413, f"the request body may have at most {cap} bytes here", close=True)
                return
            if not message.get("more_body", False):
                break
        replayed = False

        async def receive_body() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": bytes(body), "more_body": False}
            return await receive()

        await self.app(scope, receive_body, send_with_headers)
