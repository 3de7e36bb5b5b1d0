"""How games end (RULES.md "End of the game"): losses, draws, and the order of the checks.

Each record below was found by a small search over random games and is played here
in full, so every position in these tests is one the rules can reach.
"""

from __future__ import annotations

import dataclasses

import pytest
from rules_support import random_game, shuffling_game

from morris_pi.rules import Game, GameOverError, RulesError, get_profile

# Black's last placement (f4) leaves white, to move, without a move.
BLOCKED_AFTER_PLACING = "a7 d7 g7 g4 g1 d1 a1 d5 c5 a4 d6 b4 c4 c3 b6 d3 f6xd3 f4"
# White's first move blocks black; no man was removed all game (19 quiet turns).
BLOCKS_ON_QUIET_19 = "a7 d7 g7 b6 f2 g4 e4 g1 d2 b2 a1 a4 c5 f6 d6 d1 b4 f4 c5-d5"
# Both sides keep closing mills while placing; black's b2xf6 leaves white with two men.
FEWER_THAN_THREE = "c5 d2 d6 f2 f6 b2xc5 b6xb2 b2xb6 b6xb2 b2xf6 f6xb2 b2xf6 f6xb2 b2xb6 b6xb2 b2xf6 f6xb2 b2xf6"
# Lasker: black loses with one man on the board and one still in hand.
LASKER_FEWER_WITH_HAND = (
    "d6 e3 c5 e3-d3 f4 b4 f6 c3 f2xc3 b4-a4 b6xd3 d7 f4-g4 d7-g7 f4xa4 d5 e4xd5 g1 d7 c3 "
    "d5xc3 b2 e4-e5xg7 g1-d1 e5-e4xb2 g1 e4-e5xd1"
)
# Placing without a mill, then c4-c3 d6-b6 c3-c4 b6-d6 twice: the third occurrence on turn 26.
THREEFOLD = "f2 f4 c4 e5 f6 e3 b2 g7 a4 a1 g4 b4 d3 d5 a7 g1 d7 d6 c4-c3 d6-b6 c3-c4 b6-d6 b2-d2 e3-e4 d2-b2 e4-e3"
# 100 turns without a removal and without any position occurring three times.
HUNDRED_QUIET = (
    "d2 d5 d6 f2 a1 f4 g4 b4 d1 d3 e3 e5 b2 g1 e4 b6 a7 c3 d6-f6 d5-c5 g4-g7 c5-c4 a7-d7 e5-d5 "
    "d7-d6 d5-e5 a1-a4 c4-c5 a4-a1 g1-g4 d6-d5 c3-c4 a1-a4 c4-c3 d1-a1 c5-c4 d5-c5 e5-d5 a4-a7 "
    "g4-g1 g7-d7 g1-g4 d2-d1 d5-e5 c5-d5 c4-c5 d1-g1 c5-c4 d5-d6 e5-d5 b2-d2 b4-b2 a1-a4 c4-c5 "
    "g1-d1 d5-e5 d1-g1 b6-b4 d7-g7 c5-d5 g7-d7 g4-g7 g1-d1 d5-c5 d1-g1 f4-g4 g1-d1 f2-f4 d6-d5 "
    "g4-g1 d7-d6 b4-b6 d6-d7 g7-g4 a4-a1 g4-g7 a7-a4 c5-c4 a4-b4 f4-f2 a1-a4 g1-g4 d7-a7 g4-g1 "
    "f6-f4 g7-d7 d5-d6 d7-g7 d6-f6 e5-d5 f6-d6 g1-g4 f4-f6 c4-c5 a7-d7 g4-f4 a4-a7 c5-c4 e4-e5 f4-g4"
)
# The first 92 turns of HUNDRED_QUIET, then a7-d7 d5-e5 d7-a7 e5-d5 twice: turn 100 is
# both the third occurrence of a position and the 100th turn without a removal.
REPETITION_ON_TURN_100 = " ".join(HUNDRED_QUIET.split()[:92]) + " a7-d7 d5-e5 d7-a7 e5-d5 a7-d7 d5-e5 d7-a7 e5-d5"


def result(game: Game) -> tuple[str | None, str] | None:
    return (game.outcome.winner, game.outcome.reason) if game.outcome else None


def upto(record: str, n: int) -> str:
    return " ".join(record.split()[:n])


# -- losses ----------------------------------------------------------------------------


def test_fewer_than_three_men_loses():
    game = Game.from_record(FEWER_THAN_THREE)
    assert result(game) == ("black", "fewer-than-three")
    assert sum(c == "white" for c in game.board.values()) == 2 and game.in_hand["white"] == 0
    assert game.legal_turns() == []
    with pytest.raises(GameOverError, match=r"^b6-b4: the game is over: black wins \(fewer-than-three\)$"):
        game.play("b6-b4")


def test_men_in_hand_count_towards_three():
    # Black has two men on the board but six in hand: the game goes on.
    game = Game.from_record(upto(FEWER_THAN_THREE, 7))
    assert sum(c == "black" for c in game.board.values()) == 2 and game.in_hand["black"] == 6
    assert game.outcome is None and game.turn == "black"
    # ... and a side with men in hand still loses when hand and board together are below three.
    lasker = Game.from_record(LASKER_FEWER_WITH_HAND, "lasker")
    assert lasker.in_hand["black"] == 1 and sum(c == "black" for c in lasker.board.values()) == 1
    assert result(lasker) == ("white", "fewer-than-three")


def test_a_side_without_a_legal_move_loses_blocked():
    game = Game.from_record(BLOCKED_AFTER_PLACING)
    assert result(game) == ("black", "blocked")
    assert sum(c == "white" for c in game.board.values()) == 9  # blocked with all nine men
    assert game.legal_turns() == []
    assert Game.from_record(upto(BLOCKED_AFTER_PLACING, 17)).outcome is None
    assert result(Game.from_record(BLOCKS_ON_QUIET_19)) == ("white", "blocked")


def test_resignation():
    game = Game.from_record("d6 a1 f6")
    with pytest.raises(RulesError, match="'green'"):
        game.resign("green")
    assert game.resign("black") == game.outcome
    assert result(game) == ("white", "resignation")
    with pytest.raises(GameOverError, match="white wins"):
        game.play("a4")
    with pytest.raises(GameOverError):
        game.resign("white")
    assert game.undo() is None and game.outcome is None  # the resignation is withdrawn
    assert game.record == "d6 a1 f6"


# -- draws -----------------------------------------------------------------------------


@pytest.mark.parametrize("profile", ["standard", "club", "no-flying", "lasker"])
def test_threefold_repetition_is_an_automatic_draw(profile):
    before = Game.from_record(upto(THREEFOLD, 25), profile)
    assert before.outcome is None
    game = Game.from_record(THREEFOLD, profile)
    assert game.repetitions() == 3
    assert result(game) == (None, "threefold-repetition")
    assert game.claimable_draw() is None


def test_repetition_needs_the_same_men_in_hand():
    # Lasker men may move while placing: d6 and a1 step out and back with nine in hand each.
    record = "d6 a1 d6-d5 a1-a4 d5-d6 a4-a1 d6-d5 a1-a4 d5-d6 a4-a1"
    game = Game.from_record(record, "lasker")
    assert result(game) == (None, "threefold-repetition")
    # The same board after a further placement by each side is a new position.
    again = Game.from_record(upto(record, 6) + " c5 e5 d6-d5 a1-a4 d5-d6 a4-a1", "lasker")
    assert again.outcome is None and again.repetitions() == 2


def test_move_this_repetition_must_be_claimed():
    game = Game.from_record(THREEFOLD, "move-this")
    assert game.outcome is None and game.repetitions() == 3
    assert game.claimable_draw() == "threefold-repetition"
    assert game.legal_turns()  # unclaimed, the game goes on
    game.claim_draw()
    assert result(game) == (None, "threefold-repetition")
    assert game.undo() is None and game.outcome is None  # a claim can be taken back like a resignation


def test_move_this_claim_passes_once_the_position_has_moved_on():
    game = Game.from_record(THREEFOLD, "move-this")
    game.play("c4-c3")
    assert game.claimable_draw() is None


def test_claiming_when_nothing_is_claimable_is_refused_clearly():
    game = Game.from_record(upto(THREEFOLD, 22), "move-this")
    before = game.to_text()
    with pytest.raises(
        RulesError,
        match=r"no draw can be claimed now: the position has occurred 2 time\(s\) "
        r"and 22 of 100 quiet turns have passed",
    ):
        game.claim_draw()
    assert game.to_text() == before and game.outcome is None
    # Standard draws are automatic: there is never anything to claim.
    with pytest.raises(RulesError, match="no draw can be claimed"):
        Game.from_record(upto(THREEFOLD, 25)).claim_draw()


def test_standard_n_move_rule_is_100_turns_without_a_removal():
    game = Game.from_record(upto(HUNDRED_QUIET, 99))
    assert game.outcome is None and game.quiet_turns == 99
    game.play(HUNDRED_QUIET.split()[99])
    assert game.quiet_turns == 100
    assert result(game) == (None, "n-move-rule")


def test_a_removal_restarts_the_n_move_count():
    game = Game.from_record("d6 a1 f6 a4")
    assert game.quiet_turns == 4
    game.play("b6xa1")
    assert game.quiet_turns == 0
    game.play("a1")
    assert game.quiet_turns == 1


def test_club_n_move_rule_is_50_turns_without_a_mill():
    game = Game.from_record(upto(HUNDRED_QUIET, 49), "club")
    assert game.outcome is None
    game.play(HUNDRED_QUIET.split()[49])
    assert result(game) == (None, "n-move-rule")
    assert Game.from_record(upto(HUNDRED_QUIET, 50)).outcome is None  # standard plays on


@pytest.mark.parametrize("seed", range(8))
def test_club_every_mill_removes_a_man_so_mills_and_removals_reset_alike(seed):
    # The man just placed or moved stands on the board, so the side that closes a mill
    # always faces at least one opponent man, and "any may be removed" makes it removable:
    # under club a mill closed with nothing to remove cannot happen. (A made-up profile in
    # test_rules_play checks that the engine would reset on such a mill.)
    game = random_game(200 + seed, "club")
    replay = Game("club")
    for turn in game.history:
        replay.play(turn.step)
        if replay.pending:
            assert turn.removal is not None
            replay.play(turn)
        assert (replay.quiet_turns == 0) == (turn.removal is not None)


def test_move_this_n_move_draw_must_be_claimed():
    game = Game.from_record(HUNDRED_QUIET, "move-this")
    assert game.outcome is None and game.quiet_turns == 100
    assert game.claimable_draw() == "n-move-rule"
    assert result(Game.from_record(HUNDRED_QUIET, "move-this")) is None
    game.claim_draw()
    assert result(game) == (None, "n-move-rule")


def test_draw_by_agreement():
    game = Game.from_record("d6 a1")
    game.agree_draw()
    assert result(game) == (None, "agreement")
    with pytest.raises(GameOverError):
        game.agree_draw()


# -- the order of checks ---------------------------------------------------------------


def test_repetition_comes_before_the_n_move_rule():
    game = Game.from_record(REPETITION_ON_TURN_100)
    assert len(game.history) == 100 and game.quiet_turns == 100 and game.repetitions() == 3
    assert result(game) == (None, "threefold-repetition")


def test_a_turn_that_blocks_wins_even_when_the_n_move_count_runs_out():
    strict = dataclasses.replace(get_profile("standard"), name="n19", n_move_limit=19)
    assert result(Game.from_record(BLOCKS_ON_QUIET_19, strict)) == ("white", "blocked")
    assert result(Game.from_record(upto(HUNDRED_QUIET, 19), strict)) == (None, "n-move-rule")


@pytest.mark.parametrize("profile", ["standard", "club", "lasker", "no-flying"])
def test_a_draw_never_hides_a_loss(profile):
    # RULES.md ranks the loss of the side to move before repetition. A repetition compares
    # men, men in hand and the side to move, which fix the legal turns, so a blocked
    # position ends the game on its first occurrence and is never repeated a third time;
    # the rank shows against the N-move rule (above). Here: over games that end in draws,
    # the side to move could always still play.
    draws = 0
    for seed in range(6):
        game = shuffling_game(400 + seed, profile)
        if game.outcome and game.outcome.winner is None:
            draws += 1
            position = game.position
            assert position.turns() and position.count(position.side) >= 3
    assert draws
