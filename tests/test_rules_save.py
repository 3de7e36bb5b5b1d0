"""A game saved as text restores exactly: history, repetitions, the N-move count, pending steps."""

from __future__ import annotations

import json
import random

import pytest
from rules_support import PROFILE_NAMES, shuffling_game

from morris_pi.rules import Game, GameTextError

THREEFOLD = "f2 f4 c4 e5 f6 e3 b2 g7 a4 a1 g4 b4 d3 d5 a7 g1 d7 d6 c4-c3 d6-b6 c3-c4 b6-d6 b2-d2 e3-e4 d2-b2 e4-e3"
FEWER_THAN_THREE = "c5 d2 d6 f2 f6 b2xc5 b6xb2 b2xb6 b6xb2 b2xf6 f6xb2 b2xf6 f6xb2 b2xb6 b6xb2 b2xf6 f6xb2 b2xf6"


def state(game: Game):
    return (
        game.to_text(),
        game.record,
        game.positions,
        game.repetitions(),
        game.quiet_turns,
        game.pending,
        game.removable,
        game.board,
        game.in_hand,
        game.outcome,
        game.claimable_draw(),
        game.profile,
    )


def play_on(game: Game, seed: int) -> list:
    """Continue a game with seeded random turns (claiming draws) and log what happens."""
    rng = random.Random(seed)
    log = []
    for _ in range(150):
        if game.outcome:
            break
        if game.claimable_draw():
            game.claim_draw()
            break
        turn = rng.choice(game.legal_turns())
        game.play(turn)
        log.append((str(turn), game.repetitions(), game.quiet_turns, game.outcome))
    return log


@pytest.mark.parametrize("profile", PROFILE_NAMES)
def test_restored_games_continue_exactly_like_the_original(profile):
    for seed in range(4):
        whole = shuffling_game(seed, profile, turns=300)
        cut = random.Random(seed).randrange(len(whole.history))
        game = Game.from_record(" ".join(map(str, whole.history[:cut])), profile)
        restored = Game.from_text(game.to_text())
        assert state(restored) == state(game)
        assert play_on(restored, seed) == play_on(game, seed)
        assert state(restored) == state(game)


def test_repetition_counts_and_the_n_move_count_survive():
    # Two occurrences so far: after the restore, two more back-and-forth turns end the game.
    record = " ".join(THREEFOLD.split()[:22])
    game = Game.from_text(Game.from_record(record).to_text())
    assert game.repetitions() == 2 and game.quiet_turns == 22
    for turn in ["b2-d2", "e3-e4", "d2-b2", "e4-e3"]:
        game.play(turn)
    assert str(game.outcome) == "draw (threefold-repetition)"


def test_a_pending_step_survives():
    game = Game.from_record("d6 a1 f6 a4 b6")
    text = game.to_text()
    assert json.loads(text)["record"] == "d6 a1 f6 a4" and json.loads(text)["pending"] == "b6"
    restored = Game.from_text(text)
    assert restored.pending == game.pending and restored.removable == ["a1", "a4"]
    restored.play("xa4")
    assert restored.record == "d6 a1 f6 a4 b6xa4"


@pytest.mark.parametrize(
    "record,profile,declare,expected",
    [
        ("d6 a1 f6", "standard", lambda g: g.resign("white"), "black wins (resignation)"),
        ("d6 a1 f6 a4 b6", "standard", lambda g: g.resign("black"), "white wins (resignation)"),
        ("d6 a1", "club", lambda g: g.agree_draw(), "draw (agreement)"),
        (THREEFOLD, "move-this", lambda g: g.claim_draw(), "draw (threefold-repetition)"),
    ],
)
def test_declared_results_survive(record, profile, declare, expected):
    game = Game.from_record(record, profile)
    declare(game)
    restored = Game.from_text(game.to_text())
    assert str(restored.outcome) == expected and state(restored) == state(game)
    assert restored.undo() is None and restored.outcome is None  # still withdrawable


def text(record="d6 a1", pending=None, declared=None, profile="standard", **extra) -> str:
    return json.dumps(
        {
            "format": "morris-pi/game-1",
            "profile": profile,
            "record": record,
            "pending": pending,
            "declared": declared,
            **extra,
        }
    )


@pytest.mark.parametrize(
    "saved,message",
    [
        ("{not json", "saved game is not valid JSON"),
        ("[1, 2]", "saved game must be a JSON object"),
        (
            json.dumps({"format": "chess/pgn", "record": ""}),
            "saved game format is 'chess/pgn', expected 'morris-pi/game-1'",
        ),
        (text(colour="blue"), "saved game has unknown field(s): colour"),
        (text(record=7), "saved game: 'record' must be text"),
        (text(profile="blitz"), "saved game: unknown rule profile 'blitz'"),
        (text(profile=None), "saved game: 'profile' must be a profile name, not None"),
        (text(profile=["standard"]), "saved game: 'profile' must be a profile name, not ['standard']"),
        (text(record="d6 a1 d6"), "saved game: turn 3: d6: d6 is occupied (white to move)"),
        (text(record="d6 a1 xd6"), "saved game: turn 2: a1xd6: a1 does not close a mill"),
        (text(record="d6 a1", pending="f6"), "saved game: pending step 'f6' does not close a mill"),
        (text(record="d6 a1 f6 a4", pending="b6xa1"), "saved game: pending step 'b6xa1' does not close a mill"),
        (text(record="d6 a1 f6 a4 b6"), "saved game: the record ends with b6, which waits for its removal"),
        (
            text(record="a1 b6 g1 d6 c3 f6xc3", pending="d1", profile="move-this"),
            "saved game: pending step 'd1' does not close a mill",
        ),
        (text(declared={"winner": "white", "reason": "timeout"}), "saved game: bad declared result"),
        (text(declared={"winner": "green", "reason": "resignation"}), "saved game: bad declared result"),
        (text(declared={"winner": None, "reason": "resignation"}), "saved game: bad declared result"),
        (text(declared={"winner": "white", "reason": "agreement"}), "saved game: bad declared result"),
        (text(declared={"reason": "agreement"}), "saved game: bad declared result"),
        (text(declared="agreement"), "saved game: bad declared result"),
        (text(declared={"winner": None, "reason": "threefold-repetition"}), "saved game: bad declared result"),
        (
            text(record=THREEFOLD, declared={"winner": None, "reason": "threefold-repetition"}),
            "saved game: bad declared result",
        ),  # standard draws by repetition on its own: nothing to claim
        (
            text(record=FEWER_THAN_THREE, declared={"winner": "white", "reason": "resignation"}),
            "saved game: declared result {'winner': 'white', 'reason': 'resignation'}, but the record already "
            "ended: black wins (fewer-than-three)",
        ),
    ],
)
def test_corrupt_saves_are_refused_clearly(saved, message):
    with pytest.raises(GameTextError) as info:
        Game.from_text(saved)
    assert str(info.value).startswith(message), str(info.value)
