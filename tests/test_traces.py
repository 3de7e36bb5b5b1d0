"""The simple trace generator (``morris_pi.traces.simple``) puts every kind of mess it knows into its traces.

Its messy random games, replayed, are frozen in the regression corpus (``tests/data/traces/``,
``tracing-*``; ``tests/test_tracker_corpus.py``).
"""

from __future__ import annotations

import random
from collections import Counter

from morris_pi.traces.simple import game_trace, random_game

SEEDS = range(8)


def test_the_traces_hold_every_kind_of_mess():
    """The corpus made of these traces is only as good as the mess in them: count it."""
    stats: Counter = Counter()
    for seed in SEEDS:
        for computer in (None, "black"):
            game = random_game("standard", random.Random(seed), max_turns=100, computer=computer)
            events = game_trace(game, seed=seed, computer=computer, stats=stats)
            assert sum("snapshot" in e for e in events) == 0 or stats["missed-then-snapshot"]
    kinds = {"bounce", "slide", "lift-and-replace", "nudge", "removal-first", "missed-then-snapshot", "fast", "double"}
    assert kinds <= {kind for kind, count in stats.items() if count > 0}, stats
