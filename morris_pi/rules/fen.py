"""Sanmill's FEN: a position as one line of text, read and written exactly as Sanmill 7.4 does.

Seventeen fields separated by spaces (Sanmill's ``Position::fen()``)::

    ********/OO*****O/*****@@* w p r 3 6 2 7 1 0 0 0 0 0 0 0 3

1. the 24 points, ``O`` white, ``@`` black, ``*`` empty, in three groups of
   eight joined by ``/``: inner ring, middle ring, outer ring, each from the
   top centre point clockwise (``d5 e5 e4 e3 d3 c3 c4 c5 / d6 f6 ... /
   d7 g7 g4 g1 d1 a1 a4 a7``);
2. side to move ``w`` / ``b``;
3. phase ``p`` placing, ``m`` moving, ``o`` game over (``r`` ready = placing);
   Sanmill marks a game over by blocking and by fewer than three men; its N-move
   rule only when a move beyond the limit is tried; never by repetition;
4. action ``p`` place, ``s`` select a man to move, ``r`` remove;
5. white men on the board, white in hand, black on board, black in hand;
6. men white must remove, men black must remove (1 while a removal is pending);
7. four "last mill" squares and 8. the formed-mills bitmask: both serve
   Sanmill's repeated-mill and one-time-mill variants, always 0 under our rules;
9. Sanmill's N-move counter: moves since the last placement or removal;
10. the full-move number (Sanmill counts a removal as a ply of its own).

What a FEN carries and what it does not: the men, the hands, the side to
move, a pending removal and the N-move counter; no history, so repetitions
start counting at the FEN. Sanmill's counter ignores placing turns (a
placement resets it) where ours counts every turn since the last removal:
read, the counter becomes ``Position.quiet``; written, it is the moves since
the last placement or removal (0 while placing). A pending removal (action
``r``) does not say which step closed the mill; ``game_from_fen`` names one
that fits (the first man of the side to move standing in a closed mill).

>>> game = game_from_fen("********/OO*****O/*****@@* w p r 3 6 2 7 1 0 0 0 0 0 0 0 3")
>>> game.turn, game.removable
('white', ['a1', 'a4'])
>>> to_fen(Game.from_record("d6 a1 f6 a4 b6"))
'********/OO*****O/*****@@* w p r 3 6 2 7 1 0 0 0 0 0 0 0 3'
"""

from __future__ import annotations

from .fen_text import FEN_POINTS, FenError, FenFields, parse_fen
from .game import Game
from .position import Position
from .profiles import Profile

__all__ = ["FEN_POINTS", "FenError", "FenFields", "game_from_fen", "parse_fen", "position_from_fen", "to_fen"]


def position_from_fen(text: str, profile: str | Profile = "standard") -> Position:
    """The ``Position`` of a FEN (no pending removal: use ``game_from_fen`` for those)."""
    return Position.from_fen(text, profile)


def game_from_fen(text: str, profile: str | Profile = "standard") -> Game:
    """A game starting at the FEN's position, with no history; a pending removal stays pending."""
    return Game.from_fen(text, profile)


def to_fen(source: Game | Position) -> str:
    """Sanmill's FEN of a game (its pending step applied) or of a position.

    A ``Position`` has no history: its full-move number is written as 1 and its
    counter as ``quiet`` once no men are in hand (0 while placing).
    """
    if isinstance(source, Position):
        return Game.from_position(source).fen
    if isinstance(source, Game):
        return source.fen
    raise TypeError(f"to_fen needs a Game or a Position, got {type(source).__name__}")
