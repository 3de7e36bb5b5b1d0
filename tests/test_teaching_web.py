"""The page's controls of the board's teaching: assistance per player, a position set up from a FEN, play on."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")

from web_kit import WebBoard

FEN = "********/OO******/*****@@* w p p 2 7 2 7 0 0 0 0 0 0 0 0 3"
PIN = "471108"


def test_a_paired_page_sets_up_a_position_with_each_players_assistance():
    with WebBoard(pin=PIN) as board:
        refused = board.post("/api/action", {"do": "new", "mode": "two-player", "fen": FEN})
        assert refused.status_code == 403  # behind pairing, as every control
        board.pair_with_pin(PIN)
        answer = board.act(
            {
                "do": "new",
                "mode": "two-player",
                "fen": FEN,
                "assist_white": "targets warn hints=3",
                "assist_black": "hints=0",
            }
        )
        assert answer.status_code == 200, answer.text
        state = board.client.get("/api/state").json()
        assert state["setup"]["white"] == ["d6", "f6"] and state["setup"]["black"] == ["a1", "a4"]
        assert state["settings"]["assist"] == {"white": "targets warn hints=3", "black": "hints=0"}
        assert state["game"]["leds"] == {"d6": "setup-white", "f6": "setup-white"}
        for point in ("d6", "f6", "a1", "a4"):
            board.put(point)
        state = board.client.get("/api/state").json()
        assert state["setup"] is None and state["hints_left"] == {"white": 3, "black": 0}
        assert 'class="man white"' in state["svg"]  # the men of the FEN, not an empty board


def test_bad_assistance_and_a_bad_fen_are_named():
    with WebBoard(pin=PIN) as board:
        board.pair_with_pin(PIN)
        bad = board.act({"do": "new", "assist_white": "everything"})
        assert bad.status_code == 400 and "assist_white" in bad.text
        fen = board.act({"do": "new", "fen": "O" * 30})
        assert fen.status_code == 409 and "17" in fen.text  # the board refuses it, naming what is wrong


def test_play_on_without_a_warning_is_refused_and_hints_run_out():
    from morris_pi.core.assist import Assistance, Assists
    from morris_pi.core.menu import GameSettings

    settings = GameSettings(mode="two-player", assist=Assists(white=Assistance(hints=0)))
    with WebBoard(pin=PIN, settings=settings) as board:
        board.pair_with_pin(PIN)
        assert board.act({"do": "playon"}).status_code == 409
        hint = board.act({"do": "hint"})
        assert hint.status_code == 409 and "no hints" in hint.text
        assert board.client.get("/api/state").json()["can"]["hint"] is False
