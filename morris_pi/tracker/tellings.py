"""What the last rankings told, kept to be told again while only time passes.

Most rankings come while the switches are quiet, as a turn waits to be confirmed: the same
changes as the ranking before, only later. Their stories are priced again at the new time
(``stories.retell``) rather than searched for again, while the cheapest costs what it did and
every unfinished excursion is read as it was; otherwise the changes are read in full.

A telling is found by everything the stories depend on but the time and the ceiling (the
position, the setting, the game's line, the computer's prompts, how many turns, the prefix, the
changes): a telling under one ceiling serves every lower one, and every higher one when the
ceiling pruned nothing of it.

>>> tellings = Tellings()
>>> tellings.keep(("the same changes",), Telling((), 5.0, 12, ()))
>>> tellings.next_ranking()
>>> tellings.find(("the same changes",), 4.0, margin=2.0).chains
12
>>> tellings.find(("the same changes",), 6.0, margin=2.0) is None    # more may be under 6
True
>>> tellings.next_ranking(); tellings.next_ranking()
>>> tellings.find(("the same changes",), 4.0, margin=2.0) is None    # two rankings ago: forgotten
True
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from .story import Story

__all__ = ["Telling", "Tellings"]


@dataclass(frozen=True, slots=True)
class Telling:
    """The good stories one reading told (cheapest first), under which ``ceiling``, how many
    chains telling them took, and how each point's unfinished excursion was read
    (``Scorer.unfinished``)."""

    stories: tuple[Story, ...]
    ceiling: float
    chains: int
    unfinished: tuple[str, ...]

    def serves(self, ceiling: float, margin: float) -> bool:
        """Whether these stories hold every one a telling under ``ceiling`` would: the ceiling is
        no higher, or this one's pruned nothing (the cheapest and its margin were under it)."""
        return ceiling <= self.ceiling or (bool(self.stories) and self.stories[0].cost + margin <= self.ceiling)


class Tellings:
    """The tellings of the current ranking and the one before it (older ones are forgotten, so
    that what is kept stays as small as one ranking's)."""

    __slots__ = ("_before", "_now")

    def __init__(self) -> None:
        self._now: dict[Hashable, Telling] = {}
        self._before: dict[Hashable, Telling] = {}

    def next_ranking(self) -> None:
        """A new ranking begins: what the one before told is kept one ranking more."""
        self._before, self._now = self._now, {}

    def find(self, key: Hashable, ceiling: float, *, margin: float) -> Telling | None:
        """A telling of ``key`` that serves ``ceiling`` (``Telling.serves``), the latest first."""
        for kept in (self._now, self._before):
            telling = kept.get(key)
            if telling is not None and telling.serves(ceiling, margin):
                return telling
        return None

    def keep(self, key: Hashable, telling: Telling) -> None:
        self._now[key] = telling
