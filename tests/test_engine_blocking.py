"""Blocking: the engine must not smother itself. Positions from issue 10's lost game (level 10
as Black against Sanmill skill 10), where Black left the placing phase with one empty point
next to its men and was shut in.
"""

from __future__ import annotations

from morris_pi.engine.evaluate import Evaluator
from morris_pi.engine.search import Limits, Searcher
from morris_pi.rules import Game, Turn

LOST = "g1 d6 f4 g7 d2 d7 d5 a7xd5 d5 b2 b4 d1 e4 f6 a4 b6xb4 b4 g4 e4-e3 d1-a1 e3-d3 a1-d1 d3-c3 d1-a1 c3-c4xa1"
BUDGET = Limits(nodes=10000)


def room(pos, side) -> tuple[int, int]:
    """(liberties, movable men) of ``side``: empty points next to its men, men with one."""
    empty = ~(pos.men[0] | pos.men[1]) & 0xFFFFFF
    adjacency = pos.tables.adjacency
    libs, movable = 0, 0
    for i in range(24):
        if pos.men[side] >> i & 1:
            free = adjacency[i] & empty
            libs |= free
            movable += bool(free)
    return libs.bit_count(), movable


def prefix(turns: int) -> str:
    return " ".join(LOST.split()[:turns])


def test_the_lost_game_ends_in_a_block():
    game = Game.from_record(LOST)
    assert game.outcome.winner == "white" and game.outcome.reason == "blocked"


def test_evaluation_prefers_the_free_side_over_two_extra_men():
    # end of placing: Black has 9 men to White's 7 but only a1 to move to
    pos = Game.from_record(prefix(18)).position
    assert room(pos, 1) == (1, 1)
    ev = Evaluator(pos.tables)
    assert pos.side == 0
    assert ev.evaluate(pos.men[0], pos.men[1], 0, 0) > 0, "White (to move) stands better"


def test_leaves_the_placing_phase_with_room_to_move():
    # from Black's fifth placement on, the engine plays both sides to the end of placing;
    # with the earlier evaluation Black ended with 2 liberties and 2 movable men
    game = Game.from_record(prefix(9))
    searcher = Searcher("standard")
    while game.position.hand != (0, 0):
        searcher.clear()
        game.play(Turn.from_raw(searcher.search(game.position, game.positions, BUDGET).turn))
    libs, movable = room(game.position, 1)
    assert libs >= 4 and movable >= 3, f"Black is cramped after {game.record}"


def test_avoids_the_lost_games_cramping_placement():
    # f6 took one of Black's last five liberties; after f6 a4 a 120,000-node search of the
    # earlier engine proved the loss (every Black turn lost within ten turns), and that
    # engine itself had chosen f6 here
    game = Game.from_record(prefix(13))
    assert game.turn == "black" and room(game.position, 1)[0] == 5
    result = Searcher("standard").search(game.position, game.positions, BUDGET)
    assert str(Turn.from_raw(result.turn)) != "f6"
