"""Make the web page's screenshots in ``docs/`` with Debian's chromium, at a phone's size and a desktop's.

    python docs/make_web_screenshots.py [OUTDIR]

Simulated boards with their page (``morris-pi sim --web``), played from the page with taps or
on the simulated switches, seeded so the pictures come out the same each time. Each state is
shot as the first screen shows it, at 390 x 844 (``web-STATE-phone.png``, a phone) and at
1280 x 900 (``web-STATE-desktop.png``):

- ``live``: watching a game against the computer on the board: its prompted turn lit, the legend;
- ``hint``: a two-player game with a clock: the hint's score in words and on the bar, its line
  as numbered arrows;
- ``menu``: the set-up menu, each lit point labelled with what it chooses;
- ``board``: the page as the board (``--no-window``): a man held, the trays, the board's helpers;
- ``pairing``: a browser from the LAN asking to pair: the code to press on the board;
- ``over``: the end of a game on the page as the board;
- ``review``: a finished game stepped back to a turn, with its FEN and downloads;
- ``review-grades``: the same game's review: the turn's grade and the better turn drawn on the
  board, the evaluation chart under it (the chart tapped at a mistake);
- ``practice``: the practice positions of one theme with a player's record, and
  ``practice-solved``: a flying endgame set up from its FEN and solved on the page as the board.

And ``web-dark-phone.png``: the live game in dark colours (the system's choice).
"""

from __future__ import annotations

import random
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from test_web_browser import PIN, Board, choose, click_point, make_turn, open_page, tap, until, view

from morris_pi.core.reviews import BackgroundReviewer
from morris_pi.core.storage import Storage
from morris_pi.engine.player import EnginePlayer
from morris_pi.rules import Game, Turn
from morris_pi.sim.play import SimSettings
from morris_pi.traces.simple import random_game

SIZES = {"phone": (390, 844), "desktop": (1280, 900)}


def driver_for() -> webdriver.Chrome:
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "chromium"
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--hide-scrollbars",
        "--force-device-scale-factor=1",
    ):
        options.add_argument(arg)
    options.add_experimental_option("prefs", {"intl.accept_languages": "en-GB,en"})
    return webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)


def resize(driver, name: str) -> None:
    width, height = SIZES[name]
    mobile = name == "phone"
    metrics = {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile}
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)


def shoot(driver, out: Path, state: str, name: str, ready: Callable | None = None) -> None:
    """The first screen, as it is after ``ready`` (steady, so no blink is caught half way)."""
    resize(driver, name)
    driver.execute_script("window.scrollTo(0, 0); document.activeElement && document.activeElement.blur()")
    if ready is not None:
        ready(driver)
    # the LEDs blink in the picture too: a picture shows each one lit
    driver.execute_script(
        "document.querySelectorAll('svg [class*=blink-]').forEach("
        "e => e.setAttribute('class', e.getAttribute('class').replace(/blink-\\w+/, 'shown')))"
    )
    path = out / f"web-{state}-{name}.png"
    driver.save_screenshot(str(path))
    small(path)
    print(f"wrote {path}")


def small(path: Path) -> None:
    """The picture in 192 colours, a third of the bytes (Pillow comes with the png extra's CairoSVG)."""
    try:
        from PIL import Image
    except ImportError:
        return
    with Image.open(path) as shot:
        fewer = shot.convert("RGB").quantize(colors=192, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    fewer.save(path, optimize=True)


def both(driver, out: Path, state: str, ready: Callable | None = None) -> None:
    for name in SIZES:
        shoot(driver, out, state, name, ready)


def sensible(game: Game) -> Turn:
    """The human's turn: what the engine at level 4 plays there (seeded, so the pictures repeat)."""
    player = EnginePlayer(4, seed=3, threaded=False)
    player.start(game)
    turn = player.result()
    return turn if turn is not None else choose(game)


def play_until(driver, stop: Callable[[dict], bool], human: str = "white") -> None:
    """Play from the page, the human with taps and the computer's prompts carried out, until ``stop``."""
    for _ in range(400):
        v = view(driver)
        if stop(v) or v["game"]["outcome"]:
            return
        game = v["game"]
        if game["computer"]:
            make_turn(driver, Turn.parse(game["computer"]), "black" if human == "white" else "white")
        elif game["turn"] == human or not v.get("computer_side"):
            make_turn(driver, sensible(Game.from_record(game["record"], v["profile"])), game["turn"])
        else:
            played = len(v["turns"])
            until(driver, lambda d, n=played: view(d)["game"]["computer"] or len(view(d)["turns"]) > n)


def quiet(game: Game) -> Turn:
    """A placement that closes no mill (the pictures need no removal), else any turn."""
    turns = game.legal_turns()
    return next((t for t in turns if not t.removal), turns[0])


def live(driver, out: Path) -> None:
    board = Board(SimSettings(mode="computer", human="white", level=2, seed=7), board_page=False)
    try:
        open_page(driver, board)
        for round_ in range(4):
            game = Game.from_record(view(driver)["game"]["record"])
            turn = quiet(game)
            before = len(view(driver)["turns"])
            board.move(lambda hand, t=turn: hand.place(t.target, "white"))
            until(driver, lambda d, n=before: view(d)["game"]["computer"] and len(view(d)["turns"]) > n)
            if round_ == 3:
                break
            prompt = Turn.parse(view(driver)["game"]["computer"])
            done = len(view(driver)["turns"]) + 1
            board.move(lambda hand, p=prompt: hand.place(p.target, "black"))
            if prompt.removal:
                board.move(lambda hand, p=prompt: hand.remove(p.removal))
            until(driver, lambda d, n=done: len(view(d)["turns"]) == n and not view(d)["game"]["computer"])
        driver.find_element(By.CSS_SELECTOR, "#panel-lights summary").click()
        both(driver, out, "live")
        dark = [{"name": "prefers-color-scheme", "value": "dark"}]
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": dark})
        shoot(driver, out, "dark", "phone")
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
    finally:
        board.stop()


def hint(driver, out: Path) -> None:
    board = Board(SimSettings(mode="two-player", seed=3, clock="5+3"), board_page=True)
    try:
        open_page(driver, board)
        for n, point in enumerate(("d6", "a1", "f6", "a4", "b4", "g7"), 1):
            click_point(driver, point, lambda v, n=n: len(v["turns"]) == n, point)
        until(driver, lambda d: d.find_element(By.ID, "act-hint").is_enabled())
        driver.find_element(By.ID, "act-hint").click()
        until(driver, lambda d: view(d).get("hint") and view(d).get("analysis"), timeout=60)
        both(driver, out, "hint", lambda d: d.execute_script("say('')"))
    finally:
        board.stop()


def menu(driver, out: Path) -> None:
    board = Board(SimSettings(mode="computer", human="white", level=3, seed=4, menu=True), board_page=True)
    try:
        open_page(driver, board)
        tap(driver, "#point-f6")  # level 6
        until(driver, lambda d: view(d)["menu"]["settings"]["level"] == 6)
        both(driver, out, "menu")
    finally:
        board.stop()


def moving_and_white_to_move(v: dict) -> bool:
    placed = v.get("in_hand") == {"white": 0, "black": 0}
    return placed and v["game"]["turn"] == "white" and not v["game"]["computer"] and not v.get("pending")


def board_page(driver, out: Path) -> None:
    board = Board(SimSettings(mode="computer", human="white", level=3, seed=2), board_page=True)
    try:
        open_page(driver, board)
        play_until(driver, moving_and_white_to_move)
        if view(driver)["game"]["outcome"]:
            raise SystemExit(f"web-board: the game ended before its moving phase: {view(driver)['game']}")
        origin = sensible(Game.from_record(view(driver)["game"]["record"])).origin
        if origin:
            click_point(driver, origin, lambda v: v["hand"]["held"] is not None, "a man lifted")
        both(driver, out, "board")
    finally:
        board.stop()


def over(driver, out: Path) -> None:
    board = Board(SimSettings(mode="computer", human="white", level=1, seed=11), board_page=True)
    try:
        open_page(driver, board)
        play_until(driver, lambda v: False)
        until(driver, lambda d: view(d)["game"]["outcome"])
        both(driver, out, "over", lambda d: d.execute_script("say('')"))
    finally:
        board.stop()


def pairing(driver, out: Path) -> None:
    board = Board(SimSettings(mode="computer", human="white", level=3, seed=7), board_page=False, trusted=False)
    try:
        open_page(driver, board)
        driver.find_element(By.ID, "pair").click()
        driver.find_element(By.ID, "ask").click()
        until(driver, lambda d: view(d)["pairing"] and d.find_element(By.ID, "pair-code").is_displayed())
        both(driver, out, "pairing")
        driver.find_element(By.CSS_SELECTOR, "#pairing button[value=close]").click()
    finally:
        board.stop()


def review(driver, out: Path) -> None:
    with tempfile.TemporaryDirectory() as state:
        storage = Storage(Path(state))
        finished = random_game("standard", random.Random(4), computer="black")  # a whole game, to its end
        storage.finish(
            finished, {"id": "20260412-190000", "mode": "computer", "human": "white", "level": 4, "seed": 77}
        )
        storage.finish(Game.from_record("d6 a1 f6"), {"id": "20260413-081500", "mode": "two-player"})
        # as the board does after a game, on the quick budget for speed
        BackgroundReviewer(storage, budget="quick").run_pending()
        board = Board(SimSettings(mode="two-player", seed=1, state_dir=Path(state)), board_page=True)
        try:
            open_page(driver, board)
            driver.find_element(By.ID, "tab-review").click()
            until(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#games .game")) == 2)
            tap(driver, "#games li:nth-child(2) .game")
            until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#review-record button[data-ply='13']"))
            driver.find_element(By.CSS_SELECTOR, "#review-record button[data-ply='13']").click()
            until(driver, lambda d: d.find_element(By.ID, "review-ply").text.startswith("13/"))
            until(driver, lambda d: d.find_element(By.ID, "fen").get_attribute("value"))
            until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#review-chart svg .hit"))
            both(driver, out, "review")
            mistakes = "return [...document.querySelectorAll('#review-chart .pt')].map(p => p.classList[1])"
            grades = driver.execute_script(mistakes)
            worst = next((g for g in ("mistake", "blunder", "inaccuracy") if g in grades), grades[0])
            tap(driver, f"#chart-ply-{grades.index(worst) + 1}")
            until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#review-board svg"))
            both(driver, out, "review-grades")
        finally:
            board.stop()


def practice(driver, out: Path) -> None:
    from morris_pi.core.practice import load_practice

    position = next(p for p in load_practice() if p.theme == "flying-win")
    with tempfile.TemporaryDirectory() as state:
        board = Board(SimSettings(mode="two-player", seed=1, state_dir=Path(state)), board_page=True)
        try:
            open_page(driver, board)
            driver.find_element(By.ID, "tab-review").click()
            driver.find_element(By.CSS_SELECTOR, "#practice summary").click()
            until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#practice-list .practice-item"))
            driver.find_element(By.ID, "practice-player").send_keys("Ann\t")
            tap(driver, f"#practice-list .practice-item[data-id='{position.id}']")
            until(driver, lambda d: (view(d).get("setup") or {}).get("white"))
            setup = view(driver)["setup"]
            for colour in ("white", "black"):
                until(driver, lambda d, colour=colour: (view(d).get("setup") or {}).get("next") == colour)
                for point in setup[colour]:
                    board.move(lambda hand, point=point, colour=colour: hand.place(point, colour))
            until(driver, lambda d: view(d).get("setup") is None)
            make_turn(driver, Turn.parse(position.solution[0]), position.side)
            until(driver, lambda d: "solved!" in d.find_element(By.ID, "message").text)
            shoot(driver, out, "practice-solved", "phone")
            driver.find_element(By.ID, "tab-review").click()
            until(driver, lambda d: "solved 1 of" in d.find_element(By.ID, "practice-record").text)
            resize(driver, "phone")
            driver.execute_script("document.getElementById('practice').scrollIntoView()")
            driver.save_screenshot(str(out / "web-practice-phone.png"))
            print(f"wrote {out / 'web-practice-phone.png'}")
        finally:
            board.stop()


def main() -> int:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent
    out.mkdir(parents=True, exist_ok=True)
    driver = driver_for()
    try:
        for make in (live, hint, menu, board_page, pairing, over, review, practice):
            resize(driver, "phone")
            driver.delete_all_cookies()
            make(driver, out)
    finally:
        driver.quit()
    _ = PIN  # the boards made here pair by PIN where they must
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
