"""The simulated board's physics: what a hand does to the men, and what the switches report.

These run without pygame: the same objects back the window, the self-test and scripts.
"""

from __future__ import annotations

import io
import json

import pytest

from morris_pi.core.ports import BUTTONS, ManualClock
from morris_pi.rules import POINTS
from morris_pi.sim.backends import SimBoard, SimLeds
from morris_pi.sim.hand import SLIDE_PASS_SECONDS, Hand, HandError
from morris_pi.sim.layout import Layout


def test_men_move_between_trays_points_and_the_removed_tray():
    hand = Hand(men=9)
    hand.place("d6", "white")
    hand.place("a1", "black")
    hand.move("a1", "a4")
    assert hand.closed(0.0) == {"d6", "a4"}
    assert hand.in_hand == {"white": 8, "black": 8}
    hand.remove("d6")
    assert hand.closed(0.0) == {"a4"}
    assert hand.removed == {"white": 1, "black": 0}
    # a removed man can come back (a takeback) and keeps its colour
    hand.take("removed", "white")
    hand.put("d6")
    assert hand.board == {"a4": "black", "d6": "white"}


def test_a_lifted_man_opens_its_switch_and_putting_it_on_an_occupied_point_returns_it():
    hand = Hand()
    hand.place("d6", "white")
    hand.place("d7", "black")
    hand.take("point", "d6")
    assert hand.closed(0.0) == {"d7"}
    assert hand.put("d7") is False  # cannot stack men: it goes back
    assert hand.board == {"d6": "white", "d7": "black"}


def test_a_man_from_the_tray_dropped_off_the_board_goes_back_to_its_tray():
    hand = Hand()
    hand.take("hand", "black")
    hand.drop_off()
    assert hand.in_hand["black"] == 9 and hand.removed["black"] == 0
    hand.place("b2", "black")
    hand.take("point", "b2")
    hand.drop_off(("hand", "black"))  # over its own hand tray: back into the hand
    assert hand.in_hand["black"] == 9 and not hand.board


def test_impossible_gestures_say_what_is_wrong_and_change_nothing():
    hand = Hand(men=1)
    with pytest.raises(HandError, match="no man stands on c4"):
        hand.take("point", "c4")
    with pytest.raises(HandError, match="unknown point 'z9'"):
        hand.place("z9", "white")
    assert hand.held is None and hand.in_hand["white"] == 1
    hand.place("c4", "white")
    with pytest.raises(HandError, match="white hand tray is empty"):
        hand.take("hand", "white")
    assert hand.board == {"c4": "white"}


def test_sliding_closes_the_switches_along_the_path_briefly():
    hand = Hand()
    hand.place("a1", "white")
    hand.place("a7", "black")
    hand.take("point", "a1")
    hand.slide([], "a1", now=1.0)  # still over its own point: switch stays closed
    assert hand.closed(1.0) == {"a1", "a7"}
    hand.slide(["a1", "a4"], None, now=1.2)  # crossed a4 on the way, now between points
    assert hand.closed(1.2) == {"a1", "a4", "a7"}
    assert hand.next_change(1.2) == pytest.approx(1.2 + SLIDE_PASS_SECONDS)
    assert hand.closed(1.2 + SLIDE_PASS_SECONDS) == {"a7"}
    hand.slide([], "d7", now=1.3)
    assert hand.put("d7") and hand.closed(1.3) == {"a7", "d7"}


def test_sweeping_the_board_refills_both_hand_trays():
    hand = Hand(men=9)
    hand.place("d6", "white")
    hand.remove("d6")
    hand.place("a1", "black")
    hand.take("hand", "white")
    hand.sweep()
    assert hand.closed(0.0) == set() and hand.held is None
    assert hand.in_hand == {"white": 9, "black": 9} and hand.removed == {"white": 0, "black": 0}


def test_the_sensor_trace_has_the_replay_format_and_real_times_of_slide_glitches():
    clock = ManualClock(10.0)
    board = SimBoard(clock=clock, header={"profile": "standard", "white": "human", "black": "human"})
    board.hand.place("b2", "black")
    board.sensors.read()  # the first reading: the starting board
    board.hand.place("a1", "white")  # at the same instant, but after the start
    board.sensors.read()
    clock.advance(1.0)
    board.hand.take("point", "a1")
    board.hand.slide(["a1", "a4"], "a7", clock.now())
    board.sensors.read()
    board.hand.put("a7")
    clock.advance(0.5)  # nobody read the sensors when the slide passed
    assert board.sensors.read() == {"a7", "b2"}
    board.buttons.press("undo")
    out = io.StringIO()
    board.recorder.write(out)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert lines[0] == {"profile": "standard", "white": "human", "black": "human"}
    assert lines[1:] == [
        {"t": 0.0, "snapshot": ["b2"]},
        {"t": 0.001, "on": "a1"},
        {"t": 1.0, "on": "a7"},
        {"t": 1.0, "on": "a4"},
        {"t": 1.06, "off": "a1"},
        {"t": 1.06, "off": "a4"},
        {"t": 1.5, "button": "undo"},
    ]


def test_the_led_strip_keeps_the_last_frame_and_refuses_unknown_points():
    leds = SimLeds()
    leds.show({"d6": (0, 200, 60)}, {"white-to-move": (255, 255, 255)})
    version = leds.version
    leds.show({"d6": (0, 200, 60)}, {"white-to-move": (255, 255, 255)})
    assert leds.version == version and leds.frames == 2  # same picture: nothing to redraw
    with pytest.raises(ValueError, match="unknown point 'h8'"):
        leds.show({"h8": (1, 2, 3)})
    assert leds.points == {"d6": (0, 200, 60)}


def test_buttons_queue_presses_and_refuse_unknown_names():
    board = SimBoard(clock=ManualClock())
    for name in BUTTONS:
        board.buttons.press(name)
    with pytest.raises(ValueError, match="unknown button 'reset'"):
        board.buttons.press("reset")
    assert board.buttons.pressed() == list(BUTTONS)
    assert board.buttons.pressed() == []


@pytest.mark.parametrize("size", [(1100, 760), (640, 420), (1920, 1080), (700, 1000), (200, 100)])
def test_the_layout_keeps_the_board_square_to_scale_and_everything_apart(size):
    lay = Layout.compute(*size)
    xs = sorted({round(x, 6) for x, _ in lay.points.values()})
    ys = sorted({round(y, 6) for _, y in lay.points.values()})
    assert len(xs) == len(ys) == 7
    assert xs[-1] - xs[0] == pytest.approx(ys[-1] - ys[0]) == pytest.approx(6 * lay.step)
    for name in POINTS:
        assert lay.point_at(lay.points[name]) == name
        assert lay.board.contains(lay.points[name])
    for side in ("white", "black"):
        assert lay.region_at(lay.hand_trays[side].center) == ("hand", side)
        assert lay.region_at(lay.removed_trays[side].center) == ("removed", side)
    for name, box in lay.buttons.items():
        assert lay.region_at(box.center) == ("button", name)
        assert box.right <= lay.panel.x and box.bottom <= lay.height
    assert lay.hand_trays["black"].right <= lay.panel.x
    assert lay.man_radius < lay.step / 2  # neighbouring men never overlap


def test_slide_paths_name_the_points_crossed_in_order():
    lay = Layout.compute(1100, 760)
    assert lay.points_along(lay.points["a1"], lay.points["a7"]) == ["a1", "a4", "a7"]
    assert lay.points_along(lay.points["g4"], lay.points["e4"]) == ["g4", "f4", "e4"]
