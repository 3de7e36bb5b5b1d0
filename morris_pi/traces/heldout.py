"""A tracker measured on generated games: what ``bench/soak.py`` and ``bench/second_hands.py --measure`` share.

Every game is replayed through ``morris_pi.replay.run`` (what ``morris-pi replay --json`` runs)
with the tracker under test, and counted in one of three ways:

- **exact**: the last line holds the game's whole record and its outcome;
- **stop short**: the last record is a beginning of the truth and the board waits (a turn, or the
  result, not yet read): the players are told to look, nothing false is written;
- **wrong**: the last record holds a turn nobody played, or the game ends with another result.

Apart from that, a game counts as *shown wrong* when any line of the replay, not only the last,
held a turn nobody played. A seed is a number, or ``random``: one is drawn and printed, so a run
on games nobody tuned on can be repeated. Each run writes its rows into one generated table
(the benches' ``bench/results/tracker-heldout.md``); a row of the same generator, tracker, seed
and mess is replaced, every other row is kept.

>>> judge([{"record": "d6 a1", "outcome": None}], {"record": "d6 a1 f4"})
'short'
>>> judge([{"record": "d6 a4", "outcome": None}], {"record": "d6 a1 f4"})
'wrong'
>>> parse_seed("17")
17
"""

from __future__ import annotations

import datetime
import importlib
import io
import json
import secrets
import subprocess
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from morris_pi import replay
from morris_pi.core.controller import TrackerFactory

#: Today's tracker, the default of ``--tracker``.
DEFAULT_TRACKER = "morris_pi.tracker:Tracker"
#: The mess levels the held-out figures are reported at (probability of each kind where it can happen).
LEVELS = (0.05, 0.10, 0.25)
VERDICTS = ("exact", "short", "wrong")
#: Seeds drawn for ``random`` lie below this, and from ``TUNED_SEEDS`` up: seeds 0 to 9 are the
#: ones the readers were fitted and debugged on, so they are never drawn as held out.
SEED_RANGE = 1_000_000
TUNED_SEEDS = 10


def parse_seed(text: str) -> int:
    """A whole number, or ``random``: a fresh seed nobody has tuned on (print it to repeat the run)."""
    if text == "random":
        return TUNED_SEEDS + secrets.randbelow(SEED_RANGE - TUNED_SEEDS)
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"a seed is a whole number or 'random', got {text!r}") from None


@cache
def load_tracker(spec: str) -> TrackerFactory:
    """``MODULE:CALLABLE`` (e.g. ``morris_pi.tracker:Tracker``): what builds the tracker under test.

    >>> load_tracker(DEFAULT_TRACKER).__name__
    'Tracker'
    """
    module, sep, name = spec.partition(":")
    if not sep or not module or not name:
        raise ValueError(f"--tracker takes MODULE:CALLABLE, e.g. {DEFAULT_TRACKER}; got {spec!r}")
    try:
        found: object = importlib.import_module(module)
    except ImportError as exc:
        raise ValueError(f"--tracker {spec}: cannot import {module}: {exc}") from None
    for part in name.split("."):
        if not hasattr(found, part):
            raise ValueError(f"--tracker {spec}: {module} has no {name}")
        found = getattr(found, part)
    if not callable(found):
        raise ValueError(f"--tracker {spec}: {name} is not callable")
    return found


def replay_rows(lines: Iterable[str], tracker: str = DEFAULT_TRACKER) -> tuple[int, list[dict[str, Any]], str]:
    """Replay lines with the tracker ``MODULE:CALLABLE``: the exit code, the JSON rows, the errors."""
    out, err = io.StringIO(), io.StringIO()
    code = replay.run(list(lines), out, err, as_json=True, tracker=load_tracker(tracker))
    return code, [json.loads(line) for line in out.getvalue().splitlines()], err.getvalue()


def _prefix(got: list[str], want: list[str]) -> bool:
    return got == want[: len(got)]


def judge(rows: Sequence[Mapping[str, Any]], expected: Mapping[str, Any]) -> str:
    """``exact``, ``short`` (a beginning of the truth; the board waits) or ``wrong``, from the last row."""
    want = str(expected["record"]).split()
    last = rows[-1] if rows else {"record": "", "outcome": None}
    got = str(last["record"]).split()
    outcome = last.get("outcome")
    if got == want:
        if "outcome" not in expected or outcome == expected["outcome"]:
            return "exact"
        return "short" if outcome is None else "wrong"
    if _prefix(got, want) and outcome is None:
        return "short"
    return "wrong"


def shown_wrong(rows: Iterable[Mapping[str, Any]], expected: Mapping[str, Any]) -> str | None:
    """The first record any row showed that holds a turn nobody played, else ``None``.

    A turn made and taken back by hand (``taken_back``: how many turns came before it, and it)
    was played: a record that ends with it, where it was made, shows nothing wrong.

    >>> shown_wrong([{"t": 1.0, "record": "d6 a1"}], {"record": "d6 g7", "taken_back": [[1, "a1"]]})
    >>> shown_wrong([{"t": 1.0, "record": "d6 a1"}], {"record": "d6 g7"})
    't=1.0: d6 a1'
    """
    want = str(expected["record"]).split()
    taken = [(int(ply), str(turn)) for ply, turn in expected.get("taken_back", ())]
    for row in rows:
        got = str(row["record"]).split()
        if not _prefix(got, want) and not (got and (len(got) - 1, got[-1]) in taken and _prefix(got[:-1], want)):
            return f"t={row['t']}: {' '.join(got[-2:])}"
    return None


def where_wrong(rows: Sequence[Mapping[str, Any]], expected: Mapping[str, Any]) -> str:
    """Where the last record leaves the truth, for a report line."""
    want = str(expected["record"]).split()
    got = str(rows[-1]["record"]).split() if rows else []
    outcome = rows[-1].get("outcome") if rows else None
    if got == want:
        return f"the record is whole; the result: expected {expected.get('outcome')}, replay has {outcome}"
    if _prefix(got, want) and outcome is not None and outcome != expected.get("outcome"):
        return f"the game ended after turn {len(got)} of {len(want)}: {outcome}, expected {expected.get('outcome')}"
    at = next((i for i, (a, b) in enumerate(zip(got, want, strict=False)) if a != b), min(len(got), len(want)))
    return (
        f"turn {at + 1}: expected {' '.join(want[at : at + 2]) or '(end)'!r}, "
        f"replay has {' '.join(got[at : at + 2]) or '(end)'!r}"
    )


def run_all(work: Callable[[Any], dict[str, Any]], jobs: Sequence[Any], processes: int) -> Iterator[dict[str, Any]]:
    """``work`` over ``jobs`` in ``processes`` worker processes (in this one for 1), as they finish."""
    if processes <= 1:
        yield from map(work, jobs)
        return
    with Pool(processes) as pool:
        yield from pool.imap_unordered(work, jobs, chunksize=2)


@dataclass(frozen=True)
class Cell:
    """One row of the table: a generator's games at one seed and mess level, read by one tracker."""

    generator: str
    tracker: str
    seed: int
    mess: float
    games: int
    exact: int
    short: int
    wrong: int
    shown: int

    @classmethod
    def of(cls, generator: str, tracker: str, seed: int, mess: float, results: Sequence[Mapping[str, Any]]) -> Cell:
        count = {v: sum(r["verdict"] == v for r in results) for v in VERDICTS}
        shown = sum(bool(r["shown_wrong"]) for r in results)
        return cls(generator, tracker, seed, mess, len(results), count["exact"], count["short"], count["wrong"], shown)

    def line(self) -> str:
        return (
            f"{self.generator} {self.tracker} seed {self.seed}, mess {self.mess * 100:g} %: {self.games} games, "
            f"{self.exact} exact ({100 * self.exact / self.games:.1f} %), {self.short} stop short, "
            f"{self.wrong} wrong, {self.shown} showed a wrong turn at some moment"
        )

    def key(self) -> tuple[str, str, int, float]:
        return (self.generator, self.tracker, self.seed, self.mess)


HEADER = (
    "| generator | tracker | seed | mess | games | exact | stop short | wrong | shown wrong | exact % | run |",
    "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|",
)
TITLE = """# Tracker on held-out games

Generated by `bench/soak.py` and `bench/second_hands.py --measure` (`morris_pi.traces.heldout`); do not edit
by hand: a run replaces its own rows. *Stop short*: the record is a beginning of the true one and
the board waits. *Wrong*: the last record holds a turn nobody played (or another result). *Shown
wrong*: some line of the replay, not only the last, held a turn nobody played. *Mess*: the
probability of each kind of mess wherever it can happen. *Run*: the day (UTC) and the commit.
"""


def _commit() -> str:
    try:
        done = subprocess.run(
            # the checkout this module runs from (outside one, as an installed package: none)
            ["git", "-C", str(Path(__file__).resolve().parent), "rev-parse", "--short", "HEAD"],
            check=False,
            capture_output=True,
            text=True,
            timeout=10,
        )
    except (OSError, subprocess.SubprocessError):
        return "-"
    return done.stdout.strip() or "-"


def _row(cell: Cell, run: str) -> str:
    share = 100 * cell.exact / cell.games if cell.games else 0.0
    return (
        f"| {cell.generator} | `{cell.tracker}` | {cell.seed} | {cell.mess * 100:g}% | {cell.games} | {cell.exact} | "
        f"{cell.short} | {cell.wrong} | {cell.shown} | {share:.1f} | {run} |"
    )


def _key_of(row: str) -> tuple[str, str, int, float] | None:
    parts = [p.strip() for p in row.strip().strip("|").split("|")]
    if len(parts) != len(HEADER[0].strip("|").split("|")) or not parts[2].isdigit():
        return None
    return (parts[0], parts[1].strip("`"), int(parts[2]), round(float(parts[3].rstrip("%")) / 100, 4))


def write_table(cells: Iterable[Cell], path: Path) -> Path:
    """Put ``cells`` into the table at ``path``, replacing rows of the same key; returns the path."""
    rows: dict[tuple[str, str, int, float], str] = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            key = _key_of(line) if line.startswith("| ") and line not in HEADER else None
            if key is not None:
                rows[key] = line
    run = f"{datetime.datetime.now(datetime.UTC):%Y-%m-%d} {_commit()}"
    for cell in cells:
        rows[(cell.generator, cell.tracker, cell.seed, round(cell.mess, 4))] = _row(cell, run)
    ordered = sorted(rows.items(), key=lambda item: (item[0][0], item[0][1], item[0][3], item[0][2]))
    path.parent.mkdir(parents=True, exist_ok=True)
    text = TITLE + "\n" + "\n".join([*HEADER, *(line for _, line in ordered)]) + "\n"
    tmp = path.with_suffix(".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)
    return path
