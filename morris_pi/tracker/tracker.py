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

import itertools
import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from morris_pi.rules import SIDES, Game, Outcome, Side, Turn, other_side
from morris_pi.rules.board import FULL, INDEX, POINTS, bits, names_of

from .hand import lifted_man, protected_men, unsettled_for
from .provisional import ProvisionalTurn, carried_or_knocked, chain_of, watched
from .reconcile import (
    Changes,
    Problem,
    Reading,
    board_mask,
    diff_problems,
    read_board,
    take_back,
)
from .settle import DEFAULT_HOLD_S, DEFAULT_SETTLE_S, REST_GAP_S, Settler

#: Seconds a first ``menu`` press waits for the second that confirms resignation.
RESIGN_CONFIRM_S = 3.0
#: Seconds the board must show the older position, counted from when it became firm, before a
#: takeback by hand is read. A man carried onto the point the last turn emptied, with the lift of
#: the man really moved lost, shows the same board until a scan of every switch (within a second)
#: completes the picture; a takeback is never urgent.
TAKEBACK_HOLD_S = 1.0
#: Seconds a turn read stays provisional while no point it changes changes (without a newer scan
#: of every switch that agrees). A lost switch change is healed by a scan well within it, and the
#: turn after can begin meanwhile; the LEDs follow the provisional reading at once.
DEFAULT_CONFIRM_S = 1.0
#: Seconds a placement stays provisional after a man was lifted off another empty point that
#: held him when this placement's man came to rest (two men put down at once, the first knocked
#: or nudged off): a knocked man lies a while before its owner puts it back, and whose man is
#: whose rests on which came first. A point only touched just before waits ``REST_GAP_S``.
KNOCKED_HOLD_S = 3.0
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


class Tracker:
    """The state machine between the board's switches and the game record."""

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
        mask = occupancy if isinstance(occupancy, int) else _mask(occupancy)
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
                mill=_mill_of(game) if pending is not None else (),
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

    def _confirm_due(self) -> float | None:
        """When the oldest provisional turn is confirmed by time, if nothing changes it."""
        if not self.provisional:
            return None
        first = self.provisional[0]
        return max(self._held_until(first.watch, first.held), first.last + self.confirm_s)

    def _last_change(self, points: int) -> float:
        since = self.settler.changed_at
        return max((since(i) for i in bits(points)), default=self._now)

    def _held_until(self, watch: int, held: int) -> float:
        """Until when another man's claim to have come first keeps a placement provisional."""
        until = self._last_change(watch) + REST_GAP_S if watch else -math.inf
        if held:
            until = max(until, self._last_change(held) + KNOCKED_HOLD_S)
        return until

    def _confirm(self) -> None:
        """Confirm the provisional turns whose evidence has held, oldest first.

        Not while the board shows a problem on a point the turn stands on: the provisional
        reading may yet be dropped.
        """
        settler = self.settler
        found = 0
        for problem in self._found:
            found |= 1 << INDEX[problem.point]
        # A change only a scan showed, not yet firm, may yet contradict them: decide on it first.
        if self._healed & (settler.raw ^ settler.firm):
            return
        while self.provisional and not self.resync:
            first = self.provisional[0]
            points, last = first.points, first.last
            if found & (points | first.watch):
                break
            if self._now < self._held_until(first.watch, first.held):
                break
            # The timer runs from the evidence the turn was read from: a later change of its
            # points is the next turn's (a removal of the man just placed), or contradicts it
            # and drops it before this.
            scan = self._scan_at
            # The scan must show the turn's points as the turn left them, and every change up to
            # the scan must be firm (read by now).
            scanned = (
                scan >= last
                and not (self._scan_mask ^ first.after) & points
                and not any(settler.changed_at(i) <= scan for i in bits(settler.raw ^ settler.firm))
            )
            if not (scanned or self._now >= last + self.confirm_s):
                break
            self._confirm_one()

    def confirm_all(self) -> None:
        """Confirm every provisional turn now (a button pressed on what the LEDs showed)."""
        while self.provisional:
            self._confirm_one()

    def _confirm_one(self) -> None:
        played = self.confirmed.play(self.provisional.pop(0).turn)
        self.settler.confirm()
        self._base_prompt = None
        self._events.append(("turn", played))
        if self.confirmed.outcome is not None:
            self._events.append(("over", self.confirmed.outcome))
        self.game_version += 1
        self._changed()

    def _rollback(self, depth: int = 0) -> None:
        """Drop the provisional turns (those after the first ``depth``): the board is read again
        from the confirmed position (or the one they stand on)."""
        self.game = self._game_at(depth)
        self.provisional = self.provisional[:depth]
        self.settler.rollback_to(depth)
        if depth:
            self.prompt = None
        else:
            self.prompt = self._base_prompt
            self._base_prompt = None
        self.hint = None
        self.protected = 0
        self._found = ()
        self._over_board = None
        self._takeback_at = math.inf
        self._dirty = True
        self._protect()
        self._relift()
        self._changed()

    def _game_at(self, depth: int) -> Game:
        """The confirmed game with the first ``depth`` provisional turns played."""
        game = self.confirmed.copy()
        for entry in self.provisional[:depth]:
            game.play(entry.turn)
        return game

    def _depth_that_reads(self, occ: int, unsteady: int, chain: tuple[Turn, ...]) -> int:
        """The most provisional turns to keep (fewer than all) such that the position after them,
        with every change since it, reads the board otherwise than the turns dropped; 0: none.

        Two-player games only: against the computer a dropped turn would need its prompt again.
        """
        if self.computer is not None:
            return 0
        for depth in range(len(chain) - 1, 0, -1):
            reading = self._read_at(depth, occ, unsteady)
            if reading.kind == "progress" or (
                reading.kind == "turns" and reading.turns[: len(chain) - depth] != chain[depth:]
            ):
                return depth
        return 0

    def _explained_by_confirmed(self, occ: int, unsteady: int) -> bool:
        """Whether the board, which the provisional turns cannot explain, reads from the confirmed position."""
        return self._read_confirmed(occ, unsteady).kind in ("match", "progress", "turns")

    def _overtaken(self, points: int, occ: int, unsteady: int) -> int | None:
        """The first provisional placement that a man now on one of ``points``, a point it
        watched, came before (two men put down at once, read in the wrong order), if the board
        reads as turns from before it."""
        arrived = self.settler.arrived_first
        for n, entry in enumerate(self.provisional):
            if any(arrived(i, INDEX[entry.turn.target]) for i in bits(points & entry.watch)):
                return n if self._read_at(n, occ, unsteady, self.protected).kind == "turns" else None
        return None

    def _read_at(self, depth: int, occ: int, unsteady: int, protected: int = 0) -> Reading:
        """The board read from the position after the first ``depth`` provisional turns, with
        every change seen since it."""
        settler = self.settler
        once, twice = settler.counts_at(depth)
        return read_board(
            self._game_at(depth),
            occ,
            order=settler.first_since(depth),
            arrived=settler.arrived_first,
            last=settler.settled_at,
            lifted=settler.lifted_at,
            changes=Changes(once, twice, unsteady, self._flicker),
            protected=protected,
            unsure=self._healed,
            third=self.computer is None,
            touched=settler.touched_after,
            opened=settler.open_at,
            rested=settler.landed_at,
            held=settler.closed_since,
            gap=settler.longest_open,
        )

    def _arrived_in_order(self, chain: tuple[Turn, ...]) -> bool:
        """Whether the chain's men arrived on their targets in the chain's order."""
        arrived = self.settler.arrived_first
        return all(
            a.target == b.target or arrived(INDEX[a.target], INDEX[b.target]) for a, b in itertools.pairwise(chain)
        )

    def _read_confirmed(self, occ: int, unsteady: int) -> Reading:
        """The board read from the confirmed position, with every change seen since."""
        settler = self.settler
        once, twice = settler.base_counts()
        return read_board(
            self.confirmed,
            occ,
            order=settler.base_first_at,
            arrived=settler.arrived_first,
            last=settler.settled_at,
            lifted=settler.lifted_at,
            prompt=self._base_prompt,
            computer=self.computer,
            changes=Changes(once, twice, unsteady, self._flicker),
            unsure=self._healed,
            third=self.computer is None,
            touched=settler.touched_after,
            opened=settler.open_at,
            rested=settler.landed_at,
            held=settler.closed_since,
            gap=settler.longest_open,
        )

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

    def _decide(self) -> None:
        self._dirty = False
        for _ in range(6):
            if not self._decide_once():
                break

    def _decide_once(self) -> bool:
        """One decision on the firm board; returns whether the game moved on (decide again)."""
        game = self.game
        occ = self.settler.firm
        if game.outcome is not None:
            # Clearing the board starts a new game: the board must have held men when the game ended.
            if self._over_board is None:
                self._over_board = occ
            if occ == 0 and self._over_board:
                self.confirm_all()
                self.new_game()
                return False
            # A man where the game has none: not the board being cleared. If the turn that ended
            # the game is provisional, a scan may have shown it was not played.
            if (
                self.provisional
                and occ & ~board_mask(game)
                and self._explained_by_confirmed(occ, self.settler.settled ^ occ)
            ):
                self._rollback()
                return True
            self.protected = 0
            self._set_problems(())
            return False
        expected = board_mask(game)
        if self.resync:
            if occ == expected:
                self.resync = False
                self._events.append(("synced", None))
                self.settler.rebase(expected)
                self._set_problems(())
                self._relift()
                self._changed()
            else:
                self._set_problems(diff_problems(expected, occ))
            return False
        settler = self.settler
        # A point changing back right now holds up any reading that changes it: decide again
        # when it has settled either way. A change too new to have settled holds up a reading
        # that needs the point filled and emptied (or emptied and refilled): a man nudged off
        # and already back must not be read as put there and taken (soak seed 1868). A point
        # changed once may change again at once, though: the next man put where a removal was
        # made (seed 58). If the switch only flickered, nothing settles, so wake up when it
        # would have.
        unsteady = settler.settled ^ occ
        flicker = self._flicker = (settler.raw ^ occ) & ~unsteady
        self._recheck = bool(unsteady | flicker)
        if flicker:
            wake = min(settler.changed_at(i) for i in bits(flicker)) + self.settle_s
            self._recheck_at = min(self._recheck_at, wake)
        # The computer's turn comes after a provisional turn: its search waits for the
        # confirmation, but a hand may already be carrying out the turn it will prompt. Any legal
        # turn of its side is then a turn in progress, not a contradiction.
        awaiting = self.provisional and self.prompt is None and game.turn == self.computer
        reading = read_board(
            game,
            occ,
            order=settler.first_at,
            arrived=settler.arrived_first,
            last=settler.settled_at,
            lifted=settler.lifted_at,
            prompt=self.prompt,
            computer=None if awaiting else self.computer,
            changes=Changes(settler.once, settler.twice, unsteady, self._flicker),
            protected=self.protected,
            unsure=self._healed,
            third=self.computer is None,
            touched=settler.touched_after,
            opened=settler.open_at,
            rested=settler.landed_at,
            held=settler.closed_since,
            gap=settler.longest_open,
        )
        kind = reading.kind
        if awaiting and kind == "turns":
            kind = "progress"
        if kind == "turns" and (
            moving := settler.restless(unsettled_for(game, reading.turns, settler.raw, occ), self._now)
        ):
            # A switch that keeps changing (a man put down off-centre flickers): the board is not
            # yet what the hands leave. Read it when that point is firm.
            wake = max(settler.changed_at(i) for i in bits(moving)) + self.settle_s + self.hold_s + 1e-6
            self._recheck_at = min(self._recheck_at, wake)
            kind = "progress"
        if kind == "turns" and flicker and self.computer is not None and self._hands_over(reading.turns, flicker):
            # The computer is asked only once this reading is confirmed, so a point it changes that
            # is already changing again is no answer to it: the hands are not done (soak seed 2 game
            # 424: d2 lifted with its return lost, nudged off as f2 landed and back 0.15 s later,
            # read as d2-f2). Read it when that point has settled (a flicker wakes the tracker then).
            kind = "progress"
        # A scan showed a point differently from what the provisional turns left there: an
        # event was lost, and the reading may have been made without it.
        contradicted = (expected ^ occ) & self._healed
        if self.provisional and (contradicted or kind in ("problems", "takeback")):
            depth = self._dropped_by(occ, unsteady, expected, contradicted)
            if depth is not None:
                self._rollback(depth)
                return True
            if kind == "takeback":
                self._set_problems(diff_problems(expected, occ))
                return False
        if kind in ("match", "progress"):
            self._set_problems(())
            return False
        if kind == "turns" and self.provisional:
            depth = self._reread_from(reading.turns, occ, unsteady)
            if depth is not None:
                self._rollback(depth)
                return True
        if kind == "turns":
            for turn in reading.turns:
                before = board_mask(game)
                if not self.provisional:
                    self._base_prompt = self.prompt
                try:
                    game.play(turn)
                except ValueError:
                    self._set_problems(diff_problems(board_mask(game), occ))
                    return False
                after = board_mask(game)
                watch = held = 0
                if turn.is_placement and self.computer is None:
                    # Whose man this is rests on which came first: an empty point that held a
                    # man when this one came to rest (knocked off since) may get it back, and one
                    # touched just before (a man hovering) may yet fill. (Against the computer
                    # only one hand places at a time: no such doubt.)
                    rested = settler.landed_at(INDEX[turn.target])
                    # Raw, not settled: a man knocked off within the settle window still held
                    # its point when the other landed.
                    for i in bits(FULL & ~occ & ~after & ~before):
                        if settler.closed_since(i, rested) is not None:
                            watch |= 1 << i
                            held |= 1 << i
                        elif settler.changed_at(i) >= rested - REST_GAP_S:
                            watch |= 1 << i
                points = before ^ after
                self.provisional.append(ProvisionalTurn(turn, points, after, watch, self._last_change(points), held))
                self._found = ()
                self._game_changed(provisional=True)
                if game.outcome is not None:
                    break
            return True
        if kind == "takeback":
            # Counted from when the last change became firm: the board has shown the older
            # position for the whole hold, and a scan in that time may still heal a lost change.
            since = max(settler.changed_at(i) for i in bits(expected ^ occ)) + self.settle_s + self.hold_s
            if self._now < since + TAKEBACK_HOLD_S:
                self._takeback_at = since + TAKEBACK_HOLD_S
                self._set_problems(())
                return False
            for _ in range(reading.back):
                self.confirmed.undo()
            self.game = self.confirmed.copy()
            self._events.append(("takeback", reading.back))
            self._found = ()
            self.protected = 0
            self._game_changed()
            return False
        self._set_problems(reading.problems)
        return False

    def _hands_over(self, turns: tuple[Turn, ...], flicker: int) -> bool:
        """Whether ``turns`` change a point in ``flicker`` and leave the computer to move."""
        points = 0
        for turn in turns:
            for i in turn.to_raw():
                if i >= 0:
                    points |= 1 << i
        if not points & flicker:
            return False
        after = self.game.copy()
        try:
            for turn in turns:
                after.play(turn)
        except ValueError:
            return False
        return after.pending is None and after.outcome is None and after.turn == self.computer

    def _dropped_by(self, occ: int, unsteady: int, expected: int, contradicted: int) -> int | None:
        """How many provisional turns to keep when the board no longer reads from them, or
        ``None`` to keep them all (the board shows a problem to put right).

        They are dropped if the confirmed position, with every change seen since, reads
        differently, and the evidence against them is a change only a scan showed (in
        ``contradicted``), or the board is simply back where it was confirmed. A man knocked or
        lifted by a hand after the turn was read is a problem to put right, not a reason to
        drop it.
        """
        whole = self._read_confirmed(occ, unsteady)
        chain = chain_of(self.provisional)
        # A man landed on a point touched before a provisional placement: the placements are
        # read again together, in order of first touch, also when the first reading left no
        # legal turn for it (it closed a mill, so the board now shows a problem).
        landed = occ & (expected ^ occ) & watched(self.provisional)
        other = whole.kind == "turns" and whole.turns[: len(chain)] != chain
        if (
            whole.kind == "match"
            or (contradicted and (whole.kind == "progress" or other))
            or (landed and other and self._arrived_in_order(whole.turns))
        ):
            return 0
        if landed and (n := self._overtaken(landed, occ, unsteady)) is not None:
            return n
        if contradicted and whole.kind == "problems":
            # Too many turns to read again from the confirmed position: drop only the newest
            # provisional turns, if the position before them reads the board otherwise.
            depth = self._depth_that_reads(occ, unsteady, chain)
            if depth:
                return depth
        return None

    def _reread_from(self, turns: tuple[Turn, ...], occ: int, unsteady: int) -> int | None:
        """How many provisional turns to keep when the board reads as ``turns`` after them but
        otherwise from an older position, or ``None`` to add ``turns`` to them."""
        # A man landed on a point a provisional placement watched, and came first: read again
        # from before that placement.
        targets = 0
        for turn in turns:
            targets |= 1 << INDEX[turn.target]
        if (n := self._overtaken(targets, occ, unsteady)) is not None:
            return n
        # The chain from the confirmed position, read with all its evidence at once, wins over
        # reading it a turn at a time (e.g. two men put down at once, the first one's switch
        # firm only after the second's).
        whole = self._read_confirmed(occ, unsteady)
        chain = (*chain_of(self.provisional), *turns)
        if whole.kind == "turns" and (
            (
                len(whole.turns) == len(chain)
                and whole.turns != chain
                and not self._arrived_in_order(chain)
                and self._arrived_in_order(whole.turns)
            )
            # A move answered by a placement on the point it left, where the whole reading has
            # all the evidence and found a man knocked off while a placement was made (read a
            # turn at a time, the move stood before the man came back).
            or carried_or_knocked(chain, whole.turns)
        ):
            return 0
        return None

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


def _mask(points: Iterable[str]) -> int:
    mask = 0
    for p in points:
        try:
            mask |= 1 << INDEX[p]
        except KeyError:
            raise ValueError(f"unknown point {p!r}: points are {', '.join(POINTS)}") from None
    return mask


def _mill_of(game: Game) -> tuple[str, ...]:
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
