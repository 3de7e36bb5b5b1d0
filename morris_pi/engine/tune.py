"""Self-play matches and the weight tuning that set ``evaluate.DEFAULT_WEIGHTS``.

    python -m morris_pi.engine.tune [--nodes 1000] [--openings 12] [--rounds 1] [--jobs 2]

Method: coordinate search by matches. For each tuned term in turn, the
incumbent weights play a candidate with that one weight raised and one with
it lowered (x1.6 / x0.6), each over ``--openings`` varied openings with both
colours, every side searching a fixed node budget (so results do not depend
on the machine). A candidate replaces the incumbent when it scores at least
``--accept`` (default 0.545). The log and the final weights print as JSON; the
README records the runs that produced the shipped weights.

The match helpers here also serve ``bench/match.py``.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Literal

from morris_pi.rules import Game, Turn
from morris_pi.rules.position import Position, RawTurn

from .evaluate import DEFAULT_WEIGHTS, PHASES, Evaluator, Weights, merged
from .levels import get_level, think
from .search import Limits, Searcher

#: The terms tuned (material stays the unit: 100 per man).
#: Flying-phase terms were tried in the first runs and never changed a game (the endgame
#: tables decide 3 v 3 and 3 v 4), so later runs leave them out.
TUNED: tuple[tuple[str, str], ...] = (
    ("placing", "mobility"),
    ("placing", "two"),
    ("placing", "threat"),
    ("placing", "closed"),
    ("placing", "closable"),
    ("placing", "double"),
    ("placing", "blocked"),
    ("moving", "closable"),
    ("moving", "double"),
    ("moving", "mobility"),
    ("moving", "blocked"),
    ("moving", "threat"),
    ("moving", "closed"),
    ("moving", "two"),
)


def openings(count: int, seed: int = 2024) -> list[str]:
    """Varied openings: 2 or 4 random placements that close no mill (records)."""
    rng = random.Random(seed)
    out: list[str] = []
    while len(out) < count:
        game = Game()
        for _ in range(rng.choice((2, 4))):
            turns = [t for t in game.legal_turns() if not t.removal]
            game.play(rng.choice(turns))
        if game.record not in out:
            out.append(game.record)
    return out


# -- players ---------------------------------------------------------------------------

#: A player in a match: ``("weights", weights, nodes)`` searches a node budget with those
#: weights; ``("level", n)`` plays level ``n`` seeded; ``("depth", d)`` searches
#: ``d`` turns deep; ``("greedy",)`` takes the turn that evaluates best one turn deep;
#: ``("random",)`` any legal turn.
PlayerSpec = (
    tuple[Literal["weights"], Weights, int] | tuple[Literal["level", "depth"], int] | tuple[Literal["greedy", "random"]]
)
#: One game: player a, player b, the opening record, whether a is white, seed, turn cap.
GameTask = tuple[PlayerSpec, PlayerSpec, str, bool, int, int]


class Seat:
    """What one side of a game keeps between its turns: its searchers and its evaluator."""

    def __init__(self) -> None:
        self.searchers: dict[tuple[object, ...], Searcher] = {}
        self.evaluator: Evaluator | None = None

    def searcher(self, key: tuple[object, ...], make: Callable[[], Searcher]) -> Searcher:
        """The searcher kept under ``key`` (made on first use), its table cleared: each turn searches afresh."""
        s = self.searchers.get(key)
        if s is None:
            s = self.searchers[key] = make()
        s.clear()
        return s


def _choose(spec: PlayerSpec, game: Game, seat: Seat, rng: random.Random) -> Turn:
    pos = game.position
    profile = game.profile
    raw: RawTurn | None
    match spec:
        case ("greedy",):
            if seat.evaluator is None:
                seat.evaluator = Evaluator(pos.tables)
            raw = greedy_turn(pos, seat.evaluator, rng)
        case ("random",):
            raw = rng.choice(pos.turns())
        case ("depth", depth):
            s = seat.searcher(("depth",), lambda: Searcher(profile))
            raw = s.search(pos, game.positions, Limits(depth=depth)).turn
        case ("level", number):
            s = seat.searcher(("level",), lambda: Searcher(profile))
            raw = think(s, pos, game.positions, get_level(number), rng, seeded=True)[0]
        case ("weights", weights, nodes):
            s = seat.searcher(("w", weights), lambda: Searcher(profile, weights=weights))
            raw = s.search(pos, game.positions, Limits(nodes=nodes)).turn
        case _:
            raise ValueError(f"unknown player {spec!r}")
    if raw is None:
        raise RuntimeError(f"player {spec[0]!r} found no turn after {game.record!r}")
    return Turn.from_raw(raw)


def greedy_turn(pos: Position, evaluator: Evaluator, rng: random.Random) -> RawTurn | None:
    """The baseline: the turn whose resulting position evaluates best, one turn deep, no search."""
    best: float | None = None
    choice = None
    for turn in pos.turns():
        child = pos.play(turn)
        if child.count(child.side) < 3:
            return turn
        me, op = child.men[child.side], child.men[child.side ^ 1]
        score = -evaluator.evaluate(me, op, child.hand[child.side], child.hand[child.side ^ 1]) + rng.random()
        if best is None or score > best:
            best, choice = score, turn
    return choice


@dataclass
class GameReport:
    """One finished game of a match, from ``a``'s view; ``cpu_a``/``cpu_b`` are CPU seconds spent choosing."""

    score: float
    winner: str | None
    reason: str
    turns: int
    record: str
    cpu_a: float = 0.0
    cpu_b: float = 0.0
    turns_a: int = 0
    turns_b: int = 0


def play_game(task: GameTask) -> float:
    """One game; returns the score of ``a`` (1 win, 0.5 draw, 0 loss). ``task``: (a, b, opening, a_white, seed, cap)."""
    return play_game_report(task).score


def play_game_report(task: GameTask) -> GameReport:
    """One game with how it ended and each side's thinking time (the same game as ``play_game``)."""
    a, b, opening, a_white, seed, cap = task
    game = Game.from_record(opening)
    seat_a, seat_b = Seat(), Seat()
    rng = random.Random(seed)
    cpu = [0.0, 0.0]
    moves = [0, 0]
    while not game.is_over and len(game.history) < cap:
        a_to_move = (game.turn == "white") == a_white
        spec, seat = (a, seat_a) if a_to_move else (b, seat_b)
        started = time.process_time()
        turn = _choose(spec, game, seat, rng)
        cpu[not a_to_move] += time.process_time() - started
        moves[not a_to_move] += 1
        game.play(turn)
    outcome = game.outcome
    if outcome is None:
        score, winner, reason = 0.5, None, "adjudicated-max-turns"
    else:
        winner, reason = outcome.winner, outcome.reason
        score = 0.5 if winner is None else float((winner == "white") == a_white)
    return GameReport(score, winner, reason, len(game.history), game.record, cpu[0], cpu[1], moves[0], moves[1])


def match(
    a: PlayerSpec, b: PlayerSpec, openings_list: list[str], jobs: int = 2, cap: int = 200, seed: int = 0
) -> list[float]:
    """Scores of ``a`` over every opening played with both colours."""
    tasks: list[GameTask] = []
    for i, opening in enumerate(openings_list):
        for a_white in (True, False):
            tasks.append((a, b, opening, a_white, seed * 100003 + i * 2 + a_white, cap))
    if jobs <= 1:
        return [play_game(t) for t in tasks]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(play_game, tasks))


def elo(score: float, games: int) -> tuple[float, float]:
    """Elo difference for a score fraction, with a rough 95% margin."""
    s = min(max(score, 0.5 / games), 1 - 0.5 / games)
    diff = -400 * math.log10(1 / s - 1)
    se = math.sqrt(s * (1 - s) / games)
    slope = 400 / (math.log(10) * s * (1 - s))
    return diff, 1.96 * se * slope


def tune(
    nodes: int, n_openings: int, rounds: int, jobs: int, accept: float, log: Callable[[dict[str, object]], None]
) -> Weights:
    weights = DEFAULT_WEIGHTS
    book = openings(n_openings)
    for rnd in range(rounds):
        for phase, term in TUNED:
            current = getattr(weights.phase(phase), term)
            for factor in (1.6, 0.6):
                value = round(current * factor) if current else (10 if factor > 1 else -10)
                candidate = weights.replaced({phase: {term: value}})
                started = time.perf_counter()
                scores = match(("weights", candidate, nodes), ("weights", weights, nodes), book, jobs)
                s = sum(scores) / len(scores)
                log(
                    {
                        "round": rnd,
                        "phase": phase,
                        "term": term,
                        "from": current,
                        "to": value,
                        "score": round(s, 3),
                        "games": len(scores),
                        "seconds": round(time.perf_counter() - started, 1),
                        "accepted": s >= accept,
                    }
                )
                if s >= accept:
                    weights = candidate
                    break
    return weights


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m morris_pi.engine.tune", description=(__doc__ or "").splitlines()[0]
    )
    parser.add_argument("--nodes", type=int, default=1000, help="node budget per turn in tuning games")
    parser.add_argument("--openings", type=int, default=12)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--accept", type=float, default=0.545)
    parser.add_argument(
        "--candidate",
        metavar="JSON",
        help="instead of tuning: match these overrides against the current weights, "
        'e.g. \'{"placing": {"mobility": 5}}\'',
    )
    args = parser.parse_args(argv)
    candidate: Weights | None = None
    if args.candidate:
        try:
            overrides = json.loads(args.candidate)
            if not isinstance(overrides, dict) or not all(isinstance(v, dict) for v in overrides.values()):
                raise ValueError("expected an object of phases, each an object of terms")
            candidate = merged(overrides)
        except (ValueError, TypeError) as exc:
            parser.error(f"--candidate: {exc}")

    def log(entry: dict[str, object]) -> None:
        print(json.dumps(entry), flush=True)

    if candidate is not None:
        book = openings(args.openings)
        scores = match(("weights", candidate, args.nodes), ("weights", DEFAULT_WEIGHTS, args.nodes), book, args.jobs)
        s = sum(scores) / len(scores)
        d, margin = elo(s, len(scores))
        log(
            {
                "candidate": json.loads(args.candidate),
                "score": round(s, 3),
                "games": len(scores),
                "elo": round(d),
                "margin": round(margin),
            }
        )
        return 0
    weights = tune(args.nodes, args.openings, args.rounds, args.jobs, args.accept, log)
    final, default = weights.as_dict(), DEFAULT_WEIGHTS.as_dict()
    changed = {p: {k: v for k, v in final[p].items() if v != default[p][k]} for p in PHASES}
    log({"final": final, "changed": changed})
    return 0


if __name__ == "__main__":
    sys.exit(main())
