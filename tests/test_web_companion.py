"""The companion page's API beyond watching: its words by language, the simulator's page on this
machine without pairing, the set-up menu and the clock from the page, the page as the board's
helpers, and the records' filters, times, positions and deletion. Every refusal is a sentence."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient
from web_kit import ORIGIN, WebBoard

from morris_pi.core.menu import LEVEL_POINTS, GameSettings
from morris_pi.core.ports import FirstLegalOpponent, ManualClock
from morris_pi.core.storage import Storage
from morris_pi.rules import Game
from morris_pi.sim.backends import SimBoard
from morris_pi.sim.browser import BrowserHand
from morris_pi.sim.play import GameSession, SimSettings
from morris_pi.web.app import create_app
from morris_pi.web.seam import BoardSeam

PIN = "471108"


def test_the_page_s_words_follow_the_browser_s_language_or_the_switch():
    with WebBoard() as board:
        german = board.client.get("/api/words", headers={"Accept-Language": "de-CH,de;q=0.9,en;q=0.5"}).json()
        assert german["lang"] == "de" and german["words"]["act.hint"] == "Tipp"
        assert set(german["languages"]) == {"en", "de", "nb"}
        norwegian = board.client.get("/api/words?lang=nb", headers={"Accept-Language": "de"}).json()
        assert norwegian["lang"] == "nb" and norwegian["words"]["act.takeback"] == "Angre"
        assert board.client.get("/api/words").json()["lang"] == "en"
        refused = board.client.get("/api/words?lang=fr")
        assert refused.status_code == 400 and "lang" in refused.json()["error"]


def loopback(app, host: str = "127.0.0.1:8080", address: str = "127.0.0.1") -> TestClient:
    return TestClient(app, base_url=f"http://{host}", client=(address, 50000))


def test_a_simulator_page_on_this_machine_needs_no_pairing_one_from_the_lan_does():
    with WebBoard(trust_loopback=True) as board:
        here = loopback(board.app)
        assert here.get("/api/pair").json() | {} == here.get("/api/pair").json()
        assert here.get("/api/pair").json()["trusted"] and here.get("/api/pair").json()["paired"]
        done = here.post("/api/action", json={"do": "hint"}, headers={"Origin": "http://127.0.0.1:8080"})
        assert done.status_code == 200
        # the LAN: another address, or a LAN name that someone pointed at this machine
        for client in (
            loopback(board.app, "192.168.1.20:8080", "192.168.1.7"),
            loopback(board.app, "board.local:8080"),
        ):
            origin = f"http://{client.base_url.netloc.decode()}"
            assert client.get("/api/pair").json()["trusted"] is False
            refused = client.post("/api/action", json={"do": "hint"}, headers={"Origin": origin})
            assert refused.status_code == 403 and refused.json()["code"] == "not-paired"
        # still the board's own page only: no other site, even from this machine
        cross = here.post("/api/action", json={"do": "hint"}, headers={"Origin": "http://evil.example"})
        assert cross.status_code == 403 and "cross-site" in cross.json()["error"]
    with WebBoard() as board:  # the service: no page is trusted without pairing
        here = loopback(board.app)
        assert here.get("/api/pair").json()["trusted"] is False
        answer = here.post("/api/action", json={"do": "hint"}, headers={"Origin": "http://127.0.0.1:8080"})
        assert answer.status_code == 403


def test_a_page_s_action_never_types_into_a_pairing_code():
    with WebBoard(pin=PIN) as board:
        board.pair_with_pin(PIN)
        board.put("d6")
        board.seam.submit(lambda s: s.ask_pairing("ticket", ("undo", "undo", "hint", "hint"), 60)).result(5)
        board.press_all(["undo", "undo", "hint"])  # three of the code's four presses, on the board
        assert board.act({"do": "hint"}).status_code == 200  # the page's hint is no fourth press
        board.wait_out(0.1)
        assert board.session.granted == type(board.session.granted)()
        board.press("hint")  # the board's own button is
        assert list(board.session.granted) == ["ticket"]


def test_the_set_up_menu_from_the_page_choices_and_start():
    with WebBoard(pin=PIN, menu=True, settings=GameSettings(mode="computer", level=3)) as board:
        board.pair_with_pin(PIN)
        menu = board.client.get("/api/state").json()["menu"]
        assert menu["choices"]["a7"] == ["level", 1] and menu["choices"]["d1"] == ["start", None]
        assert board.act({"do": "choose", "point": LEVEL_POINTS[6]}).status_code == 200
        assert board.client.get("/api/state").json()["menu"]["settings"]["level"] == 7
        nothing = board.act({"do": "choose", "point": "d2"})
        assert nothing.status_code == 409 and "offers nothing" in nothing.json()["error"]
        assert board.act({"do": "start"}).status_code == 200
        board.wait_out(0.1)
        assert board.session.state == "game" and board.session.settings.level == 7
        assert board.act({"do": "start"}).status_code == 409  # no menu to start any more


def test_a_two_player_clock_from_the_page_shown_and_ended_on_time():
    with WebBoard(pin=PIN) as board:
        board.pair_with_pin(PIN)
        assert board.act({"do": "new", "mode": "two-player", "clock": "0.5"}).status_code == 200
        assert board.act({"do": "new", "clock": "soon"}).status_code == 400
        board.put("d6")
        state = board.client.get("/api/state").json()
        assert state["clock"]["control"] == "0.5" and state["clock"]["running"] == "black"
        assert state["settings"]["clock"] == "0.5" and not state["can"]["flag"]
        board.wait_out(31)
        state = board.client.get("/api/state").json()
        assert state["clock"]["flagged"] == "black" and state["can"]["flag"]
        assert {"role": "low-time", "points": ["d7"]}.items() <= {
            k: v for item in state["legend"] if item["role"] == "low-time" for k, v in item.items()
        }.items()
        assert board.act({"do": "flag"}).status_code == 200
        board.wait_out(0.1)
        assert board.session.snapshot().outcome.winner == "white"
        assert board.act({"do": "flag"}).status_code == 409
        assert board.act({"do": "new", "clock": ""}).status_code == 200
        assert board.session.settings.clock is None


def test_every_view_says_which_actions_make_sense_and_the_trays_by_the_game():
    with WebBoard() as board:
        state = board.client.get("/api/state").json()
        assert state["can"]["hint"] and not state["can"]["takeback"] and not state["can"]["draw"]
        for point in ("d6", "a1", "f6", "a4", "b6"):
            board.put(point)
        board.take("a1")
        state = board.client.get("/api/state").json()
        assert state["can"]["takeback"] and state["trays"]["black"] == {"in_hand": 7, "on_board": 1, "taken": 1}
        flipped = board.client.get("/api/state?flip=1").json()
        assert 'class="morris-board profile-standard flipped"' in flipped["svg"] and flipped["flipped"]
        assert "<title>" not in state["svg"]  # the page names the picture in its own language
        assert board.client.get("/api/state?flip=2").status_code == 400


def browser_board():
    board = SimBoard(clock=ManualClock())
    game = GameSession(
        board, SimSettings(mode="computer", human="white", seed=5), opponent_factory=lambda level: FirstLegalOpponent()
    )
    return board, game


def settle(game, seconds: float = 1.5) -> None:
    for _ in range(int(seconds / 0.05)):
        game.board.clock.advance(0.05)
        game.step()


def test_the_page_as_the_board_sets_up_the_game_s_position_clears_it_and_plays_the_computer_s_turn():
    board, game = browser_board()
    hand = BrowserHand(board)
    try:
        settle(game, 0.1)  # the board's first reading: empty
        hand.act({"do": "place", "point": "d6", "colour": "white"}, game.session)
        settle(game)
        prompt = game.snapshot().computer
        assert prompt is not None
        hand.act({"do": "computer"}, game.session)
        settle(game)
        assert game.snapshot().record == f"d6 {prompt}" and not game.snapshot().problems
        hand.act({"do": "clear"}, game.session)
        settle(game)
        assert board.hand.board == {} and game.snapshot().problems  # the board no longer shows the game
        hand.act({"do": "setup"}, game.session)
        settle(game)
        assert board.hand.board == game.session.controller.game.board and not game.snapshot().problems
        assert board.hand.in_hand == {"white": 8, "black": 8}
        with pytest.raises(ValueError, match="no turn waiting"):
            hand.act({"do": "computer"}, game.session)
    finally:
        game.close()


def records(tmp_path) -> Storage:
    storage = Storage(tmp_path / "state", tmp_path / "records")
    won = Game.from_record("d6 a1 f6 a4 b6xa1")
    won.resign("black")
    storage.finish(won, {"id": "20260412-190000", "mode": "computer", "human": "white", "level": 2, "seed": 9})
    storage.finish(Game.from_record("d6 a1"), {"id": "20260413-080000", "mode": "two-player"})
    return storage


def test_records_are_filtered_dated_and_their_positions_given_as_fen_and_pictures(tmp_path):
    storage = records(tmp_path)
    with WebBoard(storage=storage, pin=PIN) as board:
        every = board.client.get("/api/records").json()
        assert [r["id"] for r in every["records"]] == ["20260413-080000", "20260412-190000"]
        assert every["players"] == ["Computer (level 2)", "Player"] and every["kept"]
        first = every["records"][1]
        assert first["started"] == "2026-04-12T19:00:00Z" and first["ended"].endswith("Z") and first["finished"]
        assert [r["id"] for r in board.client.get("/api/records?status=unfinished").json()["records"]] == [
            "20260413-080000"
        ]
        found = board.client.get("/api/records?status=finished&player=computer").json()
        assert [r["id"] for r in found["records"]] == ["20260412-190000"] and found["all"] == 2
        assert board.client.get("/api/records?player=nobody").json()["total"] == 0
        assert board.client.get("/api/records?status=won").status_code == 400
        detail = board.client.get("/api/records/20260412-190000").json()
        assert detail["tags"]["Seed"] == "9" and detail["started"] == "2026-04-12T19:00:00Z"
        fen = board.client.get("/api/records/20260412-190000/fen?ply=2").json()
        assert fen == {"id": "20260412-190000", "ply": 2, "fen": Game.from_record("d6 a1").fen}
        download = board.client.get("/api/records/20260412-190000/fen?ply=2&download=1")
        assert (
            download.text.strip() == fen["fen"]
            and 'filename="20260412-190000-002.fen"' in (download.headers["content-disposition"])
        )
        picture = board.client.get("/api/records/20260412-190000/picture?ply=5&download=1&flip=1")
        assert (
            picture.headers["content-type"].startswith("image/svg+xml")
            and "attachment" in (picture.headers["content-disposition"])
        )
        assert "flipped" in picture.text and "<title>" in picture.text


def test_only_an_unfinished_record_is_deleted_and_only_by_a_paired_browser(tmp_path):
    storage = records(tmp_path)
    with WebBoard(storage=storage, pin=PIN) as board:
        assert board.post("/api/records/20260413-080000/delete", {}).status_code == 403
        board.pair_with_pin(PIN)
        kept = board.post("/api/records/20260412-190000/delete", {})
        assert kept.status_code == 409 and "finished game" in kept.json()["error"]
        assert board.post("/api/records/20260413-080000/delete", {}).json() == {"deleted": "20260413-080000"}
        assert [r.id for r in storage.list_records()] == ["20260412-190000"]
        assert board.post("/api/records/20260413-080000/delete", {}).status_code == 404
        assert board.post("/api/records/20260412-190000/delete", {"x": 1}).status_code == 400


def test_the_icon_is_served():
    with WebBoard() as board:
        icon = board.client.get("/favicon.ico")
        assert icon.status_code == 200 and icon.headers["content-type"].startswith("image/svg+xml")
        assert b"<svg" in icon.content


def test_a_seam_with_a_browser_hand_serves_the_page_as_the_board():
    board, game = browser_board()
    try:
        seam = BoardSeam(game.session, hand=BrowserHand(board))
        seam.publish()
        app = create_app(seam, board=True, buttons=(), trust_loopback=True)
        with TestClient(app, base_url="http://127.0.0.1:8080", client=("127.0.0.1", 1)) as client:
            pair = client.get("/api/pair").json()
            assert pair == pair | {"trusted": True, "board_page": True, "buttons": False}
            lan = TestClient(app, base_url=ORIGIN).get("/api/pair").json()
            assert lan["trusted"] is False and lan["buttons"] is False  # from the LAN: the PIN, if any
    finally:
        game.close()
