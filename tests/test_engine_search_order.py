"""How the search ranks turns, and when it hands the interpreter to other threads."""

from __future__ import annotations

import threading

import pytest
from hypothesis import given
from hypothesis import strategies as st

from morris_pi.engine import search
from morris_pi.engine.ordering import CODE_BITS, TURN_OF_CODE, turn_code
from morris_pi.engine.search import Limits, Searcher
from morris_pi.rules import Game, Turn

TURNS = st.tuples(st.integers(-1, 23), st.integers(0, 23), st.integers(-1, 23))


@given(TURNS, TURNS)
def test_turn_codes_rank_turns_as_the_turns_themselves_compare(a, b):
    # The search sorts codes packed under the ordering score; ties on the score must fall to
    # the same turn as comparing the turns would, or seeded games would not repeat.
    assert (turn_code(a) < turn_code(b)) == (a < b)
    assert TURN_OF_CODE[turn_code(a)] == a
    assert turn_code(a) < 1 << CODE_BITS


MIDGAME = "d6 b4 f4 e4 d5 d7 f6 c4 f2xd7 a4xd5 b2 b6 d2xb6 g7 d7"


def sleeps_during_search(monkeypatch, in_thread: bool) -> int:
    calls: list[float] = []
    monkeypatch.setattr(search.time, "sleep", calls.append)
    game = Game.from_record(MIDGAME)
    stop = threading.Event()

    def run() -> None:
        Searcher("standard", endgame=None).search(game.position, game.positions, Limits(nodes=5000), stop_flag=stop)

    if in_thread:
        worker = threading.Thread(target=run)
        worker.start()
        worker.join()
    else:
        run()
    return len(calls)


def test_a_search_in_the_engines_thread_lets_other_threads_run(monkeypatch):
    # the board's loop shares the interpreter with the engine's thread
    assert sleeps_during_search(monkeypatch, in_thread=True) >= 5000 // search.CHECK_EVERY - 1


def test_a_search_on_the_main_thread_does_not_pause(monkeypatch):
    # replays and benches search on the main thread: nobody waits, so no pause is paid
    assert sleeps_during_search(monkeypatch, in_thread=False) == 0


# Positions of the speed bench's seeded self-play, each searched to depth 6: the turn, the
# nodes visited and the score. The Sanmill and ladder figures in docs/engine.md were
# measured with exactly this search; a change that is only meant to make it faster must
# leave these as they are (a change of the search itself updates them, and the figures).
PLACING = "a4 d2 c4 b4 f4 d7 g7 d5 d6 a1 f6 g4"
MOVING = "a4 d2 c4 b4 f4 d7 g7 d5 d6 a1 f6 g4 b6xd2 e3 f2xd5 d1 g1 d2 d6-d5 d7-d6 g7-d7 e3-d3xb6 c4-c5 d3-c3"
FLYING = (
    MOVING + " f4-e4 c3-d3xd7 e4-f4xg4 d3-c3 f4-e4 c3-d3xf2 f6-f4 d2-b2 g1-g4xb2 d1-d2 e4-e5xd3 a1-d1 e5-e4xd1"
    " d2-e5 e4-e3 b4-e4 f4-f6 d6-c3 a4-a7 e4-b2 a7-d7 c3-d6 e3-e4 b2-f4"
)
SHUT_IN = "d6 d2 g4 c5 e4 a4 f4xd2 d2 f6 d3 b6xd2 f2 d2 d7 e5 b4 e3xd3 c3 e3-d3 c3-c4xd3 e4-e3"
WON = SHUT_IN + " c5-d5 f4-e4xf2 b4-b2"  # white wins in seven: lines end with a man taken from three


@pytest.mark.parametrize(
    "record,extension,turn,nodes,score",
    [
        (PLACING, 0, "f2xb4", 16678, 43),
        (PLACING, 2, "f2xb4", 48527, 64),
        (MOVING, 0, "f4-e4", 7081, -148),
        (FLYING, 0, "d7-a7", 11088, 300),
        (SHUT_IN, 0, "c4-c3", 6381, -530),
    ],
    ids=["placing", "placing-extended", "moving", "flying", "shut-in"],
)
def test_the_search_visits_the_same_tree_as_the_one_the_figures_were_measured_with(
    record, extension, turn, nodes, score
):
    game = Game.from_record(record)
    result = Searcher("standard", placing_extension=extension).search(game.position, game.positions, Limits(depth=6))
    assert (str(Turn.from_raw(result.turn)), result.nodes, result.score) == (turn, nodes, score)


def test_a_won_line_is_searched_to_the_same_end():
    game = Game.from_record(WON)
    result = Searcher("standard").search(game.position, game.positions, Limits(depth=7))
    assert (str(Turn.from_raw(result.turn)), result.nodes, result.score) == ("f6-f4xa4", 23778, 29993)
