"""Every route of the web page, fuzzed: whatever a client sends, the answer is never a 500 and
nothing is logged as an error (no traceback). Bodies are any JSON (lone surrogates, deep
nesting, odd types included) or any bytes; paths and queries any text."""

from __future__ import annotations

import json
import logging
from urllib.parse import quote

import pytest

pytest.importorskip("starlette")

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from web_kit import ORIGIN, WebBoard

from morris_pi.core.storage import Storage
from morris_pi.rules import Game

PIN = "471108"
POSTS = [
    "/api/pair",
    "/api/pair/claim",
    "/api/unpair",
    "/api/action",
    "/api/hand",
    "/api/records/20260101-120000/delete",
]
GETS = [
    "/",
    "/api/game",
    "/api/state",
    "/api/position",
    "/api/records",
    "/api/records/{id}",
    "/api/records/{id}/picture",
    "/api/records/{id}/download",
    "/api/records/{id}/fen",
    "/api/pair",
    "/api/words",
    "/favicon.ico",
    "/static/{id}",
]
FIELDS = [
    "do",
    "pin",
    "request",
    "mode",
    "human",
    "level",
    "profile",
    "value",
    "point",
    "colour",
    "clock",
    "x",
    "\ud800",
]
WORDS = ["hint", "takeback", "resign", "draw", "new", "menu", "start", "choose", "flag", "brightness"]
WORDS += ["place", "lift", "put", "drop", "cancel", "clear", "setup"]

any_text = st.text(st.characters(codec=None, exclude_categories=()), max_size=12)  # surrogates too
scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False)
    | any_text
    | st.sampled_from([*WORDS, "471108", "d6", "white", "computer", "standard", "0.5", "5+3", ""])
)
values = st.recursive(
    scalars, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(any_text, inner, max_size=3), max_leaves=8
)
objects = st.dictionaries(st.sampled_from(FIELDS) | any_text, values, max_size=5)
bodies = (
    objects.map(lambda o: json.dumps(o).encode())
    | values.map(lambda v: json.dumps(v).encode())
    | st.binary(max_size=300)
    | st.integers(1, 3000).map(lambda n: b"[" * n)
)
KEYS = ["ply", "format", "offset", "limit", "flip", "download", "status", "player", "lang", "x"]
queries = st.dictionaries(st.sampled_from(KEYS), any_text | st.sampled_from(["1", "0", "de", "unfinished"]), max_size=3)


@pytest.fixture(scope="module")
def board(tmp_path_factory):
    base = tmp_path_factory.mktemp("fuzz")
    storage = Storage(base / "state", base / "records")
    game = Game.from_record("d6 a1 f6 a4 b6xa1")
    storage.finish(game, {"id": "20260101-120000", "mode": "two-player"})
    with WebBoard(pin=PIN, storage=storage) as board:
        board.pair_with_pin(PIN)
        yield board


def no_errors(caplog) -> None:
    bad = [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert not bad, [r.getMessage() for r in bad]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(path=st.sampled_from(POSTS), body=bodies, origin=st.sampled_from([ORIGIN, None, "null", "http://x.example"]))
def test_no_post_body_gives_a_500(board, caplog, path, body, origin):
    caplog.clear()
    headers = {"Content-Type": "application/json"}
    if origin:
        headers["Origin"] = origin
    answer = board.client.post(path, content=body, headers=headers)
    assert answer.status_code < 500, (path, body[:80], answer.text)
    assert "error" in answer.json() or answer.status_code < 300
    no_errors(caplog)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(path=st.sampled_from(GETS), ident=any_text, params=queries)
def test_no_get_gives_a_500(board, caplog, path, ident, params):
    caplog.clear()
    url = path.replace("{id}", quote(ident.encode("utf-8", "surrogatepass"), safe=""))
    query = "&".join(f"{k}={quote(v.encode('utf-8', 'surrogatepass'), safe='')}" for k, v in params.items())
    answer = board.client.get(url + ("?" + query if query else ""))
    assert answer.status_code < 500, (url, params, answer.text[:200])
    no_errors(caplog)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    host=st.text(st.characters(codec="latin-1"), max_size=40),
    cookie=st.text(st.characters(codec="ascii"), max_size=200),
)
def test_no_header_gives_a_500(board, caplog, host, cookie):
    caplog.clear()
    try:
        answer = board.client.get("/api/state", headers={"Host": host, "Cookie": f"morris_pi_token={cookie}"})
    except ValueError:  # the HTTP client itself refuses to send such a header
        return
    assert answer.status_code < 500
    no_errors(caplog)
