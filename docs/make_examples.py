"""Write the output of the commands shown in the docs into the docs, from the code.

    python docs/make_examples.py           # rewrite the stale examples
    python docs/make_examples.py --check   # exit 1 and name them if any is stale

An example is a fenced code block in ``README.md`` or ``docs/*.md`` whose first
line is ``$ morris-pi analyze ...``; the lines after it are the command's
output as it prints it, wrapped for reading. ``tests/test_docs_examples.py``
runs every such command and fails when the documented output no longer
matches, apart from ``time`` and ``nodes``, which vary with the machine and
with small engine changes that leave the answer alone.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import shlex
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: Fields of ``analyze`` that differ from run to run or machine to machine.
VARYING = ("time", "nodes")
WIDTH = 92
_BLOCK = re.compile(r"^```[a-z]*\n(\$ (morris-pi analyze [^\n]*)\n)(.*?)^```", re.M | re.S)


def documents() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def run(command: str) -> str:
    """What ``command`` (``morris-pi ...``) prints on stdout, run in this process."""
    from morris_pi import cli

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = cli.main(shlex.split(command)[1:])
    if code != 0:
        raise RuntimeError(f"{command!r} exited with {code}")
    return out.getvalue()


def wrapped(output: str) -> str:
    """One JSON object per line, broken after commas so no line is longer than ``WIDTH``.

    >>> print(wrapped('{"a": 1, "b": [2, 3]}'), end="")
    {"a": 1, "b": [2, 3]}
    """
    lines = []
    for line in output.splitlines():
        pieces = re.split(r"(?<=,) (?=\")", line)  # between fields, never inside a list
        row = ""
        for piece in pieces:
            if row and len(row) + 1 + len(piece) > WIDTH:
                lines.append(row)
                row = " " + piece
            else:
                row = f"{row} {piece}" if row else piece
        lines.append(row)
    return "\n".join(lines) + "\n"


def normalised(text: str) -> list[object]:
    """The JSON objects of an output (wrapped or not), without the fields that vary."""
    out = []
    for chunk in re.split(r"\n(?=\{)", text.strip()):
        data = json.loads(chunk.replace("\n", " "))
        out.append({k: v for k, v in data.items() if k not in VARYING} if isinstance(data, dict) else data)
    return out


def examples(text: str) -> list[tuple[str, str, re.Match[str]]]:
    """The examples in a document: (command, documented output, where)."""
    return [(m.group(2), m.group(3), m) for m in _BLOCK.finditer(text)]


def stale(path: Path) -> list[tuple[str, str, str]]:
    """The examples of ``path`` whose documented output is out of date: (command, documented, actual)."""
    found = []
    for command, documented, _ in examples(path.read_text(encoding="utf-8")):
        actual = wrapped(run(command))
        if normalised(documented) != normalised(actual):
            found.append((command, documented, actual))
    return found


def refresh(path: Path) -> int:
    """Rewrite the out-of-date examples of ``path``; returns how many were rewritten."""
    text = path.read_text(encoding="utf-8")
    count = 0
    for command, documented, match in reversed(examples(text)):
        actual = wrapped(run(command))
        if normalised(documented) != normalised(actual):
            text = text[: match.start(3)] + actual + text[match.end(3) :]
            count += 1
    if count:
        path.write_text(text, encoding="utf-8")
    return count


def main(argv: list[str]) -> int:
    check = "--check" in argv
    bad = 0
    for path in documents():
        if check:
            for command, _, _ in stale(path):
                print(f"{path.relative_to(ROOT)}: the output of '{command}' is out of date")
                bad += 1
        else:
            n = refresh(path)
            if n:
                print(f"{path.relative_to(ROOT)}: rewrote {n} example(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main(sys.argv[1:]))
