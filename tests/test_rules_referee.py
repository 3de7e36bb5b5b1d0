"""Long random games checked turn by turn against a second, naive reading of RULES.md.

``rules_support.Referee`` keeps a dict board and the lines typed in from RULES.md; at
every turn both must agree on the legal turns, the outcome and any claimable draw.
"""

from __future__ import annotations

import random

import pytest
from rules_support import PROFILE_NAMES, Referee

from morris_pi.rules import Game


def play_against_referee(profile: str, seed: int, quiet_bias: float) -> tuple[str, ...]:
    rng = random.Random(seed)
    game, referee = Game(profile), Referee(profile)
    for _ in range(500):
        expected = referee.outcome()
        assert (None if game.outcome is None else (game.outcome.winner, game.outcome.reason)) == expected, game.record
        assert game.claimable_draw() == referee.claimable(), game.record
        if expected:
            return ("over", expected[1])
        legal = sorted(str(t) for t in game.legal_turns())
        assert set(legal) == referee.legal() and len(legal) == len(referee.legal()), game.record
        if game.claimable_draw():
            return ("claimable", game.claimable_draw())
        quiet = [t for t in legal if "x" not in t]
        turn = rng.choice(quiet if quiet and rng.random() < quiet_bias else legal)
        game.play(turn)
        referee.play(turn)
        assert game.board == referee.board
        assert game.in_hand == referee.hand and game.quiet_turns == referee.quiet
    return ("unfinished",)


@pytest.mark.parametrize("profile", PROFILE_NAMES)
def test_random_games_agree_with_the_referee_turn_by_turn(profile):
    endings = set()
    for seed in range(10):
        endings.add(play_against_referee(profile, seed, quiet_bias=0.97 if seed % 2 else 0.5))
    # the games reached more than one kind of ending
    assert len(endings) >= 2, endings
