"""Ends of the controller held in memory: for replay, tests and benchmarks.

``VirtualSensors`` holds the set of closed switches, ``VirtualButtons`` a
queue of presses, and ``RecordingStrip`` keeps every frame it was shown. Like
the hardware ends, each closes once (``close()``, ``closed``, ``with``) and then
refuses to be read or shown.

>>> sensors = VirtualSensors()
>>> sensors.close_switch("d6"); sensors.read()
frozenset({'d6'})
>>> sensors.open_switch("d6"); sensors.set({"a1", "g7"}); sorted(sensors.read())
['a1', 'g7']
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from morris_pi.rules import POINTS

from .closing import Closeable
from .ports import RGB

_POINTS = frozenset(POINTS)


def _check(point: str) -> str:
    if point not in _POINTS:
        raise ValueError(f"unknown point {point!r}: points are {', '.join(POINTS)}")
    return point


class VirtualSensors(Closeable):
    """A ``SensorSource`` whose switches are set by code.

    By default its switches change one event at a time, as a trace's lines
    do, and an event may have been lost: only the first read after ``set``
    (every switch at once, a snapshot) is a full scan (``full_scan``), which
    confirms the turns read before it. With ``scans=True`` every read is a
    full scan, as on the real board, whose service reads every switch each time.

    >>> sensors = VirtualSensors(["d6"])
    >>> sensors.close_switch("a1"); sensors
    <VirtualSensors occupied=[a1 d6]>
    """

    def __init__(self, closed: Iterable[str] = (), *, scans: bool = False) -> None:
        self._switches = frozenset(_check(p) for p in closed)
        self.scans = scans
        self._scanned = False
        #: Whether the last ``read`` was a scan of every switch.
        self.full_scan = scans

    def read(self) -> frozenset[str]:
        self._check_open("read the switches")
        self.full_scan, self._scanned = self.scans or self._scanned, False
        return self._switches

    def set(self, closed: Iterable[str]) -> None:
        """Every switch at once (a snapshot)."""
        self._switches = frozenset(_check(p) for p in closed)
        self._scanned = True

    def close_switch(self, point: str) -> None:
        self._switches = self._switches | {_check(point)}

    def open_switch(self, point: str) -> None:
        self._switches = self._switches - {_check(point)}

    def __repr__(self) -> str:
        if self.closed:
            return "<VirtualSensors closed>"
        scans = " scans" if self.scans else ""
        return f"<VirtualSensors occupied=[{' '.join(sorted(self._switches))}]{scans}>"


class VirtualButtons(Closeable):
    """A ``Buttons`` source fed by ``press``.

    >>> buttons = VirtualButtons()
    >>> buttons.press("undo"); buttons
    <VirtualButtons queued=[undo]>
    """

    def __init__(self) -> None:
        self._queue: list[str] = []

    def press(self, name: str) -> None:
        self._queue.append(name)

    def pressed(self) -> list[str]:
        self._check_open("read the buttons")
        out, self._queue = self._queue, []
        return out

    def _release(self) -> None:
        self._queue.clear()

    def __repr__(self) -> str:
        if self.closed:
            return "<VirtualButtons closed>"
        return f"<VirtualButtons queued=[{' '.join(self._queue)}]>"


class RecordingStrip(Closeable):
    """A ``LedStrip`` that remembers what it shows: the last frame and, optionally, all of them.

    >>> strip = RecordingStrip()
    >>> strip.show({"d6": (0, 90, 255)}); strip
    <RecordingStrip lit=[d6] shows=1>
    """

    def __init__(self, keep: bool = False) -> None:
        self.points: dict[str, RGB] = {}
        self.status: dict[str, RGB] = {}
        self.frames: list[tuple[dict[str, RGB], dict[str, RGB]]] = []
        self.shows = 0
        self.keep = keep

    def show(self, points: Mapping[str, RGB], status: Mapping[str, RGB] = {}) -> None:
        self._check_open("show a frame")
        for point in points:
            _check(point)
        self.points, self.status = dict(points), dict(status)
        self.shows += 1
        if self.keep:
            self.frames.append((self.points, self.status))

    def _release(self) -> None:
        self.points, self.status = {}, {}

    def __repr__(self) -> str:
        if self.closed:
            return "<RecordingStrip closed>"
        return f"<RecordingStrip lit=[{' '.join(sorted(self.points))}] shows={self.shows}>"
