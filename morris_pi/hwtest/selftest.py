"""The hardware self-test: LEDs, then every reed switch, with a report at the end.

``HwTest`` is a pure, step-driven state machine: each ``step(occupancy, now,
pressed)`` takes a raw switch reading, the time and any button presses, and
returns the colours to show and the lines to tell the person at the board.
``run_selftest`` drives it over any ``SensorSource``/``LedStrip``/``Buttons``:
the real board (``morris-pi hwtest``) or the simulator window
(``morris-pi hwtest --sim``), so both run the same test.

1. **LED sweep**: in red, green, blue and white in turn, the points light one
   after another in ring order (a7 d7 g7 g4 g1 d1 a1 a4, then the middle and
   the inner ring), then the status LEDs. A LED that stays dark, lights the
   wrong colour or lights out of order shows a wiring or chain-order fault.
   The white is a dim one, a third on each channel, so no LED draws more than
   one full colour channel (``SWEEP_MA_PER_LED``): with every LED lit at the
   end of a colour, 24 points and 3 status LEDs draw at most 27 x 20 mA =
   0.54 A at brightness 1, not the 1.6 A of full white (see ``sweep_current_ma``).
2. **Clear the board**: men still on it are lit magenta until taken off. A
   switch that stays closed with the board empty is *stuck closed*.
3. **Every point**: the point to test is lit blue: put a man on it, and take
   it off when it turns white. The switch that closes must be that point's;
   if another point's closes, the two are wired the other way round (the
   report names the swap, and ``--learn`` can fix the map). A switch that
   never closes is *dead*: after ``point_timeout_s``, or at once with any
   button, the test moves on. A switch that does not open again when the man
   is taken off is *stuck closed*.
4. **Report**: OK points green, faulty ones red; ``Report.text()`` lists
   every fault and what to check.

Throughout, a switch that flaps (``morris_pi.core.switchwatch``: 10 changes
within a second) is named at once and listed in the report as a fault.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from morris_pi.core.ports import RGB, STATUS_LEDS, Buttons, Clock, LedStrip, SensorSource
from morris_pi.core.switchwatch import SwitchWatch
from morris_pi.guidance import DEFAULT_PALETTE, Look
from morris_pi.rules import POINTS

#: A WS2812B draws about 20 mA per colour channel at full value (60 mA for full white).
MA_PER_CHANNEL = 20.0
#: The sweep's cap: no LED draws more than one channel at full value.
SWEEP_MA_PER_LED = MA_PER_CHANNEL
SWEEP_COLOURS: tuple[tuple[str, RGB], ...] = (
    ("red", (255, 0, 0)),
    ("green", (0, 255, 0)),
    ("blue", (0, 0, 255)),
    ("white", (85, 85, 85)),
)


def led_current_ma(colour: RGB, brightness: float = 1.0) -> float:
    """The current one WS2812B draws for ``colour`` at ``brightness`` (the LEDs' own ~1 mA idle left out).

    >>> led_current_ma((255, 255, 255)), led_current_ma((85, 85, 85)), led_current_ma((255, 0, 0), 0.3)
    (60.0, 20.0, 6.0)
    """
    return round(MA_PER_CHANNEL * sum(colour) / 255 * brightness, 3)


def sweep_current_ma(lit: int, brightness: float = 1.0) -> float:
    """The most the sweep draws with ``lit`` LEDs on (its last step in each colour lights them all).

    >>> sweep_current_ma(27), sweep_current_ma(27, brightness=0.3)
    (540.0, 162.0)
    """
    return round(lit * max(led_current_ma(colour, brightness) for _, colour in SWEEP_COLOURS), 3)


GOOD: RGB = (0, 200, 0)
BAD: RGB = (255, 0, 0)


@dataclass
class PointResult:
    """What one point's switch did: ``ok``, ``swapped`` (another point's input closed),
    ``dead`` (never closed), ``stuck`` (closed without a man, or never opened)."""

    point: str
    status: str
    reads_as: str | None = None
    note: str = ""

    def line(self) -> str:
        text = {
            "ok": "OK",
            "swapped": f"reads as {self.reads_as}: the switch of {self.point} is on {self.reads_as}'s input",
            "dead": "never closed: check the reed switch, its wire and the magnet of the man",
            "stuck": "stuck closed: the switch reads closed with no man on it",
        }[self.status]
        return f"{self.point}: {text}" + (f" ({self.note})" if self.note else "")


@dataclass
class Report:
    results: dict[str, PointResult] = field(default_factory=dict)
    #: Points whose switch flapped at some time during the test.
    flapping: set[str] = field(default_factory=set)

    @property
    def ok(self) -> bool:
        return all(r.status == "ok" for r in self.results.values()) and not self.flapping

    def faults(self) -> list[PointResult]:
        return [r for r in self.results.values() if r.status != "ok"]

    def reads(self) -> dict[str, str]:
        """point -> the point whose input closed for it (only points that closed a switch)."""
        return {p: r.reads_as for p, r in self.results.items() if r.reads_as is not None}

    def text(self) -> str:
        good = sum(r.status == "ok" and p not in self.flapping for p, r in self.results.items())
        lines = [f"Switches: {good} of {len(self.results)} points OK."]
        lines += [f"  {r.line()}" for r in self.faults()]
        lines += [
            f"  {p}: flapping: the switch opened and closed many times a second "
            "(check the reed switch, its wire and the magnet)"
            for p in sorted(self.flapping)
        ]
        if any(r.status == "swapped" for r in self.results.values()):
            lines.append("Swapped inputs can be fixed in the config: run again with --learn.")
        return "\n".join(lines)


@dataclass
class Output:
    """What one step shows and says."""

    points: dict[str, RGB]
    status: dict[str, RGB]
    messages: list[str]


class HwTest:
    """The self-test as a state machine; see the module docstring for the phases."""

    def __init__(
        self,
        *,
        points: Sequence[str] = POINTS,
        sweep: bool = True,
        sweep_step_s: float = 0.08,
        hold_s: float = 0.1,
        clear_timeout_s: float = 20.0,
        point_timeout_s: float = 30.0,
        release_timeout_s: float = 10.0,
        palette: Mapping[str, Look] = DEFAULT_PALETTE,
    ) -> None:
        self.points = tuple(points)
        self.sweep_step_s = sweep_step_s
        self.hold_s = hold_s
        self.clear_timeout_s = clear_timeout_s
        self.point_timeout_s = point_timeout_s
        self.release_timeout_s = release_timeout_s
        self.palette = palette
        self.report = Report()
        self.stuck: set[str] = set()
        self.phase = "sweep" if sweep else "clear"
        self._cleared_said = False
        self.done = False
        self._t0: float | None = None  # start of the current phase or point
        self._index = 0  # the point under test
        self._candidate: tuple[str, float] | None = None  # a closed switch and since when
        self._reading: str | None = None  # the switch that closed for the point under test
        self._open_since: float | None = None
        self._said: list[str] = []
        self.switches = SwitchWatch()

    # -- the machine --------------------------------------------------------------------

    def step(self, occupancy: Iterable[str], now: float, pressed: Sequence[str] = ()) -> Output:
        """One reading of the switches at ``now`` (and any button presses since the last)."""
        occ = frozenset(occupancy)
        if self._t0 is None:
            self._t0 = now
        for text in self.switches.observe(occ, now):
            self._say(text[0].upper() + text[1:] + ".")
        self.report.flapping |= self.switches.ever_flapped
        if self.phase == "sweep":
            return self._sweep(now, pressed)
        if self.phase == "clear":
            if not self._cleared_said:
                return self._clear(occ, now, pressed, first=True)
            return self._clear(occ, now, pressed)
        if self.phase in ("place", "release"):
            return self._point(occ, now, pressed)
        return self._final()

    def _say(self, text: str) -> None:
        self._said.append(text)

    def _out(self, points: dict[str, RGB], status: dict[str, RGB] | None = None) -> Output:
        said, self._said = self._said, []
        return Output(points, status or {}, said)

    def _elapsed(self, now: float) -> float:
        """Seconds since the current phase or point began (``step`` starts the first)."""
        return now - self._t0 if self._t0 is not None else 0.0

    def _enter(self, phase: str, now: float) -> None:
        self.phase, self._t0, self._candidate = phase, now, None

    def _sweep(self, now: float, pressed: Sequence[str]) -> Output:
        steps = len(self.points) + 1  # every point, then the status LEDs
        k = int(self._elapsed(now) / self.sweep_step_s) if self.sweep_step_s > 0 else 4 * steps
        if now == self._t0:
            self._say(
                "LED sweep: in red, green, blue and dim white, the points light one by one in ring order "
                "(outer ring from a7 clockwise, then the middle and the inner ring), then the status LEDs."
            )
        if k >= len(SWEEP_COLOURS) * steps or pressed:
            self._enter("clear", now)
            return self._clear(frozenset(), now, (), first=True)
        _, colour = SWEEP_COLOURS[k // steps]
        lit = k % steps + 1
        points = {p: colour for p in self.points[:lit]}
        status = {s: colour for s in STATUS_LEDS} if lit == steps else {}
        return self._out(points, status)

    def _clear(self, occ: frozenset[str], now: float, pressed: Sequence[str], first: bool = False) -> Output:
        if first:
            self._cleared_said = True
            self._say("Take every man off the board. Men still on it are lit magenta.")
            return self._out({})
        if not occ:
            return self._next_point(now)
        if self._elapsed(now) >= self.clear_timeout_s or pressed:
            self.stuck = set(occ)
            for p in sorted(occ, key=self.points.index):
                self.report.results[p] = PointResult(p, "stuck", note="closed before the test asked for a man")
            self._say(f"Still closed with the board cleared: {', '.join(sorted(occ))}. Testing the others.")
            return self._next_point(now)
        extra = self.palette["extra"].colour
        return self._out({p: extra for p in occ})

    def _next_point(self, now: float) -> Output:
        while self._index < len(self.points):
            point = self.points[self._index]
            if point in self.stuck and point not in self.report.results:
                self.report.results[point] = PointResult(point, "stuck", note="stayed closed earlier in the test")
            if point not in self.report.results:
                break
            self._index += 1
        if self._index >= len(self.points):
            self.phase, self.done = "report", True
            self._say(self.report.text())
            return self._final()
        self._enter("place", now)
        self._reading = None
        self._say(f"Put a man on {self.points[self._index]} (lit blue).")
        return self._point(frozenset(), now, ())

    def _point(self, occ: frozenset[str], now: float, pressed: Sequence[str]) -> Output:
        point = self.points[self._index]
        live = occ - self.stuck
        if self.phase == "place":
            held = self._held(live, now)
            if held is not None:
                self._reading = held
                status = "ok" if held == point else "swapped"
                self.report.results[point] = PointResult(point, status, reads_as=held)
                if status == "swapped":
                    self._say(f"{point}: the switch of {held} closed instead.")
                self._say(f"Take the man off {point}.")
                self._enter("release", now)
                self._open_since = None
            elif pressed or self._elapsed(now) >= self.point_timeout_s:
                why = "skipped with a button" if pressed else f"no switch closed within {self.point_timeout_s:g} s"
                self.report.results[point] = PointResult(point, "dead", note=why)
                self._say(f"{point}: {why}; next point.")
                return self._next_point(now)
            return self._out({point: self.palette["computer-to"].colour})
        # release: wait for the switch that closed to open again
        reading = self._reading
        if reading not in occ:
            self._open_since = self._open_since if self._open_since is not None else now
            if now - self._open_since >= self.hold_s:
                self._index += 1
                return self._next_point(now)
        else:
            self._open_since = None
            if pressed or self._elapsed(now) >= self.release_timeout_s:
                self.stuck.add(reading)
                result = self.report.results[point]
                result.status, result.note = "stuck", f"{reading}'s switch did not open when the man was taken off"
                self._say(f"{reading}: the switch stays closed; next point.")
                self._index += 1
                return self._next_point(now)
        lit = {point: self.palette["lifted"].colour}
        return self._out(lit)

    def _held(self, live: frozenset[str], now: float) -> str | None:
        """The switch that closed and held for ``hold_s`` (the first, if several)."""
        if self._candidate is not None and self._candidate[0] not in live:
            self._candidate = None
        if self._candidate is None and live:
            self._candidate = (min(live, key=self.points.index), now)
        if self._candidate is not None and now - self._candidate[1] >= self.hold_s:
            return self._candidate[0]
        return None

    def _final(self) -> Output:
        points = {
            p: (GOOD if self.report.results.get(p) and self.report.results[p].status == "ok" else BAD)
            for p in self.points
        }
        return self._out(points, {"error": BAD} if not self.report.ok else {})

    def next_deadline(self, now: float) -> float | None:
        """When the next step could change something without a new reading (for a sleeping driver)."""
        if self.done:
            return None
        if self.phase == "sweep":
            return now + self.sweep_step_s
        return now + min(self.hold_s, 0.05)


def run_selftest(
    sensors: SensorSource,
    leds: LedStrip,
    buttons: Buttons | None,
    *,
    clock: Clock,
    sleep: Callable[[float], None],
    say: Callable[[str], None] = print,
    test: HwTest | None = None,
    scan_hz: float = 100.0,
    stop: Callable[[], bool] = lambda: False,
) -> Report:
    """Drive ``HwTest`` over real or simulated ends until it is done (or ``stop()``); returns the report.

    The final frame (green/red per point) stays lit; the caller switches the LEDs off.
    """
    test = test or HwTest()
    period = 1.0 / scan_hz
    shown = None
    while not test.done and not stop():
        now = clock.now()
        out = test.step(sensors.read(), now, buttons.pressed() if buttons is not None else [])
        for line in out.messages:
            say(line)
        frame = (out.points, out.status)
        if frame != shown:
            leds.show(*frame)
            shown = frame
        if not test.done:
            sleep(period)
    return test.report
