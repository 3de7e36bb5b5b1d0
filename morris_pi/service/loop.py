"""The board service: config -> hardware -> session, scanned at ``sensors.scan_hz`` until stopped.

``morris-pi run`` calls ``run_service`` with the real clock, ``time.sleep`` and
a stop flag set by SIGTERM/SIGINT. Tests and benchmarks call it with a manual
clock, a sleep that only advances that clock, and the low-level objects the
hardware factory would otherwise open (gpiozero's MockFactory, the fake I2C
bus, the fake SPI port), so the real drivers, the real session and the real
loop run without a Pi and without waiting.

The loop steps the session at every scan, and also at the session's own
deadlines (a change to settle, a blink edge) when one comes sooner. Between
them it sleeps, so an idle board costs little CPU. It tells systemd READY once
the board is up, STATUS whenever the one-line status changes (side to move and
record length, or the menu, or a fault), WATCHDOG every half ``WatchdogSec``
from the loop itself (a hung loop stops the pings), and STOPPING on the way out.

Faults are shown on the LEDs (``morris_pi.core.session.ERROR_PATTERNS``),
logged once per episode, and retried with backoff:

- the sensors cannot be read or built (``SensorError``): the whole board shows
  the ``sensors`` pattern; the game waits, saved, until they answer again;
- the LED chain cannot be written: the game goes on, writes are retried;
- the engine fails (raises, or its thread dies without a turn): the controller
  shows the ``engine`` pattern and asks again every second.

A switch that flaps, or reads closed for 20 s where the game has no man, is
named in one WARNING per episode (``morris_pi.core.switchwatch``).
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable
from typing import Any

from morris_pi.config.model import Config
from morris_pi.core.menu import GameSettings
from morris_pi.core.opponents import EngineGrader, engine_opponents
from morris_pi.core.ports import Clock, MonotonicClock, Opponent
from morris_pi.core.session import Session, timings
from morris_pi.core.storage import Storage
from morris_pi.core.switchwatch import SwitchWatch
from morris_pi.hw.errors import HardwareError
from morris_pi.service.hardware import BoardHardware
from morris_pi.service.sdnotify import Notifier, watchdog_interval
from morris_pi.web.server import serve_board

log = logging.getLogger("morris_pi.service")


def engine_factory(config: Config, *, threaded: bool = True) -> Callable[[int], Opponent]:
    """Makes the computer player for a level: the engine, seeded and time-capped as configured."""
    return engine_opponents(config.engine.seed, max_time_s=config.engine.max_time_s, threaded=threaded, logger=log)


def run_service(
    config: Config,
    *,
    clock: Clock | None = None,
    sleep: Callable[[float], None] | None = None,
    stop: Callable[[], bool] | None = None,
    notifier: Notifier | None = None,
    env: dict[str, str] | None = None,
    pin_factory: Any = None,
    bus: Any = None,
    spi: Any = None,
    pixels: Any = None,
    opponent_factory: Callable[[int], Opponent] | None = None,
    storage: Storage | None = None,
    observe: Callable[[Session], None] | None = None,
) -> int:
    """Run the board until ``stop()`` is true; returns the exit code (0).

    Unexpected errors (a bug) propagate: the command logs them and exits 1,
    and systemd restarts the service, which resumes the saved game.
    """
    clock = clock or MonotonicClock()
    real_sleep = sleep is None
    sleep = sleep or time.sleep
    stop = stop or (lambda: False)
    notifier = notifier or Notifier(env)
    interval = watchdog_interval(env) if config.service.watchdog else None
    hardware = BoardHardware(config, clock, pin_factory=pin_factory, bus=bus, spi=spi, pixels=pixels)
    hardware.open()
    seam: Any = None
    server: Any = None
    settle_s, hold_s = timings(config.sensors.settle_ms)
    session = Session(
        sensors=hardware.sensors,
        leds=hardware.leds,
        buttons=hardware.buttons,
        clock=clock,
        storage=storage or Storage(config.storage.state_dir, config.storage.records_dir),
        defaults=GameSettings.from_config(config.game, config.assist),
        menu=config.game.menu,
        opponent_factory=opponent_factory or engine_factory(config),
        palette=config.palette,
        settle_s=settle_s,
        hold_s=hold_s,
        confirm_s=config.sensors.confirm_ms / 1000,
        grader=EngineGrader(max_time_s=config.engine.max_time_s),
    )
    try:
        how = session.start()
        log.info(
            "board up (%s sensors, %s LEDs, %d Hz scan): %s",
            config.sensors.backend,
            config.leds.backend,
            round(config.sensors.scan_hz),
            {"resumed": "saved game resumed", "menu": "set-up menu shown", "new": "new game"}[how],
        )
        if observe is not None:
            observe(session)
        if config.web.enabled:
            web = serve_board(config, session, clock)
            if web is not None:
                seam, server = web
                if real_sleep:
                    sleep = seam.wait  # a browser's action wakes the loop at once
        loop = _Loop(session, hardware, clock, 1.0 / config.sensors.scan_hz, seam)
        loop.scan()
        status = session.status()
        notifier.ready(status)
        next_ping = clock.now() if interval else math.inf
        while not stop():
            now = clock.now()
            asked = seam is not None and seam.pending
            if asked or now >= loop.next_scan or (loop.wake is not None and now >= loop.wake):
                seen = session.version, tuple(session.faults)
                loop.scan()
                if (session.version, tuple(session.faults)) != seen:
                    text = session.status()
                    if text != status:
                        status = text
                        notifier.status(status)
            if now >= next_ping:
                notifier.watchdog()
                next_ping = now + interval  # type: ignore[operator]
            due = min(loop.next_scan, next_ping, loop.wake if loop.wake is not None else math.inf)
            delay = due - clock.now()
            if delay > 0:
                sleep(delay)
        log.info("stopping: %s", session.status())
        notifier.stopping("stopping")
    finally:
        if server is not None:
            server.close()
        session.close()
        hardware.close()
        notifier.close()
    return 0


class _Loop:
    """One scan of the board with its fault handling; keeps the time of the next."""

    def __init__(
        self, session: Session, hardware: BoardHardware, clock: Clock, period: float, seam: Any = None
    ) -> None:
        self.session = session
        self.seam = seam  # the web page's: its actions run in this loop, its watchers learn what changed
        self.hardware = hardware
        self.clock = clock
        self.period = period
        self.next_scan = clock.now()
        self.wake: float | None = None
        self.switches = SwitchWatch()
        self._watched: tuple[int, frozenset[str]] | None = None

    def scan(self) -> None:
        now = self.clock.now()
        hw = self.hardware
        hw.leds.retry(now)
        hw.buttons.retry(now)
        sensors = hw.sensors.backoff
        session = self.session
        if self.seam is not None:
            self.seam.run_actions()
        self._sync_faults()
        if sensors.failing and not (sensors.due(now) and hw.sensors.retry(now)):
            session.refresh()  # the fault pattern blinks on
            self.wake = session.next_wakeup()
        else:
            try:
                session.step()
            except HardwareError as exc:
                sensors.failed(exc, now)
                self._sync_faults()
                session.refresh()
                self.wake = session.next_wakeup()
            else:
                sensors.recovered(now)
                # an idle scan (same reading, nothing done, no timer running) costs the watch nothing
                seen = (session.version, session.reading)
                if seen != self._watched or self.switches.busy:
                    self._watched = seen
                    self.switches.observe(session.reading, now, session.expected_men())
                self.wake = session.due
        if self.seam is not None:
            self.seam.refresh()
        if now >= self.next_scan:  # a scan at a deadline in between keeps the scan grid
            self.next_scan += self.period
            if self.next_scan <= now:  # late (a slow step): no burst of scans to catch up
                self.next_scan = now + self.period

    def _sync_faults(self) -> None:
        faults = self.hardware.faults()
        for kind in ("sensors", "leds"):
            if kind in faults:
                self.session.set_fault(kind, faults[kind])
            else:
                self.session.clear_fault(kind)
