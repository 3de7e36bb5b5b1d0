"""The simulator window, headless: mouse gestures move men, the window paints the LEDs it was shown."""

from __future__ import annotations

import json
import math
import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pytest

pygame = pytest.importorskip("pygame")

from morris_pi.core.ports import ManualClock  # noqa: E402
from morris_pi.guidance import DEFAULT_PALETTE, render  # noqa: E402
from morris_pi.sim.app import SimApp  # noqa: E402
from morris_pi.sim.backends import SimBoard  # noqa: E402


@pytest.fixture
def app():
    board = SimBoard(clock=ManualClock())
    window = SimApp(board, size=(1100, 760))
    yield window
    window.close()


def pixel(app: SimApp, pos) -> tuple[int, int, int]:
    return tuple(app.screen.get_at((round(pos[0]), round(pos[1]))))[:3]


def hue(colour) -> tuple[int, ...]:
    peak = max(colour)
    return tuple(round(c * 255 / peak) for c in colour)


def test_dragging_and_clicking_men_opens_and_closes_the_switches(app):
    board = app.board
    app.drag(app.tray_pos("hand", "white"), app.point_pos("d6"))
    assert board.sensors.read() == {"d6"}
    # click a black man in its tray, then click the point: the man rides the cursor in between
    app.click(app.tray_pos("hand", "black"))
    assert board.hand.held and board.hand.held.colour == "black"
    app.move(app.point_pos("a4"))
    assert board.sensors.read() == {"d6"}  # held above the board, no switch sees it
    app.click(app.point_pos("a1"))
    assert board.sensors.read() == {"d6", "a1"}
    # lift d6: its switch opens at once, and the man follows the mouse
    app.move(app.point_pos("d6"))
    app.press(app.point_pos("d6"))
    app.move(app.point_pos("f6"))
    assert board.sensors.read() == {"a1"}
    app.release(app.off_board_pos())  # dropped off the board: removed
    assert board.sensors.read() == {"a1"} and board.hand.removed["white"] == 1
    assert board.hand.in_hand == {"white": 8, "black": 8}


def test_a_slide_closes_the_switches_it_passes_for_a_moment(app):
    board, clock = app.board, app.board.clock
    app.drag(app.tray_pos("hand", "white"), app.point_pos("a1"))
    clock.advance(1.0)
    app.drag(app.point_pos("a1"), app.point_pos("a7"), slide=True)
    assert board.sensors.read() == {"a1", "a4", "a7"}  # a1 and a4 still feel the passing magnet
    clock.advance(0.2)
    assert board.sensors.read() == {"a7"}
    times = [(e["t"], e.get("on") or e.get("off")) for e in board.recorder.events]
    assert (1.0, "a4") in times and (1.06, "a4") in times  # the 60 ms of the magnet passing a4


def test_buttons_and_keys_press_the_boards_buttons(app):
    app.click(app.layout.buttons["undo"].center)
    app.key(pygame.K_h)
    app.key(pygame.K_n)
    assert app.board.buttons.pressed() == ["undo", "hint", "new"]
    app.key(pygame.K_ESCAPE)
    assert not app.running


def test_the_window_paints_each_led_colour_beside_its_point_where_the_board_has_it(app):
    roles = {"d6": "legal-target", "a1": "computer-to", "g7": "missing"}
    app.board.leds.show(render(roles, 0.0))
    assert app.update()
    for point, role in roles.items():
        assert hue(pixel(app, app.led_pos(point))) == pytest.approx(hue(DEFAULT_PALETTE[role].colour), abs=3)
    assert max(pixel(app, app.led_pos("d7"))) < 60  # an unlit LED is a dark hole
    # up and to the right, 18 mm of a 53.3 mm grid step, as the drilling template puts the hole
    (lx, ly), (px, py) = app.led_pos("d6"), app.point_pos("d6")
    assert lx - px == pytest.approx(py - ly) and math.dist((lx, ly), (px, py)) == pytest.approx(
        app.layout.step * 18 / (320 / 6), rel=0.01
    )
    # a man on the lit point does not hide its LED: the man is painted, the LED still shows beside it
    app.drag(app.tray_pos("hand", "white"), app.point_pos("d6"))
    app.update()
    assert hue(pixel(app, app.led_pos("d6"))) == pytest.approx(hue(DEFAULT_PALETTE["legal-target"].colour), abs=3)
    assert min(pixel(app, app.point_pos("d6"))) > 150  # the white man's face over the point


def test_the_board_is_labelled_a_to_g_and_1_to_7_as_a_printed_board(app):
    app.update()
    step = app.layout.step
    assert set(app.layout.labels) == set("abcdefg1234567")
    for text, (x, y) in app.layout.labels.items():
        ink = [
            pixel(app, (x + dx, y + dy))
            for dx in range(-round(step * 0.12), round(step * 0.12))
            for dy in range(-round(step * 0.12), round(step * 0.12))
        ]
        assert sum(max(p) < 100 for p in ink) > 8, f"no label {text} drawn"
    ax, ay = app.layout.labels["a"]
    assert ax == pytest.approx(app.point_pos("a1")[0]) and ay > app.point_pos("a1")[1]  # files below the board
    x7, y7 = app.layout.labels["7"]
    assert y7 == pytest.approx(app.point_pos("a7")[1]) and x7 < app.point_pos("a7")[0]  # ranks to its left


def test_nothing_is_redrawn_while_nothing_changes(app):
    assert app.update()
    assert not app.update() and not app.update()
    app.board.leds.show({"d6": (0, 200, 60)})
    assert app.update()
    assert app.idle_timeout() == pytest.approx(1.0)  # sleeps until woken, at most a second


def test_resizing_the_window_relays_out_the_board(app, tmp_path):
    app.post(pygame.VIDEORESIZE, size=(800, 600), w=800, h=600)
    assert app.screen.get_size() == (800, 600)
    assert app.layout.width == 800
    app.drag(app.tray_pos("hand", "black"), app.point_pos("g1"))
    assert app.board.sensors.read() == {"g1"}
    app.update()
    path = tmp_path / "window.png"
    pygame.image.save(app.screen, str(path))
    assert pygame.image.load(str(path)).get_size() == (800, 600)


def test_the_trace_saved_from_the_window_is_a_replay_file(app, tmp_path):
    app.board.recorder.header.update({"profile": "standard", "white": "human", "black": "human"})
    app.update()
    app.board.clock.advance(0.5)
    app.drag(app.tray_pos("hand", "white"), app.point_pos("d6"))
    app.board.clock.advance(2.0)
    app.trace_path = tmp_path / "trace.jsonl"
    app.key(pygame.K_r)
    lines = [json.loads(line) for line in (tmp_path / "trace.jsonl").read_text().splitlines()]
    assert lines == [
        {"profile": "standard", "white": "human", "black": "human"},
        {"t": 0.0, "snapshot": []},
        {"t": 0.5, "on": "d6"},
        {"t": 2.5},
    ]
    assert "trace.jsonl" in app.message


def test_a_board_program_such_as_the_self_test_runs_beside_the_window():
    from morris_pi.sim.script import ScriptSession

    board = SimBoard(clock=ManualClock())
    board.hand.place("a7", "white")  # the program sees the men the user put down

    def program(b: SimBoard) -> int:
        b.say("Put a man on every point, one by one")
        seen = b.sensors.read()
        b.leds.show({p: (0, 90, 255) for p in seen})
        b.say(f"closed: {' '.join(sorted(seen))}")
        return 0

    session = ScriptSession(board, program, "morris-pi hwtest")
    assert session.done.wait(10)
    window = SimApp(board, session)
    try:
        window.update()
        text = "\n".join(t for _, t in session.panel())
        assert "Put a man on every point" in text and "closed: a7" in text and "Finished" in text
        assert session.result == 0 and not session.busy
        r, g, b = pixel(window, window.led_pos("a7"))
        assert b > r and b > g  # the program's blue LED beside the man
    finally:
        window.close()


def test_a_failing_board_program_is_reported_not_raised():
    from morris_pi.sim.script import ScriptSession

    board = SimBoard(clock=ManualClock())
    session = ScriptSession(board, lambda b: b.hand.take("point", "c4"), "morris-pi hwtest")
    assert session.done.wait(10)
    assert session.error == "HandError: no man stands on c4"
    assert ("warn", "Finished. Esc closes the window.") in session.panel()
