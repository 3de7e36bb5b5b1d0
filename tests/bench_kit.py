"""A bench or dev script run as a person runs it: ``python bench/NAME.py ARGS`` from the repository.

The tests import no bench script: what a test calls as a function lives in the package, and a
bench's own command line is run in a process of its own, with this Python and the environment
of the test (``MORRIS_PI_BENCH_RESULTS`` included, so no committed table is written). The
scripts of ``scripts/`` written in Python are run the same way (``script``).
``tests/test_floors.py`` fails on a test that loads a bench or dev script by its path.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TESTS = Path(__file__).resolve().parent


def script(
    path: str, *args: object, importable: bool = False, timeout: float = 600
) -> subprocess.CompletedProcess[str]:
    """Run the repository's Python script at ``path`` (``bench/soak.py``, ``scripts/arm_check.py``) with
    ``args``; ``importable`` puts ``tests/`` on its import path (for a ``--tracker MODULE:CALLABLE``
    written in a test)."""
    env = dict(os.environ)
    if importable:
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(TESTS), env.get("PYTHONPATH", "")) if p)
    return subprocess.run(
        [sys.executable, str(ROOT / path), *map(str, args)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=timeout,
        check=False,
    )


def bench(name: str, *args: object, importable: bool = False, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """Run ``bench/NAME.py`` with ``args`` (as ``script``)."""
    return script(f"bench/{name}.py", *args, importable=importable, timeout=timeout)
