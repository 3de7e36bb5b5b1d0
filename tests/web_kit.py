"""A board with its web page for the tests: the board's ``Session`` over virtual ends, a board
loop in a thread (as the service runs it), and the page's API through Starlette's TestClient.

The loop waits on the seam as the service's does; the test changes the switches and the
manual clock under the loop's lock, then ``sync`` waits until the loop has stepped.
"""

from __future__ import annotations

import threading

from starlette.testclient import TestClient

from morris_pi.core.menu import GameSettings
from morris_pi.core.ports import FirstLegalOpponent, ManualClock
from morris_pi.core.session import Session
from morris_pi.core.virtual import RecordingStrip, VirtualButtons, VirtualSensors
from morris_pi.web.app import create_app
from morris_pi.web.limits import RequestRates
from morris_pi.web.seam import BoardSeam

ORIGIN = "http://testserver"


class WebBoard:
    def __init__(
        self,
        *,
        settings: GameSettings | None = None,
        menu: bool = False,
        storage=None,
        pin: str | None = None,
        opponent_factory=None,
        buttons: tuple[str, ...] = ("new", "undo", "hint", "menu"),
        rates: RequestRates | None = None,
        trust_loopback: bool = False,
    ) -> None:
        self.clock = ManualClock(100.0)
        self.sensors = VirtualSensors()
        self.strip = RecordingStrip()
        self.buttons = VirtualButtons()
        self.session = Session(
            sensors=self.sensors,
            leds=self.strip,
            clock=self.clock,
            buttons=self.buttons,
            storage=storage,
            defaults=settings or GameSettings(mode="two-player"),
            menu=menu,
            opponent_factory=opponent_factory or (lambda level: FirstLegalOpponent()),
        )
        self.session.start()
        self.session.step()  # the first reading: the empty board the game starts from
        self.seam = BoardSeam(self.session)
        self.seam.publish()
        # the request rates run on the board's manual clock: a test's burst of requests is
        # one instant, so the limits are set out of its way (test_web_attacks tests them)
        self.rates = rates or RequestRates(self.clock.now, client_burst=1e9, total_burst=1e9)
        self.app = create_app(
            self.seam,
            storage=storage,
            pin=pin,
            clock=self.clock,
            buttons=buttons,
            rates=self.rates,
            trust_loopback=trust_loopback,
        )
        self.lock = threading.RLock()
        self._stopping = False
        self._browsers: dict[tuple[str, int], TestClient] = {}
        self._thread = threading.Thread(target=self._loop, daemon=True)

    # -- the board loop -----------------------------------------------------------------

    def _loop(self) -> None:
        while not self._stopping:
            self.seam.wait(0.05)
            with self.lock:
                self.seam.run_actions()
                self.session.step()
                self.seam.refresh()

    def __enter__(self) -> WebBoard:
        self._thread.start()
        self.client = TestClient(self.app, base_url=ORIGIN).__enter__()
        return self

    def __exit__(self, *exc) -> None:
        self.client.__exit__(*exc)
        self._stopping = True
        self.seam.wake()
        self._thread.join(5)
        self.session.close()

    def sync(self) -> None:
        """Return once the loop has stepped after now (two round trips through the seam)."""
        for _ in range(2):
            self.seam.submit(lambda s: None).result(5)

    # -- hands on the board ------------------------------------------------------------

    def put(self, point: str) -> None:
        with self.lock:
            self.sensors.close_switch(point)
        self.sync()
        self.wait_out()

    def take(self, point: str) -> None:
        with self.lock:
            self.sensors.open_switch(point)
        self.sync()
        self.wait_out()

    def wait_out(self, seconds: float = 1.0) -> None:
        """Let ``seconds`` of board time pass (the switches settle), stepping at every deadline."""
        with self.lock:
            end = self.clock.now() + seconds
            while True:
                due = self.session.next_wakeup()
                if due is None or due > end:
                    break
                self.clock.set(max(due, self.clock.now()))
                self.session.step()
            self.clock.set(end)
            self.session.step()
            self.seam.refresh()

    def press(self, name: str) -> None:
        with self.lock:
            self.buttons.press(name)
        self.sync()

    def press_all(self, names) -> None:
        """Press the buttons one after another (a pairing code, typed by the hand on the board)."""
        for name in names:
            self.press(name)

    # -- the page's requests -------------------------------------------------------------

    def browser(self, client: tuple[str, int]) -> TestClient:
        """Another browser, at another address (its own cookies)."""
        if client not in self._browsers:
            self._browsers[client] = TestClient(self.app, base_url=ORIGIN, client=client)
        return self._browsers[client]

    def post(self, path: str, data: dict, *, origin: str | None = ORIGIN, client: tuple[str, int] | None = None, **kw):
        headers = {"Origin": origin} if origin is not None else {}
        http = self.client if client is None else self.browser(client)
        return http.post(path, json=data, headers=headers, **kw)

    def pair_with_pin(self, pin: str) -> None:
        answer = self.post("/api/pair", {"pin": pin})
        assert answer.status_code == 200, answer.text

    def act(self, data: dict):
        answer = self.post("/api/action", data)
        self.sync()
        return answer
