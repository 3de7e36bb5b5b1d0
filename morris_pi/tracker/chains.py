"""Readings of more than one turn: chains.

A chain is two or three whole turns in a row read from one settled board (the
next side was quick, or both players' hands were on the board at once), or a
turn with the next one begun. The occupancy alone nets such a board out to
several stories, so a chain needs more evidence than one turn does:

- every point it changes changed (``Changes``), and a point one turn empties and
  a later one refills (or fills and empties) changed twice;
- its turns follow one another in causal order as the sensors timed them
  (``causal``): each man left before he landed, placements in the order their
  men came.

``reconcile.read_board`` tries a chain only where no single turn explains the board.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cmp_to_key

from morris_pi.rules import Position, Turn
from morris_pi.rules.board import bits

from .causal import CARRY_S, TRAY_TRIP_S, begun_in_order, in_order, removal_answered, stood
from .readings import Changes, RawTurn, Reading, _partial, after_turn


def _carried_then_placed(
    pos: Position,
    placement: RawTurn,
    allowed: list[RawTurn],
    changes: Changes,
    order: Callable[[int], float] | None,
    arrived: Callable[[int, int], bool] | None,
    lifted: Callable[[int], float] | None,
    unsure: int,
    touched: Callable[[int, float], float] | None = None,
) -> Reading | None:
    """A move answered at once by a placement on the point it left, where the board also reads
    as one placement (or a placement's step, its removal to come) with a man lifted and put back.

    Where placing and moving mix (``lasker``), ``a1-a4`` and then the other side's ``a1`` leave
    the same men as the placement ``a4``. The two turns are read when the man that left a1 was
    off the board before the man on a4 was first touched (carried there, not knocked on the way)
    and a1 held no man when the man on a4 came to rest: a placement made while one's own man is
    in the hand is no way anyone plays. Every change is then explained by a turn. Where a1's
    return was lost and only a scan showed it, the lift must have come too shortly before a4's
    touch for a1's man to go back and another come from the tray in between; the touch is the
    first contact at a4 after the lift (``touched``), however brief: a man brought down onto a
    point may bounce off it before he stays.
    """
    o, t, r = placement
    if o >= 0 or order is None or arrived is None:
        return None
    if unsure >> t & 1:
        return None
    for p in bits(changes.twice & pos.men[pos.side] & ~changes.flicker & ~changes.unsteady):
        move = (p, t, r)
        if move not in allowed:
            continue
        if unsure >> p & 1:
            # Only a scan showed the man back, so when is not known: the lift alone decides.
            # Putting him back and bringing another man from the tray takes longer than this.
            if lifted is None:
                continue
            left = lifted(p)
            touch = touched(t, left) if touched is not None else order(t)
            if not CARRY_S <= touch - left < TRAY_TRIP_S:
                continue
        elif order(t) - order(p) < CARRY_S or not arrived(t, p):
            continue
        replies = [raw for raw in pos.play(move).turns() if raw[0] < 0 and raw[1] == p]
        if (-1, p, -1) in replies:
            return Reading("turns", (Turn.from_raw(move), Turn.from_raw((-1, p, -1))))
        if replies:  # the reply closed a mill: read from the move on, its removal still to come
            return Reading("turns", (Turn.from_raw(move),))
    return None


def _removal_answered(
    pos: Position,
    step: tuple[int, int],
    allowed: list[RawTurn],
    occupied: int,
    changes: Changes,
    order: Callable[[int], float] | None,
    last: Callable[[int], float] | None,
    lifted: Callable[[int], float] | None,
    unsure: int,
    opened: Callable[[int, float], bool] | None,
    rested: Callable[[int], float] | None,
) -> Reading | None:
    """A mill's turn made removal first and answered at once by the other side's placement on the
    removed point, where the board also reads as the mill's step with the removed man put back
    (``causal.removal_answered``, as for the computer's prompted turn)."""
    o, t = step
    for raw in allowed:
        if raw[0] != o or raw[1] != t or raw[2] < 0:
            continue
        r = raw[2]
        after = after_turn(pos.men[0] | pos.men[1], raw)
        if not changes.chain((pos.men[0] | pos.men[1]) ^ after, 1 << r):
            continue
        if not removal_answered(raw, occupied, changes, order, last, lifted, unsure, opened, rested):
            continue
        reply = (-1, r, -1)
        if reply in pos.play(raw).turns():
            return Reading("turns", (Turn.from_raw(raw), Turn.from_raw(reply)))
    return None


def _two_turns(
    pos: Position,
    expected: int,
    pos_mask: int,
    occupied: int,
    allowed: list[RawTurn],
    order: Callable[[int], float] | None,
    changes: Changes,
    unsure: int = 0,
    last: Callable[[int], float] | None = None,
    arrived: Callable[[int, int], bool] | None = None,
    *,
    third: bool = False,
    touched: Callable[[int, float], float] | None = None,
    lifted: Callable[[int], float] | None = None,
    gap: Callable[[int, float, float], float] | None = None,
) -> Reading | None:
    """Two turns in a row (the next side was quick), or one turn and the next one begun;
    with ``third`` (two players: against the computer its turns are prompted one by one), also
    two turns and the third begun, and two placements only in the order their men came.

    Only chains the sensors back: each point the two turns change must have
    changed, and a point the first turn empties and the second refills (or
    the first fills and the second empties) must have changed twice.
    """
    whole: list[tuple[RawTurn, RawTurn]] = []
    lifting: list[tuple[RawTurn, RawTurn]] = []  # whole, with a man of the third turn lifted
    begun: set[RawTurn] = set()
    for raw1 in allowed:
        m1 = after_turn(pos_mask, raw1)
        extra = occupied & ~m1
        if extra.bit_count() > 1 or (m1 & ~occupied).bit_count() > 2:
            continue
        if not changes.chain(expected ^ m1, m1 ^ occupied):
            continue
        pos1 = pos.play(raw1)
        for raw2 in pos1.turns():
            if extra and raw2[1] != extra.bit_length() - 1:
                continue
            m2 = after_turn(m1, raw2)
            if m2 == occupied:
                whole.append((raw1, raw2))
            elif third and _third_begun(pos1, raw1, raw2, m2, occupied, changes, order, lifted, gap, unsure, touched):
                lifting.append((raw1, raw2))
            elif _partial(m1, occupied, raw2) and (
                order is None or begun_in_order(raw1, raw2, occupied, order, unsure, last, touched)
            ):
                begun.add(raw1)
    if whole and order is not None:
        whole = [pair for pair in whole if in_order(*pair, order, unsure, last, touched=touched)]
    if whole and arrived is not None and third:
        # Two players: two placements are read in the order their men came; where occupancy
        # allows only the other order, the board waits (as when a7 landed 129 ms
        # before e5, then White lifted c4 by mistake with the lift lost; read as e5 and Black's
        # a7 taking c4). Against the computer its prompt orders the turns (as when
        # the computer's a7 landing was lost, shown by a scan after the human's b6 had landed).
        whole = [(a, b) for a, b in whole if a[0] >= 0 or b[0] >= 0 or arrived(a[1], b[1])] or (
            whole if len(whole) > 1 else []
        )
    if not whole and lifting and order is not None:
        # Only where no two turns explain the board alone, nor one turn with the next begun
        # (hands-2-0080: g7-g4 with Black's f4 lifted, not g1-g4 and f4-g1 with g7 lifted, where
        # a sleeve knocked g1 off and it went back): fewer hands are the likelier story.
        one = _one_begun(begun, occupied)
        if one is not None:
            return Reading("turns", (Turn.from_raw(one),))
        whole = [pair for pair in lifting if in_order(*pair, order, unsure, last, touched=touched)]
    if whole:
        if len(whole) > 1 and arrived is not None:
            whole = [(a, b) for a, b in whole if arrived(a[1], b[1])] or whole
        elif len(whole) > 1 and order is not None:
            whole = [(a, b) for a, b in whole if order(a[1]) < order(b[1])] or whole
        if len(whole) > 1 and order is not None:
            # The same men, but which was taken and which moved differ (hands-1-0247: b2 lifted
            # first, d2-f2, then d1 lifted; read as d2-f2xd1 and b2-d2, or as d2-f2xb2 and
            # d1-d2). The reply's man left after the first turn began, with its man's lift or
            # its removal made first: a hand holding a man through the other side's whole turn
            # is the less likely story (hands-2-0114: e3 taken first, then d5 placed, f4 lifted
            # and put on e4; d5xf4 and e3-e4 has e3's man held from before d5 was touched).
            whole = [(a, b) for a, b in whole if b[0] < 0 or _left_after_began(b[0], a, order)] or whole
        if len(whole) == 1:
            a, b = whole[0]
            if order is not None and b in begun:
                # The same men read the other way round: the man that came first is the side to
                # move's, and the other side's placement closed a mill whose removal is still to
                # come. Which came first decides, as between two whole chains (without
                # ``arrived``: first touch, if that man also came to stay first; a man slid
                # across the point on its way elsewhere touches it first and leaves).
                latest = last or order
                if (
                    arrived(b[1], a[1])
                    if arrived is not None
                    else order(b[1]) < order(a[1]) and latest(b[1]) < latest(a[1])
                ):
                    return Reading("turns", (Turn.from_raw(b),))
            return Reading("turns", (Turn.from_raw(a), Turn.from_raw(b)))
        return None
    one = _one_begun(begun, occupied)
    if one is not None:
        return Reading("turns", (Turn.from_raw(one),))
    return None


def _three_turns(
    pos: Position,
    expected: int,
    pos_mask: int,
    occupied: int,
    allowed: list[RawTurn],
    order: Callable[[int], float],
    changes: Changes,
    unsure: int,
    last: Callable[[int], float] | None,
    arrived: Callable[[int, int], bool],
    touched: Callable[[int, float], float] | None,
) -> Reading | None:
    """Three whole turns in a row, where neither one nor two explain the board: both players'
    hands on the board at once, each man in the air while the other side's turn is made.

    Read only if exactly one chain of three is backed by every change (a point two turns flip
    changed twice; none may be flipped by all three, which the counts cannot back) and each
    turn follows every one before it in causal order, placements in the order their men came
    (hands-2-0288: Black's g7-g4 flickers on g4 while White carries c3 to c4, whose man flickers
    too while Black lifts e4 and puts it on e3; hands-1-0144: d1 closes a mill and takes a4,
    Black puts his next man on a4 at once with the landing lost, a scan shows a4 full, and
    White's c4 lands: only ``d1xa4 a4 c4`` is legal). The causal order also refuses a chain
    a hover or a man put back makes up (b2 touched 0.13 s as b4's man went
    back, read as ``b4-b2``, a reply and ``b2-b4``; or ``b4-b2 c4-b4 c3-c4``,
    though c4 was filled again 2 s before c3's man left).
    """
    seen = changes.once
    found: list[tuple[RawTurn, RawTurn, RawTurn]] = []
    for raw1 in allowed:
        m1 = after_turn(pos_mask, raw1)
        f1 = expected ^ m1
        # Two more turns add at most two men and take at most four away.
        if f1 & ~seen or (occupied & ~m1).bit_count() > 2 or (m1 & ~occupied).bit_count() > 4:
            continue
        pos1 = pos.play(raw1)
        for raw2 in pos1.turns():
            m2 = after_turn(m1, raw2)
            f2 = m1 ^ m2
            if f2 & ~seen or (occupied & ~m2).bit_count() > 1 or (m2 & ~occupied).bit_count() > 2:
                continue
            if not _follows(raw1, raw2, order, unsure, last, arrived, touched):
                continue
            pos2 = pos1.play(raw2)
            for raw3 in pos2.turns():
                m3 = after_turn(m2, raw3)
                if m3 != occupied:
                    continue
                f3 = m2 ^ m3
                if f1 & f2 & f3 or not changes.show(f1 | f2 | f3, (f1 & f2) | (f2 & f3) | (f1 & f3)):
                    continue
                if _follows(raw2, raw3, order, unsure, last, arrived, touched) and _follows(
                    raw1, raw3, order, unsure, last, arrived, touched
                ):
                    found.append((raw1, raw2, raw3))
                    if len(found) > 1:
                        return None
    if len(found) == 1:
        return Reading("turns", tuple(Turn.from_raw(raw) for raw in found[0]))
    return None


def _follows(
    first: RawTurn,
    second: RawTurn,
    order: Callable[[int], float],
    unsure: int,
    last: Callable[[int], float] | None,
    arrived: Callable[[int, int], bool],
    touched: Callable[[int, float], float] | None,
) -> bool:
    """Whether ``second`` may follow ``first`` as the sensors timed them: in causal order, and
    two placements in the order their men came (unless the second is put where the first took a
    man: that point held the man taken, not one put down with the first). Nothing of the second
    may stand done before the first even began, where ``in_order`` cannot tell when the first
    man touched down (as when White's f2 was lifted, carried over d2 and put back, then
    Black's a1 carried to d1 with the landing lost, an illegal step; read as f2-d2, a1-d1 and
    d2-f2, the last done 3 s before a1 was lifted)."""
    if first[0] < 0 and second[0] < 0 and second[1] != first[2] and not arrived(first[1], second[1]):
        return False
    began = min(order(p) for p in first if p >= 0)
    latest = last or order
    if any(p >= 0 and latest(p) < began for p in (second[1], second[2])):
        return False
    return in_order(first, second, order, unsure, last, touched=touched)


def _left_after_began(origin: int, first: RawTurn, order: Callable[[int], float]) -> bool:
    """Whether the man on ``origin`` left after the turn ``first`` began: its man lifted or its
    removal made, whichever came first (a placement without a removal tells nothing: true)."""
    o, _, r = first
    began = [order(p) for p in (o, r) if p >= 0]
    return not began or order(origin) > min(began)


def _one_begun(begun: set[RawTurn], occupied: int) -> RawTurn | None:
    """The one first turn of the readings "a turn and the next begun", if they agree on it;
    a first turn whose man already stands on its target is preferred."""
    shown = [raw for raw in begun if occupied >> raw[1] & 1]
    if len(shown) == 1:
        return shown[0]
    if len(begun) == 1:
        return next(iter(begun))
    return None


def _third_begun(
    pos1: Position,
    first: RawTurn,
    second: RawTurn,
    m2: int,
    occupied: int,
    changes: Changes,
    order: Callable[[int], float] | None = None,
    lifted: Callable[[int], float] | None = None,
    gap: Callable[[int, float, float], float] | None = None,
    unsure: int = 0,
    touched: Callable[[int, float], float] | None = None,
) -> bool:
    """Whether ``occupied`` is the board after ``second`` with a third turn begun by one man off
    the board, while the second man was still in the air (both players' hands on the board at
    once): a man of the side to move next lifted, with somewhere to go, or, for a mill-closing
    turn made removal first, a man of the other side taken off after the second turn's man
    touched down (hands-1-0056: White's e4-e3 flickers for 1.3 s while Black carries f2 to d2,
    and White takes a7 for c5-c4xa7 before e3 keeps still).

    Not the man the second turn put down: a hand hovering over a point on its way touches it
    just as briefly. The man the first turn put down may be lifted again only if he stood there
    (``causal.stood``: ``b6-b4``, the reply, ``b4-b6``), never taken.
    """
    off = m2 & ~occupied
    if occupied & ~m2 or off.bit_count() != 1 or not changes.show(off):
        return False
    point = off.bit_length() - 1
    if point == second[1]:
        return False
    pos2 = pos1.play(second)
    if pos2.men[pos2.side] >> point & 1:
        if point == first[1] and not (
            changes.show(0, off)
            and order is not None
            and lifted is not None
            and gap is not None
            and stood(point, first[0], second, order, lifted, gap, unsure, touched)
        ):
            return False
        return any(raw[0] == point for raw in pos2.turns())
    if order is None or point == first[1] or order(point) <= order(second[1]):
        return False
    return any(raw[2] == point for raw in pos2.turns())


def _placements(
    pos: Position, expected: int, occupied: int, changes: Changes, arrived: Callable[[int, int], bool]
) -> Reading | None:
    """Three or more men put down in quick succession while placing, taken in the order they came.

    Only men added, every one seen by its switch, and none closing a mill before the last
    (its removal would show).
    """
    extra = occupied & ~expected
    if expected & ~occupied or extra.bit_count() < 3 or not changes.show(extra):
        return None

    def earlier(a: int, b: int) -> int:
        return -1 if arrived(a, b) else 1

    order = sorted(bits(extra), key=cmp_to_key(earlier))
    turns: list[Turn] = []
    for n, point in enumerate(order, start=1):
        raws = [r for r in pos.turns() if r[0] < 0 and r[1] == point]
        raw = next((r for r in raws if r[2] < 0), None)
        if raw is None:
            if n == len(order) and raws:
                # The last man closed a mill: its step, the removal still to come (as when
                # e4, a4 and e3 came within 70 ms, e3 closing e3-e4-e5).
                turns.append(Turn.from_raw((-1, point, -1)))
                return Reading("turns", tuple(turns))
            return None
        pos = pos.play(raw)
        turns.append(Turn.from_raw(raw))
    return Reading("turns", tuple(turns))
