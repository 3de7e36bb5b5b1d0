"""Soak failures of seed 2 (``bench/soak.py --seed 2``), each rebuilt from its trace.

Each test plays the game up to the trouble with clean events, then the failing trace's own
events (trimmed to those that matter, shifted in time), and requires that every replay line
holds only turns of the game (never a turn nobody played, not even for a moment) and that the
last holds the exact record.
"""

from __future__ import annotations

from test_tracker_soak_cases import _replay_checked

TWO_PLAYERS = {"white": "human", "black": "human"}


def test_three_men_in_quick_succession_the_last_closing_a_mill():
    """no-flying, game 363: White's e4, Black's a4 24 ms later and White's e3 70 ms after e4,
    e3 closing e3-e4-e5; White's hand nudges e4 off before it is firm, and a1 is taken later.
    The three are read together in the order they came, the last one's removal still to come:
    not a4 first (read while e4 was off), then e4 and e3 as the other side's."""
    tail = [
        {"t": 59.90671, "on": "e4"},
        {"t": 59.93059, "on": "a4"},
        {"t": 59.93086, "off": "a4"},
        {"t": 59.93115, "on": "a4"},
        {"t": 59.97669, "on": "e3"},
        {"t": 60.02551, "off": "e4"},
        {"t": 60.155, "on": "e4"},
        {"t": 61.38222, "off": "a1"},
        {"t": 64.4},
    ]
    prefix = "d2 f4 e5 a7 d5 g1 c5xf4 g7 d7 c4 d6xa7 a1 b4 b6"
    _replay_checked({"profile": "no-flying", **TWO_PLAYERS}, prefix, tail, f"{prefix} e4 a4 e3xa1")
