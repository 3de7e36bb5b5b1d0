"""The finished games: the list (paged), each game, its pictures and its downloads (open to the LAN)."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from .. import schema
from ..page import picture, position_after
from ..schema import Text
from .common import Context, Refused, guarded, ply

#: Records on one page of ``GET /api/records`` unless ``limit`` says otherwise (at most ``MAX_PAGE``).
PAGE = 50
MAX_PAGE = 200


def routes(context: Context) -> list[BaseRoute]:
    storage = context.storage

    def record_of(record_id: str) -> Any:
        if storage is None:
            raise Refused(404, "this board keeps no records (the simulator without --state-dir)")
        from morris_pi.board.record_format import StorageError

        schema.RECORD_ID.check("id", record_id)
        try:
            record = storage.get_record(record_id)
        except StorageError as exc:
            raise Refused(404, str(exc)) from None
        if record.error:
            raise Refused(422, f"record {record.id} cannot be read: {record.error}")
        return record

    async def api_records(request: Request) -> Response:
        offset = schema.query(request.query_params, "offset", schema.Text(pattern=r"[0-9]{1,6}", says="a number"))
        limit = schema.query(request.query_params, "limit", schema.Text(pattern=r"[0-9]{1,3}", says="a number"))
        start = int(offset) if offset is not None else 0
        count = min(int(limit), MAX_PAGE) if limit is not None else PAGE
        if storage is None:
            return JSONResponse({"records": [], "total": 0, "offset": 0, "note": "this board keeps no records"})
        records = storage.list_records()  # the storage's index: no file is parsed twice
        total = len(records)
        newest_first = records[::-1][start : start + count]
        out = []
        for r in newest_first:
            t = r.tags
            out.append(
                {
                    "id": r.id,
                    "error": r.error,
                    "date": f"{t.get('Date', '')} {t.get('Time', '')}".strip(),
                    "white": t.get("White"),
                    "black": t.get("Black"),
                    "result": t.get("Result"),
                    "reason": t.get("Reason"),
                    "turns": len(r.turns),
                    "profile": t.get("Profile"),
                }
            )
        return JSONResponse({"records": out, "total": total, "offset": start})

    async def api_record(request: Request) -> Response:
        record = record_of(request.path_params["id"])
        return JSONResponse({"id": record.id, "tags": record.tags, "turns": record.turns})

    async def api_record_picture(request: Request) -> Response:
        record = record_of(request.path_params["id"])
        profile = record.tags.get("Profile", "standard")
        try:
            game = position_after(record.turns, ply(request), profile)
        except ValueError as exc:
            raise Refused(422, f"record {record.id}: {exc}") from None
        return Response(picture(game, profile=profile, palette=context.palette), media_type="image/svg+xml")

    async def api_record_download(request: Request) -> Response:
        record = record_of(request.path_params["id"])
        form = schema.query(request.query_params, "format", Text(choices=("record", "sanmill"))) or "record"
        if form == "sanmill":
            from morris_pi.board.record_forms import sanmill_text

            text, name = sanmill_text(record), f"{record.id}-sanmill.txt"
        elif form == "record":
            text, name = record.path.read_text(encoding="utf-8"), record.path.name
        else:
            raise Refused(400, f"format must be 'record' or 'sanmill', got {form!r}")
        return Response(
            text,
            media_type="text/plain; charset=utf-8",
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )

    return [
        Route("/api/records", guarded(api_records)),
        Route("/api/records/{id}", guarded(api_record)),
        Route("/api/records/{id}/picture", guarded(api_record_picture)),
        Route("/api/records/{id}/download", guarded(api_record_download)),
    ]
