"""What stories agree on: the same turns made by the same changes, and what one doubts of another.

The decision (``decoder``) commits the turns every good story agrees on (``same_turns``), or up
to a position where they all meet and go on alike (``same_after``), and waits while a recent
good story told otherwise (``contradicts``) unless a good story now goes on from it
(``goes_on``).
"""

from __future__ import annotations

from morris_pi.rules.board import POINTS

from .story import RawTurn, Story, flips_of

__all__ = ["Told", "contradicts", "goes_on", "same_after", "same_turns"]

#: What a story tells: its turns, and the turn still in the hand.
Told = tuple[tuple[RawTurn, ...], RawTurn | None]


def contradicts(told: Told, turns: tuple[RawTurn, ...]) -> bool:
    """Whether a story that told ``told`` (its turns, and the turn in the hand) doubts ``turns``:
    it tells another turn in a place both tell one, or has another man in the hand (or on his
    way to another point) where ``turns`` tell the next turn."""
    done, pending = told
    if any(a != b for a, b in zip(done, turns, strict=False)):
        return True
    return pending is not None and len(done) < len(turns) and not _may_become(pending, turns[len(done)])


def goes_on(told: Told, before: Told) -> bool:
    """Whether a story that tells ``told`` goes on from one that told ``before``: the same turns
    first, and the turn then in the hand carried out (or still in the hand)."""
    turns, pending = told
    done, held = before
    if turns[: len(done)] != done:
        return False
    if held is None:
        return True
    if len(turns) == len(done):
        return pending is not None and _may_become(held, pending)
    return _may_become(held, turns[len(done)])


def same_turns(a: Story, b: Story, k: int) -> bool:
    """Whether ``a`` and ``b`` tell their first ``k`` turns alike: the same turns, made by the same
    changes of the switches (``_same_change``). Two stories that tell one turn by different
    changes (a man placed on c5 now, or the same placement a cycle of captures later, the cycle
    between read as noise) do not agree on it: committing one drops the changes the other needs.
    """
    return len(a.turns) >= k and len(b.turns) >= k and _alike(a, -1, k, b, -1, k)


def same_after(a: Story, ka: int, b: Story, kb: int) -> bool:
    """Whether ``a``'s turns after its first ``ka`` and ``b``'s after its first ``kb`` are the same
    turns, made by the same changes (``_same_change``)."""
    return _alike(a, ka, len(a.turns), b, kb, len(b.turns))


def _alike(a: Story, a_from: int, a_to: int, b: Story, b_from: int, b_to: int) -> bool:
    """Whether plies ``a_from`` to ``a_to`` of ``a`` and ``b_from`` to ``b_to`` of ``b`` are the
    same turns made by the same changes (ply -1: the setting's flips, which come first)."""
    if a.turns[max(a_from, 0) : a_to] != b.turns[max(b_from, 0) : b_to]:
        return False
    fa, fb = flips_of(a.turns, None, a.setting), flips_of(b.turns, None, b.setting)
    for i in range(len(POINTS)):
        ma, mb = a.matched[i], b.matched[i]
        if not ma and not mb:  # most points are no flip of either
            continue
        xa = [j for f, j in zip(fa[i], ma, strict=False) if a_from <= f.ply < a_to]
        xb = [j for f, j in zip(fb[i], mb, strict=False) if b_from <= f.ply < b_to]
        if len(xa) != len(xb) or not all(_same_change(ja, jb, ma, mb) for ja, jb in zip(xa, xb, strict=True)):
            return False
    return True


def _same_change(ja: int, jb: int, ma: tuple[int, ...], mb: tuple[int, ...]) -> bool:
    """Whether a flip matched to change ``ja`` of its point in one story and to ``jb`` in another
    (whose flips there are matched to ``ma`` and ``mb``) is one change of the board: the same,
    or two that neither story reads a flip between (a man's landing aligned with one close of
    his flickering or another)."""
    lo, hi = (ja, jb) if ja <= jb else (jb, ja)
    return hi - lo <= 1 or not any(lo < x < hi for x in (*ma, *mb))


def _may_become(held: RawTurn, turn: RawTurn) -> bool:
    """Whether the turn in the hand ``held`` (a man lifted, or on his way to a point) may end as
    ``turn``: the same man, and the same point if ``held`` named one."""
    return held[0] == turn[0] and (held[1] < 0 or held[1] == turn[1])
