"""The board's teaching in a real browser: a position set up from the page's FEN, each colour where it is lit."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")
pytest.importorskip("selenium.webdriver")

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select
from test_web_browser import PHONE, Board, click_point, open_page, size, start_chromium, until, view

from morris_pi.sim.play import SimSettings

FEN = "********/OO******/*****@@* w p p 2 7 2 7 0 0 0 0 0 0 0 0 3"


@pytest.fixture
def page():
    driver = start_chromium()
    size(driver, *PHONE)
    try:
        yield driver
    finally:
        driver.quit()


def test_a_position_from_the_page_is_set_up_white_men_first_and_then_played(page):
    board = Board(SimSettings(mode="two-player", seed=1), board_page=True)
    try:
        open_page(page, board)
        page.find_element(By.CSS_SELECTOR, "#panel-game summary").click()
        form = page.find_element(By.ID, "new-game")
        Select(form.find_element(By.NAME, "mode")).select_by_value("two-player")
        Select(form.find_element(By.NAME, "assist_black")).select_by_value("targets warn")
        form.find_element(By.NAME, "fen").send_keys(FEN)
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        until(page, lambda d: d.find_element(By.ID, "setup-words").is_displayed(), what="where each colour goes")
        assert "d6 f6" in page.find_element(By.ID, "setup-words").text
        assert "white" in page.find_element(By.ID, "lights").text
        page.execute_script("window.scrollTo(0, 0)")  # back to the board, below the header
        for point in ("d6", "f6"):
            click_point(page, point, lambda v, p=point: p in (v.get("setup") or {}).get("standing", []), f"{point} put")
        until(page, lambda d: (view(d).get("setup") or {}).get("next") == "black", what="the black men's turn")
        for point in ("a1", "a4"):
            click_point(page, point, lambda v, p=point: p in (v.get("hand") or {}).get("board", {}), f"{point} put")
        until(page, lambda d: view(d).get("setup") is None and view(d)["state"] == "game", what="the game")
        assert board.session.controller.game.fen == FEN
        assert view(page)["hand"]["board"] == {"d6": "white", "f6": "white", "a1": "black", "a4": "black"}
        assert view(page)["settings"]["assist"]["black"] == "targets warn"
    finally:
        board.stop()


def test_a_reviewed_game_says_how_it_was_assisted_and_plays_from_its_fen(page, tmp_path):
    from morris_pi.core.storage import Storage
    from morris_pi.rules import Game

    game = Game.from_fen(FEN)
    game.play("b6xa1")
    meta = {
        "mode": "two-player",
        "id": "20260601-120000",
        "fen": FEN,
        "assist": {"white": "targets warn", "black": "hints=0"},
    }
    Storage(tmp_path).finish(game, meta)
    board = Board(SimSettings(mode="two-player", seed=1, state_dir=tmp_path), board_page=True)
    try:
        open_page(page, board)
        page.find_element(By.ID, "tab-review").click()
        until(page, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#games .game")) == 1, what="the list")
        page.find_element(By.CSS_SELECTOR, "#games .game").click()
        until(page, lambda d: "help for white" in d.find_element(By.ID, "review-tags").text, what="the assistance")
        tags = page.find_element(By.ID, "review-tags").text
        assert "coloured targets, blunder warnings" in tags and "help for black: no hints" in tags
        assert "set up from a FEN" in tags
        assert page.find_element(By.ID, "fen").get_attribute("value").startswith("********/OO*****O")  # b6 played
    finally:
        board.stop()
