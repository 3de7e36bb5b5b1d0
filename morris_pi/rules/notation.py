"""Turns as value objects and their notation.

One turn, one token: a placement ``d6``, a move ``a1-a4``, and a removal written
after the step that earned it: ``d6xa1``, ``a1-a4xg7``. Sanmill writes the
removal as a token of its own (``d6 xa1``); records in either form are read,
and ``sanmill_record`` writes that form.

>>> Turn.parse("a1-a4xg7")
Turn('a1-a4xg7')
>>> str(Turn("d6", removal="a1"))
'd6xa1'
>>> split_record("d6 xa1 a4")
['d6xa1', 'a4']
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from .board import INDEX, POINTS
from .errors import InvalidTurnError

_TURN = re.compile(r"^(?:([a-g][1-7])-)?([a-g][1-7])(?:x([a-g][1-7]))?$")
_REMOVAL = re.compile(r"^x([a-g][1-7])$")


def _check_point(point: str, text: str) -> None:
    if point not in INDEX:
        raise InvalidTurnError(f"{text}: {point} is not a point of the board")


@dataclass(frozen=True, slots=True)
class Turn:
    """A placement (no ``origin``) or a move, with the removal it earned, if any."""

    target: str
    origin: str | None = None
    removal: str | None = None

    def __post_init__(self) -> None:
        text = self.__str__()
        for point in (self.target, self.origin, self.removal):
            if point is not None:
                _check_point(point, text)

    @classmethod
    def parse(cls, text: str) -> Turn:
        """Read one turn token; ``InvalidTurnError`` says what is wrong with it."""
        if not isinstance(text, str):
            raise InvalidTurnError(f"a turn must be text like 'd6' or 'a1-a4xg7', got {text!r}")
        token = text.strip()
        match = _TURN.match(token)
        if not match:
            raise InvalidTurnError(
                f"{token or repr(text)}: not a turn; write a placement 'd6', a move 'a1-a4', "
                "and a removal after it: 'd6xa1', 'a1-a4xg7'"
            )
        origin, target, removal = match.groups()
        return cls(target, origin, removal)

    @classmethod
    def from_raw(cls, raw: tuple[int, int, int]) -> Turn:
        origin, target, removal = raw
        return cls(
            POINTS[target],
            POINTS[origin] if origin >= 0 else None,
            POINTS[removal] if removal >= 0 else None,
        )

    def to_raw(self) -> tuple[int, int, int]:
        return (
            INDEX[self.origin] if self.origin else -1,
            INDEX[self.target],
            INDEX[self.removal] if self.removal else -1,
        )

    @property
    def is_placement(self) -> bool:
        return self.origin is None

    @property
    def step(self) -> Turn:
        """The placement or move without its removal."""
        return Turn(self.target, self.origin)

    def with_removal(self, point: str) -> Turn:
        return Turn(self.target, self.origin, point)

    def __str__(self) -> str:
        text = f"{self.origin}-{self.target}" if self.origin else self.target
        return f"{text}x{self.removal}" if self.removal else text

    def __repr__(self) -> str:
        return f"Turn({str(self)!r})"


def parse_removal(text: str) -> str | None:
    """The point of a lone removal token ``xa1`` (Sanmill's form), else ``None``."""
    match = _REMOVAL.match(text.strip()) if isinstance(text, str) else None
    if not match:
        return None
    _check_point(match.group(1), text)
    return match.group(1)


def split_record(record: str) -> list[str]:
    """Turn tokens of a record in either form; a lone removal joins the step before it."""
    tokens: list[str] = []
    for token in record.split():
        if token.startswith("x"):
            if not tokens or "x" in tokens[-1]:
                after = f" ({tokens[-1]} already has its removal)" if tokens else ""
                raise InvalidTurnError(
                    f"turn {len(tokens) + 1}: {token}: a removal must follow the step that earned it{after}"
                )
            tokens[-1] += token
        else:
            tokens.append(token)
    return tokens


def sanmill_form(turns: Iterable[Turn]) -> str:
    """Sanmill's ply form of a list of turns: removals as tokens of their own."""
    out: list[str] = []
    for turn in turns:
        out.append(str(turn.step))
        if turn.removal:
            out.append(f"x{turn.removal}")
    return " ".join(out)
