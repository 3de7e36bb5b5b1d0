"""The examples in the physical trace generator's docstrings stay true."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [f"morris_pi.physical.{name}" for name in ("mess", "switches", "hands", "people", "computer", "playing", "cases")]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0 and result.attempted > 0
