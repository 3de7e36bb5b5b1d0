"""The one engine factory of the service and the simulator, and what it does when the engine is missing."""

from __future__ import annotations

import logging
import sys

import pytest

from morris_pi.config.loader import parse_config
from morris_pi.core.opponents import StandInOpponent, WatchedEngine
from morris_pi.core.ports import ManualClock
from morris_pi.engine.player import EnginePlayer
from morris_pi.rules import Game
from morris_pi.service.loop import engine_factory
from morris_pi.sim.backends import SimBoard
from morris_pi.sim.play import GameSession, SimSettings


@pytest.fixture
def broken_engine(monkeypatch):
    """An install whose engine cannot be imported (None in sys.modules makes the import fail)."""
    monkeypatch.setitem(sys.modules, "morris_pi.engine.player", None)


def test_the_simulator_says_loudly_when_the_engine_is_missing_and_the_computer_still_plays(broken_engine, caplog):
    board = SimBoard(clock=ManualClock(10.0))
    with caplog.at_level(logging.WARNING):
        game = GameSession(board, SimSettings(mode="computer", human="black", level=3, seed=5))
    try:
        [error] = [r for r in caplog.records if r.levelno >= logging.WARNING]
        assert error.levelno == logging.ERROR
        assert "engine cannot be loaded" in error.getMessage() and "morris_pi.engine.player" in error.getMessage()
        game.step()
        assert game.snapshot().computer == "a7"  # the first legal turn, prompted on the board as usual
        warnings = [text for style, text in game.panel() if style == "warn"]
        assert any("engine cannot be loaded" in text and "first legal turn" in text for text in warnings)
    finally:
        game.close()


def test_the_simulator_panel_has_no_stand_in_line_with_the_engine():
    board = SimBoard(clock=ManualClock(10.0))
    game = GameSession(board, SimSettings(mode="computer", human="black", level=1, seed=5))
    try:
        assert game.stand_in() is None
        assert isinstance(game.session.controller.opponent, WatchedEngine)
        assert not any("cannot be loaded" in text for _, text in game.panel())
    finally:
        game.close()


def test_the_service_reports_a_missing_engine_under_its_own_name(broken_engine, caplog):
    make = engine_factory(parse_config("", "test.toml"))
    with caplog.at_level(logging.ERROR, logger="morris_pi.service"):
        opponent = make(4)
    assert isinstance(opponent, StandInOpponent)
    assert [r.name for r in caplog.records] == ["morris_pi.service"]


class SlowBoard:
    """A clock for a board far slower than this machine: a second passes at every look."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


# every man placed (the opening book has no turn here), white to move
MOVING = "g1 e4 g7 f6 a1 e3 c3 c4 c5 d6 b6 d7 d5 a7 d3 b2 d2 f2"


def capped_engine(cap, clock, level=10):
    return WatchedEngine(EnginePlayer(level, seed=3, threaded=False, wall_cap_s=cap, clock=clock))


def test_the_time_cap_cuts_a_turn_short_on_a_slow_board_and_the_log_says_so(caplog):
    game = Game.from_record(MOVING)
    opponent = capped_engine(3.0, SlowBoard())
    with caplog.at_level(logging.INFO, logger="morris_pi.core.opponents"):
        opponent.start(game)
        turn = opponent.result()
    assert str(turn) in [str(t) for t in game.legal_turns()]
    assert opponent.cut == 3.0
    assert opponent.last.nodes < 85_000  # stopped by the cap, well short of level 10's budget
    [line] = [r.getMessage() for r in caplog.records]
    assert line.startswith(f"the computer's turn {turn} was cut at the 3 s time cap (depth ")


def test_the_time_cap_applies_to_hints_too(caplog):
    opponent = capped_engine(2.0, SlowBoard(), level=1)  # hints search at level 10 whatever the level
    with caplog.at_level(logging.INFO, logger="morris_pi.core.opponents"):
        opponent.start(Game.from_record(MOVING), hint=True)
        hint = opponent.result()
    assert opponent.cut == 2.0
    assert [r.getMessage() for r in caplog.records] == [
        f"the hint {hint} was cut at the 2 s time cap (depth {opponent.last.depth}, {opponent.last.nodes:,} nodes)"
    ]


def test_a_search_the_cap_does_not_reach_plays_the_level_as_everywhere(caplog):
    """The node budget still decides: a cap that never fires changes no turn."""
    game = Game.from_record(MOVING)
    free = capped_engine(None, SlowBoard())
    free.start(game)
    capped = capped_engine(3600.0, lambda: 0.0)
    with caplog.at_level(logging.INFO):
        capped.start(game)
        assert capped.result() == free.result()
    assert capped.cut is None and capped.last.nodes == free.last.nodes
    assert not [r for r in caplog.records if "time cap" in r.getMessage()]


def test_the_page_says_when_the_cap_cut_the_computers_search():
    from morris_pi.core.menu import GameSettings
    from morris_pi.core.session import Session
    from morris_pi.core.virtual import RecordingStrip, VirtualSensors
    from morris_pi.web.seam import take_view

    clock = ManualClock(10.0)
    session = Session(
        sensors=VirtualSensors(),
        leds=RecordingStrip(),
        clock=clock,
        defaults=GameSettings(mode="computer", human="black", level=5),
        menu=False,
        opponent_factory=lambda level: capped_engine(2.5, SlowBoard(), level),
    )
    session.start()
    try:
        for _ in range(5):
            session.step()
            clock.advance(0.1)
        assert session.snapshot().computer is not None  # the computer's first turn is lit
        searched = take_view(session, 1).searched
        assert searched is not None and searched["cut"] == 2.5, searched
    finally:
        session.close()


def test_the_board_caps_turns_at_three_seconds_unless_the_config_says_otherwise():
    default = engine_factory(parse_config("", "test.toml"))(10)
    assert default.player.wall_cap_s == 3.0
    longer = engine_factory(parse_config("[engine]\nmax_time_s = 12.5\n", "test.toml"))(10)
    assert longer.player.wall_cap_s == 12.5


def test_closing_the_watched_engine_closes_the_player_once():
    player = EnginePlayer(3, seed=3, threaded=False)
    engine = WatchedEngine(player)
    engine.start(Game())
    engine.close()
    engine.close()
    assert player.closed and engine.closed and "closed" in repr(engine)
