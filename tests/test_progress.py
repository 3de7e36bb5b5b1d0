"""Progress of long commands: on stderr only, never mixed into the result on stdout."""

from __future__ import annotations

import io
import json

from morris_pi import cli
from morris_pi.commands.progress import Progress


def test_perft_with_progress_keeps_stdout_to_the_result(capsys):
    assert cli.main(["perft", "--progress", "3"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("perft(3) = 12144  [") and out.count("\n") == 1
    assert err.startswith("perft(3): done: 24 first turns, 12,144 leaves in ")


def test_no_progress_into_a_pipe_unless_asked(capsys):
    assert cli.main(["perft", "3"]) == 0
    assert cli.main(["analyze", "--depth", "2", "d6", "a1"]) == 0
    _out, err = capsys.readouterr()
    assert err == ""
    assert cli.main(["perft", "--no-progress", "3"]) == 0
    assert capsys.readouterr().err == ""


def test_analyze_with_progress_prints_one_json_line_and_the_progress_on_stderr(capsys):
    assert cli.main(["analyze", "--progress", "--depth", "3", "d6", "a1", "f6", "a4"]) == 0
    out, err = capsys.readouterr()
    result = json.loads(out)
    assert result["depth"] == 3 and out.count("\n") == 1
    assert err.startswith(f"analyze: done: depth 3, {result['nodes']:,} nodes in ")


def test_on_a_terminal_the_line_is_rewritten_in_place_and_erased_at_the_end():
    now = [0.0]
    err = io.StringIO()
    progress = Progress("perft(6)", err, clock=lambda: now[0], tty=True)
    assert progress.enabled  # a terminal: on by default
    for second in (0.5, 1.0, 1.1, 1.5):
        now[0] = second
        progress.update(f"at {second}")
    progress.finish("24 first turns")
    # nothing in the first second, then at most four lines a second, each over the last; erased at the end
    assert err.getvalue() == "\r\x1b[Kperft(6): at 1.0 ...\r\x1b[Kperft(6): at 1.5 ...\r\x1b[K"


def test_a_quick_run_shows_nothing():
    now = [0.0]
    err = io.StringIO()
    progress = Progress("perft(4)", err, clock=lambda: now[0], tty=True)
    now[0] = 0.7
    progress.update("almost done")
    progress.finish("24 first turns")
    assert err.getvalue() == ""
