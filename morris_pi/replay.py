"""``morris-pi replay``: a sensor trace through the board's controller, on the trace's own clock.

Input is JSON Lines. An optional first line is a header::

    {"profile": "standard", "white": "human", "black": "computer", "level": 3, "seed": 1}

``"assist"`` (``{"white": "targets warn", "black": "hints=0"}``, each player's
``Assistance``) replays the board's assistance: the targets by quality and the
blunder warnings, graded by the engine in step with the trace's clock.

``"fen"`` in the header (a Sanmill FEN) starts with that position set up on the
board: the board starts empty, the white men are put on, then the black, and
the game follows from there (``morris_pi.core.position_setup``). Each line
while the position is set up carries a ``setup`` object: the FEN, where the
white and the black men go, which stand, and whose men come next.

then events, each with its time ``t`` in seconds::

    {"t": 1.25, "on": "d6"}              a switch closed
    {"t": 1.9, "off": "a1"}              a switch opened
    {"t": 2.0, "snapshot": ["a1", "d6"]} every closed switch at once
    {"t": 3.0, "button": "undo"}         also new, hint, menu, draw, resign
    {"t": 4.0}                           time passes

Events at ``t = 0`` describe the board as it stands when the replay starts
(the switches at power-on); a game starts when that board is empty.

The controller is stepped at every event and at every deadline it names
(``next_wakeup``), never on a fixed grid, so a long game replays in a moment.
A line is written each time what the board shows or knows changes, and a
final line once the input has ended and pending changes have settled.

Bad input is named, never crashes and never costs unbounded memory or time:
input is read one line at a time (``trace_lines``), a line longer than
``MAX_LINE_BYTES`` stops the replay (it is not a trace: ``/dev/zero``, a
binary file), a line that is not UTF-8 or not a valid event is refused with
at most a short prefix of the bad value quoted, and after ``MAX_BAD_LINES``
refused lines the replay stops.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import IO, Any, BinaryIO

from morris_pi.core.assist import Assists
from morris_pi.core.controller import Controller, Snapshot, TrackerFactory
from morris_pi.core.opponents import EngineGrader
from morris_pi.core.ports import FirstLegalOpponent, ManualClock, Opponent
from morris_pi.core.virtual import RecordingStrip, VirtualButtons, VirtualSensors
from morris_pi.engine.player import EnginePlayer
from morris_pi.errors import MorrisPiError
from morris_pi.rules import POINTS, SIDES, Game, Side, get_profile

HEADER_KEYS = ("profile", "white", "black", "level", "seed", "fen", "assist")
EVENT_KEYS = ("on", "off", "snapshot", "button")
BUTTONS = ("undo", "new", "hint", "menu", "draw", "resign")
#: Real seconds to wait for a computer player's answer before giving up.
OPPONENT_TIMEOUT_S = 120.0
#: The longest line read; a trace line is under 200 bytes, so a longer one is not a trace.
MAX_LINE_BYTES = 64 * 1024
#: Refused lines after which the replay stops: the input is not a trace.
MAX_BAD_LINES = 20
#: The latest event time accepted, in seconds (some 31 years).
MAX_T = 1e9
_POINTS = frozenset(POINTS)


class TraceError(MorrisPiError, ValueError):
    """A bad line of a trace; the message names the line number."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line


class InputStopped(TraceError):
    """Input that ends the replay at once (a line too long to be a trace)."""


def quote(value: object, limit: int = 40) -> str:
    """``repr(value)``, cut to ``limit`` characters: a bad value can be megabytes long.

    >>> quote("x" * 100)
    "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx... (100 characters)"
    """
    text = repr(value)
    if len(text) <= limit:
        return text
    size = f" ({len(value):,} characters)" if isinstance(value, str) else ""
    return text[:limit] + "..." + size


def _keys(keys: Iterable[object]) -> str:
    keys = sorted(str(k) for k in keys)
    shown = ", ".join(quote(k, 30) if len(k) > 30 else k for k in keys[:5])
    return shown + (f" and {len(keys) - 5} more" if len(keys) > 5 else "")


@dataclass(frozen=True)
class Header:
    profile: str = "standard"
    computer: Side | None = None
    level: int | None = None
    seed: int | None = None
    #: The position set up on the board before the game (a Sanmill FEN), or ``None``: the empty board.
    fen: str | None = None
    #: Each player's assistance (``{"white": "targets warn", "black": "plain"}`` in the header).
    assist: Assists = field(default_factory=Assists)


@dataclass(frozen=True)
class Event:
    t: float
    kind: str | None = None  # None: time passes
    value: str | frozenset[str] | None = None  # a point, a snapshot's points or a button


def parse_header(data: dict[str, object], line: int = 1) -> Header:
    unknown = sorted(set(data) - set(HEADER_KEYS))
    if unknown:
        raise TraceError(line, f"unknown header key(s) {_keys(unknown)}; a header has {', '.join(HEADER_KEYS)}")
    # str(): a name that is not even a string is refused by get_profile with the same message
    profile = str(data.get("profile", "standard"))
    try:
        get_profile(profile)
    except ValueError as exc:
        raise TraceError(line, f"profile: {exc}") from None
    computer = None
    for side in SIDES:
        who = data.get(side, "human")
        if who not in ("human", "computer"):
            raise TraceError(line, f"{side} must be 'human' or 'computer', got {quote(who)}")
        if who == "computer":
            if computer is not None:
                raise TraceError(line, "only one side can be the computer")
            computer = side
    level = _whole_number(data.get("level"), line, "level must be a whole number 1-10", 1, 10)
    seed = _whole_number(data.get("seed"), line, "seed must be a whole number")
    fen = data.get("fen")
    if fen is not None:
        if not isinstance(fen, str):
            raise TraceError(line, f"fen must be a Sanmill FEN text, got {quote(fen)}")
        try:
            Game.from_fen(fen, profile)
        except ValueError as exc:  # FenError names the bad field
            raise TraceError(line, f"fen: {quote(str(exc), 120)}") from None
    assist = Assists()
    if "assist" in data:
        try:
            assist = Assists.parse(data["assist"])  # type: ignore[arg-type]  # it checks the value
        except ValueError as exc:
            raise TraceError(line, f"assist: {quote(str(exc), 120)}") from None
    return Header(profile, computer, level, seed, fen, assist)


def _whole_number(value: object, line: int, wanted: str, lo: float = -math.inf, hi: float = math.inf) -> int | None:
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise TraceError(line, f"{wanted}, got {quote(value)}")
    return value


def _point(value: object, line: int, key: str) -> str:
    if not isinstance(value, str) or value not in _POINTS:
        raise TraceError(line, f"{key}: unknown point {quote(value)}")
    return value


def parse_event(data: dict[str, object], line: int) -> Event:
    if "t" not in data:
        raise TraceError(line, "an event needs its time 't' (only the first line may be a header)")
    t = data["t"]
    # Compared before any conversion: a 400-digit integer does not fit a float.
    if not isinstance(t, (int, float)) or isinstance(t, bool) or not 0 <= t <= MAX_T or not math.isfinite(t):
        raise TraceError(line, f"t must be a number of seconds from 0 to {MAX_T:.0e}, got {quote(t)}")
    unknown = sorted(set(data) - {"t", *EVENT_KEYS})
    if unknown:
        raise TraceError(line, f"unknown key(s) {_keys(unknown)}; an event has t and one of {', '.join(EVENT_KEYS)}")
    kinds = [k for k in EVENT_KEYS if k in data]
    if len(kinds) > 1:
        raise TraceError(line, f"one event per line, got {' and '.join(kinds)}")
    if not kinds:
        return Event(float(t))
    kind = kinds[0]
    raw = data[kind]
    value: str | frozenset[str]
    if kind in ("on", "off"):
        value = _point(raw, line, kind)
    elif kind == "snapshot":
        if not isinstance(raw, list):
            raise TraceError(line, f"snapshot must be a list of points, got {quote(raw)}")
        value = frozenset(_point(p, line, "snapshot") for p in raw)
    elif not isinstance(raw, str) or raw not in BUTTONS:
        raise TraceError(line, f"unknown button {quote(raw)}; buttons are {', '.join(BUTTONS)}")
    else:
        value = raw
    return Event(float(t), kind, value)


def parse_line(text: str, line: int, first: bool) -> Header | Event | None:
    """One input line: a ``Header`` (first line only), an ``Event``, or ``None`` for a blank line."""
    text = text.strip()
    if not text:
        return None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise TraceError(line, f"not valid JSON: {exc.msg} (column {exc.colno})") from None
    except RecursionError:
        raise TraceError(line, "not valid JSON: nested too deeply") from None
    except ValueError as exc:  # e.g. an integer of thousands of digits
        raise TraceError(line, f"not valid JSON: {quote(str(exc), 80)}") from None
    if not isinstance(data, dict):
        raise TraceError(line, f"each line must be a JSON object, got {type(data).__name__}")
    if first and "t" not in data:
        return parse_header(data, line)
    return parse_event(data, line)


def make_opponent(header: Header) -> Opponent:
    """The engine at the header's level, or the first-legal player when the header names none."""
    if header.level is not None:
        # Searching in step keeps the output the same on any machine: the trace clock waits.
        return EnginePlayer(header.level, seed=header.seed, threaded=False)
    return FirstLegalOpponent()


def make_grader(header: Header) -> Any:
    """The engine's grading in step with the trace's clock, uncapped (the same grades on any machine),
    when the header assists a player; else ``None``."""
    if header.assist.plain:
        return None
    return EngineGrader(threaded=False, max_time_s=None)


class Replay:
    """A controller over virtual sensors, buttons and clock, fed one event at a time.

    ``emit`` receives every snapshot that differs from the last one emitted; ``tracker`` builds
    the controller's tracker (see ``TrackerFactory``), by default ``Tracker``.
    """

    def __init__(
        self,
        header: Header | None = None,
        *,
        emit: Callable[[Snapshot], None] | None = None,
        opponent: Opponent | None = None,
        tracker: TrackerFactory | None = None,
    ) -> None:
        self.header = header or Header()
        self.clock = ManualClock(0.0)
        self.sensors = VirtualSensors()
        self.buttons = VirtualButtons()
        self.strip = RecordingStrip()
        if self.header.computer and opponent is None:
            opponent = make_opponent(self.header)
        self.controller = Controller(
            sensors=self.sensors,
            leds=self.strip,
            clock=self.clock,
            buttons=self.buttons,
            profile=self.header.profile,
            computer=self.header.computer,
            opponent=opponent,
            grader=make_grader(self.header),
            assists=self.header.assist,
            tracker=tracker,
        )
        if self.header.fen is not None:
            self.controller.set_up(Game.from_fen(self.header.fen, self.header.profile))
        self.emit = emit
        self.started = False
        self.last: Snapshot | None = None
        self.emitted: dict[str, object] | None = None
        self.steps = 0

    def check(self, event: Event, line: int) -> None:
        """Refuse an event whose time goes backwards, before anything of it is applied."""
        if event.t < self.clock.now():
            raise TraceError(line, f"time goes backwards: t={event.t} after t={self.clock.now()}")

    def feed(self, event: Event, line: int = 0) -> None:
        self.check(event, line)
        if not self.started:
            if event.t == 0 and event.kind in ("on", "off", "snapshot"):
                self._apply(event)
                return
            self._step()
            self.started = True
        self._advance_to(event.t)
        self._apply(event)
        self._step()

    def finish(self) -> Snapshot:
        """Let every pending change settle; emits and returns the final snapshot."""
        if not self.started:
            self._step()
            self.started = True
        self._advance_to(math.inf)
        snap = self._step(force=True)
        return snap

    def _apply(self, event: Event) -> None:
        kind, value = event.kind, event.value
        if value is None:
            return  # time passes
        if isinstance(value, frozenset):
            self.sensors.set(value)
        elif kind == "on":
            self.sensors.close_switch(value)
        elif kind == "off":
            self.sensors.open_switch(value)
        elif kind == "button":
            self.buttons.press(value)

    def _advance_to(self, t: float) -> None:
        self.controller.run_until(t, step=self._step)

    def _step(self, force: bool = False) -> Snapshot:
        controller = self.controller
        snap = controller.step()
        self.steps += 1
        if controller.waiting:
            # A real engine thinks in real time; the trace's clock stands still meanwhile.
            give_up = time.monotonic() + OPPONENT_TIMEOUT_S
            while controller.waiting and time.monotonic() < give_up:
                time.sleep(0.002)
                snap = controller.step()
        self.last = snap
        data = snap.to_dict()
        data.pop("t")
        if force or data != self.emitted:
            self.emitted = data
            if self.emit is not None:
                self.emit(snap)
        return snap


def lines_of(stream: IO[str]) -> Iterable[str]:
    """Lines of a text stream as they arrive (no read-ahead), so a program can drive the board live."""
    return iter(stream.readline, "")


def trace_lines(stream: BinaryIO, max_line: int = MAX_LINE_BYTES) -> Iterator[str | TraceError]:
    """The lines of a byte stream as they arrive, each decoded, or the ``TraceError`` that refuses it.

    Memory stays bounded whatever the input: a line is read up to ``max_line``
    bytes; a longer one yields ``InputStopped`` and reading ends.

    >>> import io
    >>> data = b'{"t": 1}' + bytes([10, 255, 10]) + b"0" * 100
    >>> for line in trace_lines(io.BytesIO(data), max_line=50):
    ...     print(line)
    {"t": 1}
    line 2: not UTF-8 text (byte 1 of the line)
    line 3: longer than 50 bytes, so not a trace line; stopping (it starts with b'0000000000000000'...)
    """
    number = 0
    while True:
        raw = stream.readline(max_line + 1)
        if not raw:
            return
        number += 1
        if raw.endswith(b"\n"):
            raw = raw[:-1]
        elif len(raw) > max_line:
            yield InputStopped(
                number,
                f"longer than {max_line:,} bytes, so not a trace line; stopping (it starts with {raw[:16]!r}...)",
            )
            return
        try:
            yield raw.decode("utf-8").rstrip("\r")
        except UnicodeDecodeError as exc:
            yield TraceError(number, f"not UTF-8 text (byte {exc.start + 1} of the line)")


class TextReport:
    """The human-readable replay: turns, prompts, problems and the result as they happen."""

    def __init__(self, out: IO[str]) -> None:
        self.out = out
        self.prev: Snapshot | None = None

    def __call__(self, snap: Snapshot) -> None:
        prev = self.prev
        old = prev.record.split() if prev else []
        new = snap.record.split()
        at = f"{snap.t:9.3f}"
        setup, before = snap.setup, prev.setup if prev is not None else None
        if setup is not None and (before is None or before.get("next") != setup.get("next")):
            side = setup.get("next")
            if side is not None:
                points = ", ".join(str(p) for p in setup.get(str(side), ()))
                self._say(at, f"set up the position: the {side} men go on {points or 'no point'}")
        elif setup is None and before is not None:
            self._say(at, f"position set up: {before.get('fen')}")
        if new[: len(old)] != old:
            self._say(at, f"takeback: the record is now '{snap.record}'")
        else:
            for turn in new[len(old) :]:
                self._say(at, f"{len(old) + 1:3d}. {turn}")
                old.append(turn)
        if snap.computer and (prev is None or prev.computer != snap.computer):
            self._say(at, f"computer to play: {snap.computer}")
        if snap.problems != (prev.problems if prev else ()):
            text = "; ".join(p.text for p in snap.problems) if snap.problems else "board matches the game"
            self._say(at, f"{'problems: ' if snap.problems else ''}{text}")
        if snap.outcome and (prev is None or prev.outcome != snap.outcome):
            self._say(at, f"game over: {snap.outcome}")
        self.prev = snap

    def _say(self, at: str, text: str) -> None:
        self.out.write(f"{at}  {text}\n")
        self.out.flush()

    def summary(self, snap: Snapshot) -> None:
        self.out.write(f"record: {snap.record or '(no turns)'}\n")
        self.out.write(f"result: {snap.outcome or 'game goes on, ' + snap.turn + ' to move'}\n")
        if snap.problems:
            self.out.write("board: " + "; ".join(p.text for p in snap.problems) + "\n")
        self.out.flush()


def run(
    lines: Iterable[str | TraceError],
    out: IO[str],
    err: IO[str],
    *,
    as_json: bool = False,
    opponent: Opponent | None = None,
    tracker: TrackerFactory | None = None,
) -> int:
    """Replay ``lines``; returns 0, or 1 when some lines were refused (each named on ``err``).

    ``lines`` are text lines, or ``trace_lines`` with the reader's refusals among them.
    ``tracker`` builds the board's tracker (default ``Tracker``), to measure another reader.
    After ``MAX_BAD_LINES`` refused lines, or an ``InputStopped``, the rest is not read.
    """
    replay: Replay | None = None
    report = None if as_json else TextReport(out)

    def emit(snap: Snapshot) -> None:
        if as_json:
            out.write(json.dumps(snap.to_dict()) + "\n")
            out.flush()
        elif report is not None:
            report(snap)

    bad = 0
    first = True
    for number, text in enumerate(lines, start=1):
        if isinstance(text, TraceError):
            bad += 1
            err.write(f"replay: {text}\n")
            err.flush()
            if isinstance(text, InputStopped):
                break
            if bad >= MAX_BAD_LINES:
                err.write(f"replay: stopping after {bad} bad lines; is this a JSON Lines trace?\n")
                err.flush()
                break
            first = False
            continue
        try:
            item = parse_line(text, number, first and replay is None)
            if item is None:
                continue
            if isinstance(item, Header):
                replay = Replay(item, emit=emit, opponent=opponent, tracker=tracker)
                continue
            if replay is None:
                replay = Replay(emit=emit, opponent=opponent, tracker=tracker)
            replay.feed(item, number)
        except TraceError as exc:
            bad += 1
            err.write(f"replay: {exc}\n")
            err.flush()
        finally:
            if text.strip():
                first = False
        if bad >= MAX_BAD_LINES:
            err.write(f"replay: stopping after {bad} bad lines; is this a JSON Lines trace?\n")
            err.flush()
            break
    if replay is None:
        replay = Replay(emit=emit, opponent=opponent, tracker=tracker)
    final = replay.finish()
    if report is not None:
        report.summary(final)
    return 1 if bad else 0
