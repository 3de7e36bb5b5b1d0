"""The web page's HTTP API (Starlette): watch, review, pair and control one board.

Every route is listed in docs/web.md. ``limits.Guard`` sits in front of all of
them (the Host check, body caps, security headers); ``schema`` checks every body,
query and path value. Reading (``GET``, the event stream) is open to the LAN;
every ``POST`` must come from the page itself (its ``Origin`` names the host it
was sent to: no cross-site request, no CORS) and, except the pairing routes,
carry a paired browser's token cookie. Changes go to the board loop through the
``BoardSeam``, as the same session calls its buttons and menu make. No input
makes a route fail: a refusal is a 4xx with a sentence.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from morris_pi.board.menu import MODES, GameSettings
from morris_pi.board.ports import BUTTONS, Clock, MonotonicClock
from morris_pi.board.session import Session
from morris_pi.guidance import DEFAULT_PALETTE, Look
from morris_pi.rules import PROFILES, SIDES

from . import schema
from .connections import quiet_loop_errors
from .limits import Guard, RequestRates, client_key, lan_host
from .page import game_json, picture, position_after, view_json
from .pairing import ASK_SECONDS, BUTTON_WORDS, COOKIE, Pairing
from .ratelog import RateLimitedLog
from .schema import BadInput, Integer, Number, Text
from .seam import BoardSeam, View

log = logging.getLogger("morris_pi.web")

STATIC = Path(__file__).parent / "static"
#: Seconds a request waits for the board loop to run its action.
ACTION_TIMEOUT_S = 5.0

#: The buttons a page may press, by the API's name (the board's own names).
BUTTON_ACTIONS: dict[str, str] = {"hint": "hint", "takeback": "undo", "resign": "resign", "draw": "draw"}
#: Records on one page of ``GET /api/records`` unless ``limit`` says otherwise (at most ``MAX_PAGE``).
PAGE = 50
MAX_PAGE = 200


#: The bodies of the POST routes, one schema each (``/api/action`` by its ``do``).
PAIR_BODY = {"pin": Text(pattern=r"[0-9]{1,32}", max_len=32, says="digits 0-9")}
CLAIM_BODY = {"request": Text(pattern=r"[A-Za-z0-9_-]{8,64}", max_len=64, says="the request id the board gave")}
DO = Text(choices=(*BUTTON_ACTIONS, "new", "menu", "brightness"))
ACTION_BODIES: dict[str, dict[str, schema.Field]] = {
    **{name: {"do": DO} for name in (*BUTTON_ACTIONS, "menu")},
    "new": {
        "do": DO,
        "mode": Text(choices=MODES),
        "human": Text(choices=SIDES),
        "level": Integer(1, 10),
        "profile": Text(pattern=r"[a-z0-9-]{1,24}", says="a rules profile name"),
    },
    "brightness": {"do": DO, "value": Number()},
}
HAND_BODY: dict[str, schema.Field] = {
    "do": Text(choices=("place", "lift", "put", "drop", "cancel")),
    "point": Text(pattern=r"[a-g][1-7]", max_len=2, says="a point like d6"),
    "colour": Text(choices=SIDES),
}


class Refused(Exception):
    """A request the API turns down: a status code and a sentence for the page."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


class Hub:
    """Pushes each new view to every open event stream (in the server's event loop)."""

    def __init__(self, seam: BoardSeam, palette: Mapping[str, Look]) -> None:
        self.seam = seam
        self.palette = palette
        self.loop: asyncio.AbstractEventLoop | None = None
        self.queues: set[asyncio.Queue[str | None]] = set()
        self.closing = False
        self._cached: tuple[int, str] | None = None
        self._stop: Callable[[], None] | None = None

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self._stop = self.seam.listen(self._from_board)

    def stop(self) -> None:
        if self._stop is not None:
            self._stop()

    def close(self) -> None:
        """End every event stream (from any thread): the server can then stop at once."""
        loop = self.loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._end)

    def _end(self) -> None:
        self.closing = True
        for queue in self.queues:
            if queue.full():
                queue.get_nowait()
            queue.put_nowait(None)

    def _from_board(self, view: View) -> None:  # the board loop's thread: hand over, nothing more
        loop = self.loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._broadcast, view)

    def text(self, view: View | None = None) -> str:
        """The view as the page's JSON (made once per view)."""
        view = view or self.seam.view
        if view is None:
            return "null"
        cached = self._cached
        if cached is None or cached[0] != view.version:
            cached = (view.version, json.dumps(view_json(view, self.palette)))
            self._cached = cached
        return cached[1]

    def _broadcast(self, view: View) -> None:
        if not self.queues or view is not self.seam.view:
            return  # nobody listens, or a newer view is on its way
        data = self.text(view)
        for queue in self.queues:
            if queue.full():  # a slow reader gets the latest, not a backlog
                queue.get_nowait()
            queue.put_nowait(data)


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
) -> Starlette:
    """The app for one board. ``storage`` lists the finished games; ``board`` says the page is the
    board itself (the simulator's ``--no-window``, whose hand the seam carries); ``buttons`` are
    the board's buttons, which type the pairing codes (fewer than two: pairing by PIN only);
    ``rates`` the request rates allowed (``limits.RequestRates``)."""
    clock = clock or MonotonicClock()
    quiet = quiet or RateLimitedLog(log, clock)
    pairing = Pairing(clock, pin=pin, quiet=quiet)
    hub = Hub(seam, palette)
    buttons = tuple(b for b in BUTTONS if b in buttons)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        quiet_loop_errors(asyncio.get_running_loop(), quiet)
        hub.start(asyncio.get_running_loop())
        try:
            yield
        finally:
            hub.stop()

    async def run(action: Callable[[Session], Any]) -> Any:
        future = seam.submit(action)
        try:
            return await asyncio.wait_for(asyncio.wrap_future(future), ACTION_TIMEOUT_S)
        except (ValueError, LookupError) as exc:
            raise Refused(409, str(exc)) from None
        except TimeoutError:
            raise Refused(503, "the board did not answer in time; try again") from None

    def same_origin(request: Request) -> None:
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

    def paired(request: Request) -> None:
        same_origin(request)
        if not pairing.allowed(_cookie(request)):
            raise Refused(403, "this browser is not paired with the board: pair it first (Pair button)")

    async def body(request: Request, fields: Mapping[str, schema.Field]) -> dict[str, Any]:
        """The body as an object of ``fields`` (the Guard has bounded its size already)."""
        return schema.check(schema.parse_json(await request.body()), fields)

    def client(request: Request) -> str:
        return client_key(request.client.host if request.client else None)

    def guarded(handler: Callable[[Request], Awaitable[Response]]) -> Callable[[Request], Awaitable[Response]]:
        async def endpoint(request: Request) -> Response:
            try:
                return await handler(request)
            except Refused as exc:
                return _error(exc.status, exc.message)
            except BadInput as exc:
                return _error(exc.status, str(exc))

        return endpoint

    # -- watching -------------------------------------------------------------------------

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    async def api_game(request: Request) -> Response:
        return JSONResponse(game_json(seam.view))

    async def api_state(request: Request) -> Response:
        return Response(hub.text(), media_type="application/json")

    async def api_events(request: Request) -> Response:
        queue: asyncio.Queue[str | None] = asyncio.Queue(maxsize=2)
        hub.queues.add(queue)

        async def stream() -> AsyncIterator[str]:
            try:
                yield f"event: state\ndata: {hub.text()}\n\n"
                while not hub.closing:
                    data = await queue.get()
                    if data is None:  # the server is stopping
                        return
                    yield f"event: state\ndata: {data}\n\n"
            finally:
                hub.queues.discard(queue)

        return StreamingResponse(
            stream(), media_type="text/event-stream", headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        )

    def _ply(request: Request) -> int | None:
        text = schema.query(request.query_params, "ply", schema.PLY)
        return None if text is None else int(text)

    async def api_position(request: Request) -> Response:
        view = seam.view
        if view is None or view.snapshot is None:
            raise Refused(404, "no game is being played: the set-up menu is up")
        try:
            game = position_after(list(view.turns), _ply(request), view.snapshot.profile)
        except ValueError as exc:
            raise Refused(400, str(exc)) from None
        return Response(picture(game, profile=view.snapshot.profile, palette=palette), media_type="image/svg+xml")

    # -- review ----------------------------------------------------------------------------

    def _record(record_id: str) -> Any:
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
        record = _record(request.path_params["id"])
        return JSONResponse({"id": record.id, "tags": record.tags, "turns": record.turns})

    async def api_record_picture(request: Request) -> Response:
        record = _record(request.path_params["id"])
        profile = record.tags.get("Profile", "standard")
        try:
            game = position_after(record.turns, _ply(request), profile)
        except ValueError as exc:
            raise Refused(422, f"record {record.id}: {exc}") from None
        return Response(picture(game, profile=profile, palette=palette), media_type="image/svg+xml")

    async def api_record_download(request: Request) -> Response:
        record = _record(request.path_params["id"])
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

    # -- pairing ---------------------------------------------------------------------------

    def _with_token(response: Response, token: str) -> Response:
        response.set_cookie(COOKIE, token, httponly=True, samesite="strict", max_age=400 * 24 * 3600, path="/")
        return response

    def _cookie(request: Request) -> str | None:
        token = request.cookies.get(COOKIE)
        return token if token and len(token) <= 100 else None

    async def api_pair_state(request: Request) -> Response:
        return JSONResponse(
            {
                "paired": pairing.allowed(_cookie(request)),
                "pin": pairing.has_pin,
                "buttons": len(buttons) >= 2,
                "asking": pairing.asking(),
            }
        )

    async def api_pair(request: Request) -> Response:
        same_origin(request)
        data = await body(request, PAIR_BODY)
        who = client(request)
        if "pin" in data:
            answer = pairing.by_pin(data["pin"], who)
            if answer.token is None:
                raise Refused(answer.status, answer.message)
            log.info("a browser at %s was paired with the PIN", who)
            return _with_token(JSONResponse({"paired": True}), answer.token)
        ask = pairing.ask(who, buttons)
        if ask is None:
            raise Refused(
                409, "this board has fewer than two buttons to type a pairing code: pair with the PIN ([web] pin)"
            )

        def blink(session: Session) -> None:
            for ticket in ask.dropped:
                session.cancel_pairing(ticket)
            session.ask_pairing(ask.ticket, ask.code, ASK_SECONDS)

        await run(blink)
        quiet.say("pair-ask", logging.INFO, "web: %s asks to pair; the board blinks", who)
        words = [BUTTON_WORDS.get(b, b) for b in ask.code]
        return JSONResponse(
            {"request": ask.rid, "code": list(ask.code), "words": words, "seconds": ASK_SECONDS}, status_code=202
        )

    async def api_pair_claim(request: Request) -> Response:
        same_origin(request)
        data = await body(request, CLAIM_BODY)
        if "request" not in data:
            raise BadInput("is missing: give the request id the pairing answer returned", field="request")
        granted = seam.view.granted if seam.view is not None else ()
        token = pairing.claim(data["request"], granted)
        if token is None:
            if not pairing.waiting(data["request"]):
                raise Refused(410, "the pairing request ran out or is unknown: ask again")
            return JSONResponse({"paired": False, "waiting": True}, status_code=202)
        log.info("a browser at %s was paired with the board's buttons", client(request))
        return _with_token(JSONResponse({"paired": True}), token)

    async def api_unpair(request: Request) -> Response:
        same_origin(request)
        await body(request, {})
        pairing.forget(_cookie(request))
        response = JSONResponse({"paired": False})
        response.delete_cookie(COOKIE, path="/", httponly=True, samesite="strict")
        return response

    # -- control ---------------------------------------------------------------------------

    async def api_action(request: Request) -> Response:
        paired(request)
        data = schema.parse_json(await request.body())
        if not isinstance(data, dict) or "do" not in data:
            schema.check(data, {"do": DO}, required=("do",))  # says what is wrong
        what = DO.check("do", data["do"])
        data = schema.check(data, ACTION_BODIES[what])
        if what in BUTTON_ACTIONS:
            name = BUTTON_ACTIONS[what]
            await run(lambda s: _press_in_game(s, what, name))
        elif what == "new":
            base = seam.view.settings if seam.view is not None else GameSettings()
            if "profile" in data and data["profile"] not in tuple(PROFILES):
                raise BadInput(f"must be one of {', '.join(tuple(PROFILES))}; got {data['profile']!r}", field="profile")
            try:
                settings = replace(base, **{k: data[k] for k in ("mode", "human", "level", "profile") if k in data})
            except (TypeError, ValueError) as exc:
                raise Refused(400, f"new game: {exc}") from None
            await run(lambda s: s.new_game(settings))
        elif what == "menu":
            await run(lambda s: s.open_menu())
        elif what == "brightness":
            value = data.get("value")
            await run(lambda s: s.set_brightness(value))  # type: ignore[arg-type]  # it checks the value
        return JSONResponse({"done": what})

    async def api_hand(request: Request) -> Response:
        if not board or seam.hand is None:
            raise Refused(404, "this board has real men: the page can only be the board in the simulator (--no-window)")
        paired(request)
        data = await body(request, HAND_BODY)
        if "do" not in data:
            raise BadInput("is missing", field="do")
        hand = seam.hand
        await run(lambda s: hand.act(data))
        return JSONResponse({"hand": "done"})

    routes = [
        Route("/", guarded(index)),
        Route("/api/game", guarded(api_game)),
        Route("/api/state", guarded(api_state)),
        Route("/api/events", guarded(api_events)),
        Route("/api/position", guarded(api_position)),
        Route("/api/records", guarded(api_records)),
        Route("/api/records/{id}", guarded(api_record)),
        Route("/api/records/{id}/picture", guarded(api_record_picture)),
        Route("/api/records/{id}/download", guarded(api_record_download)),
        Route("/api/pair", guarded(api_pair_state), methods=["GET"]),
        Route("/api/pair", guarded(api_pair), methods=["POST"]),
        Route("/api/pair/claim", guarded(api_pair_claim), methods=["POST"]),
        Route("/api/unpair", guarded(api_unpair), methods=["POST"]),
        Route("/api/action", guarded(api_action), methods=["POST"]),
        Route("/api/hand", guarded(api_hand), methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan, middleware=[Middleware(Guard, rates=rates)])
    app.state.hub = hub
    app.state.pairing = pairing
    return app


def _press_in_game(session: Session, what: str, button: str) -> None:
    """A game button: it needs a game (in the set-up menu it would mean something else)."""
    if session.menu is not None or session.controller is None:
        raise ValueError(f"{what}: no game is being played (the set-up menu is up)")
    game = session.controller.game
    if what in ("resign", "draw") and game.outcome is not None:
        raise ValueError(f"{what}: the game is already over ({game.outcome})")
    if what == "hint":  # the board ignores a hint it cannot give; the page says why
        tracker = session.controller.tracker
        if game.outcome is not None:
            raise ValueError(f"hint: the game is over ({game.outcome})")
        if game.turn == tracker.computer:
            raise ValueError("hint: it is the computer's turn")
        if tracker.resync:
            raise ValueError("hint: put the board right first, as the lights show")
    session.press(button)
