"""Engine speed: nodes per second and time per turn per level, cancel latency, loop jitter.

    python bench/engine_speed.py [--positions 30] [--levels 1-10] [--cancel 20]

Positions come from seeded self-play games (placing, moving and flying
phases). Each level searches each position with a fixed seed, so the node
counts are the same on every machine and only the times differ; a Raspberry
Pi 4 runs this Python about 3-4 times slower than a desktop core.

Times are wall-clock; ``cpu s/turn`` is the process's CPU time, which is what
an idle machine would show when other programs compete for the cores.

Cancel latency: a level-10 search with an endless budget runs in its thread;
after a random delay the board calls ``cancel()``; the figure is the time
until the thread has ended. Loop jitter: while the engine thinks, a loop that
wants to run every 10 ms (like the controller's scan) records its longest gap.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.results import record
from morris_pi.engine.levels import LEVELS, Level
from morris_pi.engine.player import EnginePlayer
from morris_pi.rules import Game


def sample_positions(count: int, seed: int = 1) -> list[Game]:
    """Games cut at positions spread over whole seeded self-play games."""
    rng = random.Random(seed)
    games = []
    while len(games) < count:
        game = Game()
        white = EnginePlayer(4, seed=rng.randrange(1 << 30), threaded=False)
        black = EnginePlayer(3, seed=rng.randrange(1 << 30), threaded=False)
        snapshots = []
        while not game.is_over and len(game.history) < 120:
            snapshots.append(game.copy())
            player = white if game.turn == "white" else black
            player.start(game)
            game.play(player.result())
        step = max(1, len(snapshots) // 10)
        games.extend(snapshots[::step])
    rng.shuffle(games)
    return games[:count]


def phase(game: Game) -> str:
    pos = game.position
    if pos.hand != (0, 0):
        return "placing"
    return "flying" if pos.flies(0) or pos.flies(1) else "moving"


def parse_levels(text: str) -> list[int]:
    if "-" in text:
        lo, hi = map(int, text.split("-"))
        return list(range(lo, hi + 1))
    return [int(x) for x in text.split(",")]


def speed(levels: list[int], games: list[Game]) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = []
    print(
        f"{'level':>5} {'node budget':>11} {'avg nodes':>10} {'avg s/turn':>10} {'max s':>7} {'cpu s/turn':>10} "
        f"{'median cpu s':>12} {'nodes/cpu s':>11}  avg s/turn by phase"
    )
    for number in levels:
        times, cpu, nodes, by_phase = [], [], [], {}
        for i, game in enumerate(games):
            player = EnginePlayer(number, seed=i, threaded=False)
            started, cpu_started = time.perf_counter(), time.process_time()
            player.start(game)
            player.result()
            elapsed = time.perf_counter() - started
            cpu.append(time.process_time() - cpu_started)
            times.append(elapsed)
            nodes.append(player.last.nodes if player.last else 0)
            by_phase.setdefault(phase(game), []).append(elapsed)
        phases = " ".join(f"{k}={statistics.mean(v):.2f}({len(v)})" for k, v in sorted(by_phase.items()))
        print(
            f"{number:>5} {LEVELS[number].nodes:>11} {statistics.mean(nodes):>10.0f} {statistics.mean(times):>10.3f} "
            f"{max(times):>7.2f} {statistics.mean(cpu):>10.3f} {statistics.median(cpu):>12.3f} "
            f"{sum(nodes) / sum(cpu):>11.0f}  {phases}",
            flush=True,
        )
        rows.append(
            {
                "level": f"{number} ({len(games)} positions)",
                "node budget": f"{LEVELS[number].nodes:,}",
                "avg nodes": f"{statistics.mean(nodes):,.0f}",
                "avg s/turn": f"{statistics.mean(times):.3f}",
                "max s": f"{max(times):.2f}",
                "cpu s/turn": f"{statistics.mean(cpu):.3f}",
                "nodes/cpu s": f"{sum(nodes) / sum(cpu):,.0f}",
            }
        )
    return rows


def cancel_latency(trials: int, game: Game) -> dict[str, object]:
    latencies, gaps, stopped_after = [], [], []
    rng = random.Random(5)
    for _ in range(trials):
        player = EnginePlayer(10, threaded=True)
        player.level = Level(10, 10**9, 3600.0, None, 0, "endless")
        player.start(game)
        # the controller's loop: wants to run every 10 ms while the engine thinks
        last = time.perf_counter()
        worst = 0.0
        until = last + rng.uniform(0.1, 0.5)
        while time.perf_counter() < until:
            time.sleep(0.01)
            now = time.perf_counter()
            worst = max(worst, now - last)
            last = now
        gaps.append(worst)
        searcher = next(iter(player._searchers.values()))
        before = searcher.nodes
        started = time.perf_counter()
        player.cancel()
        player.join()
        latencies.append(time.perf_counter() - started)
        assert searcher.nodes > before or before > 0, "the search was not running"
        stopped_after.append(searcher.nodes - before)
    ms = sorted(x * 1000 for x in latencies)
    print(
        f"cancel latency over {trials} searches: median {statistics.median(ms):.1f} ms, max {ms[-1]:.1f} ms "
        f"(nodes searched after cancel: max {max(stopped_after)})"
    )
    gm = sorted(x * 1000 for x in gaps)
    print(f"10 ms loop while searching: median longest gap {statistics.median(gm):.1f} ms, worst {gm[-1]:.1f} ms")
    return {
        "level": f"cancel ({trials} searches)",
        "avg s/turn": f"median {statistics.median(ms):.1f} ms, max {ms[-1]:.1f} ms to stop",
        "max s": f"10 ms loop: longest gap median {statistics.median(gm):.1f} ms, worst {gm[-1]:.1f} ms",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--levels", default="1-10")
    parser.add_argument("--cancel", type=int, default=20, help="cancel trials (0: skip)")
    args = parser.parse_args()
    games = sample_positions(args.positions)
    phases = {}
    for g in games:
        phases[phase(g)] = phases.get(phase(g), 0) + 1
    print(f"{len(games)} positions from seeded self-play: {phases}")
    rows = speed(parse_levels(args.levels), games)
    if args.cancel:
        mid = next((g for g in games if phase(g) == "moving"), games[0])
        rows.append(cancel_latency(args.cancel, mid))
    record(
        "engine_speed",
        "Engine speed per level (bench/engine_speed.py)",
        ["level", "node budget", "avg nodes", "avg s/turn", "max s", "cpu s/turn", "nodes/cpu s"],
        rows,
        notes=f"Seeded searches of positions from seeded self-play: the node counts are the same on any "
        f"machine, the times are this one's ({platform.machine()}, {platform.processor() or 'cpu'}). "
        "A Raspberry Pi 4 is about 3-4 times slower.",
    )


if __name__ == "__main__":
    main()
