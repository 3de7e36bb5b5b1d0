"""The examples in the docstrings of storage (its files and record format), the switch watch,
the fake disk and the command helpers stay true."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "morris_pi.board.storage",
    "morris_pi.board.safe_files",
    "morris_pi.board.record_format",
    "morris_pi.board.switchwatch",
    "morris_pi.hw.fakes.disk",
    "morris_pi.commands.streams",
    "morris_pi.commands.install_service",
]


@pytest.mark.parametrize("module", MODULES)
def test_doctests(module):
    result = doctest.testmod(importlib.import_module(module))
    assert result.failed == 0 and result.attempted > 0
