"""The story decoder in shadow: both generators' games read by ``StoryDecoder``, counted.

    python bench/shadow_tracker.py [--gen second|physical] [--seed N|random] [--games 100]
                                   [--mess 0.25] [--jobs 2] [--limit 120] [--show-wrong]
                                   [--beside-tracker] [--mode two-player|computer-white|computer-black]
    python bench/shadow_tracker.py --corpus [DIR] [--beside-tracker] ...

Each game's switch events go to ``morris_pi.tracker.decoder.StoryDecoder`` on the trace's
own clock (woken at every event and at every deadline it names). A game is *exact* when the
committed record is the game's record, *short* when it is a proper prefix of it (the board
waits), *wrong* when it holds a turn nobody played. ``--mode computer-white|computer-black``
(the physical generator) reads games against the computer: whenever the record has the computer
to move, the decoder is prompted with the turn ``morris-pi replay`` would prompt (the engine at
the header's level, or the first legal turn), and a hand carries it out. Takebacks and the set-up of
a position are not stories yet. A game that takes longer than ``--limit`` seconds of wall time
counts as *slow*. ``--corpus`` reads a frozen corpus instead of generating games (by default the
regression corpus, ``tests/data/traces``: each trace with its true record beside it).
Fit and debug on seeds 0 to 9 only; ``--seed random`` draws a fresh one and prints it.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import signal
import sys
import time
from collections import Counter
from collections.abc import Sequence
from multiprocessing import Pool
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.results import record  # noqa: E402
from morris_pi.commands.arguments import positive, probability  # noqa: E402
from morris_pi.commands.arguments import seed as seed_or_random  # noqa: E402
from morris_pi.core.ports import FirstLegalOpponent, Opponent  # noqa: E402
from morris_pi.replay import Header, make_opponent, parse_header  # noqa: E402
from morris_pi.rules import POINTS, Game, Turn  # noqa: E402
from morris_pi.traces import MODES  # noqa: E402
from morris_pi.traces.heldout import parse_seed  # noqa: E402
from morris_pi.traces.physical import KINDS  # noqa: E402
from morris_pi.tracker.decoder import StoryDecoder  # noqa: E402
from morris_pi.tracker.model import DEFAULT_MODEL, Duration, Model  # noqa: E402

PROFILES = ("standard", "move-this", "club", "no-flying", "lasker", "twelve")
INDEX = {p: i for i, p in enumerate(POINTS)}


def trace_of(gen: str, seed: int, n: int, mess: float) -> tuple[list[dict], str, str]:
    """The events, the true record and the profile of game ``n`` of a generator's seed."""
    rows, record, profile = whole_trace(gen, seed, n, mess)
    return rows[1:], record, profile


def whole_trace(
    gen: str, seed: int, n: int, mess: float, mode: str = "two-player", kinds: Sequence[str] | None = None
) -> tuple[list[dict], str, str]:
    """Game ``n`` of a generator's seed as replay-format rows (its header first), its record, its profile.

    ``mode`` (the physical generator only) puts the computer on one side; ``kinds`` are its kinds
    of mess (by default all but those made only when named, such as takebacks).
    """
    profile = PROFILES[n % len(PROFILES)]
    if mode != "two-player" and gen != "physical":
        raise ValueError(f"only the physical generator plays against the computer, not {gen!r}")
    if kinds is not None and gen != "physical":
        raise ValueError(f"only the physical generator takes kinds of mess, not {gen!r}")
    if gen == "second":
        from morris_pi.traces import second_hands

        lines, expected, _ = second_hands.make_trace(f"{seed}:{n}", profile, second_hands.mess_levels(mess, None, None))
        return lines, str(expected["record"]), profile
    from morris_pi.traces.physical import generate, noise

    trace = generate(profile, seed * 100_000 + n, mode=mode, mess=noise(mess, kinds))
    return [json.loads(line) for line in trace.lines()], str(trace.expected()["record"]), profile


def tracker_verdict(rows: list[dict], truth: str) -> str:
    """What today's ``Tracker`` makes of the same trace (through ``replay``, as ``morris-pi replay`` runs it)."""
    from morris_pi.traces.heldout import replay_rows

    _, out, _ = replay_rows(json.dumps(row) for row in rows)
    return verdict(str(out[-1]["record"]) if out else "", truth)


def load_model(path: str | None) -> Model:
    """The model in a JSON file of ``Model`` fields (durations as ``[median, sigma, prior]``), or the default.

    ``ValueError`` says what is wrong with the file, and where.
    """
    if not path:
        return DEFAULT_MODEL
    try:
        fields = json.loads(Path(path).read_text())
    except (OSError, ValueError) as exc:
        raise ValueError(f"{path}: {exc}") from None
    if not isinstance(fields, dict):
        raise ValueError(f"{path}: a JSON object of model fields is needed")
    known = {f.name: f for f in dataclasses.fields(Model)}
    values: dict[str, object] = {}
    for key, value in fields.items():
        if key not in known:
            raise ValueError(f"{path}: {key!r} is no field of the model (fields: {', '.join(known)})")
        durations = isinstance(getattr(DEFAULT_MODEL, key), Duration)
        if durations and not (
            isinstance(value, list) and len(value) == 3 and all(isinstance(x, int | float) for x in value)
        ):
            raise ValueError(f"{path}: {key} needs [median, sigma, prior], got {value!r}")
        if not durations and not isinstance(value, int | float):
            raise ValueError(f"{path}: {key} needs a number, got {value!r}")
        values[key] = Duration(*value) if durations else float(value)
    return dataclasses.replace(DEFAULT_MODEL, **values)  # type: ignore[arg-type]


def play(
    decoder: StoryDecoder,
    events: list[dict],
    wakes: list[float] | None = None,
    opponent: Opponent | None = None,
) -> int:
    """Feed a trace's events to ``decoder`` on the trace's own clock, waking it at every deadline it
    names, and ten seconds past the end; returns how many changes only a snapshot showed.

    ``wakes`` collects the CPU seconds of each wake (each ``tick``): what the board's loop waits on.
    ``opponent`` is the computer's player (``replay.make_opponent``), asked in every reading the
    decoder believes that has it to move (by default the first legal turn, as replay plays
    without a level).
    """
    opponent = opponent or FirstLegalOpponent()
    occupied = 0
    lost = 0

    def tick(t: float) -> None:
        started = time.process_time()
        decoder.tick(t)
        for game in decoder.asking:
            decoder.prompt(answer(opponent, game), game)
        if wakes is not None:
            wakes.append(time.process_time() - started)

    for event in events:
        t = float(event["t"])
        while decoder.next_deadline() <= t:
            tick(decoder.next_deadline())
        full = False
        if "on" in event:
            occupied |= 1 << INDEX[event["on"]]
        elif "off" in event:
            occupied &= ~(1 << INDEX[event["off"]])
        elif "snapshot" in event:
            new = sum(1 << INDEX[p] for p in event["snapshot"])
            lost += bin(new ^ occupied).count("1")
            occupied = new
            full = True
        else:
            tick(t)
            continue
        decoder.feed(occupied, t, full=full)
        tick(t)
    end = float(events[-1]["t"]) + 10.0 if events else 10.0
    while decoder.next_deadline() <= end:
        tick(decoder.next_deadline())
    tick(end)
    return lost


def answer(opponent: Opponent, game: Game) -> Turn:
    """The turn a computer player in step with the trace's clock chooses in ``game``."""
    opponent.start(game)
    turn = opponent.result()
    if turn is None:
        raise RuntimeError(f"the computer chose no turn after {game.record or 'the start'!r}")
    return turn


def read(events: list[dict], header: Header, model: Model = DEFAULT_MODEL) -> tuple[str, float, list[float]]:
    """The decoder's record of a trace, its CPU seconds, and the CPU seconds of each wake.

    The header's computer side is prompted as replay prompts it (``play``)."""
    decoder = StoryDecoder(profile=header.profile, model=model, computer=header.computer)
    wakes: list[float] = []
    started = time.process_time()
    play(decoder, events, wakes, make_opponent(header))
    return decoder.record, time.process_time() - started, wakes


def verdict(got: str, truth: str) -> str:
    if got == truth:
        return "exact"
    g, t = got.split(), truth.split()
    return "short" if g == t[: len(g)] else "wrong"


class _TooSlow(Exception):
    pass


def _too_slow(signum: int, frame: object) -> None:
    raise _TooSlow


#: The frozen regression corpus (``--corpus``): traces with their true records beside them.
CORPUS = ROOT / "tests" / "data" / "traces"


def corpus_trace(path: Path) -> tuple[list[dict], str, str]:
    """A frozen trace of the corpus as replay-format rows (its header first, ``{}`` when it has
    none), its record, its profile.

    ``ValueError`` (or ``OSError``) says what is wrong with the trace or its sidecar.
    """
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    if not rows or "t" in rows[0]:
        rows.insert(0, {})
    sidecar = path.with_name(path.name.removesuffix(".jsonl") + ".expected.json")
    expected = json.loads(sidecar.read_text())
    record = expected.get("record") if isinstance(expected, dict) else None
    if not isinstance(record, str):
        raise ValueError(f"{sidecar.name} has no record")
    return rows, record, parse_header(rows[0]).profile


def kinds_of(text: str) -> list[str]:
    """``--kinds``: comma-separated kinds of the physical generator's mess.

    >>> kinds_of("takeback, lost")
    ['takeback', 'lost']
    """
    kinds = [k.strip() for k in text.split(",") if k.strip()]
    unknown = [k for k in kinds if k not in KINDS]
    if unknown or not kinds:
        raise argparse.ArgumentTypeError(
            f"unknown kind(s) {', '.join(unknown or [repr(text)])}; kinds are {', '.join(KINDS)}"
        )
    return kinds


Source = tuple[str, int, int, float, str, tuple[str, ...] | None]


def run_one(job: tuple[Source | str, float, str | None, bool]) -> dict:
    source, limit, model, beside = job
    if isinstance(source, str):
        rows, truth, profile = corpus_trace(Path(source))
        name: str | int = Path(source).name.removesuffix(".jsonl")
    else:
        gen, seed, n, mess, mode, kinds = source
        rows, truth, profile = whole_trace(gen, seed, n, mess, mode, kinds)
        name = n
    events = rows[1:]
    signal.signal(signal.SIGALRM, _too_slow)
    signal.setitimer(signal.ITIMER_REAL, limit)
    wakes: list[float] = []
    try:
        got, cpu, wakes = read(events, parse_header(rows[0]), load_model(model))
        kind = verdict(got, truth)
    except _TooSlow:
        got, cpu, kind = "", limit, "slow"
    except Exception as exc:  # a crash is a finding, reported with the game
        got, cpu, kind = f"{type(exc).__name__}: {exc}", 0.0, "crash"
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    tracker = tracker_verdict(rows, truth) if beside else ""
    return {
        "game": name,
        "profile": profile,
        "kind": kind,
        "got": got,
        "truth": truth,
        "cpu": cpu,
        "wakes": wakes,
        "tracker": tracker,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--gen", choices=("second", "physical"), default="second")
    parser.add_argument("--seed", type=seed_or_random, default="0", help="a number, or 'random' (printed)")
    parser.add_argument("--games", type=positive, default=60)
    parser.add_argument("--mess", type=probability, default=0.25)
    parser.add_argument("--mode", choices=MODES, default="two-player", help="the computer's side (physical only)")
    parser.add_argument(
        "--kinds",
        type=kinds_of,
        help=f"comma-separated kinds of mess (physical only), of: {', '.join(KINDS)}; by default all but takeback",
    )
    parser.add_argument(
        "--corpus",
        nargs="?",
        type=Path,
        const=CORPUS,
        metavar="DIR",
        help="read the traces of a frozen corpus (each with its .expected.json) instead; by default tests/data/traces",
    )
    parser.add_argument("--jobs", type=positive, default=2)
    parser.add_argument("--show-wrong", action="store_true")
    parser.add_argument("--no-table", action="store_true", help="write no row into bench/results/shadow_tracker.md")
    parser.add_argument("--model", help="a JSON file of model fields to read with instead of the default")
    parser.add_argument("--limit", type=float, default=120.0, help="seconds per game before it counts as slow")
    parser.add_argument(
        "--beside-tracker", action="store_true", help="also replay each game with today's Tracker, and count it"
    )
    args = parser.parse_args(argv)
    try:
        load_model(args.model)
    except ValueError as exc:
        parser.error(f"--model: {exc}")
    if args.mode != "two-player" and args.corpus is not None:
        parser.error("--mode: a corpus's traces name the computer's side in their headers")
    if args.mode != "two-player" and args.gen != "physical":
        parser.error("--mode: only the physical generator plays against the computer")
    if args.kinds is not None and (args.gen != "physical" or args.corpus is not None):
        parser.error("--kinds: only the physical generator's games take kinds of mess")
    seed = parse_seed(args.seed)
    sources: list[Source | str]
    if args.corpus is not None:
        traces = sorted(args.corpus.glob("*.jsonl"))
        if not traces:
            parser.error(f"--corpus: no traces (*.jsonl) in {args.corpus}")
        for trace in traces:
            try:
                corpus_trace(trace)
            except (OSError, ValueError) as exc:  # a TraceError names the line
                parser.error(f"--corpus: {trace.name}: {exc}")
        sources = [str(trace) for trace in traces]
        where = args.corpus.resolve()
        run = f"corpus {where.relative_to(ROOT) if where.is_relative_to(ROOT) else where}"
        print(f"{run}, {len(sources)} traces", flush=True)
    else:
        kinds = None if args.kinds is None else tuple(args.kinds)
        sources = [(args.gen, seed, n, args.mess, args.mode, kinds) for n in range(args.games)]
        run = f"{args.gen} seed {seed} mess {args.mess:g}" + (f" {args.mode}" if args.mode != "two-player" else "")
        if kinds is not None:
            run += f" kinds {','.join(kinds)}"
        print(f"seed {seed}, generator {args.gen}, {args.mode}, mess {args.mess}, {args.games} games", flush=True)
    jobs = [(source, args.limit, args.model, args.beside_tracker) for source in sources]
    with Pool(args.jobs) as pool:
        results = pool.map(run_one, jobs, chunksize=1)
    counts = Counter(r["kind"] for r in results)
    tracker = Counter(r["tracker"] for r in results)
    beside = f"{tracker['exact']} / {tracker['short']} / {tracker['wrong']}" if args.beside_tracker else ""
    cpu = sorted(r["cpu"] for r in results)
    wakes = sorted(w for r in results for w in r["wakes"])
    p99 = 1000 * wakes[min(len(wakes) - 1, int(0.99 * len(wakes)))] if wakes else 0.0
    for r in results:
        if r["kind"] in ("wrong", "crash", "slow") or (args.show_wrong and r["kind"] != "exact"):
            also = f" (Tracker: {r['tracker']})" if args.beside_tracker else ""
            print(f"  {r['kind']:6} game {r['game']} {r['profile']}{also}: got {r['got'][-90:]!r}")
            print(f"         truth ...{r['truth'][len(r['got']) - 40 if r['kind'] != 'crash' else 0 :][:120]!r}")
    if not args.no_table:
        record(
            "shadow_tracker",
            "The story decoder in shadow (bench/shadow_tracker.py)",
            [
                "run",
                "games",
                "exact",
                "short",
                "wrong",
                "crash",
                "slow",
                "exact %",
                "CPU s per game, median",
                "max",
                "p99 ms per wake",
                "Tracker exact / short / wrong",
            ],
            [
                {
                    "run": run + (f" model {args.model}" if args.model else ""),
                    "games": len(results),
                    "exact": counts["exact"],
                    "short": counts["short"],
                    "wrong": counts["wrong"],
                    "crash": counts["crash"],
                    "slow": counts["slow"],
                    "exact %": f"{100 * counts['exact'] / max(len(results), 1):.1f}",
                    "CPU s per game, median": f"{cpu[len(cpu) // 2]:.2f}",
                    "max": f"{cpu[-1]:.2f}",
                    "p99 ms per wake": f"{p99:.1f}",
                    "Tracker exact / short / wrong": beside,
                }
            ],
            notes=(
                "Games between two people (or against the computer, its side named), read by `StoryDecoder` alone on"
                " the trace's own clock, prompted as replay prompts. *Short*: the record"
                " is a beginning of the true one (the board waits); *wrong*: it holds a turn nobody played; *slow*:"
                " over `--limit` seconds of wall time. Seeds 0 to 9 are the ones the model was set on; other seeds"
                " are held out. With `--beside-tracker` the same traces are replayed by today's `Tracker` too."
                " *p99 ms per wake*: the CPU time of a call to `tick` (a reading or a deadline), the 99th"
                " percentile over every wake of the run, on this machine."
            ),
        )
    print(
        f"exact {counts['exact']}, short {counts['short']}, wrong {counts['wrong']}, crash {counts['crash']},"
        f" slow {counts['slow']}"
        f" of {len(results)}; cpu per game median {cpu[len(cpu) // 2]:.2f} s, max {cpu[-1]:.2f} s;"
        f" {len(wakes)} wakes, p99 {p99:.1f} ms, max {1000 * (wakes[-1] if wakes else 0.0):.0f} ms"
        + (f"; Tracker exact / short / wrong {beside}" if beside else "")
    )
    slowest = sorted(results, key=lambda r: -r["cpu"])[:3]
    print("slowest games: " + ", ".join(f"{r['game']} ({r['cpu']:.1f} s)" for r in slowest))
    return 1 if counts["wrong"] or counts["crash"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
