"""The page in a real browser: Debian's chromium driven by Selenium through chromium-driver.

The boards run on the real clock (a browser cannot share a manual one), so every wait is
an explicit wait on a condition of the page or the board, never a fixed sleep. Without a
local chromium these tests are skipped, saying so; in CI (``CI`` set) they fail instead.

The page is tried at a phone's size (390 x 844, and 360 x 740) and a desktop's (1280 x 900).
A board served on loopback is the simulator's own page and plays without pairing; a board
made to treat every page as one from the LAN (``trust_loopback=False``) needs pairing.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable

import pytest

pytest.importorskip("starlette")
webdriver = pytest.importorskip("selenium.webdriver")

from selenium.common.exceptions import StaleElementReferenceException, TimeoutException  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

from morris_pi.rules import Game, Turn  # noqa: E402
from morris_pi.sim.browser import run_in_thread  # noqa: E402
from morris_pi.sim.play import SimSettings  # noqa: E402
from morris_pi.web.pairing import COOKIE  # noqa: E402

PIN = "471108"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
PHONE, SMALL_PHONE, DESKTOP = (390, 844), (360, 740), (1280, 900)


def start_chromium(language: str | None = None):
    if not (CHROMIUM and DRIVER):
        message = "chromium and chromium-driver are not installed (apt-get install -y chromium chromium-driver)"
        if os.environ.get("CI"):
            pytest.fail(message + "; CI must have them (.ci/run installs them)")
        pytest.skip(message)
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars"):
        options.add_argument(arg)
    options.add_experimental_option("prefs", {"intl.accept_languages": language or "en-US,en"})
    return webdriver.Chrome(service=Service(DRIVER), options=options)


@pytest.fixture(scope="module")
def browser():
    driver = start_chromium()
    try:
        yield driver
    finally:
        driver.quit()


def size(driver, width: int, height: int) -> None:
    """The viewport of a phone (touch, mobile) or of a desktop browser."""
    mobile = width < 600
    metrics = {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile}
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": mobile})


@pytest.fixture
def page(browser):
    browser.delete_all_cookies()
    size(browser, *PHONE)
    yield browser
    browser.execute_script("try { localStorage.clear() } catch (e) {}")


class Board:
    """A simulated board with its page served on a free port, run like ``morris-pi sim --web``."""

    def __init__(self, settings: SimSettings, *, board_page: bool, trusted: bool = True, port: int = 0) -> None:
        self.settings, self.board_page, self.trusted = settings, board_page, trusted
        self.server, self.game, self.stop = run_in_thread(
            settings, port=port, board_page=board_page, pin=PIN, trust_loopback=trusted
        )
        self.url = f"http://127.0.0.1:{self.server.port}/"
        self.session = self.game.session

    def restart(self) -> Board:
        """The board's service restarted: the same port, a new server, no pairings remembered."""
        port = self.server.port
        self.stop()
        return Board(self.settings, board_page=self.board_page, trusted=self.trusted, port=port)

    def move(self, action: Callable) -> None:
        """Move men on the simulated board by hand (as the window's mouse would)."""
        with self.game.board.lock:
            action(self.game.board.hand)
        self.game.seam.wake()


def until(driver, condition, timeout: float = 20.0, what: str = "the page"):
    try:
        # the board's picture is redrawn with every view: an element found just before is looked up again
        wait = WebDriverWait(driver, timeout, poll_frequency=0.05, ignored_exceptions=(StaleElementReferenceException,))
        return wait.until(condition)
    except TimeoutException:
        raise AssertionError(
            f"timed out waiting for {what}; page says: {text(driver, 'turn')!r} / {text(driver, 'lights')!r}, "
            f"message: {text(driver, 'message')!r}"
        ) from None


def text(driver, element_id: str) -> str:
    found = driver.find_elements(By.ID, element_id)
    return found[0].text if found else ""


def view(driver) -> dict:
    return driver.execute_script("return state") or {}


def open_page(driver, board: Board) -> None:
    driver.get(board.url)
    until(driver, lambda d: d.find_element(By.ID, "conn").get_attribute("data-state") == "live", what="the stream")
    until(driver, lambda d: d.execute_script("return !!state"), what="the first view")


def pair_with_pin(driver) -> None:
    driver.find_element(By.ID, "pair").click()
    until(driver, lambda d: d.find_element(By.ID, "pin").is_displayed(), what="the PIN field")
    driver.find_element(By.ID, "pin").clear()
    driver.find_element(By.ID, "pin").send_keys(PIN)
    driver.find_element(By.ID, "send-pin").click()
    until(driver, lambda d: d.find_element(By.ID, "pair").text == "Paired", what="pairing by PIN")
    driver.find_element(By.CSS_SELECTOR, "#pairing button[value=close]").click()


def tap(driver, css: str) -> None:
    """Click an element of the page; the board's picture is redrawn with every view, so one
    found just before a new view came is found again."""
    for _ in range(20):
        try:
            driver.find_element(By.CSS_SELECTOR, css).click()
            return
        except StaleElementReferenceException:
            continue
    raise AssertionError(f"{css} kept being redrawn")


def click_point(driver, point: str, expect: Callable[[dict], bool], what: str) -> None:
    tap(driver, f"#point-{point}")
    until(driver, lambda d: expect(view(d)), what=what)


def make_turn(driver, turn: Turn, colour: str) -> None:
    """A whole turn by taps on the page's board: a placement, or lift and put; a man taken with one tap."""
    before = len(view(driver)["turns"])
    prompted = view(driver)["game"]["computer"] == str(turn)  # a prompted turn is read whole, a human's step by step
    if turn.origin is None:
        click_point(driver, turn.target, lambda v: v["hand"]["board"].get(turn.target) == colour, f"{turn.target}")
    else:
        click_point(driver, turn.origin, lambda v: v["hand"]["held"] is not None, f"the man on {turn.origin} lifted")
        click_point(driver, turn.target, lambda v: v["hand"]["board"].get(turn.target) == colour, f"on {turn.target}")
    if turn.removal:
        if not prompted:
            until(driver, lambda d: view(d).get("pending"), what=f"the mill of {turn}")
        click_point(driver, turn.removal, lambda v: turn.removal not in v["hand"]["board"], f"{turn.removal} taken")
    until(driver, lambda d: len(view(d)["turns"]) > before or view(d)["game"]["outcome"], what=f"the turn {turn}")


def choose(game: Game) -> Turn:
    """The human's plan: take a man whenever possible, else the last legal turn."""
    turns = game.legal_turns()
    taking = [t for t in turns if t.removal]
    return (taking or turns)[-1]


def box(driver, css: str) -> dict:
    return driver.execute_script(
        "const b = document.querySelector(arguments[0]).getBoundingClientRect();"
        "return {x: b.x, y: b.y, w: b.width, h: b.height, right: b.right, bottom: b.bottom,"
        " vw: innerWidth, vh: innerHeight}",
        css,
    )


def in_first_viewport(driver, css: str) -> bool:
    b = box(driver, css)
    # a board from edge to edge may round to a hundredth of a pixel past it
    inside = b["x"] >= -0.5 and b["y"] >= 0 and b["right"] <= b["vw"] + 0.5 and b["bottom"] <= b["vh"]
    return b["w"] > 0 and b["h"] > 0 and inside


# -- the page as the board -----------------------------------------------------------------


def test_the_page_as_the_board_plays_at_once_without_pairing(page):
    board = Board(SimSettings(mode="two-player", seed=1), board_page=True)
    try:
        open_page(page, board)
        assert page.find_element(By.ID, "pair").text == "This computer"
        assert page.find_element(By.ID, "hand").is_displayed()
        click_point(page, "d6", lambda v: v["turns"] == ["d6"], "the first tap played")
        assert page.find_element(By.ID, "turn").text == "Black to move"
        assert board.session.controller.game.record == "d6"
        # a LAN page to the same board still needs pairing: its socket is not this machine's
        assert not page.execute_script("return pairInfo.board_page && !pairInfo.trusted")
    finally:
        board.stop()


def test_a_whole_game_against_the_computer_on_the_phone(page):
    board = Board(SimSettings(mode="computer", human="white", level=1, seed=11), board_page=True)
    try:
        open_page(page, board)
        plies = 0
        while plies < 400:
            v = view(page)
            game = v["game"]
            if game["outcome"]:
                break
            assert not game["problems"], game["problems"]
            if game["computer"]:
                played = len(v["turns"])
                if plies % 2:  # the computer's turn: carried out by hand, or with "Play it"
                    make_turn(page, Turn.parse(game["computer"]), "black")
                else:
                    assert page.find_element(By.ID, "act-next").text == "Play it"
                    page.find_element(By.ID, "act-next").click()
                    until(page, lambda d, n=played: len(view(d)["turns"]) > n, what="the computer's turn played")
            elif game["turn"] == "white":
                make_turn(page, choose(Game.from_record(game["record"], v["profile"])), "white")
            else:
                played = len(v["turns"])
                until(page, lambda d, n=played: view(d)["game"]["computer"] or len(view(d)["turns"]) > n)
                continue
            plies += 1
        v = view(page)
        assert v["game"]["outcome"], f"no result after {plies} turns: {v['game']['record']}"
        assert page.find_element(By.ID, "turn").text.startswith("Game over.")
        assert board.session.controller.game.record == v["game"]["record"]
        # the game is over: its controls say so, and the next step is a new game
        assert not page.find_element(By.ID, "act-hint").is_enabled()
        assert not page.find_element(By.ID, "act-resign").is_enabled()
        assert page.find_element(By.ID, "act-next").text == "New game"
    finally:
        board.stop()


def test_a_takeback_on_the_page_s_board_brings_its_men_and_trays_back(page):
    board = Board(SimSettings(mode="two-player", seed=1), board_page=True)
    try:
        open_page(page, board)
        for token in ["d6", "a1", "f6", "a4", "b6xa1"]:
            colour = view(page)["game"]["turn"]
            make_turn(page, Turn.parse(token), colour)
        assert "1 taken" in page.find_element(By.ID, "black-tray").text
        page.find_element(By.ID, "act-takeback").click()
        until(page, lambda d: view(d)["turns"] == ["d6", "a1", "f6", "a4"], what="the takeback")
        until(page, lambda d: view(d)["hand"]["board"].get("a1") == "black", what="a1 back on the board")
        assert "0 taken" in page.find_element(By.ID, "black-tray").text  # no capture that never happened
        assert "b6" not in view(page)["hand"]["board"]
        until(page, lambda d: not view(d)["game"]["problems"], what="the board in step")
        # clear the board: every man back to its tray; set up the position: the men where the game has them
        page.find_element(By.ID, "clear").click()
        until(page, lambda d: view(d)["hand"]["board"] == {}, what="the board cleared")
        until(page, lambda d: d.find_element(By.ID, "act-next").text == "Set up the position", what="the way back")
        page.find_element(By.ID, "act-next").click()
        until(page, lambda d: len(view(d)["hand"]["board"]) == 4 and not view(d)["game"]["problems"], what="set up")
    finally:
        board.stop()


# -- the layout ------------------------------------------------------------------------------


MAIN = ["#board", "#turn", "#lights", "#message", "#act-hint", "#act-takeback", "#act-next"]


def a_clocked_game_with_a_hint(page) -> Board:
    board = Board(SimSettings(mode="two-player", seed=2, clock="5+3"), board_page=True)
    open_page(page, board)
    for n, point in enumerate(("d6", "a1", "f6"), 1):
        click_point(page, point, lambda v, n=n: len(v["turns"]) == n, point)
    until(page, lambda d: d.find_element(By.ID, "act-hint").is_enabled(), what="the hint button")
    page.find_element(By.ID, "act-hint").click()
    until(page, lambda d: view(d).get("analysis") and view(d).get("hint"), what="the hint")
    return board


@pytest.mark.parametrize("width,height", [PHONE, SMALL_PHONE, DESKTOP], ids=["390x844", "360x740", "1280x900"])
def test_the_board_the_status_and_the_main_actions_are_on_the_first_screen(page, width, height):
    size(page, width, height)
    board = a_clocked_game_with_a_hint(page)  # the fullest screen: a clock and an evaluation bar above the board
    try:
        assert page.execute_script("return scrollY") == 0
        for css in [*MAIN, "#clock", "#evalbar"]:
            assert in_first_viewport(page, css), (css, box(page, css))
        # every button a finger can reach is at least 44 px, and so is every point of the board
        small = page.execute_script(
            "return [...document.querySelectorAll('button')].filter(b => b.offsetParent)"
            ".map(b => [b.id || b.textContent, b.getBoundingClientRect()])"
            ".filter(([, r]) => r.width < 44 || r.height < 44).map(([n]) => n)"
        )
        assert small == []
        hit = box(page, "#point-d5 .hit")
        assert min(hit["w"], hit["h"]) >= 44, hit
        if width >= 900:  # the board beside the panels, not above them
            assert box(page, "#board")["right"] <= box(page, "#status-card")["x"]
        else:
            assert box(page, "#turn")["y"] > box(page, "#board")["bottom"]
    finally:
        board.stop()


def test_a_hint_shows_its_score_in_words_on_a_bar_and_its_line_as_arrows(page):
    board = a_clocked_game_with_a_hint(page)
    try:
        words = page.find_element(By.ID, "analysis-words").text
        assert words.endswith(".") and ("better" in words or "equal" in words or "wins in" in words)
        analysis = view(page)["analysis"]
        steps = page.find_elements(By.CSS_SELECTOR, "#board svg .pv .step")
        assert 1 <= len(steps) <= 4 and len(steps) == min(4, len(analysis["pv"]))
        assert page.find_elements(By.CSS_SELECTOR, "#evalbar svg rect.white-part")
        assert "Hint:" in page.find_element(By.ID, "lights").text
        assert page.find_element(By.ID, "clock-white").text.startswith("White")
    finally:
        board.stop()


def test_the_set_up_menu_is_labelled_on_its_points_and_chosen_with_a_tap(page):
    board = Board(SimSettings(mode="computer", level=3, seed=4, menu=True), board_page=True)
    try:
        open_page(page, board)
        labels = page.execute_script(
            "return [...document.querySelectorAll('#board svg .menu-label text')].map(t => t.textContent)"
        )
        assert {"you: black", "vs computer", "2 players", "standard", "start", "10"} <= set(labels)
        assert page.find_element(By.ID, "act-next").text == "Start"
        tap(page, "#point-d6")  # level 5
        until(page, lambda d: view(d)["menu"]["settings"]["level"] == 5, what="level 5 chosen")
        assert "at level 5" in page.find_element(By.ID, "turn").text
        page.find_element(By.ID, "act-next").click()
        until(page, lambda d: view(d)["state"] == "game", what="the game to start")
        assert board.session.settings.level == 5
    finally:
        board.stop()


def test_the_page_is_german_for_a_german_browser():
    driver = start_chromium("de-DE,de")
    board = Board(SimSettings(mode="two-player", seed=1), board_page=False)
    try:
        size(driver, *PHONE)
        open_page(driver, board)
        until(driver, lambda d: d.execute_script("return document.documentElement.lang") == "de", what="German")
        assert driver.find_element(By.ID, "turn").text == "Weiß am Zug"
        assert driver.find_element(By.ID, "act-hint").text == "Tipp"
        assert driver.find_element(By.ID, "tab-review").text == "Partien"
        # the board's own corrections, by their kind, in German
        board.move(lambda hand: hand.place("d6", "white"))
        until(driver, lambda d: view(d)["turns"] == ["d6"], what="d6")
        board.move(lambda hand: hand.remove("d6"))
        until(driver, lambda d: "Setze wieder einen Stein auf d6" in d.find_element(By.ID, "problems").text)
        # the switch on the page: Norwegian, kept for the next visit
        driver.find_element(By.ID, "settings-open").click()
        Select(driver.find_element(By.ID, "lang")).select_by_value("nb")
        until(driver, lambda d: d.find_element(By.ID, "act-hint").text == "Tips", what="Norwegian")
        driver.get(board.url)
        until(driver, lambda d: d.execute_script("return document.documentElement.lang") == "nb", what="kept")
    finally:
        board.stop()
        driver.quit()


def test_dark_colours_follow_the_system_and_the_board_flips(page):
    board = Board(SimSettings(mode="two-player", seed=1), board_page=True)
    try:
        page.execute_cdp_cmd(
            "Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]}
        )
        open_page(page, board)
        background = page.execute_script("return getComputedStyle(document.body).backgroundColor")
        assert background == "rgb(23, 18, 14)"
        a7 = box(page, "#point-a7 .hole")
        page.find_element(By.ID, "settings-open").click()
        page.find_element(By.ID, "flip").click()
        until(page, lambda d: view(d).get("flipped"), what="the flipped board")
        flipped = box(page, "#point-a7 .hole")
        assert flipped["x"] > a7["x"] and flipped["y"] > a7["y"]  # a7 now at the bottom right
        assert page.find_element(By.CSS_SELECTOR, "link[rel=icon]").get_attribute("href").endswith("favicon.svg")
    finally:
        page.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
        board.stop()


# -- watching and pairing ----------------------------------------------------------------------


def test_the_page_follows_a_game_played_on_the_simulated_sensors(page):
    board = Board(SimSettings(mode="two-player", seed=1), board_page=False)
    try:
        open_page(page, board)
        assert not page.find_element(By.ID, "hand").is_displayed()
        record = ["d6", "a1", "f6", "a4", "b6xa1"]
        for number, token in enumerate(record, 1):
            turn = Turn.parse(token)
            colour = view(page)["game"]["turn"]
            board.move(lambda hand, t=turn, c=colour: hand.place(t.target, c))
            if turn.removal:
                until(page, lambda d: view(d).get("pending"), what="the mill")
                assert "closed a mill" in page.find_element(By.ID, "lights").text
                board.move(lambda hand, t=turn: hand.remove(t.removal))
            until(page, lambda d, n=number: len(view(d)["turns"]) == n, what=f"the turn {token}")
        assert (
            page.execute_script("return [...document.querySelectorAll('#record button')].map(b => b.textContent)")
            == record
        )
        assert page.find_element(By.ID, "turn").text == "Black to move"
        svg = page.find_element(By.CSS_SELECTOR, "#board svg")
        assert len(svg.find_elements(By.CSS_SELECTOR, ".man.white")) == 3
        board.move(lambda hand: hand.remove("d6"))
        until(page, lambda d: "put a man back on d6" in d.find_element(By.ID, "problems").text, what="the correction")
        board.move(lambda hand: hand.place("d6", "white"))
        until(page, lambda d: d.find_element(By.ID, "problems").text == "", what="the correction cleared")
        # a turn of the record clicked: that position; the arrow keys step on; Escape is the live board
        page.find_element(By.CSS_SELECTOR, "#panel-record summary").click()
        tap(page, "#record button[data-ply='2']")
        until(page, lambda d: d.find_element(By.ID, "browsing").is_displayed(), what="the position after a1")
        assert len(page.find_elements(By.CSS_SELECTOR, "#board svg .man")) == 2
        page.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
        until(page, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#board svg .man")) == 3, what="the next turn")
        page.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)
        until(page, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#board svg .man")) == 4, what="the live board")
    finally:
        board.stop()


def test_pair_with_the_buttons_and_control_from_the_page(page):
    board = Board(SimSettings(mode="computer", human="white", level=1, seed=3), board_page=False, trusted=False)
    try:
        open_page(page, board)
        assert page.find_element(By.ID, "pair").text == "Pair"
        # unpaired: an action asks for pairing first
        page.find_element(By.ID, "act-next").click()
        until(page, lambda d: d.find_element(By.ID, "pairing").is_displayed(), what="the pairing dialog")
        assert "Pair this browser" in page.find_element(By.ID, "pair-why").text
        page.find_element(By.ID, "ask").click()
        until(page, lambda d: board.session.pairing_until is not None, what="the board to blink")
        until(page, lambda d: "in this order:" in d.find_element(By.ID, "pair-message").text, what="the code")
        words = page.find_element(By.ID, "pair-message").text.split("in this order:")[1].strip(" .").split(", ")
        for word in words:  # the hand on the board types what only this page shows
            board.game.board.buttons.press({"New": "new", "Undo": "undo", "Hint": "hint", "Menu": "menu"}[word])
        board.game.seam.wake()
        until(page, lambda d: d.find_element(By.ID, "pair").text == "Paired", what="pairing by the buttons")
        page.find_element(By.CSS_SELECTOR, "#pairing button[value=close]").click()
        assert board.session.state == "game"  # the presses paired and did nothing else
        board.move(lambda hand: hand.place("d6", "white"))
        until(page, lambda d: view(d)["game"]["computer"], what="the computer's answer")
        page.find_element(By.ID, "act-takeback").click()
        until(page, lambda d: view(d)["turns"] == [], what="the takeback")
        board.move(lambda hand: hand.remove("d6"))
        until(page, lambda d: not view(d)["game"]["problems"], what="the board put right")
        until(page, lambda d: d.find_element(By.ID, "act-hint").is_enabled(), what="the hint allowed again")
        page.find_element(By.ID, "act-hint").click()
        until(page, lambda d: "Hint:" in d.find_element(By.ID, "lights").text, what="the hint")
        # resign (the page asks first), then a new game with other settings from the Game panel
        page.find_element(By.CSS_SELECTOR, "#panel-game summary").click()
        page.find_element(By.ID, "act-resign").click()
        page.switch_to.alert.accept()
        until(page, lambda d: d.find_element(By.ID, "turn").text.startswith("Game over."), what="the resignation")
        Select(page.find_element(By.NAME, "mode")).select_by_value("two-player")
        Select(page.find_element(By.NAME, "profile")).select_by_value("lasker")
        page.find_element(By.CSS_SELECTOR, "#new-game button").click()
        until(page, lambda d: view(d)["settings"]["profile"] == "lasker", what="the new game")
        assert board.session.settings.profile == "lasker" and board.session.settings.mode == "two-player"
    finally:
        board.stop()


def test_pairing_is_checked_again_after_the_board_restarts(page):
    board = Board(SimSettings(mode="two-player", seed=1), board_page=False, trusted=False)
    try:
        open_page(page, board)
        pair_with_pin(page)
        # the board's service restarts: its tokens went with it; the page reconnects by itself
        board = board.restart()
        until(page, lambda d: d.find_element(By.ID, "pair").text == "Pair", what="the badge dropped")
        assert page.find_element(By.ID, "conn").get_attribute("data-state") == "live"
        # a 403 for a token the board forgot drops the badge too, and offers pairing again
        pair_with_pin(page)
        token = next(c["value"] for c in page.get_cookies() if c["name"] == COOKIE)
        board.server.app.state.pairing.forget(token)  # as a full table of tokens drops the oldest
        board.move(lambda hand: hand.place("d6", "white"))
        until(page, lambda d: view(d)["turns"] == ["d6"], what="d6")
        page.find_element(By.ID, "act-takeback").click()
        until(page, lambda d: d.find_element(By.ID, "pairing").is_displayed(), what="pairing offered again")
        assert "no longer knows this browser" in page.find_element(By.ID, "pair-why").text
        assert page.find_element(By.ID, "pair").text == "Pair"
        assert board.session.controller.game.record == "d6"
    finally:
        board.stop()


def test_a_page_from_the_lan_to_the_simulator_s_board_is_offered_only_what_exists(page):
    board = Board(SimSettings(mode="two-player", seed=1), board_page=True, trusted=False)
    try:
        open_page(page, board)
        page.find_element(By.ID, "pair").click()
        until(page, lambda d: d.find_element(By.ID, "pairing").is_displayed(), what="the dialog")
        assert not page.find_element(By.ID, "ask").is_displayed()  # the page is the board: no buttons to press
        assert page.find_element(By.ID, "pin").is_displayed()  # this board has a PIN
    finally:
        board.stop()


def test_a_cross_site_post_is_refused_and_an_unpaired_browser_gets_403(page):
    board = Board(SimSettings(mode="two-player", seed=1), board_page=True, trusted=False)
    try:
        open_page(page, board)
        pair_with_pin(page)
        board.move(lambda hand: hand.place("d6", "white"))
        until(page, lambda d: view(d)["turns"] == ["d6"], what="d6")
        # another site (localhost is not 127.0.0.1 to a browser) posts to the board
        other = board.url.replace("127.0.0.1", "localhost")
        statuses = page.execute_async_script(
            """
            const done = arguments[arguments.length - 1];
            const own = await fetch('/api/action', {method: 'POST', headers: {'Content-Type': 'application/json'},
                                                    body: JSON.stringify({do: 'nothing-at-all'})});
            let cross = 'sent';
            try { await fetch(arguments[0] + 'api/action', {method: 'POST', mode: 'no-cors', credentials: 'include',
                              body: JSON.stringify({do: 'takeback'})}); } catch (e) { cross = 'blocked'; }
            done([own.status, cross]);
        """,
            other,
        )
        assert statuses[0] == 400  # the page's own (paired) request is heard, and refused for its content
        board.game.seam.submit(lambda s: None).result(5)
        assert board.session.controller.game.record == "d6"  # the cross-site takeback did nothing
        page.delete_all_cookies()
        page.get(board.url)
        until(page, lambda d: d.find_element(By.ID, "conn").get_attribute("data-state") == "live", what="the stream")
        status = page.execute_async_script("""
            const done = arguments[arguments.length - 1];
            fetch('/api/hand', {method: 'POST', headers: {'Content-Type': 'application/json'},
                  body: JSON.stringify({do: 'lift', point: 'd6'})}).then(r => done(r.status));
        """)
        assert status == 403
        tap(page, "#point-d6")
        until(page, lambda d: d.find_element(By.ID, "pairing").is_displayed(), what="the way to pair")
        assert board.game.board.hand.board == {"d6": "white"}
    finally:
        board.stop()


# -- review ----------------------------------------------------------------------------------


def finished_and_unfinished(state) -> None:
    from morris_pi.core.storage import Storage

    storage = Storage(state)
    won = Game.from_record("d6 a1 f6 a4 b6xa1 d2 d7")
    won.resign("black")
    storage.finish(won, {"id": "20260412-190000", "mode": "computer", "human": "white", "level": 2, "seed": 9})
    storage.finish(Game.from_record("d6 a1"), {"id": "20260413-080000", "mode": "two-player"})


def test_review_filters_deletes_unfinished_steps_with_the_keys_and_gives_the_fen(page, tmp_path):
    finished_and_unfinished(tmp_path)
    board = Board(SimSettings(mode="two-player", seed=1, state_dir=tmp_path), board_page=True)
    try:
        open_page(page, board)
        page.find_element(By.ID, "tab-review").click()
        until(page, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#games .game")) == 2, what="the list")
        rows = page.execute_script("return [...document.querySelectorAll('#games .game')].map(b => b.innerText)")
        assert "unfinished" in rows[0] and "White won" in rows[1]
        assert "2026" in rows[0] and "20260413" not in rows[0]  # a local time, not the id
        Select(page.find_element(By.ID, "filter-status")).select_by_value("finished")
        until(page, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#games .game")) == 1, what="finished only")
        Select(page.find_element(By.ID, "filter-player")).select_by_visible_text("Computer (level 2)")
        until(
            page,
            lambda d: (
                d.execute_script("return document.querySelector('#games .game').innerText").find("Computer (level 2)")
                >= 0
            ),
            what="the computer's games",
        )
        tap(page, "#games .game")
        until(page, lambda d: "7/7" in d.find_element(By.ID, "review-ply").text, what="the game at its end")
        body = page.find_element(By.TAG_NAME, "body")
        body.send_keys(Keys.HOME)
        until(page, lambda d: d.find_element(By.ID, "review-ply").text.startswith("start"), what="Home")
        body.send_keys(Keys.ARROW_RIGHT, Keys.ARROW_RIGHT)
        until(page, lambda d: d.find_element(By.ID, "review-ply").text.startswith("2/7"), what="two turns on")
        fen = page.find_element(By.ID, "fen").get_attribute("value")
        assert fen == Game.from_record("d6 a1").fen
        assert page.find_element(By.ID, "dl-fen").get_attribute("href").endswith("fen?ply=2&download=1")
        assert "picture?ply=2&download=1" in page.find_element(By.ID, "dl-svg").get_attribute("href")
        # the unfinished game goes, with a confirmation; the finished one stays
        Select(page.find_element(By.ID, "filter-player")).select_by_index(0)
        Select(page.find_element(By.ID, "filter-status")).select_by_value("unfinished")
        until(page, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#games .delete")) == 1, what="its delete button")
        tap(page, "#games .delete")
        page.switch_to.alert.accept()
        until(page, lambda d: d.find_element(By.ID, "games-empty").is_displayed(), what="the list without it")
        assert "No game matches" in page.find_element(By.ID, "games-empty").text
        assert [r.id for r in board.session.storage.list_records()] == ["20260412-190000"]
    finally:
        board.stop()


def test_an_empty_review_says_what_will_appear(page, tmp_path):
    board = Board(SimSettings(mode="two-player", seed=1, state_dir=tmp_path), board_page=True)
    try:
        open_page(page, board)
        page.find_element(By.ID, "tab-review").click()
        until(page, lambda d: d.find_element(By.ID, "games-empty").is_displayed(), what="the empty list")
        assert "appears here when it ends" in page.find_element(By.ID, "games-empty").text
    finally:
        board.stop()


PAYLOAD = "<img src=x onerror=window.__pwned=1>"


def test_a_record_carrying_script_shows_as_text_and_runs_nothing(page, tmp_path):
    """A record file another program (or a person with the SD card) wrote: its tags and a turn
    hold HTML with script. The Games pane shows it as words; no element is made of it."""
    from morris_pi.core.storage import Storage

    records = Storage(tmp_path).records_dir
    records.mkdir(parents=True)
    (records / "20250601-140322.txt").write_text(
        '[Event "casual"]\n[Date "2025.06.01"]\n[Time "14:03:22Z"]\n'
        f'[White "{PAYLOAD}"]\n[Black "<svg onload=window.__pwned=2>"]\n[Result "1-0"]\n[Profile "standard"]\n\n'
        "d6 a1 <img/src=x/onerror=window.__pwned=3>\n"
    )
    board = Board(SimSettings(mode="two-player", seed=1, state_dir=tmp_path), board_page=False)
    try:
        open_page(page, board)
        page.find_element(By.ID, "tab-review").click()
        until(page, lambda d: d.find_elements(By.CSS_SELECTOR, "#games .game"), what="the list of games")
        shown = page.execute_script("return document.querySelector('#games .game').innerText")
        assert PAYLOAD in shown  # the tag, as text
        until(page, lambda d: d.find_element(By.ID, "review-title").text.startswith("The game of"), what="the game")
        # the last position cannot be drawn (its third turn is no turn): the page says so, in words
        until(page, lambda d: "record 20250601-140322" in d.find_element(By.ID, "review-tags").text, what="refusal")
        assert "<img/src=x" in page.find_element(By.ID, "review-tags").text
        for button in ("first", "next", "next", "next", "last", "prev"):
            page.find_element(By.ID, button).click()
        until(page, lambda d: "2/3" in d.find_element(By.ID, "review-ply").text, what="the position after a1")
        until(page, lambda d: d.find_elements(By.CSS_SELECTOR, "#review-board svg"), what="a board picture")
        assert page.execute_script("return window.__pwned") is None
        assert [i.get_attribute("src") for i in page.find_elements(By.CSS_SELECTOR, "img")] == [
            page.find_element(By.CSS_SELECTOR, "img.logo").get_attribute("src")
        ]  # the page's own logo, and no image made of the record
        assert page.find_elements(By.CSS_SELECTOR, "#games svg, #review-tags *, #review-record img") == []
        turns = page.execute_script(
            "return [...document.querySelectorAll('#review-record button')].map(b => b.textContent)"
        )
        assert turns[-1].endswith("<img/src=x/onerror=window.__pwned=3>")
        csp = page.execute_async_script("""
            const done = arguments[arguments.length - 1];
            fetch('/').then(r => done(r.headers.get('content-security-policy')));
        """)
        assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp
        # nothing on the page carries a style attribute of its own (the board pictures' SVG aside)
        styled = page.execute_script(
            "return [...document.querySelectorAll('[style]')].filter(e => !e.closest('svg')).map(e => e.tagName)"
        )
        assert styled == []
    finally:
        board.stop()


# -- reviews ----------------------------------------------------------------------------------


def test_a_reviewed_game_marks_its_grades_charts_them_and_a_tap_on_the_chart_steps_there(page, tmp_path):
    from morris_pi.core.reviews import BackgroundReviewer
    from morris_pi.core.storage import Storage

    storage = Storage(tmp_path)
    game = Game.from_record("d6 a1 f6 a4 b6xa1 d7 b4 g7")
    game.resign("black")
    storage.finish(game, {"id": "20260412-190000", "mode": "two-player"})
    # as the board does after a game (quick budget: the test is about the page)
    BackgroundReviewer(storage, budget="quick").run_pending()
    board = Board(SimSettings(mode="two-player", seed=1, state_dir=tmp_path), board_page=True)
    try:
        open_page(page, board)
        page.find_element(By.ID, "tab-review").click()
        until(page, lambda d: d.find_elements(By.CSS_SELECTOR, "#review-chart svg .hit"), what="the chart")
        marks = "return [...document.querySelectorAll('#review-record button')].map(b => b.textContent)"
        until(page, lambda d: len(d.execute_script(marks)) == 8, what="the turns")
        until(page, lambda d: d.execute_script(marks)[3] == "a4?", what="the ignored mill marked a mistake")
        tap(page, "#chart-ply-4")
        until(page, lambda d: d.find_element(By.ID, "review-ply").text.startswith("4/"), what="the turn tapped")
        until(page, lambda d: d.find_elements(By.CSS_SELECTOR, "#review-board #better"), what="the better turn")
        assert "a4? a mistake" in text(page, "review-grade")
        assert "better:" in text(page, "review-grade")
        assert in_first_viewport(page, "#review-board")
        out = os.environ.get("MORRIS_SCREENSHOTS")
        if out:
            page.save_screenshot(os.path.join(out, "web-review-grades-phone.png"))
    finally:
        board.stop()


def test_a_practice_position_is_chosen_by_theme_set_up_and_its_solution_judged_on_the_phone(page, tmp_path):
    from morris_pi.core.practice import load_practice

    position = next(p for p in load_practice() if p.theme == "flying-win")
    board = Board(SimSettings(mode="two-player", seed=1, state_dir=tmp_path), board_page=True)
    try:
        open_page(page, board)
        page.find_element(By.ID, "tab-review").click()
        page.find_element(By.CSS_SELECTOR, "#practice summary").click()
        until(page, lambda d: d.find_elements(By.CSS_SELECTOR, "#practice-list .practice-item"), what="the positions")
        page.find_element(By.ID, "practice-player").send_keys("Ann" + Keys.TAB)
        Select(page.find_element(By.ID, "practice-theme")).select_by_value("flying-win")
        shown = "return [...document.querySelectorAll('#practice-list .practice-item')].map(b => b.dataset.id)"
        until(page, lambda d: all(i.startswith("flying-win") for i in d.execute_script(shown)), what="the flying wins")
        tap(page, f"#practice-list .practice-item[data-id='{position.id}']")
        until(page, lambda d: (view(d).get("setup") or {}).get("white"), what="the position to set up")
        setup = view(page)["setup"]
        for colour in ("white", "black"):  # the white men first: the switches cannot tell colour
            until(page, lambda d, colour=colour: (view(d).get("setup") or {}).get("next") == colour, what=colour)
            for point in setup[colour]:
                board.move(lambda hand, point=point, colour=colour: hand.place(point, colour))
        until(page, lambda d: view(d).get("setup") is None, what="the position standing")
        make_turn(page, Turn.parse(position.solution[0]), position.side)
        until(page, lambda d: "solved!" in text(d, "message"), what="the solution judged")
        out = os.environ.get("MORRIS_SCREENSHOTS")
        if out:
            page.save_screenshot(os.path.join(out, "web-practice-solved-phone.png"))
        page.find_element(By.ID, "tab-review").click()
        until(page, lambda d: "solved 1 of" in text(d, "practice-record"), what="Ann's record")
        if out:
            page.execute_script("document.getElementById('practice').scrollIntoView()")
            page.save_screenshot(os.path.join(out, "web-practice-phone.png"))
    finally:
        board.stop()
