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

# Positions of those games, each with what the search must find there, at a fixed depth and
# on a node budget alike (a change in how many nodes a search takes does not change them).
LIMITS = [Limits(depth=5), Limits(nodes=6000)]

#: Black to place: White threatens the mill e4-f4-g4 at g4, and e5 next would threaten both
#: c5-d5-e5 and e5-e4-e3; Black cannot keep all its men.
CANNOT_SAVE = "g1 d6 f4 g7 d2 d7 d5 a7xd5 d5 b2 b4 d1 e4"
#: Black to place: White threatens the mill d7-d6-d5 at d7.
THREATENED = "g1 e4 d6 d2 b4 f4 g4 g7 b6 f6 f2 b2 d5"
#: White to place: f2 closes the mill b2-d2-f2.
MILL_AT_F2 = "g4 c5 d2 d6 f4 e4 b4 d5 e5 d7xe5 e5 c3 c4 a4 b2 b6"
#: White to move: its man on d2 shuts Black's mill b6-b4-b2 in; if it leaves, b2-d2 and back
#: closes that mill again every second turn.
SHUT_MILL = (
    "g7 d6 d2 b4 a7 d7 d5 b6 f6 b2xd5 d5 f4 a1 a4 c4 e4 g4 g1 a1-d1 e4-e3 d5-e5 e3-d3 e5-d5 a4-a1 "
    "a7-a4 d3-c3 d5-e5 d6-d5 f6-d6 c3-d3"
)


def search(record: str, limits: Limits, extension: int, **kwargs):
    game = Game.from_record(record)
    return Searcher("standard", placing_extension=extension).search(game.position, game.positions, limits, **kwargs)


def scores(result) -> dict[str, int]:
    return {str(Turn.from_raw(turn)): score for turn, score in result.root_scores.items()}


@pytest.mark.parametrize("limits", LIMITS, ids=str)
def test_the_search_blocks_the_mill_the_other_side_threatens(limits):
    r = search(THREATENED, limits, 0, all_scores=True)
    assert str(Turn.from_raw(r.turn)) == "d7"
    assert all(score < r.score for turn, score in scores(r).items() if turn != "d7")


def test_every_other_placement_lets_the_threatened_mill_close():
    # White closes d7 at once, or first blocks a mill Black threatens in reply and closes d7 next
    game = Game.from_record(THREATENED)
    for turn in game.legal_turns():
        if str(turn) == "d7":
            continue
        reply = search(f"{THREATENED} {turn}", Limits(depth=4), 0)
        whites = [str(Turn.from_raw(raw)) for raw in reply.pv[0:4:2]]
        assert any(white.startswith("d7x") for white in whites), (turn, whites)


@pytest.mark.parametrize("limits", LIMITS, ids=str)
def test_the_search_closes_its_mill_and_takes_a_man(limits):
    r = search(MILL_AT_F2, limits, 0, all_scores=True)
    assert str(Turn.from_raw(r.turn)).startswith("f2x")
    assert all(score < r.score for turn, score in scores(r).items() if "x" not in turn)


@pytest.mark.parametrize("limits", LIMITS, ids=str)
def test_the_search_gives_up_the_man_it_cannot_save_rather_than_block_in_vain(limits):
    # blocking g4 meets the fork at e5; c4 lets the man go at once and keeps the best game
    r = search(CANNOT_SAVE, limits, 0, all_scores=True)
    assert str(Turn.from_raw(r.turn)) == "c4"
    assert r.score < 0 and scores(r)["g4"] < r.score


@pytest.mark.parametrize("limits", LIMITS, ids=str)
def test_the_search_keeps_the_man_that_shuts_the_other_sides_mill_in(limits):
    r = search(SHUT_MILL, limits, 0, all_scores=True)
    assert str(Turn.from_raw(r.turn)) != "d2-f2"
    assert scores(r)["d2-f2"] < r.score - 300  # three men and more
    # and the running mill is there: after d2-f2 Black opens it at once
    reply = search(f"{SHUT_MILL} d2-f2", limits, 0)
    assert str(Turn.from_raw(reply.turn)) == "b2-d2" and reply.score > 300


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
    for record, budget in ((TRAP, 5000), (SHUT_MILL, 2000)):
        game = Game.from_record(record)
        _, result = think(Searcher("standard"), game.position, game.positions, level, random.Random(0), seeded=True)
        assert budget <= result.nodes < budget + 256, record  # the stop check comes every 256 nodes


def test_the_extension_is_checked():
    with pytest.raises(ValueError, match="placing_extension 5"):
        Searcher("standard", placing_extension=5)
