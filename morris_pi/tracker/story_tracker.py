"""The board tracker read by the story decoder: the ``Tracker`` API over ``StoryDecoder``.

The controller, the simulator, the web page and ``replay`` drive it as they drive ``Tracker``
(``update``, ``tick``, ``press``, ``prompt_computer``, ``state``, ``drain``), and it answers the
same way. What differs is how the board is read: every reading goes to the decoder, which ranks
the stories of the switches and commits what every good one agrees on (docs/tracker-decoder.md).

- The **record** (``confirmed``) is the decoder's: its committed turns. A takeback by hand is a
  reading the decoder believed, and shows as ``("takeback", n)`` followed by any turns since.
- The **live game** (``game``, what the LEDs show) is the cheapest story of the last ranking: the
  record, the turns read since (``provisional``), and a mill's step whose removal is due.
- **Corrections** show where no story explains the board: each point that differs from the
  record. While a new game, a resumed one or a takeback by button waits for the board to be put
  right (``resync``), they show what to put right.
- What the hand holds is read from the raw switches at once, as ``Tracker`` does: the man
  lifted and his legal targets (``hand.lifted_man``), and a man lifted during a removal that
  may not be taken (``hand.protected_men``), which keeps its own signal until he is back.

>>> t = StoryTracker()
>>> t.update(set(), 0.0)
>>> t.update({"d6"}, 1.0); t.tick(1.7); t.game.record, t.confirmed.record   # shown, not yet committed
('d6', '')
>>> t.tick(2.4); t.confirmed.record, t.drain()
('d6', [('synced', None), ('turn', Turn('d6'))])
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from morris_pi.rules import SIDES, Game, Side, Turn, other_side
from morris_pi.rules.board import INDEX, POINTS, bits, names_of

from .decoder import StoryDecoder
from .hand import lifted_man, protected_men
from .model import DEFAULT_MODEL, Model
from .readings import diff_problems
from .reconcile import Problem, board_mask, take_back
from .settle import DEFAULT_HOLD_S, DEFAULT_SETTLE_S
from .tracker import DEFAULT_CONFIRM_S, PRESSES, RESIGN_CONFIRM_S, TrackerEvent, TrackerState, mill_points, points_mask

#: Seconds a board the decoder gave up on must show the record's position, untouched, before the
#: reading starts again from there: the players have put it back as the corrections showed, not
#: passed through that position on the way to another. Play passes through it often (men moved
#: to and fro, a placement's capture answered by one on the same point), and a player thinking
#: leaves it untouched for seconds, so this is long.
RESTART_QUIET_S = 10.0


class StoryTracker:
    """The board's switches in, the record and the LED guidance out, read by ``StoryDecoder``.

    ``settle_s`` and ``hold_s`` are taken for the ``Tracker``'s signature; the decoder's own
    model holds how long hands and switches take. ``model`` is the decoder's.
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
        model: Model = DEFAULT_MODEL,
    ) -> None:
        if computer not in (None, *SIDES):
            raise ValueError(f"computer must be 'white', 'black' or None, got {computer!r}")
        if not hold_s >= 0:
            raise ValueError(f"hold must be a number of seconds >= 0, got {hold_s!r}")
        if not confirm_s >= 0:
            raise ValueError(f"confirm time must be a number of seconds >= 0, got {confirm_s!r}")
        #: The game as recorded: the decoder's committed turns. The object passed in is kept.
        self.confirmed = game if game is not None else Game(profile)
        #: The game as the LEDs show it: the record and the turns the cheapest story reads since.
        self.game = self.confirmed.copy()
        #: The turns read but not yet committed, oldest first.
        self.provisional: list[Turn] = []
        self.computer = computer
        self.settle_s = float(settle_s)
        self.hold_s = float(hold_s)
        self.confirm_s = float(confirm_s)
        self.model = model
        self.decoder = StoryDecoder(self.confirmed.copy(), model=model, confirm_s=confirm_s, computer=computer)
        self.prompt: Turn | None = None
        self.hint: Turn | None = None
        self.problems: tuple[Problem, ...] = ()
        #: Men lifted during a pending removal that may not be taken (a mask), until they are back.
        self.protected = 0
        self.lifted: str | None = None
        self.targets: tuple[str, ...] = ()
        self.armed: str | None = None
        self.resync = True
        #: Bumped whenever anything shown or known changes.
        self.version = 0
        #: Bumped whenever the record changes (turn, takeback, result, new game).
        self.game_version = 0
        self._armed_until = -math.inf
        self._started = False
        self._now = -math.inf
        self._raw = 0
        self._changed_at = [-math.inf] * len(POINTS)
        #: Whether the source reports changes one by one (a trace's events, an expander's
        #: interrupts) rather than reading every switch each time.
        self._reports = False
        #: The board when the game ended (``None``: not over, or not yet seen since).
        self._over_board: int | None = None
        self._events: list[TrackerEvent] = []
        self._state: TrackerState | None = None
        self._shown_key: tuple[object, ...] | None = None
        #: The decoder's ``version`` whose record the record has taken over.
        self._followed = -1
        #: The ``game_version`` of the record ``game`` was shown on.
        self._game_shown_for = -1

    # -- inputs -----------------------------------------------------------------------

    def update(self, occupancy: Iterable[str] | int, now: float, *, full: bool = False) -> None:
        """A raw reading of the switches (point names, or a mask) at time ``now``.

        ``full``: the reading is a scan of every switch. From a source that reports changes one
        by one, a change only a scan shows happened unseen, since the point was last known; from
        one that reads every switch each time, each change is seen as it happens.
        """
        mask = occupancy if isinstance(occupancy, int) else points_mask(occupancy)
        self._now = max(self._now, now)
        if not full:
            self._reports = True
        if not self._started:
            self._started = True
            self._raw = mask
            self.decoder.feed(mask, now, full=True)
            self.decoder.set_up(self.confirmed.copy(), now)
        else:
            for i in bits(mask ^ self._raw):
                self._changed_at[i] = now
            self._raw = mask
            self.decoder.feed(mask, now, full=full, seen=None if self._reports else True)
        self._advance(now)

    def tick(self, now: float, *, full: bool = False) -> None:
        """Time passes: the decoder ranks the board when it is due and commits what is agreed.

        ``full``: the switches were all read now and showed nothing new (see ``update``).
        """
        if full and self._started:
            self.decoder.feed(self._raw, now, full=True)
        self._advance(now)

    def press(self, name: str, now: float) -> bool:
        """A button; returns whether it did anything. ``ValueError`` names an unknown button."""
        if name not in PRESSES:
            raise ValueError(f"unknown button {name!r}: buttons are {', '.join(PRESSES)}")
        self._now = max(self._now, now)
        if name != "new":
            self.confirm_all()
        game = self.confirmed
        done = False
        if name == "new":
            self.new_game()
            done = True
        elif name == "undo":
            n = take_back(game, self.computer)
            if n:
                self._events.append(("takeback", n))
                self._restart(now)
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

    def confirm_all(self) -> None:
        """The turns the LEDs show stand: a player pressed a button on what they showed."""
        if self._started and self.decoder.commit_shown(self._now):
            self._follow()

    def prompt_computer(self, turn: Turn | str) -> bool:
        """The computer's chosen turn in ``asked_in``: prompted until a hand has carried it out."""
        turn = Turn.parse(turn) if isinstance(turn, str) else turn
        game = self.asked_in
        if self.computer is None or game.turn != self.computer or game.outcome is not None:
            return False
        if not game.is_legal(turn):
            raise ValueError(f"computer's turn {turn} is not legal here ({game.record or 'start'})")
        if not self.decoder.prompt(turn, game):
            return False
        self.prompt = turn
        self._changed()
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
        self.confirmed = Game(profile or self.confirmed.profile.name)
        self.decoder.computer = self.computer
        self._events.append(("new", None))
        self._restart(self._now)

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
                raw=frozenset(names_of(self._raw)),
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
        """The game the computer's turn is asked in: the record, or while a doubt is carried as
        several readings, the cheapest of them (the one the LEDs show)."""
        asking = self.decoder.asking
        return asking[0] if asking else self.confirmed

    def next_deadline(self) -> float | None:
        """When ``tick`` next has something to do: a ranking, a commit, a timeout."""
        # after the end the decoder reads nothing: only a cleared board (a reading) starts again
        reading = self._started and self.confirmed.outcome is None
        times = [self.decoder.next_deadline(), self._restart_due()] if reading else []
        if self.armed is not None:
            times.append(self._armed_until)
        due = min(times, default=math.inf)
        return None if due == math.inf else due

    # -- inside -----------------------------------------------------------------------

    def _changed(self) -> None:
        self.version += 1

    def _restart(self, now: float) -> None:
        """The record was changed by hand (a button, a new game): the decoder reads from it."""
        self.decoder.set_up(self.confirmed.copy(), now)
        self._over_board = None
        self.protected = 0
        self.resync = True
        self._record_changed()
        self._show()

    def _record_changed(self) -> None:
        self.prompt = None
        self.hint = None
        self.armed = None
        self.game_version += 1
        self._changed()

    def _advance(self, now: float) -> None:
        self._now = max(self._now, now)
        if self.armed is not None and now >= self._armed_until:
            self.armed = None
            self._changed()
        if not self._started:
            return
        if self.confirmed.outcome is not None:
            self._cleared()
            return
        self.decoder.tick(now)
        if self._restart_due() <= now:
            # No story could be told, and the players have put the board back as the record
            # has it: the reading starts again from there.
            self.decoder.set_up(self.confirmed.copy(), now)
        self._follow()

    def _restart_due(self) -> float:
        """When a board the decoder gave up on has shown the record's position long enough."""
        if not self.decoder.stalled or self._raw != board_mask(self.confirmed):
            return math.inf
        return max(self._changed_at) + RESTART_QUIET_S

    def _cleared(self) -> None:
        """After the end: clearing a board that held men starts a new game."""
        if self._over_board is None:
            self._over_board = self._raw
        if self._raw == 0 and self._over_board:
            self.new_game()
        else:
            self._show()

    def _follow(self) -> None:
        """Take over what the decoder committed, then show what it reads."""
        # compared turn by turn only when the decoder's record may have changed: the board loop
        # steps at every scan, and a long game's history is long
        if self._followed != self.decoder.version:
            self._followed = self.decoder.version
            self._take_over(self.decoder.game)
        # the prompt of the reading the LEDs show: while a doubt is carried, the computer is
        # asked again when another reading becomes the cheapest
        prompt = self.decoder.prompted
        if prompt != self.prompt:
            self.prompt = prompt
            self._changed()
        resync = self.decoder.setting is not None
        if self.resync and not resync:
            self._events.append(("synced", None))
        if resync != self.resync:
            self.resync = resync
            self._changed()
        self._show()

    def _take_over(self, record: Game) -> None:
        """Make the record the decoder's: the turns it withdrew undone, the new ones played."""
        old, new = self.confirmed.history, record.history
        common = 0
        while common < min(len(old), len(new)) and old[common] == new[common]:
            common += 1
        if common == len(old) == len(new):
            return
        back = len(old) - common
        for _ in range(back):
            self.confirmed.undo()
        if back:
            self._events.append(("takeback", back))
            self.protected = 0
        for turn in new[common:]:
            self._events.append(("turn", self.confirmed.play(turn)))
            if self.confirmed.outcome is not None:
                self._events.append(("over", self.confirmed.outcome))
                break
        self._record_changed()

    def _show(self) -> None:
        """The live game, the corrections and what the hand holds, from the decoder's reading."""
        decoder = self.decoder
        # Worked out again only when something it rests on changed: the board loop steps at
        # every scan, and most scans change nothing.
        key = (
            self._raw,
            decoder.ranked_at,
            decoder.stalled,
            self.game_version,
            len(self.confirmed.history),
            self.resync,
            self.prompt,
            self.confirmed.outcome,
        )
        if key == self._shown_key:
            return
        self._shown_key = key
        shown = None if self.resync or self.confirmed.outcome is not None or decoder.stalled else decoder.shown
        game = shown if shown is not None else self.confirmed.copy()
        provisional = list(game.history[len(self.confirmed.history) :])
        if self.computer is not None and self.prompt is None and self.asked_in.turn == self.computer:
            # A hand ahead of the LEDs: the computer's turn is read before it is asked for, but
            # only its own choice is ever committed, so nothing holds up asking it.
            provisional = []
        # the turns are compared as objects (most are the very same ones): a record's text is
        # written anew each time
        if (
            self._game_shown_for != self.game_version
            or game.history != self.game.history
            or game.pending != self.game.pending
            or game.outcome != self.game.outcome
        ):
            self.game = game
            self._game_shown_for = self.game_version
            self._changed()
        self.provisional = provisional
        raw = self._raw
        if self.confirmed.outcome is not None:
            found: tuple[Problem, ...] = ()
            protected = 0
        elif self.resync or (shown is None and (decoder.stalled or self._quiet())):
            found = diff_problems(board_mask(self.confirmed), raw)
            protected = self.protected & ~raw
        else:
            # a man set down astray is the next turn made wrongly: shown to be put back
            astray = decoder.astray if shown is not None else None
            found = ()
            if astray is not None:
                origin, target = astray
                found = (Problem(target, "extra"),) + (() if origin is None else (Problem(origin, "missing"),))
            removing = game.pending is not None or (self.prompt is not None and self.prompt.removal is not None)
            protected = protected_men(game, raw, raw, self.protected if removing else 0, self.prompt)
        self.protected = protected
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
        lifted: str | None = None
        targets: tuple[str, ...] = ()
        if not self.resync:
            lifted, targets = lifted_man(game, raw, protected, self.computer, self._changed_at.__getitem__)
        if lifted != self.lifted or targets != self.targets:
            self.lifted, self.targets = lifted, targets
            self._changed()

    def _quiet(self) -> bool:
        """Whether no switch has changed since the decoder last ranked the board: a board no
        story explained is shown as corrections only once nothing newer may explain it."""
        last = max(self._changed_at)
        return self.decoder.ranked_at >= last

    def _claim(self) -> bool:
        if self.confirmed.claimable_draw() is None:
            return False
        self.confirmed.claim_draw()
        self._events.append(("over", self.confirmed.outcome))
        self._record_changed()
        self._show()
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
        self._events.append(("over", self.confirmed.outcome))
        self._record_changed()
        self._show()
        return True
