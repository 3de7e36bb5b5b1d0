"""Fit the story decoder's model (``morris_pi/tracker/model.py``) to games whose records are known.

    python bench/fit_tracker_model.py [--gen second physical corpus] [--seeds 0-9] [--games 20]
                                      [--mess 0.25] [--rounds 2] [--jobs 2]

Each game's switch events are read by the ``StoryDecoder`` held to the game's own record
(``line``): only the stories that follow the true turns are ranked, so every change is given the
role the cheapest *true* story gives it. At every commit the parts of that story that the commit
explains (``stories.explain``) are collected: the carries, removals, pauses and overlaps of the
committed turns, and the noise excursions of the changes the commit drops. Each duration's
median and spread are then measured (on durations seen exactly, not those bounded by a scan),
and each noise role's prior is ``-log`` of how often it happened per turn. With the new numbers
the games are read again (``--rounds``), since the roles given depend on the model.

Sources: the second generator (``morris_pi.traces.second_hands``), the physical one
(``morris_pi.traces.physical``) and ``corpus``, the frozen two-player traces in ``tests/data/traces``.
Fit on seeds 0 to 9 only; held-out seeds judge the result (``bench/shadow_tracker.py --seed random``).
It prints the fitted table as ``Model(...)`` arguments, to be rounded into ``model.py``.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import json
import math
import statistics
import sys
from collections import Counter, defaultdict
from multiprocessing import Pool
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from shadow_tracker import INDEX, play, trace_of  # noqa: E402

from morris_pi.rules import Turn  # noqa: E402
from morris_pi.tracker.decoder import Branch, StoryDecoder  # noqa: E402
from morris_pi.tracker.evidence import Evidence  # noqa: E402
from morris_pi.tracker.model import DEFAULT_MODEL, Duration, Model  # noqa: E402
from morris_pi.tracker.stories import explain  # noqa: E402
from morris_pi.tracker.story import Story  # noqa: E402

#: Durations fitted as log-normal, by the role that prices them.
DURATIONS = ("carry", "remove", "early", "touch", "drop", "nudge", "knock", "fumble", "flicker")
#: Roles that are noise: their prior is how rarely they happen per turn.
NOISE = ("touch", "drop", "nudge", "knock", "fumble", "flicker")
#: Spreads below this are not believed (few samples, or a generator's fixed timing).
MIN_SIGMA = 0.25


class _Fitting(StoryDecoder):
    """A decoder held to the record that keeps the parts of what it commits."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.parts: list[tuple[str, float, bool]] = []
        self.turns = 0

    def _commit(
        self, branch: Branch, best: Story, agreed: int, evidence: Evidence, now: float, *, scaled: bool = False
    ) -> bool:
        past = evidence.until(now - 0.3)
        parts = explain(past, best, self.model, base=branch.game.position)
        total = [len(p.changes) for p in evidence.points]
        done = super()._commit(branch, best, agreed, evidence, now, scaled=scaled)
        after = [len(p.changes) for p in branch.log.evidence(now).points]
        dropped = {name: total[i] - after[i] for name, i in INDEX.items()}
        self.turns += agreed
        for part in parts:
            if part.where.startswith("turn "):
                if int(part.where.split()[1]) > agreed:
                    continue
            elif "#" in part.where:
                name, a = part.where.split("#")
                if int(a) >= dropped[name] or "unfinished" in part.role:
                    continue
            else:
                continue
            self.parts.append((part.role, part.lo, part.hi - part.lo < 1e-3))
        return done


def fit_game(job: tuple[str, int, int, float, Model]) -> tuple[list[tuple[str, float, bool]], int, int, int]:
    """One game read along its record: its parts, turns committed, true turns, changes lost."""
    gen, seed, n, mess, model = job
    if gen == "corpus":
        events, truth, profile = _corpus()[n]
    else:
        events, truth, profile = trace_of(gen, seed, n, mess)
    line = [Turn.parse(w) for w in truth.split()]
    decoder = _Fitting(profile=profile, model=model, line=line)
    lost = play(decoder, events)
    return decoder.parts, decoder.turns, len(line), lost


@functools.cache
def _corpus() -> list[tuple[list[dict], str, str]]:
    """The frozen two-player traces of the regression corpus, with their records."""
    found: list[tuple[list[dict], str, str]] = []
    for path in sorted((ROOT / "tests" / "data" / "traces").glob("*.jsonl")):
        rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
        head = rows[0]
        side = path.with_name(path.name[: -len(".jsonl")] + ".expected.json")
        if head.get("white") != "human" or head.get("black") != "human" or not side.exists() or head.get("fen"):
            continue
        if any("button" in r for r in rows[1:]):
            continue
        record = json.loads(side.read_text()).get("record", "")
        if record:
            found.append((rows[1:], record, str(head.get("profile", "standard"))))
    return found


def lognormal(samples: list[float]) -> tuple[float, float]:
    logs = [math.log(max(x, 1e-3)) for x in samples]
    return math.exp(statistics.fmean(logs)), max(statistics.pstdev(logs), MIN_SIGMA)


def refit(model: Model, parts: list[tuple[str, float, bool]], turns: int, changes_lost: int) -> Model:
    by_role: dict[str, list[float]] = defaultdict(list)
    counts: Counter[str] = Counter()
    for role, seconds, exact in parts:
        counts[role] += 1
        if exact:
            by_role[role].append(seconds)
    fields: dict[str, object] = {}
    for role in DURATIONS:
        if role == "early":
            samples = by_role["early"]
        else:
            samples = by_role[role]
        old = getattr(model, role)
        if len(samples) < 20:
            print(f"  {role}: {len(samples)} samples, kept as it was", file=sys.stderr)
            continue
        median, sigma = lognormal(samples)
        prior = old.prior
        if role in NOISE:
            prior = max(0.0, -math.log(max(counts[role], 1) / max(turns, 1)))
        elif role == "early":
            prior = max(0.0, -math.log(max(counts["early"], 1) / max(turns, 1)))
        fields[role] = Duration(round(median, 3), round(sigma, 2), round(prior, 2))
    removals = counts["remove"] + counts["taken_first"]
    if removals >= 20:
        fields["taken_first"] = round(max(0.0, -math.log(max(counts["taken_first"], 1) / removals)), 2)
    return dataclasses.replace(model, **fields)  # type: ignore[arg-type]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--gen", nargs="+", default=["second", "physical", "corpus"])
    parser.add_argument("--seeds", default="0-9", help="a range a-b, or a list a,b,c (0 to 9 only)")
    parser.add_argument("--games", type=int, default=20, help="games per seed and generator")
    parser.add_argument("--mess", type=float, default=0.25)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    try:
        if "-" in args.seeds:
            a, b = (int(x) for x in args.seeds.split("-"))
            seeds = list(range(a, b + 1))
        else:
            seeds = [int(x) for x in args.seeds.split(",")]
    except ValueError:
        parser.error(f"--seeds: a range a-b or a list a,b,c of whole numbers, got {args.seeds!r}")
    if any(not 0 <= s <= 9 for s in seeds):
        parser.error("the model is fitted on seeds 0 to 9 only: the others judge it")
    model = DEFAULT_MODEL
    for round_ in range(args.rounds):
        jobs: list[tuple[str, int, int, float, Model]] = []
        for gen in args.gen:
            if gen == "corpus":
                jobs += [("corpus", 0, n, args.mess, model) for n in range(len(_corpus()))]
            else:
                jobs += [(gen, s, n, args.mess, model) for s in seeds for n in range(args.games)]
        with Pool(args.jobs) as pool:
            results = pool.map(fit_game, jobs, chunksize=1)
        parts = [p for r in results for p in r[0]]
        turns = sum(r[1] for r in results)
        true_turns = sum(r[2] for r in results)
        lost = sum(r[3] for r in results)
        print(
            f"round {round_ + 1}: {len(jobs)} games, {turns} of {true_turns} turns read along the record,"
            f" {len(parts)} parts, {lost} changes lost",
            file=sys.stderr,
        )
        model = refit(model, parts, turns, lost)
    print(model)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
