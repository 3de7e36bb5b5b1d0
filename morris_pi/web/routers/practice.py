"""Practice positions: the list by theme and difficulty, a practice game judged, and a player's record.

``POST /api/practice/check`` takes either ``turn`` (the first turn alone, judged against the
solution, as it always did) or ``turns`` (the whole practice game so far, both sides' turns
separated by spaces): then every turn of the player's is judged, up to the position's bound.
"""

from __future__ import annotations

from typing import Any

from starlette.concurrency import run_in_threadpool
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
    judge_line,
    load_practice,
    practice_by_id,
)

from ..schema import Text
from .common import Context, Refused, guarded

PRACTICE_ID = Text(pattern=r"[a-z0-9-]{1,40}", max_len=40, says="a practice position id like flying-win-01")
TURN = Text(pattern=r"([a-g][1-7]-)?[a-g][1-7](x[a-g][1-7])?", max_len=8, says="a turn like d6, a1-a4 or b6xa1")
NAME = Text(max_len=MAX_NAME)
_ONE = r"([a-g][1-7]-)?[a-g][1-7](x[a-g][1-7])?"
#: A practice game is short (a flying endgame is judged for 20 of the player's turns): 120 turns at most.
TURNS = Text(pattern=rf"{_ONE}( {_ONE}){{0,119}}", max_len=1200, says="turns separated by spaces, like f4-f2 f6-f4")
CHECK_BODY = {"id": PRACTICE_ID, "turn": TURN, "turns": TURNS, "player": NAME}


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
        if "id" not in body or ("turn" not in body and "turns" not in body):
            raise Refused(400, "give the practice position's id and the turn (or turns) played")
        positions()
        try:
            position = practice_by_id(body["id"])
        except KeyError as exc:
            raise Refused(404, str(exc.args[0])) from None
        answer: dict[str, Any]
        try:
            if "turns" in body:
                # grading searches: out of the event loop, so the page and the board's events go on
                judged = await run_in_threadpool(judge_line, position, body["turns"].split())
                answer, solved = judged.to_json(), judged.solved
            else:
                attempt = check_turn(position, body["turn"])
                answer, solved = {"id": position.id, **attempt.to_json()}, attempt.solved
        except ValueError as exc:
            raise Refused(422, str(exc)) from None
        records = players()
        if solved and records is not None:
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
