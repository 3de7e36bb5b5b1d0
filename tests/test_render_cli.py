"""``morris-pi render`` and ``morris-pi records show --svg``: the pictures a user gets, and the errors."""

from __future__ import annotations

import os
import struct
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest
from render_kit import NS, by_id, classes, men, parse, real_games
from usage_kit import refused

import morris_pi.commands.render as render_cmd
from morris_pi.cli import main
from morris_pi.core.storage import Storage
from morris_pi.guidance import DEFAULT_PALETTE
from morris_pi.render import led_paint
from morris_pi.rules import Game

MILL = "********/OO*****O/*****@@* w p r 3 6 2 7 1 0 0 0 0 0 0 0 3"  # after d6 a1 f6 a4 b6
ROOT = Path(__file__).resolve().parents[1]


def run(capsys, *args):
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def leds(root) -> dict[str, str]:
    return {
        g.get("data-point"): g.get("data-role")
        for g in root.iter("{http://www.w3.org/2000/svg}g")
        if "led" in classes(g)
    }


def lit_status(root) -> dict[str, str]:
    return {
        g.get("id"): g.get("data-role")
        for g in root.iter("{http://www.w3.org/2000/svg}g")
        if "status" in classes(g) and g.get("data-role")
    }


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_render_draws_the_board_after_a_real_game_to_stdout(capsys):
    record = real_games()["standard"]
    code, out, err = run(capsys, "render", *record.split())
    assert code == 0 and err == ""
    root = parse(out)
    game = Game.from_record(record)
    assert men(root) == game.board
    assert root.find(".//svg:g[@class='last-turn']", NS).get("data-turn") == "e4-f4xg7"
    assert (root.get("width"), root.get("height")) == ("400", "400")


def test_leds_show_the_removable_men_while_a_removal_is_pending(capsys):
    code, out, _ = run(capsys, "render", "--leds", "d6", "a1", "f6", "a4", "b6")
    assert code == 0
    root = parse(out)
    assert leds(root) == {"a1": "removable", "a4": "removable", "b6": "mill", "d6": "mill", "f6": "mill"}
    ring = by_id(root, "led-a1").findall("svg:circle", NS)[-1]
    assert ring.get("stroke") == led_paint(DEFAULT_PALETTE["removable"].colour)[0]
    assert lit_status(root) == {"status-white-to-move": "to-move"}


def test_leds_show_the_last_target_and_the_side_to_move(capsys):
    _, out, _ = run(capsys, "render", "--leds", "d6", "a1", "f6", "a4", "b6xa1")
    root = parse(out)
    assert leds(root) == {"b6": "last-move"}
    assert lit_status(root) == {"status-black-to-move": "to-move"}


def test_leds_at_the_end_light_the_winners_men(capsys):
    record = real_games()["twelve"]
    _, out, _ = run(capsys, "render", "--profile", "twelve", "--leds", *record.split())
    root = parse(out)
    game = Game.from_record(record, "twelve")
    assert leds(root) == {p: "winner" for p, side in game.board.items() if side == "black"}
    assert len([x for x in root.iterfind(".//svg:line", NS) if "diagonal" in classes(x)]) == 8


def test_a_fen_alone_shows_its_men_and_no_guessed_last_turn(capsys):
    code, out, _ = run(capsys, "render", "--leds", "--fen", MILL)
    assert code == 0
    root = parse(out)
    assert men(root) == Game.from_record("d6 a1 f6 a4 b6").board
    assert root.find(".//svg:g[@class='last-turn']", NS) is None
    assert {p for p, role in leds(root).items() if role == "removable"} == {"a1", "a4"}
    # the removal completes the FEN's mill: the guessed step is still not drawn
    _, out, _ = run(capsys, "render", "--fen", MILL, "xa4")
    assert parse(out).find(".//svg:g[@class='last-turn']", NS) is None
    _, out, _ = run(capsys, "render", "--fen", MILL, "xa4", "d7")
    assert parse(out).find(".//svg:g[@class='last-turn']", NS).get("data-turn") == "d7"


def test_flip_and_no_coordinates(capsys):
    _, out, _ = run(capsys, "render", "--flip", "--no-coordinates", "--size", "250", "d6")
    root = parse(out)
    assert "flipped" in classes(root) and root.get("width") == "250"
    assert root.find(".//svg:g[@class='coords']", NS) is None


@pytest.mark.parametrize(
    "args, words",
    [
        (["--fen", "not a fen"], "morris-pi render: FEN"),
        (["--fen", MILL.replace(" w ", " v ")], "field 2 (side to move)"),
        (["d6", "d6"], "morris-pi render: turn 2: d6: d6 is occupied"),
        (["d6", "a1-a9"], "not a turn"),
        (["--fen", MILL, "xd6"], "after the FEN"),
    ],
)
def test_bad_fen_or_record_is_a_message_and_exit_2(capsys, args, words):
    code, out, err = run(capsys, "render", *args)
    assert code == 2 and out == ""
    assert words in err and "Traceback" not in err


@pytest.mark.parametrize(
    "args, words",
    [
        (["--profile", "thirteen"], ("--profile", "thirteen")),  # argparse's own words
        (["--size", "0"], "0 pixels is out of range"),
        (["--size", "big"], "'big' is not a whole number of pixels"),
        (["--format", "gif"], ("--format", "gif")),
    ],
)
def test_bad_options_are_usage_errors(capsys, args, words):
    with pytest.raises(SystemExit) as info:
        main(["render", *args])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert refused(err, *words) if isinstance(words, tuple) else words in err


def test_errors_from_the_real_command_line_carry_no_traceback(tmp_path):
    for args in (["--fen", "x"], ["--profile", "thirteen"], ["d6", "d6"]):
        done = subprocess.run(
            [sys.executable, "-m", "morris_pi.cli", "render", *args],
            capture_output=True,
            text=True,
            cwd=tmp_path,
            check=False,
        )
        assert done.returncode == 2 and done.stdout == ""
        assert "Traceback" not in done.stderr and done.stderr.strip()


def test_out_writes_a_file_and_refuses_to_replace_it_without_force(capsys, tmp_path):
    path = tmp_path / "board.svg"
    code, out, err = run(capsys, "render", "-o", str(path), "d6")
    assert code == 0 and out == "" and f"wrote {path}" in err
    first = path.read_text()
    assert men(parse(first)) == {"d6": "white"}
    code, _, err = run(capsys, "render", "-o", str(path), "d6", "a1")
    assert code == 1 and "already exists; use --force" in err
    assert path.read_text() == first
    assert run(capsys, "render", "-o", str(path), "--force", "d6", "a1")[0] == 0
    assert men(parse(path.read_text())) == {"d6": "white", "a1": "black"}
    assert sorted(os.listdir(tmp_path)) == ["board.svg"]  # no temporary files left


def test_a_failed_write_leaves_the_old_file_whole(capsys, tmp_path, monkeypatch):
    path = tmp_path / "board.svg"
    path.write_text("old picture")

    def full_disk(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full_disk)
    code, _, err = run(capsys, "render", "-o", str(path), "--force", "d6")
    assert code == 1 and "No space left on device" in err and "Traceback" not in err
    assert path.read_text() == "old picture"
    assert sorted(os.listdir(tmp_path)) == ["board.svg"]


def test_out_into_a_missing_directory_is_a_clear_error(capsys, tmp_path):
    code, _, err = run(capsys, "render", "-o", str(tmp_path / "nowhere" / "b.svg"), "d6")
    assert code == 1 and err.startswith("morris-pi render: error:") and "nowhere" in err


def _have_png() -> bool:
    try:
        import cairosvg  # noqa: F401
    except (ImportError, OSError):
        return False
    return True


@pytest.mark.skipif(not _have_png(), reason="the png extra (CairoSVG and libcairo2) is not installed")
def test_png_by_file_name_or_format(capsys, tmp_path):
    path = tmp_path / "board.png"
    assert run(capsys, "render", "--leds", "--size", "300", "-o", str(path), "d6", "a1", "f6")[0] == 0
    assert png_size(path.read_bytes()) == (300, 300)
    other = tmp_path / "picture"
    assert run(capsys, "render", "--format", "png", "-o", str(other), "d6")[0] == 0
    assert png_size(other.read_bytes()) == (400, 400)


@pytest.mark.skipif(not _have_png(), reason="the png extra (CairoSVG and libcairo2) is not installed")
def test_png_to_stdout(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "morris_pi.cli", "render", "--format", "png", "--size", "64", "d6"],
        capture_output=True,
        cwd=tmp_path,
        check=False,
    )
    assert done.returncode == 0 and png_size(done.stdout) == (64, 64)


def test_png_without_cairosvg_says_how_to_get_it(capsys, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "cairosvg", None)  # import cairosvg now raises ImportError
    code, _out, err = run(capsys, "render", "-o", str(tmp_path / "b.png"), "d6")
    assert code == 1 and "pip install 'morris-pi[png]'" in err
    assert not (tmp_path / "b.png").exists()


def test_the_docs_example_is_what_the_command_draws(capsys):
    """docs/board-example.svg is regenerated by the command in the README; it must not drift."""
    readme = (ROOT / "README.md").read_text()
    line = next(x for x in readme.splitlines() if x.startswith("morris-pi render ") and "board-example.svg" in x)
    args = line.split()[1:]
    out_at = args.index("--out")
    args[out_at : out_at + 2] = []
    code, out, _ = run(capsys, *args)
    assert code == 0 and out == (ROOT / "docs" / "board-example.svg").read_text()


# -- records show --svg ---------------------------------------------------------------


@pytest.fixture
def records(tmp_path):
    clock = iter(datetime(2025, 6, day, 20, 15, tzinfo=UTC) for day in (1, 2, 3))
    store = Storage(tmp_path / "state", clock=lambda: next(clock))
    store.finish(Game.from_record(real_games()["standard"]), {"mode": "two-player"})
    store.finish(Game.from_record(real_games()["twelve"], "twelve"), {"mode": "two-player"})
    return tmp_path / "state"


def test_records_show_svg_writes_one_picture_per_turn(capsys, records, tmp_path):
    pics = tmp_path / "pics"
    code, out, err = run(capsys, "records", "show", "20250601", "--state-dir", str(records), "--svg", str(pics))
    # the record's text as records show prints it (its column widths follow the longest turn)
    assert code == 0 and ["1.", "c5", "f2"] in [line.split() for line in out.splitlines()] and f"to {pics}" in err
    turns = real_games()["standard"].split()
    names = sorted(os.listdir(pics))
    assert names[:3] == ["000-start.svg", "001-c5.svg", "002-f2.svg"] and len(names) == len(turns) + 1
    assert names[-1] == f"{len(turns):03d}-e4-f4xg7.svg"
    for number, name in enumerate(names):
        root = parse((pics / name).read_text())
        assert men(root) == Game.from_record(turns[:number]).board, name
        last = root.find(".//svg:g[@class='last-turn']", NS)
        assert (last is None) if number == 0 else last.get("data-turn") == turns[number - 1]
    final = parse((pics / names[-1]).read_text())
    assert final.find(".//svg:g[@class='removed']", NS) is not None


def test_records_show_svg_uses_the_records_profile(capsys, records, tmp_path):
    pics = tmp_path / "twelve"
    assert run(capsys, "records", "show", "latest", "--state-dir", str(records), "--svg", str(pics))[0] == 0
    root = parse((pics / "000-start.svg").read_text())
    assert "profile-twelve" in classes(root)


def test_records_show_svg_refuses_to_replace_pictures_without_force(capsys, records, tmp_path):
    pics = tmp_path / "pics"
    pics.mkdir()
    (pics / "005-d5.svg").write_text("mine")
    code, _, err = run(capsys, "records", "show", "20250601", "--state-dir", str(records), "--svg", str(pics))
    assert code == 1 and "005-d5.svg already exists; use --force" in err
    assert os.listdir(pics) == ["005-d5.svg"]  # nothing written at all
    code, _, _ = run(capsys, "records", "show", "20250601", "--state-dir", str(records), "--svg", str(pics), "--force")
    assert code == 0 and (pics / "005-d5.svg").read_text().startswith("<svg")


def test_records_show_svg_of_a_record_that_does_not_replay(capsys, records, tmp_path):
    path = records / "records" / "20250601-201500.txt"
    path.write_text(path.read_text().replace("c5 f2 d7", "c5 c5 d7"))
    code, _out, err = run(
        capsys, "records", "show", "20250601", "--state-dir", str(records), "--svg", str(tmp_path / "pics")
    )
    assert code == 1 and "record 20250601-201500 cannot be replayed (standard): turn 2" in err
    assert "Traceback" not in err and not (tmp_path / "pics").exists()


def test_out_naming_a_directory_is_refused(capsys, tmp_path):
    code, _, err = run(capsys, "render", "-o", str(tmp_path), "--force", "d6")
    assert code == 1 and "is a directory; give a file name" in err


def test_turn_pictures_of_a_game_set_up_from_a_fen_start_at_the_fen():
    game = Game.from_fen(MILL)
    game.play("xa4")
    game.play("d7")
    pictures = render_cmd.turn_pictures(game)
    assert [name for name, _ in pictures][1:] == ["001-b6xa4.svg", "002-d7.svg"]
    assert men(parse(pictures[0][1])) == {"d6": "white", "f6": "white", "a1": "black", "a4": "black"}
    assert men(parse(pictures[-1][1])) == game.board
