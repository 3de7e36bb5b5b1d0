"""Errors of the rules layer. All subclass ``MorrisPiError`` and ``ValueError``; a refused call changes nothing."""

from __future__ import annotations

from morris_pi.errors import MorrisPiError


class RulesError(MorrisPiError, ValueError):
    """Base class of every error the rules layer raises for bad input."""


class UnknownProfileError(RulesError):
    """A rule profile name that does not exist."""


class InvalidTurnError(RulesError):
    """Text that is not a turn in the notation, or names a point that does not exist."""


class IllegalTurnError(RulesError):
    """A well-formed turn that the rules do not allow now.

    ``turn`` is the text, ``side`` the side to move and ``reason`` why not.
    """

    def __init__(self, turn: str, side: str, reason: str, where: str = "") -> None:
        prefix = f"{where}: " if where else ""
        super().__init__(f"{prefix}{turn}: {reason} ({side} to move)")
        self.turn = turn
        self.side = side
        self.reason = reason


class GameOverError(RulesError):
    """A turn or claim after the game has ended."""


class GameTextError(RulesError):
    """A saved game text that is corrupt or inconsistent."""
