"""The one thread-safe seam between the board loop and the web server.

The board loop (the service's, the simulator's) owns the ``Session``; the web
server runs in a thread of its own. They meet only here:

- the web side ``submit``\\ s an action (a function of the session) and gets a
  ``Future``; the board loop runs the queued actions in its own step
  (``run_actions``), so a browser's "hint" is the same ``Session.press("hint")``
  the board's button makes, at the same place in the loop;
- the board loop ``publish``\\ es a ``View`` after its step, only when something a
  watcher can see has changed, and wakes the listeners (the server's event loop,
  which pushes it to the pages over Server-Sent Events);
- ``wait`` is the loop's sleep: it returns early when an action is submitted.

Nothing here imports a web library: the service and the simulator use it
whether or not the web extra is installed.

>>> from morris_pi.core.ports import ManualClock
>>> from morris_pi.core.session import Session
>>> from morris_pi.core.menu import GameSettings
>>> from morris_pi.core.virtual import RecordingStrip, VirtualSensors
>>> session = Session(sensors=VirtualSensors(), leds=RecordingStrip(), clock=ManualClock(),
...                   defaults=GameSettings(mode="two-player"), menu=False)
>>> _ = session.start(); seam = BoardSeam(session)
>>> seam.publish().state, seam.view.snapshot.turn
('game', 'white')
>>> done = seam.submit(lambda s: s.press("menu")); seam.pending
True
>>> seam.run_actions(); session.step(); seam.publish().state, done.result()
('menu', None)
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable, Mapping
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

from morris_pi.core.controller import Snapshot
from morris_pi.core.gameclock import GameClock
from morris_pi.core.menu import GameSettings
from morris_pi.core.session import Session

log = logging.getLogger(__name__)

Action = Callable[[Session], Any]


@dataclass(frozen=True)
class View:
    """What a watcher sees, taken in the board loop's thread after a step (immutable)."""

    version: int
    state: str  # "menu" | "game" | "idle"
    status: str  # the one line systemd shows
    settings: GameSettings
    snapshot: Snapshot | None
    turns: tuple[str, ...] = ()  # the game's turns, for the clickable record
    game_id: str | None = None
    menu: Mapping[str, Any] | None = None  # describe, options (point -> words), chosen
    faults: Mapping[str, str] = field(default_factory=dict)
    pairing: bool = False  # the board blinks the pairing pattern
    pairings: int = 0  # pairings granted with the board's buttons so far
    granted: tuple[str, ...] = ()  # the tickets of the pairing requests granted lately
    brightness: float = 1.0
    hand: Mapping[str, Any] | None = None  # the browser board's men, trays and held man
    analysis: Mapping[str, Any] | None = None  # the last hint's search (``Analysis.to_dict``): the evaluation
    searched: Mapping[str, Any] | None = None  # the computer's own last search (``Analysis.to_dict``)
    clock: Mapping[str, Any] | None = None  # the two-player clock: control, left, running, low, flagged
    can: Mapping[str, bool] = field(default_factory=dict)  # which of the board's actions make sense now
    claimable: str | None = None  # the draw that may be claimed now, if any
    overlay: tuple[tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]] = ((), ())  # low-time roles

    def key(self) -> tuple[Any, ...]:
        """Everything a watcher can see (not the time): a new view is published only when it changes."""
        snap = self.snapshot
        snap_key = (
            None
            if snap is None
            else (
                snap.to_dict() | {"t": None},
                dict(snap.status),
                snap.hint,
                snap.thinking,
                snap.pending,
                snap.lifted,
                snap.fault,
                repr(snap.warning),
                repr(snap.hints_left),
                snap.grading,
            )
        )
        return (
            self.state,
            self.status,
            self.settings,
            snap_key,
            self.turns,
            self.game_id,
            repr(self.menu),
            tuple(sorted(self.faults.items())),
            self.pairing,
            self.pairings,
            self.granted,
            self.brightness,
            repr(self.hand),
            repr(self.analysis),
            repr(self.searched),
            None if self.clock is None else {k: v for k, v in self.clock.items() if k != "left"},
            tuple(sorted(self.can.items())),
            self.claimable,
            self.overlay,
        )


def take_view(session: Session, version: int, hand: Mapping[str, Any] | None = None) -> View:
    """The session as a ``View`` (call in the board loop's thread)."""
    menu = session.menu
    controller = session.controller
    snap = session.snapshot() if menu is None else None
    turns = tuple(str(t) for t in controller.game.history) if controller is not None and menu is None else ()
    now = session.clock.now()
    in_game = menu is None and controller is not None
    analyses = controller.analyses if in_game and controller is not None else {}
    analysis, searched = analyses.get("hint"), analyses.get("turn")
    game_clock = session.game_clock if in_game else None
    overlay = session.clock_roles(now)
    # the wall-time cap cut the computer's last search short: the page says so
    cut = getattr(controller.opponent if controller is not None else None, "cut", None)
    return View(
        version=version,
        state=session.state,
        status=session.status(),
        settings=session.settings if menu is None else menu.settings,
        snapshot=snap,
        turns=turns,
        game_id=session.meta.get("id") if menu is None else None,
        menu=None
        if menu is None
        else {
            "describe": menu.describe(),
            "options": menu.options(),
            "choices": {point: list(choice) for point, choice in menu.choices().items()},
            "chosen": list(menu.chosen()),
            "settings": menu.settings.meta(),
            "leds": dict(menu.frame().points),
        },
        faults=session.all_faults(),
        pairing=session.pairing_until is not None,
        pairings=session.pairings,
        granted=tuple(session.granted),
        brightness=session.brightness,
        hand=hand,
        analysis=analysis.to_dict() if analysis is not None else None,
        searched=None if searched is None else {**searched.to_dict(), "cut": cut},
        clock=None if game_clock is None else clock_json(game_clock, now),
        can=actions(session),
        claimable=controller.game.claimable_draw() if in_game and controller is not None else None,
        overlay=(tuple(sorted(overlay[0].items())), tuple(sorted(overlay[1].items()))),
    )


def clock_json(clock: GameClock, now: float) -> dict[str, Any]:
    """The clock as the page shows it: the control, each side's seconds left now, whose time runs."""
    return {
        "control": str(clock.control),
        "left": {side: round(clock.remaining(side, now), 2) for side in ("white", "black")},
        "running": clock.running,
        "low": [side for side in ("white", "black") if clock.low(side, now)],
        "flagged": clock.flagged,
        "low_s": clock.control.low_s,
    }


def actions(session: Session) -> dict[str, bool]:
    """Which of the board's actions the page may offer now (the board refuses the others, saying why)."""
    menu, controller = session.menu, session.controller
    if menu is not None or controller is None:
        return {"start": menu is not None, "menu": False}
    game = controller.game
    tracker = controller.tracker
    over = game.outcome is not None
    clock = session.game_clock
    return {
        "hint": not over
        and game.turn != tracker.computer
        and not tracker.resync
        and not controller.waiting
        and controller.hints_left()[game.turn] != 0,
        "playon": controller.warning is not None,
        "takeback": bool(game.history) or game.pending is not None,
        "draw": game.claimable_draw() is not None,
        "resign": not over,
        "new": True,
        "menu": True,
        "flag": not over and clock is not None and clock.flagged == game.turn,
    }


class BoardSeam:
    """Actions in, views out, between the board loop's thread and the web server's.

    ``hand`` (optional) is the browser board's hand: an object with ``state()``
    (a JSON-able mapping) that the simulator gives when the page is the board;
    ``version`` grows whenever that state changes.
    """

    def __init__(self, session: Session, *, hand: Any = None) -> None:
        self.session = session
        self.hand = hand
        self._lock = threading.Lock()
        self._actions: deque[tuple[Action, Future[Any]]] = deque()
        self._wake = threading.Event()
        self._listeners: list[Callable[[View], None]] = []
        self._key: tuple[Any, ...] | None = None
        self._version = 0
        self._seen: tuple[Any, ...] | None = None
        self.view: View | None = None

    # -- the board loop's side ------------------------------------------------------------

    @property
    def pending(self) -> bool:
        """Whether actions wait to be run."""
        return bool(self._actions)

    def run_actions(self) -> None:
        """Run the submitted actions against the session, oldest first (in the board loop)."""
        self._wake.clear()
        while True:
            with self._lock:
                if not self._actions:
                    return
                action, future = self._actions.popleft()
            if not future.set_running_or_notify_cancel():
                continue
            try:
                result = action(self.session)
            except (ValueError, LookupError) as exc:  # refused: the page says why
                future.set_exception(exc)
            except Exception as exc:  # a bug: logged here, the board goes on
                log.exception("a web action failed")
                future.set_exception(exc)
            else:
                future.set_result(result)

    def refresh(self) -> None:
        """``publish`` if the session did something since the last call (cheap when idle)."""
        session = self.session
        seen = (session.version, getattr(self.hand, "version", 0), len(session.faults), session.keeper.fault)
        if seen != self._seen:
            self._seen = seen
            self.publish()

    def publish(self) -> View:
        """Take the session's view; tell the listeners if a watcher would see a difference."""
        hand = self.hand.state() if self.hand is not None else None
        view = take_view(self.session, self._version + 1, hand)
        key = view.key()
        if key == self._key and self.view is not None:
            return self.view
        self._key = key
        self._version += 1
        self.view = view
        with self._lock:
            listeners = list(self._listeners)
        for listener in listeners:
            try:
                listener(view)
            except Exception:  # a listener must never stop the board
                log.exception("a web listener failed")
        return view

    def wait(self, timeout: float | None) -> bool:
        """The loop's sleep: up to ``timeout`` seconds, less if an action arrives; returns whether one did."""
        if self._actions:
            return True
        return self._wake.wait(timeout)

    def wake(self) -> None:
        """End a ``wait`` now (a loop told to stop)."""
        self._wake.set()

    # -- the web server's side --------------------------------------------------------------

    def submit(self, action: Action) -> Future[Any]:
        """Queue ``action(session)`` for the board loop; the future holds its result or error."""
        future: Future[Any] = Future()
        with self._lock:
            self._actions.append((action, future))
        self._wake.set()
        return future

    def listen(self, listener: Callable[[View], None]) -> Callable[[], None]:
        """Call ``listener(view)`` (in the board loop's thread) for every new view; returns the way to stop."""
        with self._lock:
            self._listeners.append(listener)

        def stop() -> None:
            with self._lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)

        return stop
