"""Practice positions: the shipped data checked at load, the flying solutions against the endgame
tables, the others against a search, and each player's record of what they solved."""

from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime

import pytest

from morris_pi.core.practice import (
    PlayerRecords,
    PracticeDataError,
    check_turn,
    games_by_level,
    load_practice,
    practice_by_id,
)
from morris_pi.core.storage import Storage
from morris_pi.engine.egtb import tables_for_profile
from morris_pi.engine.grading import score_turns
from morris_pi.rules import Game

POSITIONS = load_practice()


def table_result(game: Game, turn) -> str:
    """The result for the mover after ``turn``, read straight from the endgame tables."""
    after = game.copy()
    after.play(str(turn))
    if after.outcome is not None:
        return "win" if after.outcome.winner == game.turn else "draw" if after.outcome.winner is None else "loss"
    position = after.position
    me, op = position.men[position.side], position.men[position.side ^ 1]
    code = tables_for_profile(game.profile).probe(me, op)
    assert code is not None, f"{after.fen} is not in the tables"
    if code == 0:
        return "draw"
    return "loss" if (code - 1) % 2 == 1 else "win"  # odd distance: the side to move there wins


def test_every_theme_is_there_with_its_difficulties() -> None:
    themes = {p.theme for p in POSITIONS}
    assert {"flying-win", "flying-draw", "win-a-man"} <= themes
    assert all(1 <= p.difficulty <= 3 for p in POSITIONS)
    assert len({p.id for p in POSITIONS}) == len(POSITIONS)


@pytest.mark.parametrize("position", [p for p in POSITIONS if p.verified == "tables"], ids=lambda p: p.id)
def test_a_flying_solution_is_exactly_the_turns_the_tables_say_keep_the_result(position) -> None:
    game = position.game()
    results = {str(t): table_result(game, t) for t in game.legal_turns()}
    goal = position.goal
    assert goal in ("win", "draw")
    assert set(position.solution) == {t for t, r in results.items() if r == goal}
    if goal == "draw":
        assert "win" not in results.values()


@pytest.mark.parametrize("position", [p for p in POSITIONS if p.verified != "tables"], ids=lambda p: p.id)
def test_a_searched_solution_is_the_grading_search_s_best(position) -> None:
    scores = score_turns(position.game(), budget="standard")
    assert str(scores.best) in position.solution
    if position.goal == "man":
        assert scores.grade(position.solution[0]).grade.rank <= 1
    else:  # not to be shut in: every other turn loses
        assert position.goal == "not-lose"
        others = [t for t in scores.values if str(t) not in position.solution]
        assert others and all(scores.grade(t).grade.value == "blunder" for t in others)


def test_a_solution_is_solved_and_another_turn_is_not() -> None:
    position = next(p for p in POSITIONS if p.theme == "flying-win")
    assert check_turn(position, position.solution[0]).solved
    other = next(str(t) for t in position.game().legal_turns() if str(t) not in position.solution)
    attempt = check_turn(position, other)
    assert not attempt.solved and attempt.best == position.best
    with pytest.raises(ValueError, match="not a legal turn"):
        check_turn(position, "d6-d6")
    with pytest.raises(KeyError):
        practice_by_id("nope")


def test_a_changed_file_is_refused_by_its_checksum(tmp_path) -> None:
    from morris_pi.core import practice

    shutil.copy(practice.PRACTICE_FILE, tmp_path / "practice.json")
    shutil.copy(practice.MANIFEST, tmp_path / "practice-manifest.json")
    assert load_practice(tmp_path / "practice.json", tmp_path / "practice-manifest.json")
    text = (tmp_path / "practice.json").read_text().replace('"difficulty": 1', '"difficulty": 3', 1)
    (tmp_path / "practice.json").write_text(text)
    with pytest.raises(PracticeDataError, match="does not match"):
        load_practice(tmp_path / "practice.json", tmp_path / "practice-manifest.json")


def test_each_player_keeps_what_they_solved_and_games_are_counted_by_level(tmp_path) -> None:
    records = PlayerRecords(tmp_path, clock=lambda: datetime(2026, 4, 12, 19, 0, tzinfo=UTC))
    assert records.mark_solved("Ann", "flying-win-01") == {"flying-win-01": "2026-04-12T19:00:00Z"}
    records.mark_solved("Ann", "flying-win-01")
    records.mark_solved("Bo", "win-a-man-01")
    assert list(records.solved("Ann")) == ["flying-win-01"]
    assert list(records.solved("Bo")) == ["win-a-man-01"]
    assert json.loads((tmp_path / "players.json").read_text())["version"] == 1
    (tmp_path / "players.json").write_text("{broken")
    assert records.solved("Ann") == {}  # a damaged file is read as empty, never a crash
    storage = Storage(tmp_path)
    won, lost = Game.from_record("d6 a1"), Game.from_record("d6 a1")
    won.resign("black")
    lost.resign("white")
    storage.finish(won, {"mode": "computer", "human": "white", "level": 3})
    storage.finish(lost, {"mode": "computer", "human": "white", "level": 3})
    assert games_by_level(storage.list_records(), "Player") == {"3": {"won": 1, "drawn": 0, "lost": 1}}
