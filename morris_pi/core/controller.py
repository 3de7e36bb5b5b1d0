"""THE loop of the board: the hardware service, the simulator and ``replay`` all run it.

Each ``step`` reads the sensors and buttons, feeds the tracker, drives the
computer player (start it on its turn, poll it, prompt its turn on the
board, cancel it on a takeback or a new game) and shows the LED frame. No
end has a path of its own: each only brings its ``SensorSource``,
``LedStrip``, ``Buttons`` and ``Clock``.

>>> from morris_pi.core.ports import ManualClock
>>> from morris_pi.core.virtual import RecordingStrip, VirtualSensors
>>> clock, sensors, strip = ManualClock(), VirtualSensors(), RecordingStrip()
>>> c = Controller(sensors=sensors, leds=strip, clock=clock, computer="black")
>>> _ = c.step(); sensors.close_switch("d6"); clock.advance(1.0); _ = c.step()
>>> clock.set(c.next_wakeup(blink=False)); _ = c.step(); clock.set(c.next_wakeup(blink=False)); snap = c.step()
>>> snap.record, snap.leds            # d6 read: shown at once, recorded once confirmed
('', {'d6': 'last-move'})
>>> clock.set(c.next_wakeup(blink=False)); snap = c.step(); snap.t, snap.record, snap.computer, snap.leds
(2.0, 'd6', 'a7', {'a7': 'computer-to', 'd6': 'last-move'})
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from morris_pi import guidance
from morris_pi.rules import Game, Outcome, Side
from morris_pi.tracker.frame import frame
from morris_pi.tracker.reconcile import Problem
from morris_pi.tracker.settle import DEFAULT_HOLD_S, DEFAULT_SETTLE_S
from morris_pi.tracker.tracker import DEFAULT_CONFIRM_S, Tracker, TrackerState

from .analysis import Analysis, analysis_of
from .assist import Assists, BlunderWarning, Grader, Grading
from .ports import RGB, Buttons, Clock, FirstLegalOpponent, LedStrip, Opponent, SensorSource
from .position_setup import PositionSetup, start_fen

log = logging.getLogger(__name__)

#: Buttons that may end the game: a computer's turn already carried out is read before them.
ENDING_PRESSES = ("resign", "draw", "menu")
#: Seconds before a computer player that failed is asked again.
OPPONENT_RETRY_S = 1.0
#: Seconds a blunder warning shows before the game goes on by itself (the player played on).
WARNING_S = 12.0

#: What builds the board's tracker: called as ``Tracker`` is, with the game (or ``None``) and the
#: keywords ``profile``, ``computer``, ``settle_s``, ``hold_s`` and ``confirm_s``. ``Tracker`` itself,
#: or another reader with the same public API, so that two can be measured side by side.
#: ``None`` where one is taken means ``Tracker``.
TrackerFactory = Callable[..., Tracker]


@dataclass(frozen=True)
class Snapshot:
    """What the board shows and knows at time ``t``.

    ``to_dict`` is the line ``morris-pi replay --json`` prints: ``t``, ``record``,
    ``turn``, ``computer`` (the prompted turn awaiting execution, or null), ``leds``
    (each lit point's role), ``problems`` and ``outcome``. The other fields serve
    the simulator's panel and the service.
    """

    t: float = field(compare=False)
    record: str
    turn: str
    computer: str | None
    leds: Mapping[str, str]
    problems: tuple[Problem, ...]
    outcome: Outcome | None
    status: Mapping[str, str] = field(default_factory=dict)
    profile: str = "standard"
    computer_side: str | None = None
    hint: str | None = None
    thinking: bool = False
    pending: str | None = None
    lifted: str | None = None
    fault: str | None = None
    #: While a position is set up before its game (``PositionSetup.to_dict``), else ``None``.
    setup: Mapping[str, Any] | None = None
    #: The FEN the game started from (``None``: the empty board); ``record`` continues it.
    start: str | None = None
    #: The blunder warning showing now (``BlunderWarning.to_dict``), else ``None``.
    warning: Mapping[str, object] | None = None
    #: Hints each side has left this game (``None``: no limit).
    hints_left: Mapping[str, int | None] = field(default_factory=dict)
    #: Whether the engine grades the turns of a position for the assistance right now.
    grading: bool = False

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {
            "t": round(self.t, 6),
            "record": self.record,
            "turn": self.turn,
            "computer": self.computer,
            "leds": dict(self.leds),
            "problems": [p.to_dict() for p in self.problems],
            "outcome": self.outcome.to_dict() if self.outcome else None,
        }
        if self.setup is not None:
            out["setup"] = dict(self.setup)
        return out

    def same_as(self, other: Snapshot | None) -> bool:
        """Whether two snapshots show and know the same, whatever their times.

        Every field but ``t`` counts (``t`` is the one declared ``compare=False``), so a
        field added later is compared without anyone remembering to.

        >>> a = Snapshot(t=1.0, record="d6", turn="black", computer=None, leds={}, problems=(), outcome=None)
        >>> a.same_as(replace(a, t=2.0)), a.same_as(replace(a, leds={"d6": "last-move"})), a.same_as(None)
        (True, False, False)
        """
        return other is not None and self == other


_KEEP = object()


class Controller:
    """One board: sensors -> tracker -> LEDs, with the computer player alongside."""

    def __init__(
        self,
        *,
        sensors: SensorSource,
        leds: LedStrip,
        clock: Clock,
        buttons: Buttons | None = None,
        profile: str = "standard",
        computer: Side | None = None,
        opponent: Opponent | None = None,
        palette: Mapping[str, guidance.Look] | None = None,
        settle_s: float = DEFAULT_SETTLE_S,
        hold_s: float = DEFAULT_HOLD_S,
        confirm_s: float = DEFAULT_CONFIRM_S,
        game: Game | None = None,
        on_turn: Callable[[Game], None] | None = None,
        on_change: Callable[[Snapshot], None] | None = None,
        grader: Grader | None = None,
        assists: Assists | None = None,
        tracker: TrackerFactory | None = None,
    ) -> None:
        self.sensors = sensors
        self.leds = leds
        self.clock = clock
        self.buttons = buttons
        self.palette = dict(palette) if palette is not None else dict(guidance.DEFAULT_PALETTE)
        missing = [role for role in guidance.ROLES if role not in self.palette]
        if missing:
            raise ValueError(f"palette has no look for role(s): {', '.join(missing)}")
        if computer is not None and opponent is None:
            opponent = FirstLegalOpponent()
        self.opponent = opponent
        self.on_turn = on_turn
        self.on_change = on_change
        self._timings = (settle_s, hold_s, confirm_s)
        self._tracker_factory = tracker or Tracker
        self.tracker = self._tracker_factory(
            game,
            profile=profile,
            computer=computer,
            settle_s=settle_s,
            hold_s=hold_s,
            confirm_s=confirm_s,
        )
        #: The position being set up on the board before its game starts (``set_up``), if any.
        self.setup: PositionSetup | None = None
        #: How much the board helps each player (``morris_pi.core.assist``).
        self.assists = assists or Assists()
        #: Grades every legal turn for the assistance, on the engine's thread (``None``: no grading).
        self.grader = grader
        #: Gradings of the game's positions, by (the turns that led there, pending step): the latest few.
        self.gradings: dict[tuple[str, str | None], Grading] = {}
        self._grading: tuple[str, str | None] | None = None  # the position being graded now
        #: The blunder warning showing now, and when it ends by itself.
        self.warning: BlunderWarning | None = None
        self._warning_until = math.inf
        #: Hints asked this game, by side (the limits are in ``assists``).
        self.hints_used: dict[str, int] = {"white": 0, "black": 0}
        self._assist_version = 0
        self._warned = -1  # the game's length when its last turn was warned of
        #: What the opponent was asked for: ("turn" | "hint", game version), or None.
        self._asked: tuple[str, int] | None = None
        self._retry_at = -math.inf
        self.fault: str | None = None
        self._game_version = self.tracker.game_version
        self._last_raw: frozenset[str] | None = None
        self._frame: guidance.Frame | None = None
        self._frame_version: tuple[int, int] = (-1, -1)
        #: the colours last written to the strip: (points, status LEDs)
        self._shown: tuple[dict[str, RGB], dict[str, RGB]] | None = None
        self._snapshot: Snapshot | None = None
        #: (tracker state version, fault, whether the computer thinks) and the snapshot they made
        self._snapshot_cache: tuple[tuple[int, str | None, bool, int, int, bool], Snapshot] | None = None
        self._now = clock.now()
        #: The computer player's last searches in a person's terms, by kind (``"hint"``, ``"turn"``),
        #: kept until a takeback goes back past the position searched.
        self.analyses: dict[str, Analysis] = {}

    def __repr__(self) -> str:
        game = self.game
        where = f"outcome={game.outcome}" if game.outcome else f"{game.turn} to move"
        computer = f" computer={self.computer}" if self.computer else ""
        fault = f" fault={self.fault!r}" if self.fault else ""
        return f"<Controller {game.profile.name} record={game.record!r} {where}{computer}{fault}>"

    # -- the loop ---------------------------------------------------------------------

    @property
    def game(self) -> Game:
        """The game as recorded: confirmed turns only (the LEDs may already show a provisional one)."""
        return self.tracker.confirmed

    @property
    def computer(self) -> str | None:
        return self.tracker.computer

    @property
    def analysis(self) -> Analysis | None:
        """The latest of the computer player's searches (a hint's or its own turn's), if any."""
        return max(self.analyses.values(), key=lambda a: a.plies, default=None)

    @property
    def waiting(self) -> bool:
        """Whether the computer player is choosing a turn or a hint right now."""
        return self._asked is not None

    def step(self) -> Snapshot:
        """One scan: sensors, buttons, computer player, tracker; show the LEDs; returns the snapshot."""
        now = self.clock.now()
        self._now = now
        tracker = self.tracker
        if self.warning is not None and now >= self._warning_until:
            self._end_warning()  # not taken back: the game goes on
        raw = self.sensors.read()
        # A source that reads every switch each time (the service's scans) says nothing or True;
        # one that reports changes (a trace's on/off lines) says False except after a snapshot.
        full = bool(getattr(self.sensors, "full_scan", True))
        if self.setup is not None:
            return self._step_setup(raw, now)
        if raw != self._last_raw:
            self._last_raw = raw
            tracker.update(raw, now, full=full)
        else:
            tracker.tick(now, full=full)
        if self.buttons is not None:
            for name in self.buttons.pressed():
                self._press(name, now)
        for _ in range(4):
            self._follow_game()
            self._drive_grader(now)
            if not self._drive_opponent(now):
                break
        self._follow_game()
        self._drive_grader(now)
        self._show(now)
        snap = self.snapshot()
        if self.on_change is not None and not snap.same_as(self._snapshot):
            self.on_change(snap)
        self._snapshot = snap
        return snap

    def next_wakeup(self, *, blink: bool = True) -> float | None:
        """When the next step has something to do: a change to settle, a decision, a
        timeout, the computer's answer to poll, or (with ``blink``) a blink edge."""
        times = []
        deadline = self.setup.next_wakeup() if self.setup is not None else self.tracker.next_deadline()
        if deadline is not None:
            times.append(deadline)
        if self._asked is not None or self._grading is not None:
            times.append(self._now + 0.02)
        elif self._retry_at > self._now:
            times.append(self._retry_at)
        if self.warning is not None:
            times.append(self._warning_until)
        if blink:
            f = self._current_frame()
            roles = [*f.points.values(), *f.status.values()]
            if self.fault:
                roles.append("error")  # the status LED ``_show`` adds while the computer player fails
            edge = guidance.next_edge(roles, self._now, self.palette)
            if edge is not None:
                times.append(edge)
        return min(times) if times else None

    def run_until(self, t: float, *, step: Callable[[], object] | None = None) -> int:
        """Step at every deadline up to ``t`` (``next_wakeup`` without blink edges), then set
        the clock to ``t``; returns the number of steps. The clock must be settable
        (``ManualClock``): this is how replay, tests and benches let virtual time pass.
        ``step`` replaces ``self.step`` for a caller that does more around each step.
        ``t`` may be infinite: then every deadline is stepped and the clock stays at the last.

        >>> from morris_pi.core.ports import ManualClock
        >>> from morris_pi.core.virtual import RecordingStrip, VirtualSensors
        >>> clock, sensors = ManualClock(), VirtualSensors()
        >>> c = Controller(sensors=sensors, leds=RecordingStrip(), clock=clock)
        >>> _ = c.step(); sensors.close_switch("d6"); _ = c.step()   # a man put down, not yet settled
        >>> c.run_until(5.0) > 0, clock.now(), c.step().record
        (True, 5.0, 'd6')
        """
        clock = self.clock
        # Not isinstance with the runtime-checkable protocol: replay calls this once per trace
        # line, and that check costs more than a step.
        set_clock = getattr(clock, "set", None)
        if not callable(set_clock):
            raise TypeError(
                f"run_until needs a clock that can be set (such as ManualClock), not {type(clock).__name__}"
            )
        step = step or self.step
        steps = 0
        while (wake := self.next_wakeup(blink=False)) is not None and wake <= t:
            set_clock(max(wake, clock.now()))
            step()
            steps += 1
        if not math.isinf(t):
            set_clock(t)
        return steps

    def snapshot(self) -> Snapshot:
        """What the board shows and knows now."""
        state = self.tracker.state
        setup = self.setup
        key = (
            state.version,
            self.fault,
            self._asked is not None,
            -1 if setup is None else setup.version,
            self._assist_version,
            self._grading is not None,
        )
        cached = self._snapshot_cache
        if cached is not None and cached[0] == key:
            return cached[1] if cached[1].t == self._now else replace(cached[1], t=self._now)
        snap = self._build_snapshot(state)
        self._snapshot_cache = (key, snap)
        return snap

    def _build_snapshot(self, state: TrackerState) -> Snapshot:
        f = self._current_frame()
        game = state.confirmed if state.confirmed is not None else state.game
        if self.setup is not None:
            return Snapshot(
                t=self._now,
                record=game.record,
                turn=game.turn,
                computer=None,
                leds=f.points,
                problems=self.setup.problems(),
                outcome=None,
                status=f.status,
                profile=game.profile.name,
                computer_side=state.computer,
                setup=self.setup.to_dict(),
                start=start_fen(game),
            )
        return Snapshot(
            t=self._now,
            record=game.record,
            turn=game.turn,
            computer=str(state.prompt) if state.prompt is not None else None,
            leds=f.points,
            problems=state.problems,
            outcome=game.outcome,
            status=f.status,
            profile=game.profile.name,
            computer_side=state.computer,
            hint=str(state.hint) if state.hint is not None else None,
            thinking=bool(self.opponent is not None and self._asked is not None),
            pending=str(game.pending) if game.pending is not None else None,
            lifted=state.lifted,
            fault=self.fault,
            start=start_fen(game),
            warning=self.warning.to_dict() if self.warning is not None else None,
            hints_left=self.hints_left(),
            grading=self._grading is not None,
        )

    def new_game(self, *, profile: str | None = None, computer: str | object | None = _KEEP) -> None:
        """Start a new game (the board is then cleared by the players, guided by the LEDs)."""
        setting: str | bool | None  # the tracker's own spelling: False keeps the current side
        if computer is _KEEP:
            setting = False
        elif computer is None or isinstance(computer, str):
            setting = computer
        else:
            raise TypeError(f"computer must be a side or None, not {computer!r}")
        self._cancel()
        self.setup = None
        self._reset_assistance()
        if setting is not False and setting is not None and self.opponent is None:
            self.opponent = FirstLegalOpponent()
        self.tracker.new_game(profile=profile, computer=setting)

    def set_up(self, game: Game) -> None:
        """Set up ``game``'s position on the board before it is played (``PositionSetup``).

        The LEDs light where the white men go, then the black; the game starts once the
        board shows the position. ``new`` abandons the set-up for a new game from the start.
        """
        self._cancel()
        settle_s, hold_s, confirm_s = self._timings
        self.tracker = self._tracker_factory(
            game,
            profile=game.profile.name,
            computer=self.tracker.computer,
            settle_s=settle_s,
            hold_s=hold_s,
            confirm_s=confirm_s,
        )
        self.setup = PositionSetup(game, hold_s=settle_s + hold_s)
        self.analyses.clear()
        self._reset_assistance()
        self._last_raw = None
        self._frame = None
        self._game_version = -1  # the owner hears of the new game at the next step

    def hints_left(self) -> dict[str, int | None]:
        """Hints each side may still ask this game (``None``: no limit)."""
        out: dict[str, int | None] = {}
        for side in ("white", "black"):
            limit = self.assists.of(side).hints
            out[side] = None if limit is None else max(0, limit - self.hints_used[side])
        return out

    def play_on(self) -> bool:
        """The player saw the blunder warning and plays on: it goes, and the game goes on."""
        if self.warning is None:
            return False
        log.info("blunder warning: %s plays on after %s", self.warning.side, self.warning.turn)
        self._end_warning()
        return True

    def press(self, name: str) -> bool:
        """A button pressed by code (the same as one from ``Buttons``)."""
        return self._press(name, self.clock.now())

    def close(self) -> None:
        self._cancel()
        if self.grader is not None:
            self.grader.cancel()
        for end in (self.sensors, self.leds, self.buttons):
            if end is not None:
                end.close()

    # -- inside -----------------------------------------------------------------------

    def _press(self, name: str, now: float) -> bool:
        if self.setup is not None:
            if name != "new":
                return False  # no game to take back, hint or resign until the position stands
            self.new_game()
            return True
        if name == "hint":
            if self.warning is not None:
                return self.play_on()  # while a warning shows, the hint button plays on
            return self._ask_hint()
        if name == "new":
            self._cancel()
        elif name in ENDING_PRESSES:
            self._reply_before_end(now)
        try:
            return self.tracker.press(name, now)
        except ValueError as exc:
            log.warning("%s", exc)
            return False

    def _reply_before_end(self, now: float) -> None:
        """A player ends the game on what the LEDs show: the turns read so far stand, and a
        computer's turn that a hand has already carried out is prompted and read first, when the
        computer answers at once (a search still running is not waited for)."""
        self.tracker.confirm_all()
        self._follow_game()
        if self._drive_opponent(now):
            self._follow_game()

    def _follow_game(self) -> None:
        tracker = self.tracker
        tracker.drain()
        if tracker.game_version != self._game_version:
            self._game_version = tracker.game_version
            if self._asked is not None and self._asked[1] != tracker.game_version:
                self._cancel()
            plies = len(tracker.confirmed.history)
            for kind in [k for k, a in self.analyses.items() if plies < a.plies]:
                del self.analyses[kind]  # taken back past the position it searched
            if self.warning is not None:
                self._end_warning()  # taken back, or the opponent played on
            self._check_blunder()
            if self.on_turn is not None:
                self.on_turn(tracker.confirmed)

    def _cancel(self) -> None:
        if self._asked is not None and self.opponent is not None:
            try:
                self.opponent.cancel()
            except Exception:  # a broken player must not stop the board
                log.exception("computer player failed to cancel")
        self._asked = None

    def _ask_hint(self) -> bool:
        tracker = self.tracker
        # The search sees only confirmed turns; the player asked on what the LEDs showed.
        tracker.confirm_all()
        self._follow_game()
        game = tracker.confirmed
        if self.opponent is None or self._asked is not None or game.outcome is not None:
            return False
        if game.turn == tracker.computer or tracker.resync:
            return False
        if self.hints_left()[game.turn] == 0:
            log.info("hint: %s has no hints left this game", game.turn)
            return False
        if self._grading is not None and self.grader is not None:
            self.grader.cancel()  # one search at a time: the hint first, the grading again after
            self._grading = None
        if not self._start("hint"):
            return False
        self.hints_used[game.turn] += 1
        self._assist_version += 1
        return True

    def _start(self, kind: str) -> bool:
        if self.opponent is None:
            return False
        try:
            game = self.tracker.asked_in if kind == "turn" else self.tracker.confirmed
            self.opponent.start(game.copy(), hint=kind == "hint")
        except Exception as exc:
            self._fail(exc)
            return False
        self._asked = (kind, self.tracker.game_version)
        return True

    def _fail(self, exc: BaseException) -> None:
        log.error("computer player failed: %s", exc)
        self.fault = f"computer player failed: {exc}"
        self._asked = None
        self._retry_at = self._now + OPPONENT_RETRY_S

    def _drive_opponent(self, now: float) -> bool:
        """Start the computer on its turn and poll it; returns whether its answer changed the state."""
        tracker = self.tracker
        # the record, or (the decoder) the reading the LEDs show while a doubt is carried
        game = tracker.asked_in
        if self.opponent is None:
            return False
        if (
            self._asked is None
            and not tracker.provisional
            and tracker.computer is not None
            and game.turn == tracker.computer
            and game.outcome is None
            and tracker.prompt is None
            and now >= self._retry_at
            and not self._reply_held()
        ):
            if self._grading is not None and self.grader is not None:
                self.grader.cancel()  # one search at a time: a grading no warning waits for gives way
                self._grading = None
            self._start("turn")
        if self._asked is None:
            return False
        try:
            turn = self.opponent.result()
        except Exception as exc:
            self._fail(exc)
            return False
        if turn is None:
            return False
        kind, _ = self._asked
        self._asked = None
        self.fault = None
        analysis = analysis_of(getattr(self.opponent, "last", None), kind, game)
        if analysis is not None:
            self.analyses[kind] = analysis
        try:
            if kind == "turn":
                tracker.prompt_computer(turn)
            else:
                tracker.show_hint(turn)
        except ValueError as exc:
            self._fail(exc)
            return False
        return True

    # -- assistance -------------------------------------------------------------------

    def _key(self, game: Game) -> tuple[str, str | None]:
        """Which position a grading is of: the turns that led to it, and a pending step."""
        return _turns_key(game.history), str(game.pending) if game.pending is not None else None

    def _wants_grading(self, game: Game) -> bool:
        tracker = self.tracker
        if game.outcome is not None or self.setup is not None:
            return False
        warning = self.warning
        if warning is not None and warning.reply is None and warning.plies == len(game.history):
            return True  # the opponent's answer says why the turn was a blunder
        return game.turn != tracker.computer and self.assists.of(game.turn).grades

    def _drive_grader(self, now: float) -> None:
        """Start grading the position when its player is assisted; take the grading when it is done."""
        grader = self.grader
        if grader is None:
            return
        if self._grading is not None:
            try:
                done = grader.result()
            except Exception as exc:  # a broken grader leaves the board without assistance, no more
                log.error("grading failed: %s", exc)
                self._grading = None
                return
            if done is None:
                return
            key, self._grading = self._grading, None
            self.gradings[key] = done
            for old in list(self.gradings)[:-4]:  # the oldest first: dicts keep their order
                del self.gradings[old]
            self._assist_version += 1
            self._check_blunder()
            self._find_reply()
        if self._asked is not None or self.tracker.resync:
            return  # one search at a time: the computer's turn or the hint first
        game = self.tracker.confirmed
        key = self._key(game)
        if key in self.gradings or not self._wants_grading(game):
            return
        try:
            grader.start(game.copy())
        except Exception as exc:
            log.error("grading failed: %s", exc)
            return
        self._grading = key
        # a grader that answers at once (on virtual time) is taken in this same step
        self._drive_grader(now)

    def _check_blunder(self) -> None:
        """Warn of the last turn when it was graded a blunder and its player wants warnings."""
        game = self.tracker.confirmed
        if self.warning is not None or not game.history or game.outcome is not None or game.pending is not None:
            return
        turn = game.history[-1]
        plies = len(game.history)
        side: Side = "white" if game.turn == "black" else "black"  # the side that played ``turn``
        if side == self.tracker.computer or not self.assists.of(side).warn:
            return
        if self._warned == plies:
            return  # warned of this turn already (the player played on)
        earlier = _turns_key(game.history[:-1])
        before = self.gradings.get((earlier, None))
        if before is None and turn.removal:
            step = f"{turn.origin}-{turn.target}" if turn.origin else str(turn.target)
            before = self.gradings.get((earlier, step))
        graded = before.of(turn) if before is not None else None
        if graded is None or graded.grade != "blunder":
            return
        self._warned = plies
        self.warning = BlunderWarning(side, turn, before.best if before else None, graded.loss, plies, turn.target)
        self._warning_until = self._now + WARNING_S
        self._assist_version += 1
        log.info("blunder warning: %s played %s (better %s)", side, turn, self.warning.better)
        self._find_reply()

    def _find_reply(self) -> None:
        """The warning's opponent answer, from the grading of the position after the blunder."""
        warning = self.warning
        if warning is None or warning.reply is not None:
            return
        game = self.tracker.confirmed
        after = self.gradings.get(self._key(game)) if len(game.history) == warning.plies else None
        if after is not None and after.best is not None:
            self.warning = replace(warning, reply=after.best)
            self._assist_version += 1

    def _reply_held(self) -> bool:
        """Whether the computer waits: a warning shows, or the human's last turn is still being graded."""
        if self.warning is not None:
            return True
        game = self.tracker.confirmed
        if not game.history or self.grader is None:
            return False
        side = "white" if game.turn == "black" else "black"
        if side == self.tracker.computer or not self.assists.of(side).warn or self._warned == len(game.history):
            return False
        return self._grading is not None and self._grading[0] == _turns_key(game.history[:-1])

    def _end_warning(self) -> None:
        self.warning = None
        self._warning_until = math.inf
        self._assist_version += 1

    def _reset_assistance(self) -> None:
        if self._grading is not None and self.grader is not None:
            self.grader.cancel()
        self._grading = None
        self.gradings.clear()
        self.warning = None
        self._warning_until = math.inf
        self._warned = -1
        self.hints_used = {"white": 0, "black": 0}
        self._assist_version += 1

    def _assisted(self, f: guidance.Frame) -> guidance.Frame:
        """The tracker's frame with the assistance: targets by quality, the blunder warning."""
        state = self.tracker.state
        game = state.confirmed if state.confirmed is not None else state.game
        points = f.points
        warning = self.warning
        if warning is not None and self._now < self._warning_until:
            points = dict(points)
            guidance.put(points, (warning.point,), "blunder")
        if state.resync or state.outcome is not None or not self.assists.of(state.turn).targets:
            return guidance.Frame(points, f.status) if points is not f.points else f
        if self.tracker.provisional or state.prompt is not None or state.turn == state.computer:
            return guidance.Frame(points, f.status) if points is not f.points else f
        grading = self.gradings.get(self._key(game))
        if grading is None:
            return guidance.Frame(points, f.status) if points is not f.points else f
        if state.lifted is not None:
            roles = grading.target_roles(state.lifted, state.targets)
        elif not state.targets and game.pending is None and game.in_hand[game.turn] and not state.removable:
            # a placement is due: every empty point it may go to, by quality
            targets = tuple(str(t.target) for t in game.legal_turns() if t.origin is None)
            roles = grading.target_roles(None, targets)
        else:
            roles = {}
        if roles:
            points = dict(points)
            for point, role in roles.items():
                if points.get(point) in (None, "legal-target", "last-move"):
                    points[point] = role
        return guidance.Frame(points, f.status) if points is not f.points else f

    def _step_setup(self, raw: frozenset[str], now: float) -> Snapshot:
        """One scan while a position is set up: the men put on, and the game once it stands."""
        setup = self.setup
        assert setup is not None
        setup.update(raw, now)
        if self.buttons is not None:
            for name in self.buttons.pressed():
                self._press(name, now)
        if self.setup is not None and setup.done:
            self.setup = None
            self._frame = None
            log.info("position set up: %s", setup.game.fen)
            self._last_raw = raw
            self.tracker.update(raw, now, full=bool(getattr(self.sensors, "full_scan", True)))
        self._follow_game()
        self._show(now)
        snap = self.snapshot()
        if self.on_change is not None and not snap.same_as(self._snapshot):
            self.on_change(snap)
        self._snapshot = snap
        return snap

    def _current_frame(self) -> guidance.Frame:
        if self.setup is not None:
            return self.setup.frame()
        state = self.tracker.state
        version = (state.version, self._assist_version)
        if self._frame is None or self._frame_version != version:
            self._frame = self._assisted(frame(state))
            self._frame_version = version
        return self._frame

    def _show(self, now: float) -> None:
        f = self._current_frame()
        status = dict(f.status)
        if self.fault:
            status["error"] = "error"
        colours = (guidance.render(f.points, now, self.palette), guidance.render(status, now, self.palette))
        if colours != self._shown:
            self._shown = colours
            self.leds.show(*colours)


def _turns_key(turns: Sequence[object]) -> str:
    """The turns that led to a position, as one text (a grading's key)."""
    return " ".join(map(str, turns))
