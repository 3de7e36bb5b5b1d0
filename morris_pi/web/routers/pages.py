"""The page: ``GET /`` (its scripts and styles are the static files beside it)."""

from __future__ import annotations

from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import BaseRoute, Route

from .common import Context, guarded

STATIC = Path(__file__).resolve().parents[1] / "static"


def routes(context: Context) -> list[BaseRoute]:
    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    return [Route("/", guarded(index))]
