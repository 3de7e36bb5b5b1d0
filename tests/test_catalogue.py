"""The message catalogue: every language has every message with the same placeholders, and every
message the page, the simulator, the log or the board asks for is there (a missing key fails here)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from morris_pi.catalogue import LANGUAGES, NAMES, Words, choose, placeholders, say, words
from morris_pi.core.gameclock import LOW_TIME_ROLE
from morris_pi.core.menu import QUESTIONS, GameSettings, Menu
from morris_pi.core.ports import BUTTONS, STATUS_LEDS
from morris_pi.core.session import ERROR_PATTERNS
from morris_pi.guidance import ROLES
from morris_pi.rules import PROFILES, REASONS
from morris_pi.tracker import Problem

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "morris_pi"
STATIC = PACKAGE / "web" / "static"


def test_every_language_has_every_key_with_the_same_placeholders():
    english = words("en")
    for lang in LANGUAGES[1:]:
        other = words(lang)
        assert sorted(set(english) - set(other)) == [], f"{lang} lacks these keys"
        assert sorted(set(other) - set(english)) == [], f"{lang} has keys English has not"
        for key, text in english.items():
            assert placeholders(other[key]) == placeholders(text), (lang, key, other[key])
            assert other[key].strip(), (lang, key)


def keys_in_python() -> set[str]:
    found = set()
    call = re.compile(r"""\b(?:w|say|self|words|Words\([^)]*\))\(\s*f?["']([a-z][a-z0-9_.-]+)["']""")
    for path in PACKAGE.rglob("*.py"):
        found |= {key for key in call.findall(path.read_text(encoding="utf-8")) if "." in key and "{" not in key}
    return found


def keys_in_the_page() -> set[str]:
    """Every quoted word.word literal of the script (the keys it passes to ``t``, also through
    ternaries and tables) and every ``data-t`` of the page."""
    script = (STATIC / "app.js").read_text(encoding="utf-8")
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    found = set(re.findall(r"""["']([a-z][a-z0-9_-]*(?:\.[a-z0-9_-]+)+)["']""", script))
    found |= set(re.findall(r'data-t(?:-label)?="([^"]+)"', html))
    return found


def test_every_key_the_code_asks_for_is_in_the_catalogue():
    english = words("en")
    python, page = keys_in_python(), keys_in_the_page()
    assert len(python) > 40 and len(page) > 100  # the scan finds the calls it looks for
    missing = sorted(k for k in python | page if k not in english and f"{k}.one" not in english)
    assert missing == []


def test_every_key_made_from_a_name_is_in_the_catalogue():
    """Keys built from the board's own names: roles, problems, outcomes, faults, menu answers, profiles."""
    english = words("en")
    made = {f"role.{role}" for role in ROLES}
    made |= {f"problem.{kind}" for kind in ("missing", "extra", "protected", "other")}
    made |= {f"outcome.{reason}" for reason in REASONS} | {f"reason.{reason}" for reason in REASONS}
    made |= {f"fault.{kind}" for kind in ERROR_PATTERNS} | {f"led.{name}" for name in STATUS_LEDS}
    made |= {f"profile.{name}" for name in PROFILES} | {f"button.{name}" for name in BUTTONS}
    made |= {f"menu.question.{q}" for q in QUESTIONS}
    made |= {f"menu.{form}.mode.{mode}" for form in ("choice", "short") for mode in ("two-player", "computer")}
    made |= {f"side.{s}{form}" for s in ("white", "black") for form in ("", ".in")}
    made |= {f"done.{what}" for what in ("hint", "takeback", "draw", "resign", "menu", "start", "flag")}
    assert sorted(made - set(english)) == []
    assert LOW_TIME_ROLE in ROLES


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_board_s_corrections_are_said_by_their_kind_in_every_language(lang):
    w = Words(lang)
    for kind in ("missing", "extra", "protected"):
        problem = Problem("d6", kind)
        text = w(f"problem.{kind}", **{k: v for k, v in problem.to_dict().items() if k == "point"})
        assert "d6" in text
        if lang == "en":
            assert text == problem.text  # the tracker's own words are the English of the catalogue


def test_the_menu_and_the_log_speak_each_language():
    menu = Menu(GameSettings(mode="computer", human="black", level=4, profile="club"))
    assert menu.describe() == "you play black against the computer at level 4, club rules"
    assert menu.describe("de") == "du spielst Schwarz gegen den Computer auf Stufe 4, Regeln: Verein"
    assert menu.options("nb")["a7"] == "nivå 1"
    assert say("status.to_move", "de", side=Words("de").side("white")) == "Weiß am Zug"


def test_a_language_is_chosen_from_the_browser_s_accept_language():
    assert choose("de-DE,de;q=0.9,en-US;q=0.8,en;q=0.7") == "de"
    assert choose("en-GB,nb;q=0.5") == "en"
    assert choose("nb-NO,no;q=0.9") == "nb" and choose("no") == "nb"
    assert choose("fr, es;q=0.8") == "en"
    assert choose("de;q=0, nb;q=0.1") == "nb"  # q=0 means "not this one"
    assert choose("x" * 10_000) == "en" and choose(";;;,,,q=") == "en"
    assert set(NAMES) == set(LANGUAGES)


def test_an_unknown_language_is_refused_by_name():
    with pytest.raises(ValueError, match="unknown language 'fr'"):
        Words("fr")
