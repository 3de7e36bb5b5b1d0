"""The web page against a hostile or clumsy client on the LAN: each case that once crashed the
board, stopped it saving, hijacked pairing or ran script is refused or survived.

The socket cases run the real server (uvicorn, the guarded protocol) on loopback, with short
timeouts so that a test waits for the server to close a socket, never for a fixed time. A
second client address is 127.0.0.2 (all of 127.0.0.0/8 is loopback on Linux).
"""

from __future__ import annotations

import logging
import socket

import pytest

pytest.importorskip("starlette")

from web_kit import ORIGIN, WebBoard

from morris_pi.web.connections import SocketCounts
from morris_pi.web.limits import CSP, MAX_BODY
from morris_pi.web.pairing import LOCK_AFTER, overlaps
from morris_pi.web.server import WebServer

PIN = "471108"


# -- the real server on loopback ---------------------------------------------------------


class LiveBoard:
    """A ``WebBoard`` served by the real ``WebServer`` on a free loopback port."""

    def __init__(self, board: WebBoard, counts: SocketCounts, pin: str | None = None) -> None:
        self.board = board
        self.server = WebServer(board.seam, "127.0.0.1", 0, clock=board.clock, pin=pin, limits=counts).start()
        assert self.server.started()
        self.port = self.server.port
        self.counts = counts

    def connect(self, source: str = "127.0.0.1") -> socket.socket:
        sock = socket.socket()
        sock.bind((source, 0))
        sock.settimeout(10)
        sock.connect(("127.0.0.1", self.port))
        return sock

    def request(self, raw: bytes, source: str = "127.0.0.1") -> bytes:
        with self.connect(source) as sock:
            sock.sendall(raw)
            return read_all(sock)


def read_all(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the socket (or resets it)."""
    out = b""
    try:
        while chunk := sock.recv(65536):
            out += chunk
    except ConnectionResetError:
        pass
    return out


def closed_by_server(sock: socket.socket) -> bool:
    """Block until the server closes ``sock``; whether it did (rather than the 10 s timeout)."""
    try:
        read_all(sock)
    except TimeoutError:
        return False
    return True


def get(path: str, host: str = "127.0.0.1") -> bytes:
    return f"GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode()


@pytest.fixture
def live():
    counts = SocketCounts(max_sockets=24, per_client=4, request_timeout_s=0.5, stalled_write_s=1.0)
    with WebBoard(pin=PIN) as board:
        served = LiveBoard(board, counts, pin=PIN)
        try:
            yield served
        finally:
            served.server.close()


def test_a_huge_declared_body_is_refused_before_it_is_read(live):
    with live.connect() as sock:
        sock.sendall(
            b"POST /api/pair HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://127.0.0.1\r\n"
            b"Content-Type: application/json\r\nContent-Length: 62914560\r\n\r\n{"
        )
        answer = read_all(sock)
    assert answer.startswith(b"HTTP/1.1 413")
    assert f"at most {MAX_BODY['/api/pair']} bytes".encode() in answer


def test_a_chunked_body_is_cut_off_as_soon_as_it_passes_the_cap(live):
    with live.connect() as sock:
        sock.sendall(
            b"POST /api/action HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://127.0.0.1\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n"
        )
        chunk = b"x" * 512
        sent = 0
        try:
            for _ in range(20_000):  # up to 10 MB; the server closes long before
                sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                sent += len(chunk)
        except (BrokenPipeError, ConnectionResetError):
            pass
        answer = read_all(sock)
    assert answer.startswith(b"HTTP/1.1 413") or answer == b""
    assert sent < 8 * 1024 * 1024  # the server stopped reading


def test_silent_and_trickling_sockets_are_closed_within_the_request_timeout(live):
    silent = live.connect()
    trickle = live.connect()
    trickle.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # and never the blank line
    assert closed_by_server(silent) and closed_by_server(trickle)
    silent.close()
    trickle.close()
    assert live.counts.refused["request too slow"] == 2
    assert live.counts.open == 0


def test_one_client_cannot_fill_the_board_another_is_still_served(live):
    held = [live.connect() for _ in range(live.counts.per_client)]
    try:
        over = live.connect()
        assert closed_by_server(over)  # closed the moment it was accepted
        over.close()
        # event streams count too: this client's slots are full, a second client is served
        answer = live.request(get("/api/game"), source="127.0.0.2")
        assert answer.startswith(b"HTTP/1.1 200")
    finally:
        for sock in held:
            sock.close()
    assert live.counts.refused["socket over the cap"] >= 1


def test_event_streams_of_one_client_cannot_shut_out_the_others(live):
    streams = []
    try:
        for _ in range(live.counts.per_client):
            sock = live.connect()
            sock.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            assert sock.recv(4096).startswith(b"HTTP/1.1 200")
            streams.append(sock)
        answer = live.request(get("/api/state"), source="127.0.0.2")
        assert answer.startswith(b"HTTP/1.1 200") and b'"version"' in answer
    finally:
        for sock in streams:
            sock.close()


def test_a_flood_of_sockets_holds_no_more_than_the_cap(live, caplog):
    caplog.set_level(logging.WARNING)
    socks = []
    try:
        for n in range(300):
            socks.append(live.connect(f"127.0.0.{2 + n % 100}"))
        answer = live.request(get("/api/game"), source="127.0.1.1")
        assert live.counts.open <= live.counts.max_sockets
    finally:
        for sock in socks:
            sock.close()
    assert answer.startswith(b"HTTP/1.1 200") or answer.startswith(b"HTTP/1.1 503") or answer == b""
    refusals = [r for r in caplog.records if "closed the oldest" in r.getMessage()]
    assert 1 <= len(refusals) <= 3  # one line, not one per socket
    assert "Traceback" not in caplog.text


def test_a_client_that_stops_reading_its_event_stream_is_dropped(live):
    sock = live.connect()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    # the board keeps changing (brightness steps are new views) while the client reads nothing
    for n in range(400):
        live.board.seam.submit(lambda s, n=n: s.set_brightness(0.05 + (n % 19) / 20)).result(5)
        live.board.seam.refresh()
        if live.counts.refused["client stopped reading"]:
            break
        live.board.sync()
    sock.close()
    # the stalled write closes it within stalled_write_s of the buffer filling; if the buffers
    # never filled, the stream was simply slow, which is fine too
    assert live.counts.open <= 1


# -- pairing ------------------------------------------------------------------------------


def test_an_unpaired_request_neither_blocks_the_owner_nor_rides_on_the_owners_presses():
    evil, home = ("10.0.0.66", 5000), ("10.0.0.2", 5000)
    with WebBoard() as board:
        board.put("d6")
        attacker = board.post("/api/pair", {}, client=evil).json()
        owner_answer = board.post("/api/pair", {}, client=home)
        assert owner_answer.status_code == 202  # not 409: a waiting request never blocks another
        owner = owner_answer.json()
        assert not overlaps(attacker["code"], owner["code"]) and not overlaps(owner["code"], attacker["code"])
        board.press("menu")  # a press for anything else (the one press that paired, before)
        board.press("hint")
        assert board.post("/api/pair/claim", {"request": attacker["request"]}, client=evil).status_code == 202
        assert board.post("/api/pair/claim", {"request": owner["request"]}, client=home).status_code == 202
        board.press_all(owner["code"])  # after stray presses, the owner types their own code
        assert board.post("/api/pair/claim", {"request": owner["request"]}, client=home).status_code == 200
        stolen = board.post("/api/pair/claim", {"request": attacker["request"]}, client=evil)
        assert stolen.status_code == 202 and "set-cookie" not in stolen.headers
        board.wait_out(61)
        assert board.post("/api/pair/claim", {"request": attacker["request"]}, client=evil).status_code == 410
        # the attacker cannot resign the owner's game; the owner can control it
        assert board.post("/api/action", {"do": "resign"}, client=evil).status_code == 403
        assert board.session.controller.game.outcome is None
        assert board.post("/api/action", {"do": "takeback"}, client=home).status_code == 200


def test_every_prefix_of_stray_presses_then_the_owners_code_grants_only_the_owner():
    """Whatever was pressed before, typing one's own code completes no other waiting code."""
    with WebBoard() as board:
        asks = [board.post("/api/pair", {}, client=(f"10.0.0.{n}", 1)).json() for n in range(2, 9)]
        owner = asks[-1]
        strays = [name for ask in asks[:-1] for name in ask["code"][1:]]  # the worst: ends of the others
        board.press_all(strays[-3:])
        board.press_all(owner["code"])
        assert board.session.pairings == 1 and len(board.session.granted) == 1
        assert board.post("/api/pair/claim", {"request": owner["request"]}, client=("10.0.0.8", 1)).status_code == 200


def test_a_board_with_fewer_than_two_buttons_pairs_by_pin_only():
    with WebBoard(pin=PIN, buttons=("menu",)) as board:
        asked = board.post("/api/pair", {})
        assert asked.status_code == 409 and "pair with the PIN" in asked.json()["error"]
        assert board.client.get("/api/pair").json()["buttons"] is False
        board.pair_with_pin(PIN)


# -- the PIN ------------------------------------------------------------------------------


def test_an_attacker_guessing_all_the_time_never_makes_the_owners_pin_fail():
    with WebBoard(pin=PIN) as board:
        for _ in range(5):
            board.post("/api/pair", {"pin": "123456"}, client=("10.0.0.66", 1))
            board.clock.advance(1.9)
        owner = board.post("/api/pair", {"pin": PIN}, client=("10.0.0.2", 1))
        assert owner.status_code == 200


def test_the_backoff_doubles_per_client_and_the_lockout_says_locked_not_wrong(caplog):
    caplog.set_level(logging.WARNING)
    with WebBoard(pin=PIN) as board:
        attacker = ("10.0.0.66", 1)
        waits = []
        for _ in range(4):
            wrong = board.post("/api/pair", {"pin": "000000"}, client=attacker)
            assert wrong.status_code == 403
            waits.append(wrong.json()["error"].rsplit(" in ", 1)[1])
            early = board.post("/api/pair", {"pin": "000000"}, client=attacker)
            assert early.status_code == 429  # not judged, not counted
            board.clock.advance(2 ** len(waits))
        assert waits == ["1 s", "2 s", "4 s", "8 s"]
        # many devices guessing together lock the PIN for everyone ...
        for n in range(LOCK_AFTER):
            board.post("/api/pair", {"pin": f"{n:06d}"}, client=(f"10.0.1.{n}", 1))
        owner = board.post("/api/pair", {"pin": PIN}, client=("10.0.0.2", 1))
        assert owner.status_code == 429
        assert owner.json()["error"].startswith("the PIN is locked")  # never "wrong PIN" for the right one
        assert "board's buttons" in owner.json()["error"]  # ... and the page says the way around it
        board.clock.advance(15 * 60 + 1)
        assert board.post("/api/pair", {"pin": PIN}, client=("10.0.0.2", 1)).status_code == 200
    wrong_lines = [r for r in caplog.records if "a wrong PIN from" in r.getMessage() and r.levelno == logging.WARNING]
    assert 1 <= len(wrong_lines) <= 3  # 24 wrong PINs within seconds: a line or two, counting the rest
    assert any("locked" in r.getMessage() for r in caplog.records)
    assert PIN not in caplog.text


@pytest.mark.parametrize("pin", ["٤٧١١٠٨", "४७११०८", "47110８", "²³⁴⁵⁶⁷", " 471108", "471108\n"])
def test_a_pin_of_other_digits_than_ascii_is_refused_as_input(pin):
    with WebBoard(pin=PIN) as board:
        answer = board.post("/api/pair", {"pin": pin})
        assert answer.status_code == 400 and answer.json()["error"].startswith("pin: must be digits 0-9")


# -- no 500s, ever ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path, body, field",
    [
        ("/api/action", b"[" * 100_000, None),
        ("/api/action", b'{"do": []}', "do"),
        ("/api/action", b'{"do": "new", "level": true}', "level"),
        ("/api/action", b'{"do": "new", "profile": {"x": 1}}', "profile"),
        ("/api/action", b'{"do": "brightness", "value": NaN}', None),
        ("/api/pair", b'{"pin": "\\ud800"}', "pin"),
        ("/api/pair/claim", b'{"request": "\\udfff\\ud800abcdefgh"}', "request"),
        ("/api/pair", b'{"\\ud800": 1}', None),
        ("/api/pair", b"\xff\xfe{}", None),
        ("/api/unpair", b'{"x": 1}', None),
    ],
)
def test_hostile_bodies_get_400_naming_the_field_and_leave_no_traceback(path, body, field, caplog):
    caplog.set_level(logging.DEBUG)
    with WebBoard(pin=PIN) as board:
        board.pair_with_pin(PIN)
        answer = board.client.post(path, content=body, headers={"Origin": ORIGIN, "Content-Type": "application/json"})
        if len(body) > MAX_BODY.get(path, 256):
            assert answer.status_code == 413
        else:
            assert answer.status_code == 400, answer.text
            message = answer.json()["error"]
            if field is not None:
                assert message.startswith(f"{field}: "), message
    assert "Traceback" not in caplog.text
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


@pytest.mark.parametrize("query", ["ply=²", "ply=٣", "ply=-1", "ply=99999999999999999999", "ply=1e3"])
def test_odd_queries_get_400(query):
    with WebBoard() as board:
        assert board.client.get(f"/api/position?{query}").status_code == 400


# -- the Host, the headers -----------------------------------------------------------------

ROUTES = ["/", "/api/game", "/api/state", "/api/position", "/api/records", "/api/pair", "/static/app.js"]


@pytest.mark.parametrize("path", ROUTES)
def test_every_get_refuses_a_public_host_name_dns_rebinding(path):
    with WebBoard() as board:
        answer = board.client.get(path, headers={"Host": "rebind.example.com:8080"})
        assert answer.status_code == 403 and "LAN address or name" in answer.json()["error"]
        assert board.client.get(path, headers={"Host": "morris-pi.local:8080"}).status_code in (200, 404)


@pytest.mark.parametrize("path", ROUTES)
def test_every_answer_carries_a_strict_csp_and_nosniff(path):
    with WebBoard() as board:
        headers = board.client.get(path).headers
    assert headers["content-security-policy"] == CSP
    assert "script-src 'self'" in CSP and "unsafe-inline" not in CSP.split("script-src")[1].split(";")[0]
    assert "frame-ancestors 'none'" in CSP
    assert headers["x-content-type-options"] == "nosniff" and headers["x-frame-options"] == "DENY"


def test_the_page_has_no_inline_script_and_puts_no_fetched_text_into_html():
    from morris_pi.web.app import STATIC

    html = (STATIC / "index.html").read_text()
    assert "<script>" not in html and " on" + "click=" not in html and "javascript:" not in html
    script = (STATIC / "app.js").read_text()
    assert "innerHTML" not in script and "outerHTML" not in script and "insertAdjacentHTML" not in script


def test_eight_waiting_codes_never_overlap_and_a_new_ask_is_never_refused():
    from morris_pi.core.ports import ManualClock
    from morris_pi.web.pairing import MAX_ASKS, Pairing

    for buttons in (("new", "undo", "hint", "menu"), ("undo", "hint", "menu"), ("hint", "menu")):
        pairing = Pairing(ManualClock())
        for n in range(200):
            assert pairing.ask(f"10.0.{n // 250}.{n % 250}", buttons) is not None
            codes = [w.code for w in pairing._asks.values()]
            assert len(codes) <= MAX_ASKS
            assert not any(overlaps(a, b) for a in codes for b in codes if a is not b)


# -- records ------------------------------------------------------------------------------


def test_records_are_parsed_once_indexed_on_write_and_paged(tmp_path, monkeypatch):
    from morris_pi.core import storage as storage_module
    from morris_pi.core.record_format import format_record
    from morris_pi.core.storage import Storage
    from morris_pi.rules import Game

    records = tmp_path / "records"
    records.mkdir()
    for n in range(120):
        tags = {"Date": "2025.06.01", "Result": "1-0", "White": f"player {n}", "Profile": "standard"}
        (records / f"20250601-{n:06d}.txt").write_text(format_record(tags, "d6 a1 f6 a4 b6xa1"))
    parsed = []
    real = storage_module.parse_record
    monkeypatch.setattr(storage_module, "parse_record", lambda text, where: parsed.append(where) or real(text, where))
    storage = Storage(tmp_path / "state", records)
    with WebBoard(storage=storage) as board:
        first = board.client.get("/api/records").json()
        assert first["total"] == 120 and len(first["records"]) == 50 and first["offset"] == 0
        assert first["records"][0]["white"] == "player 119"  # newest first
        second = board.client.get("/api/records?offset=50&limit=60").json()
        assert [r["white"] for r in second["records"]][:2] == ["player 69", "player 68"]
        assert len(second["records"]) == 60
        for _ in range(20):
            board.client.get("/api/records")
            board.client.get("/api/records/20250601-000007")
        assert len(parsed) == 120  # every file once, however often it is asked for
        storage.finish(Game.from_record("d6 a1"), {"id": "20260101-120000", "mode": "two-player"})
        after = board.client.get("/api/records").json()
        assert after["total"] == 121 and after["records"][0]["id"] == "20260101-120000"
        assert len(parsed) == 120  # the new record came from the write, not from parsing it back
        assert board.client.get("/api/records?limit=x").status_code == 400


def test_a_flood_of_requests_gets_429_and_an_ordinary_page_is_served():
    from morris_pi.web.limits import CLIENT_BURST, CLIENT_RATE, RequestRates

    with WebBoard() as board:
        board.rates.__init__(board.clock.now, total_burst=1e9)  # the real per-client rates, on the manual clock
        flood = [board.client.get("/api/records").status_code for _ in range(int(CLIENT_BURST) + 20)]
        assert flood.count(200) == CLIENT_BURST and set(flood[int(CLIENT_BURST) :]) == {429}
        assert board.browser(("10.0.0.2", 1)).get("/api/state").status_code == 200  # another device
        board.clock.advance(1.0)
        assert [board.client.get("/api/game").status_code for _ in range(int(CLIENT_RATE) + 1)].count(
            200
        ) == CLIENT_RATE
    assert isinstance(board.rates, RequestRates)


def test_when_the_board_is_full_of_silent_sockets_a_new_visitor_is_served(live):
    held = []
    try:
        for n in range(live.counts.max_sockets):
            held.append(live.connect(f"127.0.3.{1 + n // live.counts.per_client}"))
        stream = live.connect("127.0.4.1")  # the oldest silent one gives way to it
        stream.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert stream.recv(4096).startswith(b"HTTP/1.1 200")
        answer = live.request(get("/api/game"), source="127.0.4.2")
        assert answer.startswith(b"HTTP/1.1 200")
        assert live.counts.refused["idle socket closed for a new one"] >= 2
        assert live.counts.open <= live.counts.max_sockets
        stream.close()
    finally:
        for sock in held:
            sock.close()
