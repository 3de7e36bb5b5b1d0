"""The examples in the tracker's, controller's and replay's docstrings stay true."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "morris_pi.tracker.settle",
    "morris_pi.tracker.reconcile",
    "morris_pi.tracker.tracker",
    "morris_pi.tracker.guidance",
    "morris_pi.board.controller",
    "morris_pi.board.virtual",
    "morris_pi.tracing",
    "morris_pi.replay",
]


@pytest.mark.parametrize("module", MODULES)
def test_doctests(module):
    result = doctest.testmod(importlib.import_module(module))
    assert result.failed == 0
