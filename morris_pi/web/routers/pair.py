"""Pairing a browser with the board: by a code typed on the board's buttons, or by the PIN; and unpairing."""

from __future__ import annotations

import logging

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from morris_pi.core.session import Session

from ..pairing import ASK_SECONDS, BUTTON_WORDS, COOKIE
from ..schema import BadInput, Text
from .common import Context, Refused, client, cookie, guarded

log = logging.getLogger("morris_pi.web")

PAIR_BODY = {"pin": Text(pattern=r"[0-9]{1,32}", max_len=32, says="digits 0-9")}
CLAIM_BODY = {"request": Text(pattern=r"[A-Za-z0-9_-]{8,64}", max_len=64, says="the request id the board gave")}


def with_token(response: Response, token: str) -> Response:
    response.set_cookie(COOKIE, token, httponly=True, samesite="strict", max_age=400 * 24 * 3600, path="/")
    return response


def routes(context: Context) -> list[BaseRoute]:
    pairing, seam, buttons = context.pairing, context.seam, context.buttons

    async def api_pair_state(request: Request) -> Response:
        return JSONResponse(
            {
                "paired": context.allowed(request),
                "trusted": context.trusted(request),
                "pin": pairing.has_pin,
                "buttons": len(buttons) >= 2,
                "button_names": list(buttons),
                "board_page": context.board,
                "asking": pairing.asking(),
            }
        )

    async def api_pair(request: Request) -> Response:
        context.same_origin(request)
        data = await context.body(request, PAIR_BODY)
        who = client(request)
        if "pin" in data:
            answer = pairing.by_pin(data["pin"], who)
            if answer.token is None:
                raise Refused(answer.status, answer.message)
            log.info("a browser at %s was paired with the PIN", who)
            return with_token(JSONResponse({"paired": True}), answer.token)
        ask = pairing.ask(who, buttons)
        if ask is None:
            raise Refused(
                409, "this board has fewer than two buttons to type a pairing code: pair with the PIN ([web] pin)"
            )

        def blink(session: Session) -> None:
            for ticket in ask.dropped:
                session.cancel_pairing(ticket)
            session.ask_pairing(ask.ticket, ask.code, ASK_SECONDS)

        await context.run(blink)
        context.quiet.say("pair-ask", logging.INFO, "web: %s asks to pair; the board blinks", who)
        words = [BUTTON_WORDS.get(b, b) for b in ask.code]
        return JSONResponse(
            {"request": ask.rid, "code": list(ask.code), "words": words, "seconds": ASK_SECONDS}, status_code=202
        )

    async def api_pair_claim(request: Request) -> Response:
        context.same_origin(request)
        data = await context.body(request, CLAIM_BODY)
        if "request" not in data:
            raise BadInput("is missing: give the request id the pairing answer returned", field="request")
        granted = seam.view.granted if seam.view is not None else ()
        token = pairing.claim(data["request"], granted)
        if token is None:
            if not pairing.waiting(data["request"]):
                raise Refused(410, "the pairing request ran out or is unknown: ask again")
            return JSONResponse({"paired": False, "waiting": True}, status_code=202)
        log.info("a browser at %s was paired with the board's buttons", client(request))
        return with_token(JSONResponse({"paired": True}), token)

    async def api_unpair(request: Request) -> Response:
        context.same_origin(request)
        await context.body(request, {})
        pairing.forget(cookie(request))
        response = JSONResponse({"paired": False})
        response.delete_cookie(COOKIE, path="/", httponly=True, samesite="strict")
        return response

    return [
        Route("/api/pair", guarded(api_pair_state), methods=["GET"]),
        Route("/api/pair", guarded(api_pair), methods=["POST"]),
        Route("/api/pair/claim", guarded(api_pair_claim), methods=["POST"]),
        Route("/api/unpair", guarded(api_unpair), methods=["POST"]),
    ]
