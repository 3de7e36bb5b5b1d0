"""Sparring bench: our engine against an external UCI-like Morris engine (Sanmill's console engine).

    python bench/sanmill.py --peer /work/sanmill-build/src/sanmill --level 10 --skill 10 --openings 10 --jobs 2

Every opening (``--opening-turns`` random placements, default 2, closing no
mill) is played twice, once with each colour: a pair. Our side is a level
(seeded, node budgets only: the same turns on any machine), a fixed node
budget (``--nodes``) or a time per turn (``--time``). The peer gets our
standard rules through its options, its skill level, developer mode and move
time, and is asked for one ply at a time with ``position startpos moves ...``
and ``go``; a mill-closing step is followed by a second ``go`` for its removal.

Our ``Game`` is the referee: every peer ply is played through it, so a ply our
rules refuse ends the game as ``peer-illegal`` (reported, and left out of the
score). Where the peer's own rules end the game earlier than ours (its N-move
counter fires before the capture that resets ours; its repetition count), it
answers ``go`` with no move; the runner then gives it the position as a FEN
(no history, its counter restarted) and asks once more. Such re-synchronisations
are counted per game. A peer that still gives no move ends the game as
``peer-failed`` (also left out of the score). Games reaching ``--cap`` turns
are adjudicated draws.

Output: per game one JSON line in ``--log`` (record in our notation, end reason,
times); at the end W/D/L of our side, the score with a 95% interval from the
games (trinomial) and from the pairs (pentanomial), the Elo difference, end
reasons, our losses by blocking before turn 40, and the median and mean time
per turn of each side. ``--sprt elo0,elo1[,alpha,beta]`` stops as soon as the
generalised SPRT on the pairs accepts either hypothesis; with ``--summarize`` it judges
the pairs of the logs.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import queue
import random
import shlex
import statistics
import subprocess
import sys
import threading
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.results import record
from morris_pi.engine.evaluate import DEFAULT_WEIGHTS
from morris_pi.rules import Game, Turn
from morris_pi.rules.fen import to_fen

#: Sanmill options for our ``standard`` profile (names as its ``uci`` command lists them).
STANDARD_RULES: dict[str, str] = {
    "PiecesCount": "9",
    "flyPieceCount": "3",
    "PiecesAtLeastCount": "3",
    "HasDiagonalLines": "false",
    "MillFormationActionInPlacingPhase": "0",  # remove an opponent's man at once
    "MayMoveInPlacingPhase": "false",
    "IsDefenderMoveFirst": "false",
    "MayRemoveMultiple": "false",
    "MayRemoveFromMillsAlways": "false",  # men in mills only when all are in mills
    "RestrictRepeatedMillsFormation": "false",
    "OneTimeUseMill": "false",
    "CustodianCaptureEnabled": "false",
    "InterventionCaptureEnabled": "false",
    "LeapCaptureEnabled": "false",
    "BoardFullAction": "0",
    "StopPlacingWhenTwoEmptySquares": "false",
    "StalemateAction": "0",  # a side that cannot move loses
    "MayFly": "true",
    "NMoveRule": "100",
    "EndgameNMoveRule": "100",
    "ThreefoldRepetitionRule": "true",
}

BLOCKING_TURN = 40  # losses by blocking before this turn are reported one by one


class PeerError(RuntimeError):
    """The peer process died, timed out or spoke something we cannot read."""


class Peer:
    """One peer process, spoken to line by line; a reader thread makes reads time out."""

    def __init__(self, command: list[str], options: dict[str, str], timeout: float) -> None:
        self.timeout = timeout
        try:
            self.proc = subprocess.Popen(
                command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                bufsize=1,
            )
        except OSError as exc:
            raise PeerError(f"cannot start peer {command[0]!r}: {exc}") from None
        self.lines: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.name = ""
        self.send("uci")
        self.name = self.expect(lambda line: line == "uciok", collect="id name ")
        unknown = []
        for name, value in options.items():
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        for line in self._until(lambda line: line == "readyok"):
            if line.startswith("No such option:"):
                unknown.append(line.split(":", 1)[1].strip())
        if unknown:
            self.close()
            raise PeerError(f"peer does not know the option(s): {', '.join(unknown)}")

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, command: str) -> None:
        try:
            self.proc.stdin.write(command + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise PeerError(f"peer exited (while sending {command!r})") from None

    def _until(self, done, timeout: float | None = None):
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            left = deadline - time.monotonic()
            try:
                line = self.lines.get(timeout=max(left, 0.001))
            except queue.Empty:
                raise PeerError(f"peer gave no answer within {timeout or self.timeout:.0f} s") from None
            if line is None:
                raise PeerError("peer exited")
            yield line
            if done(line):
                return

    def expect(self, done, collect: str = "") -> str:
        found = ""
        for line in self._until(done):
            if collect and line.startswith(collect):
                found = line[len(collect) :]
        return found

    def best(self, position: str) -> str | None:
        """The peer's ply for ``position`` (a ``position`` command's argument): a ply, ``"draw"`` (its
        rules end the game drawn) or None ("no move": its rules say the game is over)."""
        # No "isready" here: Sanmill's search thread may still be printing its analysis of the
        # last search, unsynchronised with the main thread's "readyok", so the two can interleave.
        # The first level-10 run lost one game waiting 120 s for a "readyok", most likely so;
        # the same position answered at once when replayed. position and go print nothing.
        self.send(f"position {position}")
        self.send("go")
        ply = None
        for line in self._until(lambda line: " bestmove " in f" {line} " or line.startswith("bestmove")):
            words = line.split()
            if "bestmove" in words and words.index("bestmove") + 1 < len(words):
                ply = words[words.index("bestmove") + 1]
        return None if ply in (None, "none", "0000", "(none)") else ply

    def fen(self) -> str:
        """The peer's FEN of the position last set (its ``d`` command)."""
        self.send("d")
        return self.expect(lambda line: line.startswith("Fen:"), collect="Fen: ").strip()

    def close(self) -> None:
        with contextlib.suppress(PeerError):
            self.send("quit")
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


# -- our side ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Ours:
    """Our player: a level (seeded unless ``seeded`` is False), or a node or time budget."""

    level: int | None = 10
    nodes: int | None = None
    time: float | None = None
    seeded: bool = True
    weights: str | None = None  # with ``nodes``/``time``: evaluation weight overrides as JSON
    placing_extension: int | None = None  # with ``nodes``/``time``: moving turns seen after the last placement
    placing_nodes: int | None = None  # with ``nodes``: the budget while men are in hand

    def describe(self) -> str:
        settings = ""
        if self.placing_extension is not None:
            settings += f", placing extension {self.placing_extension}"
        if self.placing_nodes:
            settings += f", {self.placing_nodes} nodes while placing"
        if self.weights:
            settings += f", weights {self.weights}"
        if self.nodes:
            return f"{self.nodes} nodes/turn{settings}"
        if self.time:
            return f"{self.time} s/turn{settings}"
        return f"level {self.level}" + ("" if self.seeded else " (unseeded, time caps)")


class OurPlayer:
    def __init__(self, spec: Ours, seed: int) -> None:
        self.spec = spec
        if spec.nodes or spec.time:
            from morris_pi.engine.evaluate import merged
            from morris_pi.engine.search import Limits, Searcher

            options: dict[str, Any] = {}
            if spec.placing_extension is not None:
                options["placing_extension"] = spec.placing_extension
            if spec.weights:
                options["weights"] = merged(json.loads(spec.weights))
            self.searcher = Searcher("standard", **options)
            self.limits = Limits(nodes=spec.nodes, time=spec.time)
            self.placing_limits = Limits(nodes=spec.placing_nodes or spec.nodes, time=spec.time)
            self.player = None
        else:
            from morris_pi.engine.player import EnginePlayer

            self.player = EnginePlayer(spec.level, seed=seed if spec.seeded else None, threaded=False)

    def choose(self, game: Game) -> Turn:
        """Our turn; ``self.nodes`` is what the search visited for it."""
        if self.player is not None:
            self.player.start(game)
            turn = self.player.result()
            self.nodes = self.player.last.nodes if self.player.last else 0
        else:
            if self.spec.nodes:
                self.searcher.clear()
            placing = game.position.hand != (0, 0)
            limits = self.placing_limits if placing else self.limits
            result = self.searcher.search(game.position, game.positions, limits)
            turn = Turn.from_raw(result.turn) if result.turn else None
            self.nodes = result.nodes
        if turn is None:
            raise RuntimeError(f"our engine found no turn after {game.record!r}")
        return turn

    def settings(self) -> dict[str, Any]:
        """What our side plays with, read back from its player or search (the log's ``our_settings``):
        a level, or the budgets, the placing extension and the weights that differ from the defaults."""
        if self.player is not None:
            return {"level": self.spec.level, "seeded": self.spec.seeded}
        default = DEFAULT_WEIGHTS.as_dict()
        weights = {
            phase: changed
            for phase, terms in self.searcher.ev.weights.as_dict().items()
            if (changed := {term: value for term, value in terms.items() if default[phase][term] != value})
        }
        return {
            "nodes": self.limits.nodes,
            "placing_nodes": self.placing_limits.nodes,
            "time": self.limits.time,
            "placing_extension": self.searcher.placing_extension,
            "weights": weights,
        }


# -- one game ------------------------------------------------------------------------------


@dataclass
class GameTask:
    index: int  # opening number
    opening: str
    ours_white: bool
    ours: Ours
    peer_command: list[str]
    peer_options: dict[str, str]
    cap: int
    seed: int
    timeout: float


@dataclass
class GameResult:
    index: int
    opening: str
    ours_white: bool
    score: float | None  # ours: 1, 0.5, 0; None = void (peer-illegal, peer-failed)
    winner: str | None
    reason: str
    turns: int
    record: str
    our_times: list[float] = field(default_factory=list)
    peer_times: list[float] = field(default_factory=list)
    resyncs: list[dict] = field(default_factory=list)
    detail: str = ""
    our_nodes: list[int] = field(default_factory=list)
    our_settings: dict = field(default_factory=dict)  # OurPlayer.settings(); empty in older logs

    def to_json(self) -> str:
        data = dict(self.__dict__)
        data["our_times"] = [round(t, 3) for t in self.our_times]
        data["peer_times"] = [round(t, 3) for t in self.peer_times]
        data["ours"] = "white" if self.ours_white else "black"
        return json.dumps(data)


def _peer_ply(peer: Peer, game: Game, resyncs: list[dict]) -> str | None:
    """Ask the peer for its next ply; resynchronise once by FEN if its rules think the game is over.

    Sanmill answers ``draw`` when its N-move count (moves only, not reset by the removal still
    to come) or its repetition count ends the game, and ``none`` for a position it thinks is
    finished. Our rules referee: the game goes on, from a FEN without history.
    """
    plies = game.sanmill_record
    ply = peer.best(f"startpos moves {plies}" if plies else "startpos")
    if ply is None or ply == "draw":
        fen = to_fen(game)
        resyncs.append({"turn": len(game.history) + 1, "answer": ply or "none", "fen": fen})
        ply = peer.best(f"fen {fen}")
        if ply == "draw":
            ply = None
    return ply


def play_game(task: GameTask) -> GameResult:
    """One game; a failure of the runner itself voids the game (``runner-error``) instead of the match."""
    try:
        return _play_game(task)
    except Exception as exc:
        return GameResult(
            task.index,
            task.opening,
            task.ours_white,
            None,
            None,
            "runner-error",
            0,
            task.opening,
            detail=f"{type(exc).__name__}: {exc}",
        )


def _play_game(task: GameTask) -> GameResult:
    game = Game.from_record(task.opening)
    ours = OurPlayer(task.ours, task.seed)
    our_side = "white" if task.ours_white else "black"
    res = GameResult(task.index, task.opening, task.ours_white, None, None, "", 0, "", our_settings=ours.settings())
    try:
        peer = Peer(task.peer_command, task.peer_options, task.timeout)
    except PeerError as exc:
        res.reason, res.detail = "peer-failed", str(exc)
        return res
    try:
        peer.send("ucinewgame")
        while not game.is_over and len(game.history) < task.cap:
            if game.turn == our_side:
                started = time.perf_counter()
                turn = ours.choose(game)
                res.our_times.append(time.perf_counter() - started)
                res.our_nodes.append(ours.nodes)
                game.play(turn)
                continue
            started = time.perf_counter()
            done = len(game.history)
            while len(game.history) == done:  # a step that closes a mill, then its removal
                try:
                    ply = _peer_ply(peer, game, res.resyncs)
                except PeerError as exc:
                    res.reason, res.detail = "peer-failed", f"turn {done + 1}: {exc}"
                    break
                if ply is None:
                    res.reason, res.detail = "peer-failed", f"turn {done + 1}: no move, even from a FEN"
                    break
                try:
                    game.play(ply)
                except ValueError as exc:
                    res.reason, res.detail = "peer-illegal", f"turn {done + 1}: {exc}"
                    break
            res.peer_times.append(time.perf_counter() - started)
            if res.reason:
                break
    finally:
        peer.close()
    res.record = game.record + (f" {game.pending}" if game.pending else "")
    res.turns = len(game.history)
    if res.reason:
        return res
    outcome = game.outcome
    if outcome is None:
        res.reason, res.score = "adjudicated-max-turns", 0.5
    else:
        res.reason, res.winner = outcome.reason, outcome.winner
        res.score = 0.5 if outcome.winner is None else float(outcome.winner == our_side)
    return res


# -- statistics ----------------------------------------------------------------------------


def score_interval(samples: list[float]) -> tuple[float, float]:
    """Mean and 95% half-width of per-unit scores (games: trinomial; pair means: pentanomial)."""
    n = len(samples)
    if n == 0:
        return 0.0, 0.0
    mean = sum(samples) / n
    if n < 2:
        return mean, 0.5
    var = sum((s - mean) ** 2 for s in samples) / (n - 1)
    return mean, 1.96 * math.sqrt(var / n)


def elo_of(score: float) -> float:
    s = min(max(score, 1e-3), 1 - 1e-3)
    return -400 * math.log10(1 / s - 1)


def sprt_llr(pair_scores: list[float], elo0: float, elo1: float) -> float:
    """Log-likelihood ratio of the generalised SPRT (normal approximation) over pair scores in [0, 1]."""
    n = len(pair_scores)
    if n < 2:
        return 0.0
    mean = sum(pair_scores) / n
    var = sum((s - mean) ** 2 for s in pair_scores) / n
    if var <= 0:
        var = 1e-3  # all pairs equal: avoid dividing by zero, the LLR still grows with n
    s0 = 1 / (1 + 10 ** (-elo0 / 400))
    s1 = 1 / (1 + 10 ** (-elo1 / 400))
    return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)


def sprt_bounds(alpha: float, beta: float) -> tuple[float, float]:
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def sprt_judge(results: list[GameResult], sprt: tuple[float, float, float, float]) -> tuple[bool, str]:
    """Whether the SPRT over the results' pairs accepts a hypothesis, and the verdict in words."""
    elo0, elo1, alpha, beta = sprt
    llr = sprt_llr(pair_scores(results), elo0, elo1)
    low, high = sprt_bounds(alpha, beta)
    if llr >= high:
        return True, f"H1 accepted (Elo >= {elo1:g}), LLR {llr:.2f} >= {high:.2f}"
    if llr <= low:
        return True, f"H0 accepted (Elo <= {elo0:g}), LLR {llr:.2f} <= {low:.2f}"
    return False, f"no verdict yet, LLR {llr:.2f} between {low:.2f} and {high:.2f}"


def pair_scores(results: list[GameResult]) -> list[float]:
    """Mean score of each opening whose both games counted (void games drop their pair)."""
    by_opening: dict[int, list[float]] = {}
    for r in results:
        by_opening.setdefault(r.index, []).append(r.score)
    return [sum(s) / 2 for s in by_opening.values() if len(s) == 2 and None not in s]


def summary(results: list[GameResult], ours: Ours, peer_label: str) -> dict:
    counted = [r for r in results if r.score is not None]
    wins = sum(r.score == 1.0 for r in counted)
    draws = sum(r.score == 0.5 for r in counted)
    losses = len(counted) - wins - draws
    score, tri = score_interval([r.score for r in counted])
    pairs = pair_scores(results)
    _, penta = score_interval(pairs)
    reasons: dict[str, int] = {}
    for r in results:
        key = r.reason if r.winner is None or r.score is None else f"{r.reason} ({'ours' if r.score == 1 else 'peer'})"
        reasons[key] = reasons.get(key, 0) + 1
    early_blocked = sorted(
        r.turns for r in counted if r.score == 0.0 and r.reason == "blocked" and r.turns < BLOCKING_TURN
    )
    our_times = [t for r in results for t in r.our_times]
    peer_times = [t for r in results for t in r.peer_times]
    nodes = [n for r in results for n in r.our_nodes]

    def timing(ts: list[float]) -> dict:
        return {"median": round(statistics.median(ts), 3), "mean": round(statistics.fmean(ts), 3)} if ts else {}

    return {
        "ours": ours.describe(),
        "peer": peer_label,
        "games": len(results),
        "counted": len(counted),
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "score": round(score, 4),
        "ci95_trinomial": round(tri, 4),
        "pairs": len(pairs),
        "ci95_pentanomial": round(penta, 4),
        "elo": round(elo_of(score)) if counted else None,
        "elo_ci95": [round(elo_of(score - (penta if pairs else tri))), round(elo_of(score + (penta if pairs else tri)))]
        if counted
        else None,
        "reasons": reasons,
        "blocked_losses_before_turn_40": {"count": len(early_blocked), "turns": early_blocked},
        "void": [{"opening": r.index, "reason": r.reason, "detail": r.detail} for r in results if r.score is None],
        "resynced_games": sum(bool(r.resyncs) for r in results),
        "seconds_per_turn": {"ours": timing(our_times), "peer": timing(peer_times)},
        "our_nodes_per_turn": round(statistics.fmean(nodes)) if nodes else None,
    }


def format_summary(s: dict) -> str:
    lines = [
        f"{s['ours']} v {s['peer']}: {s['counted']} games counted of {s['games']}",
        f"  ours W/D/L {s['wins']}/{s['draws']}/{s['losses']}  score {s['score']:.3f} "
        f"±{s['ci95_trinomial']:.3f} (95%, games)  ±{s['ci95_pentanomial']:.3f} (95%, {s['pairs']} pairs)  "
        f"Elo {s['elo']:+} ({s['elo_ci95'][0]:+} to {s['elo_ci95'][1]:+})"
        if s["elo"] is not None
        else "  no game counted",
        "  end reasons: " + ", ".join(f"{k} {v}" for k, v in sorted(s["reasons"].items())),
        f"  our losses by blocking before turn {BLOCKING_TURN}: {s['blocked_losses_before_turn_40']['count']}"
        + (
            f" (turns {', '.join(map(str, s['blocked_losses_before_turn_40']['turns']))})"
            if s["blocked_losses_before_turn_40"]["turns"]
            else ""
        ),
    ]
    t = s["seconds_per_turn"]
    for side in ("ours", "peer"):
        if t[side]:
            lines.append(
                f"  {side} s/turn: median {t[side]['median']:.3f}, mean {t[side]['mean']:.3f}"
                + (
                    f" ({s['our_nodes_per_turn']} nodes/turn on average)"
                    if side == "ours" and s["our_nodes_per_turn"]
                    else ""
                )
            )
    if s["resynced_games"]:
        lines.append(f"  games where the peer was re-synchronised by FEN: {s['resynced_games']}")
    for v in s["void"]:
        lines.append(f"  VOID opening {v['opening']}: {v['reason']}: {v['detail']}")
    return "\n".join(lines)


# -- the match -----------------------------------------------------------------------------


def openings(count: int, turns: int = 2, seed: int = 1) -> list[str]:
    """``count`` distinct random openings of ``turns`` placements that close no mill."""
    rng = random.Random(seed)
    out: list[str] = []
    attempts = 0
    while len(out) < count:
        attempts += 1
        if attempts > count * 100:
            raise ValueError(f"cannot find {count} distinct openings of {turns} turns")
        game = Game()
        for _ in range(turns):
            choices = [t for t in game.legal_turns() if not t.removal]
            game.play(rng.choice(choices))
        if game.record not in out:
            out.append(game.record)
    return out


def run_match(
    tasks: list[GameTask],
    jobs: int = 1,
    sprt: tuple[float, float, float, float] | None = None,
    on_result=None,
) -> tuple[list[GameResult], str | None]:
    """Play the tasks (``jobs`` processes); returns the results and the SPRT verdict, if it stopped early."""
    results: list[GameResult] = []
    verdict = None

    def judge() -> str | None:
        if not sprt:
            return None
        accepted, verdict = sprt_judge(results, sprt)
        return verdict if accepted else None

    def take(result: GameResult) -> None:
        results.append(result)
        if on_result:
            on_result(result)

    if jobs <= 1:
        for task in tasks:
            take(play_game(task))
            verdict = judge()
            if verdict:
                break
        return results, verdict
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        pending = {pool.submit(play_game, t) for t in tasks}
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                take(future.result())
            verdict = verdict or judge()
            if verdict:
                for future in pending:
                    future.cancel()
                pending = {f for f in pending if not f.cancelled()}
    return results, verdict


def _sprt(text: str) -> tuple[float, float, float, float]:
    try:
        values = [float(v) for v in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r}: give elo0,elo1[,alpha,beta], e.g. 0,20 or 0,20,0.05,0.05"
        ) from None
    if len(values) == 2:
        values += [0.05, 0.05]
    if len(values) != 4 or not values[0] < values[1] or not all(0 < v < 0.5 for v in values[2:]):
        raise argparse.ArgumentTypeError(f"{text!r}: need elo0 < elo1 and 0 < alpha, beta < 0.5")
    return tuple(values)  # type: ignore[return-value]


def _option(text: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"{text!r}: write NAME=VALUE, e.g. Hash=64")
    return name, value


def peer_label(args: argparse.Namespace) -> str:
    """The peer's setting as the summary names it."""
    skill = "developer mode" if args.developer_mode else f"skill {args.skill}"
    return f"peer {skill}" + (f", {args.move_time} s" if args.move_time else "")


def setting(args: argparse.Namespace) -> str:
    """The openings a run plays: what, with our side and the peer, makes a row of the table."""
    return f"{args.openings} openings of {args.opening_turns} turns, seed {args.seed}, cap {args.cap}"


def record_results(s: dict, key: str) -> None:
    """The run's row in ``bench/results/sanmill.md``."""
    counted = s["elo"] is not None
    t = s["seconds_per_turn"]
    record(
        "sanmill",
        "Sparring against Sanmill (bench/sanmill.py)",
        ["run", "games", "W/D/L", "score (games)", "score (pairs)", "Elo", "blocked < 40", "s/turn ours, peer"],
        [
            {
                "run": key,
                "games": f"{s['counted']} of {s['games']}",
                "W/D/L": f"{s['wins']}/{s['draws']}/{s['losses']}",
                "score (games)": f"{s['score']:.3f} ±{s['ci95_trinomial']:.3f}" if counted else "-",
                "score (pairs)": f"±{s['ci95_pentanomial']:.3f} ({s['pairs']} pairs)" if counted else "-",
                "Elo": f"{s['elo']:+} ({s['elo_ci95'][0]:+} to {s['elo_ci95'][1]:+})" if counted else "-",
                "blocked < 40": s["blocked_losses_before_turn_40"]["count"],
                "s/turn ours, peer": ", ".join(
                    f"{t[side]['median']:.2f}" if t[side] else "-" for side in ("ours", "peer")
                ),
            }
        ],
        notes="Sanmill v7.4.6 (commit 9d0d014), built locally with -O3, with our standard rules (bench/README.md). "
        "Our levels are seeded node budgets: the same turns on any machine. Scores are ours, with 95% intervals; "
        's/turn are medians. A row "from" a log summarises games played earlier (`--summarize`); '
        "its commit is the one it was summarised at.",
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peer", help="the peer engine's command (a path, arguments allowed)")
    parser.add_argument(
        "--summarize",
        type=Path,
        nargs="+",
        metavar="LOG",
        help="print the summary of --log files (finished or interrupted runs) and exit; an "
        "opening found in a later log replaces that opening's games of earlier logs",
    )
    who = parser.add_mutually_exclusive_group()
    who.add_argument("--level", type=int, default=10, help="our level 1-10 (default 10), seeded node budgets")
    who.add_argument("--nodes", type=int, help="our fixed node budget per turn instead of a level")
    who.add_argument("--time", type=float, help="our seconds per turn instead of a level")
    parser.add_argument(
        "--placing-extension",
        type=int,
        choices=range(5),
        metavar="N",
        help="with --nodes or --time: moving turns searched at least after the last placement, 0 = off "
        "(default: the engine's)",
    )
    parser.add_argument(
        "--placing-nodes", type=int, metavar="N", help="with --nodes: the node budget while men are in hand"
    )
    parser.add_argument(
        "--weights", help='with --nodes or --time: evaluation weights, e.g. {"moving": {"cramped": -30}}'
    )
    parser.add_argument("--unseeded", action="store_true", help="the level as on the board: time caps, table kept")
    parser.add_argument("--skill", type=int, default=10, help="peer SkillLevel (default 10)")
    parser.add_argument("--developer-mode", action="store_true", help="peer DeveloperMode on (its fixed strongest)")
    parser.add_argument("--move-time", type=int, default=0, help="peer MoveTime in seconds, 0 = no limit (default)")
    parser.add_argument(
        "--peer-option",
        type=_option,
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="any further peer option (repeatable)",
    )
    parser.add_argument("--openings", type=int, default=10, help="openings, each played with both colours")
    parser.add_argument("--opening-turns", type=int, default=2, help="random placements per opening (default 2)")
    parser.add_argument("--seed", type=int, default=1, help="openings and our seeds")
    parser.add_argument(
        "--only",
        metavar="I,J,...",
        help="play only these openings (numbers from 0, in this order), e.g. to replay void pairs",
    )
    parser.add_argument("--cap", type=int, default=300, help="turns after which a game is adjudicated a draw")
    parser.add_argument("--jobs", type=int, default=1, choices=(1, 2), help="games at once (this machine: at most 2)")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds to wait for any peer answer")
    parser.add_argument(
        "--sprt",
        type=_sprt,
        metavar="ELO0,ELO1[,ALPHA,BETA]",
        help="stop early by SPRT on pairs; with --summarize, the verdict on the logged pairs",
    )
    parser.add_argument("--log", type=Path, help="append one JSON line per game to this file")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.add_argument(
        "--no-results",
        dest="results",
        action="store_false",
        help="do not write the run's row into bench/results/sanmill.md",
    )
    args = parser.parse_args(argv)

    if args.summarize:
        results: list[GameResult] = []
        for path in args.summarize:
            try:
                logged = [
                    GameResult(**{k: v for k, v in json.loads(line).items() if k != "ours"})
                    for line in path.read_text().splitlines()
                    if line.strip()
                ]
            except (OSError, ValueError, TypeError) as exc:
                parser.error(f"--summarize {path}: not a log of this bench: {exc}")
            replaced = {r.index for r in logged}
            results = [r for r in results if r.index not in replaced] + logged
        s = summary(
            results,
            Ours(level=args.level, nodes=args.nodes, time=args.time),
            " + ".join(p.name for p in args.summarize),
        )
        if args.sprt:
            _, s["sprt"] = sprt_judge(results, args.sprt)
        print(json.dumps(s) if args.json else format_summary(s) + (f"\n  SPRT: {s['sprt']}" if args.sprt else ""))
        if args.results:
            record_results(s, f"{s['ours']} v {peer_label(args)}, from {s['peer']}")
        return 0
    if not args.peer:
        parser.error("--peer is required (the path of the built peer engine)")
    command = shlex.split(args.peer)
    if not command or not Path(command[0]).exists():
        parser.error(f"--peer {args.peer!r}: no such file; build the peer first (bench/README.md)")
    if args.level is not None and not 1 <= args.level <= 10:
        parser.error(f"--level {args.level}: levels are 1 to 10")
    if args.openings < 1 or args.opening_turns < 0:
        parser.error("--openings must be at least 1 and --opening-turns at least 0")
    ours = Ours(
        level=None if (args.nodes or args.time) else args.level,
        nodes=args.nodes,
        time=args.time,
        seeded=not args.unseeded,
        weights=args.weights,
        placing_extension=args.placing_extension,
        placing_nodes=args.placing_nodes,
    )
    if args.placing_nodes is not None and (not args.nodes or args.placing_nodes < 1):
        parser.error("--placing-nodes applies to --nodes and must be at least 1")
    if (args.weights or args.placing_extension is not None) and not (args.nodes or args.time):
        parser.error(
            "--placing-extension and --weights apply to --nodes or --time (a level uses the engine's settings)"
        )
    if args.weights:
        from morris_pi.engine.evaluate import merged

        try:
            merged(json.loads(args.weights))
        except (ValueError, TypeError, AttributeError) as exc:
            parser.error(f"--weights {args.weights!r}: {exc}")
    options = dict(STANDARD_RULES)
    options.update(
        {
            "SkillLevel": str(args.skill),
            "DeveloperMode": str(args.developer_mode).lower(),
            "MoveTime": str(args.move_time),
        }
    )
    options.update(dict(args.peer_option))
    label = peer_label(args)
    book = openings(args.openings, args.opening_turns, args.seed)
    order = list(range(len(book)))
    if args.only:
        try:
            order = [int(i) for i in args.only.split(",")]
        except ValueError:
            parser.error(f"--only {args.only!r}: give opening numbers separated by commas")
        if any(not 0 <= i < len(book) for i in order):
            parser.error(f"--only {args.only!r}: openings are numbered 0 to {len(book) - 1}")
    tasks = [
        GameTask(
            i,
            book[i],
            ours_white,
            ours,
            command,
            options,
            args.cap,
            args.seed * 1_000_003 + i * 2 + ours_white,
            args.timeout,
        )
        for i in order
        for ours_white in (True, False)
    ]
    log = args.log.open("a") if args.log else None

    def on_result(r: GameResult) -> None:
        if log:
            log.write(r.to_json() + "\n")
            log.flush()
        side = "W" if r.ours_white else "B"
        print(
            f"opening {r.index:>3} ours {side}: {r.score if r.score is not None else 'void'} "
            f"{r.reason} after {r.turns} turns",
            file=sys.stderr,
            flush=True,
        )

    started = time.perf_counter()
    try:
        results, verdict = run_match(tasks, args.jobs, args.sprt, on_result)
    except PeerError as exc:
        print(f"bench/sanmill.py: {exc}", file=sys.stderr)
        return 2
    finally:
        if log:
            log.close()
    s = summary(results, ours, label)
    s["minutes"] = round((time.perf_counter() - started) / 60, 1)
    if verdict:
        s["sprt"] = verdict
    if args.results and not args.only:
        record_results(s, f"{s['ours']} v {label}, {setting(args)}")
    print(
        json.dumps(s)
        if args.json
        else format_summary(s) + f"\n  {s['minutes']} min" + (f"\n  SPRT: {verdict}" if verdict else "")
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
