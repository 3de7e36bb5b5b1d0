"""The transposition table: what it keeps, what it replaces, and known results at any ply."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from morris_pi.engine.search_types import MATE, MATE_BOUND
from morris_pi.engine.table import EXACT, LOWER, TranspositionTable

SLOTS = 1 << 4
KEY, OTHER = 0x25, 0x25 + SLOTS  # the same slot


def test_a_deeper_entry_of_this_search_stays_and_an_older_one_gives_way():
    table = TranspositionTable(bits=4)
    table.new_search()
    table.store(KEY, 6, EXACT, 10, (-1, 3, -1), ply=2)
    table.store(OTHER, 2, LOWER, 50, None, ply=3)
    assert table.probe(OTHER) is None and table.probe(KEY).depth == 6
    table.new_search()
    table.store(OTHER, 2, LOWER, 50, None, ply=3)
    assert table.probe(KEY) is None and table.probe(OTHER).bound == LOWER


def test_the_same_position_is_always_stored_again_and_the_root_always_wins():
    table = TranspositionTable(bits=4)
    table.store(KEY, 6, EXACT, 10, None, ply=2)
    table.store(KEY, 1, EXACT, 20, None, ply=2)
    assert table.probe(KEY).score == 20
    table.store(OTHER, 1, EXACT, 30, None, ply=0, always=True)
    assert table.probe(OTHER).score == 30 and table.probe(KEY) is None


@given(st.integers(0, 40), st.integers(0, 40), st.integers(1, 200))
def test_a_known_result_keeps_its_distance_from_the_stored_position(stored_at, read_at, plies_to_win):
    # a win found plies_to_win plies below a node at ply stored_at, read at ply read_at: the
    # same win, as far below the node as before
    table = TranspositionTable(bits=4)
    for sign in (1, -1):
        table.store(KEY, 3, EXACT, sign * (MATE - stored_at - plies_to_win), None, ply=stored_at)
        assert table.probe(KEY).score_at(read_at) == sign * (MATE - read_at - plies_to_win)


@given(st.integers(-MATE_BOUND, MATE_BOUND), st.integers(0, 40))
def test_an_ordinary_score_reads_back_as_it_was_stored(score, ply):
    table = TranspositionTable(bits=4)
    table.store(KEY, 3, EXACT, score, None, ply=ply)
    assert table.probe(KEY).score_at(ply + 7) == score


def test_clear_forgets_and_the_repr_counts():
    table = TranspositionTable(bits=4)
    table.store(KEY, 3, EXACT, 1, None, ply=0)
    assert repr(table) == "<TranspositionTable slots=16 used=1 age=0>"
    table.clear()
    assert table.probe(KEY) is None and table.used() == 0
