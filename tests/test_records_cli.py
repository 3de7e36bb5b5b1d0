"""``morris-pi records``: what a user sees when listing, showing and exporting games."""

from __future__ import annotations

import argparse
import io
from datetime import UTC, datetime

import pytest

from morris_pi.commands import records as records_cmd
from morris_pi.core.storage import Storage
from morris_pi.rules import Game


def parse(argv):
    parser = argparse.ArgumentParser(prog="morris-pi")
    records_cmd.register(parser.add_subparsers(dest="command"))
    return parser.parse_args(argv)


def run(argv):
    out, err = io.StringIO(), io.StringIO()
    code = records_cmd.run(parse(argv), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def state(tmp_path):
    when = iter(datetime(2025, 6, day, 20, 15, 0, tzinfo=UTC) for day in (1, 2))
    store = Storage(tmp_path, clock=lambda: next(when))
    won = Game.from_record("d6 a1 f6 a4 b6xa1")
    won.resign("black")
    store.finish(won, {"mode": "computer", "human": "white", "level": 3})
    drawn = Game.from_record("d6 a1")
    drawn.agree_draw()
    store.finish(drawn, {"mode": "two-player"})
    return tmp_path


def test_list_shows_one_line_per_game(state):
    code, out, _ = run(["records", "list", "--state-dir", str(state)])
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split() == ["ID", "DATE", "WHITE", "BLACK", "RESULT", "REASON", "TURNS", "PROFILE"]
    assert lines[1].split() == [
        "20250601-201500",
        "2025.06.01",
        "20:15:00Z",
        "Player",
        "Computer",
        "(level",
        "3)",
        "1-0",
        "resignation",
        "5",
        "standard",
    ]
    assert lines[2].split()[0] == "20250602-201500" and "1/2-1/2" in lines[2]


def test_state_dir_may_come_before_the_action(state):
    code, out, _ = run(["records", "--state-dir", str(state), "list"])
    assert code == 0 and "20250602-201500" in out


def test_list_with_no_games(tmp_path):
    code, out, _ = run(["records", "list", "--state-dir", str(tmp_path)])
    assert code == 0 and out.startswith("no finished games in")


def test_show_numbers_the_turns(state):
    code, out, _ = run(["records", "show", "20250601", "--state-dir", str(state)])
    assert code == 0
    assert "Black:   Computer (level 3)" in out
    assert out.endswith("   1. d6     a1\n   2. f6     a4\n   3. b6xa1\n")


def test_export_to_stdout_is_the_file_verbatim(state):
    code, out, _ = run(["records", "export", "latest", "--state-dir", str(state)])
    assert code == 0
    assert out == (state / "records" / "20250602-201500.txt").read_text()


def test_export_to_a_file_refuses_to_overwrite_without_force(state, tmp_path):
    dest = tmp_path / "out.txt"
    assert run(["records", "export", "20250601-201500", str(dest), "--state-dir", str(state)])[0] == 0
    assert dest.read_text().startswith('[Event "Game against the computer"]')
    code, _, err = run(["records", "export", "latest", str(dest), "--state-dir", str(state)])
    assert code == 1 and "already exists" in err
    assert "2025.06.01" in dest.read_text()
    assert run(["records", "export", "latest", str(dest), "--force", "--state-dir", str(state)])[0] == 0
    assert "2025.06.02" in dest.read_text()


def test_unknown_id_is_a_clear_error(state):
    code, out, err = run(["records", "show", "yesterday", "--state-dir", str(state)])
    assert code == 1 and out == ""
    assert err.startswith("morris-pi records: error: no record 'yesterday' in ")


def test_action_is_required(state, capsys):
    with pytest.raises(SystemExit) as exc:
        parse(["records"])
    assert exc.value.code == 2


def test_config_storage_table_says_where_the_records_are(state, tmp_path, monkeypatch):
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    config = tmp_path / "config.toml"
    config.write_text(f'[storage]\nstate_dir = "{state}"\n')
    code, out, err = run(["records", "list", "--config", str(config)])
    assert (code, err) == (0, "")
    assert "20250601-201500" in out


def test_systemd_state_directory_wins_over_the_default(state, monkeypatch):
    monkeypatch.setenv("STATE_DIRECTORY", str(state))
    code, out, _ = run(["records", "list"])
    assert code == 0 and "20250602-201500" in out


def test_records_dir_option(state, tmp_path):
    code, out, _ = run(
        ["records", "list", "--state-dir", str(tmp_path / "elsewhere"), "--records-dir", str(state / "records")]
    )
    assert code == 0 and "20250601-201500" in out


def test_broken_explicit_config_is_an_error(tmp_path, monkeypatch):
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    config = tmp_path / "config.toml"
    config.write_text("[storage]\nstate_dir = 3\n")
    code, out, err = run(["records", "list", "--config", str(config)])
    assert code == 1 and out == ""
    assert err.startswith(f"morris-pi records: error: cannot use --config {config}: {config}:2: storage.state_dir")


def test_refusing_to_overwrite_names_the_force_option(state, tmp_path):
    dest = tmp_path / "out.txt"
    dest.write_text("mine\n")
    code, _, err = run(["records", "export", "latest", str(dest), "--state-dir", str(state)])
    assert code == 1 and "already exists" in err and "--force" in err
    assert dest.read_text() == "mine\n"


def test_show_keeps_the_columns_in_line_for_long_turns(tmp_path):
    store = Storage(tmp_path, clock=lambda: datetime(2025, 6, 3, 9, 0, 0, tzinfo=UTC))
    game = Game.from_record("f2 b2 d7 d6 e3 e4 c5 f4 c4 b6 a4 f6xc4 g4 b4xf2 g1 a1 d3 e5 d7-g7xe5 e4-e5")
    game.resign("black")
    store.finish(game, {"mode": "two-player"})
    code, out, _ = run(["records", "show", "latest", "--state-dir", str(tmp_path)])
    assert code == 0
    rows = [line for line in out.splitlines() if line[:5].strip().rstrip(".").isdigit()]
    assert [row.split() for row in rows][-2:] == [["9.", "d3", "e5"], ["10.", "d7-g7xe5", "e4-e5"]]
    # black's turns start in one column, whatever white played
    black_columns = {row.index(row.split()[2]) for row in rows if len(row.split()) == 3}
    assert len(black_columns) == 1, out


def test_export_in_sanmills_ply_form_reads_back_to_the_same_game(state, tmp_path):
    code, out, _ = run(["records", "export", "20250601", "--format", "sanmill", "--state-dir", str(state)])
    assert code == 0
    tags, body = out.split("\n\n", 1)
    assert '[Result "1-0"]' in tags
    assert body.split() == ["d6", "a1", "f6", "a4", "b6", "xa1"]
    assert Game.from_record(body).record == "d6 a1 f6 a4 b6xa1"
    dest = tmp_path / "sanmill.txt"
    assert run(["records", "export", "20250601", str(dest), "--format", "sanmill", "--state-dir", str(state)])[0] == 0
    assert dest.read_text() == out


# -- paths that are not what they seem --------------------------------------------------------


def test_export_never_writes_through_a_dangling_link(state, tmp_path):
    victim = tmp_path / "elsewhere" / "victim.txt"
    victim.parent.mkdir()
    link = tmp_path / "game.txt"
    link.symlink_to(victim)  # dangling: victim does not exist yet
    code, _, err = run(["records", "--state-dir", str(state), "export", "latest", str(link)])
    assert code == 1 and "already exists (a symbolic link)" in err
    assert not victim.exists() and link.is_symlink()


def test_export_with_force_replaces_a_link_instead_of_following_it(state, tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    link = tmp_path / "game.txt"
    link.symlink_to(victim)
    code, _, _ = run(["records", "--state-dir", str(state), "export", "latest", str(link), "--force"])
    assert code == 0
    assert victim.read_text() == "keep me"
    assert not link.is_symlink() and "[Result" in link.read_text()


def test_list_and_show_read_only_regular_files(state, tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text('[Event "the content of a file outside the records folder"]\n\nd6\n')
    records = state / "records"
    (records / "20250101-000000.txt").symlink_to(secret)
    (records / "20250102-000000.txt").mkdir()
    import os

    os.mkfifo(records / "20250103-000000.txt")
    code, out, _ = run(["records", "--state-dir", str(state), "list"])
    assert code == 0 and "outside the records folder" not in out
    assert "unreadable: it is a symbolic link; not read" in out
    assert "unreadable: it is a directory, not a file; not read" in out
    assert "unreadable: it is a named pipe (FIFO), not a file; not read" in out
    assert out.count("Player") >= 2  # the two real games are still listed
    code, out, err = run(["records", "--state-dir", str(state), "show", "20250101-000000"])
    assert code == 1 and "symbolic link" in err and "outside" not in out + err
    code, out, err = run(["records", "--state-dir", str(state), "export", "20250103"])
    assert code == 1 and "named pipe" in err
