"""How the search ranks turns, and when it hands the interpreter to other threads."""

from __future__ import annotations

import threading

import pytest
from hypothesis import given
from hypothesis import strategies as st

from morris_pi.engine import search
from morris_pi.engine.ordering import CODE_BITS, TURN_OF_CODE, turn_code
from morris_pi.engine.search import Limits, Searcher, score_form
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


# Positions of the speed bench's seeded self-play.
PLACING = "a4 d2 c4 b4 f4 d7 g7 d5 d6 a1 f6 g4"
SHUT_IN = "d6 d2 g4 c5 e4 a4 f4xd2 d2 f6 d3 b6xd2 f2 d2 d7 e5 b4 e3xd3 c3 e3-d3 c3-c4xd3 e4-e3"
WON = SHUT_IN + " c5-d5 f4-e4xf2 b4-b2"  # white wins in seven: lines end with a man taken from three


@pytest.mark.parametrize("extension", [0, 2])
def test_the_search_takes_the_man_the_placing_leaves_free(extension):
    # f2 closes the mill f2-f4-f6 while nothing of white's is threatened: a man up for free,
    # with or without the extension
    game = Game.from_record(PLACING)
    result = Searcher("standard", placing_extension=extension).search(game.position, game.positions, Limits(depth=6))
    assert str(Turn.from_raw(result.turn)) == "f2xb4"
    assert result.score > 0


def test_the_search_finds_the_fastest_win_and_plays_it_out():
    game = Game.from_record(WON)
    result = Searcher("standard").search(game.position, game.positions, Limits(depth=9))
    assert score_form(result.score) == {"win_in": 7}
    assert result.depth < 9  # a proven win ends the deepening
    for raw in result.pv:
        game.play(Turn.from_raw(raw))
    assert len(result.pv) == 7 and game.outcome is not None and game.outcome.winner == "white"


def test_the_losing_side_sees_its_loss_coming():
    game = Game.from_record(WON)
    first = Searcher("standard").search(game.position, game.positions, Limits(depth=9)).turn
    assert first is not None
    game.play(Turn.from_raw(first))
    result = Searcher("standard").search(game.position, game.positions, Limits(depth=9))
    assert score_form(result.score) == {"loss_in": 6}
