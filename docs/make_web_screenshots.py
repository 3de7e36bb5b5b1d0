"""Make the web page's screenshots in ``docs/`` with Debian's chromium at a phone's width.

    python docs/make_web_screenshots.py [OUTDIR]

A simulated board with its page (``morris-pi sim --web --no-window``, the
computer at level 1, seed 7, games kept in a temporary state directory) is
played from the page with clicks. Pictures, 412 px wide like a common phone:

- ``web-board.png``: the page as the board: a man just put down with a click, the trays below;
- ``web-live.png``: the live game, the computer's prompted turn lit on the
  board, the legend and the clickable record, the controls of a paired browser;
- ``web-pairing.png``: an unpaired browser asking, the board blinking its pairing pattern;
- ``web-review.png``: a finished game stepped back to one of its turns, with the downloads.
"""

from __future__ import annotations

import random
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from test_web_browser import PIN, choose, make_turn, until, view

from morris_pi.board.storage import Storage
from morris_pi.rules import Game, Turn
from morris_pi.sim.browser import run_in_thread
from morris_pi.sim.session import SimSettings
from morris_pi.tracing import random_game

WIDTH = 412


def shoot(driver, path: Path) -> None:
    """The whole page, as tall as its content."""
    height = driver.execute_script("return document.documentElement.scrollHeight")
    metrics = {"width": WIDTH, "height": height, "deviceScaleFactor": 1, "mobile": True}
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
    driver.execute_script("window.scrollTo(0, 0)")
    driver.save_screenshot(str(path))
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    print(f"wrote {path}")


def main() -> int:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent
    out.mkdir(parents=True, exist_ok=True)
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "chromium"
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--hide-scrollbars",
        f"--window-size={WIDTH},900",
        "--force-device-scale-factor=1",
    ):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
    with tempfile.TemporaryDirectory() as state:
        storage = Storage(Path(state), Path(state) / "records")
        finished = random_game("standard", random.Random(4), computer="black")  # a whole game, to its end
        storage.finish(
            finished, {"id": "20260412-190000", "mode": "computer", "human": "white", "level": 1, "profile": "standard"}
        )
        settings = SimSettings(mode="computer", human="white", level=1, seed=7, state_dir=Path(state))
        server, game, stop = run_in_thread(settings, board_page=True, pin=PIN)
        url = f"http://127.0.0.1:{server.port}/"
        try:
            # pairing: an unpaired browser asks, the board blinks
            driver.get(url)
            until(driver, lambda d: d.find_element(By.ID, "conn").text == "live")
            driver.find_element(By.ID, "pair").click()
            driver.find_element(By.ID, "ask").click()
            until(driver, lambda d: view(d)["pairing"])
            driver.execute_script("document.getElementById('board').innerHTML = state.svg")
            shoot(driver, out / "web-pairing.png")
            game.board.buttons.press("menu")
            game.seam.wake()
            until(driver, lambda d: d.find_element(By.ID, "pair").text == "Paired")
            driver.find_element(By.CSS_SELECTOR, "#pairing button[value=close]").click()
            # a few turns, then the computer's prompted turn on the board
            while True:
                v = view(driver)
                if v["game"]["computer"] and len(v["turns"]) >= 5:
                    break
                if v["game"]["computer"]:
                    make_turn(driver, Turn.parse(v["game"]["computer"]), "black")
                elif v["game"]["turn"] == "white":
                    make_turn(driver, choose(Game.from_record(v["game"]["record"])), "white")
                else:
                    played = len(v["turns"])
                    until(driver, lambda d, n=played: view(d)["game"]["computer"] or len(view(d)["turns"]) > n)
            driver.find_element(By.ID, "tab-live").click()
            shoot(driver, out / "web-live.png")
            # the page as the board: carry out the prompt, then put a white man down
            make_turn(driver, Turn.parse(view(driver)["game"]["computer"]), "black")
            until(driver, lambda d: view(d)["game"]["turn"] == "white" and not view(d)["game"]["computer"])
            target = choose(Game.from_record(view(driver)["game"]["record"])).target
            driver.find_element(By.ID, f"point-{target}").click()
            until(driver, lambda d: view(d)["hand"]["board"])
            shoot(driver, out / "web-board.png")
            # review: the finished game, stepped back to the mill of turn 13
            driver.find_element(By.ID, "tab-review").click()
            until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#review-board svg"))
            driver.find_element(By.CSS_SELECTOR, "#review-record button[data-ply='13']").click()
            until(driver, lambda d: "13/" in d.find_element(By.ID, "review-ply").text)
            shoot(driver, out / "web-review.png")
        finally:
            stop()
            driver.quit()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
