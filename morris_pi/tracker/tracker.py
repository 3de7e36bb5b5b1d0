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

>>> from morris_pi.rules.board import mask_of
>>> t = Tracker()
>>> t.update(set(), 0.0)
>>> t.update({"d6"}, 1.0); t.tick(1.3); t.game.record
'd6'
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from morris_pi.rules import SIDES, Game, Outcome, Turn
from morris_pi.rules.board import INDEX, POINTS, bits, names_of

from .reconcile import Changes, Problem, board_mask, diff_problems, read_board, removal_targets, take_back
from .settle import DEFAULT_HOLD_S, DEFAULT_SETTLE_S, Settler

#: Seconds a first ``menu`` press waits for the second that confirms resignation.
RESIGN_CONFIRM_S = 3.0
#: Seconds the board must show the older position before a takeback by hand is read. Longer
#: than firm: a man carried onto the point the last turn emptied, with the lift of the man
#: really moved lost, shows the same board until a scan of every switch (within a second)
#: completes the picture; a takeback is never urgent.
TAKEBACK_HOLD_S = 1.0
#: Button names the tracker understands (``hint`` is served by the controller).
PRESSES = ("new", "undo", "hint", "menu", "draw", "resign")


def _other(side: str) -> str:
    return "black" if side == "white" else "white"


@dataclass(frozen=True)
class TrackerState:
    """What the tracker knows, for the guidance frame and the controller's snapshot.

    ``game`` is the live game: read it, never change it.
    """

    game: Game
    turn: str
    outcome: Outcome | None
    computer: str | None
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


class Tracker:
    """The state machine between the board's switches and the game record."""

    def __init__(
        self,
        game: Game | None = None,
        *,
        profile: str = "standard",
        computer: str | None = None,
        settle_s: float = DEFAULT_SETTLE_S,
        hold_s: float = DEFAULT_HOLD_S,
    ) -> None:
        if computer not in (None, *SIDES):
            raise ValueError(f"computer must be 'white', 'black' or None, got {computer!r}")
        if not hold_s >= 0:
            raise ValueError(f"hold must be a number of seconds >= 0, got {hold_s!r}")
        self.game = game if game is not None else Game(profile)
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
        self._events: list[tuple[str, object]] = []
        self._recheck = False
        self._takeback_at = math.inf

    # -- inputs -----------------------------------------------------------------------

    def update(self, occupancy: "Iterable[str] | int", now: float) -> None:
        """A raw reading of the switches (point names, or a mask) at time ``now``."""
        mask = occupancy if isinstance(occupancy, int) else _mask(occupancy)
        if not self._started:
            self._started = True
            self.settler = Settler(self.settle_s, self.hold_s, mask)
            self.settler.rebase(board_mask(self.game))
            self._dirty = True
            self._relift()
        elif self.settler.feed(mask, now):
            self._changed()  # the prompt's roles follow the raw switches
            self._protect()
            self._relift()
        self._advance(now)

    def tick(self, now: float) -> None:
        """Time passes: settle and firm up changes, and decide on what firmed up."""
        self._advance(now)

    def press(self, name: str, now: float) -> bool:
        """A button; returns whether it did anything. ``ValueError`` names an unknown button."""
        if name not in PRESSES:
            raise ValueError(f"unknown button {name!r}: buttons are {', '.join(PRESSES)}")
        self._now = max(self._now, now)
        game = self.game
        done = False
        if name == "new":
            self.new_game()
            done = True
        elif name == "undo":
            n = take_back(game, self.computer)
            if n:
                self._events.append(("takeback", n))
                self._game_changed(resync=True)
                done = True
        elif name == "draw":
            done = self._claim()
        elif name == "resign":
            done = self._resign()
        elif name == "menu":
            if game.outcome is None:
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

    def prompt_computer(self, turn: "Turn | str") -> bool:
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

    def show_hint(self, turn: "Turn | str | None") -> None:
        """A suggestion for the human to move, shown until the game changes."""
        turn = Turn.parse(turn) if isinstance(turn, str) else turn
        if turn is not None and (self.game.outcome is not None or self.game.turn == self.computer):
            return
        self.hint = turn
        self._changed()

    def new_game(self, *, profile: str | None = None, computer: "str | None | bool" = False) -> None:
        """Start a new game; the board must be cleared before the first turn is read.

        ``computer=False`` keeps the current setting; ``None`` makes it a two-player game.
        """
        if computer is not False:
            if computer not in (None, *SIDES):
                raise ValueError(f"computer must be 'white', 'black' or None, got {computer!r}")
            self.computer = computer  # type: ignore[assignment]
        self.game = Game(profile or self.game.profile.name)
        self._events.append(("new", None))
        self._game_changed(resync=True)
        self._advance(self._now)

    def drain(self) -> list[tuple[str, object]]:
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
        return min(times) if times else None

    # -- inside -----------------------------------------------------------------------

    def _changed(self) -> None:
        self.version += 1

    def _game_changed(self, *, resync: bool = False) -> None:
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
        self.game_version += 1
        # What the sensors saw is counted from the new position on.
        self.settler.rebase(board_mask(self.game))
        self._protect()
        self._relift()
        self._changed()

    def _advance(self, now: float) -> None:
        if now > self._now:
            self._now = now
        settled, firmed = self.settler.advance(now)
        if firmed:
            self._dirty = True
            if self.protected:
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
        if self.armed is not None and now >= self._armed_until:
            self.armed = None
            self._changed()
        if self._dirty:
            self._decide()

    def _decide(self) -> None:
        self._dirty = False
        for _ in range(3):
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
                self.new_game()
                return False
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
        unsteady = settler.settled ^ occ
        # A point changing back right now holds up any reading that changes it: decide again
        # when it has settled either way.
        self._recheck = bool(unsteady)
        reading = read_board(
            game, occ, order=settler.changed_at, prompt=self.prompt, computer=self.computer,
            changes=Changes(settler.once, settler.twice, unsteady), protected=self.protected,
        )
        kind = reading.kind
        if kind in ("match", "progress"):
            self._set_problems(())
            return False
        if kind == "turns":
            for turn in reading.turns:
                try:
                    played = game.play(turn)
                except ValueError:
                    self._set_problems(diff_problems(board_mask(game), occ))
                    return False
                self._events.append(("turn", played))
                self._found = ()
                self._game_changed()
                if game.outcome is not None:
                    self._events.append(("over", game.outcome))
                    break
            return True
        if kind == "takeback":
            since = max(settler.changed_at(i) for i in bits(expected ^ occ))
            if self._now < since + TAKEBACK_HOLD_S:
                self._takeback_at = since + TAKEBACK_HOLD_S
                self._set_problems(())
                return False
            for _ in range(reading.back):
                game.undo()
            self._events.append(("takeback", reading.back))
            self._found = ()
            self.protected = 0
            self._game_changed()
            return False
        self._set_problems(reading.problems)
        return False

    def _set_problems(self, found: tuple[Problem, ...]) -> None:
        """The reading's problems, shown together with the protected men (in board order)."""
        self._found = found
        problems = found
        protected = self.protected
        if protected:
            problems = tuple(sorted(
                (*(p for p in found if not protected >> INDEX[p.point] & 1),
                 *(Problem(POINTS[i], "protected") for i in bits(protected))),
                key=lambda p: INDEX[p.point],
            ))
        if problems != self.problems:
            self.problems = problems
            self._changed()

    def _protect(self) -> None:
        """Follow the men lifted during a pending removal that may not be taken.

        A removal is pending when the game waits for it, or when the hand has
        carried out the step of the computer's prompted turn with a removal.
        Such a man stays protected, whatever the game does meanwhile, until
        it is back on its point: its switch closed and firm, as the readings
        see it (a point back but not yet firm would read as a man lifted).
        """
        settler = self.settler
        raw = settler.raw
        mask = self.protected & ~(raw & settler.settled & settler.firm)
        game = self.game
        if not self.resync and game.outcome is None:
            off = board_mask(game) & ~raw
            if off:
                prompt = self.prompt
                # Once a man that may be taken is off, the removal is done: a man lifted after
                # that is the next side's turn beginning.
                if game.pending is not None:
                    removable = game.position.removable(game.position.side)
                    if not off & removable:
                        mask |= off
                elif prompt is not None and prompt.removal:
                    o, t, r = prompt.to_raw()
                    if raw >> t & 1 and (o < 0 or not raw >> o & 1) and raw >> r & 1:
                        mask |= off & ~(1 << o if o >= 0 else 0)
        if mask != self.protected:
            self.protected = mask
            self._dirty = True
            self._set_problems(self._found)
            self._changed()

    def _relift(self) -> None:
        """The man in the player's hand, from the raw switches (no waiting for settle)."""
        lifted, targets = None, ()
        game = self.game
        if not self.resync and game.outcome is None and game.pending is None and game.turn != self.computer:
            gone = board_mask(game) & ~self.settler.raw & ~self.protected
            if gone:
                since = self.settler.changed_at
                own = game.position.men[SIDES.index(game.turn)]
                for i in sorted(bits(gone), key=since, reverse=True):
                    point = POINTS[i]
                    if own >> i & 1:
                        found = game.legal_targets(point)
                        if found:
                            lifted, targets = point, tuple(found)
                            break
                    else:
                        found = removal_targets(game, point)
                        if found:
                            targets = tuple(found)
                            break
        if lifted != self.lifted or targets != self.targets:
            self.lifted, self.targets = lifted, targets
            self._changed()

    def _claim(self) -> bool:
        if self.game.claimable_draw() is None:
            return False
        self.game.claim_draw()
        self._events.append(("over", self.game.outcome))
        self._game_changed()
        return True

    def _resigner(self) -> str:
        """Who resigns: the human against the computer, else the side to move."""
        if self.computer is not None:
            return _other(self.computer)
        return self.game.turn

    def _resign(self) -> bool:
        if self.game.outcome is not None:
            return False
        self.game.resign(self._resigner())
        self._events.append(("over", self.game.outcome))
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
    board = game.board
    side = game.turn
    points: set[str] = set()
    for line in game.profile.board.mills_through(pending.target):
        if all(board.get(p) == side for p in line):
            points.update(line)
    return tuple(sorted(points, key=INDEX.__getitem__))
