"""The console script's own options."""

from __future__ import annotations

import contextlib
import importlib.metadata
import io

import pytest

import morris_pi
from morris_pi import cli


def test_version_prints_the_installed_version_and_exits_cleanly():
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit) as stop:
        cli.main(["--version"])
    assert stop.value.code == 0
    # one source: the package's __version__ is what the installed metadata says
    assert out.getvalue() == f"morris-pi {importlib.metadata.version('morris-pi')}\n"
    assert importlib.metadata.version("morris-pi") == morris_pi.__version__
