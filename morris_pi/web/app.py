"""The web page's HTTP API (Starlette): watch, review, pair and control one board.

Every route is listed in docs/web.md; the routes live in ``routers``, one module
per concern (the page, the live game, pairing, control, records).
``limits.Guard`` sits in front of all of them (the Host check, body caps,
security headers); ``schema`` checks every body, query and path value. Reading
(``GET``, the event stream) is open to the LAN; every ``POST`` must come from
the page itself (its ``Origin`` names the host it was sent to: no cross-site
request, no CORS) and, except the pairing routes, carry a paired browser's
token cookie. Changes go to the board loop through the ``BoardSeam``, as the
same session calls its buttons and menu make. No input makes a route fail: a
refusal is a 4xx with a sentence.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles

from morris_pi.core.ports import BUTTONS, Clock, MonotonicClock
from morris_pi.core.reviews import BackgroundReviewer
from morris_pi.guidance import DEFAULT_PALETTE, Look

from .connections import quiet_loop_errors
from .hub import Hub
from .limits import Guard, RequestRates
from .pairing import Pairing
from .ratelog import RateLimitedLog
from .routers import control, live, pages, pair, practice, records
from .routers.common import Context
from .routers.pages import STATIC
from .seam import BoardSeam

__all__ = ["STATIC", "create_app"]

log = logging.getLogger("morris_pi.web")


def create_app(
    seam: BoardSeam,
    *,
    storage: Any = None,
    pin: str | None = None,
    clock: Clock | None = None,
    palette: Mapping[str, Look] = DEFAULT_PALETTE,
    board: bool = False,
    buttons: tuple[str, ...] = BUTTONS,
    quiet: RateLimitedLog | None = None,
    rates: RequestRates | None = None,
    trust_loopback: bool = False,
    reviewer: Any = None,
) -> Starlette:
    """The app for one board. ``storage`` lists the finished games; ``board`` says the page is the
    board itself (the simulator's ``--no-window``, whose hand the seam carries); ``buttons`` are
    the board's buttons, which type the pairing codes (fewer than two: pairing by PIN only);
    ``rates`` the request rates allowed (``limits.RequestRates``); ``trust_loopback`` lets a page on
    this machine change things without pairing (the simulator: whoever reaches its loopback address
    sits at it; a request from the LAN still needs pairing). ``reviewer`` makes the finished games'
    reviews (``core.reviews.BackgroundReviewer``); by default one is made over ``storage``, which
    gives way whenever the board's engine is thinking."""
    clock = clock or MonotonicClock()
    if reviewer is None and storage is not None:
        reviewer = BackgroundReviewer(storage, busy=lambda: engine_busy(seam))
    quiet = quiet or RateLimitedLog(log, clock)
    context = Context(
        seam=seam,
        hub=Hub(seam, palette),
        pairing=Pairing(clock, pin=pin, quiet=quiet),
        quiet=quiet,
        palette=palette,
        storage=storage,
        board=board,
        buttons=tuple(b for b in BUTTONS if b in buttons),
        trust_loopback=trust_loopback,
        reviewer=reviewer,
    )

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        quiet_loop_errors(asyncio.get_running_loop(), quiet)
        context.hub.start(asyncio.get_running_loop())
        if reviewer is not None:
            reviewer.start()
        try:
            yield
        finally:
            context.hub.stop()
            if reviewer is not None:
                reviewer.close()

    routes = [
        *pages.routes(context),
        *live.routes(context),
        *records.routes(context),
        *practice.routes(context),
        *pair.routes(context),
        *control.routes(context),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan, middleware=[Middleware(Guard, rates=rates)])
    app.state.hub = context.hub
    app.state.pairing = context.pairing
    app.state.reviewer = reviewer
    return app


def engine_busy(seam: BoardSeam) -> bool:
    """Whether the board's engine is searching (a turn, a hint, or a grading for a player's
    assistance): reviews give way."""
    view = seam.view
    snapshot = view.snapshot if view is not None else None
    return bool(snapshot is not None and (snapshot.thinking or snapshot.grading))
