"""The web page's API over the board's own Session: watch, pair, control, review, and refusals."""

from __future__ import annotations

import io
import json
import logging
import random

import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient
from web_kit import WebBoard

from morris_pi import replay
from morris_pi.core.menu import GameSettings
from morris_pi.core.session import PAIRING_PATTERN
from morris_pi.core.storage import Storage
from morris_pi.rules import Game
from morris_pi.traces.simple import game_trace, random_game
from morris_pi.web.pairing import COOKIE
from morris_pi.web.seam import BoardSeam

PIN = "471108"


def test_api_game_is_the_replay_json_line_of_the_same_game():
    game = random_game("standard", random.Random(5), max_turns=30)
    trace = game_trace(game, seed=5)
    events = [e for e in trace[1:] if "t" in e]
    out = io.StringIO()
    replay.run([json.dumps(line) for line in trace], out, io.StringIO(), as_json=True)
    last = json.loads(out.getvalue().splitlines()[-1])

    board = WebBoard()  # no loop thread: the test is the board loop here
    board.clock.set(1000.0)
    for event in events:
        when = 1000.0 + event["t"]
        board.wait_out(when - board.clock.now())
        if "snapshot" in event:
            board.sensors.set(event["snapshot"])
        elif "on" in event:
            board.sensors.close_switch(event["on"])
        elif "off" in event:
            board.sensors.open_switch(event["off"])
        board.session.step()
    board.wait_out(2.0)
    with TestClient(board.app) as client:
        got = client.get("/api/game").json()
    assert list(got) == list(last) == ["t", "record", "turn", "computer", "leds", "problems", "outcome"]
    assert {k: v for k, v in got.items() if k != "t"} == {k: v for k, v in last.items() if k != "t"}
    assert got["record"] == game.record


def test_anyone_may_watch_but_an_unpaired_browser_is_refused():
    with WebBoard() as board:
        assert board.client.get("/api/game").json()["turn"] == "white"
        state = board.client.get("/api/state").json()
        assert state["status"].startswith("two players") and "<svg" in state["svg"]
        refused = board.post("/api/action", {"do": "hint"})
        assert refused.status_code == 403
        assert "not paired" in refused.json()["error"]


@pytest.mark.parametrize("origin", [None, "http://evil.example", "http://testserver.evil.example", "null"])
def test_a_cross_site_request_is_refused_even_from_a_paired_browser(origin):
    with WebBoard(pin=PIN) as board:
        board.pair_with_pin(PIN)
        board.put("d6")
        answer = board.post("/api/action", {"do": "takeback"}, origin=origin)
        assert answer.status_code == 403 and "cross-site" in answer.json()["error"]
        board.sync()
        assert board.session.snapshot().record == "d6"  # nothing was taken back
        fetched = board.client.post(
            "/api/action",
            json={"do": "takeback"},
            headers={"Origin": "http://testserver", "Sec-Fetch-Site": "cross-site"},
        )
        assert fetched.status_code == 403


def test_pin_pairing_sets_an_httponly_strict_cookie_and_a_wrong_pin_costs_that_client_a_wait():
    with WebBoard(pin=PIN) as board:
        wrong = board.post("/api/pair", {"pin": "000000"})
        assert wrong.status_code == 403 and "wrong PIN" in wrong.json()["error"]
        board.clock.advance(0.5)
        waiting = board.post("/api/pair", {"pin": PIN})  # this client still waits: not judged, and not "wrong"
        assert waiting.status_code == 429 and "wait 1 s" in waiting.json()["error"]
        board.clock.advance(1.0)
        right = board.post("/api/pair", {"pin": PIN})
        assert right.status_code == 200
        cookie = right.headers["set-cookie"]
        assert cookie.startswith(f"{COOKIE}=") and "HttpOnly" in cookie and "SameSite=strict" in cookie
        assert board.client.get("/api/pair").json()["paired"] is True
        assert board.act({"do": "hint"}).status_code == 200
        board.post("/api/unpair", {})
        assert board.act({"do": "hint"}).status_code == 403


def test_button_pairing_blinks_the_board_and_only_the_code_of_that_page_grants_it():
    with WebBoard() as board:
        board.put("d6")
        asked = board.post("/api/pair", {})
        assert asked.status_code == 202
        request, code = asked.json()["request"], asked.json()["code"]
        assert len(code) == 4 and set(code) <= {"new", "undo", "hint", "menu"}
        assert asked.json()["words"] == [c.capitalize() for c in code]
        board.sync()
        lit = {p for p in PAIRING_PATTERN if p in board.strip.points}
        dark = set(PAIRING_PATTERN) - lit
        assert lit == set(PAIRING_PATTERN) or dark == set(PAIRING_PATTERN)  # the pattern blinks as one
        waiting = board.post("/api/pair/claim", {"request": request})
        assert waiting.status_code == 202 and waiting.json()["waiting"]
        assert board.post("/api/action", {"do": "hint"}).status_code == 403
        board.press_all(code)
        board.wait_out(0.1)
        claimed = board.post("/api/pair/claim", {"request": request})
        assert claimed.status_code == 200 and COOKIE in claimed.headers["set-cookie"]
        # the presses only paired: no menu opened, no new game, no takeback, and the pattern is gone
        assert board.session.state == "game" and board.session.snapshot().record == "d6"
        assert board.session.controller.tracker.armed is None
        assert board.session.pairing_until is None
        assert board.post("/api/pair/claim", {"request": request}).status_code == 410
        assert board.act({"do": "takeback"}).status_code == 200
        assert board.session.snapshot().record == ""


def test_pairing_runs_out_when_nobody_types_the_code():
    with WebBoard() as board:
        request = board.post("/api/pair", {}).json()["request"]
        board.sync()
        board.wait_out(61)
        assert board.session.pairing_until is None
        assert board.post("/api/pair/claim", {"request": request}).status_code == 410
        board.press("menu")  # the menu button means the menu again
        board.wait_out(0.1)
        assert board.session.state == "menu"


def test_tokens_codes_and_the_pin_never_reach_the_log(caplog):
    caplog.set_level(logging.DEBUG)
    with WebBoard(pin=PIN) as board:
        answer = board.post("/api/pair", {"pin": PIN})
        token = answer.cookies[COOKIE]
        asked = board.post("/api/pair", {}).json()
        board.press_all(asked["code"])
        board.wait_out(0.1)
        assert board.post("/api/pair/claim", {"request": asked["request"]}).status_code == 200
    assert token not in caplog.text and asked["request"] not in caplog.text and PIN not in caplog.text
    assert " ".join(asked["code"]) not in caplog.text
    assert "paired with the PIN" in caplog.text and "paired with the board's buttons" in caplog.text


def test_control_new_game_takeback_hint_resign_and_brightness():
    with WebBoard(pin=PIN) as board:
        board.pair_with_pin(PIN)
        board.put("d6")
        board.put("a1")
        assert board.act({"do": "takeback"}).status_code == 200
        early = board.act({"do": "hint"})  # a1 still stands: the board must be put right first
        assert early.status_code == 409 and "put the board right first" in early.json()["error"]
        board.take("a1")
        assert board.session.snapshot().record == "d6"
        assert board.act({"do": "hint"}).status_code == 200
        board.wait_out(0.1)
        assert board.session.snapshot().hint is not None
        before = dict(board.strip.points)
        assert board.act({"do": "brightness", "value": 0.5}).status_code == 200
        board.wait_out(0.01)
        assert board.session.brightness == 0.5
        dimmed = [p for p in before if p in board.strip.points]
        assert all(board.strip.points[p][i] <= before[p][i] for p in dimmed for i in range(3))
        bad = board.act({"do": "brightness", "value": 7})
        assert bad.status_code == 409 and "0.05 to 1" in bad.json()["error"]
        assert board.act({"do": "resign"}).status_code == 200
        board.wait_out(0.1)
        assert board.session.snapshot().outcome.reason == "resignation"
        assert board.act({"do": "resign"}).status_code == 409  # over already: said so
        started = board.act({"do": "new", "mode": "computer", "human": "black", "level": 5, "profile": "club"})
        assert started.status_code == 200
        board.take("d6")
        assert board.session.settings == GameSettings(mode="computer", human="black", level=5, profile="club")
        state = board.client.get("/api/state").json()
        assert state["settings"]["level"] == 5 and state["computer_side"] == "white"
        refused = board.act({"do": "new", "level": 11})
        assert refused.status_code == 400 and "level" in refused.json()["error"]
        assert board.act({"do": "fly"}).status_code == 400


def test_review_lists_records_steps_through_pictures_and_downloads(tmp_path):
    storage = Storage(tmp_path / "state", tmp_path / "records")
    game = Game.from_record("d6 a1 f6 a4 b6xa1")
    storage.finish(game, {"id": "20260101-120000", "mode": "two-player", "profile": "standard"})
    with WebBoard(storage=storage) as board:
        records = board.client.get("/api/records").json()["records"]
        assert [r["id"] for r in records] == ["20260101-120000"] and records[0]["turns"] == 5
        detail = board.client.get("/api/records/20260101-120000").json()
        assert detail["turns"] == ["d6", "a1", "f6", "a4", "b6xa1"]
        start = board.client.get("/api/records/20260101-120000/picture?ply=0").text
        end = board.client.get("/api/records/20260101-120000/picture?ply=5").text
        assert start.count('class="man ') == 0 and end.count('class="man white"') == 3
        assert 'class="removed"' in end
        assert board.client.get("/api/records/20260101-120000/picture?ply=9").status_code == 422
        text = board.client.get("/api/records/20260101-120000/download?format=record")
        assert "attachment" in text.headers["content-disposition"] and "b6xa1" in text.text
        sanmill = board.client.get("/api/records/20260101-120000/download?format=sanmill").text
        assert "b6 xa1" in sanmill
        assert board.client.get("/api/records/nope").status_code == 404


def test_the_live_record_is_clickable_as_positions():
    with WebBoard() as board:
        for point in ("d6", "a1", "f6"):
            board.put(point)
        assert board.client.get("/api/state").json()["turns"] == ["d6", "a1", "f6"]
        one = board.client.get("/api/position?ply=1").text
        assert one.count('class="man white"') == 1 and one.count('class="man black"') == 0
        assert board.client.get("/api/position?ply=x").status_code == 400


def test_the_seam_publishes_only_what_a_watcher_can_see():
    with WebBoard() as board:
        seen = []
        board.seam.listen(seen.append)
        board.wait_out(5.0)  # time passes, nothing changes
        assert seen == []
        board.put("d6")
        assert seen and seen[-1].snapshot.record == "d6"


def test_bad_requests_get_a_sentence_not_a_traceback():
    with WebBoard(pin=PIN) as board:
        board.pair_with_pin(PIN)
        raw = board.client.post("/api/action", content=b"{nope", headers={"Origin": "http://testserver"})
        assert raw.status_code == 400 and raw.json()["error"].startswith("the body is not JSON")
        assert board.post("/api/action", [1, 2]).status_code == 400
        hand = board.post("/api/hand", {"do": "place", "point": "d6", "colour": "white"})
        assert hand.status_code == 404 and "simulator" in hand.json()["error"]


def test_a_seam_keeps_the_board_going_when_an_action_fails():
    with WebBoard() as board:
        future = board.seam.submit(lambda s: s.set_brightness("bright"))
        with pytest.raises(ValueError, match="brightness"):
            future.result(5)
        board.put("d6")
        assert board.session.snapshot().record == "d6"
        assert isinstance(board.seam, BoardSeam)


def test_a_page_reached_by_a_public_name_may_not_change_anything():
    # DNS rebinding: evil.example.com resolves to the board; Origin and Host agree, but the name is not a LAN's
    with WebBoard(pin=PIN) as board:
        answer = board.client.post(
            "/api/pair",
            json={"pin": PIN},
            headers={"Origin": "http://evil.example.com:8080", "Host": "evil.example.com:8080"},
        )
        assert answer.status_code == 403 and "LAN address or name" in answer.json()["error"]
        ok = board.client.post(
            "/api/pair",
            json={"pin": PIN},
            headers={"Origin": "http://morris-pi.local:8080", "Host": "morris-pi.local:8080"},
        )
        assert ok.status_code == 200
