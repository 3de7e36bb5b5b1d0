"""The computer side of a generated game: the same choice ``morris-pi replay`` will make.

Replay plays the computer side with the first legal turn when the trace header
has no ``level``, else with the engine at that level and the header's ``seed``
(node budgets only, so the same position gets the same turn on any machine).
The generator asks the same player, so the record it expects is the one replay
will prompt.

>>> from morris_pi.rules import Game
>>> str(FirstLegal()(Game())), FirstLegal().header
('a7', {})
"""

from __future__ import annotations

from typing import Protocol

from morris_pi.engine.player import EnginePlayer
from morris_pi.rules import Game, Turn


class Computer(Protocol):
    #: What the trace header must carry for replay to play the same way.
    header: dict[str, int]

    def __call__(self, game: Game) -> Turn: ...


class FirstLegal:
    """Replay's player without a ``level``: the first legal turn."""

    def __init__(self) -> None:
        self.header: dict[str, int] = {}

    def __call__(self, game: Game) -> Turn:
        return game.legal_turns()[0]


class Engine:
    """Replay's player with ``level`` and ``seed``: the engine, searching at once."""

    def __init__(self, level: int, seed: int) -> None:
        self.header = {"level": level, "seed": seed}
        self._player = EnginePlayer(level, seed=seed, threaded=False)

    def __call__(self, game: Game) -> Turn:
        self._player.start(game)
        turn = self._player.result()
        if turn is None:
            raise RuntimeError(f"the engine found no turn after {game.record!r}")
        return turn
