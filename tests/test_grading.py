"""Grading turns on positions whose answer is known: a mill ignored, and flying endgames in the tables."""

from __future__ import annotations

import pytest

from morris_pi.engine.grading import BUDGETS, Grade, grade_for_loss, grade_turn, score_turns
from morris_pi.engine.search import Searcher
from morris_pi.rules import Game

#: White to move, 3 v 4, flying: only b6-g4xe3 wins (in 11); b6-a1 only draws; b6-g4xa7 loses.
FLYING = "**O@***@/**O**@*O/*******@ w m s 3 0 4 0 0 0 0 0 0 0 0 0 1"


def test_ignoring_a_mill_threat_is_a_mistake_and_blocking_it_is_better() -> None:
    game = Game.from_record("d6 a1 f6")
    scores = score_turns(game)
    a4 = scores.grade("a4")
    assert a4.grade is Grade.MISTAKE
    assert a4.grade.symbol == "?"
    assert a4.better is not None and a4.better != a4.turn
    b6 = scores.grade("b6")
    assert b6.grade.rank <= Grade.GOOD.rank
    assert scores.loss_of("b6") < scores.loss_of("a4")


def test_the_same_position_gets_the_same_grades_whatever_was_searched_before() -> None:
    searcher = Searcher("standard")
    first = score_turns(Game.from_record("d6 a1 f6"), budget="quick", searcher=searcher)
    score_turns(Game.from_record("d6 a1 f6 b6 f4 d2"), budget="quick", searcher=searcher)
    again = score_turns(Game.from_record("d6 a1 f6"), budget="quick", searcher=searcher)
    fresh = score_turns(Game.from_record("d6 a1 f6"), budget="quick")
    assert first.values == again.values == fresh.values
    assert first.best == again.best == fresh.best


def test_a_won_flying_endgame_thrown_to_a_draw_is_a_mistake_and_to_a_loss_a_blunder() -> None:
    game = Game.from_fen(FLYING)
    scores = score_turns(game, budget="quick")
    assert str(scores.best) == "b6-g4xe3"
    assert scores.best_value.result == "win" and scores.best_value.turns == 11
    drawn = scores.grade("b6-a1")
    assert (drawn.grade, drawn.change, drawn.loss) == (Grade.MISTAKE, ("win", "draw"), None)
    assert drawn.loss_json() == {"from": "win", "to": "draw"}
    assert str(drawn.better) == "b6-g4xe3"
    lost = scores.grade("b6-g4xa7")
    assert (lost.grade, lost.change) == (Grade.BLUNDER, ("win", "loss"))
    best = scores.grade("b6-g4xe3")
    assert (best.grade, best.loss, best.better) == (Grade.BEST, 0, None)


def test_a_pending_removal_grades_the_completions_of_the_step() -> None:
    game = Game.from_record("d6 a1 f6 a4")
    game.play("b6")
    assert game.pending is not None
    scores = score_turns(game, budget="quick")
    assert {str(t) for t in scores.values} == {"b6xa1", "b6xa4"}
    assert grade_turn(game, "b6xa1", budget="quick").grade.rank <= Grade.MISTAKE.rank


def test_an_illegal_turn_and_a_finished_game_are_refused_by_name() -> None:
    scores = score_turns(Game.from_record("d6 a1 f6"), budget="quick")
    with pytest.raises(ValueError, match="d6: not a legal turn"):
        scores.grade("d6")
    over = Game.from_record("d6 a1 f6")
    over.resign("black")
    with pytest.raises(ValueError, match="the game is over"):
        score_turns(over)
    with pytest.raises(ValueError, match="unknown budget 'huge'"):
        score_turns(Game(), budget="huge")


def test_grades_rise_with_the_loss_and_budgets_grow() -> None:
    grades = [grade_for_loss(n) for n in range(0, 600, 5)]
    assert [g.rank for g in grades] == sorted(g.rank for g in grades)
    assert grades[0] is Grade.BEST and grades[-1] is Grade.BLUNDER
    nodes = [b.nodes for b in BUDGETS.values()]
    assert nodes == sorted(nodes)
