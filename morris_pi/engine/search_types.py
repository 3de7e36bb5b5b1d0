"""What a search is asked and what it answers: score constants, limits, the stop flag, the result.

Kept apart from the search so that callers (levels, the player, ``analyze``) read the
values without the search itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from morris_pi.rules.position import RawTurn

from .evaluate import WIN_SCORE

MATE = WIN_SCORE
MATE_BOUND = MATE - 1000  # scores beyond this are known wins/losses
INF = MATE + 1


class StopFlag(Protocol):
    """What the search asks every ``CHECK_EVERY`` nodes whether to stop (e.g. a ``threading.Event``)."""

    def is_set(self) -> bool: ...


class _Stop(Exception):
    pass


@dataclass
class Limits:
    """When to stop: any of maximum depth (turns), nodes, seconds, or an external stop flag."""

    depth: int | None = None
    nodes: int | None = None
    time: float | None = None


@dataclass
class SearchResult:
    turn: RawTurn | None
    score: int
    depth: int
    nodes: int
    time: float
    pv: list[RawTurn] = field(default_factory=list)
    #: Scores of every root turn from the last completed iteration (``all_scores`` searches only).
    root_scores: dict[RawTurn, int] = field(default_factory=dict)
    #: The turn came from the opening book (score and depth are the book search's).
    book: bool = False


def score_form(score: int) -> int | dict[str, int]:
    """A score as JSON: centi-men, or ``{"win_in": n}`` / ``{"loss_in": n}`` turns for known results."""
    if score > MATE_BOUND:
        return {"win_in": MATE - score}
    if score < -MATE_BOUND:
        return {"loss_in": MATE + score}
    return score
