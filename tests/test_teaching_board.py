"""The board that teaches: assistance per player (targets by quality, blunder warnings, hint limits)
and a position set up on the board from a FEN."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from morris_pi import replay
from morris_pi.config.loader import ConfigError, parse_config
from morris_pi.core.assist import Assistance, Assists
from morris_pi.core.controller import Controller
from morris_pi.core.menu import ASSIST_POINTS, GameSettings, Menu
from morris_pi.core.opponents import EngineGrader
from morris_pi.core.ports import FirstLegalOpponent, ManualClock
from morris_pi.core.session import Session
from morris_pi.core.virtual import RecordingStrip, VirtualButtons, VirtualSensors
from morris_pi.guidance import DEFAULT_PALETTE, render
from morris_pi.rules import Game, Turn

DATA = Path(__file__).parent / "data"
#: After d6 g4 d5 black must block d7: g7 lets d5-d6-d7 close (graded a blunder on the board's budget).
BLUNDER_RECORD = "d6 g4 d5"
FEN = "********/OO******/*****@@* w p p 2 7 2 7 0 0 0 0 0 0 0 0 3"
COACHED = Assistance(targets=True, warn=True)


def grader() -> EngineGrader:
    """The engine's grading in step with the manual clock, no wall-time cap (the same grades anywhere)."""
    return EngineGrader(threaded=False, max_time_s=None)


class Board:
    """A controller on virtual ends, a hand that places men, and time that passes."""

    def __init__(self, assists: Assists, *, computer: str | None = None, opponent=None, game: Game | None = None):
        self.clock, self.sensors, self.buttons = ManualClock(), VirtualSensors(), VirtualButtons()
        self.strip = RecordingStrip(keep=True)
        if game is not None:
            self.sensors.set(frozenset(game.board))
        self.c = Controller(
            sensors=self.sensors,
            leds=self.strip,
            clock=self.clock,
            buttons=self.buttons,
            computer=computer,
            opponent=opponent,
            grader=grader(),
            assists=assists,
            game=game,
        )
        self.c.step()
        self.wait(1.5)

    def wait(self, seconds: float = 1.5) -> None:
        self.c.run_until(self.clock.now() + seconds)
        self.c.step()

    def put(self, point: str) -> None:
        self.sensors.close_switch(point)
        self.c.step()
        self.wait()

    def lift(self, point: str) -> None:
        self.sensors.open_switch(point)
        self.c.step()

    def press(self, name: str) -> None:
        self.buttons.press(name)
        self.c.step()
        self.wait()


def test_a_due_placement_lights_every_target_by_quality_on_the_strip():
    board = Board(Assists(black=COACHED), game=Game.from_record(BLUNDER_RECORD))
    leds = board.c.snapshot().leds
    assert leds["d7"] == "target-good"  # the block
    assert leds["g7"] == "target-losing"
    colours = board.strip.points
    t = board.clock.now()
    for point in ("d7", "g7"):
        expected = render({point: leds[point]}, t, DEFAULT_PALETTE).get(point)
        assert colours.get(point) == expected


def test_a_lifted_man_lights_his_targets_by_quality_instead_of_one_colour():
    game = Game()
    while game.in_hand["black"] or game.pending is not None:  # men placed quietly, to the moving phase
        turns = game.legal_turns()
        game.play(turns[(len(game.history) * 7) % len(turns)])
    assert game.outcome is None
    plain, coached = Board(Assists(), game=game.copy()), Board(Assists(white=COACHED), game=game.copy())
    man = next(t.origin for t in game.legal_turns() if t.origin)
    for board in (plain, coached):
        board.lift(man)
    targets = set(game.legal_targets(man))
    plain_roles = {p: r for p, r in plain.c.snapshot().leds.items() if p in targets}
    coached_roles = {p: r for p, r in coached.c.snapshot().leds.items() if p in targets}
    assert set(plain_roles.values()) == {"legal-target"}
    assert set(coached_roles) == targets and set(coached_roles.values()) <= {
        "target-good",
        "target-doubtful",
        "target-losing",
    }
    assert "legal-target" not in coached_roles.values()


def test_only_the_assisted_player_sees_the_qualities():
    board = Board(Assists(white=COACHED), game=Game.from_record(BLUNDER_RECORD))  # black to place, white assisted
    assert not any(r.startswith("target-") for r in board.c.snapshot().leds.values())


def test_a_blunder_in_a_two_player_game_flashes_the_man_until_it_is_taken_back():
    board = Board(Assists(black=COACHED), game=Game.from_record(BLUNDER_RECORD))
    board.put("g7")
    snap = board.c.snapshot()
    assert snap.record == BLUNDER_RECORD + " g7"
    assert snap.warning is not None and snap.warning["point"] == "g7" and snap.warning["better"] == "d7"
    assert snap.leds["g7"] == "blunder"
    assert snap.warning["reply"] is not None  # the opponent's answer, graded to say why
    board.clock.set((board.clock.now() // 0.6 + 1) * 0.6 + 0.05)  # the flash's lit part
    board.c.step()
    assert board.strip.points["g7"] == DEFAULT_PALETTE["blunder"].colour
    board.press("undo")
    assert board.c.snapshot().record == BLUNDER_RECORD and board.c.warning is None


def test_a_player_may_play_on_after_the_warning():
    board = Board(Assists(black=COACHED), game=Game.from_record(BLUNDER_RECORD))
    board.put("g7")
    assert board.c.warning is not None
    board.press("hint")  # while the warning shows, the hint button plays on
    assert board.c.warning is None and board.c.snapshot().record.endswith("g7")
    board.put("d7")  # white takes the gift: nothing warns white (not assisted)
    assert board.c.snapshot().pending == "d7"


def test_a_player_without_warnings_is_not_warned():
    board = Board(Assists(white=COACHED), game=Game.from_record(BLUNDER_RECORD))
    board.put("g7")
    assert board.c.warning is None


class Scripted(FirstLegalOpponent):
    """The computer playing the turns it is given, in order (and counting how often it was asked)."""

    def __init__(self, turns: list[str]) -> None:
        super().__init__()
        self.turns = [Turn.parse(t) for t in turns]
        self.asked: list[str] = []

    def start(self, game: Game, *, hint: bool = False) -> None:
        self.asked.append(game.record)
        self._turn = self.turns.pop(0)


def test_against_the_computer_the_warning_comes_before_its_reply():
    computer = Scripted(["d5", "d7xg7"])
    board = Board(Assists(black=COACHED), computer="white", opponent=computer, game=Game.from_record("d6 g4"))
    assert board.c.snapshot().computer == "d5"
    board.put("d5")  # the human carries out the computer's turn
    board.put("g7")  # and blunders
    snap = board.c.snapshot()
    assert snap.warning is not None and snap.leds["g7"] == "blunder"
    assert computer.asked == ["d6 g4"]  # the computer waits while the warning shows
    board.press("hint")  # play on
    assert computer.asked == ["d6 g4", "d6 g4 d5 g7"]
    assert board.c.snapshot().computer == "d7xg7"


def test_hint_limits_count_per_player_and_game():
    board = Board(Assists(white=Assistance(hints=1), black=Assistance(hints=0)), opponent=FirstLegalOpponent())
    assert board.c.hints_left() == {"white": 1, "black": 0}
    board.press("hint")
    assert board.c.snapshot().hint is not None and board.c.hints_left()["white"] == 0
    board.put(board.c.snapshot().hint)
    board.press("hint")  # black has none
    assert board.c.snapshot().hint is None


def test_the_set_up_menu_cycles_each_players_assistance():
    menu = Menu(GameSettings(mode="two-player"))
    assert set(ASSIST_POINTS.values()) <= set(menu.choices())
    menu.choose(ASSIST_POINTS["black"])
    assert menu.settings.assist == Assists(black=Assistance(targets=True, warn=True))
    assert menu.frame().points[ASSIST_POINTS["black"]] == "menu-choice"
    assert "coached" in menu.options()[ASSIST_POINTS["black"]]
    against = Menu(GameSettings(mode="computer", human="black"))
    assert ASSIST_POINTS["white"] not in against.choices()  # the computer needs no help


def test_the_config_sets_each_players_assistance_and_names_bad_keys():
    config = parse_config("[assist.white]\ntargets = true\nwarn = true\nhints = 3\n[assist.black]\nhints = 0\n")
    assert config.assist == Assists(Assistance(True, True, 3), Assistance(hints=0))
    assert GameSettings.from_config(config.game, config.assist).assist == config.assist
    with pytest.raises(ConfigError, match=r"board.toml:2: assist.black.hints: must be a whole number"):
        parse_config('[assist.black]\nhints = "lots"\n', "board.toml")


def test_the_assistance_is_kept_in_the_record(tmp_path):
    from morris_pi.core.storage import Storage

    storage = Storage(tmp_path)
    clock, sensors = ManualClock(), VirtualSensors()
    settings = GameSettings(mode="two-player", assist=Assists(white=Assistance(hints=2)))
    session = Session(
        sensors=sensors, leds=RecordingStrip(), clock=clock, storage=storage, defaults=settings, menu=False
    )
    session.start()
    session.step()
    session.press("resign")
    session.step()
    record = storage.list_records()[-1]
    assert record.tags["Assistance"] == "white: hints=2; black: plain"


# -- a position set up on the board ---------------------------------------------------------


def test_a_set_up_trace_replays_to_the_game_that_follows_it():
    out, err = io.StringIO(), io.StringIO()
    assert replay.run((DATA / "setup-fen.jsonl").read_text().splitlines(), out, err, as_json=True) == 0, err.getvalue()
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    first = lines[0]
    assert first["setup"]["white"] == ["d6", "f6"] and first["leds"] == {"d6": "setup-white", "f6": "setup-white"}
    # a man put on a black point while white men are missing is refused
    assert any(line.get("setup") and line["leds"].get("a1") == "extra" for line in lines)
    # once the white men stand, the black points light
    assert any(line.get("setup") and line["leds"] == {"a1": "setup-black", "a4": "setup-black"} for line in lines)
    assert "setup" not in lines[-1] and lines[-1]["record"] == "b6xa1" and lines[-1]["turn"] == "black"


def test_a_bad_fen_in_a_trace_header_is_named():
    out, err = io.StringIO(), io.StringIO()
    assert replay.run(['{"fen": "nonsense"}'], out, err) == 1
    assert "line 1: fen:" in err.getvalue()


def test_the_session_sets_up_a_position_and_keeps_its_fen(tmp_path):
    from morris_pi.core.storage import Storage

    storage = Storage(tmp_path)
    clock, sensors = ManualClock(), VirtualSensors()
    session = Session(
        sensors=sensors,
        leds=RecordingStrip(),
        clock=clock,
        storage=storage,
        defaults=GameSettings(mode="two-player"),
        menu=False,
    )
    session.start()
    session.step()
    with pytest.raises(ValueError):
        session.set_up("not a fen")
    session.set_up(FEN)
    assert session.setting_up
    for point in ("d6", "f6", "a1", "a4"):
        sensors.close_switch(point)
        clock.advance(0.5)
        session.step()
        clock.advance(0.5)
        session.step()
    assert not session.setting_up and session.snapshot().start == FEN
    session.press("resign")
    session.step()
    record = storage.list_records()[-1]
    assert record.tags["FEN"] == FEN and record.tags["SetUp"] == "1"


def test_the_qualities_reach_the_led_chain_of_a_real_driver():
    from morris_pi.config.model import LedsConfig
    from morris_pi.config.wiring import POINTS
    from morris_pi.hw.fakes.spi import FakeSpi, Ws2812Chain
    from morris_pi.hw.leds import neopixel_spi_strip

    spi = FakeSpi()
    config = LedsConfig(brightness=1.0)
    chain = Ws2812Chain(spi, config.count)
    game = Game.from_record(BLUNDER_RECORD)
    clock, sensors = ManualClock(), VirtualSensors()
    sensors.set(frozenset(game.board))
    c = Controller(
        sensors=sensors,
        leds=neopixel_spi_strip(config, spi=spi),
        clock=clock,
        grader=grader(),
        assists=Assists(black=COACHED),
        game=game,
    )
    c.step()
    c.run_until(2.4)  # a whole number of the slow blink's periods: its lit half
    c.step()
    leds = chain.colours()
    assert leds[POINTS.index("d7")] == DEFAULT_PALETTE["target-good"].colour
    assert leds[POINTS.index("g7")] == DEFAULT_PALETTE["target-losing"].colour  # the slow blink's lit half


def test_the_simulated_board_warns_against_the_computer_and_replays_its_set_up(tmp_path):
    """The window's session on virtual time: a FEN set up by hand, then a blunder warned of before the reply."""
    from morris_pi.sim.backends import SimBoard
    from morris_pi.sim.play import GameSession, SimSettings

    clock = ManualClock()
    board = SimBoard(clock=clock)
    computer = Scripted(["d7xg7"])
    fen = Game.from_record("d6 g4 d5").fen
    settings = SimSettings(mode="computer", human="black", fen=fen, assist=Assists(black=COACHED))
    sim = GameSession(board, settings, opponent_factory=lambda level: computer, grader=grader())

    def settle(seconds: float = 0.8) -> None:
        for _ in range(round(seconds / 0.05)):
            clock.advance(0.05)
            sim.step()

    settle()
    assert sim.snapshot().setup["next"] == "white"
    assert any("White men go on" in text and "d5" in text and "g4" in text for _, text in sim.panel())
    for point, colour in (("d5", "white"), ("d6", "white"), ("g4", "black")):
        board.hand.place(point, colour)
        settle()
    settle(1.0)
    snap = sim.snapshot()
    assert snap.setup is None and snap.start == fen and snap.turn == "black"
    board.hand.place("g7", "black")  # the blunder
    settle(1.5)
    assert sim.snapshot().warning is not None and computer.asked == []
    assert any("g7 is a blunder" in text for _, text in sim.panel())
    board.buttons.press("hint")  # play on
    settle(0.5)
    assert computer.asked == [" ".join(["g7"])] and sim.snapshot().computer == "d7xg7"
    trace = board.recorder.traces()[-1]
    assert trace.header["fen"] == fen and trace.header["assist"] == {"white": "plain", "black": "targets warn"}
    lines = [json.dumps(trace.header)] + [json.dumps(e) for e in trace.events]
    out = io.StringIO()
    assert replay.run(lines, out, io.StringIO(), as_json=True, opponent=Scripted(["d7xg7"])) == 0
    replayed = [json.loads(line) for line in out.getvalue().splitlines()]
    assert any(line["leds"].get("g7") == "blunder" for line in replayed)  # the warning replays too
    assert replayed[-1]["record"] == "g7" and replayed[-1]["computer"] == "d7xg7"


def test_targets_alone_never_hold_up_the_computer():
    computer = Scripted(["a7", "g7"])
    board = Board(Assists(white=Assistance(targets=True)), computer="black", opponent=computer)
    board.put("d6")
    assert computer.asked == ["d6"] and board.c.warning is None  # no warning wanted: no waiting


def test_the_set_up_checks_each_man_and_takes_the_whole_position_at_once():
    from morris_pi.core.position_setup import PositionSetup

    setup = PositionSetup(Game.from_fen(FEN))
    setup.update(frozenset(), 0.0)
    setup.update({"d6", "g7"}, 1.0)  # g7 is no point of the position
    assert setup.frame().points == {"f6": "setup-white", "g7": "extra"}
    assert [p.text for p in setup.problems()] == ["take the man off g7"]
    setup.update({"d6", "f6"}, 2.0)
    setup.update({"d6", "f6"}, 2.5)
    assert setup.next_side == "black"
    setup.update({"f6"}, 3.0)  # a white man lifted again
    assert setup.frame().points["d6"] == "missing"
    everything = PositionSetup(Game.from_fen(FEN))
    everything.update(frozenset(), 0.0)
    everything.update({"d6", "f6", "a1", "a4"}, 1.0)  # all at once, as a board set up before
    everything.update({"d6", "f6", "a1", "a4"}, 1.5)
    assert everything.done


def test_a_grading_is_never_used_for_another_position_after_a_takeback():
    board = Board(Assists(black=COACHED), game=Game.from_record("d6 g4"))
    board.put("d5")  # white: black's position after d5 is graded
    assert ("d6 g4 d5", None) in board.c.gradings
    board.press("undo")
    board.lift("d5")  # the board put right, as the lights show
    board.wait()
    board.put("f4")  # another position after as many turns
    snap = board.c.snapshot()
    assert snap.record == "d6 g4 f4"
    grading = board.c.gradings[("d6 g4 f4", None)]
    empty = [p for p in grading.target_roles(None, tuple(str(g.turn) for g in grading.turns))]
    shown = {p: r for p, r in snap.leds.items() if r.startswith("target-")}
    assert shown == grading.target_roles(None, tuple(empty))


class SlowGrader:
    """A grader still thinking: the board must not wait for it."""

    def __init__(self) -> None:
        self.started = 0

    def start(self, game: Game) -> None:
        self.started += 1

    def result(self):
        return None

    def cancel(self) -> None:
        pass


def test_a_grading_still_running_never_holds_up_the_leds():
    game = Game.from_record(BLUNDER_RECORD)
    clock, sensors = ManualClock(), VirtualSensors()
    sensors.set(frozenset(game.board))
    slow = SlowGrader()
    c = Controller(
        sensors=sensors, leds=RecordingStrip(), clock=clock, grader=slow, assists=Assists(black=COACHED), game=game
    )
    c.step()
    c.run_until(1.5)
    c.step()
    assert slow.started == 1
    sensors.close_switch("d7")
    snap = c.step()  # at once, as without assistance
    assert snap.leds.get("d7") in ("last-move", None) and not any(r.startswith("target-") for r in snap.leds.values())
    assert snap.grading  # what the background reviews give way to


def test_background_reviews_give_way_to_a_grading():
    pytest.importorskip("starlette")
    from morris_pi.web.app import engine_busy

    class Seam:
        view = None

    seam = Seam()
    game = Game.from_record(BLUNDER_RECORD)
    clock, sensors = ManualClock(), VirtualSensors()
    sensors.set(frozenset(game.board))
    c = Controller(
        sensors=sensors,
        leds=RecordingStrip(),
        clock=clock,
        grader=SlowGrader(),
        assists=Assists(black=COACHED),
        game=game,
    )
    c.run_until(1.5)

    class View:
        snapshot = c.step()

    seam.view = View()
    assert engine_busy(seam)  # type: ignore[arg-type]


def test_sim_refuses_a_bad_fen_before_anything_starts(capsys):
    from morris_pi.cli import main

    assert main(["sim", "--web", "127.0.0.1:8765", "--no-window", "--fen", "nonsense"]) == 2
    assert "FEN" in capsys.readouterr().err
