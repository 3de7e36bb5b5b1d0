"""A board on the table for tests: the real controller over virtual ends, moved by hand in virtual time."""

from __future__ import annotations

from morris_pi.core.controller import Controller, Snapshot, TrackerFactory
from morris_pi.core.ports import ManualClock, Opponent
from morris_pi.core.virtual import RecordingStrip, VirtualButtons, VirtualSensors
from morris_pi.rules import Game

#: Moving phase, standard rules, white to move; a1-d1 (or g1-d1, d2-d1) closes the mill d1-d2-d3.
MOVING = "g1 e4 g7 f6 a1 e3 c3 c4 c5 d6 b6 d7 d5 a7 d3 b2 d2 f2"
#: Moving phase, white to move, no turn closes a mill: legal are f2-d2, d5-e5, e3-d3.
QUIET = "f2 b2 d7 d6 e3 e4 c5 f4 c4 a4 b4 d1 d5 g1 b6 g7 a7 c3"
#: White has three men (a1, f2, d5) and flies; white to move.
FLYING = (
    "f2 b2 d7 d6 e3 e4 c5 f4 c4 b6 a4 f6xc4 g4 b4xf2 g1 a1 d3 e5 d7-g7xe4 e5-e4 d3-d2 b4-c4 a4-a7 d6-d5 "
    "a7-a4 b6-b4 e3-d3 d5-e5 g1-d1xe4 e5-d5 g4-g1 d5-d6 d3-e3 f4-f2 e3-d3xf6 d6-b6xa4 d3-e3 f2-f4 e3-d3xa1 "
    "c4-c3 d2-f2 b6-d6 d3-d2 d6-d7 g7-g4 b4-b6 g4-g7 c3-c4 d2-d3 c4-b4xg1 d1-d2 f4-e4 d3-e3 e4-e5 f2-f4 "
    "d7-d6 c5-d5 d6-f6 f4-f2 f6-d6 e3-d3 d6-d7 g7-g4 d7-d6 d3-c3 d6-d7 d2-d1 b2-d2 g4-g1 d2-b2xc3 d1-d2 "
    "e5-e4 d2-d1 e4-e3 f2-d2 e3-d3 g1-g4 d3-e3 d2-f2 b6-d6 d1-a1 d6-b6xg4"
)
#: move-this rules (draws are claimed): QUIET, then the same position a third time.
REPEATED = QUIET + " d5-e5 d1-a1 e5-d5 a1-d1 d5-e5 d1-a1 e5-d5 a1-d1"


class Table:
    """One board: ``on``/``off``/``lift``/``put``/``move`` by hand, ``wait`` for time to pass.

    ``scans=True`` (the default) reads every switch at each step, as the service does: a turn
    is confirmed as soon as the board is firm. ``scans=False`` reports changes one by one, as a
    trace does (a change may be lost; ``snapshot`` heals it): turns stay provisional for the
    confirm window.
    """

    def __init__(
        self,
        record: str = "",
        *,
        profile: str = "standard",
        computer: str | None = None,
        opponent: Opponent | None = None,
        board: set[str] | None = None,
        start: float = 0.0,
        scans: bool = True,
        tracker: TrackerFactory | None = None,
    ) -> None:
        self.clock = ManualClock(start)
        # Like the real board, every read is a scan of every switch unless the test loses events.
        self.sensors = VirtualSensors(scans=scans)
        self.buttons = VirtualButtons()
        self.strip = RecordingStrip()
        game = Game.from_record(record, profile) if record else None
        if board is None:
            board = set(game.board) if game is not None else set()
        self.sensors.set(board)
        self.games: list[str] = []
        self.changes: list[Snapshot] = []
        self.controller = Controller(
            sensors=self.sensors,
            leds=self.strip,
            clock=self.clock,
            buttons=self.buttons,
            profile=profile,
            computer=computer,
            opponent=opponent,
            game=game,
            on_turn=lambda g: self.games.append(g.record),
            on_change=self.changes.append,
            tracker=tracker,
        )
        self.snap = self.controller.step()

    # -- hands ------------------------------------------------------------------------

    def on(self, point: str) -> Snapshot:
        self.sensors.close_switch(point)
        return self.step()

    def off(self, point: str) -> Snapshot:
        self.sensors.open_switch(point)
        return self.step()

    def put(self, point: str, wait: float = 0.5) -> Snapshot:
        """Put a man down and leave it."""
        self.on(point)
        return self.wait(wait)

    def lift(self, point: str, wait: float = 0.5) -> Snapshot:
        """Take a man off and keep it in the hand (or put it aside)."""
        self.off(point)
        return self.wait(wait)

    def move(self, origin: str, target: str) -> Snapshot:
        self.lift(origin)
        return self.put(target)

    def play(self, turn: str) -> Snapshot:
        """Carry out a turn in notation by hand: step first, then the removal."""
        step, _, removal = turn.partition("x")
        if "-" in step:
            origin, target = step.split("-")
            self.move(origin, target)
        else:
            self.put(step)
        if removal:
            self.lift(removal)
        return self.snap

    def snapshot(self, points: set[str]) -> Snapshot:
        """A scan of every switch at once (heals a lost change)."""
        self.sensors.set(points)
        return self.step()

    def press(self, name: str) -> Snapshot:
        self.buttons.press(name)
        return self.step()

    # -- time -------------------------------------------------------------------------

    def step(self) -> Snapshot:
        self.snap = self.controller.step()
        return self.snap

    def wait(self, seconds: float = 0.5) -> Snapshot:
        """Let time pass, stepping the controller at every deadline it names."""
        self.controller.run_until(self.clock.now() + seconds, step=self.step)
        return self.step()

    # -- what it shows ----------------------------------------------------------------

    @property
    def record(self) -> str:
        return self.snap.record

    @property
    def leds(self) -> dict[str, str]:
        return dict(self.snap.leds)

    @property
    def problems(self) -> list[str]:
        return [p.text for p in self.snap.problems]

    def lit(self, role: str) -> set[str]:
        return {p for p, r in self.snap.leds.items() if r == role}


class ScriptedOpponent:
    """A computer player that plays the turns it is given, in order, and records what it was asked."""

    def __init__(self, turns: list[str], *, ready: bool = True) -> None:
        self.turns = list(turns)
        self.ready = ready
        self.asked: list[tuple[str, bool]] = []
        self.cancelled = 0
        self._busy = False

    def start(self, game: Game, *, hint: bool = False) -> None:
        self.asked.append((game.record, hint))
        self._busy = True

    def result(self):
        from morris_pi.rules import Turn

        if not self._busy or not self.ready:
            return None
        self._busy = False
        return Turn.parse(self.turns.pop(0))

    def cancel(self) -> None:
        self.cancelled += 1
        self._busy = False

    @property
    def thinking(self) -> bool:
        return self._busy
