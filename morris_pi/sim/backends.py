"""Simulated ends of the controller: sensors, LED strip and buttons, plus a trace recorder.

They implement ``morris_pi.core.ports`` like the hardware backends do, so the
controller cannot tell the simulator from the real board. ``SimBoard`` bundles
them with a ``Hand`` so any code (the window, tests, the self-test) can drive
the simulated board and read what its LEDs show. Like the hardware ends, each
closes once (``close()``, ``closed``, ``with``) and then refuses to be read or shown.

>>> from morris_pi.core.ports import ManualClock
>>> board = SimBoard(clock=ManualClock())
>>> board.sensors.read()
frozenset()
>>> board.clock.advance(0.25); board.hand.place("d6", "white"); board.sensors.read()
frozenset({'d6'})
>>> board.clock.advance(0.5); board.buttons.press("undo"); board.buttons.pressed()
['undo']
>>> board.recorder.events
[{'t': 0.0, 'snapshot': []}, {'t': 0.25, 'on': 'd6'}, {'t': 0.75, 'button': 'undo'}]
"""

from __future__ import annotations

import _thread
import json
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import IO

from morris_pi.core.closing import Closeable
from morris_pi.core.ports import BUTTONS, RGB, Clock, MonotonicClock
from morris_pi.rules import POINTS

from .hand import Hand


class TraceRecorder:
    """Collects the sensor trace of the games played, in the ``morris-pi replay`` format.

    A trace starts (``t`` = 0) at the first sensor reading, with a ``snapshot``
    of the board as it stands then: ``replay`` takes what is there at ``t`` = 0
    as the starting board, as the controller did. Every later event is stamped
    after it, in seconds rounded to milliseconds, so a glitch seen in the window
    replays headless with the same timing.

    Whoever runs the game decides what ``replay`` can follow: ``stop`` ends the
    trace (while the set-up menu is up, men put on the points are choices, not
    turns) and ``restart`` begins a new one with its own header and starting
    board. Finished traces are kept and saved beside the latest one.

    >>> from morris_pi.core.ports import ManualClock
    >>> rec = TraceRecorder(ManualClock(5.0), {"profile": "standard"})
    >>> rec.begin(frozenset({"d6"})); rec.switch("a1", True, when=5.5); rec.stop()
    >>> rec.switch("a4", True)               # not recorded: no trace runs
    >>> rec.restart({"profile": "club"}, frozenset(), when=7.0); rec.button("undo")
    >>> [t.header["profile"] for t in rec.traces()], rec.events
    (['standard', 'club'], [{'t': 0.0, 'snapshot': []}, {'t': 0.001, 'button': 'undo'}])
    """

    def __init__(self, clock: Clock, header: Mapping[str, object] | None = None, *, recording: bool = True) -> None:
        self.clock = clock
        self.start: float | None = None
        self.header: dict[str, object] = dict(header or {})
        self.events: list[dict[str, object]] = []
        #: Whether events are recorded now (``stop`` / ``restart``).
        self.recording = recording
        #: Earlier traces of this run, oldest first.
        self.finished: list[Trace] = []

    def begin(self, closed: frozenset[str], when: float | None = None) -> None:
        """The first reading: the board the controller starts from."""
        if self.recording and self.start is None:
            self.start = self.clock.now() if when is None else when
            self.events.append({"t": 0.0, "snapshot": sorted(closed)})

    def stamp(self, when: float | None = None) -> float:
        when = self.clock.now() if when is None else when
        if self.start is None:
            self.start = when
        t = round(when - self.start, 3)
        # t = 0 belongs to the starting board: anything later is later, however soon
        return t if t > 0 or not self.events else 0.001

    def switch(self, point: str, closed: bool, when: float | None = None) -> None:
        if self.recording:
            self.events.append({"t": self.stamp(when), "on" if closed else "off": point})

    def button(self, name: str) -> None:
        if self.recording:
            self.events.append({"t": self.stamp(), "button": name})

    # -- traces -------------------------------------------------------------------------

    def stop(self, *, drop_button: str | None = None, after: int = 0) -> None:
        """End the running trace (kept for ``save``); nothing is recorded until ``restart``.

        Presses of ``drop_button`` among the events after the first ``after``
        are left out: the press that opened the set-up menu belongs to the
        menu, not to the game.
        """
        if drop_button is not None:
            self.events[after:] = [e for e in self.events[after:] if e.get("button") != drop_button]
        self._keep()
        self.recording = False
        self.start = None
        self.events = []

    def restart(self, header: Mapping[str, object], closed: frozenset[str], when: float | None = None) -> None:
        """End the running trace and start a new one: ``header``, and ``closed`` as the board at ``t`` = 0."""
        self.stop()
        self.header = dict(header)
        self.recording = True
        self.begin(closed, when)

    def _keep(self) -> None:
        if any("snapshot" not in event for event in self.events):  # a bare starting board shows nothing
            self.finished.append(Trace(dict(self.header), list(self.events), self.stamp()))

    def traces(self) -> list[Trace]:
        """Every trace worth saving, oldest first; the running one (if it has events) last."""
        out = list(self.finished)
        if self.recording and self.start is not None:
            out.append(Trace(dict(self.header), list(self.events), self.stamp()))
        return out

    def write(self, out: IO[str]) -> int:
        """Write the running trace's header and events as JSON Lines; returns the number of event lines."""
        return Trace(self.header, self.events, None).write(out)

    def save(self, path: str | Path) -> list[tuple[Path, int]]:
        """Save the traces: the latest to ``path``, earlier ones to ``path``'s name with ``-1``, ``-2``...
        (oldest first). Returns each file written with its number of events."""
        path = Path(path)
        traces = self.traces()
        written = []
        for i, trace in enumerate(traces, start=1):
            target = path if i == len(traces) else path.with_name(f"{path.stem}-{i}{path.suffix}")
            with open(target, "w", encoding="utf-8") as out:
                written.append((target, trace.write(out)))
        return written


class Trace:
    """One finished trace: its header, its events and the time mark that ends it."""

    def __init__(self, header: Mapping[str, object], events: list[dict[str, object]], end: float | None) -> None:
        self.header = dict(header)
        self.events = events
        self.end = end

    def write(self, out: IO[str]) -> int:
        if self.header:
            out.write(json.dumps(self.header) + "\n")
        for event in self.events:
            out.write(json.dumps(event) + "\n")
        if self.end is not None:
            out.write(json.dumps({"t": self.end}) + "\n")
        return len(self.events)


class SimSensors(Closeable):
    """The reed switches: whatever the hand's men and magnets close.

    ``read()`` also logs every change to the recorder, at the time it really
    happened (a magnet slid past a point opens its switch at a known instant,
    even if nobody read the sensors then).
    """

    def __init__(
        self, hand: Hand, clock: Clock, recorder: TraceRecorder | None = None, lock: _thread.RLock | None = None
    ) -> None:
        self.hand = hand
        self.clock = clock
        self.recorder = recorder
        self.lock = lock or threading.RLock()
        self._last: frozenset[str] = frozenset()

    def read(self) -> frozenset[str]:
        self._check_open("read the switches")
        with self.lock:
            return self._read()

    def _read(self) -> frozenset[str]:
        now = self.clock.now()
        # switches a passing magnet already left opened at their own time: log those first
        for point, until in sorted(self.hand.passing.items(), key=lambda item: item[1]):
            if until <= now and point in self._last and point not in self.hand.board and point != self.hand.over:
                self._log(point, False, until)
                self._last = self._last - {point}
        self.hand.expire(now)
        current = self.hand.closed(now)
        if self.recorder and self.recorder.recording and self.recorder.start is None:
            self.recorder.begin(current, now)
            self._last = current
        for point in POINTS:
            if (point in current) != (point in self._last):
                self._log(point, point in current, now)
        self._last = current
        return current

    @property
    def last(self) -> frozenset[str]:
        """The switches closed at the last reading."""
        return self._last

    def _log(self, point: str, closed: bool, when: float) -> None:
        if self.recorder:
            self.recorder.switch(point, closed, when)

    def __repr__(self) -> str:
        if self.closed:
            return "<SimSensors closed>"
        return f"<SimSensors occupied=[{' '.join(sorted(self._last))}]>"


class SimLeds(Closeable):
    """The LED strip: keeps the last frame it was shown, for the window to paint.

    ``frames`` counts ``show`` calls; ``version`` changes only when what is
    shown changes, so the window redraws only then.
    """

    def __init__(self) -> None:
        self.points: dict[str, RGB] = {}
        self.status: dict[str, RGB] = {}
        self.frames = 0
        self.version = 0

    def show(self, points: Mapping[str, RGB], status: Mapping[str, RGB] = {}) -> None:
        self._check_open("show a frame")
        for point in points:
            if point not in POINTS:
                raise ValueError(f"LED frame names unknown point {point!r}")
        points, status = dict(points), dict(status)
        self.frames += 1
        if points != self.points or status != self.status:
            self.points, self.status = points, status
            self.version += 1

    def _release(self) -> None:
        """Dark, as a strip goes dark when it is closed."""
        self.points, self.status = {}, {}
        self.version += 1

    def __repr__(self) -> str:
        if self.closed:
            return "<SimLeds closed>"
        status = f" status=[{' '.join(sorted(self.status))}]" if self.status else ""
        return f"<SimLeds lit=[{' '.join(sorted(self.points))}]{status} frames={self.frames}>"


class SimButtons(Closeable):
    """The board's buttons: the window's clicks and keys queue presses here."""

    def __init__(self, recorder: TraceRecorder | None = None, lock: _thread.RLock | None = None) -> None:
        self.recorder = recorder
        self.lock = lock or threading.RLock()
        self._queue: list[str] = []

    def press(self, name: str) -> None:
        if name not in BUTTONS:
            raise ValueError(f"unknown button {name!r}: buttons are {', '.join(BUTTONS)}")
        with self.lock:
            self._queue.append(name)
            if self.recorder:
                self.recorder.button(name)

    def pressed(self) -> list[str]:
        self._check_open("read the buttons")
        with self.lock:
            out, self._queue = self._queue, []
        return out

    def _release(self) -> None:
        with self.lock:
            self._queue.clear()

    def __repr__(self) -> str:
        if self.closed:
            return "<SimButtons closed>"
        return f"<SimButtons queued=[{' '.join(self._queue)}]>"


class SimBoard(Closeable):
    """A whole simulated board: hand, sensors, LEDs, buttons and the trace of the session.

    Pass ``board.sensors``, ``board.leds``, ``board.buttons`` and ``board.clock``
    to the controller (or to the self-test); move men with ``board.hand``.
    Code running in another thread than the window holds ``board.lock`` while
    it moves men.
    """

    def __init__(self, clock: Clock | None = None, men: int = 9, header: Mapping[str, object] | None = None) -> None:
        self.clock = clock or MonotonicClock()
        self.lock = threading.RLock()
        self.hand = Hand(men)
        self.recorder = TraceRecorder(self.clock, header)
        self.sensors = SimSensors(self.hand, self.clock, self.recorder, self.lock)
        self.leds = SimLeds()
        self.buttons = SimButtons(self.recorder, self.lock)
        #: Lines a program driving the board wrote for the window's panel.
        self.said: list[str] = []
        #: Set when the window showing the board closed: a program driving it should end.
        self.stopped = threading.Event()

    def say(self, text: str) -> None:
        """Show a line of text in the window's panel (prompts of the self-test, results)."""
        with self.lock:
            self.said.append(str(text))

    def next_change(self) -> float | None:
        """When the switches change by themselves (a slid magnet's pass ends), if ever."""
        return self.hand.next_change(self.clock.now())

    def _release(self) -> None:
        for end in (self.sensors, self.leds, self.buttons):
            end.close()

    def __repr__(self) -> str:
        if self.closed:
            return "<SimBoard closed>"
        hand = self.hand
        men = " ".join(f"{point}={side[0]}" for point, side in sorted(hand.board.items()))
        held = f" held={hand.held.colour}" if hand.held is not None else ""
        return f"<SimBoard men=[{men}] in_hand={hand.in_hand}{held}>"
