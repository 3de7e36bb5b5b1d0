"""The board of RULES.md: 24 points, 32 adjacent pairs, 16 mills; twelve men's diagonals."""

from __future__ import annotations

from itertools import combinations

import pytest
from rules_support import DIAGONALS, MILLS, RING_PAIRS, SPOKE_PAIRS

from morris_pi.rules import POINTS, STANDARD, Game, coordinates, get_profile, point_index

DIAGONAL = get_profile("twelve").board


def pairs_of(geometry) -> set[frozenset[str]]:
    return {frozenset((a, b)) for a, b in combinations(POINTS, 2) if geometry.are_adjacent(a, b)}


def test_24_points_named_as_on_a_chess_board():
    assert len(POINTS) == len(set(POINTS)) == 24
    assert set(POINTS) == set("a7 d7 g7 b6 d6 f6 c5 d5 e5 a4 b4 c4 e4 f4 g4 c3 d3 e3 b2 d2 f2 a1 d1 g1".split())
    assert coordinates("a1") == (0, 0) and coordinates("g7") == (6, 6) and coordinates("d5") == (3, 4)


def test_exactly_the_32_adjacent_pairs_of_rules_md():
    expected = {frozenset(p) for p in RING_PAIRS + SPOKE_PAIRS}
    assert len(RING_PAIRS) == 24 and len(SPOKE_PAIRS) == 8 and len(expected) == 32
    assert pairs_of(STANDARD) == expected
    assert sorted(STANDARD.neighbours("d6")) == ["b6", "d5", "d7", "f6"]
    assert sorted(STANDARD.neighbours("a7")) == ["a4", "d7"]


def test_exactly_the_16_mills_of_rules_md():
    assert len(STANDARD.lines) == 16
    assert {frozenset(m) for m in STANDARD.lines} == {frozenset(m) for m in MILLS}


def test_corner_triples_and_other_collinear_looking_points_are_never_mills():
    mills = {frozenset(m) for m in STANDARD.lines}
    for corner in ("a7", "g7", "g1", "a1", "b6", "f6", "f2", "b2", "c5", "e5", "e3", "c3"):
        (a, b) = STANDARD.neighbours(corner)
        assert frozenset((corner, a, b)) not in mills
    for triple in (
        ("a7", "a4", "b4"),
        ("d7", "d6", "b6"),
        ("a7", "b6", "c5"),
        ("b4", "c4", "e4"),
        ("d5", "d3", "d6"),
        ("a4", "b4", "b6"),
    ):
        assert frozenset(triple) not in mills
    # Every mill is three collinear points, and every point lies in exactly two mills.
    for line in STANDARD.lines:
        xs, ys = zip(*(coordinates(p) for p in line), strict=True)
        assert len(set(xs)) == 1 or len(set(ys)) == 1
    for point in POINTS:
        assert len(STANDARD.mills_through(point)) == 2


def test_a_corner_triple_does_not_earn_a_removal_in_play():
    # White builds a7-a4-b4 around the corner: no mill, black simply moves next.
    game = Game.from_record("a7 g1 a4 g4 b4")
    assert game.pending is None and game.turn == "black"
    assert game.record == "a7 g1 a4 g4 b4"


def test_twelve_adds_the_four_diagonals_as_lines_and_mills():
    assert {frozenset(m) for m in DIAGONAL.lines} == {frozenset(m) for m in MILLS + DIAGONALS}
    extra = pairs_of(DIAGONAL) - pairs_of(STANDARD)
    assert extra == {frozenset(p) for a, b, c in DIAGONALS for p in ((a, b), (b, c))}
    assert DIAGONAL.are_adjacent("a7", "b6") and not STANDARD.are_adjacent("a7", "b6")
    assert not DIAGONAL.are_adjacent("a7", "c5")


@pytest.mark.parametrize("profile", ["standard", "move-this", "club", "no-flying", "lasker"])
def test_only_twelve_uses_the_diagonals(profile):
    assert get_profile(profile).board is STANDARD


def test_unknown_point_is_named():
    with pytest.raises(ValueError, match="'h8'"):
        point_index("h8")
    with pytest.raises(ValueError, match="'b5'"):
        STANDARD.are_adjacent("a7", "b5")
