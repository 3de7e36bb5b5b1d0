"""What the hand is doing, from the raw switches: the man lifted, men that may not be taken, and
men still flickering into place.

The first two are read from every raw change at once (no settle time): the LEDs answer a lifted man
before it has landed anywhere.

>>> from morris_pi.rules import Game
>>> from morris_pi.rules.board import mask_of
>>> game = Game.from_record("d6 a1 f6 a4")
>>> lifted_man(game, mask_of(["d6", "f6", "a4"]), 0, None, lambda i: 0.0)  # a1 off first
(None, ('b6',))
"""

from __future__ import annotations

from collections.abc import Callable

from morris_pi.rules import SIDES, Game, Side, Turn
from morris_pi.rules.board import FULL, POINTS, bits

from .reconcile import board_mask, removal_targets


def lifted_man(
    game: Game, raw: int, protected: int, computer: Side | None, changed_at: Callable[[int], float]
) -> tuple[str | None, tuple[str, ...]]:
    """The own man in the player's hand and his legal targets, or (``None``, the targets of the
    turns that may take) an opponent man taken off first; ``(None, ())`` when neither.

    The newest lift counts first. Only on a human's turn with nothing pending.
    """
    if game.outcome is not None or game.pending is not None or game.turn == computer:
        return None, ()
    gone = board_mask(game) & ~raw & ~protected
    if gone:
        own = game.position.men[SIDES.index(game.turn)]
        for i in sorted(bits(gone), key=changed_at, reverse=True):
            point = POINTS[i]
            if own >> i & 1:
                found = game.legal_targets(point)
                if found:
                    return point, tuple(found)
            else:
                found = removal_targets(game, point)
                if found:
                    return None, tuple(found)
    return None, ()


def protected_men(game: Game, raw: int, back: int, protected: int, prompt: Turn | None) -> int:
    """The men lifted during a pending removal that may not be taken (a mask).

    A removal is pending when the game waits for it, or when the hand has carried out the step
    of the computer's prompted turn with a removal. A man stays protected, whatever the game does
    meanwhile, until he is ``back`` on his point.
    """
    mask = protected & ~back
    if game.outcome is not None:
        return mask
    off = board_mask(game) & ~raw
    if off:
        # Once a man that may be taken is off, the removal is done: a man lifted after that is
        # the next side's turn beginning.
        if game.pending is not None:
            if not off & game.position.removable(game.position.side):
                mask |= off
        elif prompt is not None and prompt.removal:
            o, t, r = prompt.to_raw()
            if raw >> t & 1 and (o < 0 or not raw >> o & 1) and raw >> r & 1:
                mask |= off & ~(1 << o if o >= 0 else 0)
    return mask


def unsettled_for(game: Game, turns: tuple[Turn, ...], raw: int, occ: int) -> int:
    """The points whose flicker holds up reading ``turns`` on ``game`` from the firm board ``occ``.

    Not only those whose switch differs from the firm board right now. A point the turns fill
    and empty again is no man landed and taken while it flickers (hands-1-0140: d6's man read
    as landed and at once removed). A man flickering on a point the firm board shows empty is
    arriving there: unless the next turn, begun with the men the board shows lifted, may go
    there, the turns leave him unexplained (hands-1-0161: the other side's man read as flown
    to d2 while the mover's flickered on a4). A man being straightened on a point that stays
    occupied holds the reading up only while his switch differs from the firm board.
    """
    touched = 0
    for turn in turns:
        for i in turn.to_raw():
            if i >= 0:
                touched |= 1 << i
    after = game.copy()
    try:
        for turn in turns:
            after.play(turn)
    except ValueError:
        return raw ^ occ  # not a reading to hold: playing it shows the problem
    arriving = 0
    if after.pending is None and after.outcome is None:
        lifted = board_mask(after) & ~occ
        for o, t, _ in after.position.turns():
            if o < 0 or lifted >> o & 1:
                arriving |= 1 << t
    return (raw ^ occ) | (FULL & ~occ & ~arriving) | (touched & ~(board_mask(game) ^ occ))
