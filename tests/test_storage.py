"""Saves survive power cuts and corruption; finished games become records the user can list."""

from __future__ import annotations

import io
import json
import logging
import os
import random
from datetime import UTC, datetime, timedelta

import pytest

from morris_pi.core import storage as storage_mod
from morris_pi.core.record_format import RecordNotFoundError, StorageError, format_record, parse_record
from morris_pi.core.storage import Storage
from morris_pi.rules import Game

RECORD = "d6 a1 f6 a4 b6xa1 g7 d7"
META = {"mode": "computer", "human": "white", "level": 5, "profile": "standard"}


class StepClock:
    """Wall clock for ids and timestamps: each call is one second later."""

    def __init__(self) -> None:
        self.now = datetime(2025, 6, 1, 14, 3, 22, tzinfo=UTC)

    def __call__(self) -> datetime:
        self.now += timedelta(seconds=1)
        return self.now


@pytest.fixture
def store(tmp_path):
    return Storage(tmp_path / "state", clock=StepClock())


def saved_files(store: Storage) -> list[str]:
    return sorted(p.name for p in store.state_dir.iterdir())


# -- the game in progress -------------------------------------------------------------


def test_no_save_means_nothing_to_resume(store):
    assert store.load_current() is None


def test_round_trip_restores_history_and_meta(store):
    game = Game.from_record(RECORD)
    store.save_current(game, META)
    loaded, meta = store.load_current()
    assert loaded.record == RECORD
    assert loaded.turn == game.turn and loaded.board == game.board
    assert meta == META
    # Undo still reaches back through the restored history.
    assert str(loaded.undo()) == "d7"


def test_pending_removal_survives_a_restart(store):
    game = Game.from_record("d6 a1 f6 a4")
    game.play("b6")  # closes a mill; the removal is still to come
    store.save_current(game, META)
    loaded, _ = store.load_current()
    assert str(loaded.pending) == "b6"
    assert loaded.removable == ["a1", "a4"]


def test_every_save_replaces_the_last(store):
    game = Game()
    for turn in RECORD.split():
        game.play(turn)
        store.save_current(game, META)
    assert store.load_current()[0].record == RECORD
    assert saved_files(store) == ["current.json"]


def test_save_file_is_readable_json_with_a_header(store):
    store.save_current(Game.from_record("d6"), META)
    data = json.loads(store.current_path.read_text())
    assert data["format"] == "morris-pi/save" and data["version"] == 1
    assert data["saved_at"] == "2025-06-01T14:03:23+00:00"
    assert data["meta"] == META
    assert Game.from_text(data["game"]).record == "d6"


def test_save_honours_systemd_state_directory(monkeypatch, tmp_path):
    monkeypatch.setenv("STATE_DIRECTORY", f"{tmp_path}/a:{tmp_path}/b")
    assert storage_mod.default_state_dir() == tmp_path / "a"
    monkeypatch.delenv("STATE_DIRECTORY")
    assert str(storage_mod.default_state_dir()) == "/var/lib/morris-pi"


def test_meta_that_is_not_json_is_refused_and_old_save_kept(store):
    store.save_current(Game.from_record("d6"), META)
    with pytest.raises(StorageError, match="meta data is not plain JSON"):
        store.save_current(Game.from_record("d6 a1"), {"when": object()})
    assert store.load_current()[0].record == "d6"


@pytest.mark.parametrize("fail_at", ["fsync", "replace"])
def test_a_save_that_fails_midway_leaves_the_old_save_intact(store, monkeypatch, fail_at):
    store.save_current(Game.from_record("d6 a1"), META)
    before = store.current_path.read_bytes()

    def broken(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, fail_at, broken)
    with pytest.raises(OSError, match="No space left"):
        store.save_current(Game.from_record("d6 a1 f4"), META)
    monkeypatch.undo()

    assert store.current_path.read_bytes() == before
    assert saved_files(store) == ["current.json"]  # no temporary file left behind
    assert store.load_current()[0].record == "d6 a1"


def test_a_half_written_temporary_from_a_power_cut_is_ignored_and_cleaned(store, caplog):
    store.save_current(Game.from_record("d6 a1"), META)
    (store.state_dir / ".current.json.x1y2.tmp").write_text('{"format": "morris-pi/sa')
    with caplog.at_level(logging.INFO, logger="morris_pi.core.storage"):
        game, _ = store.load_current()
    assert game.record == "d6 a1"
    assert saved_files(store) == ["current.json"]
    assert "interrupted save" in caplog.text


def write_save(store: Storage, text: str | bytes) -> None:
    store.state_dir.mkdir(parents=True, exist_ok=True)
    if isinstance(text, str):
        text = text.encode()
    store.current_path.write_bytes(text)


def good_document() -> dict:
    return {
        "format": "morris-pi/save",
        "version": 1,
        "saved_at": "2025-06-01T14:00:00+00:00",
        "meta": META,
        "game": Game.from_record("d6 a1").to_text(),
    }


CORRUPT = {
    "not JSON": ("{ this is not json", "not valid JSON"),
    "truncated": (json.dumps(good_document())[:70], "not valid JSON"),
    "empty": ("", "empty file"),
    "binary": (b"\xff\xfe\x00garbage", "not UTF-8"),
    "a list": ("[1, 2, 3]", "expected a JSON object"),
    "garbage game text": (
        json.dumps({**good_document(), "game": "this is no game"}),
        "the game in it is inconsistent",
    ),
    "illegal history": (
        json.dumps({**good_document(), "game": good_document()["game"].replace("d6 a1", "d6 d6")}),
        "the game in it is inconsistent",
    ),
    "wrong version": (json.dumps({**good_document(), "version": 2}), "format version 2"),
    "foreign file": (json.dumps({"name": "something else"}), "format is None"),
    "meta missing": (json.dumps({**good_document(), "meta": None}), "'meta' is missing"),
}


@pytest.mark.parametrize("case", list(CORRUPT))
def test_an_unusable_save_is_moved_aside_logged_and_a_new_game_starts(store, caplog, case):
    content, expected = CORRUPT[case]
    write_save(store, content)
    original = store.current_path.read_bytes()

    with caplog.at_level(logging.WARNING, logger="morris_pi.core.storage"):
        assert store.load_current() is None

    assert not store.current_path.exists()
    aside = store.state_dir / "current.corrupt-20250601T140323Z.json"
    assert aside.read_bytes() == original  # kept byte for byte, not deleted
    [message] = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert str(store.current_path) in message.getMessage()
    assert str(aside) in message.getMessage()
    assert expected in message.getMessage()
    # The next start finds no save and starts afresh, without touching the set-aside file.
    assert store.load_current() is None
    assert aside.exists()


def test_two_corrupt_saves_in_the_same_second_are_both_kept(tmp_path):
    fixed = datetime(2025, 6, 1, 9, 0, 0, tzinfo=UTC)
    store = Storage(tmp_path, clock=lambda: fixed)
    for text in ("{", "[}"):
        write_save(store, text)
        assert store.load_current() is None
    assert sorted(p.name for p in tmp_path.glob("current.corrupt-*")) == [
        "current.corrupt-20250601T090000Z-2.json",
        "current.corrupt-20250601T090000Z.json",
    ]


def make_fifo(path):
    os.mkfifo(path)


def make_socket(path):
    import socket

    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(path))
    sock.close()


def make_dangling_link(path):
    os.symlink("/nonexistent/save.json", path)


def make_link_to_a_good_save(path):
    other = path.parent / "elsewhere.json"
    other.write_text(json.dumps(good_document()))
    os.symlink(other, path)


UNREADABLE = {
    # what sits at current.json -> words of the warning
    "deep nesting": (lambda p: p.write_text("[" * 100_000 + "]" * 100_000), "nested too deeply"),
    "deep nesting in the game": (
        lambda p: p.write_text(json.dumps({**good_document(), "game": "[" * 100_000})),
        "the game in it is inconsistent",
    ),
    "a 5,001-digit integer": (
        lambda p: p.write_text(
            json.dumps({**good_document(), "version": 0}).replace('"version": 0', '"version": ' + "9" * 5001)
        ),
        "not valid JSON",
    ),
    "undecodable bytes": (lambda p: p.write_bytes(b'{"format": "\xc3\x28"}'), "not UTF-8 text (byte 12)"),
    "UTF-16": (lambda p: p.write_bytes(json.dumps(good_document()).encode("utf-16")), "not UTF-8"),
    "a huge file": (lambda p: p.write_bytes(b" " * (storage_mod.MAX_SAVE_BYTES + 1)), "more than the 1,048,576"),
    "a directory": (lambda p: p.mkdir(), "it is a directory"),
    "a FIFO": (make_fifo, "it is a named pipe (FIFO)"),
    "a socket": (make_socket, "cannot read it"),
    "a dangling symbolic link": (make_dangling_link, "symbolic link"),
    "a link to a save elsewhere": (make_link_to_a_good_save, "symbolic link"),
}


@pytest.mark.parametrize("case", list(UNREADABLE))
def test_any_unreadable_save_is_moved_aside_and_the_game_starts_afresh(store, caplog, case):
    make, expected = UNREADABLE[case]
    store.state_dir.mkdir(parents=True)
    make(store.current_path)
    with caplog.at_level(logging.WARNING, logger="morris_pi.core.storage"):
        assert store.load_current() is None  # returns at once: a FIFO never blocks it
    assert not os.path.lexists(store.current_path)
    [aside] = store.state_dir.glob("current.corrupt-*.json")
    [message] = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert expected in message and str(aside) in message
    assert len(message) < 600  # a bad value is never quoted whole
    assert store.load_current() is None


def test_a_save_that_cannot_be_moved_aside_is_left_in_place_with_an_error(store, caplog, monkeypatch):
    write_save(store, "{")

    def refuse(*args):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "replace", refuse)
    with caplog.at_level(logging.WARNING):
        assert store.load_current() is None
    assert store.current_path.read_text() == "{"
    assert any(r.levelno == logging.ERROR and "could not be moved aside" in r.getMessage() for r in caplog.records)


# -- finished games -------------------------------------------------------------------


def finished_game(record: str = RECORD, loser: str = "black") -> Game:
    game = Game.from_record(record)
    game.resign(loser)
    return game


def test_finish_archives_the_record_and_clears_the_save(store):
    game = finished_game()
    store.save_current(game, META)
    record = store.finish(game, META)

    assert not store.current_path.exists()
    assert store.load_current() is None
    assert record.id == "20250601-140324"
    text = record.path.read_text()
    assert text == (
        '[Event "Game against the computer"]\n'
        '[Site "morris-pi"]\n'
        '[Date "2025.06.01"]\n'
        '[Time "14:03:24Z"]\n'
        '[White "Player"]\n'
        '[Black "Computer (level 5)"]\n'
        '[Profile "standard"]\n'
        '[Result "1-0"]\n'
        '[Reason "resignation"]\n'
        '[Turns "7"]\n'
        '[Level "5"]\n'
        '[Mode "computer"]\n'
        "\n"
        f"{RECORD}\n"
    )


def test_a_record_replays_to_the_same_game(store):
    record = store.finish(finished_game(), META)
    tags, turns = parse_record(record.path.read_text())
    replayed = Game.from_record(turns, profile=tags["Profile"])
    assert replayed.record == RECORD


def test_results_and_players_for_each_ending(store):
    draw = Game.from_record("d6 a1")
    draw.agree_draw()
    black_wins = finished_game(loser="white")
    unfinished = Game.from_record("d6")
    two = {"mode": "two-player", "white": "Anna", "black": 'Ben "the" Bold'}
    store.finish(draw, two)
    store.finish(black_wins, {"mode": "computer", "human": "black", "level": 2})
    store.finish(unfinished, {})
    got = [(r.tags["Result"], r.tags["Reason"], r.tags["White"], r.tags["Black"]) for r in store.list_records()]
    assert got == [
        ("1/2-1/2", "agreement", "Anna", 'Ben "the" Bold'),
        ("0-1", "resignation", "Computer (level 2)", "Player"),
        ("*", "unfinished", "Player", "Player"),
    ]


def test_long_records_wrap_and_still_read_back(store):
    game = Game()
    rng = random.Random(7)
    while len(game.history) < 40 and not game.is_over:
        game.play(rng.choice(game.legal_turns()))
    record = store.finish(game, {})
    lines = record.path.read_text().splitlines()
    assert max(len(line) for line in lines) <= 79
    assert store.get_record(record.id).record == game.record


def test_list_records_oldest_first_and_ids_unique_within_a_second(tmp_path):
    fixed = datetime(2025, 6, 1, 9, 0, 0, tzinfo=UTC)
    store = Storage(tmp_path, clock=lambda: fixed)
    ids = [store.finish(finished_game(), META).id for _ in range(3)]
    assert ids == ["20250601-090000", "20250601-090000-2", "20250601-090000-3"]
    assert [r.id for r in store.list_records()] == ids


def test_no_records_yet(store):
    assert store.list_records() == []
    with pytest.raises(RecordNotFoundError, match=r"no records in .* yet"):
        store.get_record("latest")


def test_get_record_by_id_prefix_and_latest(store):
    first = store.finish(finished_game(), META)
    second = store.finish(finished_game(loser="white"), META)
    assert store.get_record(first.id).id == first.id
    assert store.get_record("latest").id == second.id

    later = Storage(store.state_dir, clock=lambda: datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC))
    third = later.finish(finished_game(), META)
    assert store.get_record("2026").id == third.id  # a unique prefix is enough


@pytest.mark.parametrize(
    "bad, message",
    [
        ("nonsense", r"no record 'nonsense' in .*records \(ids look like 20250601-140322\)"),
        ("20240101-000000", r"no record '20240101-000000' .*see 'morris-pi records list'"),
        ("2025", r"record id '2025' is ambiguous: it matches 20250601-140323, 20250601-140324"),
    ],
)
def test_bad_record_id_gives_a_clear_error(store, bad, message):
    store.finish(finished_game(), META)
    store.finish(finished_game(), META)
    with pytest.raises(RecordNotFoundError, match=message):
        store.get_record(bad)
    with pytest.raises(RecordNotFoundError):
        store.export(bad, io.StringIO())


def test_export_to_stream_file_and_directory(store, tmp_path):
    record = store.finish(finished_game(), META)
    stream = io.StringIO()
    store.export(record.id, stream)
    assert stream.getvalue() == record.path.read_text()

    out = tmp_path / "game.txt"
    store.export(record.id, out)
    assert out.read_text() == record.path.read_text()
    with pytest.raises(StorageError, match="already exists"):
        store.export(record.id, out)
    out.write_text("keep me")
    with pytest.raises(StorageError):
        store.export(record.id, out)
    assert out.read_text() == "keep me"
    store.export(record.id, out, overwrite=True)
    assert out.read_text() == record.path.read_text()

    folder = tmp_path / "exports"
    folder.mkdir()
    store.export(record.id, folder)
    assert (folder / record.path.name).read_text() == record.path.read_text()


def test_a_damaged_record_file_is_listed_with_its_fault(store):
    store.finish(finished_game(), META)
    bad = store.records_dir / "20250101-000000.txt"
    bad.write_text('[Event "x"]\n[Broken\n\nd6\n')
    records = store.list_records()
    assert [r.id for r in records] == ["20250101-000000", "20250601-140323"]
    assert "line 2: malformed tag line" in records[0].error
    assert records[1].error is None


def test_record_format_escapes_and_rejects_bad_tag_names():
    text = format_record({"Event": 'a "quoted" \\ name\nsecond line'}, "d6")
    assert text.splitlines()[0] == r'[Event "a \"quoted\" \\ name second line"]'
    assert parse_record(text) == ({"Event": 'a "quoted" \\ name second line'}, "d6")
    with pytest.raises(StorageError, match="tag name"):
        format_record({"Bad Name": "x"}, "d6")


def test_record_tag_after_turns_is_an_error():
    with pytest.raises(StorageError, match="line 4: tag line after the turns"):
        parse_record('[Event "x"]\n\nd6\n[Result "1-0"]\n', where="r.txt")


def test_records_are_readable_by_other_users(store):
    store.save_current(Game.from_record("d6"), META)
    record = store.finish(finished_game(), META)
    assert record.path.stat().st_mode & 0o777 == 0o644


class TextOnlyGame:
    """A stand-in that has only the duck-typed surface storage relies on."""

    def __init__(self, record: str) -> None:
        self.record = record
        self.outcome = None

    def to_text(self) -> str:
        return self.record

    @classmethod
    def from_text(cls, text: str) -> TextOnlyGame:
        if not text.startswith("d"):
            raise ValueError(f"bad text {text!r}")
        return cls(text)


def test_storage_needs_only_the_documented_game_surface(tmp_path):
    store = Storage(tmp_path, game_type=TextOnlyGame, clock=StepClock())
    store.save_current(TextOnlyGame("d6 a1"), {"profile": "club"})
    game, meta = store.load_current()
    assert game.record == "d6 a1"
    record = store.finish(game, meta)
    assert record.tags["Profile"] == "club" and record.tags["Result"] == "*"
