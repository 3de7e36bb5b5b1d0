"""Shared fixtures, and hypothesis's settings for CI."""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

# In CI (any runner sets CI, and .ci/run does) hypothesis draws the same examples on every
# run, so a red build can be reproduced by running it again; a fresh clone has no example
# database to replay from. On a developer's machine the draws stay random, to keep finding
# new cases, and a failure is replayed from the local database (.hypothesis/).
settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
settings.register_profile("dev", print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture
def mock_factory():
    """gpiozero's MockFactory as the default pin factory, restored afterwards
    (the pattern of gpiozero's own test suite)."""
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    saved = Device.pin_factory
    Device.pin_factory = MockFactory()
    try:
        yield Device.pin_factory
    finally:
        Device.pin_factory.reset()
        Device.pin_factory = saved


@pytest.fixture
def boards():
    """Start emulated boards running the real service (``service_harness.FakeBoard``); each is
    stopped at the end of the test if the test did not stop it."""
    from service_harness import FakeBoard

    started = []

    def make(text, **kw):
        board = FakeBoard(text, **kw).start()
        started.append(board)
        return board

    yield make
    for board in started:
        if not board._finished:
            board.stop()


@pytest.fixture(autouse=True)
def unprivileged_service(monkeypatch):
    """The tests run as root in containers and CI; the service refuses to serve its page as root
    (``morris_pi.web.server.serve_board``). Every test runs as an ordinary user id unless it
    asks for root itself (``monkeypatch.setattr(server, "geteuid", lambda: 0)``)."""
    try:
        from morris_pi.web import server
    except ImportError:  # pragma: no cover - without the web modules there is nothing to patch
        return
    monkeypatch.setattr(server, "geteuid", lambda: 1000)


@pytest.fixture(autouse=True)
def bench_results_elsewhere(tmp_path_factory, monkeypatch):
    """A bench run by a test writes its result table to a temporary directory, never over the
    committed ``bench/results`` tables (``bench/results.py``)."""
    monkeypatch.setenv("MORRIS_PI_BENCH_RESULTS", str(tmp_path_factory.getbasetemp() / "bench-results"))
