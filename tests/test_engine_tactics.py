"""Tactics and endgames from real play: the positions are game records of seeded engine
self-play (levels 3-6 against each other), picked where a deep search showed one clear idea.
"""

from __future__ import annotations

import pytest

from morris_pi.engine.egtb import tables_for_profile
from morris_pi.engine.player import EnginePlayer
from morris_pi.engine.search import Limits, Searcher, score_form
from morris_pi.rules import Game

BUDGET = Limits(nodes=4000)

MILL_IN_ONE = [
    "d6 f4 d2 b4 b6 f6 f2 b2 g4 d7 d1 d3 g1 a1 g7xd3 d3 a7 a4 d6-d5 d3-c3 b6-d6",
    "a7 a4 e4 f4 d1 f6 f2 b4 c4 b6 d3 d2 c3",
]

BLOCKS = [
    # Known departure: with the heavier space terms (issue 10, second pass) Black lets White
    # close b6-d6-f6 here and plays d7 (searches of 4,000 and 30,000 nodes; 5,000-20,000
    # block with f6). Those weights scored better against Sanmill; strict, so that a change
    # that makes the engine block again shows up here.
    pytest.param(
        "d6 f4 d2 b4 b6",
        marks=pytest.mark.xfail(strict=True, reason="the space terms give up a man here for room"),
    ),
    "d6 c5 c4 a4 b6 f6 b2 b4 d2 f2 f4 e5 d5 d7 d3 d1 e3 c3 e3-e4 d1-a1 d2-d1 f2-d2 d1-g1 d7-a7xe4 d6-d7 "
    "f6-d6 d7-g7 e5-e4 f4-g4xb4",
]

DOUBLE_MILLS = [
    "e4 g1 f6 a1 d1 a4 a7 b4 c4 f4 e3 e5 c3 d3 c5xd3 d3 g7 b6",
    "d5 e3 f4 d6 d3 g1 g4 e4 e5 c5 c4 b4 f6 f2 d2 d1 a1 b2 a1-a4 d6-b6xd2 f6-d6 b2-d2 a4-a7 b4-b2xd6 a7-a4",
]

# A position with two good plans: an unparried double mill wins a man, but the opponent is
# nearly shut in (one movable man), and smothering it (a side that cannot move loses) may be
# worth more. (The placing position "d6 f4 d2 b4 b6 f6 f2 b2 g4 d7 d1 d3", where g1 sets up
# a double mill, was dropped: deeper searches of the earlier evaluation chose other turns
# too, e4 at 20,000 nodes and e5 at 60,000, so the right plan there is not known.)
DOUBLE_MILL_OR_BLOCKADE = [
    "d6 f4 d2 b4 b6 f6 f2 b2 g4 d7 d1 d3 g1 a1 g7xd3 d3 a7 a4 d6-d5",
]

ENDGAME_A = (
    "d6 c5 e3 c3 f4 e5 d1 c4xd6 d5 a1 f2 d6 b2 d2 e4 a4 f6xd2 b4xd5 d1-d2xe5 c5-d5 f4-g4 a4-a7 "
    "g4-f4xd5 d6-d5 f4-g4 d5-c5xe4 e3-e4 a7-a4xe4 f2-f4 a4-a7 f4-f2xb4 c4-b4 g4-f4xb4 c5-d5 f6-d6 "
    "c3-c4 b2-b4 c4-c3 b4-b2xa7 d5-f6 d2-d1 a1-d2 f4-g4 f6-e3 d6-d7 e3-c5 d1-a1 d2-e3 g4-f4 c5-d3xa1 "
    "f2-d2 e3-f2 d7-a7 c3-f6 a7-d7 d3-a4 d2-d3 f2-g4 d7-d6 f6-c5 f4-f6 a4-a1 d6-b6 a1-e3 f6-d6 g4-f4 "
    "d3-c3 e3-e4 b2-d2 e4-a7 d6-d7 c5-g1 b6-d6 f4-e4 d2-b2 a7-b6 d6-f6 g1-d3 c3-c4 b6-a4 f6-d6 a4-e3 "
    "d6-b6 e3-b4 d7-g7 e4-a1 g7-g4 a1-c3 g4-g1 c3-d5 b2-d2 b4-g7 c4-b4 d5-b2 b6-d6 d3-d1 b4-a4 g7-f4 "
    "d6-d5 f4-e4 a4-a7 d1-c5 d2-d1 b2-d7 g1-g4 c5-e3 d5-e5 e3-d3 g4-f4 d3-a4 d1-d2 e4-d5 d2-d1 d5-b6 "
    "f4-f6 b6-e4 f6-f4 e4-g4 e5-e4 g4-g1 f4-f6 g1-b4 e4-e3 d7-a1 f6-d6 b4-d5 d6-f6 a1-b6 d1-d2 d5-f2 "
    "d2-d3 f2-d5 d3-d2 b6-a1 f6-d6 "
)

ENDGAME_B = (
    "g1 d3 c3 d2 d1 f6 a1xd3 b4 f4 g4 c5 f2 c4xf2 d7 e5 d5 a7 d6xa7 c3-d3 b4-b6xc4 d3-e3 d7-a7 "
    "f4-e4xg4 b6-b4 e3-d3 a7-d7xd3 e4-f4 b4-b6xf4 c5-c4 b6-b4 a1-a4 b4-b6xg1 c4-b4 d2-b2 a4-a7 d7-g7 "
    "d1-g1 g7-d7xb4 a7-g7 b2-d2 e5-g4xd2 d5-e5 g7-d5 d7-g7 g4-c5 d6-d7 g1-d6 f6-f4 d5-d3 f4-f6 d3-d5 "
    "b6-b4 d5-d3 f6-f4 d6-c3 f4-f6 d3-c4xb4 g7-g4 c5-d6 e5-e4 d6-f4 e4-e5 f4-a1 e5-d5 c3-d6 d5-c5 "
    "a1-e5 d7-g7 c4-f2 f6-f4 e5-d3 c5-c4 f2-d5 f4-f6 d6-e4 g7-d7 d3-a7 c4-c3 d5-f2 d7-g7 a7-a4 f6-f4 "
    "e4-d2 c3-d3 a4-c5 d3-c3 d2-d3 f4-e4 d3-c4 c3-d3 c4-d7 e4-e5 d7-b6 e5-e4 f2-d7 g4-g1 d7-f6 e4-e5 "
    "c5-a4 d3-c3 f6-b4 e5-d5 a4-e4 g7-g4 e4-a7 d5-c5 b6-a1 g4-f4 a1-d2 g1-d1 b4-a1 d1-g1 a7-d3 g1-g4 "
    "d3-a4 g4-g7 a4-e3 f4-f2 e3-g4 g7-d7 g4-d5 c3-c4 d5-f4 c4-b4 a1-d5 d7-d6 d5-d3 c5-c4 d2-d1 d6-f6 "
    "d1-a7 b4-a4 "
)


def captures(pos):
    return [t for t in pos.turns() if t[2] >= 0]


def best_turn(record: str):
    game = Game.from_record(record)
    searcher = Searcher("standard")
    result = searcher.search(game.position, game.positions, BUDGET)
    assert result.turn in game.position.turns()
    return game.position, result


@pytest.mark.parametrize("record", MILL_IN_ONE)
def test_closes_a_mill_in_one(record):
    pos, result = best_turn(record)
    assert captures(pos)
    assert result.turn[2] >= 0, "the engine should close the mill and remove a man"


@pytest.mark.parametrize("record", BLOCKS)
def test_blocks_the_opponents_mill_in_one(record):
    pos, result = best_turn(record)
    assert not captures(pos)  # nothing to take first
    after = pos.play(result.turn)
    assert not captures(after), "after the engine's turn the opponent must not be able to close a mill"


@pytest.mark.parametrize("record", DOUBLE_MILLS)
def test_sets_up_a_double_mill_that_cannot_be_parried(record):
    pos, result = best_turn(record)
    assert not captures(pos)  # not a plain mill-in-one
    after = pos.play(result.turn)
    replies = after.turns()
    assert replies
    for reply in replies:
        assert reply[2] < 0
        assert captures(after.play(reply)), f"reply {reply} parries the threat"


def movable_men(pos, side):
    empty = ~(pos.men[0] | pos.men[1])
    return sum(1 for i in range(24) if pos.men[side] >> i & 1 and pos.tables.adjacency[i] & empty)


def unparried(after) -> bool:
    return all(reply[2] < 0 and captures(after.play(reply)) for reply in after.turns())


@pytest.mark.parametrize("record", DOUBLE_MILL_OR_BLOCKADE)
def test_takes_an_unparried_double_mill_or_shuts_the_opponent_in(record):
    pos, result = best_turn(record)
    after = pos.play(result.turn)
    opponent = after.side
    if after.hand[opponent] == 0:
        squeezed = movable_men(after, opponent) <= 1
    else:  # still placing: count the men that could move if moving started now
        squeezed = movable_men(after, opponent) <= 2
    assert unparried(after) or squeezed, f"{result.turn}: neither a sure mill nor a blockade"


@pytest.mark.parametrize("record, men", [(ENDGAME_A, (3, 4)), (ENDGAME_B, (3, 4))])
def test_converts_a_won_endgame_against_a_defender(record, men):
    game = Game.from_record(record)
    pos = game.position
    assert (pos.men[pos.side].bit_count(), pos.men[pos.side ^ 1].bit_count()) == men
    code = tables_for_profile("standard").probe(pos.men[pos.side], pos.men[pos.side ^ 1])
    distance = code - 1
    assert distance % 2 == 1, "the tables call this a win for the side to move"
    winner = game.turn
    attacker = EnginePlayer(6, seed=1, threaded=False)
    defender = EnginePlayer(6, seed=2, threaded=False)  # tables too: it resists longest
    attacker.start(game)
    assert score_form(attacker.last.score) == {"win_in": distance}
    played = 0
    while not game.is_over:
        player = attacker if game.turn == winner else defender
        player.start(game)
        game.play(player.result())
        played += 1
    assert game.outcome.winner == winner
    assert played <= distance
