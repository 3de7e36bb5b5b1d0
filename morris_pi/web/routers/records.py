"""The finished games: the list (paged), each game, its pictures and its downloads (open to the LAN)."""

from __future__ import annotations

import re
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from morris_pi.core.record_format import StorageError
from morris_pi.core.record_forms import sanmill_text

from .. import schema
from ..page import picture, position_after
from ..schema import Text
from .common import Context, Refused, flip, guarded, ply

#: Records on one page of ``GET /api/records`` unless ``limit`` says otherwise (at most ``MAX_PAGE``).
PAGE = 50
MAX_PAGE = 200


def routes(context: Context) -> list[BaseRoute]:
    storage = context.storage

    def record_of(record_id: str) -> Any:
        if storage is None:
            raise Refused(404, "this board keeps no records (the simulator without --state-dir)")
        schema.RECORD_ID.check("id", record_id)
        try:
            record = storage.get_record(record_id)
        except StorageError as exc:
            raise Refused(404, str(exc)) from None
        if record.error:
            raise Refused(422, f"record {record.id} cannot be read: {record.error}")
        return record

    async def api_records(request: Request) -> Response:
        params = request.query_params
        offset = schema.query(params, "offset", schema.Text(pattern=r"[0-9]{1,6}", says="a number"))
        limit = schema.query(params, "limit", schema.Text(pattern=r"[0-9]{1,3}", says="a number"))
        status = schema.query(params, "status", STATUS) or "all"
        player = schema.query(params, "player", PLAYER)
        start = int(offset) if offset is not None else 0
        count = min(int(limit), MAX_PAGE) if limit is not None else PAGE
        if storage is None:
            note = "this board keeps no records"
            return JSONResponse({"records": [], "total": 0, "offset": 0, "players": [], "kept": False, "note": note})
        records = storage.list_records()  # the storage's index: no file is parsed twice
        players = sorted({name for r in records for name in (r.tags.get("White"), r.tags.get("Black")) if name})
        chosen = [r for r in records if wanted(r, status, player)]
        newest_first = chosen[::-1][start : start + count]
        out = [summary(r) for r in newest_first]
        answer = {"records": out, "total": len(chosen), "all": len(records), "offset": start, "players": players}
        return JSONResponse({**answer, "kept": True})

    async def api_record(request: Request) -> Response:
        record = record_of(request.path_params["id"])
        return JSONResponse({"id": record.id, "tags": record.tags, "turns": record.turns, **times(record)})

    def position_of(request: Request) -> tuple[Any, Any, int]:
        record = record_of(request.path_params["id"])
        profile = record.tags.get("Profile", "standard")
        plies = ply(request)
        try:
            game = position_after(record.turns, plies, profile, record.tags.get("FEN"))
        except ValueError as exc:
            raise Refused(422, f"record {record.id}: {exc}") from None
        return record, game, len(record.turns) if plies is None else plies

    async def api_record_picture(request: Request) -> Response:
        record, game, plies = position_of(request)
        profile = record.tags.get("Profile", "standard")
        if download(request):  # a file to keep: no blinking, its own title
            svg = picture(game, profile=profile, palette=context.palette, flipped=flip(request))
            return attachment(svg, f"{record.id}-{plies:03d}.svg", "image/svg+xml")
        svg = picture(game, profile=profile, palette=context.palette, flipped=flip(request), title="")
        return Response(svg, media_type="image/svg+xml")

    async def api_record_fen(request: Request) -> Response:
        record, game, plies = position_of(request)
        if download(request):
            return attachment(game.fen + "\n", f"{record.id}-{plies:03d}.fen", "text/plain; charset=utf-8")
        return JSONResponse({"id": record.id, "ply": plies, "fen": game.fen})

    async def api_record_review(request: Request) -> Response:
        record = record_of(request.path_params["id"])
        if context.reviewer is None:
            return JSONResponse({"status": "unavailable"})
        return JSONResponse(context.reviewer.status(record))

    async def api_record_delete(request: Request) -> Response:
        context.paired(request)
        await context.body(request, {})
        record = record_of(request.path_params["id"])
        try:
            storage.delete_unfinished(record.id)
        except StorageError as exc:
            raise Refused(409, str(exc)) from None
        return JSONResponse({"deleted": record.id})

    async def api_record_download(request: Request) -> Response:
        record = record_of(request.path_params["id"])
        form = schema.query(request.query_params, "format", Text(choices=("record", "sanmill"))) or "record"
        if form == "sanmill":
            text, name = sanmill_text(record), f"{record.id}-sanmill.txt"
        elif form == "record":
            text, name = record.path.read_text(encoding="utf-8"), record.path.name
        else:
            raise Refused(400, f"format must be 'record' or 'sanmill', got {form!r}")
        return attachment(text, name, "text/plain; charset=utf-8")

    return [
        Route("/api/records", guarded(api_records)),
        Route("/api/records/{id}", guarded(api_record)),
        Route("/api/records/{id}/picture", guarded(api_record_picture)),
        Route("/api/records/{id}/fen", guarded(api_record_fen)),
        Route("/api/records/{id}/review", guarded(api_record_review)),
        Route("/api/records/{id}/download", guarded(api_record_download)),
        Route("/api/records/{id}/delete", guarded(api_record_delete), methods=["POST"]),
    ]


STATUS = Text(choices=("all", "finished", "unfinished"))
PLAYER = Text(max_len=60)
DOWNLOAD = Text(choices=("0", "1"))
_ID_TIME = re.compile(r"^(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})")
_TAG_DATE = re.compile(r"^(\d{4})\.(\d{2})\.(\d{2})$")
_TAG_TIME = re.compile(r"^(\d{2}):(\d{2}):(\d{2})Z$")


def download(request: Request) -> bool:
    return bool(schema.query(request.query_params, "download", DOWNLOAD) == "1")


def attachment(text: str, name: str, media_type: str) -> Response:
    return Response(text, media_type=media_type, headers={"Content-Disposition": f'attachment; filename="{name}"'})


def finished(record: Any) -> bool:
    return bool(record.tags.get("Result", "*") != "*")


def wanted(record: Any, status: str, player: str | None) -> bool:
    """Whether a record passes the list's filters: finished or not, and a player's name in it."""
    if status != "all" and (status == "finished") != finished(record):
        return False
    if player:
        names = (record.tags.get("White") or "", record.tags.get("Black") or "")
        return any(player.casefold() in name.casefold() for name in names)
    return True


def times(record: Any) -> dict[str, str | None]:
    """When a game started (its id is its UTC start time) and ended (its Date and Time tags), as ISO UTC."""
    started = ended = None
    if match := _ID_TIME.match(record.id):
        y, mo, d, h, mi, s = match.groups()
        started = f"{y}-{mo}-{d}T{h}:{mi}:{s}Z"
    date, clock = _TAG_DATE.match(record.tags.get("Date", "")), _TAG_TIME.match(record.tags.get("Time", ""))
    if date and clock:
        ended = "{}-{}-{}T{}:{}:{}Z".format(*date.groups(), *clock.groups())
    return {"started": started, "ended": ended}


def summary(record: Any) -> dict[str, Any]:
    """One row of the list of games."""
    t = record.tags
    return {
        "id": record.id,
        "error": record.error,
        "date": f"{t.get('Date', '')} {t.get('Time', '')}".strip(),
        **times(record),
        "white": t.get("White"),
        "black": t.get("Black"),
        "result": t.get("Result"),
        "reason": t.get("Reason"),
        "turns": len(record.turns),
        "profile": t.get("Profile"),
        "finished": finished(record) if not record.error else None,
        "clock": t.get("TimeControl"),
    }
