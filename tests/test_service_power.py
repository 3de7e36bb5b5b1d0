"""A power cut mid-game: the service process is killed outright, started again, and resumes the game."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

from morris_pi.guidance import DEFAULT_PALETTE
from morris_pi.rules import Game, Turn

HARNESS = Path(__file__).with_name("service_harness.py")
MISSING = list(DEFAULT_PALETTE["missing"].colour)


class Process:
    """The harness in a process of its own: one JSON command in, one JSON state out."""

    def __init__(self, config: Path) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, str(HARNESS), str(config)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            bufsize=1,
        )

    def send(self, **command) -> dict:
        self.proc.stdin.write(json.dumps(command) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        assert line, self.proc.stderr.read()
        return json.loads(line)

    def play(self, turn: str) -> dict:
        t = Turn.parse(turn)
        if t.origin:
            self.send(open=t.origin, run=0.1)
        state = self.send(close=t.target, run=0.5)
        if t.removal:
            state = self.send(open=t.removal, run=0.5)
        return state

    def kill(self) -> int:
        self.proc.send_signal(signal.SIGKILL)
        code = self.proc.wait(30)
        self.proc.stdin.close()
        self.proc.stdout.close()
        self.proc.stderr.close()
        return code

    def close(self) -> int:
        self.proc.stdin.close()
        code = self.proc.wait(30)
        self.proc.stdout.close()
        self.proc.stderr.close()
        return code


def test_power_cut_mid_game_resumes_the_saved_game_with_corrections(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text(f"""
[game]
mode = "computer"
human = "white"
level = 1
menu = true
[leds]
brightness = 1.0
[storage]
state_dir = "{tmp_path / "state"}"
[engine]
seed = 3
""")
    first = Process(config)
    state = first.send(state=True)
    assert state["state"] == "menu"
    first.send(close="d1", run=0.4)  # GO on the menu: start with the config's settings
    state = first.send(open="d1", run=0.4)
    assert state["state"] == "game"
    game = Game()
    for own in ("d6", "f4", "b4"):
        state = first.play(own)
        game.play(own)
        for _ in range(200):  # the engine thinks in real time
            if state["computer"]:
                break
            state = first.send(run=0.1)
        reply = state["computer"]
        state = first.play(reply)
        game.play(reply)
        assert state["record"] == game.record
    first.proc.stdin.write(json.dumps({"run": 30}) + "\n")  # mid-scan, mid-anything:
    first.proc.stdin.flush()
    assert first.kill() == -signal.SIGKILL  # the plug is pulled

    second = Process(config)  # the board comes back, every man knocked over
    state = second.send(state=True)
    assert state["state"] == "game" and state["record"] == game.record
    men = set(game.board)
    assert {p for p, role in state["roles"].items() if role == "missing"} == men
    assert {p for p, colour in second.send(run=0.05)["leds"].items() if colour == MISSING} <= men
    seen = set()
    for _ in range(10):  # the missing men blink orange
        seen |= {p for p, colour in second.send(run=0.05)["leds"].items() if colour == MISSING}
    assert seen == men
    for point in sorted(men):
        state = second.send(close=point, run=0.1)
    state = second.send(run=0.5)
    assert state["problems"] == []
    turn = str(next(t for t in game.legal_turns() if not t.removal))
    state = second.play(turn)  # and the game goes on
    assert state["record"] == f"{game.record} {turn}"
    assert second.close() == 0
