"""Sanmill FEN: what the real Sanmill engine prints for positions of real games, round trips, bad fields.

tests/data/sanmill_fens.json holds FENs printed by Sanmill v7.4.6 (its ``d`` command) for
prefixes of recorded games (games against the peer and random legal games), with the plies
that reach them: our writer must print the same text, and our reader must give back a game
with the same board, hands, side to move, pending removal and outcome.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from morris_pi.rules import Game, Position, RulesError, perft
from morris_pi.rules.fen import FenError, parse_fen, position_from_fen, to_fen

DATA = json.loads((Path(__file__).parent / "data" / "sanmill_fens.json").read_text())
PEER = DATA["positions"]


HISTORY_ENDS = ("threefold-repetition", "n-move-rule")  # a FEN carries no history


def _same_state(a: Game, b: Game) -> None:
    """``a`` read from the FEN of ``b``."""
    assert a.board == b.board
    assert a.in_hand == b.in_hand
    assert a.turn == b.turn
    assert (a.pending is None) == (b.pending is None)
    assert a.removable == b.removable
    if b.outcome and b.outcome.reason in HISTORY_ENDS:
        return
    assert (a.outcome and a.outcome.to_dict()) == (b.outcome and b.outcome.to_dict())
    if not a.pending:
        assert a.legal_turns() == b.legal_turns()


def test_the_peer_data_covers_placing_moving_flying_removals_and_ends():
    fens = [p["fen"] for p in PEER]
    assert len(fens) > 100
    assert any(" p p " in f for f in fens) and any(" m s " in f for f in fens)
    assert any(" p r " in f for f in fens) and any(" m r " in f for f in fens)
    assert any(" o " in f for f in fens)
    assert any(int(f.split()[4]) == 3 or int(f.split()[6]) == 3 for f in fens if " m " in f)


@pytest.mark.parametrize("entry", PEER, ids=lambda e: f"{len(e['plies'].split())}-plies")
def test_we_write_what_sanmill_prints_and_read_it_back(entry):
    game = Game.from_record(entry["plies"])
    assert game.fen == entry["fen"]
    again = Game.from_fen(entry["fen"])
    _same_state(again, game)
    assert again.fen == entry["fen"]


@st.composite
def games(draw, max_turns: int = 140) -> Game:
    game = Game()
    for _ in range(draw(st.integers(0, max_turns))):
        if game.is_over:
            break
        turns = game.legal_turns()
        game.play(turns[draw(st.integers(0, len(turns) - 1))])
    if not game.is_over and draw(st.booleans()):
        closing = [t for t in game.legal_turns() if t.removal]
        if closing:
            game.play(closing[draw(st.integers(0, len(closing) - 1))].step)  # leave a removal pending
    return game


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_a_game_read_from_its_fen_is_the_same_game_to_the_rules(game):
    fen = game.fen
    again = Game.from_fen(fen)
    _same_state(again, game)
    if game.outcome and game.outcome.reason in HISTORY_ENDS:
        return
    assert again.fen == fen
    if not game.outcome and not game.pending:
        # and it goes on the same way
        turn = game.legal_turns()[-1]
        assert str(again.play(turn)) == str(game.copy().play(turn))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_a_position_survives_its_fen_except_the_counter_while_placing(game):
    if game.pending:
        return
    pos = game.position
    back = position_from_fen(to_fen(pos))
    assert back.key() == pos.key()
    assert back.quiet == (pos.quiet if not any(pos.hand) else 0)


def test_perft_from_a_fen_equals_perft_after_the_record():
    entry = next(p for p in PEER if " m s " in p["fen"])
    game = Game.from_record(entry["plies"])
    assert perft(Position.from_fen(entry["fen"]), 3) == perft(game.position, 3)


def test_a_game_from_a_fen_continues_from_it_without_history():
    game = Game.from_fen("********/OO*****O/*****@@* w p r 3 6 2 7 1 0 0 0 0 0 0 0 3")
    assert game.record == "" and game.pending is not None
    game.play("xa4")
    game.play("d7")
    assert game.record == "b6xa4 d7"
    # as Sanmill prints it after "d6 a1 f6 a4 b6 xa4 d7"
    assert game.fen == "********/OO*****O/@****@** w p p 3 6 2 6 0 0 0 0 0 0 0 0 4"


START = "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1"


@pytest.mark.parametrize(
    "fen, field",
    [
        ("", "expected 17"),
        (START + " c:w-1-8", "field 18"),
        (START.replace("********/", "*******/", 1), "field 1 (board)"),
        (START.replace("*", "X", 1).replace(" 0 9 0 9", " 0 9 0 9"), "marked"),
        (START.replace("*", "Q", 1), "field 1 (board)"),
        (START.replace(" w ", " x "), "field 2 (side to move)"),
        (START.replace(" w p p ", " w z p "), "field 3 (phase)"),
        (START.replace(" w p p ", " w p q "), "field 4 (action)"),
        (START.replace(" 0 9 0 9 ", " 1 9 0 9 "), "field 5 (white men on the board)"),
        (START.replace(" 0 9 0 9 ", " 0 10 0 9 "), "field 6 (white men in hand)"),
        (START.replace(" 0 9 0 9 ", " 0 9 0 -1 "), "field 8 (black men in hand)"),
        (START.replace(" 0 9 0 9 0 0 ", " 0 9 0 9 0 1 "), "men to remove"),
        (START.replace(" 0 9 0 9 0 0 0 0 0 0 0", " 0 9 0 9 0 0 0 0 0 0 5"), "fields 11-15"),
        (START.replace(" 0 1", " x 1"), "field 16 (N-move counter)"),
        (START.replace(" w p p ", " w m s "), "field 3 (phase) 'm'"),
        (START.replace(" w p p ", " w p r "), "field 4 (action) 'r'"),
    ],
)
def test_a_bad_fen_is_a_clear_error_naming_the_field(fen, field):
    with pytest.raises(FenError, match=re.escape(field)) as exc:
        Game.from_fen(fen)
    assert isinstance(exc.value, ValueError) and isinstance(exc.value, RulesError)


def test_a_position_cannot_hold_a_pending_removal():
    with pytest.raises(FenError, match=re.escape("Game.from_fen")):
        Position.from_fen("********/OO*****O/*****@@* w p r 3 6 2 7 1 0 0 0 0 0 0 0 3")


def test_the_start_position():
    assert Game().fen == START
    assert parse_fen(START).hand == (9, 9)
    assert Position.from_fen(START) == Position.start()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games(max_turns=60), st.integers(0, 12))
def test_a_game_set_up_from_a_fen_is_saved_and_restored_with_its_start(game, more):
    started = Game.from_fen(game.fen)
    for _ in range(more):
        if started.is_over:
            break
        started.play(started.legal_turns()[0])
    restored = Game.from_text(started.to_text())
    assert restored.record == started.record
    assert restored.fen == started.fen
    assert (
        json.loads(started.to_text()).get("start")
        == Game.from_position(started.positions[0], first_ply=started.first_ply).fen
    )


def test_a_saved_game_with_a_bad_start_is_refused():
    from morris_pi.rules import GameTextError

    text = json.dumps(
        {
            "format": "morris-pi/game-1",
            "profile": "standard",
            "record": "",
            "pending": None,
            "declared": None,
            "start": "nonsense",
        }
    )
    with pytest.raises(GameTextError, match="expected 17"):
        Game.from_text(text)


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(
        st.text(max_size=80),
        st.lists(
            st.sampled_from([*START.split(), "O", "@", "X", "r", "s", "m", "o", "²", "-1", "99"]),
            min_size=15,
            max_size=19,
        ).map(" ".join),
    )
)
def test_any_text_is_a_game_or_a_fen_error(text):
    try:
        game = Game.from_fen(text)
    except FenError:
        return
    assert Game.from_fen(game.fen).board == game.board
