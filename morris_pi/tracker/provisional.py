"""Turns read but not yet confirmed, with the evidence each was read from, and their bookkeeping.

A turn the board shows goes into the live game at once (the LEDs follow it) and waits as a
``ProvisionalTurn`` until it is confirmed (``ProvisionalTurns._confirm``) or dropped because a
later change or scan reads the board otherwise (``ProvisionalTurns._rollback``).
``ProvisionalTurns`` is the part of the ``Tracker`` that keeps them: confirming, dropping,
reading the board again from an older position. It is a mixin: the state it works on is the
``Tracker``'s (set up in ``Tracker.__init__``).

>>> from morris_pi.rules import Turn
>>> from morris_pi.rules.board import mask_of
>>> entry = ProvisionalTurn(Turn.parse("d6"), mask_of(["d6"]), mask_of(["d6"]), 0, 1.0, 0)
>>> chain_of([entry])
(Turn('d6'),)
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from morris_pi.rules import Game, Side, Turn
from morris_pi.rules.board import INDEX, bits

from .reconcile import Changes, Problem, Reading, read_board
from .settle import REST_GAP_S, Settler

if TYPE_CHECKING:
    from .tracker import TrackerEvent

#: Seconds a placement stays provisional after a man was lifted off another empty point that
#: held him when this placement's man came to rest (two men put down at once, the first knocked
#: or nudged off): a knocked man lies a while before its owner puts it back, and whose man is
#: whose rests on which came first. A point only touched just before waits ``REST_GAP_S``.
KNOCKED_HOLD_S = 3.0


@dataclass(frozen=True, slots=True)
class ProvisionalTurn:
    """A turn read from the board and not yet confirmed."""

    turn: Turn
    #: The points the turn changes (a mask).
    points: int
    #: The board after it (a mask).
    after: int
    #: Empty points touched before a placement's own man came to rest: a man landing there may
    #: have come first (two men put down at once), so the placement waits for them.
    watch: int
    #: Raw time of the last change of its points when it was read: the confirm timer's start.
    last: float
    #: Those of ``watch`` that held a man when this one came to rest (knocked off since): they
    #: keep the placement provisional longer (``KNOCKED_HOLD_S``).
    held: int


def chain_of(entries: Iterable[ProvisionalTurn]) -> tuple[Turn, ...]:
    """The turns of ``entries``, oldest first."""
    return tuple(entry.turn for entry in entries)


def watched(entries: Iterable[ProvisionalTurn]) -> int:
    """Empty points touched before a provisional placement whose man may yet land there."""
    mask = 0
    for entry in entries:
        mask |= entry.watch
    return mask


def carried_or_knocked(chain: tuple[Turn, ...], turns: tuple[Turn, ...]) -> bool:
    """Whether ``chain`` is a move and a placement on the point it left, and ``turns`` one
    placement (or its step) on the move's target instead.

    Read a turn at a time, the move stands before its man's old point fills again; read from the
    position before it with all the evidence, the board may show a man knocked off while a
    placement was made, put back since.

    >>> carried_or_knocked((Turn.parse("g4-f4"), Turn.parse("g4")), (Turn.parse("f4"),))
    True
    >>> carried_or_knocked((Turn.parse("g4-f4"), Turn.parse("d6")), (Turn.parse("f4"),))
    False
    """
    if len(chain) != 2 or len(turns) != 1:
        return False
    move, reply = chain
    (one,) = turns
    return (
        move.origin is not None
        and reply.origin is None
        and reply.target == move.origin
        and one.origin is None
        and one.target == move.target
    )


class ProvisionalTurns:
    """The ``Tracker``'s provisional turns: when they are confirmed, and when they are dropped.

    A mixin of ``Tracker``: the attributes below are the tracker's own (see ``Tracker.__init__``).
    """

    confirmed: Game
    game: Game
    provisional: list[ProvisionalTurn]
    settler: Settler
    computer: Side | None
    confirm_s: float
    prompt: Turn | None
    hint: Turn | None
    protected: int
    resync: bool
    game_version: int
    _found: tuple[Problem, ...]
    _healed: int
    _flicker: int
    _now: float
    _scan_at: float
    _scan_mask: int
    _base_prompt: Turn | None
    _events: list[TrackerEvent]
    _over_board: int | None
    _takeback_at: float
    _dirty: bool

    if TYPE_CHECKING:
        # Defined by ``Tracker``; declared here for the type checker.
        def _changed(self) -> None: ...
        def _protect(self) -> None: ...
        def _relift(self) -> None: ...

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
        return self._read(
            self._game_at(depth), occ, settler.first_since(depth), settler.counts_at(depth), unsteady, protected
        )

    def _read(
        self,
        game: Game,
        occ: int,
        order: Callable[[int], float],
        counts: tuple[int, int],
        unsteady: int,
        protected: int = 0,
        prompt: Turn | None = None,
        computer: Side | None = None,
    ) -> Reading:
        """``read_board`` with the settler's timing of every change (``counts``: the points that
        changed once and twice since the position ``game`` stands at, ``order`` their first
        changes): the one place the tracker's evidence is handed to a reading."""
        settler = self.settler
        once, twice = counts
        return read_board(
            game,
            occ,
            order=order,
            arrived=settler.arrived_first,
            last=settler.settled_at,
            lifted=settler.lifted_at,
            prompt=prompt,
            computer=computer,
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
        return self._read(
            self.confirmed,
            occ,
            settler.base_first_at,
            settler.base_counts(),
            unsteady,
            prompt=self._base_prompt,
            computer=self.computer,
        )

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
