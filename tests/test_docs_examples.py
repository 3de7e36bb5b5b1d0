"""The command output shown in the README and docs/ is what the commands print today."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("make_examples", ROOT / "docs" / "make_examples.py")
make_examples = importlib.util.module_from_spec(spec)
spec.loader.exec_module(make_examples)

DOCUMENTS = make_examples.documents()


def test_the_readme_and_the_engine_page_show_an_analyze_example():
    for name in ("README.md", "engine.md"):
        path = next(p for p in DOCUMENTS if p.name == name)
        assert make_examples.examples(path.read_text()), f"{name} lost its analyze example"


@pytest.mark.parametrize("path", [p for p in DOCUMENTS if make_examples.examples(p.read_text())], ids=lambda p: p.name)
def test_documented_output_matches_the_command(path):
    stale = make_examples.stale(path)
    assert not stale, (
        f"{path.name}: the documented output of {', '.join(c for c, _, _ in stale)} is out of date; "
        f"run: python docs/make_examples.py\nnow it prints:\n{stale[0][2]}"
    )


def test_only_time_and_nodes_may_differ():
    documented = '{"turn": "a7xf4", "score": -65,\n "nodes": 11033, "time": 0.281}\n'
    assert make_examples.normalised(documented) == make_examples.normalised(
        '{"turn": "a7xf4", "score": -65, "nodes": 9, "time": 3.0}'
    )
    assert make_examples.normalised(documented) != make_examples.normalised(
        '{"turn": "a7xf4", "score": -66, "nodes": 11033, "time": 0.281}'
    )
