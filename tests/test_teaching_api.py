"""The page's API of reviews and practice: a review asked for and made, positions listed, a turn judged."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

pytest.importorskip("starlette")

from web_kit import WebBoard

from morris_pi.core.practice import PlayerRecords, load_practice, practice_by_id
from morris_pi.core.reviews import BackgroundReviewer
from morris_pi.core.storage import Storage
from morris_pi.rules import Game, Turn

PIN = "471108"


def stored_game(tmp_path) -> tuple[Storage, str]:
    storage = Storage(tmp_path, clock=lambda: datetime(2026, 4, 12, 19, 0, tzinfo=UTC))
    game = Game.from_record("d6 a1 f6 a4 b6xa1")
    game.resign("black")
    return storage, storage.finish(game, {"mode": "two-player"}).id


def test_a_review_is_queued_when_asked_for_and_served_once_made(tmp_path) -> None:
    storage, record_id = stored_game(tmp_path)
    with WebBoard(storage=storage) as board:
        assert isinstance(board.app.state.reviewer, BackgroundReviewer)  # the board's own, in its thread
        asked = board.client.get(f"/api/records/{record_id}/review").json()
        assert asked["status"] in ("queued", "running", "done")
    BackgroundReviewer(storage, budget="quick").run_pending()  # here, whatever the board's thread did
    with WebBoard(storage=storage) as board:
        answer = board.client.get(f"/api/records/{record_id}/review").json()
        assert answer["status"] == "done"
        assert [t["turn"] for t in answer["turns"]] == "d6 a1 f6 a4 b6xa1".split()
        assert answer["turns"][3]["grade"] == "mistake"
        assert board.client.get("/api/records/nosuch/review").status_code == 404


def test_practice_positions_are_listed_without_their_solutions_and_a_turn_is_judged(tmp_path) -> None:
    storage, _ = stored_game(tmp_path)
    position = next(p for p in load_practice() if p.theme == "flying-win")
    with WebBoard(storage=storage, pin=PIN) as board:
        listed = board.client.get("/api/practice").json()
        assert "flying-win" in listed["themes"]
        assert all("solution" not in p for p in listed["positions"])
        body = {"id": position.id, "turn": position.solution[0], "player": "Ann"}
        assert board.post("/api/practice/check", body).status_code == 403  # behind pairing
        board.pair_with_pin(PIN)
        judged = board.post("/api/practice/check", body).json()
        assert judged["solved"] and position.id in judged["record"]
        wrong = next(str(t) for t in position.game().legal_turns() if str(t) not in position.solution)
        assert board.post("/api/practice/check", {**body, "turn": wrong}).json()["solved"] is False
        bad = board.post("/api/practice/check", {**body, "turn": "zz"})
        assert bad.status_code == 400 and "turn" in bad.text
        assert board.post("/api/practice/check", {**body, "id": "no-such"}).status_code == 404
        player = board.client.get("/api/practice/player?name=Ann").json()
        assert list(player["solved"]) == [position.id]
    assert list(PlayerRecords(tmp_path).solved("Ann")) == [position.id]


def test_a_practice_game_is_judged_turn_by_turn_and_kept_once_solved(tmp_path) -> None:
    storage, _ = stored_game(tmp_path)
    position = practice_by_id("win-a-man-08")
    line = list(position.line)
    with WebBoard(storage=storage, pin=PIN) as board:
        board.pair_with_pin(PIN)
        body = {"id": position.id, "player": "Bo"}
        first = board.post("/api/practice/check", {**body, "turns": line[0]}).json()
        assert first["status"] == "playing" and first["bound"] == 3 and "record" not in first
        assert first["turns"] == [
            {"number": 1, "turn": "e4-f4", "grade": "best", "loss": 0, "better": None, "kept": True}
        ]
        mistake = board.post("/api/practice/check", {**body, "turns": " ".join([*line[:2], "d2-d3"])}).json()
        assert mistake["status"] == "not-solved" and mistake["turns"][1]["better"] == "a7-a4"
        assert board.client.get("/api/practice/player?name=Bo").json()["solved"] == {}
        solved = board.post("/api/practice/check", {**body, "turns": " ".join(line)}).json()
        assert solved["status"] == "solved" and [t["number"] for t in solved["turns"]] == [1, 2, 3]
        assert position.id in solved["record"]
        illegal = board.post("/api/practice/check", {**body, "turns": "e4-f4 e4-f4"})
        assert illegal.status_code == 422 and "turn 2" in illegal.text
        assert board.post("/api/practice/check", {**body, "turns": "e4-f4  x"}).status_code == 400
    assert list(PlayerRecords(tmp_path).solved("Bo")) == [position.id]


def play_on_the_board(board: WebBoard, turn: str) -> None:
    """A turn made by hand on the board's switches: lift, put down, then lift the man taken."""
    parsed = Turn.parse(turn)
    if parsed.origin is not None:
        board.take(parsed.origin)
    board.put(parsed.target)
    if parsed.removal is not None:
        board.take(parsed.removal)


def practise_on_the_board(board: WebBoard, position, turns: list[str]) -> list[dict]:
    """Set the position up on the board, play ``turns`` on it, and judge the game after each of
    the player's turns as the page does; the answers."""
    assert board.act({"do": "new", "mode": "two-player", "fen": position.fen}).status_code == 200
    setup = board.client.get("/api/state").json()["setup"]
    for point in [*setup["white"], *setup["black"]]:  # the white men first
        board.put(point)
    answers = []
    for number, turn in enumerate(turns):
        play_on_the_board(board, turn)
        played = board.client.get("/api/state").json()["turns"]
        assert played == turns[: number + 1]
        if number % 2 == 0:  # the player's turn (the player moves first)
            body = {"id": position.id, "turns": " ".join(played), "player": "Cy"}
            answers.append(board.post("/api/practice/check", body).json())
    return answers


def test_a_practice_position_played_on_the_board_is_judged_every_turn_of_its_line(tmp_path) -> None:
    position = practice_by_id("win-a-man-08")
    with WebBoard(storage=Storage(tmp_path), pin=PIN) as board:
        board.pair_with_pin(PIN)
        answers = practise_on_the_board(board, position, list(position.line))
    assert [a["status"] for a in answers] == ["playing", "playing", "solved"]
    assert [len(a["turns"]) for a in answers] == [1, 2, 3]
    assert list(PlayerRecords(tmp_path).solved("Cy")) == [position.id]


def test_a_mistake_at_the_second_turn_on_the_board_is_not_solved(tmp_path) -> None:
    position = practice_by_id("win-a-man-08")
    with WebBoard(storage=Storage(tmp_path), pin=PIN) as board:
        board.pair_with_pin(PIN)
        answers = practise_on_the_board(board, position, [*position.line[:2], "d2-d3"])
    assert [a["status"] for a in answers] == ["playing", "not-solved"]
    second = answers[1]["turns"][1]
    assert (second["number"], second["turn"], second["kept"], second["better"]) == (2, "d2-d3", False, "a7-a4")
    assert second["grade"] == "blunder" and (isinstance(second["loss"], dict) or second["loss"] > 250)
    assert PlayerRecords(tmp_path).solved("Cy") == {}
