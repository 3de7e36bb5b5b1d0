"""The board's whole flow: menu, game, saves after every turn, resume with corrections, records."""

from __future__ import annotations

import logging

import pytest

from morris_pi.core.menu import LEVEL_POINTS, MODE_POINTS, PROFILE_POINTS, START_POINT, GameSettings
from morris_pi.core.ports import ManualClock
from morris_pi.core.session import ERROR_PATTERNS, Session, timings
from morris_pi.core.storage import Storage
from morris_pi.core.virtual import RecordingStrip, VirtualButtons, VirtualSensors
from morris_pi.guidance import DEFAULT_PALETTE
from morris_pi.rules import Game, Turn

ERROR = DEFAULT_PALETTE["error"].colour


class Rig:
    """A board in virtual time: sensors set by hand, buttons pressed, the session stepped."""

    def __init__(self, tmp_path, *, board=(), menu=True, defaults=None, factory=None, storage=None, seeds=None) -> None:
        self.clock = ManualClock(100.0)
        self.sensors = VirtualSensors(board, scans=True)  # the service reads every switch each scan
        self.buttons = VirtualButtons()
        self.strip = RecordingStrip()
        self.storage = storage if storage is not None else Storage(tmp_path / "state")
        self.session = Session(
            sensors=self.sensors,
            leds=self.strip,
            clock=self.clock,
            buttons=self.buttons,
            storage=self.storage,
            defaults=defaults or GameSettings(mode="two-player"),
            menu=menu,
            opponent_factory=factory,
            seeds=seeds,
        )
        self.started = self.session.start()
        self.session.step()

    def wait(self, seconds: float = 0.5) -> None:
        end = self.clock.now() + seconds
        while True:
            wake = self.session.next_wakeup()
            step_to = min(end, wake) if wake is not None and wake > self.clock.now() else end
            self.clock.set(min(step_to, self.clock.now() + 0.01) if step_to > self.clock.now() else step_to)
            self.session.step()
            if self.clock.now() >= end:
                return

    def put(self, point: str) -> None:
        self.sensors.close_switch(point)
        self.wait()

    def take(self, point: str) -> None:
        self.sensors.open_switch(point)
        self.wait()

    def tap(self, point: str) -> None:
        self.put(point)
        self.take(point)

    def press(self, name: str) -> None:
        self.buttons.press(name)
        self.wait(0.1)

    def play(self, turn: str) -> None:
        t = Turn.parse(turn)
        if t.origin:
            self.take(t.origin)
        self.put(t.target)
        if t.removal:
            self.take(t.removal)

    @property
    def snap(self):
        return self.session.snapshot()

    @property
    def record(self) -> str:
        return self.session.controller.game.record

    def saved(self) -> tuple[Game, dict] | None:
        return Storage(self.storage.state_dir).load_current()


def test_menu_first_then_a_game_with_the_chosen_settings(tmp_path):
    rig = Rig(tmp_path, defaults=GameSettings(mode="two-player"))
    assert rig.started == "menu" and rig.session.state == "menu"
    assert rig.strip.points  # the menu is lit
    rig.tap(PROFILE_POINTS[2])  # club rules
    rig.tap(START_POINT)
    assert rig.session.state == "game"
    assert rig.snap.profile == "club" and rig.snap.computer_side is None
    assert rig.session.settings == GameSettings(mode="two-player", profile="club")


def test_men_left_on_the_board_are_corrections_before_the_first_turn(tmp_path):
    rig = Rig(tmp_path, board={"a1", "g7"})
    rig.press("new")  # start straight away from the menu
    assert rig.snap.leds == {"a1": "extra", "g7": "extra"}
    rig.take("a1")
    rig.take("g7")
    assert rig.snap.problems == ()
    rig.play("d6")
    assert rig.record == "d6"


def test_every_turn_is_saved_with_the_settings_and_the_game_id(tmp_path):
    rig = Rig(tmp_path, menu=False)
    assert rig.started == "new" and rig.saved() is None
    rig.play("d6")
    game, meta = rig.saved()
    assert game.record == "d6"
    assert meta["mode"] == "two-player" and meta["profile"] == "standard" and meta["id"]
    rig.play("a1")
    assert rig.saved()[0].record == "d6 a1"
    rig.press("undo")  # takeback by button: the save follows
    assert rig.saved()[0].record == "d6"
    assert rig.saved()[1]["id"] == meta["id"]


def test_resume_guides_the_board_back_and_play_goes_on(tmp_path):
    first = Rig(tmp_path, menu=False)
    for turn in ("d6", "a1", "f4"):
        first.play(turn)
    meta = first.saved()[1]
    # power cut: a new session on the same state directory, the men knocked off the board
    rig = Rig(tmp_path, board={"d6"}, menu=True)
    assert rig.started == "resumed" and rig.session.state == "game"
    assert rig.record == "d6 a1 f4"
    assert rig.snap.leds == {"a1": "missing", "f4": "missing"}
    rig.put("a1")
    rig.put("f4")
    assert rig.snap.problems == () and not rig.session.controller.tracker.resync
    rig.play("g7")
    assert rig.record == "d6 a1 f4 g7"
    assert rig.saved()[1]["id"] == meta["id"]


def test_a_finished_game_is_archived_once_and_the_next_game_gets_a_new_id(tmp_path):
    rig = Rig(tmp_path, menu=False)
    rig.play("d6")
    first_id = rig.session.meta["id"]
    rig.press("menu")  # during a game: arms resignation ...
    assert "confirm" in rig.snap.status.values()
    rig.press("menu")  # ... and the second press resigns
    assert rig.snap.outcome is not None
    records = rig.storage.list_records()
    assert [r.id for r in records] == [first_id] and records[0].tags["Reason"] == "resignation"
    assert rig.saved() is None
    rig.take("d6")  # clearing the board starts the next game
    assert rig.record == "" and rig.snap.outcome is None
    rig.play("a7")
    assert rig.session.meta["id"] != first_id
    assert len(rig.storage.list_records()) == 1


def test_a_game_abandoned_with_new_is_kept_as_unfinished(tmp_path):
    rig = Rig(tmp_path, menu=False)
    rig.play("d6")
    rig.play("a1")
    rig.press("new")
    [record] = rig.storage.list_records()
    assert record.record == "d6 a1" and record.tags["Result"] == "*"


def test_a_saved_game_that_had_ended_is_archived_again_not_twice(tmp_path):
    store = Storage(tmp_path / "state")
    game = Game.from_record("d6 a1 f4")
    game.resign("black")
    meta = {"id": store.new_game_id(), **GameSettings(mode="two-player").meta()}
    store.save_current(game, meta)
    store.finish(game, meta)
    store.save_current(game, meta)  # as if the power failed before the save was cleared
    rig = Rig(tmp_path, menu=False)
    assert rig.started == "new"
    assert [r.id for r in rig.storage.list_records()] == [meta["id"]]
    assert rig.saved() is None


def test_menu_button_opens_the_menu_only_before_the_first_turn_or_after_the_end(tmp_path):
    rig = Rig(tmp_path, menu=False)
    rig.press("menu")
    assert rig.session.state == "menu"
    rig.tap(MODE_POINTS["computer"])  # against the computer ...
    rig.tap(LEVEL_POINTS[6])  # ... at level 7
    rig.press("menu")  # the menu button starts, too
    assert rig.session.state == "game"
    assert rig.session.settings == GameSettings(mode="computer", level=7)
    rig.play("d6")
    assert rig.snap.computer  # the computer's reply is prompted
    rig.press("menu")
    assert rig.session.state == "game"  # mid-game: the button arms resignation instead


def test_computer_game_with_an_opponent_factory_per_level(tmp_path):
    made = []

    def factory(level):
        from morris_pi.core.ports import FirstLegalOpponent

        made.append(level)
        return FirstLegalOpponent()

    rig = Rig(tmp_path, menu=True, defaults=GameSettings(mode="computer", level=2), factory=factory)
    rig.tap(LEVEL_POINTS[8])
    rig.tap(START_POINT)
    assert made == [9]
    rig.play("d6")
    prompt = rig.snap.computer
    rig.play(prompt)
    assert rig.record == f"d6 {prompt}"


def test_error_patterns_show_over_the_board(tmp_path):
    rig = Rig(tmp_path, menu=False, board=set())
    rig.play("d6")
    rig.clock.set(120.0)  # the lit half of the double blink
    rig.session.set_fault("sensors", "MCP23017 at 0x20: no answer")
    rig.session.refresh()
    assert rig.strip.points == {p: ERROR for p in ERROR_PATTERNS["sensors"]}
    assert rig.strip.status == {"error": ERROR}
    rig.clock.set(120.2)  # the dark half: the pattern blinks off
    rig.session.refresh()
    assert rig.strip.points == {}
    rig.session.clear_fault("sensors")
    rig.session.set_fault("leds", "SPI write failed")
    rig.clock.set(121.2)
    rig.session.step()
    lit = {p for p, c in rig.strip.points.items() if c == ERROR}
    assert lit == set(ERROR_PATTERNS["leds"])
    assert "d6" in rig.strip.points  # the game's own frame still shows elsewhere
    assert "fault: SPI write failed" in rig.session.status()


def test_a_failing_computer_player_shows_the_engine_pattern(tmp_path):
    class Broken:
        thinking = False

        def start(self, game, *, hint=False):
            raise RuntimeError("engine crashed")

        def result(self):
            return None

        def cancel(self):
            pass

    rig = Rig(
        tmp_path, menu=False, defaults=GameSettings(mode="computer", human="white"), factory=lambda level: Broken()
    )
    rig.play("d6")
    rig.clock.set(144.0)
    rig.session.step()
    lit = {p for p, c in rig.strip.points.items() if c == ERROR}
    assert lit == set(ERROR_PATTERNS["engine"])
    assert "computer player failed" in rig.session.status()
    # the pattern blinks: the session wakes at its edges, well before the player is asked again
    shown = []
    for _ in range(3):
        rig.clock.set(rig.session.next_wakeup() + 0.001)  # a real loop wakes a little late
        rig.session.step()
        shown.append(set(ERROR_PATTERNS["engine"]) <= set(rig.strip.points))
    assert shown == [False, True, False]


def test_a_storage_failure_is_logged_once_and_shown_and_play_goes_on(tmp_path, caplog):
    blocker = tmp_path / "state"
    blocker.write_text("a file where the state directory should be")
    with caplog.at_level(logging.ERROR, logger="morris_pi.core.session"):
        rig = Rig(tmp_path, menu=False)
        rig.play("d6")
        rig.play("a1")
    assert rig.record == "d6 a1"
    assert "storage" in rig.session.all_faults()
    mine = [r for r in caplog.records if r.name == "morris_pi.core.session"]
    assert len(mine) == 1 and "the game goes on unsaved" in mine[0].getMessage()


@pytest.mark.parametrize("settle_ms, expected", [(200, (0.08, 0.12)), (0, (0.0, 0.0)), (500, (0.08, 0.42))])
def test_settle_ms_is_the_time_before_a_turn_is_read(settle_ms, expected):
    assert timings(settle_ms) == pytest.approx(expected)


def test_menu_button_after_the_game_has_ended_opens_the_menu(tmp_path):
    rig = Rig(tmp_path, menu=False)
    rig.play("d6")
    rig.press("menu")
    rig.press("menu")  # resigned
    assert rig.snap.outcome is not None
    rig.press("menu")
    assert rig.session.state == "menu"
    rig.tap(PROFILE_POINTS[1])
    rig.tap(START_POINT)
    assert rig.snap.profile == "move-this" and rig.snap.leds == {"d6": "extra"}
    assert len(rig.storage.list_records()) == 1
