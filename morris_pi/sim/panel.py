"""The side panel's text: what the game, the computer and the tracker say, in words.

Pure: a function of the controller's snapshot and the session settings, so
it is tested without a window. Each line is ``(style, text)`` with a style
from ``render.STYLES``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

Lines = list[tuple[str, str]]

CONTROLS = (
    "Drag a man from a tray onto a point, or click it and click the point. "
    "Drag a man off the board to take it off. Hold Shift while dragging to slide it across the points."
)
#: Key help; within an entry spaces do not break, so rows wrap only between entries.
KEYS = "   ".join(
    entry.replace(" ", "\u00a0")
    for entry in ("N new game", "U takeback", "H hint", "M menu", "C clear board", "R save trace", "Esc quit")
)
RECORD_TURNS = 40


def mode_line(mode: str, human: str, level: int, profile: str) -> str:
    """
    >>> mode_line("computer", "white", 5, "club")
    'You play white against the computer (level 5), club rules'
    >>> mode_line("two-player", "white", 5, "standard")
    'Two players, standard rules'
    """
    if mode == "computer":
        return f"You play {human} against the computer (level {level}), {profile} rules"
    return f"Two players, {profile} rules"


#: The set-up menu's questions: how ``Menu.options()`` words their answers, and their titles.
MENU_QUESTIONS = (("mode: ", "Mode"), ("you play ", "Your colour"), ("level ", "Level"), ("rules: ", "Rules"))
MENU_ANSWERS = {"two-player": "two players", "computer": "against the computer"}


def menu_lines(options: Mapping[str, str], chosen: Iterable[str], summary: str) -> Lines:
    """The set-up menu in words: the choices so far, then each question with its points.

    ``options`` maps each lit point to what choosing it does (``Menu.options()``);
    the ``chosen`` points' answers are shown in brackets.

    >>> lines = menu_lines({"b2": "mode: two-player", "f2": "mode: computer", "a4": "rules: standard",
    ...                     "d1": "start the game"}, ["f2", "a4"], "you play white")
    >>> [text.replace("\u00a0", " ") for _, text in lines[5:]]
    ['Mode: b2 two players   f2 [against the computer]', 'Rules: a4 [standard]', 'Start: d1, or New game / Menu']
    """
    chosen = set(chosen)
    lines: Lines = [
        ("head", "Set-up menu on the board"),
        ("text", summary[:1].upper() + summary[1:] + "."),
        ("", ""),
        (
            "text",
            "Put a man on a lit point and take it off again to choose. "
            "White blinking: chosen; blue: the other answers; fast white: start.",
        ),
        ("", ""),
    ]
    for prefix, title in MENU_QUESTIONS:
        answers = []
        for point, text in options.items():
            if text.startswith(prefix):
                answer = MENU_ANSWERS.get(text[len(prefix) :], text[len(prefix) :])
                answer = f"[{answer}]" if point in chosen else answer
                answers.append(f"{point} {answer}".replace(" ", "\u00a0"))
        if answers:
            lines.append(("text", f"{title}: " + "   ".join(answers)))
    start = [point for point, text in options.items() if not text.startswith(tuple(p for p, _ in MENU_QUESTIONS))]
    if start:
        lines.append(("text", f"Start: {', '.join(start)}, or New\u00a0game / Menu"))
    return lines


def numbered(record: str, last: int = RECORD_TURNS) -> str:
    """A record with move numbers, only the last turns when it is long.

    >>> numbered("d6 a1 f6 a4 b6xa1").replace("\u00a0", " ")
    '1. d6 a1  2. f6 a4  3. b6xa1'
    >>> numbered("")
    '(no turns yet)'
    """
    turns = record.split()
    if not turns:
        return "(no turns yet)"
    pairs = [(i // 2 + 1, turns[i : i + 2]) for i in range(0, len(turns), 2)]
    # no-break spaces keep a move number with its turns when the panel wraps the record
    text = "  ".join(f"{n}.\u00a0{chr(0xA0).join(pair)}" for n, pair in pairs[-(last // 2) :])
    return ("...  " if len(pairs) > last // 2 else "") + text


def problem_words(problems: Iterable[object], roles: Mapping[str, str]) -> list[str]:
    """Each problem as the correction that fixes it.

    A problem the tracker already words is kept; a bare point is worded from
    its LED role.

    >>> problem_words(["c4", "f2", "take the man off a1"], {"c4": "missing", "f2": "extra"})
    ['put a man back on c4', 'take the man off f2', 'take the man off a1']
    """
    out = []
    for problem in problems:
        if isinstance(problem, Mapping):
            text = problem.get("fix") or problem.get("text") or problem.get("message")
            point = problem.get("point")
            out.append(str(text) if text else _word_point(str(point), roles))
        elif isinstance(problem, str) and len(problem) == 2:
            out.append(_word_point(problem, roles))
        else:
            out.append(str(problem))
    return out


def _word_point(point: str, roles: Mapping[str, str]) -> str:
    role = roles.get(point)
    if role == "missing":
        return f"put a man back on {point}"
    if role == "extra":
        return f"take the man off {point}"
    return f"{point} does not match the game"


def side_name(side: str, mode: str, human: str) -> str:
    if mode != "computer":
        return side.capitalize()
    return f"{side.capitalize()} ({'you' if side == human else 'computer'})"
