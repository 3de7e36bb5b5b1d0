"""Levels 1-10: search budgets plus deliberate noise at the low end.

A level is a node budget (what makes a seeded game repeat exactly on any
machine), a time cap used only when no seed is given, an optional depth
limit, and Gaussian noise (centi-men) added to the root turns' scores before
the best is taken. The node budgets are set from ``bench/engine_speed.py`` so
that level 10 averages about a second per turn on the development machine
(three to four on a Raspberry Pi 4); the figures are in the README.

>>> LEVELS[1].noise > LEVELS[4].noise > LEVELS[9].noise > LEVELS[10].noise == 0
True
>>> [LEVELS[n].nodes < LEVELS[n + 1].nodes for n in range(5, 10)]
[True, True, True, True, True]
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from morris_pi.rules.position import Position, RawTurn

from .search import MATE_BOUND, Limits, SearchResult, Searcher


@dataclass(frozen=True)
class Level:
    number: int
    nodes: int
    seconds: float  # cap without a seed; with a seed only ``nodes`` bounds the search
    depth: int | None
    noise: int  # standard deviation of the noise on root scores, centi-men
    description: str


LEVELS: dict[int, Level] = {
    lv.number: lv
    for lv in (
        Level(1, 400, 0.5, 1, 150, "looks one turn ahead, noisy: a beginner can win"),
        Level(2, 800, 0.5, 1, 90, "one turn ahead, often careless"),
        Level(3, 1500, 0.5, 2, 60, "two turns ahead, noisy"),
        Level(4, 3000, 0.6, 3, 35, "three turns ahead, a little noisy"),
        Level(5, 2000, 0.6, None, 20, "short search, some noise"),
        Level(6, 5000, 0.8, None, 14, "short search, slight noise"),
        Level(7, 10000, 1.2, None, 8, "club player"),
        Level(8, 25000, 2.0, None, 5, "strong"),
        Level(9, 55000, 3.0, None, 2, "stronger"),
        Level(10, 120000, 5.0, None, 0, "full strength within about a second here"),
    )
}


def get_level(number: int) -> Level:
    try:
        return LEVELS[int(number)]
    except (KeyError, TypeError, ValueError):
        raise ValueError(f"unknown level {number!r}: levels are 1 to 10") from None


def level_limits(level: Level, seeded: bool) -> Limits:
    return Limits(depth=level.depth, nodes=level.nodes, time=None if seeded else level.seconds)


def pick(result: SearchResult, noise: int, rng: random.Random) -> RawTurn | None:
    """The turn to play: the best, or with ``noise`` the best of the noisy root scores.

    Known wins and losses are never blurred, so every level takes a win it sees.
    """
    if not noise or not result.root_scores:
        return result.turn
    best, best_turn = None, result.turn
    for turn in sorted(result.root_scores):  # sorted: the same choice for the same seed
        s = result.root_scores[turn]
        if abs(s) <= MATE_BOUND:
            s += rng.gauss(0.0, noise)
        if best is None or s > best:
            best, best_turn = s, turn
    return best_turn


def think(
    searcher: Searcher,
    position: Position,
    history,
    level: Level,
    rng: random.Random,
    *,
    seeded: bool,
    stop_flag=None,
    restrict=None,
) -> tuple[RawTurn | None, SearchResult]:
    """Search at ``level`` and choose a turn (noise included)."""
    result = searcher.search(
        position, history, level_limits(level, seeded),
        all_scores=level.noise > 0, stop_flag=stop_flag, restrict=restrict,
    )
    return pick(result, level.noise, rng), result
