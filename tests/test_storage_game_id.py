"""A game is archived once, under its own id, even if power fails between the record and the save."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from morris_pi.core.storage import Storage
from morris_pi.rules import Game


class StepClock:
    """Wall clock for ids and timestamps: each call is one second later."""

    def __init__(self) -> None:
        self.now = datetime(2025, 6, 1, 14, 3, 22, tzinfo=UTC)

    def __call__(self) -> datetime:
        self.now += timedelta(seconds=1)
        return self.now


def finished(record: str = "d6 a1 f6 a4 b6xa1 g7 d7") -> Game:
    game = Game.from_record(record)
    game.resign("black")
    return game


def test_a_power_cut_between_record_and_clearing_the_save_gives_one_record(tmp_path, monkeypatch):
    store = Storage(tmp_path, clock=StepClock())
    meta = {"id": store.new_game_id(), "mode": "two-player"}
    game = finished()
    store.save_current(game, meta)

    # The power fails right after the record is written, before the save is cleared.
    monkeypatch.setattr(store, "clear_current", lambda: None)
    first = store.finish(game, meta)
    monkeypatch.undo()
    assert store.current_path.exists()

    # After the restart the saved (finished) game is archived again: same record, not a second one.
    again, again_meta = store.load_current()
    second = store.finish(again, again_meta)
    assert second.id == first.id == meta["id"]
    assert [r.id for r in store.list_records()] == [meta["id"]]
    assert store.load_current() is None


def test_game_ids_are_start_times_and_never_repeat(tmp_path):
    clock = StepClock()
    store = Storage(tmp_path, clock=clock)
    first = store.new_game_id()
    assert first == "20250601-140323"
    clock.now -= timedelta(seconds=1)  # a second game started in the same second
    assert store.new_game_id() == "20250601-140323-2"
    # an id already used by a record on disk is skipped, even by a fresh Storage
    store.finish(finished(), {"id": "20250601-140330"})
    later = Storage(tmp_path, clock=lambda: datetime(2025, 6, 1, 14, 3, 30, tzinfo=UTC))
    assert later.new_game_id() == "20250601-140330-2"


def test_a_takeback_past_the_end_then_a_new_ending_replaces_the_record(tmp_path):
    store = Storage(tmp_path, clock=StepClock())
    meta = {"id": store.new_game_id(), "mode": "two-player"}
    store.finish(finished(), meta)
    store.finish(finished("d6 a1 f6 a4 b6xa1 g7 d7 g1"), meta)
    records = store.list_records()
    assert len(records) == 1 and records[0].record.endswith("g1")


def test_without_an_id_records_are_named_by_the_finish_time(tmp_path):
    store = Storage(tmp_path, clock=StepClock())
    assert store.finish(finished(), {}).id == "20250601-140323"
    assert store.finish(finished(), {"id": "not an id"}).id == "20250601-140324"
