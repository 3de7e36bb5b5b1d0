"""LED guidance: frames are a pure function of the tracker state; looks stay apart for colour-blind eyes."""

from __future__ import annotations

import itertools
import math

import pytest
from tracker_kit import MOVING, QUIET

from morris_pi.guidance import BLINKS, DEFAULT_PALETTE, ROLES, TOGETHER, Frame, Look, next_edge, render
from morris_pi.tracker import Tracker
from morris_pi.tracker.frame import frame, show


def _tracker(record: str = "", board=None) -> Tracker:
    from morris_pi.rules import Game

    game = Game.from_record(record) if record else None
    t = Tracker(game)
    t.update(set(board) if board is not None else set(game.board if game else ()), 0.0)
    return t


def test_palette_and_roles_are_in_sync():
    assert set(DEFAULT_PALETTE) == set(ROLES)
    for group in TOGETHER:
        assert set(group) <= set(ROLES)


def test_frame_is_a_pure_function_of_the_state():
    t = _tracker(MOVING)
    t.update(set(t.game.board) - {"a1"}, 1.0)
    state = t.state
    first = frame(state)
    assert frame(state) == first
    assert first == Frame(
        points={"a1": "lifted", "a4": "legal-target", "d1": "legal-target", "f2": "last-move"},
        status={"white-to-move": "to-move"},
    )
    assert state.game.record == MOVING  # computing a frame changes nothing


def test_earlier_roles_win_a_point():
    t = _tracker(QUIET)
    assert frame(t.state).points == {"c3": "last-move"}
    t.update(set(t.game.board) - {"c3"}, 1.0)  # the last man placed is knocked off
    t.tick(2.0)
    assert frame(t.state).points == {"c3": "missing"}


def test_while_the_board_is_brought_back_only_corrections_show():
    t = _tracker("d6", board={"d6", "g7"})
    assert frame(t.state) == Frame(points={"g7": "extra"}, status={"error": "error", "black-to-move": "to-move"})


def test_render_shows_the_blink_pattern_at_a_time():
    roles = {"c4": "missing", "f2": "extra", "d6": "legal-target"}
    # missing blinks fast (0.4 s, half on); extra flashes twice per 1.2 s; legal-target is steady.
    assert render(roles, 0.1) == {"c4": (255, 140, 0), "f2": (255, 0, 255), "d6": (0, 200, 200)}
    assert render(roles, 0.25) == {"d6": (0, 200, 200)}
    assert set(render(roles, 0.3)) == {"f2", "d6"}
    assert render(roles, 0.5)["c4"] == (255, 140, 0)
    assert "f2" not in render(roles, 0.5)


def test_a_pulse_breathes_between_dim_and_full():
    levels = [render({"a1": "removable"}, t)["a1"][0] for t in (0.0, 0.5, 1.0)]
    assert levels[0] < levels[1] < levels[2] == 255


def test_show_renders_points_and_status_leds():
    t = _tracker("d6")
    points, status = show(t.state, 0.0)
    assert points == {"d6": (40, 40, 40)}
    assert status == {"black-to-move": (255, 255, 255)}


def test_next_edge_names_when_a_blink_changes():
    assert next_edge(["legal-target", "last-move"], 1.0) is None
    assert next_edge(["missing"], 0.1) == pytest.approx(0.2)
    assert next_edge(["extra"], 0.0) == pytest.approx(0.144)
    assert next_edge(["removable"], 2.0) == pytest.approx(2.04)


def test_looks_refuse_bad_colours_and_patterns():
    with pytest.raises(ValueError, match="blink pattern"):
        Look((1, 2, 3), "strobe")
    with pytest.raises(ValueError, match="three values"):
        Look((1, 2, 300))


# Red-green colour blindness, simulated with the Machado, Oliveira & Fernandes (2009)
# matrices for full protanopia and deuteranopia, applied in linear RGB.
PROTANOPIA = ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998))
DEUTERANOPIA = ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881))


def _seen(rgb, matrix):
    lin = [c / 255 / 12.92 if c / 255 <= 0.04045 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in rgb]
    return [min(1.0, max(0.0, sum(m * c for m, c in zip(row, lin, strict=True)))) for row in matrix]


@pytest.mark.parametrize("group", TOGETHER, ids=lambda g: g[1])
def test_roles_shown_together_stay_apart_for_red_green_colour_blind_eyes(group):
    for a, b in itertools.combinations(group, 2):
        la, lb = DEFAULT_PALETTE[a], DEFAULT_PALETTE[b]
        if la.blink != lb.blink:
            continue
        for matrix in (PROTANOPIA, DEUTERANOPIA):
            distance = math.dist(_seen(la.colour, matrix), _seen(lb.colour, matrix))
            assert distance > 0.55, f"{a} and {b} share the blink {la.blink!r} and look alike ({distance:.2f})"


def test_every_blink_pattern_is_known():
    assert {look.blink for look in DEFAULT_PALETTE.values()} <= set(BLINKS)


@pytest.mark.parametrize("role", ["missing", "extra", "computer-from", "error", "confirm"])
def test_a_loop_woken_exactly_on_a_blink_edge_shows_the_new_level(role):
    # A manual clock lands exactly on the instants next_edge names; each must change the colour.
    t = 1000.0
    for _ in range(40):
        edge = next_edge([role], t)
        assert edge is not None and edge > t
        before = render({"d6": role}, t)
        after = render({"d6": role}, edge)
        assert before != after, (role, t, edge)
        t = edge
