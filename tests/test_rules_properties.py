"""Properties over random games drawn by hypothesis: undo is exact, legal turns are exactly what play accepts."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rules_support import PROFILE_NAMES, Referee

from morris_pi.rules import POINTS, Game, GameOverError, IllegalTurnError, RulesError, Turn

# Each choice picks one legal turn; an even choice prefers a turn without a removal, so
# games run long enough to repeat positions and to reach the flying and N-move stages.
# (A plain list strategy would mostly draw games a few turns long.)
CHOICES = st.integers(min_value=0, max_value=220).flatmap(
    lambda n: st.lists(st.integers(min_value=0, max_value=2**16), min_size=n, max_size=n)
)
SETTINGS = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
ALL_STEPS = [Turn(to) for to in POINTS] + [Turn(to, frm) for frm in POINTS for to in POINTS if frm != to]


def pick(game: Game, choice: int) -> Turn:
    legal = game.legal_turns()
    quiet = [t for t in legal if t.removal is None]
    pool = quiet if quiet and choice % 2 == 0 else legal
    return pool[(choice // 2) % len(pool)]


def snapshot(game: Game):
    keys = Counter(p.key() for p in game.positions)
    assert game.repetitions() == keys[game.position.key()]
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
        [str(t) for t in game.legal_turns()],
        keys,
    )


@pytest.mark.parametrize("profile", PROFILE_NAMES)
@SETTINGS
@given(choices=CHOICES, finish=st.sampled_from(["none", "resign", "agree", "claim"]))
def test_undo_restores_every_earlier_state_exactly(profile, choices, finish):
    game = Game(profile)
    states = [snapshot(game)]
    for choice in choices:
        if game.outcome:
            break
        turn = pick(game, choice)
        if turn.removal and choice % 3 == 0:
            # Two steps, as on the physical board. Undo while pending takes back the step
            # alone; once the removal is made, undo takes back the whole turn.
            game.play(turn.step)
            pending = snapshot(game)
            assert game.undo() == turn.step and snapshot(game) == states[-1]
            game.play(turn.step)
            assert snapshot(game) == pending
            game.play(f"x{turn.removal}")
        else:
            game.play(turn)
        states.append(snapshot(game))
    if not game.outcome:
        if finish == "resign":
            game.resign(game.turn)
            states.append(snapshot(game))
        elif finish == "agree":
            game.agree_draw()
            states.append(snapshot(game))
        elif finish == "claim" and game.claimable_draw():
            game.claim_draw()
            states.append(snapshot(game))
    while len(states) > 1:
        states.pop()
        game.undo()
        assert snapshot(game) == states[-1]
    with pytest.raises(RulesError, match="nothing to undo"):
        game.undo()


def accepted(game: Game, turn: Turn) -> bool:
    """Whether ``play`` takes the turn; a refusal must leave the game as it was."""
    before = game.to_text()
    try:
        game.play(turn)
    except (IllegalTurnError, GameOverError):
        assert game.to_text() == before
        return False
    game.undo()
    if game.pending and game.pending != turn.step:
        pytest.fail(f"undo of {turn} left {game.pending} pending")
    assert game.to_text() == before
    return True


@pytest.mark.parametrize("profile", PROFILE_NAMES)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(choices=CHOICES, removals=st.lists(st.sampled_from(POINTS), min_size=1, max_size=40))
def test_legal_turns_are_exactly_the_turns_play_accepts(profile, choices, removals):
    game = Game(profile)
    referee = Referee(profile)
    for choice in choices:
        if game.outcome:
            break
        turn = pick(game, choice)
        game.play(turn)
        referee.play(str(turn))
    if game.outcome:
        assert game.legal_turns() == []
        assert not any(accepted(game, t) for t in ALL_STEPS[:30])
        return
    legal = game.legal_turns()
    texts = {str(t) for t in legal}
    assert texts == referee.legal() and len(texts) == len(legal)
    earning = {t.step for t in legal if t.removal}
    for step in ALL_STEPS:
        # A mill-closing step without its removal is accepted too: it waits for the removal.
        assert accepted(game, step) == (str(step) in texts or step in earning), step
    for turn in legal:
        assert accepted(game, turn)
    # Sampled illegal removals: every legal step with points the draw picked as removals.
    for step in {t.step for t in legal}:
        for point in removals:
            turn = step.with_removal(point)
            assert accepted(game, turn) == (str(turn) in texts), turn
