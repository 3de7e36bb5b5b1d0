"""The sparring bench (bench/sanmill.py), run as a command against a fake peer speaking Sanmill's protocol.

The fake (tests/fake_uci_peer.py) plays random legal plies by our rules, or misbehaves on
request, so the runner is tested without Sanmill: both colours per opening, every game's
record in the log replays to the reported end, an illegal ply voids the game, a peer whose
rules ended the game early is re-synchronised by FEN, and the statistics of a log behave.
"""

from __future__ import annotations

import json
import math
import shlex
import statistics
import sys
from pathlib import Path
from typing import Any

import pytest
from bench_kit import bench
from usage_kit import refused

from morris_pi.engine.nodes import PLACING_EXTENSION
from morris_pi.rules import Game

FAKE = Path(__file__).with_name("fake_uci_peer.py")


def peer(*flags: str) -> str:
    """The fake peer's command, as ``--peer`` takes it."""
    return shlex.join([sys.executable, str(FAKE), *flags])


def sparring(tmp_path: Path, *args: object, flags: tuple[str, ...] = ()) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A match against the fake peer (with ``flags``): the summary printed as JSON, and the games logged."""
    log = tmp_path / "games.jsonl"
    done = bench("sanmill", "--peer", peer(*flags), "--log", log, "--json", *args)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout), [json.loads(line) for line in log.read_text().splitlines()]


def summarize(*args: object) -> dict[str, Any]:
    done = bench("sanmill", "--summarize", *args, "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def logged(
    index: int, ours_white: bool, score: float | None, winner: str | None, reason: str, turns: int, opening: str = ""
) -> str:
    """One game's line as the bench logs it."""
    game = {
        "index": index,
        "opening": opening,
        "ours_white": ours_white,
        "score": score,
        "winner": winner,
        "reason": reason,
        "turns": turns,
        "record": opening,
    }
    return json.dumps(game) + "\n"


#: The two games of a pair with the given pair score (ours: white first, then black).
GAMES_OF_PAIR = {1.0: (1.0, 1.0), 0.75: (1.0, 0.5), 0.5: (0.5, 0.5), 0.25: (0.5, 0.0), 0.0: (0.0, 0.0)}


def log_of_pairs(path: Path, pair_scores: list[float]) -> Path:
    lines = []
    for i, pair in enumerate(pair_scores):
        for ours_white, score in zip((True, False), GAMES_OF_PAIR[pair], strict=True):
            ours, theirs = ("white", "black") if ours_white else ("black", "white")
            winner = None if score == 0.5 else ours if score == 1.0 else theirs
            lines.append(
                logged(i, ours_white, score, winner, "threefold-repetition" if winner is None else "blocked", 50)
            )
    path.write_text("".join(lines))
    return path


def _replays(game: dict[str, Any]) -> Game:
    replayed = Game.from_record(game["record"])
    assert replayed.record.startswith(game["opening"])
    return replayed


def test_games_are_paired_by_colour_and_every_record_replays_to_its_reported_end(tmp_path):
    s, games = sparring(tmp_path, "--level", "1", "--openings", "2", "--seed", "5", "--cap", "80")
    assert "sprt" not in s
    assert sorted((g["index"], g["ours_white"]) for g in games) == [(0, False), (0, True), (1, False), (1, True)]
    for g in games:
        game = _replays(g)
        assert g["turns"] == len(game.history)
        if g["reason"] == "adjudicated-max-turns":
            assert game.outcome is None and g["turns"] == 80 and g["score"] == 0.5
        else:
            assert game.outcome.reason == g["reason"] and game.outcome.winner == g["winner"]
            ours = "white" if g["ours_white"] else "black"
            assert g["score"] == (0.5 if g["winner"] is None else float(g["winner"] == ours))
        assert len(g["our_times"]) >= 1 and len(g["peer_times"]) >= 1
    scores = [g["score"] for g in games]
    assert s["games"] == 4
    assert (s["wins"], s["draws"], s["losses"]) == (scores.count(1.0), scores.count(0.5), scores.count(0.0))
    assert s["wins"] + s["draws"] + s["losses"] == s["counted"] == 4
    assert s["pairs"] == 2
    assert set(s["seconds_per_turn"]["ours"]) == {"median", "mean"}


def test_an_illegal_peer_ply_voids_the_game_and_is_reported(tmp_path):
    log = tmp_path / "games.jsonl"
    done = bench("sanmill", "--peer", peer("--illegal-at", "2"), "--level", "1", "--openings", "1", "--log", log)
    assert done.returncode == 0, done.stderr
    games = [json.loads(line) for line in log.read_text().splitlines()]
    assert len(games) == 2
    assert all(g["reason"] == "peer-illegal" and g["score"] is None for g in games)
    assert all("occupied" in g["detail"] or "remove" in g["detail"] for g in games)
    assert "0 games counted of 2" in done.stdout
    assert done.stdout.count("VOID opening 0: peer-illegal") == 2
    # the game stops at the illegal ply: what was played before it is legal
    for g in games:
        _replays(g)


@pytest.mark.parametrize("flag, answer", [("--refuse-removal", "none"), ("--claim-draw", "draw")])
def test_a_peer_whose_rules_end_the_game_early_is_given_the_position_as_a_fen(tmp_path, flag, answer):
    _, games = sparring(tmp_path, "--level", "1", "--openings", "2", "--seed", "5", "--cap", "120", flags=(flag,))
    resynced = [g for g in games if g["resyncs"]]
    assert resynced, "no peer mill in four games: pick other seeds"
    for g in resynced:
        assert g["score"] is not None and g["reason"] not in ("peer-failed", "peer-illegal")
        for sync in g["resyncs"]:
            assert sync["answer"] == answer
            assert " r " in sync["fen"]  # a removal was pending
            Game.from_fen(sync["fen"])
        _replays(g)


def test_a_peer_that_does_not_know_our_rule_options_is_refused(tmp_path):
    s, games = sparring(tmp_path, "--level", "1", "--openings", "1", flags=("--unknown-option",))
    assert s["counted"] == 0 and len(games) == 2
    for g in games:
        assert g["reason"] == "peer-failed" and g["score"] is None
        assert "does not know the option" in g["detail"] and "MayFly" in g["detail"]


def test_a_missing_peer_binary_is_a_clear_error():
    done = bench("sanmill", "--peer", "/nonexistent/sanmill", "--openings", "1")
    assert done.returncode == 2
    assert "no such file" in done.stderr and "Traceback" not in done.stderr


def test_the_command_line_runs_a_match_and_prints_the_summary(tmp_path):
    out, games = sparring(tmp_path, "--level", "1", "--openings", "1", "--cap", "60")
    assert out["games"] == 2 and len(games) == 2
    assert out["ours"] == "level 1" and out["peer"] == "peer skill 10"
    # an interrupted or finished run's log gives the same summary
    again = summarize(tmp_path / "games.jsonl", "--level", "1")
    assert {k: again[k] for k in ("wins", "draws", "losses", "score", "reasons")} == {
        k: out[k] for k in ("wins", "draws", "losses", "score", "reasons")
    }


def test_a_later_log_replaces_the_openings_it_replays(tmp_path):
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    first.write_text(
        logged(0, True, 1.0, "white", "blocked", 30, "d6 a1")
        + logged(0, False, 0.5, None, "n-move-rule", 9, "d6 a1")
        + logged(1, True, None, None, "peer-failed", 10, "g7 a1")
        + logged(1, False, 0.0, "white", "blocked", 33, "g7 a1")
    )
    second.write_text(
        logged(1, True, 0.5, None, "threefold-repetition", 40, "g7 a1")
        + logged(1, False, 0.0, "white", "blocked", 35, "g7 a1")
    )
    out = summarize(first, second)
    assert (out["games"], out["counted"], out["pairs"], out["void"]) == (4, 4, 2, [])
    assert (out["wins"], out["draws"], out["losses"]) == (1, 2, 1)


def test_summarizing_something_that_is_not_a_log_is_a_clear_error(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{not json\n")
    done = bench("sanmill", "--summarize", bad)
    assert done.returncode == 2 and "not a log of this bench" in done.stderr


def test_pairs_with_a_void_game_drop_out_of_the_pentanomial_count(tmp_path):
    log = tmp_path / "void.jsonl"
    log.write_text(
        logged(0, True, 1.0, "white", "blocked", 30)
        + logged(0, False, 0.5, None, "n-move-rule", 90)
        + logged(1, True, None, None, "peer-illegal", 10)
        + logged(1, False, 0.0, "white", "blocked", 33)
        + logged(2, True, 0.5, None, "threefold-repetition", 50)
        + logged(2, False, 0.5, None, "threefold-repetition", 52)
    )
    s = summarize(log)
    assert (s["wins"], s["draws"], s["losses"], s["counted"]) == (1, 3, 1, 5)
    assert s["void"] == [{"opening": 1, "reason": "peer-illegal", "detail": ""}]
    # the pairs are openings 0 (0.75) and 2 (0.5); opening 1's game that counted is not a pair
    assert s["pairs"] == 2
    assert s["ci95_pentanomial"] == round(1.96 * statistics.stdev([0.75, 0.5]) / math.sqrt(2), 4)
    assert s["blocked_losses_before_turn_40"] == {"count": 1, "turns": [33]}


def test_sprt_accepts_the_hypothesis_the_results_support(tmp_path):
    strong = log_of_pairs(tmp_path / "strong.jsonl", [1.0, 0.75, 1.0, 0.75, 1.0, 0.5] * 10)
    weak = log_of_pairs(tmp_path / "weak.jsonl", [0.0, 0.25, 0.0, 0.25, 0.5, 0.0] * 10)
    few = log_of_pairs(tmp_path / "few.jsonl", [0.5, 0.75])
    assert summarize(strong, "--sprt", "0,50")["sprt"].startswith("H1 accepted (Elo >= 50)")
    assert summarize(weak, "--sprt", "0,50")["sprt"].startswith("H0 accepted (Elo <= 0)")
    assert summarize(few, "--sprt", "0,50")["sprt"].startswith("no verdict yet")
    # every pair won: the score of the games is 0.75, its interval well inside the possible
    out = summarize(log_of_pairs(tmp_path / "won.jsonl", [0.75] * 40))
    assert out["score"] == 0.75 and 0 < out["ci95_trinomial"] < 0.25 and "sprt" not in out


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--weights", '{"moving": {"crampd": -30}}'], "unknown evaluation term 'crampd'"),
        (["--weights", "{not json"], "--weights '{not json'"),
        (["--weights", '{"moving": {"cramped": -30}}'], "apply to --nodes or --time"),
        (["--placing-extension", "2"], "apply to --nodes or --time"),
        (["--placing-extension", "7"], ("--placing-extension", "7")),  # argparse's own words
        (["--placing-nodes", "0"], "--placing-nodes applies to --nodes and must be at least 1"),
    ],
)
def test_bad_search_options_are_named(flags, message):
    # --weights and --placing-extension measure changes at fixed nodes; a level keeps the engine's own settings
    nodes = [] if "apply to" in message else ["--nodes", "1000"]
    done = bench("sanmill", "--peer", peer(), "--openings", "1", *nodes, *flags)
    assert done.returncode == 2
    err = done.stderr
    assert refused(err, *message) if isinstance(message, tuple) else message in err


def test_a_node_budget_plays_with_the_weights_given(tmp_path):
    weights = '{"moving": {"cramped": -30}}'
    out, games = sparring(tmp_path, "--nodes", "300", "--weights", weights, "--openings", "1", "--cap", "40")
    assert out["games"] == 2 and out["ours"] == f"300 nodes/turn, weights {weights}"
    for g in games:  # what the search played with, read back from it
        assert g["our_settings"]["weights"] == {"moving": {"cramped": -30}}
        assert g["our_settings"]["placing_extension"] == PLACING_EXTENSION  # the engine's default
        assert g["our_settings"]["nodes"] == g["our_settings"]["placing_nodes"] == 300


def test_a_node_budget_plays_with_the_placing_extension_given(tmp_path):
    search = ["--nodes", "300", "--placing-extension", "2", "--placing-nodes", "700"]
    out, games = sparring(tmp_path, *search, "--openings", "1", "--cap", "40")
    assert out["ours"] == "300 nodes/turn, placing extension 2, 700 nodes while placing"
    for g in games:
        settings = g["our_settings"]
        assert settings["placing_extension"] == 2 and settings["weights"] == {}
        assert (settings["nodes"], settings["placing_nodes"]) == (300, 700)
