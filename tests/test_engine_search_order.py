"""How the search ranks turns, and when it hands the interpreter to other threads."""

from __future__ import annotations

import threading

from hypothesis import given
from hypothesis import strategies as st

from morris_pi.engine import search
from morris_pi.engine.search import TURN_OF_CODE, Limits, Searcher, turn_code
from morris_pi.rules import Game

TURNS = st.tuples(st.integers(-1, 23), st.integers(0, 23), st.integers(-1, 23))


@given(TURNS, TURNS)
def test_turn_codes_rank_turns_as_the_turns_themselves_compare(a, b):
    # The search sorts codes packed under the ordering score; ties on the score must fall to
    # the same turn as comparing the turns would, or seeded games would not repeat.
    assert (turn_code(a) < turn_code(b)) == (a < b)
    assert TURN_OF_CODE[turn_code(a)] == a
    assert turn_code(a) < 1 << search.CODE_BITS


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
