"""Placing depth (issue 10): ``Searcher(placing_extension=N)`` searches a line whose last
placement falls near the horizon on until it has seen N moving turns.

Positions come from games against Sanmill in ``bench/runs`` (the first from the run of
engine 78630d1, the rest from the second pass's 40-game run).
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest

from morris_pi.engine.levels import get_level, think
from morris_pi.engine.search import Limits, Searcher, score_form
from morris_pi.rules import Game, Turn

RUNS = Path(__file__).resolve().parents[1] / "bench" / "runs"

#: White to place its last man; after f6 e4 Black shuts White in (see the trap test).
TRAP = "e3 f2 d6 b4 c3 d3 d5 d7 c5 e5 c4xd7 d7 d2 g7 a7 f4"

#: Searched by the code before the option existed: (record, limits) -> (nodes, turn, score, depth).
BEFORE = [
    ("g1 d6 f4 g7 d2 d7 d5 a7xd5 d5 b2 b4 d1 e4", Limits(depth=5), (4299, "c4", -60, 5)),
    ("g1 d6 f4 g7 d2 d7 d5 a7xd5 d5 b2 b4 d1 e4", Limits(nodes=6000), (6144, "c4", -60, 5)),
    ("g1 e4 d6 d2 b4 f4 g4 g7 b6 f6 f2 b2 d5", Limits(depth=5), (2663, "d7", 33, 5)),
    ("g1 e4 d6 d2 b4 f4 g4 g7 b6 f6 f2 b2 d5", Limits(nodes=6000), (6144, "d7", -21, 6)),
    ("g4 c5 d2 d6 f4 e4 b4 d5 e5 d7xe5 e5 c3 c4 a4 b2 b6", Limits(depth=5), (2519, "f2xa4", -99, 5)),
    ("g4 c5 d2 d6 f4 e4 b4 d5 e5 d7xe5 e5 c3 c4 a4 b2 b6", Limits(nodes=6000), (6144, "f2xa4", -136, 6)),
    (
        "g7 d6 d2 b4 a7 d7 d5 b6 f6 b2xd5 d5 f4 a1 a4 c4 e4 g4 g1 a1-d1 e4-e3 d5-e5 e3-d3 e5-d5 a4-a1 "
        "a7-a4 d3-c3 d5-e5 d6-d5 f6-d6 c3-d3",
        Limits(nodes=6000),
        (6144, "e5-e4", -70, 9),
    ),
]


def search(record: str, limits: Limits, extension: int, **kwargs):
    game = Game.from_record(record)
    return Searcher("standard", placing_extension=extension).search(game.position, game.positions, limits, **kwargs)


@pytest.mark.parametrize("searcher", [{}, {"placing_extension": 0}], ids=["default", "off"])
@pytest.mark.parametrize(("record", "limits", "expected"), BEFORE)
def test_off_is_the_search_of_before(searcher, record, limits, expected):
    game = Game.from_record(record)
    r = Searcher("standard", **searcher).search(game.position, game.positions, limits)
    assert (r.nodes, str(Turn.from_raw(r.turn)), r.score, r.depth) == expected


def test_the_extension_sees_the_blocking_trap_the_plain_search_misses():
    # f6 looks best to the plain search at depth 3 (its leaves stop at the end of placing);
    # two moving turns further White's men are short of room, and f6 scores more than a man
    # below the best
    plain = search(TRAP, Limits(depth=3), 0, all_scores=True)
    extended = search(TRAP, Limits(depth=3), 2, all_scores=True)
    f6 = Turn.parse("f6").to_raw()
    assert plain.turn == f6 and plain.root_scores[f6] == max(plain.root_scores.values())
    assert extended.turn != f6
    assert extended.root_scores[f6] < extended.score - 100
    # and f6 is a trap: after Black's last placement e4 Black shuts White in
    game = Game.from_record(f"{TRAP} f6 e4")
    r = Searcher("standard").search(game.position, game.positions, Limits(depth=8))
    assert score_form(r.score) == {"loss_in": 8}
    line = Game.from_record(f"{TRAP} f6 e4")
    for turn in r.pv:
        line.play(Turn.from_raw(turn))
    assert line.outcome is not None and line.outcome.reason == "blocked" and line.outcome.winner == "black"


def test_the_extension_leaves_positions_far_from_the_end_of_placing_alone():
    # from turn 11 a depth-3 search ends five placements before moving starts
    game = Game.from_record("g1 e4 d6 d2 b4 f4 g4 g7 b6 f6")
    plain = Searcher("standard").search(game.position, game.positions, Limits(depth=3))
    extended = Searcher("standard", placing_extension=2).search(game.position, game.positions, Limits(depth=3))
    assert (extended.nodes, extended.turn, extended.score) == (plain.nodes, plain.turn, plain.score)


def test_the_extension_is_bounded():
    # each line leaves the placing phase once, so it is extended once by at most two turns:
    # over 24 placing positions of real games the nodes of a depth-3 search grow about 2.2x
    # (the worst position 8x: there nearly every leaf is the first moving position)
    records = []
    for line in (RUNS / "level10-skill10.jsonl").read_text().splitlines()[:40:5]:
        turns = json.loads(line)["record"].split()
        records += [" ".join(turns[:n]) for n in (13, 15, 17)]
    totals = {0: 0, 2: 0}
    for record in records:
        nodes = {e: search(record, Limits(depth=3), e).nodes for e in totals}
        assert nodes[2] <= 12 * nodes[0], record
        totals[0] += nodes[0]
        totals[2] += nodes[2]
    assert totals[0] < totals[2] < 3 * totals[0]


def test_a_level_searches_with_its_own_extension_and_leaves_the_searcher_as_it_was():
    # one searcher serves a player's level and its hints: each search takes its level's setting
    game = Game.from_record(TRAP)
    searcher = Searcher("standard")
    level = replace(get_level(10), depth=3, placing_extension=2)
    turn, _ = think(searcher, game.position, game.positions, level, random.Random(0), seeded=True)
    assert str(Turn.from_raw(turn)) != "f6" and searcher.placing_extension == 0
    searcher.clear()  # as a seeded player does before each search
    turn, _ = think(
        searcher, game.position, game.positions, replace(level, placing_extension=0), random.Random(0), seeded=True
    )
    assert str(Turn.from_raw(turn)) == "f6" and searcher.placing_extension == 0


def test_a_search_may_set_its_own_extension():
    game = Game.from_record(TRAP)
    searcher = Searcher("standard", placing_extension=2)
    extended = searcher.search(game.position, game.positions, Limits(depth=3))
    searcher.clear()
    plain = searcher.search(game.position, game.positions, Limits(depth=3), placing_extension=0)
    assert str(Turn.from_raw(plain.turn)) == "f6" != str(Turn.from_raw(extended.turn))
    with pytest.raises(ValueError, match="placing_extension 5"):
        searcher.search(game.position, game.positions, Limits(depth=3), placing_extension=5)


def test_a_level_can_spend_more_nodes_while_placing():
    level = replace(get_level(10), nodes=2000, placing_nodes=5000)
    for record, budget in ((TRAP, 5000), (BEFORE[-1][0], 2000)):
        game = Game.from_record(record)
        _, result = think(Searcher("standard"), game.position, game.positions, level, random.Random(0), seeded=True)
        assert budget <= result.nodes < budget + 256, record  # the stop check comes every 256 nodes


def test_the_extension_is_checked():
    with pytest.raises(ValueError, match="placing_extension 5"):
        Searcher("standard", placing_extension=5)
