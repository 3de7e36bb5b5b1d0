"""Make the practice positions shipped in ``morris_pi/data/practice.json`` (with its SHA-256).

    python bench/make_practice.py [--seed 1] [--games 30] [--out morris_pi/data]

Themes, each position verified before it is kept:

- ``flying-win`` ("flying endgame: win"): 3 v 3, 3 v 4 and 4 v 3 with no men in hand, the side
  to move wins, and at most three of its turns keep the win. The solution is every turn that
  keeps it, read from the endgame tables (each turn's position after is probed).
- ``flying-draw`` ("flying endgame: hold the draw"): likewise, the side to move can only draw,
  at most three turns hold it and at least half of the others lose.
- ``win-a-man`` ("win a man in 3"): from seeded self-play games at level 6, a moving-phase
  position where the best turn wins a man within three of the mover's turns (the capture in the
  principal variation), every other turn scores at least a man worse, and a deeper search
  (``VERIFY`` nodes, the grading's own search) agrees.
- ``avoid-blockade`` ("avoid the blockade"): from the same games, a position where some turns
  lose by being shut in (the search proves a loss, and its line ends with the mover blocked) and
  the solution turns do not lose; confirmed by the deeper search.

Difficulty 1-3: for the flying themes by the distance to the end, for the others by how far
away the gain or the threat is. The positions are the same for the same seed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from morris_pi.engine.grading import Budget, TurnScores, score_turns
from morris_pi.engine.levels import LEVELS, think
from morris_pi.engine.search import Limits, Searcher
from morris_pi.rules import Game, Turn
from morris_pi.rules.position import Position, tables_for

SCAN = Budget("scan", 20_000)
VERIFY = Budget("verify", 300_000)
THEMES = {
    "flying-win": "flying endgame: win",
    "flying-draw": "flying endgame: hold the draw",
    "win-a-man": "win a man in 3",
    "avoid-blockade": "avoid the blockade",
}
WANT = {"flying-win": 12, "flying-draw": 6, "win-a-man": 10, "avoid-blockade": 6}


def entry(theme: str, game: Game, scores: TurnScores, solution: list[str], difficulty: int, **extra: Any) -> dict:
    return {
        "theme": theme,
        "difficulty": difficulty,
        "fen": game.fen,
        "profile": game.profile.name,
        "side": game.turn,
        "solution": sorted(solution),
        "best": str(scores.best),
        "turns": len(scores.values),
        **extra,
    }


def flying(rng: random.Random, found: dict[str, list[dict]], searcher: Searcher) -> None:
    tables = tables_for("standard")
    tries = 0
    while (
        len(found["flying-win"]) < WANT["flying-win"] or len(found["flying-draw"]) < WANT["flying-draw"]
    ) and tries < 6000:
        tries += 1
        k, j = rng.choice(((3, 3), (3, 4), (4, 3)))
        points = rng.sample(range(24), k + j)
        me, op = sum(1 << p for p in points[:k]), sum(1 << p for p in points[k:])
        side = rng.randrange(2)
        men = (me, op) if side == 0 else (op, me)
        game = Game.from_position(Position(tables, men, (0, 0), side, 0))
        if game.outcome is not None:
            continue
        scores = score_turns(game, budget=SCAN, searcher=searcher)
        results = {str(t): v for t, v in scores.values.items()}
        if any(v.result is None for v in results.values()):
            continue  # a turn the tables do not decide (the N-move rule could intervene): not a clean puzzle
        best = scores.best_value
        keeping = [t for t, v in results.items() if v.result == best.result]
        others = len(results) - len(keeping)
        if best.result == "win" and len(keeping) <= 3 and others >= 10:
            theme = "flying-win"
            turns = best.turns or 0
            difficulty = 1 if turns <= 3 else 2 if turns <= 9 else 3
        elif best.result == "draw" and len(keeping) <= 3:
            losing = sum(1 for v in results.values() if v.result == "loss")
            if losing < others / 2 or losing < 6:
                continue
            theme, difficulty = "flying-draw", 1 if len(keeping) == 3 else 2 if len(keeping) == 2 else 3
        else:
            continue
        if len(found[theme]) >= WANT[theme]:
            continue
        found[theme].append(
            entry(theme, game, scores, keeping, difficulty, goal=best.result, distance=best.turns, verified="tables")
        )


def material(game: Game, side: str) -> int:
    board = list(game.board.values())
    mine = board.count(side) + game.in_hand[side]
    other = "black" if side == "white" else "white"
    return mine - (board.count(other) + game.in_hand[other])


def capture_ply(game: Game, pv: list[Turn]) -> int | None:
    """The ply (1 = the mover's first turn) at which the line leaves the mover a man up, if within 5."""
    side = game.turn
    start = material(game, side)
    line = game.copy()
    for ply, turn in enumerate(pv[:5], 1):
        try:
            line.play(str(turn))
        except ValueError:
            return None
        if ply % 2 == 1 and material(line, side) >= start + 1:
            return ply
        if line.outcome is not None:
            return None
    return None


def blocked_loss(game: Game, turn: Turn, searcher: Searcher) -> bool:
    """Whether ``turn`` loses by the mover being shut in, along the search's line."""
    line = game.copy()
    line.play(str(turn))
    for _ in range(12):
        if line.outcome is not None:
            return line.outcome.reason == "blocked" and line.outcome.winner != game.turn
        result = searcher.search(line.position, line.positions, Limits(nodes=20_000))
        if result.turn is None:
            return False
        line.play(str(Turn.from_raw(result.turn)))
    return False


def from_games(rng: random.Random, games: int, found: dict[str, list[dict]], searcher: Searcher) -> None:
    level = LEVELS[6]
    for _ in range(games):
        if len(found["win-a-man"]) >= WANT["win-a-man"] and len(found["avoid-blockade"]) >= WANT["avoid-blockade"]:
            return
        game = Game()
        while game.outcome is None and len(game.history) < 120:
            if game.in_hand == {"white": 0, "black": 0} and not game.flies():
                consider(game, found, searcher)
            raw, _ = think(searcher, game.position, game.positions, level, rng, seeded=True)
            if raw is None:
                break
            game.play(str(Turn.from_raw(raw)))


def consider(game: Game, found: dict[str, list[dict]], searcher: Searcher) -> None:
    scores = score_turns(game, budget=SCAN, searcher=searcher)
    if len(scores.values) < 3 or scores.best is None:
        return
    ranked = sorted(scores.values.items(), key=lambda tv: -tv[1].centimen)
    best_value = scores.best_value
    losing = [t for t, v in scores.values.items() if v.result == "loss"]
    if losing and best_value.result != "loss":
        if len(found["avoid-blockade"]) >= WANT["avoid-blockade"]:
            return
        losing.sort(key=lambda t: scores.values[t].turns or 0)  # the nearest loss first
        safe = [t for t, v in scores.values.items() if v.result != "loss"]
        if len(safe) > 2 * len(scores.values) / 3 or not blocked_loss(game, losing[0], searcher):
            return
        deep = score_turns(game, budget=VERIFY, searcher=searcher)
        deep_safe = sorted(str(t) for t, v in deep.values.items() if v.result != "loss")
        if sorted(str(t) for t in safe) != deep_safe:
            return
        nearest = min((v.turns or 0) for v in deep.values.values() if v.result == "loss")
        difficulty = 1 if nearest <= 2 else 2 if nearest <= 4 else 3
        found["avoid-blockade"].append(
            entry(
                "avoid-blockade", game, deep, deep_safe, difficulty, goal="not-lose", verified=f"search {VERIFY.nodes}"
            )
        )
        return
    if best_value.result is not None or len(found["win-a-man"]) >= WANT["win-a-man"]:
        return
    second = ranked[1][1].centimen
    if best_value.centimen - second < 100:
        return
    result = searcher.search(game.position, game.positions, Limits(nodes=VERIFY.nodes))
    if result.turn is None or Turn.from_raw(result.turn) != scores.best:
        return
    ply = capture_ply(game, [Turn.from_raw(t) for t in result.pv])
    if ply is None:
        return
    deep = score_turns(game, budget=VERIFY, searcher=searcher)
    order = sorted(deep.values.items(), key=lambda tv: -tv[1].centimen)
    if deep.best != scores.best or order[0][1].centimen - order[1][1].centimen < 100:
        return
    found["win-a-man"].append(
        entry(
            "win-a-man",
            game,
            deep,
            [str(deep.best)],
            (ply + 1) // 2,
            goal="man",
            line=[str(Turn.from_raw(t)) for t in result.pv[:5]],
            verified=f"search {VERIFY.nodes}",
        )
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument(
        "--only",
        choices=list(THEMES),
        action="append",
        help="make only this theme again and keep the others from the existing file (may be repeated)",
    )
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parents[1] / "morris_pi" / "data")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    if args.only:
        for theme in THEMES:
            if theme not in args.only:
                WANT[theme] = 0
    searcher = Searcher("standard")
    found: dict[str, list[dict]] = {theme: [] for theme in THEMES}
    started = time.process_time()
    flying(rng, found, searcher)
    print(f"flying: {len(found['flying-win'])} wins, {len(found['flying-draw'])} draws", file=sys.stderr, flush=True)
    from_games(rng, args.games, found, searcher)
    positions = []
    if args.only:
        kept = json.loads((args.out / "practice.json").read_text(encoding="utf-8"))["positions"]
        for item in kept:
            if item["theme"] not in args.only:
                item = {k: v for k, v in item.items() if k not in ("id", "title")}
                found[item["theme"]].append(item)
    for theme, items in found.items():
        for number, item in enumerate(sorted(items, key=lambda i: (i["difficulty"], i["fen"])), 1):
            positions.append({"id": f"{theme}-{number:02d}", "title": THEMES[theme], **item})
    data = {"version": 1, "themes": THEMES, "positions": positions}
    text = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "practice.json").write_text(text, encoding="utf-8")
    manifest = {
        "file": "practice.json",
        "sha256": hashlib.sha256(text.encode("utf-8")).hexdigest(),
        "made_by": f"python bench/make_practice.py --seed {args.seed} --games {args.games}"
        + "".join(f" --only {theme}" for theme in args.only or ()),
        "scan_nodes": SCAN.nodes,
        "verify_nodes": VERIFY.nodes,
    }
    (args.out / "practice-manifest.json").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    counts = {theme: len(items) for theme, items in found.items()}
    print(f"{len(positions)} positions {counts} in {time.process_time() - started:.0f} CPU s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
