"""Log lines the journal files with the right priority; repeats are summed up, not flooded."""

from __future__ import annotations

import io
import logging
import os
import sys

from morris_pi.service.journal import JournalFormatter, PlainFormatter, RepeatFilter, to_journal


def record(msg, level=logging.ERROR, name="morris_pi.service", exc_info=None):
    return logging.LogRecord(name, level, __file__, 1, msg, None, exc_info)


def test_every_line_of_a_traceback_carries_the_priority():
    try:
        raise RuntimeError("boom")
    except RuntimeError:
        text = JournalFormatter().format(record("engine failed", exc_info=sys.exc_info()))
    lines = text.splitlines()
    assert len(lines) > 3
    assert all(line.startswith("<3>morris_pi.service: ") for line in lines)
    assert lines[-1].endswith("RuntimeError: boom")


def test_priorities_follow_the_levels():
    fmt = JournalFormatter()
    got = [
        fmt.format(record("x", level))[:3]
        for level in (logging.DEBUG, logging.INFO, logging.WARNING, logging.ERROR, logging.CRITICAL)
    ]
    assert got == ["<7>", "<6>", "<4>", "<3>", "<2>"]
    assert PlainFormatter().format(record("x", logging.WARNING)) == "WARNING morris_pi.service: x"


def test_repeats_are_dropped_and_counted():
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(PlainFormatter())
    handler.addFilter(RepeatFilter())
    for _ in range(5):
        handler.handle(record("computer player failed: boom"))
    handler.handle(record("computer player works"))
    handler.handle(record("other logger", name="morris_pi.core"))
    assert stream.getvalue().splitlines() == [
        "ERROR morris_pi.service: computer player failed: boom",
        "ERROR morris_pi.service: [the previous message repeated 4 more times] computer player works",
        "ERROR morris_pi.core: other logger",
    ]


def test_journal_form_only_when_the_stream_is_the_journals(tmp_path):
    with open(tmp_path / "log", "w") as stream:
        st = os.fstat(stream.fileno())
        assert to_journal(stream, {"JOURNAL_STREAM": f"{st.st_dev}:{st.st_ino}"})
        assert not to_journal(stream, {"JOURNAL_STREAM": f"{st.st_dev}:{st.st_ino + 1}"})
        assert not to_journal(stream, {})
        assert not to_journal(io.StringIO(), {"JOURNAL_STREAM": "1:2"})
