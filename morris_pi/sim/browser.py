"""The simulated board played from a web page: ``morris-pi sim --web HOST:PORT [--no-window]``.

With a window, the page is served beside it (watch, review, control). With
``--no-window`` the page is the board: its clicks move men with the same
``Hand`` the window's mouse moves, the same ``SimSensors`` read them, and the
same ``GameSession`` (the board's ``Session``) plays. No pygame is needed then.

``BrowserHand`` turns the page's clicks into hand movements; it runs in the
board loop's thread (the seam runs it there), holding the board's lock as the
window does.

>>> from morris_pi.core.ports import ManualClock
>>> board = SimBoard(clock=ManualClock())
>>> hand = BrowserHand(board)
>>> hand.act({"do": "place", "point": "d6", "colour": "white"}); sorted(board.sensors.read())
['d6']
>>> hand.act({"do": "lift", "point": "d6"}); hand.state()["held"]
{'colour': 'white', 'source': ['point', 'd6']}
>>> hand.act({"do": "put", "point": "a9"})
Traceback (most recent call last):
...
morris_pi.sim.hand.HandError: unknown point 'a9'
"""

from __future__ import annotations

import logging
import sys
import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from morris_pi.core.ports import BUTTONS
from morris_pi.rules import Turn, get_profile
from morris_pi.web.seam import BoardSeam
from morris_pi.web.server import WebServer

from .backends import SimBoard
from .hand import SIDES, HandError
from .play import GameSession

log = logging.getLogger("morris_pi.sim")


class BrowserHand:
    """The page's hand on a ``SimBoard``: place, lift, put, drop (off the board) and cancel."""

    def __init__(self, board: SimBoard) -> None:
        self.board = board
        #: Grows with every movement (the seam publishes the men's new places).
        self.version = 0

    def act(self, data: Mapping[str, Any], session: Any = None) -> None:
        """One movement, as the page sends it; ``HandError`` (a ``ValueError``) says why it cannot be.

        ``clear`` takes every man off into its colour's tray, as before a new game; ``setup``
        stands the men where ``session``'s game has them (after a takeback, a resumed game or a
        mess: the corrections all at once), with the trays as the game counts them."""
        what = data.get("do")
        point = data.get("point")
        hand = self.board.hand
        with self.board.lock:
            if what == "clear":
                hand.sweep()
            elif what == "setup":
                game = getattr(getattr(session, "controller", None), "game", None)
                if game is None or getattr(session, "menu", None) is not None:
                    raise HandError("setup: no game is being played (the set-up menu is up)")
                hand.set_up(game.board, game.in_hand)
            elif what == "computer":
                self._computer_turn(hand, session)
            elif what == "place":
                colour = data.get("colour")
                if colour not in SIDES:
                    raise HandError(f"place: colour must be 'white' or 'black', got {colour!r}")
                hand.place(_point(point), colour)
            elif what == "lift":
                hand.take("point", _point(point))
            elif what == "put":
                if not hand.put(_point(point)):
                    raise HandError(f"{point} is occupied; the man went back where it came from")
            elif what == "drop":
                hand.drop_off()
            elif what == "cancel":
                if hand.held:
                    hand.cancel()
            else:
                raise HandError(
                    f"unknown hand movement {what!r}: place, lift, put, drop, cancel, clear, setup or computer"
                )
            self.version += 1

    @staticmethod
    def _computer_turn(hand: Any, session: Any) -> None:
        """Carry out the computer's prompted turn with the hand, as a person at the board would."""
        controller = getattr(session, "controller", None)
        snap = controller.snapshot() if controller is not None and getattr(session, "menu", None) is None else None
        if snap is None or snap.computer is None:
            raise HandError("the computer has no turn waiting to be made")
        turn = Turn.parse(snap.computer)
        colour = snap.computer_side or snap.turn
        if hand.held:
            hand.cancel()
        if turn.origin is None:
            hand.place(turn.target, colour)
        else:
            hand.move(turn.origin, turn.target)
        if turn.removal is not None:
            hand.remove(turn.removal)

    def state(self) -> dict[str, Any]:
        """The men where they stand, the trays and the held man (JSON-able)."""
        hand = self.board.hand
        with self.board.lock:
            held = None if hand.held is None else {"colour": hand.held.colour, "source": list(hand.held.source)}
            return {
                "board": dict(hand.board),
                "in_hand": dict(hand.in_hand),
                "removed": dict(hand.removed),
                "held": held,
                "men": hand.men,
            }


def _point(value: object) -> str:
    if not isinstance(value, str):
        raise HandError(f"a point is a name like 'd6', got {value!r}")
    return value


def serve_beside(
    game: Any, host: str, port: int, *, board: bool, pin: str | None = None, trust_loopback: bool = True
) -> Any:
    """Start the web page for ``game`` (a ``GameSession``); returns the running ``WebServer``.

    A page on this machine (loopback) plays and controls the simulator without pairing: whoever
    reaches its loopback address sits at it. A page from the LAN (``--web 0.0.0.0:PORT``) pairs,
    by PIN when the page is the board (there are no buttons to type a code on), else by a code
    typed on the window's keys. ``trust_loopback=False`` makes every page pair (as the tests of
    pairing do)."""
    seam = BoardSeam(game.session, hand=BrowserHand(game.board) if board else None)
    server = WebServer(
        seam,
        host,
        port,
        storage=game.session.storage,
        clock=game.board.clock,
        palette=game.settings.palette,
        board=board,
        pin=pin,
        buttons=() if board else BUTTONS,  # without a window there are no buttons to press
        trust_loopback=trust_loopback,
    )
    game.seam = seam
    seam.publish()
    return server.start()


def play_in_browser(
    settings: Any,
    host: str,
    port: int,
    *,
    trace_path: str | Path | None = None,
    stop: Callable[[], bool] | None = None,
    ready: Callable[[Any, Any], None] | None = None,
    board_page: bool = True,
    pin: str | None = None,
    opponent_factory: Callable[[int], Any] | None = None,
    trust_loopback: bool = True,
) -> int:
    """Play with the page as the board until ``stop()`` (or Ctrl-C); returns the exit code.

    ``board_page=False`` serves the page for watching only (the men move some other way:
    scripts and tests move them with ``board.hand``); ``ready(server, game)`` is called once
    the page is served."""
    board = SimBoard(men=get_profile(settings.profile).men)
    game = GameSession(board, settings, opponent_factory=opponent_factory)
    stop = stop or (lambda: False)
    try:
        server = serve_beside(game, host, port, board=board_page, pin=pin, trust_loopback=trust_loopback)
    except BaseException:
        game.close()
        raise
    what = "the board is the page" if board_page else "the page is"
    print(f"morris-pi sim: {what} at {server.url} (Ctrl-C ends it)", file=sys.stderr)
    if ready is not None:
        ready(server, game)
    seam = game.seam
    assert seam is not None, "serve_beside attaches the seam"
    try:
        while not stop():
            game.step()
            now = board.clock.now()
            due = [t for t in (game.next_wakeup(), board.next_change()) if t is not None]
            timeout = min([1.0, *(t - now for t in due)])
            if game.busy:
                timeout = min(timeout, 0.02)  # the computer's answer is polled, as the window does
            seam.wait(max(0.0, timeout))
    finally:
        server.close()
        game.close()
        if trace_path:
            for path, events in board.recorder.save(trace_path):
                print(f"morris-pi sim: saved {events} sensor events to {path}", file=sys.stderr)
    return 0


def run_in_thread(
    settings: Any, host: str = "127.0.0.1", port: int = 0, **options: Any
) -> tuple[Any, Any, Callable[[], None]]:
    """``play_in_browser`` in a thread (for tests and benchmarks): returns the server once it listens,
    the ``GameSession`` and a function that stops both."""
    stopping = threading.Event()
    started: list[Any] = []
    up = threading.Event()
    failed: list[BaseException] = []

    def ready(server: Any, game: Any) -> None:
        started.append((server, game))
        up.set()

    def main() -> None:
        try:
            play_in_browser(settings, host, port, stop=stopping.is_set, ready=ready, **options)
        except BaseException as exc:
            failed.append(exc)
            up.set()

    thread = threading.Thread(target=main, name="morris-pi-sim-browser", daemon=True)
    thread.start()
    up.wait(30)
    if failed:
        raise failed[0]
    server, game = started[0]
    server.started()

    def halt() -> None:
        stopping.set()
        server.app.state.hub.seam.wake()
        thread.join(10)

    return server, game, halt
