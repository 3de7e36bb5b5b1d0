"""Causal order of a reading: whether the sensors' timing allows the turns it reads.

Occupancy says which turns explain the board; these checks say whether the changes came in an
order hands could have made them: a man leaves his point before he lands, a reply comes after
the turn it answers, a removal made first is done before the step. Each takes the timing as
functions of a point (see ``read_board``): ``order`` its first change since the position read
from, ``last`` its latest settled change, ``lifted`` its latest opening a switch reported.

>>> in_order((-1, 0, -1), (-1, 1, -1), order=lambda i: 1.0)   # two placements
True
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING

from morris_pi.rules.position import RawTurn

from .settle import REST_GAP_S

if TYPE_CHECKING:
    from .readings import Changes

#: Seconds a man takes at least to be carried from one point to the next; a point emptied less
#: long before another was touched was knocked by the hand on its way, not carried.
CARRY_S = 0.2
#: Seconds by which a change only a scan showed may precede the scan, at most (the settle window
#: and then some): the scan shows it no later than that.
SCAN_SLACK_S = 0.1
#: Seconds at least to put a lifted man back and then bring another from the tray onto the board.
TRAY_TRIP_S = 0.8
#: Seconds a man stands on a point at least, from his first touch, before the hand that put him
#: there lifts him again for its next turn; a hand hovering over a point on its way elsewhere
#: touches it for about a tenth of a second.
STOOD_S = 0.3


def removal_answered(
    turn: RawTurn,
    occupied: int,
    changes: Changes,
    order: Callable[[int], float] | None,
    last: Callable[[int], float] | None,
    lifted: Callable[[int], float] | None,
    unsure: int,
    opened: Callable[[int, float], bool] | None = None,
    rested: Callable[[int], float] | None = None,
) -> bool:
    """Whether the computer's prompted turn was carried out removal first and the other side's
    man has since come onto the removed point: not the turn in progress with the removed man
    put back, which the board shows just the same.

    The removed man's last lift came before the step's man first touched his point, and the
    removed point filled again only after that touch. A hand hesitating over the removal puts
    the man back before the step, or lifts him only after it; a man nudged before the step was
    back before it too. With ``opened(point, t)`` the point must surely have been empty when the
    step's man touched down: so also where only a scan showed the removed man go or come back
    (the scan that showed it empty came before that touch, and it closed again only after a
    change reported after it; as when f6 was taken off first with the lift lost, a1
    placed after the scan, the human's man landed on f6 with the landing lost), and where the
    answer's landing bounced (its last opening came 1 ms after it touched).
    ``rested(point)``: when the man on the point came to rest; the removed point must still
    have been empty then (as when d6 was nudged off for 118 ms while b6's
    man, put down off-centre, flickered for 0.7 s).
    """
    _, t, r = turn
    if r < 0 or order is None or last is None or lifted is None or not occupied >> r & 1:
        return False
    if not changes.twice >> r & 1 or unsure >> t & 1:
        return False
    if opened is not None:
        # Open then, and closed now: the man there came after the step's man touched down. And
        # still open when he came to rest: an answer comes after the turn it answers, and a man
        # nudged off while the step's man still flickered into place is back by then.
        return opened(r, order(t)) and (rested is None or opened(r, rested(t)))
    return not unsure >> r & 1 and lifted(r) < order(t) < last(r)


def begun_in_order(
    first: RawTurn,
    second: RawTurn,
    occupied: int,
    order: Callable[[int], float],
    unsure: int,
    last: Callable[[int], float] | None,
    touched: Callable[[int, float], float] | None = None,
) -> bool:
    """``in_order`` for a chain whose second turn is only begun: its man is checked only once
    he has landed (a man lifted and put back before the first turn landed is no step of it)."""
    _, t2, r2 = second
    landed = bool(occupied >> t2 & 1)
    shown = second if landed else (-1, t2, r2)
    return in_order(first, shown, order, unsure, last, landed=landed, touched=touched)


def in_order(
    first: RawTurn,
    second: RawTurn,
    order: Callable[[int], float],
    unsure: int = 0,
    last: Callable[[int], float] | None = None,
    *,
    landed: bool = True,
    touched: Callable[[int, float], float] | None = None,
) -> bool:
    """Whether each move of a chain was lifted before it landed, where the sensors can tell.

    A man lands only after it left its point. The second turn's points are compared by their
    latest settled changes (``last``): earlier ones may be other hands (a man knocked off and
    put back, an own man lifted by mistake). The first turn's by their first changes (``order``),
    except where the second touched them again. (A lift healed by a late snapshot can look
    later than the landing: the chain then waits, never misreads.) The reply's man must not
    have come to stay, nor its removal been made, before the first turn's man touched its
    point: that is no reply. ``touched(point, t)``: when the point was first closed at or after
    raw time ``t`` (``t`` itself if it was closed then); a touch of the first turn's target that
    was over before its man even left was another hand's (a hover), not his.
    """
    o2, t2, r2 = second
    latest = last or order
    if o2 >= 0 and not unsure >> o2 & 1 and latest(t2) < latest(o2):
        return False
    o1, t1, _ = first
    if not unsure >> t1 & 1:
        # Nothing of the reply stood done before the first turn's man even touched down. A change
        # only a scan showed happened at the latest at that scan, a settle window after its time.
        # His touching down is timed from the first closing of his point after he left his own,
        # if that came before the point's first settled change: a man that flickers as he is put
        # down settles only at his last closing.
        arrived = order(t1)
        if touched is not None and o1 >= 0 and not unsure >> o1 & 1:
            arrived = min(arrived, touched(t1, order(o1)))

        def done_before(point: int) -> bool:
            return latest(point) + (SCAN_SLACK_S if unsure >> point & 1 else 0.0) < arrived

        if landed and o1 >= 0 and t2 != t1 and done_before(t2):
            return False
        if r2 >= 0 and r2 != t1 and done_before(r2):
            return False
    if o1 < 0 or o1 == t2 or bool(unsure >> o1 & 1):
        return True
    left = order(o1)
    if t1 == r2:
        # The man landed and was taken again: his point closed after he left his own (as when
        # a knocked man was pushed back across b4 before b6 was lifted, read as b6-b4
        # taken at once by the other side's turn begun).
        return touched is None or touched(t1, left) != math.inf
    if order(t1) - left >= CARRY_S:
        return True
    return touched is not None and order(t1) < left and touched(t1, left) - left >= CARRY_S


def stood(
    point: int,
    came_from: int,
    reply: RawTurn,
    order: Callable[[int], float],
    lifted: Callable[[int], float],
    gap: Callable[[int, float, float], float],
    unsure: int = 0,
    touched: Callable[[int, float], float] | None = None,
) -> bool:
    """Whether the man a turn put on ``point`` (from ``came_from``, ``-1`` for a placement) stood
    there before the lift his switch reported, so that lifting him again begins the next turn.

    From his first touch to the lift (``lifted``), his point was open only for bounces and
    nudges (``gap(point, start, end)``: the longest opening), for at least ``STOOD_S``, and he
    was lifted only once the other side's ``reply`` had begun: its hand may still be in the air
    (as when b4 stood 0.5 s and was lifted just after d1's man came).
    His first touch is the point's first settled change (``order``), or for a moved man his
    first closing after he left his point (``touched``), however brief: a man put down
    off-centre may bounce for a while before any contact settles. Where only a
    scan showed a change of the reply (a lost lift: when it began is not known), the reply's
    timing is not asked. A hand hovering over a point touches it briefly, and before the reply
    (as when c5 was touched 94 ms before c4 was placed).

    >>> first = {0: 1.0, 2: 3.0}.get      # a7's man first touched at 1.0, g7 (the reply) at 3.0
    >>> reply = (-1, 2, -1)
    >>> stood(0, -1, reply, first, lambda i: 4.0, lambda i, a, b: 0.05)
    True
    >>> stood(0, -1, reply, first, lambda i: 2.5, lambda i, a, b: 0.05)   # lifted before g7 came
    False
    >>> stood(0, -1, reply, first, lambda i: 4.0, lambda i, a, b: 1.0)    # a7 empty for 1 s between
    False
    >>> stood(0, -1, reply, first, lambda i: 1.1, lambda i, a, b: 0.0)    # a 0.1 s touch
    False
    """
    lift = lifted(point)
    touch = order(point)
    if touched is not None and came_from >= 0 and not unsure >> came_from & 1:
        touch = min(touch, touched(point, order(came_from)))
    if lift == -math.inf or lift - touch < STOOD_S or gap(point, touch, lift - 1e-6) >= REST_GAP_S:
        return False
    others = [p for p in reply if p >= 0 and p != point]
    if not others or any(unsure >> p & 1 for p in others):
        return True
    return lift > min(order(p) for p in others)
