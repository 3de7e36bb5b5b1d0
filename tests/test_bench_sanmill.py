"""The sparring bench (bench/sanmill.py) against a fake peer speaking Sanmill's protocol.

The fake (tests/fake_uci_peer.py) plays random legal plies by our rules, or misbehaves on
request, so the runner is tested without Sanmill: both colours per opening, every game's
record replays to the reported end, an illegal ply voids the game, a peer whose rules
ended the game early is re-synchronised by FEN, and the statistics behave.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest
from usage_kit import refused

from morris_pi.rules import Game

ROOT = Path(__file__).resolve().parents[1]
FAKE = str(Path(__file__).with_name("fake_uci_peer.py"))


def _load_bench():
    spec = importlib.util.spec_from_file_location("bench_sanmill", ROOT / "bench" / "sanmill.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_sanmill"] = module
    spec.loader.exec_module(module)
    return module


bench = _load_bench()


def _tasks(flags: list[str], openings: int = 2, cap: int = 80, level: int = 1):
    book = bench.openings(openings, 2, seed=5)
    ours = bench.Ours(level=level)
    return [
        bench.GameTask(
            i,
            opening,
            white,
            ours,
            [sys.executable, FAKE, "--seed", str(i), *flags],
            dict(bench.STANDARD_RULES),
            cap,
            100 + i * 2 + white,
            60.0,
        )
        for i, opening in enumerate(book)
        for white in (True, False)
    ]


def _replays(result) -> Game:
    game = Game.from_record(result.record)
    assert game.record.startswith(result.opening)
    return game


def test_games_are_paired_by_colour_and_every_record_replays_to_its_reported_end(tmp_path):
    log = tmp_path / "games.jsonl"
    results, verdict = bench.run_match(_tasks([]), jobs=1, on_result=lambda r: log.open("a").write(r.to_json() + "\n"))
    assert verdict is None
    assert len(results) == 4
    assert sorted((r.index, r.ours_white) for r in results) == [(0, False), (0, True), (1, False), (1, True)]
    for r in results:
        game = _replays(r)
        assert r.turns == len(game.history)
        if r.reason == "adjudicated-max-turns":
            assert game.outcome is None and r.turns == 80 and r.score == 0.5
        else:
            assert game.outcome.reason == r.reason and game.outcome.winner == r.winner
            ours = "white" if r.ours_white else "black"
            assert r.score == (0.5 if r.winner is None else float(r.winner == ours))
        assert len(r.our_times) >= 1 and len(r.peer_times) >= 1
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert [line["record"] for line in lines] == [r.record for r in results]
    s = bench.summary(results, bench.Ours(level=1), "fake")
    assert s["wins"] + s["draws"] + s["losses"] == s["counted"] == 4
    assert s["pairs"] == 2
    assert set(s["seconds_per_turn"]["ours"]) == {"median", "mean"}


def test_an_illegal_peer_ply_voids_the_game_and_is_reported():
    results, _ = bench.run_match(_tasks(["--illegal-at", "2"], openings=1), jobs=1)
    assert all(r.reason == "peer-illegal" and r.score is None for r in results)
    assert all("occupied" in r.detail or "remove" in r.detail for r in results)
    s = bench.summary(results, bench.Ours(level=1), "fake")
    assert s["counted"] == 0 and len(s["void"]) == 2
    assert "VOID opening 0: peer-illegal" in bench.format_summary(s)
    # the game stops at the illegal ply: what was played before it is legal
    for r in results:
        _replays(r)


@pytest.mark.parametrize("flag, answer", [("--refuse-removal", "none"), ("--claim-draw", "draw")])
def test_a_peer_whose_rules_end_the_game_early_is_given_the_position_as_a_fen(flag, answer):
    results, _ = bench.run_match(_tasks([flag], openings=2, cap=120), jobs=1)
    resynced = [r for r in results if r.resyncs]
    assert resynced, "no peer mill in four games: pick other seeds"
    for r in resynced:
        assert r.score is not None and r.reason not in ("peer-failed", "peer-illegal")
        for sync in r.resyncs:
            assert sync["answer"] == answer
            assert " r " in sync["fen"]  # a removal was pending
            Game.from_fen(sync["fen"])
        _replays(r)


def test_a_peer_that_does_not_know_our_rule_options_is_refused():
    with pytest.raises(bench.PeerError, match="does not know the option"):
        bench.Peer([sys.executable, FAKE, "--unknown-option"], {"MayFly": "true"}, 30.0)


def test_a_missing_peer_binary_is_a_clear_error(capsys):
    with pytest.raises(SystemExit) as exc:
        bench.main(["--peer", "/nonexistent/sanmill", "--openings", "1"])
    assert exc.value.code == 2
    assert "no such file" in capsys.readouterr().err


def test_the_command_line_runs_a_match_and_prints_the_summary(tmp_path, capsys):
    log = tmp_path / "log.jsonl"
    code = bench.main(
        [
            "--peer",
            f"{sys.executable} {FAKE}",
            "--level",
            "1",
            "--openings",
            "1",
            "--cap",
            "60",
            "--log",
            str(log),
            "--json",
        ]
    )
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["games"] == 2 and len(log.read_text().splitlines()) == 2
    assert out["ours"] == "level 1" and out["peer"] == "peer skill 10"
    # an interrupted or finished run's log gives the same summary
    assert bench.main(["--summarize", str(log), "--level", "1", "--json"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert {k: again[k] for k in ("wins", "draws", "losses", "score", "reasons")} == {
        k: out[k] for k in ("wins", "draws", "losses", "score", "reasons")
    }


def test_a_later_log_replaces_the_openings_it_replays(tmp_path, capsys):
    R = bench.GameResult
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    first.write_text(
        "".join(
            r.to_json() + "\n"
            for r in (
                R(0, "d6 a1", True, 1.0, "white", "blocked", 30, "d6 a1"),
                R(0, "d6 a1", False, 0.5, None, "n-move-rule", 9, ""),
                R(1, "g7 a1", True, None, None, "peer-failed", 10, ""),
                R(1, "g7 a1", False, 0.0, "white", "blocked", 33, ""),
            )
        )
    )
    second.write_text(
        "".join(
            r.to_json() + "\n"
            for r in (
                R(1, "g7 a1", True, 0.5, None, "threefold-repetition", 40, ""),
                R(1, "g7 a1", False, 0.0, "white", "blocked", 35, ""),
            )
        )
    )
    assert bench.main(["--summarize", str(first), str(second), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["games"], out["counted"], out["pairs"], out["void"]) == (4, 4, 2, [])
    assert (out["wins"], out["draws"], out["losses"]) == (1, 2, 1)


def test_summarizing_something_that_is_not_a_log_is_a_clear_error(tmp_path, capsys):
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{not json\n")
    with pytest.raises(SystemExit) as exc:
        bench.main(["--summarize", str(bad)])
    assert exc.value.code == 2 and "not a log of this bench" in capsys.readouterr().err


def test_pairs_with_a_void_game_drop_out_of_the_pentanomial_count():
    R = bench.GameResult
    results = [
        R(0, "", True, 1.0, "white", "blocked", 30, ""),
        R(0, "", False, 0.5, None, "n-move-rule", 90, ""),
        R(1, "", True, None, None, "peer-illegal", 10, ""),
        R(1, "", False, 0.0, "white", "blocked", 33, ""),
    ]
    assert bench.pair_scores(results) == [0.75]
    s = bench.summary(results, bench.Ours(), "x")
    assert (s["wins"], s["draws"], s["losses"], s["counted"]) == (1, 1, 1, 3)
    assert s["blocked_losses_before_turn_40"] == {"count": 1, "turns": [33]}


def test_sprt_accepts_the_hypothesis_the_results_support():
    low, high = bench.sprt_bounds(0.05, 0.05)
    strong = [1.0, 0.75, 1.0, 0.75, 1.0, 0.5] * 10
    weak = [0.0, 0.25, 0.0, 0.25, 0.5, 0.0] * 10
    assert bench.sprt_llr(strong, 0, 50) > high
    assert bench.sprt_llr(weak, 0, 50) < low
    results = []
    for i in range(40):  # every pair won: H1 long before the 40 pairs are played
        results += [
            bench.GameResult(i, "", True, 1.0, "white", "blocked", 30, ""),
            bench.GameResult(i, "", False, 0.5, None, "n-move-rule", 90, ""),
        ]
    mean, half = bench.score_interval([r.score for r in results])
    assert mean == 0.75 and 0 < half < 0.25


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
def test_bad_search_options_are_named(flags, message, capsys):
    # --weights and --placing-extension measure changes at fixed nodes; a level keeps the engine's own settings
    nodes = [] if "apply to" in message else ["--nodes", "1000"]
    with pytest.raises(SystemExit) as exc:
        bench.main(["--peer", f"{sys.executable} {FAKE}", "--openings", "1", *nodes, *flags])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert refused(err, *message) if isinstance(message, tuple) else message in err


def test_a_node_budget_plays_with_the_weights_given(tmp_path, capsys):
    weights = '{"moving": {"cramped": -30}}'
    search = ["--nodes", "300", "--weights", weights]
    code = bench.main(["--peer", f"{sys.executable} {FAKE}", *search, "--openings", "1", "--cap", "40", "--json"])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["games"] == 2 and out["ours"] == f"300 nodes/turn, weights {weights}"
    player = bench.OurPlayer(bench.Ours(level=None, nodes=300, weights=weights), seed=0)
    assert player.searcher.ev.weights.moving.cramped == -30
    assert player.searcher.placing_extension == 0  # the engine's default


def test_a_node_budget_plays_with_the_placing_extension_given(capsys):
    search = ["--nodes", "300", "--placing-extension", "2", "--placing-nodes", "700"]
    code = bench.main(["--peer", f"{sys.executable} {FAKE}", *search, "--openings", "1", "--cap", "40", "--json"])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["ours"] == "300 nodes/turn, placing extension 2, 700 nodes while placing"
    player = bench.OurPlayer(bench.Ours(level=None, nodes=300, placing_extension=2, placing_nodes=700), seed=0)
    assert player.searcher.placing_extension == 2
    assert (player.limits.nodes, player.placing_limits.nodes) == (300, 700)
