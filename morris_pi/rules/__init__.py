"""Floor 1: the rules of Nine Men's Morris and its profiles.

Imports nothing of ours but the root of every error, ``morris_pi.errors`` (floor 0).

>>> from morris_pi.rules import Game
>>> game = Game.from_record("d6 a1 f6 a4 b6xa1")
>>> game.turn, game.in_hand
('black', {'white': 6, 'black': 7})
>>> game
<Game standard record='d6 a1 f6 a4 b6xa1' black to move>
>>> game.position
<Position standard white=[b6 d6 f6] black=[a4] hand=(6, 7) black to move quiet=0>
>>> game.history[-1]
Turn('b6xa1')
"""

from .board import POINTS, STANDARD, Geometry, coordinates, point_index
from .errors import (
    GameOverError,
    GameTextError,
    IllegalTurnError,
    InvalidTurnError,
    RulesError,
    UnknownProfileError,
)
from .game import REASONS, Game, Outcome, Reason
from .notation import Turn, split_record
from .position import SIDES, Position, Side, other_side, perft
from .profiles import PROFILES, Profile, get_profile

__all__ = [
    "POINTS",
    "PROFILES",
    "REASONS",
    "SIDES",
    "STANDARD",
    "Game",
    "GameOverError",
    "GameTextError",
    "Geometry",
    "IllegalTurnError",
    "InvalidTurnError",
    "Outcome",
    "Position",
    "Profile",
    "Reason",
    "RulesError",
    "Side",
    "Turn",
    "UnknownProfileError",
    "coordinates",
    "get_profile",
    "other_side",
    "perft",
    "point_index",
    "split_record",
]
