"""The game being played, for anyone watching: its state, the event stream, and the positions of its record."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import BaseRoute, Route

from ..page import game_json, picture, position_after
from .common import Context, Refused, flip, guarded, ply


def routes(context: Context) -> list[BaseRoute]:
    seam, hub = context.seam, context.hub

    async def api_game(request: Request) -> Response:
        return JSONResponse(game_json(seam.view))

    async def api_state(request: Request) -> Response:
        return Response(hub.text(flipped=flip(request)), media_type="application/json")

    async def api_events(request: Request) -> Response:
        flipped = flip(request)
        queue: asyncio.Queue[str | None] = asyncio.Queue(maxsize=2)
        hub.queues[queue] = flipped

        async def stream() -> AsyncIterator[str]:
            try:
                yield f"event: state\ndata: {hub.text(flipped=flipped)}\n\n"
                while not hub.closing:
                    data = await queue.get()
                    if data is None:  # the server is stopping
                        return
                    yield f"event: state\ndata: {data}\n\n"
            finally:
                hub.queues.pop(queue, None)

        return StreamingResponse(
            stream(), media_type="text/event-stream", headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        )

    async def api_position(request: Request) -> Response:
        view = seam.view
        if view is None or view.snapshot is None:
            raise Refused(404, "no game is being played: the set-up menu is up")
        try:
            game = position_after(list(view.turns), ply(request), view.snapshot.profile)
        except ValueError as exc:
            raise Refused(400, str(exc)) from None
        svg = picture(game, profile=view.snapshot.profile, palette=context.palette, flipped=flip(request), title="")
        return Response(svg, media_type="image/svg+xml")

    return [
        Route("/api/game", guarded(api_game)),
        Route("/api/state", guarded(api_state)),
        Route("/api/events", guarded(api_events)),
        Route("/api/position", guarded(api_position)),
    ]
