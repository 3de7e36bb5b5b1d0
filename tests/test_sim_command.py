"""``morris-pi sim`` settings: command line over the config file, and games of other profiles."""

from __future__ import annotations

import argparse
import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pytest

pytest.importorskip("pygame")

from morris_pi.cli import main
from morris_pi.core.ports import ManualClock
from morris_pi.sim.app import SimApp
from morris_pi.sim.backends import SimBoard
from morris_pi.sim.drawing import LINE
from morris_pi.sim.play import GameSession, SimSettings, settings_from


def args(**given) -> argparse.Namespace:
    base = dict(config=None, mode=None, human=None, level=None, profile=None, seed=None, menu=None, state_dir=None)
    return argparse.Namespace(**{**base, **given})


def test_the_command_line_overrides_the_config_files_game_and_palette(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text(
        '[game]\nmode = "two-player"\nprofile = "club"\nlevel = 7\n[palette.legal-target]\ncolour = "#00ff00"\n'
    )
    settings = settings_from(args(config=str(config)))
    assert (settings.mode, settings.profile, settings.level, settings.computer) == ("two-player", "club", 7, None)
    assert settings.palette["legal-target"].colour == (0, 255, 0)
    settings = settings_from(args(config=str(config), mode="computer", human="black", seed=4))
    assert settings.header() == {"profile": "club", "white": "computer", "black": "human", "level": 7, "seed": 4}


def test_the_menu_opens_when_asked_or_when_the_config_wants_it_and_no_game_was_given(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text("[game]\nlevel = 4\n")  # [game] menu defaults to true, as on the board
    quiet = tmp_path / "quiet.toml"
    quiet.write_text("[game]\nmenu = false\n")
    assert settings_from(args()).menu is False  # no config: play at once
    assert settings_from(args(config=str(config))).menu is True
    assert settings_from(args(config=str(config), profile="club")).menu is False  # the game was chosen
    assert settings_from(args(config=str(config), seed=3)).menu is True  # a seed chooses no game
    assert settings_from(args(config=str(config), menu=False)).menu is False
    assert settings_from(args(config=str(quiet))).menu is False
    assert settings_from(args(mode="two-player", menu=True)).menu is True
    assert settings_from(args(state_dir=str(tmp_path / "s"))).state_dir == tmp_path / "s"
    assert settings_from(args()).state_dir is None  # no saves unless asked


def test_a_bad_config_is_refused_with_its_file_and_line(tmp_path, capsys):
    config = tmp_path / "bad.toml"
    config.write_text('[game]\nmode = "robot"\n')
    assert main(["sim", "--config", str(config)]) == 2
    assert f"{config}:2: game.mode" in capsys.readouterr().err


def test_bad_settings_name_what_is_wrong():
    with pytest.raises(ValueError, match="human must be 'white' or 'black', got 'red'"):
        SimSettings(human="red")
    with pytest.raises(ValueError, match="unknown rule profile 'chess'"):
        SimSettings(profile="chess")
    with pytest.raises(SystemExit):
        main(["sim", "--level", "11"])


def test_twelve_mens_morris_has_twelve_men_a_side_and_diagonal_lines():
    board = SimBoard(clock=ManualClock())
    session = GameSession(board, SimSettings(mode="two-player", profile="twelve"))
    app = SimApp(board, session)
    try:
        app.update()
        assert board.hand.in_hand == {"white": 12, "black": 12}
        (x0, y0), (x1, y1) = app.point_pos("a7"), app.point_pos("b6")
        middle = (round((x0 + x1) / 2), round((y0 + y1) / 2))
        assert tuple(app.screen.get_at(middle))[:3] == LINE
        app.drag(app.tray_pos("hand", "white"), app.point_pos("b6"))
        for _ in range(10):
            board.clock.advance(0.1)
            app.update()
        assert session.snapshot().record == "b6"
    finally:
        session.close()
        app.close()


def _sim_without_a_screen(tmp_path, **env):
    """``morris-pi sim`` run as from a fresh shell, with what the environment says about screens."""
    import subprocess
    import sys

    clean = {k: v for k, v in os.environ.items() if k not in ("SDL_VIDEODRIVER", "DISPLAY", "WAYLAND_DISPLAY")}
    return subprocess.run(
        [sys.executable, "-m", "morris_pi.cli", "sim", *env.pop("argv", [])],
        env={**clean, **env},
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_without_a_display_sim_says_so_in_one_line_and_how_to_run_headless(tmp_path):
    done = _sim_without_a_screen(tmp_path)
    assert done.returncode == 3 and done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("morris-pi sim: no display to open the window on (DISPLAY and WAYLAND_DISPLAY")
    assert "SDL_VIDEODRIVER=dummy" in lines[0] and "docs/simulator.md" in lines[0]


def test_a_display_that_does_not_answer_is_no_display_either(tmp_path):
    # SDL falls back to its offscreen driver when the X server is not there; that window nobody sees
    done = _sim_without_a_screen(tmp_path, DISPLAY=":4711")
    assert done.returncode == 3
    assert "SDL could not reach DISPLAY=:4711 and fell back to its offscreen driver" in done.stderr
    assert "Traceback" not in done.stderr


def test_opening_the_window_without_a_display_is_refused_before_sdl_starts(monkeypatch):
    from morris_pi.sim.display import NoDisplayError

    for name in ("SDL_VIDEODRIVER", "DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr("sys.platform", "linux")
    with pytest.raises(NoDisplayError, match="no display"):
        SimApp(SimBoard(clock=ManualClock()))


def test_a_named_driver_that_sdl_cannot_open_is_one_line_too(monkeypatch):
    from morris_pi.sim.display import NoDisplayError

    monkeypatch.setenv("SDL_VIDEODRIVER", "nosuchdriver")
    with pytest.raises(NoDisplayError) as refused:
        SimApp(SimBoard(clock=ManualClock()))
    assert refused.value.problem == "cannot open the window (nosuchdriver not available)"
    assert "\n" not in str(refused.value)
