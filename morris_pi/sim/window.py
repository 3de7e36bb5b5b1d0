"""The simulator in its window: the game session in pygame, with the web page beside it if asked.

Importing this module imports pygame (the ``sim`` extra); ``morris-pi sim`` imports it only
once it has checked that pygame is there.
"""

from __future__ import annotations

import sys
from pathlib import Path

from morris_pi.rules import get_profile

from .app import SimApp
from .backends import SimBoard
from .browser import serve_beside
from .play import GameSession, SimSettings


def play_in_window(
    settings: SimSettings,
    *,
    size: tuple[int, int] = (1100, 760),
    trace_path: str | Path | None = None,
    web: tuple[str, int] | None = None,
    pin: str | None = None,
) -> int:
    """Open the window and play until it is closed; ``web`` (host, port) serves the page beside it."""
    board = SimBoard(men=get_profile(settings.profile).men)
    game = GameSession(board, settings)
    server = None
    try:
        if web is not None:  # first: a port in use is refused before a window opens
            server = serve_beside(game, *web, board=False, pin=pin)
            print(f"morris-pi sim: the page is at {server.url}", file=sys.stderr)
        app = SimApp(board, game, size=size, trace_path=trace_path)
    except BaseException:  # no display: the computer player's thread must not outlive the refusal
        if server is not None:
            server.close()
        game.close()
        raise
    try:
        return app.run()
    finally:
        if server is not None:
            server.close()
        game.close()
        app.close()
