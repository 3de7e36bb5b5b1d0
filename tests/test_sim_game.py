"""A whole game in the simulator window, played with the mouse against the computer.

The human's turns and the computer's prompted turns are both made by mouse
gestures on the window; the board's own session (``morris_pi.core.session``,
started without the set-up menu) with its controller and tracker decides what
happened. The window's sensor trace then replays headless to the same game.
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pytest

pygame = pytest.importorskip("pygame")

from sim_kit import LEVEL, SEED, choose, engine, hue, make_turn, replayed, settle  # noqa: E402

from morris_pi.core.ports import ManualClock  # noqa: E402
from morris_pi.guidance import DEFAULT_PALETTE  # noqa: E402
from morris_pi.rules import Game, Turn  # noqa: E402
from morris_pi.sim.app import SimApp  # noqa: E402
from morris_pi.sim.backends import SimBoard  # noqa: E402
from morris_pi.sim.play import GameSession, SimSettings  # noqa: E402


@pytest.fixture
def window():
    clock = ManualClock()
    board = SimBoard(clock=clock)
    settings = SimSettings(mode="computer", human="black", level=LEVEL, seed=SEED)
    session = GameSession(board, settings, opponent_factory=engine)
    app = SimApp(board, session)
    app.update()
    yield app, session
    session.close()
    app.close()


def test_a_whole_game_against_the_computer_by_mouse_replays_to_the_same_game(window, tmp_path):
    app, session = window
    game = Game()  # what we believe was played, turn by turn
    prompts = 0
    for _ in range(400):
        snap = session.snapshot()
        if snap.outcome:
            break
        assert not snap.problems, snap.problems
        if snap.computer:
            # the LEDs prompt the computer's turn; execute it by hand
            turn = Turn.parse(snap.computer)
            roles = dict(snap.leds)
            assert roles[turn.target] == "computer-to"
            if turn.origin:
                assert roles[turn.origin] == "computer-from"
            make_turn(app, turn, "white")
            prompts += 1
        else:
            assert snap.turn == "black"
            turn = choose(game)
            make_turn(app, turn, "black")
        game.play(turn)
        assert session.snapshot().record == game.record
    snap = session.snapshot()
    assert snap.outcome is not None and snap.outcome == game.outcome
    assert prompts >= 9 and not snap.problems
    # the men on the simulated board are the game's
    assert app.board.hand.board == game.board

    # the window's trace replays headless to exactly this game
    path = app.save_trace(tmp_path / "game.jsonl")
    final = replayed(path)
    assert final["record"] == game.record
    assert final["outcome"] == game.outcome.to_dict()
    app.update()
    pygame.image.save(app.screen, str(tmp_path / "game-over.png"))
    assert (tmp_path / "game-over.png").stat().st_size > 10_000

    # clearing the board (C) starts the next game, with full trays
    app.key(pygame.K_c)
    settle(app)
    snap = session.snapshot()
    assert snap.outcome is None and snap.record == "" and snap.computer
    assert app.board.hand.in_hand == {"white": 9, "black": 9}


def test_a_wrong_placement_is_shown_as_a_problem_and_fixed_by_hand(window):
    app, session = window
    settle(app)
    prompt = Turn.parse(session.snapshot().computer)
    wrong = "g1" if prompt.target != "g1" else "a1"
    app.drag(app.tray_pos("hand", "white"), app.point_pos(wrong))  # not the prompted point
    settle(app)
    snap = session.snapshot()
    assert snap.record == "" and [str(p) for p in snap.problems] == [f"take the man off {wrong}"]
    assert f"take the man off {wrong}" in "\n".join(text for _, text in session.panel())
    # the window shows the "extra" role's colour under the point
    assert dict(snap.leds)[wrong] == "extra"
    app.drag(app.point_pos(wrong), app.tray_pos("hand", "white"))  # put it back in the tray
    settle(app)
    make_turn(app, prompt, "white")
    assert session.snapshot().record == str(prompt) and not session.snapshot().problems


def test_lifting_a_man_lights_its_targets_in_the_window(window):
    app, session = window
    game = Game()
    # play the placing phase and the computer's first move, all by mouse
    while game.in_hand["white"] or game.in_hand["black"] or game.turn == "white":
        snap = session.snapshot()
        turn = Turn.parse(snap.computer) if snap.computer else choose(game)
        make_turn(app, turn, game.turn)
        game.play(turn)
        if game.outcome:
            pytest.skip("the game ended while placing")
    settle(app)
    snap = session.snapshot()
    assert snap.turn == "black" and not snap.computer and snap.record == game.record
    origin = next(t.origin for t in game.legal_turns() if t.origin)
    app.move(app.point_pos(origin))
    app.press(app.point_pos(origin))  # lift, and hold it
    app.update()
    targets = [t.target for t in game.legal_turns() if t.origin == origin]
    roles = dict(session.snapshot().leds)
    assert roles[origin] == "lifted" and all(roles[p] == "legal-target" for p in targets)
    app.move(app.off_board_pos())  # carry the man away from the board
    app.update()
    target_colour = DEFAULT_PALETTE["legal-target"].colour
    for point in targets:
        colour = tuple(app.screen.get_at(tuple(map(round, app.led_pos(point)))))[:3]
        assert hue(colour) == pytest.approx(hue(target_colour), abs=8), point
    app.release(app.point_pos(origin))  # put it back: the lift is cancelled
    settle(app)
    assert session.snapshot().lifted is None and session.snapshot().record == game.record


def test_the_hint_key_asks_the_engine_and_the_panel_and_leds_show_its_answer(window):
    app, session = window
    settle(app)
    make_turn(app, Turn.parse(session.snapshot().computer), "white")  # now the human (black) is to move
    app.key(pygame.K_h)
    settle(app)
    snap = session.snapshot()
    assert snap.hint is not None
    hint = Turn.parse(snap.hint)
    assert dict(snap.leds)[hint.target] == "hint"
    assert f"Hint: {snap.hint}" in [text for _, text in session.panel()]


def test_menu_twice_resigns_and_the_panel_asks_for_the_second_press(window):
    app, session = window
    settle(app)
    make_turn(app, Turn.parse(session.snapshot().computer), "white")
    app.click(app.layout.buttons["menu"].center)
    settle(app, 0.2)
    assert "Press Menu again within 3 seconds to resign." in [text for _, text in session.panel()]
    app.key(pygame.K_m)
    settle(app, 0.2)
    outcome = session.snapshot().outcome
    assert outcome is not None and (outcome.winner, outcome.reason) == ("white", "resignation")
