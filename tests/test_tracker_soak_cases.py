"""Soak failures of the tracker, each rebuilt from its trace (``bench/soak.py``, seed 0).

Each test plays the game up to the trouble with clean events, then the failing trace's own
events, shifted in time, and requires the exact record at the end of the replay.
"""

from __future__ import annotations

import json

from morris_pi.physical.files import replay_lines
from morris_pi.rules import Turn


def _clean(record: str, start: float = 1.0, gap: float = 2.5) -> tuple[list[dict], float]:
    """Events of a game played without mess: each turn lifts, lands, then takes, ``gap`` apart."""
    events: list[dict] = []
    t = start
    for text in record.split():
        turn = Turn.parse(text)
        if turn.origin:
            events.append({"t": round(t, 5), "off": turn.origin})
        events.append({"t": round(t + 0.4, 5), "on": turn.target})
        if turn.removal:
            events.append({"t": round(t + 0.9, 5), "off": turn.removal})
        t += gap
    return events, t


def _replay(header: dict, record: str, tail: list[dict]) -> str:
    """The record replay ends with: ``record`` played cleanly, then ``tail`` (times shifted after it)."""
    events, t = _clean(record)
    shift = t - tail[0]["t"]
    events += [{**e, "t": round(e["t"] + shift, 5)} for e in tail]
    code, rows, err = replay_lines([json.dumps(header)] + [json.dumps(e) for e in events])
    assert code == 0, err
    return rows[-1]["record"]


def _replay_checked(header: dict, record: str, tail: list[dict], expected: str) -> None:
    """Replay as ``_replay`` does, and require every line's record to hold only turns of
    ``expected`` (never a turn nobody played, not even for a moment) and the last to be it."""
    events, t = _clean(record)
    shift = t - tail[0]["t"]
    events += [{**e, "t": round(e["t"] + shift, 5)} for e in tail]
    code, rows, err = replay_lines([json.dumps(header)] + [json.dumps(e) for e in events])
    assert code == 0, err
    want = expected.split()
    for row in rows:
        got = row["record"].split()
        assert got == want[: len(got)], f"t={row['t']}: {row['record']}"
    assert rows[-1]["record"] == expected


def test_two_men_put_down_at_once_the_first_lifted_before_it_was_firm_and_put_back():
    """standard, two players, seed 846: Black's e4 lands 28 ms before White's f2 and is lifted
    after 196 ms (not yet firm), so f2 reads as Black's, closing the mill f2-f4-f6. Black puts
    e4 back 0.8 s later: the man landed where it touched first, so the two placements are read
    again together, in order of first touch (the first reading left e4 no legal turn)."""
    tail = [
        {"t": 12.86673, "on": "e4"},
        {"t": 12.89467, "on": "f2"},
        {"t": 13.06282, "off": "e4"},
        {"t": 13.86949, "on": "e4"},
        {"t": 14.80875, "on": "g7"},
        {"t": 14.85872, "off": "g7"},
        {"t": 14.8727, "on": "g4"},
        {"t": 14.9812, "off": "g4"},
        {"t": 15.03097, "on": "g1"},
        {"t": 17.0},
    ]
    header = {"profile": "standard", "white": "human", "black": "human"}
    assert _replay(header, "d1 f4 d3 f6 e3", tail) == "d1 f4 d3 f6 e3 e4 f2 g1"


def test_a_landing_only_a_scan_showed_counts_though_the_next_turn_lifts_the_man_at_once():
    """no-flying, the computer Black, seed 465: the computer's a7-d7 lands with bounce and its
    last "on" is lost; the scan that shows d7 comes 42 ms before White takes d7 (removal first,
    then c3-c4). The scan's change has no settle time left before the lift, yet it happened
    (at some unknown time after the last report): d7 was filled and emptied."""
    prefix = (
        "f2 a7 b2 d7 d2xa7 a7 d6 g7xd6 b4 g4 b6xg4 g4 f4 g1xf4 c4 d1 a4xd1 d1 b6-d6 g4-f4 "
        "d6-b6xf4 d7-d6 c4-c3 a7-d7 c3-c4xd6 d7-a7 c4-c3"
    )
    tail = [
        {"t": 145.65264, "off": "a7"},
        {"t": 146.64921, "on": "d7"},
        {"t": 146.68655, "off": "d7"},
        {"t": 147.63234, "on": "d7"},
        {"t": 147.63944, "off": "d7"},
        {"t": 147.68798, "on": "d7"},
        {"t": 147.70392, "off": "d7"},
        {"t": 147.74234, "off": "g7"},
        {"t": 147.81818, "on": "g7"},
        {"t": 148.3891, "snapshot": ["a4", "b2", "b4", "b6", "c3", "d1", "d2", "d7", "f2", "g1", "g7"]},
        {"t": 148.43132, "off": "d7"},
        {"t": 149.61459, "off": "c3"},
        {"t": 150.05954, "on": "c4"},
        {"t": 150.08696, "off": "c4"},
        {"t": 150.15573, "on": "c4"},
        {"t": 151.64201, "off": "g7"},
        {"t": 152.55884, "on": "g7"},
        {"t": 153.64321, "off": "g7"},
        {"t": 154.78628, "on": "d7"},
        {"t": 154.87289, "off": "d7"},
        {"t": 155.05788, "on": "d7"},
        {"t": 158.0},
    ]
    header = {"profile": "no-flying", "white": "human", "black": "computer"}
    assert _replay(header, prefix, tail) == f"{prefix} a7-d7 c3-c4xd7 g7-d7"


def test_a_lost_landing_that_closed_a_mill_is_the_second_man_when_the_first_touched_first():
    """standard, two players, seed 720: White's a7 lands (slid up the a-file) and is read;
    Black's g4 lands 116 ms later closing the mill e4-f4-g4, its "on" lost; a scan shows g4.
    The same men read as Black's a7 after White's g4 as well; a7 touched first, so it is White's
    and g4 is Black's mill step, whose removal (f6) comes next."""
    tail = [
        {"t": 29.70558, "on": "a1"},
        {"t": 29.82918, "off": "a1"},
        {"t": 29.85314, "on": "a4"},
        {"t": 29.88577, "off": "a4"},
        {"t": 29.89978, "on": "a7"},
        {"t": 30.02879, "off": "f4"},
        {"t": 30.029, "on": "f4"},
        {"t": 30.12118, "on": "f4"},
        {"t": 30.76779, "snapshot": ["a7", "b2", "b4", "c3", "c4", "d6", "d7", "e3", "e4", "e5", "f4", "f6", "g4"]},
        {"t": 30.95268, "off": "f6"},
        {"t": 33.0},
    ]
    header = {"profile": "standard", "white": "human", "black": "human"}
    prefix = "d7 c3 c4 f4 f6 d6 g4 e4 b2 e5 b4 e3xg4"
    _replay_checked(header, prefix, tail, f"{prefix} a7 g4xf6")


def test_a_lost_landing_read_after_a_man_that_touched_first_closes_the_mill_of_its_own_side():
    """twelve, two players, seed 1157: Black's g7 (after a hover) is read; White's a7 lands
    117 ms after it, its "on" lost, closing a1-a4-a7; the scan shows a7 and White then takes
    f6. g7 touched first, so a7 is White's mill step, not Black's placement after White's g7."""
    tail = [
        {"t": 63.53435, "on": "g7"},
        {"t": 63.56374, "off": "g7"},
        {"t": 63.69767, "on": "g7"},
        {
            "t": 64.29327,
            "snapshot": [
                "a1",
                "a4",
                "a7",
                "b2",
                "b4",
                "b6",
                "c3",
                "c4",
                "d1",
                "d3",
                "d5",
                "d6",
                "d7",
                "e3",
                "e5",
                "f4",
                "f6",
                "g1",
                "g7",
            ],
        },
        {"t": 64.90309, "off": "f6"},
        {"t": 67.0},
    ]
    header = {"profile": "twelve", "white": "human", "black": "human"}
    prefix = "f4 b4 d6 f6 c4 c3 a1 d7 g7 a7 e5 d5 b2 b6 a4 d3 d1 e3xg7 g1xa7"
    _replay_checked(header, prefix, tail, f"{prefix} g7 a7xf6")
