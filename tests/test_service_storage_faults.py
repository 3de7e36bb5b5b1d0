"""A full or broken disk under the real service loop: no finished game is lost, saves catch up.

The storage writes through ``morris_pi.hw.fakes.disk.SmallDisk``, which runs out of
space like a real file system (``ENOSPC`` after a partial write).
"""

from __future__ import annotations

import logging

import pytest
from test_service import config, error_points

from morris_pi.core.save_format import parse_save
from morris_pi.core.session import ERROR_PATTERNS
from morris_pi.core.storage import Storage
from morris_pi.guidance import DEFAULT_PALETTE
from morris_pi.hw.fakes.disk import SmallDisk
from morris_pi.rules import Game

ERROR = DEFAULT_PALETTE["error"].colour
CORNERS = set(ERROR_PATTERNS["storage"])


def two_player(tmp_path) -> str:
    return config(tmp_path, mode="two-player")


def resign(board) -> None:
    board.press("menu")
    board.press("menu")  # twice within 3 s: the side to move resigns


def saved_record(tmp_path) -> str | None:
    loaded = Storage(tmp_path / "state").load_current()
    return loaded[0].record if loaded else None


def test_a_game_finished_on_a_full_disk_is_archived_once_space_comes_back(tmp_path, boards, caplog):
    disk = SmallDisk()
    board = boards(two_player(tmp_path), storage=Storage(tmp_path / "state", disk=disk))
    board.put("d6")
    board.put("a1")
    disk.full()
    with caplog.at_level(logging.INFO, logger="morris_pi.core.session"):
        board.put("f6")  # this save fails
        resign(board)  # and so does the record
        assert board.state()["outcome"] is not None
        assert error_points(board) == CORNERS
        for point in ("d6", "a1", "f6"):  # clearing the board starts the next game
            board.take(point)
        board.put("g7")  # ... whose saves fail too
        board.run(60)
        assert not list((tmp_path / "state" / "records").glob("*.txt"))
        # the last save of the finished game was kept aside, never deleted or overwritten
        [kept] = (tmp_path / "state").glob("unarchived-*.json")
        assert parse_save(kept.read_bytes(), Game)[0].record == "d6 a1"
        tries = disk.failures
        board.run(60)  # backoff at its cap: a round every 30 s, not every scan
        assert disk.failures - tries <= 3 * 3
        disk.room()
        board.run(31)  # the longest backoff
    [record] = Storage(tmp_path / "state").list_records()
    assert record.record == "d6 a1 f6" and record.tags["Result"] == "1-0"  # black resigned
    assert not list((tmp_path / "state").glob("unarchived-*.json"))
    assert saved_record(tmp_path) == "g7"  # the game now running is saved again
    assert error_points(board) == set()
    errors = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert len(errors) == 1 and "No space left" in errors[0].getMessage()
    assert any("saving works again" in r.getMessage() for r in caplog.records)


def test_a_game_waiting_for_its_record_survives_a_restart(tmp_path, boards):
    state = tmp_path / "state"
    state.mkdir()
    (state / "records").write_text("the records folder is not there (a card not mounted)")
    board = boards(two_player(tmp_path))
    board.put("d6")
    board.put("a1")
    resign(board)  # white resigns: the record cannot be written
    assert error_points(board) == CORNERS
    for point in ("d6", "a1"):
        board.take(point)
    board.put("b6")  # a new game starts and is saved
    assert board.stop() == 0
    assert [p.name for p in state.glob("unarchived-*.json")]
    assert saved_record(tmp_path) == "b6"

    (state / "records").unlink()  # the folder is back
    board = boards(two_player(tmp_path))
    [record] = Storage(state).list_records()
    assert record.record == "d6 a1" and record.tags["Result"] == "0-1"
    assert not list(state.glob("unarchived-*.json"))
    assert board.state()["record"] == "b6"  # the game in progress resumed as well
    assert error_points(board) == set()


def test_a_stale_save_is_rewritten_when_the_disk_recovers_without_another_turn(tmp_path, boards):
    disk = SmallDisk()
    board = boards(two_player(tmp_path), storage=Storage(tmp_path / "state", disk=disk))
    board.put("d6")
    disk.full()
    board.put("a1")
    assert error_points(board) == CORNERS
    assert saved_record(tmp_path) == "d6"
    disk.room()
    board.run(3)  # within the backoff, no turn played
    assert saved_record(tmp_path) == "d6 a1"
    assert error_points(board) == set()
    assert "fault" not in board.session.status()


SAVES = {
    "nested 100,000 deep": lambda p: p.write_text("[" * 100_000 + "]" * 100_000),
    "a 5,001-digit integer": lambda p: p.write_text('{"format": "morris-pi/save", "version": ' + "7" * 5001 + "}"),
    "a FIFO": lambda p: __import__("os").mkfifo(p),
    "a directory": lambda p: p.mkdir(),
    "undecodable bytes": lambda p: p.write_bytes(b"\xff\xfe\x00\x01" * 100),
}


@pytest.mark.parametrize("case", list(SAVES))
def test_the_service_starts_whatever_is_at_the_save(tmp_path, boards, caplog, case):
    state = tmp_path / "state"
    state.mkdir()
    SAVES[case](state / "current.json")
    with caplog.at_level(logging.WARNING):
        board = boards(config(tmp_path, menu=True))
    assert board.state()["state"] == "menu"
    assert not (state / "current.json").exists()
    assert len(list(state.glob("current.corrupt-*.json"))) == 1
    assert any("moved it to" in r.getMessage() for r in caplog.records)
    assert error_points(board) == set()
    board.press("new")
    board.put("d6")
    assert saved_record(tmp_path) == "d6"
