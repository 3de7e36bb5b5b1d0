"""The benches' result tables: ``bench/results/NAME.md``, one per bench, written by the bench.

A bench calls ``record(NAME, title, columns, rows)`` at the end of a run. Each row is one
setting the bench measured (its first column, e.g. a level or a command line); a new run
of a setting replaces that setting's row and keeps the others, so a table collects every
setting measured and shows the newest figures of each. Every row carries the commit it was
measured at and the date. The rows are also kept as JSON in a comment at the end of the
file, which is what the next run reads back: nobody edits these files by hand.

``MORRIS_PI_BENCH_RESULTS`` names another directory (the tests point it at a temporary
one, so that a test run of a bench leaves the committed tables alone).
"""

from __future__ import annotations

import datetime
import json
import os
import platform
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DIR = ROOT / "bench" / "results"
#: The held-out table of ``bench/soak.py`` and ``bench/second_hands.py --measure``, rows of
#: ``morris_pi.traces.heldout.Cell`` (``--table`` names another; ``MORRIS_PI_BENCH_RESULTS`` does not move it).
HELDOUT_TABLE = DEFAULT_DIR / "tracker-heldout.md"
_ROWS = "<!-- rows:"


def results_dir() -> Path:
    """Where the tables are written (``MORRIS_PI_BENCH_RESULTS`` or ``bench/results``)."""
    override = os.environ.get("MORRIS_PI_BENCH_RESULTS")
    return Path(override) if override else DEFAULT_DIR


def commit() -> str:
    """The short commit the code was measured at (``+`` when the tree had changes), or ``?``."""
    try:
        head = subprocess.run(
            ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no", "--", "morris_pi", "bench"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "?"
    return head + ("+" if dirty else "")


def _read_rows(path: Path) -> list[dict[str, str]]:
    if not path.exists():
        return []
    text = path.read_text(encoding="utf-8")
    start = text.rfind(_ROWS)
    if start < 0:
        return []
    end = text.index("-->", start)
    rows = json.loads(text[start + len(_ROWS) : end])
    return [dict(r) for r in rows]


def _cell(value: object) -> str:
    return str(value).replace("|", "\\|").replace("\n", " ")


def record(
    name: str,
    title: str,
    columns: Sequence[str],
    rows: Sequence[Mapping[str, object]],
    notes: str = "",
) -> Path:
    """Merge ``rows`` into the table ``NAME.md`` (a row replaces the row of the same first column).

    ``columns`` are the bench's own; ``commit``, ``date`` and ``python`` are added. ``notes``
    (Markdown) goes under the title: what is measured and how to read it.
    """
    directory = results_dir()
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{name}.md"
    stamp = {
        "commit": commit(),
        "date": datetime.date.today().isoformat(),
        "python": platform.python_version(),
    }
    merged = _read_rows(path)
    key = columns[0]
    for row in rows:
        new = {c: _cell(row.get(c, "")) for c in columns} | stamp
        for i, old in enumerate(merged):
            if old.get(key) == new[key]:
                merged[i] = new
                break
        else:
            merged.append(new)
    every = [*columns, *stamp]
    lines = [
        f"# {title}",
        "",
        f"Written by `bench/{name}.py`; a new run of a setting replaces its row. Do not edit by hand.",
        "",
    ]
    if notes:
        lines += [notes.strip(), ""]
    lines.append("| " + " | ".join(every) + " |")
    lines.append("|" + "|".join("---" for _ in every) + "|")
    for row in merged:
        lines.append("| " + " | ".join(row.get(c, "") for c in every) + " |")
    lines += ["", f"{_ROWS} {json.dumps(merged)} -->", ""]
    tmp = path.with_suffix(".md.tmp")
    tmp.write_text("\n".join(lines), encoding="utf-8")
    tmp.replace(path)
    return path
