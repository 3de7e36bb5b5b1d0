"""The one engine factory of the service and the simulator, and what it does when the engine is missing."""

from __future__ import annotations

import logging
import sys

import pytest

from morris_pi.board.opponents import StandInOpponent, WatchedEngine, engine_opponents
from morris_pi.board.ports import ManualClock
from morris_pi.config.loader import parse_config
from morris_pi.service.loop import engine_factory
from morris_pi.sim.backends import SimBoard
from morris_pi.sim.session import GameSession, SimSettings


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


def test_the_time_cap_applies_to_turns_and_hints():
    opponent = engine_opponents(3, max_time_s=0.05, threaded=False)(8)
    assert isinstance(opponent, WatchedEngine)
    assert opponent.player.level.seconds <= 0.05 and opponent.player.hint_level.seconds <= 0.05
