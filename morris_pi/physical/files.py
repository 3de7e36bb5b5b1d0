"""Traces on disk: ``NAME.jsonl`` for ``morris-pi replay`` and ``NAME.expected.json`` beside it.

The replay header takes no extra keys, so the expected record lives in the sidecar. A trace
made elsewhere may instead carry ``"expected": {"record": ..., "outcome": ...}`` (or just
``"record"``) in its header; ``expectation`` strips that before the trace is replayed.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

from .playing import PhysicalTrace


def write(trace: PhysicalTrace, folder: Path, name: str) -> Path:
    """Write the trace and its sidecar; returns the trace's path."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.jsonl"
    path.write_text("".join(line + "\n" for line in trace.lines()), encoding="utf-8")
    sidecar = folder / f"{name}.expected.json"
    sidecar.write_text(json.dumps(trace.expected(), indent=1) + "\n", encoding="utf-8")
    return path


def expectation(path: Path) -> tuple[list[str], dict | None, str]:
    """A trace's lines ready for replay, its expectation (``record``, maybe ``outcome``), and where
    that came from; the expectation is ``None`` when neither a sidecar nor the header holds one.

    A sidecar that is not valid JSON or has no ``record`` is a ``ValueError`` naming the file.
    """
    lines = path.read_text(encoding="utf-8").splitlines()
    sidecar = path.with_name(path.name[: -len(".jsonl")] + ".expected.json")
    if sidecar.exists():
        try:
            data = json.loads(sidecar.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise ValueError(f"{sidecar}: not valid JSON: {exc.msg} (line {exc.lineno})") from None
        if not isinstance(data, dict) or not isinstance(data.get("record"), str):
            raise ValueError(f'{sidecar}: needs a "record" (the game\'s record as text)')
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
            if not isinstance(found, dict) or not isinstance(found.get("record"), str):
                raise ValueError(f'{path}: line {first + 1}: "expected" needs a "record"')
            lines[first] = json.dumps(header)
            return lines, found, f"{path.name} header"
    return lines, None, ""


def replay_lines(lines: list[str]) -> tuple[int, list[dict], str]:
    """Run lines through the same function as ``morris-pi replay --json``."""
    from morris_pi import replay

    out, err = io.StringIO(), io.StringIO()
    code = replay.run(lines, out, err, as_json=True)
    return code, [json.loads(line) for line in out.getvalue().splitlines()], err.getvalue()


def verdict(rows: list[dict], expected: dict) -> tuple[bool, str]:
    """Whether replay ended with exactly the expected record (and outcome, when given); why not."""
    final = rows[-1] if rows else {"record": "", "outcome": None}
    want = expected["record"].split()
    got = final["record"].split()
    if got != want:
        at = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
        return False, (
            f"turn {at + 1}: expected {' '.join(want[at : at + 2]) or '(end)'!r}, "
            f"replay has {' '.join(got[at : at + 2]) or '(end)'!r}"
        )
    if "outcome" in expected and final["outcome"] != expected["outcome"]:
        return False, f"outcome: expected {expected['outcome']}, replay has {final['outcome']}"
    return True, ""


def wrong_turn_shown(rows: list[dict], expected: dict) -> str | None:
    """The first record replay showed that holds a turn nobody played, else ``None``."""
    want = expected["record"].split()
    for row in rows:
        got = row["record"].split()
        if got != want[: len(got)]:
            return f"t={row['t']}: {' '.join(got[-2:])}"
    return None
