"""The page: ``GET /``, its words in the reader's language (``/api/words``) and its icon.

The page's scripts and styles are the static files beside it. Its words come from the
message catalogue (``morris_pi.catalogue``): in the language asked for (``?lang=de``, the
page's switch) or else the one the browser's ``Accept-Language`` prefers.
"""

from __future__ import annotations

from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from morris_pi.catalogue import LANGUAGES, NAMES, choose, words

from .. import schema
from .common import Context, guarded

STATIC = Path(__file__).resolve().parents[1] / "static"
LANG = schema.Text(choices=LANGUAGES)


def routes(context: Context) -> list[BaseRoute]:
    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    async def api_words(request: Request) -> Response:
        lang = schema.query(request.query_params, "lang", LANG) or choose(request.headers.get("accept-language"))
        return JSONResponse(
            {"lang": lang, "languages": NAMES, "words": dict(words(lang))},
            headers={"Cache-Control": "no-cache", "Vary": "Accept-Language"},
        )

    async def favicon(request: Request) -> Response:
        icon = STATIC / "favicon.svg"
        return FileResponse(icon, media_type="image/svg+xml", headers={"Cache-Control": "max-age=86400"})

    return [
        Route("/", guarded(index)),
        Route("/api/words", guarded(api_words)),
        Route("/favicon.ico", guarded(favicon)),
    ]
