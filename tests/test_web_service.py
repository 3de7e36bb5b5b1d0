"""``morris-pi run`` with ``[web] enabled``: the real service loop over emulated hardware serves
the page; its menu button pairs a browser, and the page's actions run in the board's loop."""

from __future__ import annotations

import json
import logging
import socket
import threading
import urllib.error
import urllib.request

import pytest

pytest.importorskip("starlette")

from service_harness import FakeBoard
from test_service import config

from morris_pi.config.loader import parse_config
from morris_pi.config.values import ConfigError
from morris_pi.core.session import PAIRING_PATTERN


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Page:
    """A browser's requests to the board (urllib, with the page's own Origin and its cookie)."""

    def __init__(self, port: int) -> None:
        self.base = f"http://127.0.0.1:{port}"
        self.cookie = ""

    def get(self, path: str) -> dict:
        with urllib.request.urlopen(self.base + path, timeout=10) as answer:
            return json.loads(answer.read())

    def post(self, path: str, data: dict, board: FakeBoard | None = None) -> tuple[int, dict]:
        """POST; with ``board``, the board's loop runs (on its manual clock) until the answer comes."""
        request = urllib.request.Request(
            self.base + path,
            data=json.dumps(data).encode(),
            method="POST",
            headers={"Content-Type": "application/json", "Origin": self.base, "Cookie": self.cookie},
        )
        out: list = []

        def send() -> None:
            try:
                with urllib.request.urlopen(request, timeout=10) as answer:
                    out.append((answer.status, json.loads(answer.read()), answer.headers.get("Set-Cookie")))
            except urllib.error.HTTPError as exc:
                out.append((exc.code, json.loads(exc.read()), None))

        thread = threading.Thread(target=send)
        thread.start()
        while thread.is_alive():
            if board is not None:
                board.run(0.05)
            thread.join(0.01 if board is not None else 10)
        status, body, cookie = out[0]
        if cookie:
            self.cookie = cookie.split(";")[0]
        return status, body


@pytest.fixture
def web_board(tmp_path):
    port = free_port()
    text = config(tmp_path, mode="two-player", extra=f'[web]\nenabled = true\nhost = "127.0.0.1"\nport = {port}\n')
    board = FakeBoard(text).start()
    board.run(0.5)
    yield board, Page(port)
    board.stop()


def test_the_service_serves_the_game_and_its_buttons_pair_a_browser(web_board):
    board, page = web_board
    board.put("d6")
    game = page.get("/api/game")
    assert game["record"] == "d6" and game["turn"] == "black"
    status, body = page.post("/api/action", {"do": "takeback"}, board)
    assert status == 403 and "not paired" in body["error"]
    status, body = page.post("/api/pair", {}, board)
    assert status == 202
    board.run(0.3)
    seen = board.seen(1.0)
    assert set(PAIRING_PATTERN) <= set(seen)  # the board blinks the pairing pattern on its LEDs
    board.press("menu")  # one press, meant for anything: it pairs nobody
    status, _ = page.post("/api/pair/claim", {"request": body["request"]}, board)
    assert status == 202
    for name in body["code"]:  # the code only the asking page shows, typed on the board's buttons
        board.press(name)
    status, _ = page.post("/api/pair/claim", {"request": body["request"]}, board)
    assert status == 200 and page.cookie
    status, _ = page.post("/api/action", {"do": "takeback"}, board)
    assert status == 200
    board.take("d6")
    assert page.get("/api/game")["record"] == ""
    assert board.session.state == "game"  # the presses paired; they did not open the menu


def test_a_service_running_as_root_serves_no_page_and_says_why(tmp_path, caplog, monkeypatch):
    from morris_pi.web import server

    monkeypatch.setattr(server, "geteuid", lambda: 0)  # the root drop-in of the PWM LED driver
    port = free_port()
    text = config(tmp_path, mode="two-player", extra=f'[web]\nenabled = true\nhost = "127.0.0.1"\nport = {port}\n')
    caplog.set_level(logging.INFO)
    board = FakeBoard(text).start()
    try:
        board.run(0.5)
        board.put("d6")
        assert board.session.snapshot().record == "d6"
        with socket.socket() as probe:
            assert probe.connect_ex(("127.0.0.1", port)) != 0  # nothing listens
    finally:
        board.stop()
    assert "web: not served while the service runs as root" in caplog.text


def test_a_port_in_use_leaves_the_board_playing_and_says_why(tmp_path, caplog):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        text = config(tmp_path, mode="two-player", extra=f'[web]\nenabled = true\nhost = "127.0.0.1"\nport = {port}\n')
        caplog.set_level(logging.INFO)
        board = FakeBoard(text).start()
        try:
            board.run(0.5)
            board.put("d6")
            assert board.session.snapshot().record == "d6"
        finally:
            board.stop()
    assert f"web: cannot listen on 127.0.0.1:{port}" in caplog.text
    assert "plays on without its web page" in caplog.text


@pytest.mark.parametrize(
    "line, message",
    [
        ("port = 0", "test.toml:3: web.port: must be between 1 and 65535, got 0"),
        ('port = "80"', "test.toml:3: web.port: must be an integer, got a string"),
        ("enabled = 1", "test.toml:3: web.enabled: must be true or false, got an integer"),
        ("pin = 471108", "test.toml:3: web.pin: must be 6 to 12 digits 0-9 in quotes"),
        ('pin = "12a456"', "test.toml:3: web.pin: must be 6 to 12 digits 0-9 in quotes"),
        ('pin = "4711"', "test.toml:3: web.pin: must be 6 to 12 digits 0-9 in quotes"),
        ('pin = "\u0664\u0667\u0661\u0661\u0660\u0668"', "test.toml:3: web.pin: must be 6 to 12 digits 0-9"),
        ('pin = "²³⁴⁵⁶⁷"', "test.toml:3: web.pin: must be 6 to 12 digits 0-9"),
        ('host = ""', "test.toml:3: web.host: must be an IP address or host name"),
        ('hots = "x"', "test.toml:3: web.hots: unknown key in [web]"),
    ],
)
def test_web_config_errors_name_file_line_and_key(line, message):
    with pytest.raises(ConfigError) as caught:
        parse_config(f"# the page\n[web]\n{line}\n", "test.toml")
    assert str(caught.value).startswith(message), str(caught.value)


def test_web_config_defaults_and_the_pin_stays_out_of_reprs():
    web = parse_config('[web]\nenabled = true\npin = "471108"\n', "test.toml").web
    assert (web.enabled, web.host, web.port, web.pin) == (True, "0.0.0.0", 8080, "471108")
    assert "471108" not in repr(web) and "471108" not in repr(parse_config('[web]\npin = "471108"\n'))
    assert parse_config("").web.enabled is False
