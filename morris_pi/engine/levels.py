"""Levels 1-10: search budgets plus deliberate noise at the low end.

A level is a node budget (what makes a seeded game repeat exactly on any
machine), a time cap used only when no seed is given, an optional depth
limit, and Gaussian noise (centi-men) added to the root turns' scores before
the best is taken. The noise costs no depth: the search runs as usual and only
proves the exact scores of the root turns within ``NOISE_MARGIN`` standard
deviations of the best (the rest fail low cheaply); the noise chooses among
those. The node budgets are set from ``bench/engine_speed.py`` so
that level 10 averages about a second per turn on the development machine
(three to four on a Raspberry Pi 4); the figures are in the README.

Each level is less noisy than the one below it, and from level 5 up (no depth
limit) each searches more nodes, at least twice as many from level 7 up:

>>> [LEVELS[n].noise > LEVELS[n + 1].noise for n in range(1, 10)]
[True, True, True, True, True, True, True, True, True]
>>> [LEVELS[n + 1].nodes / LEVELS[n].nodes >= (2 if n >= 6 else 1.5) for n in range(5, 10)]
[True, True, True, True, True]

The node budgets grow with the level except once, from level 4 to level 5, and
on purpose. Levels 1-4 are bounded by their depth (one to three turns), not by
their nodes: their budget is only a ceiling for the rare position whose depth
costs more than usual (in sixty positions of the speed bench's games, level 3
reached its 1,500 nodes once and level 4 its 3,000 three times; levels 1 and 2
never used more than 107). Level 5 is the first level without a depth limit,
the first that the nodes bound (54 of those 60 searches): it deepens as far as
900 nodes go, two to five turns in the middle game and further in endgames. A
level 4 ceiling of 900 would cut its three-turn searches short in 33 of those
60 positions; a level 5 budget of 3,000 would make it a different level. The
strength still grows: level 5 beats level 4 (the ladder, bench/results/match.md).

>>> [n for n in range(1, 10) if LEVELS[n + 1].nodes < LEVELS[n].nodes]  # the one exception, see above
[4]
>>> all(LEVELS[n].depth is not None for n in range(1, 5)) and LEVELS[5].depth is None
True
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from morris_pi.rules.position import Position, RawTurn

from .book import opening_book
from .search import MATE_BOUND, Limits, Searcher, SearchResult, StopFlag

#: Root turns further than this many noise deviations below the best are never chosen.
NOISE_MARGIN = 3


@dataclass(frozen=True)
class Level:
    """One level's settings; ``LEVELS`` holds the ten."""

    number: int
    nodes: int  # the node budget: what bounds the search from level 5 up, a ceiling below (see above)
    seconds: float  # cap without a seed; with a seed only ``nodes`` bounds the search
    depth: int | None
    noise: int  # standard deviation of the noise on root scores, centi-men
    description: str
    book: bool = True  # play the opening book's turns where it has one
    placing_extension: int = 0  # moving turns searched at least after the last placement (``Searcher``)
    placing_nodes: int | None = None  # node budget while a side has men in hand (None: ``nodes``)


LEVELS: dict[int, Level] = {
    lv.number: lv
    for lv in (
        Level(1, 400, 0.5, 1, 150, "looks one turn ahead, noisy: a beginner can win", book=False),
        Level(2, 800, 0.5, 1, 65, "one turn ahead, often careless", book=False),
        Level(3, 1500, 0.5, 2, 60, "two turns ahead, noisy", book=False),
        Level(4, 3000, 0.6, 3, 45, "three turns ahead, noisy", book=False),
        Level(5, 900, 0.6, None, 32, "short search, noisy", book=False),
        Level(6, 2200, 0.7, None, 20, "short search, some noise"),
        Level(7, 4500, 0.8, None, 15, "club player"),
        Level(8, 12000, 1.2, None, 9, "strong"),
        Level(9, 30000, 2.5, None, 6, "stronger"),
        Level(10, 85000, 5.0, None, 0, "full strength within about a second here", placing_extension=2),
    )
}


def get_level(number: int) -> Level:
    try:
        return LEVELS[int(number)]
    except (KeyError, TypeError, ValueError):
        raise ValueError(f"unknown level {number!r}: levels are 1 to 10") from None


def level_limits(level: Level, seeded: bool, placing: bool = False) -> Limits:
    """The search limits of ``level``; ``placing``: a side still has men in hand.

    >>> from dataclasses import replace
    >>> level_limits(replace(LEVELS[10], placing_nodes=150000), seeded=True, placing=True).nodes
    150000
    """
    nodes = level.placing_nodes if placing and level.placing_nodes else level.nodes
    time = None if seeded else level.seconds * nodes / level.nodes  # the cap scales with the budget
    return Limits(depth=level.depth, nodes=nodes, time=time)


def margin(level: Level) -> int | None:
    """How far below the best a root turn may score and still be chosen (``None``: only the best)."""
    return NOISE_MARGIN * level.noise if level.noise else None


def pick(result: SearchResult, noise: int, rng: random.Random) -> RawTurn | None:
    """The turn to play: the best, or with ``noise`` the best of the noisy root scores.

    Only turns proven within ``NOISE_MARGIN * noise`` of the best take part. Known wins
    and losses are never blurred, so every level takes a win it sees.
    """
    if not noise or not result.root_scores:
        return result.turn
    floor = result.score - NOISE_MARGIN * noise
    best: float | None = None
    best_turn = result.turn
    for turn in sorted(result.root_scores):  # sorted: the same choice for the same seed
        s: float = result.root_scores[turn]
        if s < floor:
            continue
        if abs(s) <= MATE_BOUND:
            s += rng.gauss(0.0, noise)
        if best is None or s > best:
            best, best_turn = s, turn
    return best_turn


def think(
    searcher: Searcher,
    position: Position,
    history: Sequence[Position],
    level: Level,
    rng: random.Random,
    *,
    seeded: bool,
    stop_flag: StopFlag | None = None,
    restrict: Iterable[RawTurn] | None = None,
) -> tuple[RawTurn | None, SearchResult]:
    """Search at ``level`` and choose a turn (noise included); book turns where the level uses the book."""
    if level.book and restrict is None:
        book = opening_book(position.profile)
        hit = book.entry(position) if book is not None else None
        if hit is not None:
            turn, entry = hit
            return turn, SearchResult(turn, entry.score, entry.depth, 0, 0.0, [turn], book=True)
    result = searcher.search(
        position,
        history,
        level_limits(level, seeded, placing=position.hand != (0, 0)),
        margin=margin(level),
        stop_flag=stop_flag,
        restrict=restrict,
        placing_extension=level.placing_extension,
    )
    return pick(result, level.noise, rng), result
