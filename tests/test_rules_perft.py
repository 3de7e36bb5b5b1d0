"""Perft against the reference figures, the bulk leaf count, and the rules commands."""

from __future__ import annotations

import contextlib
import io
import random

import pytest

from morris_pi import cli
from morris_pi.rules import Game, Position, Turn, perft
from rules_support import PROFILE_NAMES

# RULES.md "Reference figures": a move and its removal are one turn.
REFERENCE = {1: 24, 2: 552, 3: 12144, 4: 255024}


@pytest.mark.parametrize("depth,leaves", sorted(REFERENCE.items()))
def test_perft_from_the_start_matches_the_reference_figures(depth, leaves):
    assert perft(Position.start("standard"), depth) == leaves


def test_perft_depth_zero_and_a_finished_position():
    assert perft(Position.start(), 0) == 1
    over = Game.from_record("c5 d2 d6 f2 f6 b2xc5 b6xb2 b2xb6 b6xb2 b2xf6 f6xb2 b2xf6 f6xb2 b2xb6 b6xb2 b2xf6 f6xb2 b2xf6")
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
    record = "a7 d7 g7 g4 g1 d1 a1 d5 c5 a4 d6 b4 c4 c3 b6 d3 f6xd3 f4".split()
    code, out, err = run(["legal", *record])
    assert code == 0 and out == "" and "game over: black wins (blocked)" in err
