"""Reviews kept with the records, made in the background, giving way to the computer player."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from morris_pi.commands import review as review_cmd
from morris_pi.core.reviews import BackgroundReviewer, load_review, review_path
from morris_pi.core.storage import Storage
from morris_pi.rules import Game

RECORD = "d6 a1 f6 a4 b6xa1 d7"


def finished_game(tmp_path, record: str = RECORD) -> tuple[Storage, object]:
    store = Storage(tmp_path, clock=lambda: datetime(2025, 6, 1, 20, 15, tzinfo=UTC))
    game = Game.from_record(record)
    game.resign("black")
    return store, store.finish(game, {"mode": "two-player"})


def test_a_finished_game_is_reviewed_and_the_review_is_kept_beside_its_record(tmp_path) -> None:
    store, record = finished_game(tmp_path)
    reviewer = BackgroundReviewer(store, budget="quick")
    assert reviewer.status(record)["status"] == "queued"
    assert reviewer.run_pending()
    assert not reviewer.run_pending()  # nothing left
    saved = load_review(store, record)
    assert saved is not None and saved["budget"] == "quick"
    assert [t["turn"] for t in saved["turns"]] == RECORD.split()
    assert saved["turns"][3]["grade"] == "mistake"
    assert reviewer.status(record)["status"] == "done"


def test_the_background_review_is_the_same_as_the_command_line_review(tmp_path, capsys) -> None:
    store, record = finished_game(tmp_path)
    BackgroundReviewer(store, budget="quick").run_pending()
    review_cmd_lines = _command_review(["--budget", "quick", *RECORD.split()])
    assert load_review(store, record)["turns"] == review_cmd_lines


def test_a_busy_engine_stops_the_position_being_graded_and_it_is_graded_again_in_full(tmp_path) -> None:
    store, record = finished_game(tmp_path)
    calls = {"n": 0, "pauses": 0}

    def busy() -> bool:  # the engine starts thinking during the review's third search
        calls["n"] += 1
        return calls["pauses"] == 0 and calls["n"] > 40

    def pause(seconds: float) -> None:
        calls["pauses"] += 1

    BackgroundReviewer(store, budget="quick", busy=busy, pause=pause).run_pending()
    assert calls["pauses"] >= 1
    plain = tmp_path / "plain"
    plain_store, plain_record = finished_game(plain)
    BackgroundReviewer(plain_store, budget="quick").run_pending()
    assert load_review(store, record)["turns"] == load_review(plain_store, plain_record)["turns"]


def test_a_review_of_another_record_or_a_damaged_file_is_made_again(tmp_path) -> None:
    store, record = finished_game(tmp_path)
    BackgroundReviewer(store, budget="quick").run_pending()
    path = review_path(store, record.id)
    data = json.loads(path.read_text())
    data["record"] = "d6"
    path.write_text(json.dumps(data))
    assert load_review(store, record) is None
    path.write_text("{not json")
    assert load_review(store, record) is None
    assert BackgroundReviewer(store, budget="quick").run_pending()
    assert load_review(store, record) is not None


def _command_review(argv: list[str]) -> list[dict]:
    import argparse
    import io

    parser = argparse.ArgumentParser(prog="morris-pi")
    review_cmd.register(parser.add_subparsers(dest="command"))
    out = io.StringIO()
    assert review_cmd.run(parser.parse_args(["review", *argv]), out=out, err=io.StringIO()) == 0
    return [json.loads(line) for line in out.getvalue().splitlines()]
