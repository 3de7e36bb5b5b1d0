"""Each game has its own engine seed: the computer at a low level does not play the same game twice, and a
game stays repeatable because its seed is kept in its save, its record and its trace."""

from __future__ import annotations

from test_session import Rig

from morris_pi.core.opponents import engine_opponents
from morris_pi.core.ports import ManualClock
from morris_pi.core.storage import Storage
from morris_pi.engine.player import EnginePlayer
from morris_pi.rules import Game
from morris_pi.sim.backends import SimBoard
from morris_pi.sim.play import GameSession, SimSettings


def test_the_seed_of_each_game_goes_into_its_save_and_its_record(tmp_path):
    seeds = iter([11, 12, 13])
    rig = Rig(tmp_path, menu=False, seeds=lambda: next(seeds))
    assert rig.session.meta["seed"] == 11
    rig.play("d6")
    assert rig.saved()[1]["seed"] == 11
    rig.press("menu")
    rig.press("menu")  # twice: White resigns
    assert rig.snap.outcome is not None
    assert Storage(rig.storage.state_dir).list_records()[-1].tags["Seed"] == "11"
    rig.press("new")
    assert rig.session.meta["seed"] == 12
    # a resumed game keeps its own seed, whatever the next one would be
    rig.take("d6")  # the board cleared for the new game
    rig.play("a1")
    assert rig.saved()[0].record == "a1"
    again = Rig(tmp_path, menu=False, seeds=lambda: next(seeds), board={"a1"})
    assert again.started == "resumed" and again.session.meta["seed"] == 12


def first_prompts(settings: SimSettings, games: int) -> list[tuple[int, str]]:
    """The seed and the computer's first turn of ``games`` new games in one simulator."""
    board = SimBoard(clock=ManualClock())
    session = GameSession(board, settings, opponent_factory=engine_opponents(settings.seed, threaded=False))
    out = []
    try:
        for _ in range(games):
            for _ in range(20):
                board.clock.advance(0.05)
                session.step()
            out.append((session.session.meta["seed"], session.snapshot().computer))
            assert session.header()["seed"] == out[-1][0]  # the trace's header: replay plays it again
            session.session.new_game()
    finally:
        session.close()
    return out


def test_a_beginner_meets_a_new_game_each_time_and_each_replays_from_its_seed():
    settings = SimSettings(mode="computer", human="black", level=1)
    played = first_prompts(settings, 6)
    assert len({seed for seed, _ in played}) == 6
    assert len({turn for _, turn in played}) > 1  # 6 of 6 games opened the same way before
    for seed, turn in played:
        player = EnginePlayer(1, seed=seed, threaded=False)
        player.start(Game())
        assert str(player.result()) == turn


def test_a_seed_given_on_the_command_line_makes_every_game_the_same():
    played = first_prompts(SimSettings(mode="computer", human="black", level=1, seed=5), 3)
    assert {seed for seed, _ in played} == {5} and len({turn for _, turn in played}) == 1


def test_the_board_s_engine_keeps_no_tables_between_searches_and_plays_as_one_that_does():
    game = Game.from_record("d6 a1 f6 a4 b6xa1 d7 b4 g7 f4")
    kept = EnginePlayer(4, seed=3, threaded=False)
    # no wall-time cap: on a loaded machine the board's 3 s cap may cut the level-10 hint short,
    # and then it is another search, not another way of keeping the tables
    released = engine_opponents(3, threaded=False, max_time_s=None)(4)
    for player in (kept, released):
        player.start(game.copy(), hint=True)
    assert str(kept.result()) == str(released.result())
    assert kept.holds_tables and not released.player.holds_tables
    assert released.last is not None and released.last.pv  # the hint's line stays for the page
