"""The tracker's decisions on the firm board: what a reading of the whole board becomes.

``Decisions._decide_once`` reads the firm occupancy against the live game (``read_board``) and
acts on what it found: turns added as provisional, a takeback by hand (after
``TAKEBACK_HOLD_S``), problems shown, provisional turns dropped and the board read again, or a
wait for a point still changing. It is a mixin of ``Tracker``, like ``ProvisionalTurns``, whose
bookkeeping it uses: the state it works on is the tracker's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from morris_pi.rules import Turn
from morris_pi.rules.board import FULL, INDEX, bits

from .hand import unsettled_for
from .provisional import ProvisionalTurn, ProvisionalTurns
from .reconcile import Problem, board_mask, diff_problems
from .settle import REST_GAP_S

#: Seconds the board must show the older position, counted from when it became firm, before a
#: takeback by hand is read. A man carried onto the point the last turn emptied, with the lift of
#: the man really moved lost, shows the same board until a scan of every switch (within a second)
#: completes the picture; a takeback is never urgent.
TAKEBACK_HOLD_S = 1.0


class Decisions(ProvisionalTurns):
    """The ``Tracker``'s decisions on the firm board (a mixin; see the module's docstring)."""

    settle_s: float
    hold_s: float
    _recheck: bool
    _recheck_at: float

    if TYPE_CHECKING:
        # Defined by ``Tracker``; declared here for the type checker.
        def new_game(self, *, profile: str | None = None, computer: str | bool | None = False) -> None: ...
        def _game_changed(self, *, resync: bool = False, provisional: bool = False) -> None: ...
        def _set_problems(self, found: tuple[Problem, ...]) -> None: ...

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
        # and already back must not be read as put there and taken. A point
        # changed once may change again at once, though: the next man put where a removal was
        # made. If the switch only flickered, nothing settles, so wake up when it
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
        reading = self._read(
            game,
            occ,
            settler.first_at,
            (settler.once, settler.twice),
            unsteady,
            self.protected,
            prompt=self.prompt,
            computer=None if awaiting else self.computer,
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
            # is already changing again is no answer to it: the hands are not done (for
            # example d2 lifted with its return lost, nudged off as f2 landed and back 0.15 s later,
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
