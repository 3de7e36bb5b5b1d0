"""Traces on disk: ``NAME.jsonl`` for ``morris-pi replay`` and ``NAME.expected.json`` beside it.

The replay header takes no extra keys, so the expected record lives in the sidecar. A trace
made elsewhere may instead carry ``"expected": {"record": ..., "outcome": ...}`` (or just
``"record"``) in its header; ``expectation`` strips that before the trace is replayed.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import NotRequired, TypedDict, TypeGuard

from morris_pi import replay

from .playing import PhysicalTrace


class Expectation(TypedDict):
    """What replay must end with: the exact record, and the outcome when one is given.

    A sidecar holds more (profile, mode, seed, target, mess); only these two are checked.
    """

    record: str
    outcome: NotRequired[dict[str, str | None] | None]


class ReplayRow(TypedDict):
    """One line of ``morris-pi replay --json`` (``Snapshot.to_dict``)."""

    t: float
    record: str
    turn: str
    computer: str | None
    leds: dict[str, str]
    problems: list[dict[str, object]]
    outcome: dict[str, str | None] | None


def _is_expectation(data: object) -> TypeGuard[Expectation]:
    return isinstance(data, dict) and isinstance(data.get("record"), str)


def write(trace: PhysicalTrace, folder: Path, name: str) -> Path:
    """Write the trace and its sidecar; returns the trace's path."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.jsonl"
    path.write_text("".join(line + "\n" for line in trace.lines()), encoding="utf-8")
    sidecar = folder / f"{name}.expected.json"
    sidecar.write_text(json.dumps(trace.expected(), indent=1) + "\n", encoding="utf-8")
    return path


def expectation(path: Path) -> tuple[list[str], Expectation | None, str]:
    """A trace's lines ready for replay, its expectation (``record``, maybe ``outcome``), and where
    that came from; the expectation is ``None`` when neither a sidecar nor the header holds one.

    A sidecar that is not valid JSON, has no ``record`` or a malformed ``taken_back`` (pairs of
    how many turns came before and the turn) is a ``ValueError`` naming the file.
    """
    lines = path.read_text(encoding="utf-8").splitlines()
    sidecar = path.with_name(path.name[: -len(".jsonl")] + ".expected.json")
    if sidecar.exists():
        try:
            data = json.loads(sidecar.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise ValueError(f"{sidecar}: not valid JSON: {exc.msg} (line {exc.lineno})") from None
        if not _is_expectation(data):
            raise ValueError(f'{sidecar}: needs a "record" (the game\'s record as text)')
        taken = data.get("taken_back", [])
        if not isinstance(taken, list) or not all(
            isinstance(x, list) and len(x) == 2 and isinstance(x[0], int) and x[0] >= 0 and isinstance(x[1], str)
            for x in taken
        ):
            raise ValueError(f'{sidecar}: "taken_back" needs [turns before, "turn"] pairs, got {taken!r}')
        return lines, data, str(sidecar)
    first = next((n for n, line in enumerate(lines) if line.strip()), None)
    if first is not None:
        try:
            header = json.loads(lines[first])
        except json.JSONDecodeError:
            return lines, None, ""
        if isinstance(header, dict) and "t" not in header and ("expected" in header or "record" in header):
            found = header.pop("expected", None) or {"record": header.pop("record")}
            header.pop("record", None)
            if not _is_expectation(found):
                raise ValueError(f'{path}: line {first + 1}: "expected" needs a "record"')
            lines[first] = json.dumps(header)
            return lines, found, f"{path.name} header"
    return lines, None, ""


def replay_lines(lines: list[str]) -> tuple[int, list[ReplayRow], str]:
    """Run lines through the same function as ``morris-pi replay --json``."""
    out, err = io.StringIO(), io.StringIO()
    code = replay.run(lines, out, err, as_json=True)
    return code, [json.loads(line) for line in out.getvalue().splitlines()], err.getvalue()


def verdict(rows: list[ReplayRow], expected: Expectation) -> tuple[bool, str]:
    """Whether replay ended with exactly the expected record (and outcome, when given); why not."""
    want = expected["record"].split()
    got = rows[-1]["record"].split() if rows else []
    outcome = rows[-1]["outcome"] if rows else None
    if got != want:
        # zip stops at the shorter record: a record that is a prefix of the other differs just after it
        at = next((i for i, (a, b) in enumerate(zip(got, want, strict=False)) if a != b), min(len(got), len(want)))
        return False, (
            f"turn {at + 1}: expected {' '.join(want[at : at + 2]) or '(end)'!r}, "
            f"replay has {' '.join(got[at : at + 2]) or '(end)'!r}"
        )
    if "outcome" in expected and outcome != expected["outcome"]:
        return False, f"outcome: expected {expected['outcome']}, replay has {outcome}"
    return True, ""


def wrong_turn_shown(rows: list[ReplayRow], expected: Expectation) -> str | None:
    """The first record replay showed that holds a turn nobody played, else ``None``."""
    want = expected["record"].split()
    for row in rows:
        got = row["record"].split()
        if got != want[: len(got)]:
            return f"t={row['t']}: {' '.join(got[-2:])}"
    return None
