"""The set-up menu on the points: each choice by putting a man on a lit point and taking it off."""

from __future__ import annotations

import pytest

from morris_pi.core.menu import (
    COLOUR_POINTS,
    LEVEL_POINTS,
    MODE_POINTS,
    PROFILE_POINTS,
    START_POINT,
    GameSettings,
    Menu,
)
from morris_pi.rules import POINTS, PROFILES


class Player:
    """A person at the board: puts men down and takes them off, on a clock of its own."""

    def __init__(self, menu: Menu, board: set[str] | None = None) -> None:
        self.menu = menu
        self.board = set(board or ())
        self.t = 0.0
        menu.update(frozenset(self.board), self.t)

    def wait(self, seconds: float) -> None:
        self.t += seconds
        self.menu.update(frozenset(self.board), self.t)

    def put(self, point: str) -> None:
        self.board.add(point)
        self.wait(0.0)

    def take(self, point: str) -> None:
        self.board.discard(point)
        self.wait(0.0)

    def tap(self, point: str, stand: float = 0.5) -> None:
        self.put(point)
        self.wait(stand)
        self.take(point)
        self.wait(0.5)


def roles(menu: Menu) -> dict[str, str]:
    return menu.frame().points


def test_defaults_are_lit_as_choices_and_can_simply_be_started():
    defaults = GameSettings(mode="computer", human="black", level=7, profile="club")
    menu = Menu(defaults)
    shown = roles(menu)
    chosen = {p for p, r in shown.items() if r == "menu-choice"}
    assert chosen == {MODE_POINTS["computer"], COLOUR_POINTS["black"], LEVEL_POINTS[6], PROFILE_POINTS[2]}
    assert shown[START_POINT] == "confirm"
    # every other answer is offered
    offered = {p for p, r in shown.items() if r == "menu-option"}
    assert len(offered) == 2 - 1 + 2 - 1 + 10 - 1 + len(PROFILES) - 1 + 1  # and the human's assistance
    Player(menu).tap(START_POINT)
    assert menu.done and menu.settings == defaults
    assert roles(menu) == {}


@pytest.mark.parametrize("level", range(1, 11))
def test_each_level_is_chosen_on_its_point(level):
    menu = Menu(GameSettings(level=3))
    Player(menu).tap(LEVEL_POINTS[level - 1])
    assert menu.settings.level == level
    assert roles(menu)[LEVEL_POINTS[level - 1]] == "menu-choice"
    assert not menu.done


@pytest.mark.parametrize("profile", list(PROFILES))
def test_each_profile_is_chosen_on_the_middle_row(profile):
    menu = Menu(GameSettings())
    Player(menu).tap(PROFILE_POINTS[list(PROFILES).index(profile)])
    assert menu.settings.profile == profile


def test_mode_and_colour():
    menu = Menu(GameSettings(mode="computer", human="white"))
    person = Player(menu)
    person.tap(COLOUR_POINTS["black"])
    assert menu.settings.human == "black" and menu.settings.computer == "white"
    person.tap(MODE_POINTS["two-player"])
    assert menu.settings.mode == "two-player" and menu.settings.computer is None
    # two players: no colours and no levels are offered, and choosing there does nothing
    shown = roles(menu)
    assert not set(shown) & {*LEVEL_POINTS, *COLOUR_POINTS.values()}
    person.tap(LEVEL_POINTS[9])
    assert menu.settings.level != 10
    person.tap(MODE_POINTS["computer"])
    assert menu.settings.mode == "computer"
    person.tap(START_POINT)
    assert menu.done and menu.settings == GameSettings(mode="computer", human="black", level=3)


def test_a_whole_set_up_then_start():
    menu = Menu(GameSettings(mode="two-player"))
    person = Player(menu)
    for point in (MODE_POINTS["computer"], COLOUR_POINTS["black"], LEVEL_POINTS[4], PROFILE_POINTS[4]):
        person.tap(point)
    person.tap(START_POINT)
    assert menu.done
    assert menu.settings == GameSettings(mode="computer", human="black", level=5, profile="lasker")


def test_a_man_must_stand_before_taking_it_off_chooses():
    menu = Menu(GameSettings(level=3), hold_s=0.2)
    person = Player(menu)
    person.tap(LEVEL_POINTS[0], stand=0.1)  # a slid magnet or a bounce: too short
    assert menu.settings.level == 3
    person.put(LEVEL_POINTS[0])
    person.wait(1.0)  # standing does not choose yet ...
    assert menu.settings.level == 3
    person.take(LEVEL_POINTS[0])  # ... taking it off does
    assert menu.settings.level == 1


def test_men_left_from_the_last_game_choose_nothing():
    menu = Menu(GameSettings(level=3))
    person = Player(menu, board={LEVEL_POINTS[0], START_POINT})
    person.take(LEVEL_POINTS[0])
    person.take(START_POINT)
    assert menu.settings.level == 3 and not menu.done
    person.tap(START_POINT)
    assert menu.done


def test_unlit_points_and_other_buttons_do_nothing():
    menu = Menu(GameSettings())
    person = Player(menu)
    lit = set(roles(menu))
    for point in set(POINTS) - lit:
        person.tap(point)
    assert menu.settings == GameSettings() and not menu.done
    assert not menu.press("undo") and not menu.press("hint")


@pytest.mark.parametrize("button", ["new", "menu"])
def test_the_new_or_menu_button_starts(button):
    menu = Menu(GameSettings())
    assert menu.press(button) and menu.done


def test_settings_from_meta_keep_the_fallback_for_bad_values():
    fallback = GameSettings(mode="computer", level=4, profile="club")
    got = GameSettings.from_meta({"mode": "two-player", "level": "x", "profile": "nope", "human": 3}, fallback)
    assert got == GameSettings(mode="two-player", level=4, profile="club")
    with pytest.raises(ValueError, match="level"):
        GameSettings(level=11)
