"""``morris-pi replay``: the trace format, JSON output, live stdin and bad input."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import threading

import pytest

from morris_pi import replay
from morris_pi.cli import main
from morris_pi.traces.simple import CLEAN, game_trace, random_game

FIELDS = ["t", "record", "turn", "computer", "leds", "problems", "outcome"]


def run(lines, *, as_json=True):
    out, err = io.StringIO(), io.StringIO()
    code = replay.run([json.dumps(x) if not isinstance(x, str) else x for x in lines], out, err, as_json=as_json)
    rows = [json.loads(line) for line in out.getvalue().splitlines()] if as_json else out.getvalue()
    return code, rows, err.getvalue()


def test_json_lines_carry_exactly_the_documented_fields():
    code, rows, err = run(
        [
            {"profile": "standard", "white": "human", "black": "computer"},
            {"t": 1.0, "on": "d6"},
            {"t": 2.0},
            {"t": 3.0, "on": "a7"},
            {"t": 4.0},
        ]
    )
    assert code == 0 and err == ""
    assert all(list(row) == FIELDS for row in rows)
    prompt = next(row for row in rows if row["computer"])
    # d6 is read at 1.2 s and confirmed 1 s after it landed (a trace may lose events): then the prompt.
    assert prompt == {
        "t": 2.0,
        "record": "d6",
        "turn": "black",
        "computer": "a7",
        "leds": {"a7": "computer-to", "d6": "last-move"},
        "problems": [],
        "outcome": None,
    }
    assert rows[-1]["record"] == "d6 a7" and rows[-1]["t"] == 4.0


def test_a_line_is_written_only_when_something_changes_and_a_final_line_at_the_end():
    _code, rows, _ = run([{"t": 1.0, "on": "d6"}, {"t": 5.0}, {"t": 6.0}, {"t": 9.0}])
    # d6 lights at 1.2 s (read), and is recorded at 2.0 s (confirmed: 1 s without a change)
    assert [row["t"] for row in rows] == [0.0, 1.2, 2.0, 9.0]


def test_problems_are_listed_with_their_corrections():
    _code, rows, _ = run([{"t": 0, "snapshot": ["d6"]}, {"t": 1.0}])
    assert rows[-1]["problems"] == [{"point": "d6", "kind": "extra", "text": "take the man off d6"}]
    assert rows[-1]["leds"] == {"d6": "extra"}


def test_buttons_resign_and_draw_and_outcome():
    _, rows, _ = run([{"t": 1.0, "on": "d6"}, {"t": 2.0, "button": "resign"}])
    assert rows[-1]["outcome"] == {"winner": "white", "reason": "resignation"}
    assert rows[-1]["leds"] == {"d6": "winner"}
    _code, rows, _ = run([{"t": 1.0, "on": "d6"}, {"t": 2.0, "button": "draw"}])
    assert rows[-1]["outcome"] is None  # no draw can be claimed here: the button does nothing


@pytest.mark.parametrize(
    "line, message",
    [
        ('{"t": 2.0, "on": "z9"}', "line 3: on: unknown point 'z9'"),
        ('{"t": 2.0, "snapshot": ["d6", "q1"]}', "line 3: snapshot: unknown point 'q1'"),
        ('{"t": 2.0, "on": "d6"', "line 3: not valid JSON"),
        ("[1, 2]", "line 3: each line must be a JSON object"),
        ('{"t": 0.5, "on": "d6"}', "line 3: time goes backwards: t=0.5 after t=1.0"),
        ('{"t": 2.0, "button": "explode"}', "line 3: unknown button 'explode'"),
        ('{"t": 2.0, "on": "d6", "off": "a1"}', "line 3: one event per line"),
        ('{"t": "soon", "on": "d6"}', "line 3: t must be a number"),
        ('{"on": "d6"}', "line 3: an event needs its time"),
    ],
)
def test_bad_input_names_the_line_and_nothing_of_it_is_recorded(line, message):
    code, rows, err = run(['{"profile": "standard"}', '{"t": 1.0}', line, '{"t": 3.0, "on": "a1"}', '{"t": 4.0}'])
    assert code == 1
    assert message in err
    assert rows[-1]["record"] == "a1"  # d6 never reached the board; the next line still counts


def test_bad_headers_are_refused():
    for header, message in [
        ({"profile": "chess"}, "line 1: profile: unknown rule profile"),
        ({"white": "computer", "black": "computer"}, "line 1: only one side can be the computer"),
        ({"white": "robot"}, "line 1: white must be 'human' or 'computer'"),
        ({"level": 11}, "line 1: level must be a whole number 1-10"),
        ({"colour": "red"}, "line 1: unknown header key(s) colour"),
    ]:
        code, _, err = run([header, {"t": 1.0}])
        assert code == 1 and message in err, err
    code, _rows, err = run([{"t": 1.0}, {"profile": "club"}])
    assert code == 1 and "line 2: an event needs its time" in err


def test_a_long_game_replays_stepping_only_at_events_and_deadlines():
    import random

    game = random_game("standard", random.Random(6), max_turns=150)
    events = game_trace(game, seed=6)
    r = replay.Replay(replay.parse_header(events[0]))
    for number, event in enumerate(events[1:], start=2):
        r.feed(replay.parse_event(event, number), number)
    final = r.finish()
    assert final.record == game.record
    assert len(game.history) == 150 and final.t > 120  # minutes of play ...
    assert r.steps < 5 * len(events)  # ... in a few steps per event, not a 1 ms grid


def test_text_output_tells_the_story(tmp_path, capsys):
    trace = tmp_path / "game.jsonl"
    lines = [
        {"profile": "standard", "black": "computer"},
        {"t": 1.0, "on": "d6"},
        {"t": 2.0, "on": "d7"},
        {"t": 3.0, "off": "d7"},
        {"t": 3.5, "on": "a7"},
        {"t": 5.0},
    ]
    trace.write_text("".join(json.dumps(x) + "\n" for x in lines))
    assert main(["replay", str(trace)]) == 0
    out = capsys.readouterr().out
    assert "1. d6" in out and "computer to play: a7" in out and "take the man off d7" in out
    assert out.rstrip().endswith("record: d6 a7\nresult: game goes on, white to move")


def test_a_missing_trace_file_is_reported(tmp_path):
    with pytest.raises(SystemExit, match="cannot read"):
        main(["replay", str(tmp_path / "nope.jsonl")])


def test_stdin_is_read_as_events_arrive_and_every_line_is_flushed():
    proc = subprocess.Popen(
        [sys.executable, "-m", "morris_pi.cli", "replay", "-", "--json"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        bufsize=1,
    )
    lines: list[dict] = []

    def read_until(done) -> dict:
        def reader() -> None:
            while True:
                text = proc.stdout.readline()
                if not text:
                    return
                lines.append(json.loads(text))
                if done(lines[-1]):
                    return

        thread = threading.Thread(target=reader, daemon=True)
        thread.start()
        thread.join(timeout=30)
        assert not thread.is_alive(), "the line that answers an event did not come while stdin stayed open"
        return lines[-1]

    def send(text: str) -> None:
        proc.stdin.write(text + "\n")
        proc.stdin.flush()

    try:
        send('{"profile": "standard", "black": "computer"}')
        send('{"t": 1.0, "on": "d6"}')
        send('{"t": 2.0}')
        # A program drives the board live: it reads the prompt and carries it out.
        row = read_until(lambda row: row["computer"] is not None)
        assert row["computer"] == "a7" and row["record"] == "d6" and row["t"] == 2.0  # confirmed 1 s after d6
        send('{"t": 3.0, "on": "a7"}')
        send('{"t": 4.0}')
        row = read_until(lambda row: row["record"] == "d6 a7")
        assert row["t"] == 4.0
    finally:
        proc.stdin.close()
        proc.wait(timeout=30)
        proc.stdout.close()
        proc.stderr.close()
    assert proc.returncode == 0


def test_clean_traces_of_every_profile_end_with_the_game_record():
    import random

    for profile in ("standard", "move-this", "club", "no-flying", "lasker", "twelve"):
        game = random_game(profile, random.Random(3), max_turns=60)
        _, rows, _ = run(game_trace(game, seed=3, mess=CLEAN))
        assert rows[-1]["record"] == game.record


def test_a_level_in_the_header_brings_the_engine_and_replays_the_same_every_time():
    from morris_pi.rules import Game

    lines = [
        {"profile": "standard", "white": "human", "black": "computer", "level": 2, "seed": 5},
        {"t": 1.0, "on": "d6"},
        {"t": 2.0},
    ]
    first = run(lines)[1]
    assert first == run(lines)[1]
    prompt = first[-1]["computer"]
    assert prompt in [str(t) for t in Game.from_record("d6").legal_turns()]
