"""The takeback by hand: the board put back to the position before the last turn.

``take_back`` undoes on a game what a takeback undoes (one turn, or against the
computer back to the human's turn); ``_takeback`` reads whether the board shows
that older position and the sensors saw every point it restores change.
"""

from __future__ import annotations

from collections.abc import Callable

from morris_pi.rules import Game, Side, other_side
from morris_pi.rules.board import INDEX, bits

from .readings import ANYTHING, Changes, board_mask


def takeback_count(game: Game, computer: Side | None) -> int:
    """How many turns a takeback undoes: one, or against the computer back to the human's turn.

    A pending step counts as a turn. Against the computer, turns are undone
    until a turn of the human's has been undone.
    """
    return take_back(game.copy(), computer)


def take_back(game: Game, computer: Side | None) -> int:
    """Undo on ``game`` itself what a takeback undoes; returns how many steps were undone.

    A declared result (resignation, claimed draw) is withdrawn first, alone.
    """
    n = 0
    while game.pending is not None or game.history or game.outcome is not None:
        mover = game.turn if game.pending is not None else other_side(game.turn)
        try:
            step = game.undo()
        except ValueError:
            break
        n += 1
        if step is None or computer is None or mover != computer:
            break
    return n


def colour_masks(game: Game) -> tuple[int, int]:
    """White's and black's men as they should stand now (a pending step applied)."""
    men = list(game.position.men)
    pending = game.pending
    if pending is not None:
        side = 0 if game.turn == "white" else 1
        if pending.origin:
            men[side] &= ~(1 << INDEX[pending.origin])
        men[side] |= 1 << INDEX[pending.target]
    return men[0], men[1]


def _takeback(
    game: Game,
    occupied: int,
    computer: Side | None,
    changes: Changes = ANYTHING,
    last: Callable[[int], float] | None = None,
) -> int:
    if game.outcome is not None:
        return 0
    g = game.copy()
    n = take_back(g, computer)
    if not n:
        return 0
    back = board_mask(g)
    # Restoring puts at least one man back; a board that only lacks men is a man in the hand
    # (after a removal the opponent refilled, lifting a man can look like the older position).
    if back != occupied or not back & ~board_mask(game):
        return 0
    # The hands need not retrace the turns, only set each point right: a point whose man
    # changes colour must have been emptied and refilled, any other that differs changed once.
    nw, nb = colour_masks(game)
    bw, bb = colour_masks(g)
    if not changes.show((nw ^ bw) | (nb ^ bb), (nw & bb) | (nb & bw)):
        return 0
    if last is not None:
        # A man that changes colour came from a point the takeback empties of his colour, so he
        # landed after that man left (as when d3's own man was knocked off and put
        # back, then the other side's c3 carried to e3 by an illegal step 4 s later). Not where
        # removed men come back from the tray.
        for now_other, after_own, now_own, after_all in ((nb, bw, nw, bw | bb), (nw, bb, nb, bw | bb)):
            if after_own.bit_count() > now_own.bit_count():
                continue
            sources = [last(i) for i in bits(now_own & ~after_all)]
            for i in bits(now_other & after_own):
                if not any(left < last(i) for left in sources):
                    return 0
    return n
