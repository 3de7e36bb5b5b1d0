"""What the settled board shows, compared with the game.

``read_board`` takes the whole settled occupancy (which points hold a man; the
switches never tell colour) and the game, and answers with one ``Reading``:

``match``     the board is the game.
``turns``     the board shows a legal turn (or a step that closed a mill and
              waits for its removal), or two turns in a row when the next side
              was quick (three where both players' hands overlapped and nothing
              fewer explains the board); they are to be played in order.
``progress``  the board is part-way through a legal turn: a man lifted, or an
              opponent man already taken off before the move that earns it.
``takeback``  the board was put back by hand to the position before the last
              turn (the last two against the computer), and that took putting
              at least one man back: lifting men alone is never a takeback.
``problems``  none of these: each point that disagrees with the game, with the
              single correction that fixes it.

Two kinds of evidence, in this order:

1. The settled occupancy: which reading explains the board.
2. What each point did since the position the reading starts from
   (``Changes``): a reading may change the game only if the sensors saw every
   point it changes change, and a point that a chain of two turns empties and
   refills (or fills and empties) must have changed twice. A board that only
   *nets out* to two turns, through a point where nothing happened, is not
   read: it waits, with guidance, for more evidence (a later change or a
   snapshot of every switch).

Order (the raw time of each point's last change) only breaks a tie that
neither can: two men put down within one window while placing; the first is
the side to move's.

Men in ``protected`` were lifted while a removal was pending although they may
not be taken (a protected man, or the remover's own): they count as standing
where they were, so no reading takes them, and no later turn moves them until
they are back.

>>> from morris_pi.rules import Game
>>> from morris_pi.rules.board import mask_of
>>> game = Game.from_record("d6 a1 f6 a4")
>>> read_board(game, mask_of(["d6", "a1", "f6", "a4", "b6"])).kind
'turns'
>>> read_board(game, mask_of(["d6", "f6", "a4", "b6"])).turns  # removal done first, then the move
(Turn('b6xa1'),)
>>> read_board(game, mask_of(["d6", "f6", "a4"])).kind  # an opponent man off first: b6 may still earn it
'progress'
>>> [str(p) for p in read_board(game, mask_of(["a1", "f6", "a4", "g7", "g1"])).problems]
['take the man off g7', 'take the man off g1', 'put a man back on d6']

"""

from __future__ import annotations

from collections.abc import Callable

from morris_pi.rules import Game, Side, Turn, other_side
from morris_pi.rules.board import POINTS, point_index

from .causal import removal_answered
from .chains import _carried_then_placed, _placements, _removal_answered, _three_turns, _two_turns
from .readings import (
    ANYTHING,
    KINDS,
    MATCH,
    PROGRESS,
    Changes,
    Problem,
    ProblemKind,
    RawTurn,
    Reading,
    ReadingKind,
    _partial,
    after_turn,
    allowed_turns,
    board_mask,
    diff_problems,
)
from .takeback import _takeback, colour_masks, take_back, takeback_count

# Re-exported: the rest of the package, the tests and the docs import these from here.
__all__ = [
    "ANYTHING",
    "KINDS",
    "MATCH",
    "PROGRESS",
    "Changes",
    "Problem",
    "ProblemKind",
    "RawTurn",
    "Reading",
    "ReadingKind",
    "allowed_turns",
    "board_mask",
    "colour_masks",
    "diff_problems",
    "read_board",
    "removal_targets",
    "take_back",
    "takeback_count",
]


def read_board(
    game: Game,
    occupied: int,
    *,
    order: Callable[[int], float] | None = None,
    arrived: Callable[[int, int], bool] | None = None,
    last: Callable[[int], float] | None = None,
    lifted: Callable[[int], float] | None = None,
    prompt: Turn | None = None,
    computer: Side | None = None,
    changes: Changes = ANYTHING,
    protected: int = 0,
    unsure: int = 0,
    third: bool = False,
    touched: Callable[[int, float], float] | None = None,
    opened: Callable[[int, float], bool] | None = None,
    rested: Callable[[int], float] | None = None,
    held: Callable[[int, float], float | None] | None = None,
    gap: Callable[[int, float, float], float] | None = None,
) -> Reading:
    """Compare a settled occupancy mask with the game; see the module text.

    ``prompt`` is the computer's chosen turn, the only one the board may show on
    the computer's turn (``computer`` names its side). ``order`` gives the raw
    time of a point's first change, to check that a chain's men were lifted before
    they landed; ``last`` the time of its latest settled change (default ``order``),
    for the causal order of a chain; ``lifted`` the time of its latest opening a switch
    reported (not a scan); ``arrived(i, j)`` whether the man on point
    ``i`` came before the man on point ``j``, to order men put down at once. ``changes`` is
    what the sensors saw since the game's position; ``protected`` the men
    lifted during a pending removal that may not be taken. ``unsure``: points
    whose last change only a scan of every switch showed, so when it happened is
    not known (a lost lift may be older than the landing it made possible). ``third``: two
    turns may be read with a third begun (two players only: against the computer its turns
    are prompted one at a time). ``touched(i, t)``: when point ``i`` was first closed at or
    after raw time ``t`` (see ``causal.in_order``); ``opened(i, t)``: whether point ``i`` was surely
    empty at raw time ``t``, and ``rested(i)`` when the man on point ``i`` came to rest (see
    ``causal.removal_answered``). ``held(i, t)``: when the closing that held point ``i`` at raw
    time ``t`` began, or ``None`` (``Settler.closed_since``). ``gap(i, start, end)``: the longest
    time point ``i`` stayed open between those raw times (``Settler.longest_open``).
    """
    expected = board_mask(game)
    actual = occupied
    occupied |= protected & expected
    if occupied == expected:
        return MATCH
    pos = game.position
    pos_mask = pos.men[0] | pos.men[1]
    pending = game.pending is not None
    human = computer is None or game.turn != computer
    allowed = allowed_turns(game, prompt, computer)

    nxt = other_side(game.turn)
    for raw in allowed:
        after = after_turn(pos_mask, raw)
        if after == occupied:
            if changes.chain(expected ^ after) and not _landed_before_left(raw, unsure, last, held):
                carried = None
                if computer != nxt and not pending:
                    carried = _carried_then_placed(pos, raw, allowed, changes, order, arrived, lifted, unsure, touched)
                return carried or Reading("turns", (Turn.from_raw(raw),))
            break  # no other turn leaves this board
    if human and not pending:
        for raw in allowed:
            o, t, r = raw
            if r >= 0:
                after = after_turn(pos_mask, (o, t, -1))
                if after == occupied and changes.chain(expected ^ after):
                    carried = None
                    if computer != nxt:
                        step = (o, t, -1)
                        carried = _carried_then_placed(
                            pos, step, allowed, changes, order, arrived, lifted, unsure, touched
                        ) or _removal_answered(
                            pos, (o, t), allowed, occupied, changes, order, last, lifted, unsure, opened, rested
                        )
                    return carried or Reading("turns", (Turn.from_raw((o, t, -1)),))
        # The mill's step done, but an opponent man that may not be taken already lifted (the
        # removal tried before the step): the step stands; the tracker then shows that man as
        # protected. Only the opponent's men: an own man lifted may be one of the mill's.
        protected_men = pos.men[pos.side ^ 1] & ~pos.removable(pos.side)
        for raw in allowed:
            o, t, r = raw
            if r >= 0:
                after = after_turn(pos_mask, (o, t, -1))
                off = after & ~occupied
                if off and not off & ~protected_men and not occupied & ~after and changes.chain(expected ^ after):
                    return Reading("turns", (Turn.from_raw((o, t, -1)),))

    for raw in allowed:
        if _partial(expected, occupied, raw, step_done=pending) and not (
            not human
            and not pending
            and removal_answered(raw, occupied, changes, order, last, lifted, unsure, opened, rested)
        ):
            return PROGRESS

    if computer != nxt:
        found = _two_turns(
            pos,
            expected,
            pos_mask,
            occupied,
            allowed,
            order,
            changes,
            unsure,
            last,
            arrived,
            third=third,
            touched=touched,
            lifted=lifted,
            gap=gap,
        )
        if found is None and computer is None and arrived is not None:
            found = _placements(pos, expected, occupied, changes, arrived)
        if found is None and computer is None and order is not None and arrived is not None:
            found = _three_turns(
                pos, expected, pos_mask, occupied, allowed, order, changes, unsure, last, arrived, touched
            )
        if found is not None:
            return found

    back = _takeback(game, actual, computer, changes, last)
    if back:
        return Reading("takeback", back=back)
    return Reading("problems", problems=diff_problems(expected, occupied))


def _landed_before_left(
    raw: RawTurn, unsure: int, last: Callable[[int], float] | None, held: Callable[[int, float], float | None] | None
) -> bool:
    """Whether a move's origin still held a man when the man now on its target touched down for
    good: he is not the mover's man, who leaves before he lands (d7
    placed, then g7 nudged off 38 ms later and put back, then knocked off with the lift lost;
    read as g7-d7). Where only a scan showed the target's man come, when is not known."""
    o, t, _ = raw
    if o < 0 or last is None or held is None or unsure >> t & 1:
        return False
    return held(o, last(t)) is not None


def removal_targets(game: Game, point: str) -> list[str]:
    """Targets of the legal turns that remove the man on ``point`` (for removal before the move)."""
    i = point_index(point)
    return sorted({POINTS[t] for o, t, r in allowed_turns(game) if r == i}, key=point_index)
