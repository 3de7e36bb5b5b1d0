"""What a paired browser may change: the board's buttons and menu (``/api/action``), and the page
as the board (``/api/hand``)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from morris_pi.core.assist import Assistance
from morris_pi.core.menu import MODES, GameSettings
from morris_pi.core.session import Session
from morris_pi.rules import PROFILES, SIDES

from .. import schema
from ..schema import BadInput, Integer, Number, Text
from .common import Context, Refused, guarded

#: The buttons a page may press, by the API's name (the board's own names).
BUTTON_ACTIONS: dict[str, str] = {"hint": "hint", "takeback": "undo", "resign": "resign", "draw": "draw"}

DO = Text(choices=(*BUTTON_ACTIONS, "new", "menu", "start", "choose", "flag", "brightness", "playon"))
#: One player's assistance as the page sends it: ``Assistance``'s text form ("targets warn hints=3", "plain").
ASSIST = Text(pattern=r"[a-z0-9= ]{1,40}", max_len=40, says="assistance such as 'targets warn hints=3' or 'plain'")
#: A Sanmill FEN: 24 points, side, phase, action and counts.
FEN = Text(pattern=r"[O@*X/ a-z0-9-]{20,100}", max_len=100, says="a Sanmill FEN")
POINT = Text(pattern=r"[a-g][1-7]", max_len=2, says="a point like d6")
#: A two-player clock as the page sends it ("" for none): ``TimeControl.parse`` checks the rest.
CLOCK_PATTERN = r"|[0-9]{1,3}(\.[0-9]{1,2})?(\+[0-9]{1,3})?"
#: The body of ``/api/action`` for each ``do``.
ACTION_BODIES: dict[str, dict[str, schema.Field]] = {
    **{name: {"do": DO} for name in (*BUTTON_ACTIONS, "menu", "start", "flag", "playon")},
    "new": {
        "do": DO,
        "mode": Text(choices=MODES),
        "human": Text(choices=SIDES),
        "level": Integer(1, 10),
        "profile": Text(pattern=r"[a-z0-9-]{1,24}", says="a rules profile name"),
        "clock": Text(pattern=CLOCK_PATTERN, max_len=12, says="minutes, or minutes+seconds a turn, like 5+3"),
        "assist_white": ASSIST,
        "assist_black": ASSIST,
        "fen": Text(pattern=r"|[O@*X/ a-z0-9-]{20,100}", max_len=100, says="a Sanmill FEN, or nothing"),
    },
    "choose": {"do": DO, "point": POINT},
    "brightness": {"do": DO, "value": Number()},
}
HAND_BODY: dict[str, schema.Field] = {
    "do": Text(choices=("place", "lift", "put", "drop", "cancel", "clear", "setup", "computer")),
    "point": Text(pattern=r"[a-g][1-7]", max_len=2, says="a point like d6"),
    "colour": Text(choices=SIDES),
}


def routes(context: Context) -> list[BaseRoute]:
    seam = context.seam

    async def api_action(request: Request) -> Response:
        context.paired(request)
        data = schema.parse_json(await request.body())
        if not isinstance(data, dict) or "do" not in data:
            schema.check(data, {"do": DO}, required=("do",))  # says what is wrong
        what = DO.check("do", data["do"])
        data = schema.check(data, ACTION_BODIES[what])
        if what in BUTTON_ACTIONS:
            name = BUTTON_ACTIONS[what]
            await context.run(lambda s: press_in_game(s, what, name))
        elif what == "new":
            base = seam.view.settings if seam.view is not None else GameSettings()
            if "profile" in data and data["profile"] not in tuple(PROFILES):
                raise BadInput(f"must be one of {', '.join(tuple(PROFILES))}; got {data['profile']!r}", field="profile")
            chosen: dict[str, Any] = {k: data[k] for k in ("mode", "human", "level", "profile") if k in data}
            if "clock" in data:
                chosen["clock"] = data["clock"] or None  # "" : no clock
            assist = base.assist
            for side in SIDES:
                if f"assist_{side}" in data:
                    try:
                        assist = assist.with_side(side, Assistance.parse(data[f"assist_{side}"]))
                    except ValueError as exc:
                        raise BadInput(str(exc), field=f"assist_{side}") from None
            chosen["assist"] = assist
            try:
                settings = replace(base, **chosen)
            except (TypeError, ValueError) as exc:
                raise Refused(400, f"new game: {exc}") from None
            fen = data.get("fen") or None
            if fen is not None:
                await context.run(lambda s: s.set_up(fen, settings))  # a bad FEN: 400, naming its field
            else:
                await context.run(lambda s: s.new_game(settings))
        elif what == "playon":
            await context.run(play_on)
        elif what == "menu":
            await context.run(lambda s: s.open_menu())
        elif what == "start":
            await context.run(start_menu)
        elif what == "choose":
            point = data.get("point")
            if point is None:
                raise BadInput("is missing: give the point to choose, like d6", field="point")
            await context.run(lambda s: s.choose(point))
        elif what == "flag":
            await context.run(lambda s: s.end_on_time())
        elif what == "brightness":
            value = data.get("value")
            await context.run(lambda s: s.set_brightness(value))  # type: ignore[arg-type]  # it checks the value
        return JSONResponse({"done": what})

    async def api_hand(request: Request) -> Response:
        if not context.board or seam.hand is None:
            raise Refused(404, "this board has real men: the page can only be the board in the simulator (--no-window)")
        context.paired(request)
        data: dict[str, Any] = await context.body(request, HAND_BODY)
        if "do" not in data:
            raise BadInput("is missing", field="do")
        hand = seam.hand
        await context.run(lambda s: hand.act(data, s))
        return JSONResponse({"hand": "done"})

    return [
        Route("/api/action", guarded(api_action), methods=["POST"]),
        Route("/api/hand", guarded(api_hand), methods=["POST"]),
    ]


def press_in_game(session: Session, what: str, button: str) -> None:
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
        if session.controller.hints_left()[game.turn] == 0:
            limit = session.controller.assists.of(game.turn).hints
            raise ValueError(
                f"hint: {game.turn} has no hints this game"
                if limit == 0
                else f"hint: {game.turn} has used all {limit} hints"
            )
    session.command(button)


def play_on(session: Session) -> None:
    """The player saw the blunder warning and plays on."""
    controller = session.controller
    if session.menu is not None or controller is None or not controller.play_on():
        raise ValueError("play on: no blunder warning is showing")


def start_menu(session: Session) -> None:
    """Start the game the set-up menu shows (its start point, or the ``new`` button there)."""
    if session.menu is None:
        raise ValueError("start: the set-up menu is not up")
    session.command("new")
