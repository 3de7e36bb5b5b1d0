"""``morris-pi sim --web``: the command's refusals, and the page as the board without pygame."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("starlette")

from morris_pi.cli import main

REPO = Path(__file__).resolve().parents[1]

# the command as a user runs it, with pygame made unimportable: --no-window must not need it
# The command is stopped with Ctrl-C (SIGINT) as from a terminal. A suite run as a background
# job inherits SIGINT ignored (POSIX shells ignore it for asynchronous lists), and so would
# the command: its handler is put back first.
NO_PYGAME = """
import signal, sys
signal.signal(signal.SIGINT, signal.default_int_handler)
sys.modules["pygame"] = None
from morris_pi.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_no_window_needs_web(capsys):
    assert main(["sim", "--no-window"]) == 2
    assert "--no-window needs --web HOST:PORT" in capsys.readouterr().err


@pytest.mark.parametrize("address", ["x:y", "127.0.0.1:0", "127.0.0.1:70000", ""])
def test_a_bad_web_address_is_one_sentence(address, capsys):
    assert main(["sim", "--web", address, "--no-window"]) == 2
    assert "--web must look like HOST:PORT or PORT" in capsys.readouterr().err


def test_a_port_in_use_is_refused_in_one_line(capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["sim", "--web", f"127.0.0.1:{port}", "--no-window", "--mode", "two-player"]) == 2
    err = capsys.readouterr().err
    assert f"cannot listen on 127.0.0.1:{port}" in err and "Traceback" not in err


def test_the_page_is_the_board_without_pygame():
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-c", NO_PYGAME, "sim", "--web", str(port), "--no-window", "--mode", "two-player"],
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        line = proc.stderr.readline()  # the command says where the page is once it listens
        assert f"the board is the page at http://127.0.0.1:{port}/" in line, line
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=10) as answer:
            state = json.loads(answer.read())
        assert state["hand"]["in_hand"] == {"white": 9, "black": 9} and state["game"]["turn"] == "white"
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as answer:
            assert b"morris-pi" in answer.read()
    finally:
        proc.send_signal(signal.SIGINT)
        rest = proc.communicate(timeout=20)[1]
    assert proc.returncode == 130 and "stopped" in rest and "Traceback" not in rest


def test_the_window_and_the_page_share_one_session(tmp_path):
    """``sim --web`` with the window: the mouse moves the men, the page sees it and its actions run
    in the window's own step (the same ``GameSession``, on the window's manual clock here)."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    pytest.importorskip("pygame")
    from morris_pi.core.ports import FirstLegalOpponent, ManualClock
    from morris_pi.sim.app import SimApp
    from morris_pi.sim.backends import SimBoard
    from morris_pi.sim.browser import serve_beside
    from morris_pi.sim.play import GameSession, SimSettings

    board = SimBoard(clock=ManualClock())
    game = GameSession(
        board, SimSettings(mode="two-player", seed=1), opponent_factory=lambda level: FirstLegalOpponent()
    )
    server = serve_beside(game, "127.0.0.1", 0, board=False, pin="471108")
    app = SimApp(board, game, size=(1100, 760))

    def settle() -> None:
        for _ in range(8):
            board.clock.advance(0.1)
            app.update()

    try:
        app.update()
        app.drag(app.tray_pos("hand", "white"), app.point_pos("d6"))
        settle()
        assert game.seam.view.turns == ("d6",)
        with urllib.request.urlopen(f"http://127.0.0.1:{server.port}/api/game", timeout=10) as answer:
            assert json.loads(answer.read())["record"] == "d6"
        done = game.seam.submit(lambda s: s.press("undo"))  # what POST /api/action takeback submits
        assert game.busy  # the window's loop steps at once when the page asks
        app.update()
        done.result(1)
        settle()
        assert game.seam.view.turns == ()
        assert server.url.startswith("http://127.0.0.1:")
    finally:
        server.close()
        game.close()
        app.close()
