"""Perft against the reference figures, the bulk leaf count, and the rules commands."""

from __future__ import annotations

import contextlib
import copy
import io
import random

import pytest
from rules_support import PROFILE_NAMES, Referee

from morris_pi import cli
from morris_pi.rules import Game, Position, Turn, perft

# RULES.md "Reference figures": a move and its removal are one turn. Depth 5 is the
# first where mills close (white's third man), so removals are counted too.
REFERENCE = {1: 24, 2: 552, 3: 12144, 4: 255024, 5: 5140800}


@pytest.mark.parametrize("depth,leaves", sorted(REFERENCE.items()))
def test_perft_from_the_start_matches_the_reference_figures(depth, leaves):
    assert perft(Position.start("standard"), depth) == leaves


# The engine's game of tests/test_engine_play.py after 31 turns: black is down to three men (a4, c5, e4)
# against eight and is to move, so it flies; white's mills close and remove all the way down.
FLYING = (
    "d6 b4 f4 e4 d5 d7 f6 c4 f2xd7 a4xd5 b2 b6 d2xb6 g7 d7 b6 d5xb6 b6 d2-d1 a4-a1 d1-d2xc4 g7-g4 "
    "d2-d1 g4-g7 f4-g4 b4-c4 g4-f4xb6 a1-a4 d6-b6 c4-c5 f6-d6xg7"
)
# Random games (seeded) into the placing phase: twelve men's diagonals with a removal
# behind them; lasker's men moving while others are still in hand.
TWELVE = "g1 e4 g7 f6 g4xe4 e4 e5 d3 c5 d6 a1 c4 a7 c3"
LASKER = "d7 g4 g1 b2 b6 b2-d2 b2 f2 d7-a7 f6 a7-d7 g7 c4 g4-f4xb2 d6 e5"

# Each profile's own figures from these positions. The rules engine computed them; the
# referee test below recounts every one up to depth 3 with the hand-written reading of
# RULES.md. Flying three men make the standard tree wide and the no-flying one narrow;
# move-this differs from standard only once every man that could be taken stands in a mill
# (first at depth 4).
FROM_POSITIONS = [
    ("standard", FLYING, [39, 710, 15800, 270707]),
    ("club", FLYING, [39, 710, 15800, 270707]),
    ("move-this", FLYING, [39, 710, 15800, 267755]),
    ("no-flying", FLYING, [6, 112, 306, 5490]),
    ("twelve", TWELVE, [36, 486, 12789]),
    ("lasker", LASKER, [23, 546, 12754]),
]


@pytest.mark.parametrize("profile,record,leaves", FROM_POSITIONS, ids=[f"{p}" for p, _, _ in FROM_POSITIONS])
def test_perft_from_positions_with_removals_and_flying(profile, record, leaves):
    position = Game.from_record(record, profile).position
    assert [perft(position, depth) for depth in range(1, len(leaves) + 1)] == leaves


def referee_perft(referee: Referee, depth: int) -> int:
    turns = referee.legal()
    if depth == 1:
        return len(turns)
    total = 0
    for text in turns:
        child = copy.copy(referee)
        child.board, child.hand, child.seen = dict(referee.board), dict(referee.hand), referee.seen.copy()
        child.play(text)
        total += referee_perft(child, depth - 1)
    return total


@pytest.mark.parametrize("profile,record,leaves", FROM_POSITIONS, ids=[f"{p}" for p, _, _ in FROM_POSITIONS])
def test_the_referee_counts_the_same_trees(profile, record, leaves):
    referee = Referee(profile)
    for turn in Game.from_record(record, profile).history:
        referee.play(str(turn))
    assert [referee_perft(referee, depth) for depth in (1, 2, 3)] == leaves[:3]


def test_perft_depth_zero_and_a_finished_position():
    assert perft(Position.start(), 0) == 1
    over = Game.from_record(
        "c5 d2 d6 f2 f6 b2xc5 b6xb2 b2xb6 b6xb2 b2xf6 f6xb2 b2xf6 f6xb2 b2xb6 b6xb2 b2xf6 f6xb2 b2xf6"
    )
    assert perft(over.position, 3) == 0


def sample_positions(profile: str, games: int = 6):
    """Every position of a few random games, taken while the game was still on."""
    rng = random.Random(f"perft-{profile}")
    for _ in range(games):
        game = Game(profile)
        while not game.outcome and len(game.history) < 250:
            yield game
            game.play(rng.choice(game.legal_turns()))


@pytest.mark.parametrize("profile", PROFILE_NAMES)
def test_position_turns_agree_with_the_bulk_count_and_with_game_legal_turns(profile):
    seen = 0
    for game in sample_positions(profile):
        position = game.position
        raw = position.turns()
        assert position.count_turns() == len(raw) == len(set(raw))
        assert [Turn.from_raw(t) for t in raw] == game.legal_turns()
        assert sorted({(o, t) for o, t, _ in raw}) == sorted(position.steps())
        seen += 1
    assert seen > 300


@pytest.mark.parametrize("profile", PROFILE_NAMES)
def test_perft_counts_what_playing_every_turn_counts(profile):
    # perft's last ply is counted in bulk; compare with expanding that ply too.
    def expanded(position, depth):
        if depth == 0:
            return 1
        return sum(expanded(position.play(t), depth - 1) for t in position.turns())

    for game in list(sample_positions(profile, games=1))[::40]:
        assert perft(game.position, 2) == expanded(game.position, 2)


def run(argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(argv)
    return code, out.getvalue(), err.getvalue()


def test_cli_perft():
    code, out, _ = run(["perft", "3"])
    assert code == 0 and out.startswith("perft(3) = 12144  [")
    code, out, _ = run(["perft", "--profile", "twelve", "1", "d6"])
    assert code == 0 and out.startswith("perft(1) = 23  [")


def test_cli_perft_bad_record_names_the_turn():
    code, out, err = run(["perft", "2", "d6", "a1", "d6"])
    assert code == 2 and out == ""
    assert "turn 3: d6: d6 is occupied (white to move)" in err


def test_cli_legal_lists_the_turns_after_a_record():
    code, out, _ = run(["legal", "d6", "a1", "f6", "a4", "b6"])
    assert code == 0 and out == "b6xa1\nb6xa4\n"
    code, out, _ = run(["legal", "d6", "a1", "f6", "a4", "b6xa1"])
    assert code == 0 and out.split() == [str(t) for t in Game.from_record("d6 a1 f6 a4 b6xa1").legal_turns()]
    assert len(out.split()) == 20  # black places on any of the 20 empty points
    code, out, _ = run(["legal", "--profile", "lasker", "d6", "a1"])
    assert "d6-d5" in out.split() and len(out.split()) == 22 + 4  # 22 placements, d6 to its 4 neighbours


def test_cli_legal_bad_record_exits_2_and_names_the_turn():
    code, out, err = run(["legal", "d6", "a1", "d6"])
    assert code == 2 and out == ""
    assert err == "morris-pi legal: turn 3: d6: d6 is occupied (white to move)\n"
    code, _, err = run(["legal", "d6", "b5"])
    assert code == 2 and "turn 2: b5: b5 is not a point of the board" in err


def test_cli_legal_after_the_game_ended():
    record = "a7 d7 g7 g4 g1 d1 a1 d5 c5 a4 d6 b4 c4 c3 b6 d3 f6xd3 f4"
    code, out, err = run(["legal", *record.split()])
    assert code == 0 and out == "" and "game over: black wins (blocked)" in err
