"""The side panel's text: what the game, the computer and the tracker say, in words.

Pure: a function of the controller's snapshot and the session settings, so
it is tested without a window. Each line is ``(style, text)`` with a style
from ``drawing.STYLES``. Every sentence comes from the message catalogue
(``morris_pi.catalogue``) in the simulator's language, the same words the web
page and the log use.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from morris_pi.catalogue import Words
from morris_pi.core.menu import QUESTIONS

Lines = list[tuple[str, str]]

KEY_NAMES = ("new", "undo", "hint", "menu", "clear", "trace", "quit")
RECORD_TURNS = 40
NBSP = "\u00a0"


def controls(w: Words) -> str:
    return w("sim.controls")


def keys(w: Words) -> str:
    """Key help; within an entry spaces do not break, so rows wrap only between entries."""
    return "   ".join(w(f"sim.key.{name}").replace(" ", NBSP) for name in KEY_NAMES)


def mode_line(mode: str, human: str, level: int, profile: str, w: Words | None = None) -> str:
    """
    >>> mode_line("computer", "white", 5, "club")
    'You play white against the computer (level 5), club rules'
    >>> mode_line("two-player", "white", 5, "standard", Words("de"))
    'Zwei Spieler, Regeln: Standard'
    """
    w = w or Words()
    rules = w(f"profile.{profile}")
    if mode == "computer":
        return w("sim.mode.computer", side=w.side(human, inside=True), level=level, rules=rules)
    return w("sim.mode.two_player", rules=rules)


def menu_lines(
    choices: Mapping[str, tuple[str, str | int | None]], chosen: Iterable[str], summary: str, w: Words | None = None
) -> Lines:
    """The set-up menu in words: the choices so far, then each question with its points.

    ``choices`` maps each lit point to its question and answer (``Menu.choices()``);
    the ``chosen`` points' answers are shown in brackets.

    >>> lines = menu_lines({"b2": ("mode", "two-player"), "f2": ("mode", "computer"), "a4": ("rules", "standard"),
    ...                     "d1": ("start", None)}, ["f2", "a4"], "you play white")
    >>> [text.replace(NBSP, " ") for _, text in lines[5:]]
    ['Mode: b2 two players   f2 [against the computer]', 'Rules: a4 [standard]', 'Start: d1, or New game / Menu']
    """
    w = w or Words()
    chosen = set(chosen)
    lines: Lines = [
        ("head", w("sim.menu.title")),
        ("text", summary[:1].upper() + summary[1:] + "."),
        ("", ""),
        ("text", w("sim.menu.how")),
        ("", ""),
    ]
    for question in QUESTIONS[:-1]:
        answers = []
        for point, (asked, answer) in choices.items():
            if asked != question:
                continue
            text = answer_words(question, answer, w)
            text = f"[{text}]" if point in chosen else text
            answers.append(f"{point} {text}".replace(" ", NBSP))
        if answers:
            lines.append(("text", f"{w(f'menu.question.{question}')}: " + "   ".join(answers)))
    start = [point for point, (asked, _) in choices.items() if asked == "start"]
    if start:
        lines.append(("text", w("sim.menu.start", points=", ".join(start))))
    return lines


def answer_words(question: str, answer: str | int | None, w: Words) -> str:
    """An answer of the set-up menu as the panel lists it under its question (``level``: the number)."""
    if question == "mode":
        return w(f"menu.choice.mode.{answer}")
    if question == "colour":
        return w.side(str(answer), inside=True)
    if question == "rules":
        return w(f"profile.{answer}")
    return str(answer)


def numbered(record: str, last: int = RECORD_TURNS, w: Words | None = None) -> str:
    """A record with move numbers, only the last turns when it is long.

    >>> numbered("d6 a1 f6 a4 b6xa1").replace(NBSP, " ")
    '1. d6 a1  2. f6 a4  3. b6xa1'
    >>> numbered("")
    '(no turns yet)'
    """
    turns = record.split()
    if not turns:
        return (w or Words())("sim.no_turns")
    pairs = [(i // 2 + 1, turns[i : i + 2]) for i in range(0, len(turns), 2)]
    # no-break spaces keep a move number with its turns when the panel wraps the record
    text = "  ".join(f"{n}.{NBSP}{NBSP.join(pair)}" for n, pair in pairs[-(last // 2) :])
    return ("...  " if len(pairs) > last // 2 else "") + text


def problem_words(problems: Iterable[object], roles: Mapping[str, str], w: Words | None = None) -> list[str]:
    """Each problem as the correction that fixes it, translated by its kind.

    A problem is a tracker ``Problem`` (its ``kind`` and ``point``), its ``to_dict()``,
    or a bare point, worded from its LED role.

    >>> problem_words(["c4", "f2", {"kind": "protected", "point": "a1"}], {"c4": "missing", "f2": "extra"})
    ['put a man back on c4', 'take the man off f2', 'this man may not be taken: put it back on a1']
    """
    w = w or Words()
    out = []
    for problem in problems:
        kind = getattr(problem, "kind", None)
        point = getattr(problem, "point", None)
        if isinstance(problem, Mapping):
            kind, point = problem.get("kind"), problem.get("point")
        elif isinstance(problem, str):
            point = problem
            kind = roles.get(problem)
        out.append(correction(str(kind), str(point), w))
    return out


def correction(kind: str, point: str, w: Words) -> str:
    """A correction of the board in words: ``missing``, ``extra`` or ``protected`` at ``point``."""
    if kind in ("missing", "extra", "protected"):
        return w(f"problem.{kind}", point=point)
    return w("problem.other", point=point)


def side_name(side: str, mode: str, human: str, w: Words | None = None) -> str:
    w = w or Words()
    name = w.side(side)
    if mode != "computer":
        return name
    return w("sim.side.you" if side == human else "sim.side.computer", side=name)
