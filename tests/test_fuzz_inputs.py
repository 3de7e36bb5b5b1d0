"""Any bytes at all, as a replay trace or as a save: a result or a clean error, never a crash.

Hypothesis runs derandomized (the same examples every run), so CI is repeatable.
"""

from __future__ import annotations

import io
import json
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from morris_pi import replay
from morris_pi.core.safe_files import UnreadableFile
from morris_pi.core.save_format import parse_save
from morris_pi.core.storage import Storage
from morris_pi.rules import Game

FUZZ = settings(
    derandomize=True,
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)

POINT = st.sampled_from(["d6", "a1", "g7", "b4", "zz", "", "D6"])
VALUE = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=True),
    st.text(max_size=20),
    POINT,
    st.lists(POINT, max_size=4),
)
EVENT = st.dictionaries(
    st.sampled_from(["t", "on", "off", "snapshot", "button", "profile", "white", "black", "x"]),
    st.one_of(
        VALUE,
        st.floats(min_value=0, max_value=30),
        POINT,
        st.sampled_from(["undo", "new", "resign", "human", "computer", "club"]),
    ),
    max_size=4,
)
LINE = st.one_of(EVENT.map(json.dumps).map(str.encode), st.binary(max_size=80))
TRACE = st.one_of(st.binary(max_size=3000), st.lists(LINE, max_size=40).map(b"\n".join))


def replay_bytes(data: bytes) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = replay.run(replay.trace_lines(io.BytesIO(data), max_line=1000), out, err)
    return code, out.getvalue(), err.getvalue()


@FUZZ
@given(TRACE)
def test_any_bytes_replay_to_a_result_or_named_errors(data):
    code, out, err = replay_bytes(data)
    assert code in (0, 1)
    assert "record:" in out and "result:" in out  # the summary always comes
    lines = err.splitlines()
    assert (code == 1) == bool(lines)
    assert len(lines) <= replay.MAX_BAD_LINES + 1
    assert all(line.startswith("replay: ") and len(line) < 400 for line in lines)


GOOD_SAVE = {
    "format": "morris-pi/save",
    "version": 1,
    "saved_at": "2025-06-01T14:00:00+00:00",
    "meta": {"mode": "two-player"},
    "game": Game.from_record("d6 a1 f6").to_text(),
}


def mutated_saves():
    text = json.dumps(GOOD_SAVE).encode()
    cut = st.integers(0, len(text)).map(lambda n: text[:n])
    flipped = st.tuples(st.integers(0, len(text) - 1), st.integers(0, 255)).map(
        lambda p: text[: p[0]] + bytes([p[1]]) + text[p[0] + 1 :]
    )
    game_text = st.text(max_size=300).map(lambda g: json.dumps({**GOOD_SAVE, "game": g}).encode())
    other = st.dictionaries(st.sampled_from(list(GOOD_SAVE)), VALUE).map(
        lambda d: json.dumps({**GOOD_SAVE, **d}).encode()
    )
    return st.one_of(st.binary(max_size=2000), cut, flipped, game_text, other)


@FUZZ
@given(mutated_saves())
def test_any_bytes_load_as_a_save_or_are_refused_cleanly(data):
    try:
        game, meta = parse_save(data, Game)
    except UnreadableFile as exc:
        assert str(exc) and len(str(exc)) < 600
    else:
        assert isinstance(meta, dict) and Game.from_text(game.to_text()).record == game.record


@FUZZ
@given(mutated_saves())
def test_any_bytes_at_the_save_let_a_game_start(data):
    with tempfile.TemporaryDirectory() as folder:
        store = Storage(folder)
        (Path(folder) / "current.json").write_bytes(data)
        loaded = store.load_current()  # never raises
        if loaded is None:
            assert not (Path(folder) / "current.json").exists()  # moved aside, kept
            assert len(list(Path(folder).glob("current.corrupt-*.json"))) == 1
        else:
            assert loaded[0].record
