"""The window runs the board's own session: the set-up menu on the points, saves and resume, traces.

Everything is done with mouse gestures on a headless window, on a manual clock.
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pytest

pygame = pytest.importorskip("pygame")

from sim_kit import SEED, choose, engine, hue, make_turn, pixel, replayed, settle, tap  # noqa: E402

from morris_pi.core.menu import GameSettings  # noqa: E402
from morris_pi.core.ports import ManualClock  # noqa: E402
from morris_pi.core.storage import Storage  # noqa: E402
from morris_pi.guidance import DEFAULT_PALETTE  # noqa: E402
from morris_pi.rules import Game, Turn  # noqa: E402
from morris_pi.sim.app import SimApp  # noqa: E402
from morris_pi.sim.backends import SimBoard  # noqa: E402
from morris_pi.sim.play import GameSession, SimSettings  # noqa: E402


class Window:
    """A window over a fresh simulated board; ``close`` shuts it as the user would."""

    def __init__(self, settings: SimSettings, made: list[int] | None = None) -> None:
        def factory(level: int):
            if made is not None:
                made.append(level)
            return engine(level)

        self.board = SimBoard(clock=ManualClock(50.0))
        self.game = GameSession(self.board, settings, opponent_factory=factory)
        self.app = SimApp(self.board, self.game)
        self.app.update()

    @property
    def snap(self):
        return self.game.snapshot()

    def panel(self) -> str:
        return "\n".join(text for _, text in self.game.panel()).replace("\u00a0", " ")

    def play(self, game: Game, turns: int) -> None:
        """Play ``turns`` turns by mouse: the computer's as prompted, ours by plan."""
        for _ in range(turns):
            snap = self.snap
            turn = Turn.parse(snap.computer) if snap.computer else choose(game)
            make_turn(self.app, turn, game.turn)
            game.play(turn)
            assert self.snap.record == game.record and not self.snap.problems

    def close(self) -> None:
        self.game.close()
        self.app.close()


@pytest.fixture
def windows():
    opened: list[Window] = []

    def make(settings: SimSettings, made: list[int] | None = None) -> Window:
        window = Window(settings, made)
        opened.append(window)
        return window

    yield make
    for window in opened:
        window.close()


def test_the_game_is_chosen_on_the_points_by_mouse_and_then_played(windows):
    made: list[int] = []
    w = windows(SimSettings(mode="two-player", seed=SEED, menu=True), made)
    app = w.app
    assert w.game.started == "menu" and w.game.session.state == "menu"
    # the menu is lit on the board and told in words
    assert "Set-up menu on the board" in w.panel() and "Two players, standard rules." in w.panel()
    assert "Mode: b2 [two players]   f2 against the computer" in w.panel()
    option = DEFAULT_PALETTE["menu-option"].colour
    assert hue(pixel(app, app.led_pos("f2"))) == pytest.approx(hue(option), abs=3)
    assert app.board.recorder.events == []  # the menu's men are not a game's turns

    tap(app, "f2")  # against the computer ...
    assert "f2 [against the computer]" in w.panel() and "Level: a7 1" in w.panel()
    tap(app, "g1")  # ... I play black ...
    tap(app, "a7")  # ... at level 1 ...
    tap(app, "c4")  # ... club rules
    assert "You play black against the computer at level 1, club rules." in w.panel()
    assert w.game.session.state == "menu"
    tap(app, "d1")  # GO
    assert w.game.session.state == "game"
    assert w.game.session.settings == GameSettings(mode="computer", human="black", level=1, profile="club")
    assert made == [1]
    assert app.board.hand.in_hand == {"white": 9, "black": 9} and not app.board.hand.board

    # the computer (white) moves first: its turn is prompted; we make it, play ours, and so on
    assert w.snap.computer and w.snap.profile == "club"
    game = Game(profile="club")
    w.play(game, 4)
    assert len(game.history) == 4 and w.snap.computer and w.snap.turn == "white"
    assert "You play black against the computer (level 1), club rules" in w.panel()


def test_twelve_mens_morris_chosen_in_the_menu_fills_the_trays_and_draws_its_diagonals(windows):
    w = windows(SimSettings(mode="two-player", menu=True))
    assert w.board.hand.in_hand == {"white": 9, "black": 9} and w.game.geometry.name == "standard"
    tap(w.app, "g4")  # rules: twelve
    assert w.board.hand.in_hand == {"white": 12, "black": 12} and w.game.geometry.name == "diagonal"
    tap(w.app, "d1")
    w.play(Game(profile="twelve"), 2)
    assert w.snap.profile == "twelve"


def test_a_trace_from_games_started_in_the_menu_replays_to_the_same_games(windows, tmp_path):
    w = windows(SimSettings(mode="computer", human="black", level=1, seed=SEED, menu=True))
    app = w.app
    app.key(pygame.K_r)
    assert app.message == "No trace to save yet: it starts when a game starts."
    tap(app, "d1")  # start with the choices as they are
    first = Game()
    w.play(first, 5)
    app.click(app.layout.buttons["menu"].center)  # resign: Menu twice
    settle(app, 0.2)
    app.key(pygame.K_m)
    settle(app, 0.2)
    assert w.snap.outcome is not None
    app.key(pygame.K_m)  # after the end Menu opens the set-up menu
    settle(app, 0.2)
    assert w.game.session.state == "menu"
    left = set(app.board.hand.board)  # the last game's men stay on the board
    tap(app, "b2")  # two players
    tap(app, "d1")
    assert w.game.session.state == "game" and {p: w.snap.leds[p] for p in left} == {p: "extra" for p in left}
    for point in sorted(left):  # clear the board by hand
        app.drag(app.point_pos(point), app.off_board_pos())
        settle(app, 0.3)
    settle(app)
    second = Game()
    w.play(second, 4)

    path = app.save_trace(tmp_path / "menu.jsonl")
    assert "earlier games in menu-1.jsonl" in app.message
    earlier, latest = tmp_path / "menu-1.jsonl", path
    # each trace starts when its game starts, with its own header and starting board
    head = [line for line in earlier.read_text().splitlines()[:2]]
    assert head == [
        '{"profile": "standard", "white": "computer", "black": "human", "level": 1, "seed": 7}',
        '{"t": 0.0, "snapshot": []}',
    ]
    assert latest.read_text().splitlines()[0] == '{"profile": "standard", "white": "human", "black": "human"}'
    assert f'"snapshot": {sorted(left)}'.replace("'", '"') in latest.read_text().splitlines()[1]
    final = replayed(earlier)
    assert final["record"] == first.record and final["outcome"]["reason"] == "resignation"
    final = replayed(latest)
    assert final["record"] == second.record and final["outcome"] is None and final["problems"] == []


def test_menu_pressed_twice_before_the_first_turn_restarts_the_game_and_its_trace(windows, tmp_path):
    w = windows(SimSettings(mode="two-player"))
    app = w.app
    first = w.snap.record, w.game.session.controller.game
    app.key(pygame.K_m)  # opens the menu ...
    app.key(pygame.K_m)  # ... and starts at once, before the board saw either
    settle(app, 0.2)
    assert w.game.session.state == "game" and w.game.session.controller.game is not first[1]
    assert app.board.recorder.events == [{"t": 0.0, "snapshot": []}]  # no Menu press in the game's trace
    game = Game()
    w.play(game, 2)
    written = app.board.recorder.save(tmp_path / "t.jsonl")
    assert [p.name for p, _ in written] == ["t.jsonl"]
    assert replayed(tmp_path / "t.jsonl")["record"] == game.record


def test_with_a_state_dir_turns_are_saved_and_the_next_window_resumes_with_corrections(windows, tmp_path):
    state = tmp_path / "state"
    settings = SimSettings(mode="computer", human="white", level=1, seed=SEED, state_dir=state)
    w = windows(settings)
    game = Game()
    w.play(game, 5)  # d6-style placements, the computer's included
    saved, meta = Storage(state).load_current()
    assert saved.record == game.record and meta["mode"] == "computer" and meta["level"] == 1
    assert f"Saving every turn in {state}" in w.panel()
    board = dict(w.board.hand.board)
    w.close()

    # a new window on the same state directory: the game comes back, the board is empty
    w = windows(SimSettings(state_dir=state, seed=SEED, menu=True))
    app = w.app
    assert w.game.started == "resumed" and w.game.session.state == "game"
    assert w.snap.record == game.record
    assert dict(w.snap.leds) == {point: "missing" for point in board}
    assert f"put a man back on {sorted(board)[0]}" in w.panel()
    assert "the trace starts with the next game" in w.panel() and not app.board.recorder.recording
    for point, colour in sorted(board.items()):  # put the men back where the lights ask
        app.drag(app.tray_pos("hand", colour), app.point_pos(point))
        settle(app, 0.3)
    settle(app)
    assert not w.snap.problems and not w.game.session.controller.tracker.resync
    w.play(game, 2)  # play goes on, and is saved
    assert Storage(state).load_current()[0].record == game.record

    # a finished game becomes a record; the next game starts the trace
    app.key(pygame.K_m)
    settle(app, 0.2)
    app.key(pygame.K_m)
    settle(app, 0.2)
    assert w.snap.outcome is not None
    [record] = Storage(state).list_records()
    assert record.record == game.record and record.tags["Reason"] == "resignation"
    assert Storage(state).load_current() is None
    app.key(pygame.K_c)  # clear the board: the next game starts
    settle(app)
    assert w.snap.record == "" and w.snap.outcome is None and app.board.recorder.recording
    nxt = Game()
    w.play(nxt, 2)
    final = replayed(app.save_trace(tmp_path / "next.jsonl"))
    assert final["record"] == nxt.record


def test_a_fault_shows_in_the_panel_and_on_the_board(windows, tmp_path):
    blocked = tmp_path / "not-a-dir"
    blocked.write_text("a file where the state directory should be")
    w = windows(SimSettings(mode="two-player", state_dir=blocked))
    w.play(Game(), 1)
    assert "cannot save the game" in w.panel()
    # the board shows it too: the outer corners and the error status LED blink red, the game goes on
    error = DEFAULT_PALETTE["error"].colour
    corner = next(p for p in ("a7", "g7", "g1", "a1") if p not in w.board.hand.board)
    lit = []
    for _ in range(30):
        settle(w.app, 0.05)
        if w.board.leds.status.get("error") == error:
            lit.append(pixel(w.app, w.app.led_pos(corner)))
    assert lit and all(hue(colour) == pytest.approx(hue(error), abs=3) for colour in lit)
    assert w.snap.record != "" and not w.snap.problems


@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")
def test_an_engine_whose_search_thread_dies_shows_the_fault_as_on_the_board(monkeypatch):
    from morris_pi.core.opponents import engine_opponents
    from morris_pi.engine import player

    def think(*args, **kw):
        raise MemoryError("search blew up")

    monkeypatch.setattr(player, "think", think)
    board = SimBoard(clock=ManualClock())
    game = GameSession(
        board, SimSettings(mode="computer", human="black", seed=SEED), opponent_factory=engine_opponents(SEED)
    )  # the window's own engine, threaded
    app = SimApp(board, game)
    try:
        app.update()  # white (the computer) is asked for its turn
        # The search thread runs in real time and may already have died within that step,
        # so wait for it rather than expecting the board to be still waiting.
        assert game.session.controller.opponent.player.join(60)  # its thread ends without a turn
        settle(app, 0.1)
        text = "\n".join(t for _, t in game.panel())
        assert "computer player failed" in text and game.session.all_faults().keys() == {"engine"}
    finally:
        game.close()
        app.close()
