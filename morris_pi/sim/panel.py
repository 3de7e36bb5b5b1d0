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
    pairs = [(i // 2 + 1, turns[i:i + 2]) for i in range(0, len(turns), 2)]
    # no-break spaces keep a move number with its turns when the panel wraps the record
    text = "  ".join(f"{n}.\u00a0{chr(0xa0).join(pair)}" for n, pair in pairs[-(last // 2):])
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
