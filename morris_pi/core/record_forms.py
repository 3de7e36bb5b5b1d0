"""A stored record in the other forms it is downloaded in (``records export --format``, the web page).

>>> from pathlib import Path
>>> from morris_pi.core.record_format import Record
>>> print(sanmill_text(Record("x", Path("x.txt"), {"Result": "1-0"}, "d6 a1 f6 a4 b6xa1")), end="")
[Result "1-0"]
<BLANKLINE>
d6 a1 f6 a4 b6 xa1
"""

from __future__ import annotations

from morris_pi.rules.notation import Turn, sanmill_form, split_record

from .record_format import Record, StorageError, format_record


def sanmill_text(record: Record) -> str:
    """A record file with its turns in Sanmill's ply form: the tags as they are, each removal a token of its own."""
    if record.error:
        raise StorageError(f"record {record.id} cannot be read: {record.error}")
    try:
        turns = [Turn.parse(token) for token in split_record(record.record)]
    except ValueError as exc:
        raise StorageError(f"record {record.id}: {exc}") from None
    return format_record(record.tags, sanmill_form(turns))
