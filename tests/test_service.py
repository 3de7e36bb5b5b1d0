"""``morris-pi run``'s loop over emulated hardware: whole games, takebacks, faults, saves and systemd."""

from __future__ import annotations

import logging

import pytest
from service_harness import FakeBoard
from service_person import Person

from morris_pi.config.loader import parse_config
from morris_pi.core.menu import LEVEL_POINTS, MODE_POINTS, START_POINT
from morris_pi.core.session import ERROR_PATTERNS
from morris_pi.core.storage import Storage
from morris_pi.guidance import DEFAULT_PALETTE
from morris_pi.hw.fakes.i2c import FakeMcp23017
from morris_pi.rules import Game
from morris_pi.service.loop import engine_factory

ERROR = DEFAULT_PALETTE["error"].colour


def config(tmp_path, *, mode="computer", menu=False, extra="") -> str:
    return f"""
[game]
mode = "{mode}"
human = "white"
level = 1
menu = {"true" if menu else "false"}
[sensors.mcp23017]
interrupt_pins = [4]
[leds]
brightness = 1.0
[leds.status]
white-to-move = 24
black-to-move = 25
error = 26
[buttons]
new = 17
undo = 27
menu = 23
[storage]
state_dir = "{tmp_path / "state"}"
[engine]
seed = 1
{extra}
"""


def error_points(board) -> set[str]:
    """Points that showed the error colour during one blink period."""
    return {p for p, colours in board.seen(1.3).items() if ERROR in colours}


def status_seen(board, name: str) -> set:
    """Colours the status LED ``name`` showed during one blink period."""
    out = set()
    for _ in range(26):
        board.run(0.05)
        out.add(board.status_leds().get(name))
    return out


def test_a_full_game_against_the_computer_with_a_takeback(tmp_path, boards):
    board = boards(config(tmp_path))
    person = Person(board)
    sent = board.notifier.sent
    assert sent[0][0] == "READY=1" and "white to move" in sent[0][1]

    for _ in range(3):
        person.play_own()
        person.play_computer()
    before = board.state()["record"]
    assert before == person.game.record and len(before.split()) == 6

    board.press("undo")  # takes back the computer's reply and my turn
    record = board.state()["record"]
    assert record.split() == before.split()[:4]
    person.follow_corrections()  # the LEDs guide the board back
    assert board.state()["problems"] == []
    person.game = Game.from_record(record)
    saved, _ = Storage(tmp_path / "state").load_current()
    assert saved.record == record  # the takeback is saved too

    while person.game.outcome is None:
        if person.game.turn == "white":
            person.play_own()
        else:
            person.play_computer()
        assert board.state()["record"] == person.game.record

    outcome = board.state()["outcome"]
    assert outcome == person.game.outcome.to_dict()
    [archived] = Storage(tmp_path / "state").list_records()
    assert archived.record == person.game.record
    assert archived.tags["Result"] in ("1-0", "0-1") and archived.tags["Black"] == "Computer (level 1)"
    assert Storage(tmp_path / "state").load_current() is None
    # the winner's men pulse
    winner = outcome["winner"]
    men = {p for p, side in person.game.board.items() if side == winner}
    assert set(board.seen(2.0)) >= men
    assert any("game over" in f[0] for f in sent if f[0].startswith("STATUS="))

    assert board.stop() == 0
    assert board.notifier.sent[-1][0] == "STOPPING=1"
    assert board.chain.colours() == [(0, 0, 0)] * board.config.leds.count  # LEDs off on the way out


def test_the_menu_on_the_points_through_the_expanders(tmp_path, boards):
    board = boards(config(tmp_path, mode="two-player", menu=True))
    assert board.state()["state"] == "menu"
    for point in (MODE_POINTS["computer"], LEVEL_POINTS[3], START_POINT):
        board.put(point, 0.4)
        board.take(point, 0.4)
    assert board.state()["state"] == "game"
    assert board.session.settings.mode == "computer" and board.session.settings.level == 4
    person = Person(board)
    person.play_own()
    person.play_computer()
    assert len(board.state()["record"].split()) == 2


def test_menu_button_reopens_the_menu_after_the_game(tmp_path, boards):
    board = boards(config(tmp_path, mode="two-player"))
    board.press("menu")
    assert board.state()["state"] == "menu"
    board.press("menu")  # and starts again
    assert board.state()["state"] == "game"


def test_a_corrupt_save_is_moved_aside_logged_and_a_new_game_starts(tmp_path, boards, caplog):
    state = tmp_path / "state"
    state.mkdir()
    (state / "current.json").write_text('{"format": "morris-pi/save", "version": 1, "game": "d6 a1 ')
    with caplog.at_level(logging.WARNING):
        board = boards(config(tmp_path, menu=True))
    assert board.state()["state"] == "menu"
    assert [p.name for p in state.glob("current.corrupt-*.json")]
    assert not (state / "current.json").exists()
    assert any("unusable" in r.getMessage() and "moved it to" in r.getMessage() for r in caplog.records)


def test_a_missing_sensor_board_shows_its_pattern_and_is_retried(tmp_path, boards, caplog):
    text = config(tmp_path, mode="two-player")
    board = FakeBoard(text)
    del board.bus.devices[0x21]  # the second expander is not connected
    with caplog.at_level(logging.INFO, logger="morris_pi.service"):
        board.start()
        try:
            assert error_points(board) == set(ERROR_PATTERNS["sensors"])
            assert ERROR in status_seen(board, "error")
            board.run(20)
            failures = [r for r in caplog.records if r.levelno == logging.ERROR]
            assert len(failures) == 1 and "0x21" in failures[0].getMessage()
            board.bus.devices[0x21] = FakeMcp23017(0x21)  # plugged in
            board.run(12)
            assert error_points(board) == set()
            assert any("works again" in r.getMessage() for r in caplog.records)
            board.put("d6")
            assert board.state()["record"] == "d6"
        finally:
            board.stop()


def test_an_i2c_error_mid_game_pauses_and_resumes_the_game(tmp_path, boards):
    board = boards(config(tmp_path, mode="two-player"))
    board.put("d6")
    board.bus.fail(0x20)
    assert error_points(board) == set(ERROR_PATTERNS["sensors"])
    assert "fault" in board.notifier.sent[-1][0]
    board.bus.heal(0x20)
    board.run(12)
    assert error_points(board) == set()
    board.put("a1")
    assert board.state()["record"] == "d6 a1"


def test_an_led_failure_is_retried_while_the_game_goes_on(tmp_path, boards, caplog, monkeypatch):
    board = boards(config(tmp_path, mode="two-player"))
    real_write = board.spi.write
    monkeypatch.setattr(board.spi, "write", lambda *a, **k: (_ for _ in ()).throw(OSError(5, "SPI transfer failed")))
    with caplog.at_level(logging.INFO, logger="morris_pi.service"):
        board.put("d6")
        board.run(5)
        assert board.state()["record"] == "d6"
        monkeypatch.setattr(board.spi, "write", real_write)
        board.run(12)
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and "LED chain" in errors[0].getMessage()
    assert board.leds().get("d6") == DEFAULT_PALETTE["last-move"].colour
    assert error_points(board) == set()


@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")
def test_an_engine_crash_shows_its_pattern_and_is_asked_again(tmp_path, boards, monkeypatch):
    from morris_pi.engine import player

    real = player.think
    broken = [True]

    def think(*args, **kw):
        if broken[0]:
            raise MemoryError("search blew up")
        return real(*args, **kw)

    monkeypatch.setattr(player, "think", think)
    text = config(tmp_path)
    make_engine = engine_factory(parse_config(text, "test.toml"))
    engines = []

    def factory(level):
        engines.append(make_engine(level))
        return engines[-1]

    board = boards(text, opponent_factory=factory)
    person = Person(board)
    person.play_own()
    board.run(0.5)  # the turn is read and the engine asked
    # The search thread runs in real time while the board runs on virtual time:
    # wait for it to die so the next scan sees the crash, however slow this machine.
    assert engines and engines[-1].player.join(30)
    board.run(3)
    assert error_points(board) == set(ERROR_PATTERNS["engine"])
    assert "computer player failed" in board.session.status()
    broken[0] = False  # asked again, it answers
    person.play_computer()
    assert error_points(board) == set()
    assert len(board.state()["record"].split()) == 2


def test_watchdog_pings_come_from_the_loop(tmp_path, boards):
    board = boards(config(tmp_path, mode="two-player"), env={"WATCHDOG_USEC": "2000000"})
    board.run(10)
    pings = [f for f in board.notifier.sent if f == ("WATCHDOG=1",)]
    assert 10 <= len(pings) <= 12


def test_no_watchdog_pings_when_the_config_turns_it_off(tmp_path, boards):
    board = boards(
        config(tmp_path, mode="two-player", extra="[service]\nwatchdog = false\n"), env={"WATCHDOG_USEC": "2000000"}
    )
    board.run(5)
    assert ("WATCHDOG=1",) not in board.notifier.sent


@pytest.mark.parametrize("answer", [(), (0xFF,), (0x1FF, 0), None, "xy"])
def test_a_malformed_bus_answer_is_a_sensor_fault_and_play_resumes(tmp_path, boards, caplog, answer):
    board = boards(config(tmp_path, mode="two-player"))
    board.put("d6")
    with caplog.at_level(logging.ERROR, logger="morris_pi.service"):
        board.bus.answer_malformed(0x20, answer)  # the driver returns short data instead of raising
        assert error_points(board) == set(ERROR_PATTERNS["sensors"])
    [error] = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
    assert "0x20" in error and "malformed answer" in error
    board.bus.heal(0x20)
    board.run(12)
    assert error_points(board) == set()
    board.put("a1")
    assert board.state()["record"] == "d6 a1"


def switch_warnings(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "morris_pi.switches" and r.levelno == logging.WARNING]


def test_a_flapping_switch_is_named_once_per_episode_and_makes_no_turn(tmp_path, boards, caplog):
    board = boards(config(tmp_path, mode="two-player"))
    board.put("d6")
    with caplog.at_level(logging.INFO, logger="morris_pi.switches"):
        for _ in range(2):
            for _ in range(300):  # every 3 ms for 0.9 s: a reed at the edge of its magnet
                board.close("a1")
                board.run(0.003)
                board.open("a1")
                board.run(0.003)
            board.run(3)  # quiet: the episode ends
    warnings = switch_warnings(caplog)
    assert len(warnings) == 2 and all("a1 is flapping" in w for w in warnings)
    assert board.state()["record"] == "d6"


def test_a_stuck_switch_in_the_moving_phase_is_named_once(tmp_path, boards, caplog):
    state = tmp_path / "state"
    state.mkdir()
    game = Game.from_record("a7 d7 g7 g4 g1 d1 a1 a4 b6 d6 f6 f4 f2 d2 b2 b4 c5 d5xa7")  # moving now
    Storage(state).save_current(game, {"mode": "two-player", "id": "20250601-100000"})
    board = boards(config(tmp_path, mode="two-player"))
    for point in game.board:
        board.close(point)
    board.run(1)
    assert board.state()["problems"] == []
    with caplog.at_level(logging.INFO, logger="morris_pi.switches"):
        board.close("e4")  # no man there: the reed is stuck
        board.run(19)
        assert switch_warnings(caplog) == []
        board.run(60)
        board.open("e4")
        board.run(1)
        board.close("e4")
        board.run(25)
    warnings = switch_warnings(caplog)
    assert len(warnings) == 2 and all("switch e4 has read closed for 20 s" in w for w in warnings)
    assert board.state()["record"] == game.record
