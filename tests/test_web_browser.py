"""The page in a real browser: Debian's chromium driven by Selenium through chromium-driver.

The boards run on the real clock (a browser cannot share a manual one), so every wait is
an explicit wait on a condition of the page or the board, never a fixed sleep. Without a
local chromium these tests are skipped, saying so; in CI (``CI`` set) they fail instead.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable

import pytest

pytest.importorskip("starlette")
webdriver = pytest.importorskip("selenium.webdriver")

from selenium.common.exceptions import TimeoutException  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

from morris_pi.rules import Game, Turn  # noqa: E402
from morris_pi.sim.browser import run_in_thread  # noqa: E402
from morris_pi.sim.session import SimSettings  # noqa: E402

PIN = "471108"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")


@pytest.fixture(scope="module")
def browser():
    if not (CHROMIUM and DRIVER):
        message = "chromium and chromium-driver are not installed (apt-get install -y chromium chromium-driver)"
        if os.environ.get("CI"):
            pytest.fail(message + "; CI must have them (.ci/run installs them)")
        pytest.skip(message)
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=430,1400"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture
def page(browser):
    browser.delete_all_cookies()
    yield browser


class Board:
    """A simulated board with its page served on a free port, run like ``morris-pi sim --web``."""

    def __init__(self, settings: SimSettings, *, board_page: bool) -> None:
        self.server, self.game, self.stop = run_in_thread(settings, board_page=board_page, pin=PIN)
        self.url = f"http://127.0.0.1:{self.server.port}/"
        self.session = self.game.session

    def move(self, action: Callable) -> None:
        """Move men on the simulated board by hand (as the window's mouse would)."""
        with self.game.board.lock:
            action(self.game.board.hand)
        self.game.seam.wake()


def until(driver, condition, timeout: float = 20.0, what: str = "the page"):
    try:
        return WebDriverWait(driver, timeout, poll_frequency=0.05).until(condition)
    except TimeoutException:
        raise AssertionError(
            f"timed out waiting for {what}; page status: "
            f"{driver.find_element(By.ID, 'status').text!r}, message: "
            f"{driver.find_element(By.ID, 'message').text!r}"
        ) from None


def view(driver) -> dict:
    return driver.execute_script("return state") or {}


def open_page(driver, board: Board) -> None:
    driver.get(board.url)
    until(driver, lambda d: d.find_element(By.ID, "conn").text == "live", what="the event stream")


def pair_with_pin(driver) -> None:
    driver.find_element(By.ID, "pair").click()
    until(driver, lambda d: d.find_element(By.ID, "pin").is_displayed(), what="the PIN field")
    driver.find_element(By.ID, "pin").send_keys(PIN)
    driver.find_element(By.ID, "send-pin").click()
    until(driver, lambda d: d.find_element(By.ID, "pair").text == "Paired", what="pairing by PIN")
    driver.find_element(By.CSS_SELECTOR, "#pairing button[value=close]").click()


def click_point(driver, point: str, expect: Callable[[dict], bool], what: str) -> None:
    driver.find_element(By.ID, f"point-{point}").click()
    until(driver, lambda d: expect(view(d)), what=what)


def make_turn(driver, turn: Turn, colour: str) -> None:
    """A whole turn with clicks on the page's board: lift and put, then take the removed man off."""
    before = len(view(driver)["turns"])
    if turn.origin is None:
        click_point(
            driver,
            turn.target,
            lambda v: v["hand"]["board"].get(turn.target) == colour,
            f"a {colour} man on {turn.target}",
        )
    else:
        click_point(driver, turn.origin, lambda v: v["hand"]["held"] is not None, f"the man on {turn.origin} lifted")
        click_point(
            driver,
            turn.target,
            lambda v: v["hand"]["board"].get(turn.target) == colour,
            f"the man put on {turn.target}",
        )
    if turn.removal:
        if view(driver)["game"]["computer"] != str(turn):  # a prompted turn is read whole; a human's step by step
            until(driver, lambda d: view(d).get("pending"), what=f"the mill of {turn}")
        click_point(driver, turn.removal, lambda v: v["hand"]["held"] is not None, f"{turn.removal} lifted")
        driver.find_element(By.ID, "drop").click()
        until(driver, lambda d: turn.removal not in view(d)["hand"]["board"], what=f"{turn.removal} taken off")
    until(driver, lambda d: len(view(d)["turns"]) > before or view(d)["game"]["outcome"], what=f"the turn {turn}")


def choose(game: Game) -> Turn:
    """The human's plan: take a man whenever possible, else the last legal turn."""
    turns = game.legal_turns()
    taking = [t for t in turns if t.removal]
    return (taking or turns)[-1]


def test_a_whole_game_against_the_computer_on_the_browser_board(page):
    board = Board(SimSettings(mode="computer", human="white", level=1, seed=11), board_page=True)
    try:
        open_page(page, board)
        assert page.find_element(By.ID, "hand").is_displayed()
        pair_with_pin(page)
        plies = 0
        while plies < 400:
            v = view(page)
            game = v["game"]
            if game["outcome"]:
                break
            assert not game["problems"], game["problems"]
            if game["computer"]:
                make_turn(page, Turn.parse(game["computer"]), "black")
            elif game["turn"] == "white":
                make_turn(page, choose(Game.from_record(game["record"], v["profile"])), "white")
            else:
                played = len(v["turns"])
                until(
                    page,
                    lambda d, n=played: view(d)["game"]["computer"] or len(view(d)["turns"]) > n,
                    what="the computer's turn",
                )
                continue
            plies += 1
        v = view(page)
        assert v["game"]["outcome"], f"no result after {plies} turns: {v['game']['record']}"
        assert page.find_element(By.ID, "turn").text.startswith("Game over")
        # the game the page played is the board's own game, turn for turn
        assert board.session.controller.game.record == v["game"]["record"]
        assert len(page.find_elements(By.CSS_SELECTOR, "#record button")) == len(v["turns"])
    finally:
        board.stop()


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
                assert (
                    "removable" in page.find_element(By.ID, "legend").text
                    or "taken" in page.find_element(By.ID, "legend").text
                )
                board.move(lambda hand, t=turn: hand.remove(t.removal))
            until(page, lambda d, n=number: len(view(d)["turns"]) == n, what=f"the turn {token}")
        assert [b.text for b in page.find_elements(By.CSS_SELECTOR, "#record button")] == record
        assert page.find_element(By.ID, "turn").text == "Black to move"
        svg = page.find_element(By.CSS_SELECTOR, "#board svg")
        assert len(svg.find_elements(By.CSS_SELECTOR, ".man.white")) == 3
        # a man taken off where no turn allows it: the page says what to put right
        board.move(lambda hand: hand.remove("d6"))
        until(page, lambda d: "put a man back on d6" in d.find_element(By.ID, "problems").text, what="the correction")
        board.move(lambda hand: hand.place("d6", "white"))
        until(page, lambda d: d.find_element(By.ID, "problems").text == "", what="the correction cleared")
        # a turn of the record clicked: that position, then back to the live board
        page.find_element(By.CSS_SELECTOR, "#record button[data-ply='2']").click()
        until(page, lambda d: d.find_element(By.ID, "browsing").is_displayed(), what="the position after a1")
        shown = page.find_element(By.CSS_SELECTOR, "#board svg")
        assert len(shown.find_elements(By.CSS_SELECTOR, ".man")) == 2
        page.find_element(By.ID, "back-live").click()
        until(page, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#board svg .man")) == 4, what="the live board")
    finally:
        board.stop()


def test_pair_with_the_button_and_control_from_the_page(page):
    board = Board(SimSettings(mode="computer", human="white", level=1, seed=3), board_page=False)
    try:
        open_page(page, board)
        # unpaired: the controls are refused, with the reason on the page
        page.execute_script("document.querySelector('#controls').classList.remove('locked')")
        page.find_element(By.CSS_SELECTOR, "button[data-do=hint]").click()
        until(page, lambda d: "not paired" in d.find_element(By.ID, "message").text, what="the refusal")
        # pair with the board's menu button while the board blinks
        page.find_element(By.ID, "pair").click()
        page.find_element(By.ID, "ask").click()
        until(page, lambda d: board.session.pairing_until is not None, what="the board to blink")
        until(page, lambda d: "in this order:" in d.find_element(By.ID, "pair-message").text, what="the code")
        words = page.find_element(By.ID, "pair-message").text.split("in this order:")[1].strip(" .").split(", ")
        for word in words:  # the hand on the board types what only this page shows
            board.game.board.buttons.press(word.lower())
        board.game.seam.wake()
        until(page, lambda d: d.find_element(By.ID, "pair").text == "Paired", what="pairing by the buttons")
        page.find_element(By.CSS_SELECTOR, "#pairing button[value=close]").click()
        assert board.session.state == "game"  # the press paired and did nothing else
        # a turn on the board, then take it back from the page
        board.move(lambda hand: hand.place("d6", "white"))
        until(page, lambda d: view(d)["game"]["computer"], what="the computer's answer")
        page.find_element(By.CSS_SELECTOR, "button[data-do=takeback]").click()
        until(page, lambda d: view(d)["turns"] == [], what="the takeback")
        board.move(lambda hand: hand.remove("d6"))
        until(page, lambda d: not view(d)["game"]["problems"], what="the board put right")
        # the board reads turns (and gives hints) again once the men have settled where the game has them
        until(page, lambda d: not board.session.controller.tracker.resync, what="the board in step again")
        page.find_element(By.CSS_SELECTOR, "button[data-do=hint]").click()
        until(page, lambda d: "Hint:" in d.find_element(By.ID, "computer").text, what="the hint")
        # resign (the page asks first), then a new game with other settings
        page.find_element(By.CSS_SELECTOR, "button[data-do=resign]").click()
        page.switch_to.alert.accept()
        until(page, lambda d: d.find_element(By.ID, "turn").text.startswith("Game over"), what="the resignation")
        Select(page.find_element(By.NAME, "mode")).select_by_value("two-player")
        Select(page.find_element(By.NAME, "profile")).select_by_visible_text("lasker")
        page.find_element(By.CSS_SELECTOR, "#new-game button").click()
        until(page, lambda d: "two players, lasker rules" in d.find_element(By.ID, "status").text, what="the new game")
        assert board.session.settings.profile == "lasker"
    finally:
        board.stop()


def test_a_cross_site_post_is_refused_and_an_unpaired_browser_gets_403(page):
    board = Board(SimSettings(mode="two-player", seed=1), board_page=True)
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
        # a browser that never paired: 403 from the API and the reason on the page
        page.delete_all_cookies()
        page.get(board.url)
        until(page, lambda d: d.find_element(By.ID, "conn").text == "live", what="the event stream")
        status = page.execute_async_script("""
            const done = arguments[arguments.length - 1];
            fetch('/api/hand', {method: 'POST', headers: {'Content-Type': 'application/json'},
                  body: JSON.stringify({do: 'lift', point: 'd6'})}).then(r => done(r.status));
        """)
        assert status == 403
        page.find_element(By.ID, "point-d6").click()
        until(page, lambda d: "not paired" in d.find_element(By.ID, "message").text, what="the refusal")
        assert board.game.board.hand.board == {"d6": "white"}
    finally:
        board.stop()


PAYLOAD = "<img src=x onerror=window.__pwned=1>"


def test_a_record_carrying_script_shows_as_text_and_runs_nothing(page, tmp_path):
    """A record file another program (or a person with the SD card) wrote: its tags and a turn
    hold HTML with script. The Review pane shows it as words; no element is made of it."""
    from morris_pi.board.storage import Storage

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
        until(page, lambda d: d.find_elements(By.CSS_SELECTOR, "#games button"), what="the list of games")
        assert PAYLOAD in page.find_element(By.CSS_SELECTOR, "#games button").text  # the tag, as text
        until(page, lambda d: "20250601-140322" in d.find_element(By.ID, "review-title").text, what="the game")
        # the last position cannot be drawn (its third turn is no turn): the page says so, in words
        until(page, lambda d: "record 20250601-140322" in d.find_element(By.ID, "review-tags").text, what="the refusal")
        assert "<img/src=x" in page.find_element(By.ID, "review-tags").text
        for button in ("first", "next", "next", "next", "last", "prev"):
            page.find_element(By.ID, button).click()
        until(page, lambda d: "2/3" in d.find_element(By.ID, "review-ply").text, what="the position after a1")
        until(page, lambda d: d.find_elements(By.CSS_SELECTOR, "#review-board svg"), what="a board picture")
        assert page.execute_script("return window.__pwned") is None
        assert page.find_elements(By.CSS_SELECTOR, "img") == []
        assert page.find_elements(By.CSS_SELECTOR, "#games svg, #review-tags *, #review-record img") == []
        turns = [b.text for b in page.find_elements(By.CSS_SELECTOR, "#review-record button")]
        assert turns[-1].endswith("<img/src=x/onerror=window.__pwned=3>")
        # and the answers carry the policy that would stop an inline handler even if one slipped in
        csp = page.execute_async_script("""
            const done = arguments[arguments.length - 1];
            fetch('/').then(r => done(r.headers.get('content-security-policy')));
        """)
        assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp
    finally:
        board.stop()
