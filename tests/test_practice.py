"""Practice positions: the shipped data checked at load, the flying solutions against the endgame
tables, the others against a search, and each player's record of what they solved."""

from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime

import pytest

from morris_pi.core.practice import (
    FLYING_TURNS,
    PlayerRecords,
    PracticeDataError,
    check_turn,
    games_by_level,
    judge_line,
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


def table_line(position, player_turns: int, *, throw_at: int | None = None) -> list[str]:
    """A flying game from ``position`` read from the tables: the player keeps the result by the
    fastest turn (or throws it at turn ``throw_at``), the opponent holds out longest."""
    game, turns = position.game(), []
    while game.outcome is None and len(turns) < 2 * player_turns:
        mine = game.turn == position.side
        ranked = []
        for turn in game.legal_turns():
            after = game.copy()
            after.play(str(turn))
            result = table_result(game, turn)
            code = 0
            if after.outcome is None:
                code = (
                    tables_for_profile(game.profile).probe(
                        after.position.men[after.position.side], after.position.men[after.position.side ^ 1]
                    )
                    or 0
                )
            ranked.append((result, code, str(turn)))
        if mine and len(turns) // 2 + 1 == throw_at:
            choice = next(t for r, _, t in sorted(ranked, key=lambda x: x[2]) if r != position.goal)
        elif mine:
            choice = min((c, t) for r, c, t in ranked if r == position.goal)[1]
        else:
            choice = max((c, t) for r, c, t in ranked if r == "loss" or position.goal == "draw")[1]
        game.play(choice)
        turns.append(choice)
    return turns


def test_a_man_won_along_the_known_line_is_solved_at_the_turn_it_falls() -> None:
    position = practice_by_id("win-a-man-08")  # the man falls on the player's third turn
    line = list(position.line)
    assert [judge_line(position, line[:n]).status for n in (1, 3)] == ["playing", "playing"]
    judged = judge_line(position, line)
    assert judged.solved and judged.status == "solved"
    assert [v.turn for v in judged.verdicts] == line[::2]
    assert all(v.kept and v.graded.grade.value in ("best", "good") for v in judged.verdicts)
    assert judged.to_json()["turns"][2] == {
        "number": 3,
        "turn": "a4-a7xa1",
        "grade": "best",
        "loss": 0,
        "better": None,
        "kept": True,
    }


def test_a_mistake_at_the_second_turn_is_not_solved_and_names_the_better_turn() -> None:
    position = practice_by_id("win-a-man-08")
    played = [*position.line[:2], "d2-d3", "c4-c3"]  # the line's a7-a4 keeps the man in reach
    judged = judge_line(position, [*played, "d3-d2"])
    assert judged.status == "not-solved" and not judged.solved
    first, second = judged.verdicts  # the turns after the mistake are not judged
    assert first.kept and not second.kept
    assert second.graded.grade.value == "blunder" and second.better == "a7-a4"
    assert "turn 2" in judged.reason and "a7-a4" in judged.reason


def test_a_wrong_first_turn_is_not_solved_and_the_verified_best_is_named() -> None:
    position = next(p for p in POSITIONS if p.theme == "flying-win")
    other = next(str(t) for t in position.game().legal_turns() if str(t) not in position.solution)
    judged = judge_line(position, [other])
    assert judged.status == "not-solved" and judged.verdicts[0].better == position.best
    with pytest.raises(ValueError, match="turn 2"):
        judge_line(practice_by_id("win-a-man-08"), ["e4-f4", "e4-f4"])


def test_a_flying_win_is_judged_every_turn_until_it_is_won_or_thrown() -> None:
    position = practice_by_id("flying-win-06")  # a win in 15 plies
    line = table_line(position, FLYING_TURNS)
    judged = judge_line(position, line)
    assert judged.solved and judged.reason == "the game is won"
    assert len(judged.verdicts) == (len(line) + 1) // 2 >= 5 and all(v.kept for v in judged.verdicts)
    thrown = judge_line(position, table_line(position, FLYING_TURNS, throw_at=2))
    assert thrown.status == "not-solved" and [v.kept for v in thrown.verdicts] == [True, False]


def test_a_flying_draw_is_solved_once_held_for_the_bound() -> None:
    position = practice_by_id("flying-draw-01")
    line = table_line(position, FLYING_TURNS)
    judged = judge_line(position, line)
    assert judged.solved and judged.reason == "the game is drawn"
    assert len(judged.verdicts) > 1 and all(v.kept for v in judged.verdicts)


def test_a_man_not_taken_within_three_turns_is_not_solved_though_no_turn_was_bad() -> None:
    position = practice_by_id("win-a-man-02")  # f2-d2xe4 takes the man on the second turn
    played = ["f4-f2", "f6-f4", "d6-d7", "f4-g4", "d7-a7"]
    assert judge_line(position, played[:3]).status == "playing"  # the man can still fall on the third
    judged = judge_line(position, played)
    assert [v.kept for v in judged.verdicts] == [True, True, True]
    assert judged.status == "not-solved" and judged.reason == "not won within 3 turns"
