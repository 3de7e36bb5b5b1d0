"""The frozen regression corpus: messy games the tracker once misread, and whole messy games.

Each ``tests/data/traces/NAME.jsonl`` is a ``morris-pi replay`` trace; ``NAME.expected.json``
beside it holds what was really played (``record``, and ``outcome`` where the game ended; turns
made and taken back by hand in ``taken_back``, each with how many turns came before it), where
the trace comes from (``generator``, ``seed``, ``game``, ``profile``, ``mode``, ``mess``, and
how to make it again) and why it is there (``why``). ``exact`` says whether the tracker reads it
exactly; no trace is regenerated here, so a change of a generator changes none of them.

Every trace is replayed through ``morris_pi.replay`` (the board's controller and its tracker):
no line may hold a turn nobody played, not even for a moment, and where ``exact`` is set the last
line holds the whole record and the result. A trace on which the tracker is known to show a turn
nobody played carries ``shown_wrong_today`` (where, and what it showed): it is an expected
failure, strictly, so the day it is read right the test says so and the sidecar is brought up
to date.

The environment variable ``MORRIS_PI_TRACKER=MODULE:CALLABLE`` runs the corpus with another
tracker of the same public API (``Controller(tracker=...)``); by default it is ``Tracker``.
"""

from __future__ import annotations

import importlib
import io
import json
import os
from pathlib import Path

import pytest

from morris_pi import replay
from morris_pi.core.controller import TrackerFactory

CORPUS = Path(__file__).parent / "data" / "traces"
TRACES = sorted(CORPUS.glob("*.jsonl"))
#: What every sidecar says besides the record.
META = ("generator", "profile", "mode", "mess", "why", "exact")


def expected_of(trace: Path) -> dict:
    return json.loads(trace.with_name(trace.name.removesuffix(".jsonl") + ".expected.json").read_text())


def tracker_under_test() -> TrackerFactory | None:
    spec = os.environ.get("MORRIS_PI_TRACKER")
    if not spec:
        return None
    module, _, name = spec.partition(":")
    return getattr(importlib.import_module(module), name)


def replay_rows(trace: Path) -> list[dict]:
    out, err = io.StringIO(), io.StringIO()
    code = replay.run(trace.read_text().splitlines(), out, err, as_json=True, tracker=tracker_under_test())
    assert code == 0 and err.getvalue() == "", err.getvalue()
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_the_corpus_is_there_and_every_trace_says_where_it_comes_from_and_why():
    assert len(TRACES) >= 200
    for trace in TRACES:
        expected = expected_of(trace)
        missing = [key for key in ("record", *META) if key not in expected]
        assert not missing, f"{trace.name}: sidecar lacks {missing}"
        assert expected["why"].strip(), trace.name
        header = json.loads(trace.read_text().splitlines()[0])
        assert "t" not in header and header.get("profile", "standard") == expected["profile"], trace.name


def _case(trace: Path):
    known = expected_of(trace).get("shown_wrong_today")
    marks = [pytest.mark.xfail(strict=True, reason=f"shows a turn nobody played: {known}")] if known else []
    return pytest.param(trace, id=trace.name.removesuffix(".jsonl"), marks=marks)


@pytest.mark.parametrize("trace", [_case(trace) for trace in TRACES])
def test_the_record_holds_only_turns_that_were_played_and_is_exact_where_it_was(trace: Path):
    expected = expected_of(trace)
    rows = replay_rows(trace)
    truth = expected["record"].split()
    taken_back = {(ply, turn) for ply, turn in expected.get("taken_back", ())}
    for row in rows:
        turns = row["record"].split()
        if turns and (len(turns) - 1, turns[-1]) in taken_back:
            turns = turns[:-1]  # made and taken back by hand: played, and withdrawn
        assert turns == truth[: len(turns)], f"t={row['t']}: record ends {' '.join(turns[-3:])!r}, never played"
    if expected["exact"]:
        assert rows[-1]["record"] == expected["record"]
        if "outcome" in expected:
            assert rows[-1]["outcome"] == expected["outcome"]
        assert rows[-1]["problems"] == [], "the board matches the game once it is read"


def test_a_man_lifted_again_after_the_reply_is_lit_as_the_man_in_the_hand():
    """White's b6-b4 flickers off-centre while Black's g1-d1 is made with the other hand; White
    lifts b4's man again for ``b4-b6`` just after d1's man came. He is lit as the man in the hand
    with his targets, not as corrections to make."""
    rows = replay_rows(CORPUS / "hands-1-0123-no-flying-turns196-199-of-200.jsonl")
    in_hand = [row for row in rows if row["record"].endswith("b6-b4 g1-d1") and row["leds"].get("b4") == "lifted"]
    assert in_hand, "b4's man lifted for b4-b6 was never shown as the man in the hand"
    assert {"b6", "a4", "b2"} <= {p for p, role in in_hand[0]["leds"].items() if role == "legal-target"}
    assert not in_hand[0]["problems"]
