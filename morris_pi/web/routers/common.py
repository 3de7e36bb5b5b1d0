"""What every router shares: the board's parts, the refusals, and the checks a change must pass.

``Context`` holds one board's seam, storage, pairing and event hub, and the
checks the routers call before they act: ``same_origin`` (a ``POST`` comes from
the board's own page), ``paired`` (and from a paired browser), ``body`` (the
body through the one schema layer) and ``run`` (an action in the board loop).
``guarded`` turns every refusal into a 4xx answer with a sentence.
"""

from __future__ import annotations

import asyncio
import ipaddress
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from morris_pi.core.session import Session
from morris_pi.errors import MorrisPiError
from morris_pi.guidance import Look

from .. import schema
from ..hub import Hub
from ..limits import client_key, lan_host
from ..pairing import COOKIE, Pairing
from ..ratelog import RateLimitedLog
from ..schema import BadInput
from ..seam import BoardSeam

#: Seconds a request waits for the board loop to run its action.
ACTION_TIMEOUT_S = 5.0


class Refused(MorrisPiError, ValueError):
    """A request the API turns down: a status code, a sentence for the page, and optionally a
    ``code`` the page acts on (``"not-paired"``: it drops its "paired" badge and offers pairing)."""

    def __init__(self, status: int, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.code = code


def error(status: int, message: str, code: str | None = None) -> JSONResponse:
    body = {"error": message} if code is None else {"error": message, "code": code}
    return JSONResponse(body, status_code=status)


Handler = Callable[[Request], Awaitable[Response]]


def guarded(handler: Handler) -> Handler:
    """The route ``handler``, with every refusal (``Refused``, ``BadInput``) answered as a sentence."""

    async def endpoint(request: Request) -> Response:
        try:
            return await handler(request)
        except Refused as exc:
            return error(exc.status, exc.message, exc.code)
        except BadInput as exc:
            return error(exc.status, str(exc))

    return endpoint


@dataclass
class Context:
    """One board as the routers see it."""

    seam: BoardSeam
    hub: Hub
    pairing: Pairing
    quiet: RateLimitedLog
    palette: Mapping[str, Look]
    storage: Any = None
    board: bool = False  # the page is the board (the simulator's --no-window)
    buttons: tuple[str, ...] = ()  # the board's buttons, which type pairing codes
    trust_loopback: bool = False  # a page on this machine needs no pairing (the simulator)
    reviewer: Any = None  # the background reviews of finished games (``core.reviews``)

    def trusted(self, request: Request) -> bool:
        """Whether the request comes from this machine, to a loopback name, where that is enough."""
        return self.trust_loopback and from_this_machine(request)

    def allowed(self, request: Request) -> bool:
        """Whether the request may change anything: a paired browser, or a trusted one."""
        return self.trusted(request) or self.pairing.allowed(cookie(request))

    async def run(self, action: Callable[[Session], Any]) -> Any:
        """Run ``action(session)`` in the board loop; its refusal (a ``ValueError``) is a 409."""
        future = self.seam.submit(action)
        try:
            return await asyncio.wait_for(asyncio.wrap_future(future), ACTION_TIMEOUT_S)
        except (ValueError, LookupError) as exc:
            raise Refused(409, str(exc)) from None
        except TimeoutError:
            raise Refused(503, "the board did not answer in time; try again") from None

    def same_origin(self, request: Request) -> None:
        """Refuse a request that does not come from the board's own page."""
        # a page from another site may send a POST; its Origin gives it away
        origin = request.headers.get("origin")
        host = request.headers.get("host", "")
        if not lan_host(host):  # the Guard refused it already; kept so no route depends on it
            raise Refused(403, f"name the board by its LAN address or name (this request names {host!a})")
        try:
            netloc = urlsplit(origin).netloc.lower() if origin else None
        except ValueError:
            netloc = None
        if not netloc or netloc != host.lower():
            raise Refused(403, "cross-site request refused: changes come only from this board's own page")
        if request.headers.get("sec-fetch-site", "same-origin") not in ("same-origin", "none"):
            raise Refused(403, "cross-site request refused: changes come only from this board's own page")

    def paired(self, request: Request) -> None:
        """Refuse a request that is not from the board's own page in a paired browser."""
        self.same_origin(request)
        if not self.allowed(request):
            raise Refused(
                403, "this browser is not paired with the board: pair it first (Pair button)", code="not-paired"
            )

    async def body(self, request: Request, fields: Mapping[str, schema.Field]) -> dict[str, Any]:
        """The body as an object of ``fields`` (the Guard has bounded its size already)."""
        return schema.check(schema.parse_json(await request.body()), fields)


def cookie(request: Request) -> str | None:
    """The browser's pairing token, if it sent one of a plausible size."""
    token = request.cookies.get(COOKIE)
    return token if token and len(token) <= 100 else None


def client(request: Request) -> str:
    """Whom the request counts against (``limits.client_key``)."""
    return client_key(request.client.host if request.client else None)


def ply(request: Request) -> int | None:
    """The ``ply`` query value, if given."""
    text = schema.query(request.query_params, "ply", schema.PLY)
    return None if text is None else int(text)


FLIP = schema.Text(choices=("0", "1"))


def flip(request: Request) -> bool:
    """Whether the page shows the board from Black's side (``flip=1``)."""
    return bool(schema.query(request.query_params, "flip", FLIP) == "1")


def from_this_machine(request: Request) -> bool:
    """Whether the request came over loopback and names the board by a loopback name.

    The socket's address cannot be forged over TCP, and the name rules out a LAN name that
    someone points at 127.0.0.1 to reach this machine through a visitor's browser."""
    address = request.client.host if request.client else ""
    host = request.headers.get("host", "")
    name = host[1:].split("]", 1)[0] if host.startswith("[") else host.rsplit(":", 1)[0]
    return _loopback(address) and (name.lower() == "localhost" or _loopback(name))


def _loopback(text: str) -> bool:
    try:
        return bool(ipaddress.ip_address(text).is_loopback)
    except ValueError:
        return False
