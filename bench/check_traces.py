"""Replay every trace in a folder and count the exact records.

    python bench/check_traces.py DIR [--verbose] [--tracker MODULE:CALLABLE] [--no-table]

Each ``*.jsonl`` trace in DIR (not its subfolders) whose expected record is known -- from a
``NAME.expected.json`` sidecar (``{"record": ..., "outcome": ...}``, outcome optional) or an
``"expected"``/``"record"`` key in its header, which is taken out before the replay -- runs
through ``morris_pi.replay.run``, the function behind ``morris-pi replay --json``. Only an
exact record (and the outcome, where given) counts. Traces without an expectation are listed
and skipped. ``--tracker`` replays with another tracker of the same public API (default
``morris_pi.tracker:Tracker``), e.g. over the regression corpus in ``tests/data/traces``.
The counts go into ``bench/results/check_traces.md``, a row per folder and tracker (not with
``--no-table``). Exit status 1 when any trace did not match or could not be read.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.results import record
from morris_pi.traces import heldout
from morris_pi.traces.physical.files import expectation, verdict, wrong_turn_shown


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", help="folder of *.jsonl traces")
    parser.add_argument("--verbose", action="store_true", help="a line for every trace, not only the failures")
    parser.add_argument("--tracker", default=heldout.DEFAULT_TRACKER, help="MODULE:CALLABLE that builds the tracker")
    parser.add_argument("--no-table", action="store_true", help="write no row into bench/results/check_traces.md")
    args = parser.parse_args(argv)
    try:
        heldout.load_tracker(args.tracker)
    except ValueError as exc:
        parser.error(str(exc))
    folder = Path(args.folder)
    if not folder.is_dir():
        print(f"check_traces: {folder} is not a folder", file=sys.stderr)
        return 1
    traces = sorted(folder.glob("*.jsonl"))
    exact = checked = bad = 0
    skipped: list[str] = []
    for path in traces:
        try:
            lines, expected, source = expectation(path)
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            print(f"  {path.name}: cannot read: {exc}")
            bad += 1
            continue
        if expected is None:
            skipped.append(path.name)
            continue
        checked += 1
        code, rows, err = heldout.replay_rows(lines, args.tracker)
        ok, why = verdict(rows, expected)
        if code != 0:
            ok, why = False, "replay refused lines: " + "; ".join(err.strip().splitlines()[:3])
        exact += ok
        shown = wrong_turn_shown(rows, expected)
        if not ok or args.verbose:
            note = f" (a turn nobody played was shown at {shown})" if shown else ""
            print(f"  {path.name}: {'exact' if ok else 'MISMATCH ' + why}{note}  [expected from {source}]")
    print(
        f"{len(traces)} traces in {folder}: {checked} with an expected record, {exact} replayed to it exactly"
        + (f", {len(skipped)} without one (skipped)" if skipped else "")
        + (f", {bad} unreadable" if bad else "")
    )
    for name in skipped:
        print(f"  skipped (no sidecar, no expected record in the header): {name}")
    if not args.no_table:
        row = {
            "folder, tracker": f"{folder}, {args.tracker}",
            "traces": len(traces),
            "with an expected record": checked,
            "exact": exact,
            "not exact": checked - exact,
            "unreadable": bad,
            "without an expected record": len(skipped),
        }
        record(
            "check_traces",
            "Traces replayed against their expected records (bench/check_traces.py)",
            list(row),
            [row],
            notes="Each trace of the folder with an expected record (its sidecar or its header) replayed "
            "through `morris_pi.replay.run`; exact: the whole record, and the outcome where given.",
        )
    return 0 if exact == checked and not bad else 1


if __name__ == "__main__":
    raise SystemExit(main())
