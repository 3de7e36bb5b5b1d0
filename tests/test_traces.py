"""Real games played by messy hands: every replay must end with exactly the game's record."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from morris_pi import replay
from morris_pi.rules import PROFILES
from morris_pi.tracing import game_trace, random_game

SEEDS = range(8)


def replay_events(events: list[dict]):
    r = replay.Replay(replay.parse_header(events[0]))
    for number, event in enumerate(events[1:], start=2):
        r.feed(replay.parse_event(event, number), number)
    return r.finish()


@pytest.mark.parametrize("computer", [None, "white", "black"], ids=["two-player", "computer-white", "computer-black"])
@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_messy_traces_of_random_games_replay_to_the_game_record(profile, computer):
    for seed in SEEDS:
        game = random_game(profile, random.Random(seed), max_turns=100, computer=computer)
        final = replay_events(game_trace(game, seed=seed, computer=computer))
        assert final.record == game.record, f"{profile} seed {seed}"
        assert final.outcome == game.outcome
        assert not final.problems
        assert final.computer is None or (computer is not None and game.outcome is None)


def test_the_traces_hold_every_kind_of_mess():
    """The evidence above is only as good as the mess in the traces: count it."""
    stats: Counter = Counter()
    for seed in SEEDS:
        for computer in (None, "black"):
            game = random_game("standard", random.Random(seed), max_turns=100, computer=computer)
            events = game_trace(game, seed=seed, computer=computer, stats=stats)
            assert sum("snapshot" in e for e in events) == 0 or stats["missed-then-snapshot"]
    kinds = {"bounce", "slide", "lift-and-replace", "nudge", "removal-first", "missed-then-snapshot", "fast", "double"}
    assert kinds <= {kind for kind, count in stats.items() if count > 0}, stats
