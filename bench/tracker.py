"""Benchmark of the board tracker: time per sensor event (LED frame included), replay speed, memory.

Run: python bench/tracker.py [--games N] [--tracker MODULE:CALLABLE]

Prints the median and p99 time for the controller to take one sensor event
and show its LED frame, over the events of messy traces of random games, the
time to replay a 150-turn game trace through ``morris-pi replay``'s code, and
the peak memory one event step allocates (``tracemalloc``, over that game).
``--tracker`` (default ``morris_pi.tracker:Tracker``) measures another tracker
with the same public API, so two can be compared on the same machine. The figures go into
``bench/results/tracker.md``, a row per measure and tracker.
"""

from __future__ import annotations

import argparse
import io
import json
import platform
import random
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.results import record
from morris_pi import replay
from morris_pi.core.controller import Controller, TrackerFactory
from morris_pi.core.ports import FirstLegalOpponent, ManualClock
from morris_pi.core.virtual import RecordingStrip, VirtualButtons, VirtualSensors
from morris_pi.traces import heldout
from morris_pi.traces.simple import game_trace, random_game


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def time_events(
    profile: str, seed: int, computer: str | None, tracker: TrackerFactory
) -> tuple[list[float], list[float], list[float]]:
    """Wall seconds per event step, CPU seconds per event step, and wall seconds per step that
    recorded a turn (the heaviest kind)."""
    game = random_game(profile, random.Random(seed), max_turns=150, computer=computer)
    events = game_trace(game, seed=seed, computer=computer)[1:]
    clock, sensors, strip = ManualClock(), VirtualSensors(), RecordingStrip()
    controller = Controller(
        sensors=sensors,
        leds=strip,
        clock=clock,
        buttons=VirtualButtons(),
        profile=profile,
        computer=computer,
        opponent=FirstLegalOpponent() if computer else None,
        tracker=tracker,
    )
    controller.step()
    per_event: list[float] = []
    per_turn: list[float] = []
    cpu: list[float] = []
    perf, thread = time.perf_counter, time.thread_time

    def step() -> float:
        before = len(controller.game.history)
        start, start_cpu = perf(), thread()
        controller.step()
        spent = perf() - start
        cpu.append(thread() - start_cpu)
        if len(controller.game.history) != before:
            per_turn.append(spent)
        return spent

    for event in events:
        t = event["t"]
        controller.run_until(t, step=lambda: per_event.append(step()))
        if "on" in event:
            sensors.close_switch(event["on"])
        elif "off" in event:
            sensors.open_switch(event["off"])
        elif "snapshot" in event:
            sensors.set(event["snapshot"])
        per_event.append(step())
    # the last turn is read once its switches have been quiet: not timed, only waited for
    controller.run_until(events[-1]["t"] + 10.0, step=controller.step)
    if controller.game.record != game.record:
        # Timed all the same: another tracker under test may read a game differently.
        print(f"  note: {profile} seed {seed} ({computer or 'two players'}) did not replay to its game's record")
    return per_event, cpu, per_turn


def replay_seconds(lines: list[str], tracker: TrackerFactory) -> tuple[float, float]:
    """Wall and CPU seconds of one replay (CPU stays meaningful on a busy shared machine)."""
    start, start_cpu = time.perf_counter(), time.thread_time()
    out, err = io.StringIO(), io.StringIO()
    code = replay.run(lines, out, err, as_json=True, tracker=tracker)
    spent, cpu = time.perf_counter() - start, time.thread_time() - start_cpu
    assert code == 0, err.getvalue()
    return spent, cpu


def peak_memory(lines: list[str], tracker: TrackerFactory) -> tuple[list[int], int]:
    """Bytes allocated at the peak of each event step of one replay, and the peak of the whole replay,
    each above what was held before it (``tracemalloc``; the replay runs several times slower)."""
    r = replay.Replay(replay.parse_header(json.loads(lines[0])), tracker=tracker)
    events = [replay.parse_event(json.loads(line), n) for n, line in enumerate(lines[1:], start=2)]
    per_step: list[int] = []
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        for number, event in enumerate(events, start=2):
            held = tracemalloc.get_traced_memory()[0]
            tracemalloc.reset_peak()
            r.feed(event, number)
            per_step.append(tracemalloc.get_traced_memory()[1] - held)
        r.finish()
        whole = tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
    return per_step, whole


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=12, help="random games per mode (default 12)")
    parser.add_argument("--tracker", default=heldout.DEFAULT_TRACKER, help="MODULE:CALLABLE that builds the tracker")
    args = parser.parse_args()
    try:
        tracker = heldout.load_tracker(args.tracker)
    except ValueError as exc:
        parser.error(str(exc))
    print(f"tracker: {args.tracker}")

    events: list[float] = []
    cpu: list[float] = []
    turns: list[float] = []
    for seed in range(args.games):
        for profile, computer in (("standard", None), ("standard", "black"), ("lasker", None), ("twelve", "white")):
            e, c, t = time_events(profile, seed, computer, tracker)
            events += e
            cpu += c
            turns += t
    ms = 1000
    rows: list[dict[str, object]] = []

    def row(what: str, median: str, spread: str, n: object) -> None:
        rows.append({"measure, tracker": f"{what}, {args.tracker}", "median": median, "p99 / max": spread, "n": n})

    def times(values: list[float]) -> tuple[str, str]:
        median, p99, top = statistics.median(values) * ms, percentile(values, 99) * ms, max(values) * ms
        return f"{median:.3f} ms", f"{p99:.3f} / {top:.3f} ms"

    print(f"steps timed: {len(events)} (sensor events and settle/decision deadlines), turns recorded: {len(turns)}")
    print(
        f"one event + LED frame, wall: median {statistics.median(events) * ms:.3f} ms, "
        f"p99 {percentile(events, 99) * ms:.3f} ms, max {max(events) * ms:.3f} ms  (target p99 < 2 ms)"
    )
    print(
        f"one event + LED frame, CPU of the thread: median {statistics.median(cpu) * ms:.3f} ms, "
        f"p99 {percentile(cpu, 99) * ms:.3f} ms, max {max(cpu) * ms:.3f} ms"
    )
    row("one event + LED frame, wall", *times(events), len(events))
    row("one event + LED frame, CPU of the thread", *times(cpu), len(cpu))
    if turns:
        print(
            f"a step that records a turn: median {statistics.median(turns) * ms:.3f} ms, "
            f"p99 {percentile(turns, 99) * ms:.3f} ms"
        )
        row("a step that records a turn, wall", *times(turns), len(turns))
    else:
        print("a step that records a turn: none recorded")

    for seed in range(50):
        game = random_game("standard", random.Random(seed), max_turns=150)
        if len(game.history) == 150:
            break
    for label, think in (("quick players", (0.4, 2.0)), ("slow thinkers", (5.0, 11.0))):
        trace = game_trace(game, seed=seed, think=think)
        lines = [json.dumps(e) for e in trace]
        timed = [replay_seconds(lines, tracker) for _ in range(5)]
        runs = [wall for wall, _ in timed]
        cpu_runs = [c for _, c in timed]
        played = trace[-1]["t"]
        print(
            f"replay of a 150-turn game, {label} ({len(lines)} trace lines, {played / 60:.1f} minutes of play): "
            f"median {statistics.median(runs) * 1000:.0f} ms, max {max(runs) * 1000:.0f} ms over {len(runs)} runs; "
            f"CPU median {statistics.median(cpu_runs) * 1000:.0f} ms"
        )
        row(
            f"replay of a 150-turn game, {label} ({played / 60:.1f} minutes of play), CPU",
            f"{statistics.median(cpu_runs) * 1000:.0f} ms",
            f"max {max(cpu_runs) * 1000:.0f} ms (wall: median {statistics.median(runs) * 1000:.0f} ms)",
            len(cpu_runs),
        )
    trace = game_trace(game, seed=seed)
    per_step, whole = peak_memory([json.dumps(e) for e in trace], tracker)
    kib = 1024
    print(
        f"memory of one event step (150-turn game, {len(per_step)} events): peak above what was held "
        f"median {statistics.median(per_step) / kib:.1f} KiB, p99 {percentile(per_step, 99) / kib:.1f} KiB, "
        f"max {max(per_step) / kib:.1f} KiB; the whole replay's peak {whole / kib:.0f} KiB"
    )
    row(
        "memory of one event step above what was held (150-turn game)",
        f"{statistics.median(per_step) / kib:.1f} KiB",
        f"{percentile(per_step, 99) / kib:.1f} / {max(per_step) / kib:.1f} KiB "
        f"(the whole replay: {whole / kib:.0f} KiB)",
        len(per_step),
    )
    record(
        "tracker",
        "Tracker speed and memory (bench/tracker.py)",
        ["measure, tracker", "median", "p99 / max", "n"],
        rows,
        notes=f"The controller over virtual ends, messy traces of {args.games} random games per mode "
        f"(standard, against the computer, lasker, twelve); this machine ({platform.machine()}). "
        "Targets: one event + LED frame p99 < 2 ms; a 150-turn replay well under 1 s.",
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
