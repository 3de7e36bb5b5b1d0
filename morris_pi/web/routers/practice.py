"""Practice positions: the list by theme and difficulty, a first turn judged, and a player's record."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from morris_pi.core.practice import (
    MAX_NAME,
    PlayerRecords,
    PracticeDataError,
    check_turn,
    clean_name,
    games_by_level,
    load_practice,
    practice_by_id,
)

from ..schema import Text
from .common import Context, Refused, guarded

PRACTICE_ID = Text(pattern=r"[a-z0-9-]{1,40}", max_len=40, says="a practice position id like flying-win-01")
TURN = Text(pattern=r"([a-g][1-7]-)?[a-g][1-7](x[a-g][1-7])?", max_len=8, says="a turn like d6, a1-a4 or b6xa1")
NAME = Text(max_len=MAX_NAME)
CHECK_BODY = {"id": PRACTICE_ID, "turn": TURN, "player": NAME}


def routes(context: Context) -> list[BaseRoute]:
    def players() -> PlayerRecords | None:
        storage = context.storage
        return PlayerRecords(storage.state_dir) if storage is not None else None

    def positions() -> Any:
        try:
            return load_practice()
        except PracticeDataError as exc:
            raise Refused(503, f"the practice positions cannot be used: {exc}") from None

    async def api_practice(request: Request) -> Response:
        found = positions()
        themes: dict[str, str] = {}
        for p in found:
            themes.setdefault(p.theme, p.title)
        return JSONResponse({"themes": themes, "positions": [p.to_json() for p in found]})

    async def api_player(request: Request) -> Response:
        raw = request.query_params.get("name", "Player")
        NAME.check("name", raw)
        try:
            name = clean_name(raw)
        except ValueError as exc:
            raise Refused(400, str(exc)) from None
        records = players()
        storage = context.storage
        return JSONResponse(
            {
                "name": name,
                "kept": records is not None,
                "solved": records.solved(name) if records is not None else {},
                "levels": games_by_level(storage.list_records(), name) if storage is not None else {},
            }
        )

    async def api_check(request: Request) -> Response:
        context.paired(request)
        body = await context.body(request, CHECK_BODY)
        if "id" not in body or "turn" not in body:
            raise Refused(400, "give the practice position's id and the turn played")
        positions()
        try:
            position = practice_by_id(body["id"])
        except KeyError as exc:
            raise Refused(404, str(exc.args[0])) from None
        try:
            attempt = check_turn(position, body["turn"])
        except ValueError as exc:
            raise Refused(422, str(exc)) from None
        answer: dict[str, Any] = {"id": position.id, **attempt.to_json()}
        records = players()
        if attempt.solved and records is not None:
            try:
                answer["record"] = records.mark_solved(body.get("player") or "Player", position.id)
            except (ValueError, OSError) as exc:
                answer["note"] = f"solved, but not kept: {exc}"
        return JSONResponse(answer)

    return [
        Route("/api/practice", guarded(api_practice)),
        Route("/api/practice/player", guarded(api_player)),
        Route("/api/practice/check", guarded(api_check), methods=["POST"]),
    ]
