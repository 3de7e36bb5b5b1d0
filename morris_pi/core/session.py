"""One board from power-on to power-off: set-up menu -> controller -> saves and records.

Every end that plays whole games (the service, and any other that wants the
same flow) runs a ``Session`` over its ``SensorSource``, ``LedStrip``,
``Buttons`` and ``Clock``:

- **Start**: a saved game in progress is resumed: the tracker starts out of
  step with the board and its correction LEDs (``missing``/``extra``) guide the
  men back to where the save has them. A save of a game that had already ended
  (power cut between its record and clearing the save) is archived again under
  its own id, which replaces its record. Otherwise the set-up menu opens
  (``[game] menu = true``) or a game starts with the configured settings.
- **Saves**: after every turn, takeback and result (the controller's
  ``on_turn``) the game is saved atomically with its settings and id
  (``meta``); a finished game becomes a record and the save is cleared; a game
  abandoned with the ``new`` button after at least one turn is archived as
  unfinished (Result ``*``), so nothing is lost silently.
- **Menu button**: before the first turn of a game, or once it has ended, it
  reopens the set-up menu; during a game it keeps its in-game meaning (claim a
  draw, or press twice to resign). Inside the menu, ``new`` or ``menu`` starts.
- **Pairing**: ``ask_pairing(ticket, code, seconds)`` blinks ``PAIRING_PATTERN``
  over whatever the board shows while any request waits. Each request has its
  own code, a short sequence of the board's buttons that only the asking page
  shows. While the board blinks, the buttons type codes and do nothing else; the
  last presses matching a waiting code grant that request alone (its ticket
  joins ``granted``), so a press meant for anything else, or a code typed for
  another request, never lets the wrong browser in. Requests run out on their own.
- **Seeds**: ``seeds()`` (if given) chooses each new game's engine seed, so the
  computer at a low level does not play the same game twice while a game stays
  repeatable: the seed goes into the save's meta and the record (``Seed``). A
  resumed game keeps its own.
- **Clock**: a two-player game with ``GameSettings.clock`` runs a ``GameClock``.
  It stands still while the board is put right (after a takeback, a resumed save,
  a new game), its state is saved with every turn and kept in the record, and a
  side low on time lights ``LOW_TIME_ROLE`` on its status LED and on the middle
  point of its edge (``LOW_TIME_POINTS``), over nothing else the board shows.
- **Faults**: the owner reports hardware faults with ``set_fault``; the
  controller reports a failing computer player itself. Each kind lights its own
  pattern of ``error`` points (``ERROR_PATTERNS``) over whatever the board shows,
  plus the ``error`` status LED, so a board without a screen never fails
  silently.

The session draws every frame itself: the controller paints into a capture
strip, and the session writes the composed frame (the game's, the menu's, or
the fault pattern) to the real strip only when it changed.

>>> from morris_pi.core.ports import ManualClock
>>> from morris_pi.core.virtual import RecordingStrip, VirtualSensors
>>> clock, strip = ManualClock(), RecordingStrip()
>>> s = Session(sensors=VirtualSensors(), leds=strip, clock=clock, defaults=GameSettings(mode="two-player"))
>>> s.start(), s.state
('menu', 'menu')
>>> s.step(); s.press("new"); s.step(); s.state, s.status()
('game', 'two players, standard rules: white to move, 0 turns')
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable, Mapping
from typing import Any

from morris_pi import guidance
from morris_pi.catalogue import Words
from morris_pi.rules import Game
from morris_pi.rules.board import RINGS
from morris_pi.tracker.settle import DEFAULT_HOLD_S, DEFAULT_SETTLE_S
from morris_pi.tracker.tracker import DEFAULT_CONFIRM_S

from .assist import Grader
from .closing import Closeable
from .controller import Controller, Snapshot
from .gameclock import LOW_TIME_POINTS, LOW_TIME_ROLE, GameClock
from .keeper import GameKeeper
from .menu import GameSettings, Menu
from .ports import RGB, Buttons, Clock, GameStore, LedStrip, Opponent, SensorSource

log = logging.getLogger(__name__)

#: Which points show the ``error`` role for each kind of fault (several may show at once).
ERROR_PATTERNS: dict[str, tuple[str, ...]] = {
    "sensors": RINGS[0],  # outer ring: the switches cannot be read
    "leds": RINGS[1],  # middle ring: the LED chain could not be written
    "engine": RINGS[2],  # inner ring: the computer player failed
    "storage": ("a7", "g7", "g1", "a1"),  # outer corners: the game cannot be saved
}

#: The points that blink while a browser asks to be paired (``ask_pairing``): the
#: middle of each outer side, a pattern no game, menu or fault shows.
PAIRING_PATTERN: tuple[str, ...] = ("d7", "g4", "d1", "a4")
#: The role (look) the pairing pattern blinks in.
PAIRING_ROLE = "confirm"
#: The most presses in a pairing code.
MAX_PAIRING_CODE = 8


def timings(settle_ms: float) -> tuple[float, float]:
    """The tracker's settle window and hold for the config's ``sensors.settle_ms``.

    ``settle_ms`` is how long a change must hold before a turn is read from it
    (the tracker's *firm* state): the settle window (at most the tracker's
    default) plus the hold make it up.

    >>> timings(200)
    (0.08, 0.12)
    >>> timings(50)
    (0.05, 0.0)
    """
    total = settle_ms / 1000
    settle = min(DEFAULT_SETTLE_S, total)
    return settle, round(total - settle, 9)


class _Capture:
    """The controller's LED strip: keeps its colours for the session to compose."""

    def __init__(self) -> None:
        self.points: dict[str, RGB] = {}
        self.status: dict[str, RGB] = {}

    def show(self, points: Mapping[str, RGB], status: Mapping[str, RGB] = {}) -> None:
        self.points, self.status = dict(points), dict(status)

    def close(self) -> None:
        pass


class _Reading:
    """The controller's sensors: the reading the session took this scan (one bus read per scan)."""

    def __init__(self) -> None:
        self.raw: frozenset[str] = frozenset()
        self.full_scan = True

    def read(self) -> frozenset[str]:
        return self.raw

    def close(self) -> None:
        pass


class _Relay:
    """The controller's buttons: the presses the session passes on."""

    def __init__(self) -> None:
        self.queue: list[str] = []

    def pressed(self) -> list[str]:
        out, self.queue = self.queue, []
        return out

    def close(self) -> None:
        self.queue.clear()


class Session(Closeable):
    """The set-up menu, the game and its saves on one board.

    ``opponent_factory(level)`` makes the computer player (the engine); it is
    also asked for hints in two-player games. Without it the controller's
    first-legal player stands in. ``storage`` (a ``GameStore``: ``morris_pi.core.storage.Storage``)
    is optional: without it nothing is saved. The session does not close the
    ends it was given: their owner does. After ``close()`` it refuses to scan or to act
    (``ClosedError``); what it shows (``status``, ``snapshot``) can still be read.
    """

    def __init__(
        self,
        *,
        sensors: SensorSource,
        leds: LedStrip,
        clock: Clock,
        buttons: Buttons | None = None,
        storage: GameStore | None = None,
        defaults: GameSettings | None = None,
        menu: bool = True,
        opponent_factory: Callable[[int], Opponent] | None = None,
        palette: Mapping[str, guidance.Look] | None = None,
        settle_s: float = DEFAULT_SETTLE_S,
        hold_s: float = DEFAULT_HOLD_S,
        confirm_s: float = DEFAULT_CONFIRM_S,
        seeds: Callable[[], int | None] | None = None,
        grader: Grader | None = None,
    ) -> None:
        self.sensors = sensors
        #: Grades the turns for the players' assistance (``EngineGrader``); ``None``: no grading.
        self.grader = grader
        self.leds = leds
        self.clock = clock
        self.buttons = buttons
        self.keeper = GameKeeper(storage, clock)
        self.defaults = defaults or GameSettings()
        self.menu_at_start = menu
        self.opponent_factory = opponent_factory
        self.palette = dict(palette) if palette is not None else dict(guidance.DEFAULT_PALETTE)
        self.settle_s = settle_s
        self.hold_s = hold_s
        self.confirm_s = confirm_s
        self.settings = self.defaults
        self.controller: Controller | None = None
        self.menu: Menu | None = None
        #: Faults reported by the owner (``set_fault``): kind -> message.
        self.faults: dict[str, str] = {}
        self._capture = _Capture()
        self._relay = _Relay()
        self._reading = _Reading()
        self._raw: frozenset[str] | None = None
        self._wake: float | None = None
        self._dirty = True
        #: Bumped by every step that did something: the owner refreshes its status only then.
        self.version = 0
        self._opponent: Opponent | None = None
        self._opponent_level: int | None = None
        self._written: tuple[dict[str, RGB], dict[str, RGB]] | None = None
        self._started = False
        #: The pairing requests waiting for their codes: ticket -> (code, until).
        self._pair_asks: dict[str, tuple[tuple[str, ...], float]] = {}
        #: The last presses while the board blinks, matched against the codes.
        self._typed: deque[str] = deque(maxlen=MAX_PAIRING_CODE)
        #: The tickets of the requests granted lately, newest last (the web side watches it).
        self.granted: deque[str] = deque(maxlen=16)
        #: How many pairings the board's buttons granted.
        self.pairings = 0
        #: A factor on the LEDs' configured brightness (``set_brightness``).
        self.brightness = 1.0
        #: Chooses each new game's engine seed (``None``: the computer player keeps its own).
        self.seeds = seeds
        #: The running game's clock (two-player games with a ``clock`` setting), else ``None``.
        self.game_clock: GameClock | None = None
        self._extra: dict[str, Any] = {}  # the running game's seed, kept in its meta
        self._extra_for: Game | None = None  # the game ``_extra`` was made for

    # -- start ------------------------------------------------------------------------

    def start(self) -> str:
        """Resume the saved game, or open the menu, or start a new game: returns which
        (``"resumed"``, ``"menu"`` or ``"new"``)."""
        self._check_open("start")
        if self._started:
            raise RuntimeError("the session has already started")
        self._started = True
        how = self._begin()
        self.flush()
        return how

    def _begin(self) -> str:
        resumed = self.keeper.load(self.defaults)
        if resumed is not None:
            game, settings = resumed
            self._start_game(settings, game=game)
            log.info(
                "resuming the saved game %s: %d turns, %s to move (%s); put the board back as the lights show",
                self.meta["id"],
                len(game.history),
                game.turn,
                self._describe(settings),
            )
            return "resumed"
        if self.menu_at_start:
            self.open_menu(self.defaults)
            return "menu"
        self._start_game(self.defaults)
        return "new"

    @property
    def storage(self) -> GameStore | None:
        return self.keeper.storage

    @property
    def meta(self) -> dict[str, Any]:
        """The running game's meta data as saved: id, settings, start time."""
        return self.keeper.meta

    def open_menu(self, settings: GameSettings | None = None) -> None:
        """Show the set-up menu (the running game must not need its computer player meanwhile)."""
        controller = self.controller
        if controller is not None and controller.waiting and controller.opponent is not None:
            controller.opponent.cancel()
        self.menu = Menu(settings or self.settings, hold_s=self.settle_s + self.hold_s)
        self._follow_clock(self.clock.now())
        self._dirty = True
        log.info("set-up menu: %s", self.menu.describe())

    # -- the loop ---------------------------------------------------------------------

    @property
    def state(self) -> str:
        """``"menu"``, ``"game"``, or ``"idle"`` before ``start``."""
        if self.menu is not None:
            return "menu"
        return "game" if self.controller is not None else "idle"

    def __repr__(self) -> str:
        if self.closed:
            return "<Session closed>"
        if self.state != "game":
            return f"<Session {self.state}>"
        game = self.controller.game  # type: ignore[union-attr]
        where = f"outcome={game.outcome}" if game.outcome else f"{game.turn} to move"
        return f"<Session game {game.profile.name} record={game.record!r} {where}>"

    def step(self, *, write: bool = True) -> None:
        """One scan: sensors and buttons to the menu or the controller, the LEDs, then the saves.

        A scan in which no switch changed, no button was pressed and nothing is
        due (``next_wakeup``) does nothing more: an idle board costs one read.
        The game is saved after the LEDs are written, so a slow SD card never
        delays what the player sees. Errors of the ends (a sensor read, an LED
        write) propagate to the owner, which reports them with ``set_fault`` and
        retries; ``write=False`` skips the LED write.
        """
        self._check_open("scan the board")
        now = self.clock.now()
        raw = frozenset(self.sensors.read())
        presses = self.buttons.pressed() if self.buttons is not None else []
        if self._pair_asks and any(until <= now for _, until in self._pair_asks.values()):
            for ticket in [t for t, (_, until) in self._pair_asks.items() if until <= now]:
                self.cancel_pairing(ticket)
        if not (self._dirty or presses or raw != self._raw or (self._wake is not None and now >= self._wake)):
            return
        self._dirty = False
        self._raw = self._reading.raw = raw
        self._reading.full_scan = bool(getattr(self.sensors, "full_scan", True))
        self.version += 1
        if self.menu is not None:
            self.menu.update(raw, now)
        for name in presses:
            self.press(name)
        if self.menu is not None and self.menu.done:
            settings = self.menu.settings
            self.menu = None
            self._start_game(settings)
        if self.menu is None and self.controller is not None:
            self.controller.step()
        self._follow_clock(now)
        if write:
            self.refresh()
        self.flush()
        self._wake = self.next_wakeup()

    @property
    def reading(self) -> frozenset[str]:
        """The switches closed at the last scan."""
        return self._raw or frozenset()

    def expected_men(self) -> frozenset[str] | None:
        """Where the game has men now (``None`` while the menu shows or before a game)."""
        if self.menu is not None or self.controller is None:
            return None
        return frozenset(self.controller.game.board)

    @property
    def due(self) -> float | None:
        """``next_wakeup`` as of the last step that did something (cheap: for the loop's sleep)."""
        return self._wake

    def flush(self) -> None:
        """Do the storage work the last turns asked for (saves, records), in order."""
        self.keeper.flush()

    def press(self, name: str) -> None:
        """A button, from the board's ``Buttons`` or from code."""
        self._check_open("press a button")
        self._dirty = True
        if self._pair_asks:
            # while the board blinks, the buttons type a pairing code and do nothing else
            self._typed.append(name)
            typed = tuple(self._typed)
            for ticket, (code, _) in self._pair_asks.items():
                if typed[-len(code) :] == code:
                    del self._pair_asks[ticket]
                    self._typed.clear()
                    self.granted.append(ticket)
                    self.pairings += 1
                    log.info("pairing granted with the board's buttons")
                    break
            return
        if self.menu is not None:
            self.menu.press(name)
            return
        if name == "menu" and self.controller is not None and self._menu_allowed():
            self.open_menu()
            return
        self._relay.queue.append(name)

    def command(self, name: str) -> None:
        """What button ``name`` does, asked by another end (the web page): the same as ``press``,
        except that it never types into a pairing code while the board blinks for one."""
        self._check_open("take a command")
        self._dirty = True
        if self.menu is not None:
            self.menu.press(name)
        elif name == "menu" and self.controller is not None and self._menu_allowed():
            self.open_menu()
        else:
            self._relay.queue.append(name)

    def choose(self, point: str) -> None:
        """Choose what the set-up menu offers on ``point``, as a man put there and lifted would."""
        self._check_open("choose from the menu")
        if self.menu is None:
            raise ValueError("choose: the set-up menu is not up")
        if point not in self.menu.choices():
            raise ValueError(f"choose: {point} offers nothing in the set-up menu now")
        self.menu.choose(point)
        self._dirty = True

    def new_game(self, settings: GameSettings | None = None) -> None:
        """Start a new game now with ``settings`` (default: the current ones), from the
        menu or from a game: what the menu's start point or the ``new`` button does, with
        the choices given at once (a game abandoned after a turn is archived as unfinished)."""
        self._check_open("start a new game")
        self.menu = None
        self._start_game(settings or self.settings)
        self._dirty = True

    def set_up(self, fen: str, settings: GameSettings | None = None) -> None:
        """Start a game from the Sanmill FEN ``fen``, set up on the board first: the LEDs light
        where the white men go, then the black, and the game starts once the board shows the
        position (``Controller.set_up``). A bad FEN raises ``ValueError`` naming its bad field,
        and nothing changes. The FEN is kept in the game's meta (``fen``) and its record."""
        settings = settings or self.settings
        game = Game.from_fen(fen, settings.profile)
        self.menu = None
        self._start_game(settings, fen=game.fen)
        controller = self.controller
        assert controller is not None
        controller.set_up(game)
        self._extra_for = controller.game
        self._dirty = True
        log.info("setting up the position %s on the board", game.fen)

    @property
    def setting_up(self) -> bool:
        """Whether a position is being set up on the board before its game."""
        return self.menu is None and self.controller is not None and self.controller.setup is not None

    def ask_pairing(self, ticket: str, code: tuple[str, ...], seconds: float) -> None:
        """Blink ``PAIRING_PATTERN`` until ``code`` is typed on the buttons (``ticket`` then joins
        ``granted``) or ``seconds`` pass. Other requests keep waiting beside it."""
        if not seconds > 0:
            raise ValueError(f"pairing needs a time above 0 seconds, got {seconds!r}")
        if not 2 <= len(code) <= MAX_PAIRING_CODE:
            raise ValueError(f"a pairing code has 2 to {MAX_PAIRING_CODE} presses, got {len(code)}")
        if not self._pair_asks:
            self._typed.clear()  # presses before the blinking began are no part of any code
        self._pair_asks[ticket] = (tuple(code), self.clock.now() + seconds)
        self._dirty = True

    def cancel_pairing(self, ticket: str | None = None) -> None:
        """Forget the request ``ticket`` (every request with ``None``)."""
        if ticket is None:
            dropped = bool(self._pair_asks)
            self._pair_asks.clear()
        else:
            dropped = self._pair_asks.pop(ticket, None) is not None
        if dropped:
            self._dirty = True

    @property
    def pairing_until(self) -> float | None:
        """Until when the pairing pattern blinks (the last waiting request's end), or ``None``."""
        return max((until for _, until in self._pair_asks.values()), default=None)

    def set_brightness(self, factor: float) -> None:
        """Dim the LEDs to ``factor`` (0.05-1) of their configured brightness."""
        if isinstance(factor, bool) or not isinstance(factor, (int, float)) or not 0.05 <= factor <= 1:
            raise ValueError(f"brightness must be a number from 0.05 to 1, got {factor!r}")
        if factor != self.brightness:
            self.brightness = float(factor)
            self._dirty = True

    def refresh(self) -> None:
        """Write the current frame to the LEDs if it changed (also while the sensors fail)."""
        frame = self._compose(self.clock.now())
        if frame != self._written:
            self._written = None  # if the write fails, write again next time
            self.leds.show(*frame)
            self._written = frame

    def next_wakeup(self) -> float | None:
        """When the next step has something to do (a settle, a decision, a blink edge)."""
        now = self.clock.now()
        times = []
        if self.menu is not None:
            edge = guidance.next_edge(self.menu.frame().points.values(), now, self.palette)
            if edge is not None:
                times.append(edge)
        elif self.controller is not None:
            wake = self.controller.next_wakeup()
            if wake is not None:
                times.append(wake)
        if self.keeper.due is not None:
            times.append(self.keeper.due)  # a save or record to write again
        if self._pair_asks:
            times.append(min(until for _, until in self._pair_asks.values()))
            edge = guidance.next_edge([PAIRING_ROLE], now, self.palette)
            if edge is not None:
                times.append(edge)
        if self.faults or self.keeper.fault:
            # the patterns composed here; the controller's own wake-ups cover the computer player's
            edge = guidance.next_edge(["error"], now, self.palette)
            if edge is not None:
                times.append(edge)
        clock = self.game_clock
        if clock is not None and self.menu is None:
            event = clock.next_event(now)
            if event is not None:
                times.append(event)
            if any(clock.low(side, now) for side in LOW_TIME_POINTS):
                edge = guidance.next_edge([LOW_TIME_ROLE], now, self.palette)
                if edge is not None:
                    times.append(edge)
        return min(times) if times else None

    # -- faults -----------------------------------------------------------------------

    def set_fault(self, kind: str, message: str) -> None:
        """Show fault ``kind`` (a key of ``ERROR_PATTERNS``) until ``clear_fault``."""
        if kind not in ERROR_PATTERNS:
            raise ValueError(f"unknown fault kind {kind!r}: kinds are {', '.join(ERROR_PATTERNS)}")
        if self.faults.get(kind) != message:
            self.faults[kind] = message
            self._dirty = True

    def clear_fault(self, kind: str) -> None:
        if self.faults.pop(kind, None) is not None:
            self._dirty = True

    def all_faults(self) -> dict[str, str]:
        """Every fault showing now: the owner's, the computer player's and storage's."""
        faults = dict(self.faults)
        if self.keeper.fault is not None:
            faults["storage"] = self.keeper.fault
        if self.controller is not None and self.controller.fault and self.menu is None:
            faults["engine"] = self.controller.fault
        return faults

    # -- what the board shows and knows -------------------------------------------------

    def snapshot(self) -> Snapshot | None:
        """The controller's snapshot (``None`` before the first game starts)."""
        return self.controller.snapshot() if self.controller is not None else None

    def status(self, lang: str = "en") -> str:
        """One line for ``systemctl status`` and the log: menu or side to move, record length, faults."""
        w = Words(lang)
        faults = self.all_faults()
        if self.menu is not None:
            text = w("log.status.menu", menu=self.menu.describe(lang))
        elif self.controller is not None:
            snap = self.controller.snapshot()
            turns = len(self.controller.game.history)
            where = self._describe(self.settings, lang)
            if snap.outcome is not None:
                text = w("log.status.over", where=where, outcome=snap.outcome, turns=turns)
            else:
                text = w("log.status.game", where=where, side=w.side(snap.turn, inside=True), turns=turns)
                if snap.thinking:
                    text += w("log.status.thinking")
                elif snap.computer:
                    text += w("log.status.computer", turn=snap.computer)
                if snap.problems:
                    text += w("log.status.problems", n=len(snap.problems))
        else:
            text = w("log.status.starting")
        if faults:
            text += w("log.status.faults", faults="; ".join(faults.values()))
        return text

    def clock_roles(self, now: float) -> tuple[dict[str, str], dict[str, str]]:
        """The low-time warning: ``LOW_TIME_ROLE`` on the points and status LEDs of each side low on
        time (the points only where nothing else is lit: ``overlay`` is below the game's frame)."""
        clock = self.game_clock
        if clock is None or self.menu is not None:
            return {}, {}
        low = [side for side in LOW_TIME_POINTS if clock.low(side, now)]
        points = {LOW_TIME_POINTS[side]: LOW_TIME_ROLE for side in low}
        return points, {f"{side}-to-move": LOW_TIME_ROLE for side in low}

    def end_on_time(self) -> None:
        """End the game for the side whose time ran out (the flag is its resignation, kept in the record)."""
        clock = self.game_clock
        if clock is None or clock.flagged is None or self.controller is None or self.menu is not None:
            raise ValueError("no side's time has run out")
        game = self.controller.game
        if game.outcome is not None:
            raise ValueError(f"the game is already over ({game.outcome})")
        if game.turn != clock.flagged:
            raise ValueError(f"it is {game.turn}'s turn, and {clock.flagged}'s time ran out")
        self.press("resign")

    def _release(self) -> None:
        """Stop the computer player and release its tables. The ends stay open: their owner closes them."""
        opponent = self.controller.opponent if self.controller is not None else None
        if opponent is not None:
            _retire(opponent)
        if self.grader is not None:
            try:
                self.grader.cancel()  # its thread stops at the next check of the stop flag
            except Exception:  # closing down: a broken grader must not stop that
                log.exception("the grader failed to stop")

    # -- inside -----------------------------------------------------------------------

    @staticmethod
    def _describe(settings: GameSettings, lang: str = "en") -> str:
        w = Words(lang)
        rules = w(f"profile.{settings.profile}")
        if settings.computer is None:
            return w("log.describe.two_player", rules=rules)
        side = w.side(settings.human, inside=True)
        return w("log.describe.computer", level=settings.level, side=side, rules=rules)

    def _menu_allowed(self) -> bool:
        game = self.controller.game  # type: ignore[union-attr]
        return game.outcome is not None or (not game.history and game.pending is None)

    def _opponent_for(self, settings: GameSettings) -> Opponent | None:
        if self.opponent_factory is None:
            return None
        if self._opponent is None or self._opponent_level != settings.level:
            if self._opponent is not None:
                _retire(self._opponent)  # one search at a time: the old player ends before the new starts
            self._opponent = self.opponent_factory(settings.level)
            self._opponent_level = settings.level
        return self._opponent

    def _start_game(self, settings: GameSettings, game: Game | None = None, *, fen: str | None = None) -> None:
        self.settings = settings
        opponent = self._opponent_for(settings)
        self._extra = self._game_meta(settings, opponent, resumed=game is not None)
        if fen is not None:
            self._extra["fen"] = fen
        if self.controller is None:
            self.controller = Controller(
                sensors=self._reading,
                leds=self._capture,
                clock=self.clock,
                buttons=self._relay,
                profile=settings.profile,
                computer=settings.computer,
                opponent=opponent,
                palette=self.palette,
                settle_s=self.settle_s,
                hold_s=self.hold_s,
                confirm_s=self.confirm_s,
                game=game,
                on_turn=self._on_turn,
                grader=self.grader,
                assists=settings.assists,
            )
            if game is None:
                self.keeper.adopt(self.controller.game, settings, self._extra)
        else:
            # the controller's on_turn sees the new game at its next step and adopts it
            self.controller.new_game(profile=settings.profile, computer=settings.computer)
            self.controller.assists = settings.assists
            if opponent is not None:
                self.controller.opponent = opponent
        self._extra_for = self.controller.game
        if game is None:
            log.info("new game: %s", self._describe(settings))

    def _game_meta(self, settings: GameSettings, opponent: Opponent | None, *, resumed: bool) -> dict[str, Any]:
        """What a game keeps beside its settings: its engine seed and its clock; the clock set up."""
        meta: dict[str, Any] = {}
        seed = self.meta.get("seed") if resumed else (self.seeds() if self.seeds is not None else None)
        if isinstance(seed, int) and not isinstance(seed, bool):
            if opponent is not None and hasattr(opponent, "seed"):
                setattr(opponent, "seed", seed)  # noqa: B010  # not every Opponent has a seed
            meta["seed"] = seed
        elif isinstance(own := getattr(opponent, "seed", None), int):
            meta["seed"] = own  # the player's own fixed seed (the config's [engine] seed)
        control = settings.timed
        saved = self.meta.get("timing") if resumed else None
        if control is None:
            self.game_clock = None
        elif isinstance(saved, Mapping):
            self.game_clock = GameClock.from_meta(saved, control)
        else:
            self.game_clock = GameClock(control)
        return meta

    def _on_turn(self, game: Game) -> None:
        """The controller's game changed: the clock follows it before the keeper saves it."""
        if game is not self.keeper.game and game is not self._extra_for:
            # a new game the board's own "new" button started: it gets its own seed and clock too
            opponent = self.controller.opponent if self.controller is not None else None
            self._extra = self._game_meta(self.settings, opponent, resumed=False)
            self._extra_for = game
        self._follow_clock(self.clock.now())
        extra = dict(self._extra)
        used = self.controller.hints_used if self.controller is not None else {}
        if any(used.values()):
            extra["hints_used"] = dict(used)
        if self.game_clock is not None:
            extra["timing"] = self.game_clock.to_meta(self.clock.now())
        self.keeper.on_turn(game, self.settings, extra)

    def _follow_clock(self, now: float) -> None:
        clock, controller = self.game_clock, self.controller
        if clock is None or controller is None:
            return
        game = controller.game
        running = self.menu is None and game.outcome is None and not controller.tracker.resync
        if clock.sync(len(game.history), running=running, now=now):
            self._dirty = True
            self.version += 1

    def _compose(self, now: float) -> tuple[dict[str, RGB], dict[str, RGB]]:
        faults = self.all_faults()
        if "sensors" in faults:
            points: dict[str, RGB] = {}  # nothing the board showed can be trusted now
            status: dict[str, RGB] = {}
        elif self.menu is not None:
            points = guidance.render(self.menu.frame().points, now, self.palette)
            status = {}
        else:
            points, status = dict(self._capture.points), dict(self._capture.status)
            low_points, low_status = self.clock_roles(now)
            if low_points:
                lit = guidance.render({"x": LOW_TIME_ROLE}, now, self.palette).get("x")
                for point in low_points:
                    if point in points:
                        continue  # the game's guidance comes first
                    if lit is not None:
                        points[point] = lit
                for name in low_status:
                    if lit is None:
                        status.pop(name, None)
                    else:
                        status[name] = lit
        if faults:
            lit = guidance.render({"x": "error"}, now, self.palette).get("x")
            for kind in faults:
                for point in ERROR_PATTERNS[kind]:
                    if lit is None:
                        points.pop(point, None)  # the dark half of the blink: the pattern must show
                    else:
                        points[point] = lit
            if lit is None:
                status.pop("error", None)
            else:
                status["error"] = lit
        if self.pairing_until is not None:
            lit = guidance.render({"x": PAIRING_ROLE}, now, self.palette).get("x")
            for point in PAIRING_PATTERN:
                if lit is None:
                    points.pop(point, None)
                else:
                    points[point] = lit
        if self.brightness != 1.0:
            f = self.brightness
            points = {p: (round(r * f), round(g * f), round(b * f)) for p, (r, g, b) in points.items()}
            status = {p: (round(r * f), round(g * f), round(b * f)) for p, (r, g, b) in status.items()}
        return points, status


def _retire(opponent: Opponent) -> None:
    """Stop a computer player for good: cancel its search, wait for it briefly, release its tables."""
    try:
        close = getattr(opponent, "close", None)
        if callable(close):
            close()
        else:
            opponent.cancel()
    except Exception:  # closing down: a broken player must not stop that
        log.exception("the computer player failed to stop")
