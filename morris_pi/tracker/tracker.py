"""The board tracker: raw switch readings and buttons in, game and guidance state out.

How it decides:

- Every raw reading goes through the ``Settler`` (per-point debounce). The
  first reading after start is taken as settled at once: the board is as it is.
- A man lifted is shown at once, on the first raw event: an own man lifted
  on a moving turn shows its legal targets (every empty point when that side
  flies); an opponent man taken off first shows where a mill-closing turn may
  go. Putting the man back cancels it.
- Turns, takebacks by hand and new problems are decided from the whole *firm*
  occupancy (``read_board``): each point's state once it has held for
  ``settle_s + hold_s`` (0.2 s by default). A magnet slid past a point closes
  it for at most 150 ms, so a slide never reaches a decision, even over a
  point the lifted man could legally go to. Problems the player fixes
  disappear as soon as the fix has settled (``settle_s``).
- A reading must also be *backed by events*: every point it changes changed
  on the sensors since the game's position (the settler counts each point's
  settled changes from there), twice where a chain of two turns empties and
  refills a point. A board no backed reading explains is shown as guidance
  and waits: a later change or a snapshot may complete it.
- While a removal is pending (the mill's step done, or the computer's
  prompted step carried out), a man lifted that may not be taken is
  *protected*: it counts as standing where it was, so no reading takes it or
  moves it, and it shows ``protected`` until it is back.
- After a takeback by button, a new game or a resumed game, no turn is read
  until the board matches the game again (``resync``): the LEDs guide it back.
- A turn read is *provisional* (``game``, which the guidance shows at once)
  until it is confirmed (``confirmed``, which the record, the computer's
  search and the saves see): no point it changes has changed for
  ``confirm_s``, or a scan of every switch newer than its last change agrees
  with it. A board the provisional turns cannot explain (a scan that heals a
  lost change, say) drops them if the confirmed position explains it: the
  board is then read again from every change since that position.

>>> t = Tracker()
>>> t.update(set(), 0.0)
>>> t.update({"d6"}, 1.0); t.tick(1.3); t.game.record, t.confirmed.record   # read, not yet confirmed
('d6', '')
>>> t.tick(2.0); t.confirmed.record      # d6 held for confirm_s
'd6'
>>> t.update({"d6", "f4"}, 3.0); t.tick(3.2); t.update({"d6", "f4"}, 3.25, full=True); t.confirmed.record
'd6 f4'
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from morris_pi.rules import SIDES, Game, Outcome, Side, Turn, other_side
from morris_pi.rules.board import INDEX, POINTS, bits, names_of

from .decide import Decisions
from .hand import lifted_man, protected_men
from .provisional import ProvisionalTurn, ProvisionalTurns
from .reconcile import Problem, board_mask, take_back
from .settle import DEFAULT_HOLD_S, DEFAULT_SETTLE_S, Settler

#: Seconds a first ``menu`` press waits for the second that confirms resignation.
RESIGN_CONFIRM_S = 3.0
#: Seconds a turn read stays provisional while no point it changes changes (without a newer scan
#: of every switch that agrees). A lost switch change is healed by a scan well within it, and the
#: turn after can begin meanwhile; the LEDs follow the provisional reading at once.
DEFAULT_CONFIRM_S = 1.0
#: Button names the tracker understands (``hint`` is served by the controller).
PRESSES = ("new", "undo", "hint", "menu", "draw", "resign")
#: What ``Tracker.drain`` returns, one per change of the recorded game: a turn recorded, steps
#: taken back (how many), a new game, the game over (its outcome), the board back in step.
TrackerEvent = (
    tuple[Literal["turn"], Turn]
    | tuple[Literal["takeback"], int]
    | tuple[Literal["new", "synced"], None]
    | tuple[Literal["over"], Outcome | None]
)


@dataclass(frozen=True)
class TrackerState:
    """What the tracker knows, for the guidance frame and the controller's snapshot.

    ``game`` is the live game: read it, never change it.
    """

    game: Game
    turn: Side
    outcome: Outcome | None
    computer: Side | None
    board: dict[str, str]
    raw: frozenset[str]
    lifted: str | None = None
    targets: tuple[str, ...] = ()
    removable: tuple[str, ...] = ()
    mill: tuple[str, ...] = ()
    prompt: Turn | None = None
    problems: tuple[Problem, ...] = ()
    hint: Turn | None = None
    last: Turn | None = None
    armed: str | None = None
    resync: bool = False
    version: int = 0
    #: The game as recorded (``game`` holds the provisional turns too); ``None`` means ``game``.
    confirmed: Game | None = None


class Tracker(Decisions, ProvisionalTurns):
    """The state machine between the board's switches and the game record.

    Its decisions on the firm board are in ``Decisions`` (``decide.py``), the bookkeeping of
    provisional turns in ``ProvisionalTurns`` (``provisional.py``).
    """

    def __init__(
        self,
        game: Game | None = None,
        *,
        profile: str = "standard",
        computer: Side | None = None,
        settle_s: float = DEFAULT_SETTLE_S,
        hold_s: float = DEFAULT_HOLD_S,
        confirm_s: float = DEFAULT_CONFIRM_S,
    ) -> None:
        if computer not in (None, *SIDES):
            raise ValueError(f"computer must be 'white', 'black' or None, got {computer!r}")
        if not hold_s >= 0:
            raise ValueError(f"hold must be a number of seconds >= 0, got {hold_s!r}")
        if not confirm_s >= 0:
            raise ValueError(f"confirm time must be a number of seconds >= 0, got {confirm_s!r}")
        #: The game as recorded: only confirmed turns. The object passed in is kept and played on.
        self.confirmed = game if game is not None else Game(profile)
        #: The game as the board is read now: the confirmed one plus the provisional turns.
        self.game = self.confirmed.copy()
        #: Turns read but not yet confirmed, oldest first, each with its evidence.
        self.provisional: list[ProvisionalTurn] = []
        self.confirm_s = float(confirm_s)
        self.computer = computer
        self.settle_s = float(settle_s)
        self.hold_s = float(hold_s)
        self.settler = Settler(settle_s, hold_s)
        self.prompt: Turn | None = None
        self.hint: Turn | None = None
        #: Everything shown as a correction: the reading's problems and the protected men.
        self.problems: tuple[Problem, ...] = ()
        #: Men lifted during a pending removal that may not be taken (a mask), until they are back.
        self.protected = 0
        self._found: tuple[Problem, ...] = ()
        self.lifted: str | None = None
        self.targets: tuple[str, ...] = ()
        self.armed: str | None = None
        self.resync = True
        #: Bumped whenever anything shown or known changes.
        self.version = 0
        #: Bumped whenever the game itself changes (turn, takeback, result, new game).
        self.game_version = 0
        self._armed_until = -math.inf
        self._started = False
        self._dirty = True
        self._now = -math.inf
        self._state: TrackerState | None = None
        self._over_board: int | None = None
        self._events: list[TrackerEvent] = []
        self._recheck = False
        self._recheck_at = math.inf
        #: Points whose raw switch differs from the firm state, too recently to have settled.
        self._flicker = 0
        self._takeback_at = math.inf
        #: Time of the latest reading of every switch at once (a scan), and the prompt to restore
        #: when the provisional turns are dropped.
        self._scan_at = -math.inf
        self._healed = 0
        self._scan_mask = 0
        #: Whether the source reports changes one by one (a trace's events, an expander's
        #: interrupts) rather than reading every switch each time.
        self._reports = False
        self._base_prompt: Turn | None = None

    # -- inputs -----------------------------------------------------------------------

    def update(self, occupancy: Iterable[str] | int, now: float, *, full: bool = False) -> None:
        """A raw reading of the switches (point names, or a mask) at time ``now``.

        ``full``: the reading is a scan of every switch, so no change before it can be unseen
        (the service's scans; a trace's snapshot). It confirms the turns read before it.
        """
        mask = occupancy if isinstance(occupancy, int) else points_mask(occupancy)
        held = 0
        if not full:
            self._reports = True
        elif self._started and self._reports:
            # The source reports changes one by one, and this scan shows one it never reported:
            # it happened at some unknown time since the point's last report, so it counts as
            # settled now (the next turn may undo it before a settle window has passed).
            held = mask ^ self.settler.raw
        if full:
            self._scan_at = max(self._scan_at, now)
            self._scan_mask = mask
            self.settler.scanned(now)
        if self._started:
            # Points whose present state only a scan showed: their change had not been reported.
            seen = mask ^ self.settler.raw
            self._healed = self._healed | seen if full else self._healed & ~seen
        if not self._started:
            self._started = True
            self.settler = Settler(self.settle_s, self.hold_s, mask)
            self.settler.rebase(board_mask(self.game))
            self._dirty = True
            self._relift()
        elif self.settler.feed(mask, now, held):
            self._changed()  # the prompt's roles follow the raw switches
            self._protect()
            self._relift()
        self._advance(now)

    def tick(self, now: float, *, full: bool = False) -> None:
        """Time passes: settle and firm up changes, and decide on what firmed up.

        ``full``: the switches were all read now and showed nothing new (see ``update``).
        """
        if full:
            self._scan_at = max(self._scan_at, now)
            self._scan_mask = self.settler.raw
            self.settler.scanned(now)
            self._dirty = True
        self._advance(now)

    def press(self, name: str, now: float) -> bool:
        """A button; returns whether it did anything. ``ValueError`` names an unknown button."""
        if name not in PRESSES:
            raise ValueError(f"unknown button {name!r}: buttons are {', '.join(PRESSES)}")
        self._now = max(self._now, now)
        if name != "new":
            # The player pressed on what the LEDs showed: the turns read so far stand.
            self.confirm_all()
        game = self.confirmed
        done = False
        if name == "new":
            self.new_game()
            done = True
        elif name == "undo":
            n = take_back(game, self.computer)
            if n:
                self.game = game.copy()
                self._events.append(("takeback", n))
                self._game_changed(resync=True)
                done = True
        elif name == "draw":
            done = self._claim()
        elif name == "resign":
            done = self._resign()
        elif name == "menu" and game.outcome is None:  # after the end, menu is the session's
            if self._claim():
                done = True
            elif self.armed is not None and now < self._armed_until:
                done = self._resign()
            else:
                self.armed = self._resigner()
                self._armed_until = now + RESIGN_CONFIRM_S
                self._changed()
                done = True
        self._advance(now)
        return done

    def prompt_computer(self, turn: Turn | str) -> bool:
        """The computer's chosen turn: prompted until the board shows exactly it."""
        turn = Turn.parse(turn) if isinstance(turn, str) else turn
        game = self.game
        if self.computer is None or game.turn != self.computer or game.outcome is not None:
            return False
        if not game.is_legal(turn) or (game.pending is not None and turn.step != game.pending):
            raise ValueError(f"computer's turn {turn} is not legal here ({game.record or 'start'})")
        self.prompt = turn
        self._dirty = True
        self._changed()
        self._protect()
        self._advance(self._now)
        return True

    def show_hint(self, turn: Turn | str | None) -> None:
        """A suggestion for the human to move, shown until the game changes."""
        turn = Turn.parse(turn) if isinstance(turn, str) else turn
        if turn is not None and (self.game.outcome is not None or self.game.turn == self.computer):
            return
        self.hint = turn
        self._changed()

    def new_game(self, *, profile: str | None = None, computer: str | bool | None = False) -> None:
        """Start a new game; the board must be cleared before the first turn is read.

        ``computer=False`` keeps the current setting; ``None`` makes it a two-player game.
        """
        if computer is not False:
            if computer not in (None, *SIDES):
                raise ValueError(f"computer must be 'white', 'black' or None, got {computer!r}")
            self.computer = computer
        self.confirmed = Game(profile or self.game.profile.name)
        self.game = self.confirmed.copy()
        self.provisional = []
        self._events.append(("new", None))
        self._game_changed(resync=True)
        self._advance(self._now)

    def drain(self) -> list[TrackerEvent]:
        """Events since the last call: ``turn``, ``takeback``, ``new``, ``over``, ``synced``."""
        events, self._events = self._events, []
        return events

    # -- outputs ----------------------------------------------------------------------

    @property
    def state(self) -> TrackerState:
        if self._state is None or self._state.version != self.version:
            game = self.game
            pending = game.pending
            self._state = TrackerState(
                game=game,
                turn=game.turn,
                outcome=game.outcome,
                computer=self.computer,
                board=game.board,
                raw=frozenset(names_of(self.settler.raw)),
                lifted=self.lifted,
                targets=self.targets,
                removable=tuple(game.removable) if pending is not None else (),
                mill=mill_points(game) if pending is not None else (),
                prompt=self.prompt,
                problems=self.problems,
                hint=self.hint,
                last=game.history[-1] if game.history else None,
                armed=self.armed,
                resync=self.resync,
                version=self.version,
                confirmed=self.confirmed,
            )
        return self._state

    @property
    def asked_in(self) -> Game:
        """The game the computer's turn is asked in: the record."""
        return self.confirmed

    def next_deadline(self) -> float | None:
        """When ``tick`` next has something to do: a change to settle, a decision, a timeout."""
        times = []
        settle = self.settler.next_deadline()
        if settle is not None:
            times.append(settle)
        if self.armed is not None:
            times.append(self._armed_until)
        if self._takeback_at < math.inf:
            times.append(self._takeback_at)
        if self._recheck_at < math.inf:
            times.append(self._recheck_at)
        due = self._confirm_due()
        if due is not None and due > self._now:
            times.append(due)
        return min(times) if times else None

    # -- inside -----------------------------------------------------------------------

    def _changed(self) -> None:
        self.version += 1

    def _game_changed(self, *, resync: bool = False, provisional: bool = False) -> None:
        """The live game changed: by a provisional turn, or (else) the confirmed game with it."""
        self.prompt = None
        self.hint = None
        self.armed = None
        if resync:
            self.resync = True
            self.protected = 0
            self._found = ()
            self.problems = ()
        self._dirty = True
        self._over_board = None
        # What the sensors saw is counted from the new position on (and still from the older ones
        # the provisional turns stand on, should they be dropped).
        if provisional:
            self.settler.push(board_mask(self.game))
        else:
            self.provisional = []
            self.game_version += 1
            self.settler.rebase(board_mask(self.game))
        self._protect()
        self._relift()
        self._changed()

    def _advance(self, now: float) -> None:
        self._now = max(self._now, now)
        settled, firmed = self.settler.advance(now)
        if firmed:
            self._dirty = True
        if (firmed or settled) and self.protected:
            self._protect()
        if settled:
            if self._recheck:
                self._dirty = True
            if self._found:
                occ = self.settler.settled
                kept = tuple(p for p in self._found if (occ >> INDEX[p.point] & 1) == (p.kind == "extra"))
                if kept != self._found:
                    self._set_problems(kept)
        if now >= self._takeback_at:
            self._takeback_at = math.inf
            self._dirty = True
        if now >= self._recheck_at:
            self._recheck_at = math.inf
            self._dirty = True
        if self.armed is not None and now >= self._armed_until:
            self.armed = None
            self._changed()
        if self._dirty:
            self._decide()
        if self.provisional:
            self._confirm()

    def _set_problems(self, found: tuple[Problem, ...]) -> None:
        """The reading's problems, shown together with the protected men (in board order)."""
        self._found = found
        problems = found
        protected = self.protected
        if protected:
            problems = tuple(
                sorted(
                    (
                        *(p for p in found if not protected >> INDEX[p.point] & 1),
                        *(Problem(POINTS[i], "protected") for i in bits(protected)),
                    ),
                    key=lambda p: INDEX[p.point],
                )
            )
        if problems != self.problems:
            self.problems = problems
            self._changed()

    def _protect(self) -> None:
        """Follow the men lifted during a pending removal that may not be taken (``hand.protected_men``).

        A man is back when his switch is closed and firm, as the readings see it (a point back
        but not yet firm would read as a man lifted), or a scan showed him back: that change is
        older than the window already, and the hand may lift him for the next turn before the
        hold ends.
        """
        settler = self.settler
        raw = settler.raw
        back = raw & settler.settled & (settler.firm | self._healed)
        if self.resync:
            mask = self.protected & ~back
        else:
            mask = protected_men(self.game, raw, back, self.protected, self.prompt)
        if mask != self.protected:
            self.protected = mask
            self._dirty = True
            self._set_problems(self._found)
            self._changed()

    def _relift(self) -> None:
        """The man in the player's hand, from the raw switches (no waiting for settle)."""
        lifted: str | None = None
        targets: tuple[str, ...] = ()
        if not self.resync:
            settler = self.settler
            lifted, targets = lifted_man(self.game, settler.raw, self.protected, self.computer, settler.changed_at)
        if lifted != self.lifted or targets != self.targets:
            self.lifted, self.targets = lifted, targets
            self._changed()

    def _claim(self) -> bool:
        if self.confirmed.claimable_draw() is None:
            return False
        self.confirmed.claim_draw()
        self.game = self.confirmed.copy()
        self._events.append(("over", self.confirmed.outcome))
        self._game_changed()
        return True

    def _resigner(self) -> Side:
        """Who resigns: the human against the computer, else the side to move."""
        if self.computer is not None:
            return other_side(self.computer)
        return self.confirmed.turn

    def _resign(self) -> bool:
        if self.confirmed.outcome is not None:
            return False
        self.confirmed.resign(self._resigner())
        self.game = self.confirmed.copy()
        self._events.append(("over", self.confirmed.outcome))
        self._game_changed()
        return True


def points_mask(points: Iterable[str]) -> int:
    """The mask of named points; ``ValueError`` names an unknown one."""
    mask = 0
    for p in points:
        try:
            mask |= 1 << INDEX[p]
        except KeyError:
            raise ValueError(f"unknown point {p!r}: points are {', '.join(POINTS)}") from None
    return mask


def mill_points(game: Game) -> tuple[str, ...]:
    """The points of the mill(s) the pending step closed."""
    pending = game.pending
    if pending is None:
        return ()
    board = game.board
    side = game.turn
    points: set[str] = set()
    for line in game.profile.board.mills_through(pending.target):
        if all(board.get(p) == side for p in line):
            points.update(line)
    return tuple(sorted(points, key=INDEX.__getitem__))
