"""Notation, records in both forms, and the errors a user sees for bad input."""

from __future__ import annotations

import pytest
from rules_support import PROFILE_NAMES, random_game

from morris_pi.rules import (
    PROFILES,
    Game,
    GameOverError,
    GameTextError,
    IllegalTurnError,
    InvalidTurnError,
    RulesError,
    Turn,
    UnknownProfileError,
    split_record,
)

PLACED = "f2 f4 c4 e5 f6 e3 b2 g7 a4 a1 g4 b4 d3 d5 a7 g1 d7 d6"
ALL_IN_MILL = "a1 b6 g1 d6 c3 f6xc3"
ONE_FREE = "a1 b6 g1 d6 c3 f6xc3 e4 c5"
FEWER_THAN_THREE = "c5 d2 d6 f2 f6 b2xc5 b6xb2 b2xb6 b6xb2 b2xf6 f6xb2 b2xf6 f6xb2 b2xb6 b6xb2 b2xf6 f6xb2 b2xf6"


# -- notation --------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["d6", "a1-a4", "d6xa1", "a1-a4xg7"])
def test_turns_read_and_write_the_rules_md_notation(text):
    assert str(Turn.parse(text)) == text
    assert str(Turn.parse(f"  {text} ")) == text


def test_turn_parts():
    turn = Turn.parse("a1-a4xg7")
    assert (turn.origin, turn.target, turn.removal) == ("a1", "a4", "g7")
    assert str(turn.step) == "a1-a4" and not turn.is_placement
    assert Turn.parse("d6").is_placement and str(Turn("d6", removal="a1")) == "d6xa1"


def test_legal_turns_print_in_the_notation():
    game = Game.from_record("d6 a1 f6 a4")
    texts = [str(t) for t in game.legal_turns()]
    assert "b6xa1" in texts and "b6xa4" in texts and "b6" not in texts and "g7" in texts
    assert Game.from_record(PLACED).legal_turns()[0].origin is not None


def test_a_record_is_the_space_separated_turns():
    game = Game.from_record("d6 a1 f6 a4 b6xa1")
    assert game.record == "d6 a1 f6 a4 b6xa1"
    assert Game.from_record(["d6", "a1"]).record == "d6 a1"
    assert Game.from_record("  d6\n a1\t f6 ").record == "d6 a1 f6"


# -- Sanmill's ply form ----------------------------------------------------------------


def test_sanmill_form_writes_a_removal_as_its_own_token():
    game = Game.from_record("d6 a1 f6 a4 b6xa1")
    assert game.sanmill_record == "d6 a1 f6 a4 b6 xa1"
    assert Game.from_record("d6 a1 f6 a4 b6 xa1").record == "d6 a1 f6 a4 b6xa1"
    assert split_record("d6 xa1 a4") == ["d6xa1", "a4"]
    pending = Game.from_record("d6 a1 f6 a4 b6")
    assert pending.sanmill_record == "d6 a1 f6 a4 b6" and str(pending.pending) == "b6"


@pytest.mark.parametrize("profile", PROFILE_NAMES)
def test_sanmill_round_trip_of_random_games(profile):
    for seed in range(5):
        game = random_game(seed, profile, turns=150)
        assert any(t.removal for t in game.history)
        again = Game.from_record(game.sanmill_record, profile)
        assert again.record == game.record and again.to_text() == game.to_text()
        assert again.positions == game.positions and again.outcome == game.outcome


@pytest.mark.parametrize(
    "record,message",
    [
        ("xa1 d6", "turn 1: xa1: a removal must follow the step that earned it"),
        ("d6 xa1 xa4", "turn 2: xa4: a removal must follow the step that earned it (d6xa1 already has its removal)"),
        ("d6 a1 f6 a4 b6xa1 xa4", "turn 6: xa4: a removal must follow the step that earned it"),
    ],
)
def test_a_lone_removal_at_the_start_or_after_another_removal_is_an_error(record, message):
    with pytest.raises(InvalidTurnError) as info:
        Game.from_record(record)
    assert str(info.value).startswith(message)


# -- errors ----------------------------------------------------------------------------


def test_every_error_is_a_value_error():
    for cls in (RulesError, IllegalTurnError, InvalidTurnError, UnknownProfileError, GameOverError, GameTextError):
        assert issubclass(cls, ValueError)


def test_unknown_profile_is_named():
    with pytest.raises(UnknownProfileError, match=r"unknown rule profile 'blitz': choose one of standard, move-this"):
        Game("blitz")
    with pytest.raises(UnknownProfileError, match="'blitz'"):
        Game.from_record("d6", "blitz")
    assert set(PROFILES) == set(PROFILE_NAMES)


@pytest.mark.parametrize(
    "text,message",
    [
        ("b5", "b5: b5 is not a point of the board"),
        ("a1-b5", "a1-b5: b5 is not a point of the board"),
        ("d6xd4", "d6xd4: d4 is not a point of the board"),
        ("h1", "h1: not a turn"),
        ("d6-", "d6-: not a turn"),
        ("", "'': not a turn"),
    ],
)
def test_text_that_is_not_a_turn_is_named(text, message):
    game = Game()
    with pytest.raises(InvalidTurnError) as info:
        game.play(text)
    assert str(info.value).startswith(message)
    assert game.record == ""


# (record, profile, turn, the message after "TURN: ")
ILLEGAL = [
    ("", "standard", "a1-a4", "white must place: 9 men still in hand (white to move)"),
    ("d6 a1", "standard", "d6", "d6 is occupied (white to move)"),
    (PLACED, "standard", "c5", "white has no men in hand; move a man instead (white to move)"),
    (PLACED, "standard", "c5-c4", "c5 is empty (white to move)"),
    (PLACED, "standard", "g7-g4", "g7 holds a black man (white to move)"),
    (PLACED, "standard", "a7-a4", "a4 is occupied (white to move)"),
    (PLACED, "standard", "g4-e4", "g4 and e4 are not adjacent (white to move)"),
    ("d6 a1 f6 a4", "standard", "d7xa1", "d7 does not close a mill, so nothing may be removed (white to move)"),
    ("d6 a1 f6 a4", "standard", "b6xd6", "d6 is white's own man; remove a black man (white to move)"),
    ("d6 a1 f6 a4", "standard", "b6xg7", "g7 is empty; remove a black man (white to move)"),
    (ONE_FREE, "standard", "d1xb6", "b6 is protected by a mill while black has men outside mills (white to move)"),
    (ALL_IN_MILL, "move-this", "d1xb6", "every black man stands in a mill, so none may be removed (white to move)"),
    ("d6 a1 f6 a4 b6", "standard", "a7", "b6 closed a mill; remove a black man first (white to move)"),
    ("d6 a1 f6 a4 b6", "standard", "d7xa1", "b6 closed a mill; remove a black man first (white to move)"),
    ("d6 a1", "standard", "xa1", "no mill was closed, so nothing may be removed (white to move)"),
    ("d6", "standard", "a1-a4", "black must place: 9 men still in hand (black to move)"),
]


@pytest.mark.parametrize("record,profile,turn,reason", ILLEGAL)
def test_an_illegal_turn_names_the_turn_the_side_and_the_reason_and_changes_nothing(record, profile, turn, reason):
    game = Game.from_record(record, profile)
    before = (game.to_text(), game.positions, game.repetitions(), game.pending, game.board)
    with pytest.raises(IllegalTurnError) as info:
        game.play(turn)
    assert str(info.value) == f"{turn}: {reason}"
    assert (game.to_text(), game.positions, game.repetitions(), game.pending, game.board) == before
    assert not game.is_legal(turn)


def test_refused_calls_change_nothing():
    game = Game.from_record("d6 a1 f6 a4 b6")
    before = game.to_text()
    for call in (
        lambda: game.play(5),
        lambda: game.remove("z9"),
        lambda: game.remove("f6"),
        game.claim_draw,
        lambda: game.resign("nobody"),
        lambda: game.play("xb6"),
    ):
        with pytest.raises(ValueError):
            call()
        assert game.to_text() == before
    over = Game.from_record(FEWER_THAN_THREE)
    before = over.to_text()
    for call in (
        lambda: over.play("b6-b4"),
        lambda: over.resign("white"),
        over.agree_draw,
        over.claim_draw,
    ):
        with pytest.raises(GameOverError, match="the game is over: black wins"):
            call()
        assert over.to_text() == before
    with pytest.raises(RulesError, match="nothing to undo"):
        Game().undo()


@pytest.mark.parametrize(
    "record,message",
    [
        ("d6 a1 d6", "turn 3: d6: d6 is occupied (white to move)"),
        ("d6 a1 f6 a4 b6xg7", "turn 5: b6xg7: g7 is empty; remove a black man (white to move)"),
        ("d6 a1 z9", "turn 3: z9: not a turn"),
        ("d6 b5", "turn 2: b5: b5 is not a point of the board"),
        (FEWER_THAN_THREE + " a1-a4", "turn 19: a1-a4: the game is over: black wins (fewer-than-three)"),
    ],
)
def test_a_bad_record_names_the_turn_number(record, message):
    with pytest.raises(RulesError) as info:
        Game.from_record(record)
    assert str(info.value).startswith(message)
