"""What every router shares: the board's parts, the refusals, and the checks a change must pass.

``Context`` holds one board's seam, storage, pairing and event hub, and the
checks the routers call before they act: ``same_origin`` (a ``POST`` comes from
the board's own page), ``paired`` (and from a paired browser), ``body`` (the
body through the one schema layer) and ``run`` (an action in the board loop).
``guarded`` turns every refusal into a 4xx answer with a sentence.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from morris_pi.board.session import Session
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


class Refused(Exception):
    """A request the API turns down: a status code and a sentence for the page."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


Handler = Callable[[Request], Awaitable[Response]]


def guarded(handler: Handler) -> Handler:
    """The route ``handler``, with every refusal (``Refused``, ``BadInput``) answered as a sentence."""

    async def endpoint(request: Request) -> Response:
        try:
            return await handler(request)
        except Refused as exc:
            return error(exc.status, exc.message)
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
        if not self.pairing.allowed(cookie(request)):
            raise Refused(403, "this browser is not paired with the board: pair it first (Pair button)")

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
