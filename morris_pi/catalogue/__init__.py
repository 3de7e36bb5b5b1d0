"""The one message catalogue: every sentence the board says, in English, German and Norwegian.

The web page, the simulator's panel and the log all say things through it, so a
correction reads the same wherever it shows ("put a man back on d6", "Setze
wieder einen Stein auf d6"). A message is a key and its words in each language,
with ``{name}`` placeholders; the languages live in ``en.json``, ``de.json`` and
``nb.json`` beside this module, and ``tests/test_catalogue.py`` fails when a
language lacks a key or a placeholder, or when code asks for a key that no
language has.

- ``say(key, lang, **params)``: the words of ``key``, filled in. A key missing in
  ``lang`` falls back to English; one missing in English raises ``KeyError``.
- ``Words(lang)``: the same, bound to a language (``w("key", point="d6")``), with
  the small helpers every end needs: a side's name, a count with its plural.
- ``choose(accept_language)``: the language for a browser's ``Accept-Language``
  header (``"de-AT,de;q=0.9"`` -> ``"de"``; ``no``, ``nb`` and ``nn`` -> ``"nb"``);
  ``from_locale(environ)`` the same for a desktop's ``LANGUAGE``/``LC_ALL``/``LANG``.

Imports nothing of the project's.

>>> say("problem.missing", "de", point="d6")
'Setze wieder einen Stein auf d6'
>>> w = Words("nb"); w("status.to_move", side=w.side("black"))
'Svart i trekket'
>>> Words("en").count("count.turns", 1), Words("en").count("count.turns", 3)
('1 turn', '3 turns')
>>> choose("fr-CH, fr;q=0.9, de;q=0.8, en;q=0.5"), choose(None), choose("nn-NO")
('de', 'en', 'nb')
>>> from_locale({"LANG": "de_AT.UTF-8"}), from_locale({"LANGUAGE": "fr:nb", "LANG": "C.UTF-8"}), from_locale({})
('de', 'nb', 'en')
"""

from __future__ import annotations

import functools
import json
import re
import string
from collections.abc import Mapping
from pathlib import Path

#: The languages, English first (the fallback and the log's).
LANGUAGES: tuple[str, ...] = ("en", "de", "nb")
#: Each language's name in itself, for the page's switch.
NAMES: dict[str, str] = {"en": "English", "de": "Deutsch", "nb": "Norsk"}
#: Language tags of the ``Accept-Language`` header that mean one of ``LANGUAGES``.
ALIASES: dict[str, str] = {"en": "en", "de": "de", "nb": "nb", "no": "nb", "nn": "nb"}

HERE = Path(__file__).parent
_TAG = re.compile(r"^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*$")


@functools.cache
def words(lang: str = "en") -> Mapping[str, str]:
    """Every message of ``lang`` (read once); ``ValueError`` for a language there is none of."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}: the catalogue has {', '.join(LANGUAGES)}")
    data = json.loads((HERE / f"{lang}.json").read_text(encoding="utf-8"))
    return {key: value for key, value in data.items() if not key.startswith("//")}


def placeholders(text: str) -> set[str]:
    """The ``{name}`` placeholders of a message.

    >>> sorted(placeholders("{side} wins in {n} turns"))
    ['n', 'side']
    """
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def say(key: str, lang: str = "en", /, **params: object) -> str:
    """The words of ``key`` in ``lang``, its placeholders filled from ``params``."""
    text = words(lang).get(key)
    if text is None:
        text = words("en")[key]  # KeyError: no language has it, which the catalogue test catches
    return text.format(**params) if params else text


class Words:
    """The catalogue in one language: ``w(key, **params)``."""

    def __init__(self, lang: str = "en") -> None:
        words(lang)  # an unknown language is refused here, once
        self.lang = lang

    def __call__(self, key: str, /, **params: object) -> str:
        return say(key, self.lang, **params)

    def side(self, side: str, *, inside: bool = False) -> str:
        """A side's name: ``"White"``, or as it reads inside a sentence (``inside``: ``"white"``)."""
        return self(f"side.{side}.in" if inside else f"side.{side}")

    def count(self, key: str, n: int, /, **params: object) -> str:
        """``key.one`` or ``key.other`` with ``n`` filled in (the three languages count alike)."""
        return self(f"{key}.{'one' if n == 1 else 'other'}", n=n, **params)

    def __repr__(self) -> str:
        return f"Words({self.lang!r})"


def choose(accept_language: str | None, default: str = "en") -> str:
    """The catalogue's language that a browser's ``Accept-Language`` prefers most, else ``default``."""
    best: tuple[float, int, str] | None = None
    for order, part in enumerate((accept_language or "")[:500].split(",")[:20]):
        tag, _, rest = part.strip().partition(";")
        tag = tag.strip()
        if not _TAG.match(tag):
            continue
        quality = 1.0
        rest = rest.strip()
        if rest.startswith("q="):
            try:
                quality = float(rest[2:])
            except ValueError:
                continue
        lang = ALIASES.get(tag.split("-")[0].lower())
        if lang is None or not 0 < quality <= 1:
            continue
        if best is None or (quality, -order) > (best[0], -best[1]):
            best = (quality, order, lang)
    return best[2] if best is not None else default


def from_locale(environ: Mapping[str, str], default: str = "en") -> str:
    """The catalogue's language for a desktop's locale: ``LANGUAGE`` (a ``:`` list), else the
    first of ``LC_ALL``, ``LC_MESSAGES`` and ``LANG`` that is set; ``C`` and ``POSIX`` are English."""
    tags = [t for t in environ.get("LANGUAGE", "").split(":") if t]
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        if environ.get(name):
            tags.append(environ[name])
            break
    for tag in tags:
        lang = ALIASES.get(tag.split(".")[0].split("_")[0].split("-")[0].lower())
        if lang is not None:
            return lang
    return default
