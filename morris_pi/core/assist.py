"""How much the board helps each player: targets by quality, blunder warnings, hints.

Each side has its own ``Assistance``, so a parent and a child can play fairly:

- ``targets``: when the player lifts a man (or a placement is due), the legal
  targets light by the quality of the turn they make (``target-good`` for the
  best turn and good ones, ``target-doubtful`` for an inaccuracy or a mistake,
  ``target-losing`` for a blunder) instead of all in ``legal-target``;
- ``warn``: after a turn graded a blunder, before the opponent replies, the man
  that should move back flashes ``blunder`` and the page says why; the player
  takes the turn back or plays on;
- ``hints``: ``None`` for no limit, a number of hints per game, or ``0`` for none.

The grades come from the engine (``morris_pi.engine.grading``), searched in
the engine's thread (``Grader``); this module only turns them into roles and
words.

>>> Assistance.parse("targets warn hints=3")
Assistance(targets=True, warn=True, hints=3)
>>> str(Assistance(targets=True, hints=0)), str(Assistance())
('targets hints=0', 'plain')
>>> Assists.parse({"white": "targets warn", "black": "hints=0"}).tag()
'white: targets warn; black: hints=0'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from morris_pi.rules import SIDES, Game, Side, Turn

#: The grades a turn can get, best first (the engine's ``Grade`` values).
GRADES: tuple[str, ...] = ("best", "good", "inaccuracy", "mistake", "blunder")
#: The LED role of a target, by the grade of the turn it makes.
QUALITY_ROLES: dict[str, str] = {
    "best": "target-good",
    "good": "target-good",
    "inaccuracy": "target-doubtful",
    "mistake": "target-doubtful",
    "blunder": "target-losing",
}
#: A loss this large (centi-men) throws the game away: the engine counts a known result as ten men.
LOST_GAME = 1000
#: The most hints a game may allow per player (a number beyond it is as good as no limit).
MAX_HINTS = 99


@dataclass(frozen=True)
class Assistance:
    """One player's assistance; the default is the board as it always was (hints without limit)."""

    targets: bool = False
    warn: bool = False
    #: Hints per game: ``None`` no limit, ``0`` none.
    hints: int | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.targets, bool) or not isinstance(self.warn, bool):
            raise ValueError(f"targets and warn are true or false, got {self.targets!r} and {self.warn!r}")
        hints = self.hints
        if hints is not None and (isinstance(hints, bool) or not isinstance(hints, int) or not 0 <= hints <= MAX_HINTS):
            raise ValueError(f"hints must be a whole number 0-{MAX_HINTS}, or none for no limit; got {hints!r}")

    @property
    def grades(self) -> bool:
        """Whether this player's turns are graded (targets or warnings need it)."""
        return self.targets or self.warn

    def __str__(self) -> str:
        words = [name for name, on in (("targets", self.targets), ("warn", self.warn)) if on]
        if self.hints is not None:
            words.append(f"hints={self.hints}")
        return " ".join(words) or "plain"

    @classmethod
    def parse(cls, text: str) -> Assistance:
        """From ``str``'s form: ``plain``, or any of ``targets``, ``warn``, ``hints=N`` (``ValueError`` otherwise).

        >>> Assistance.parse("plain"), Assistance.parse("hints=1").hints
        (Assistance(targets=False, warn=False, hints=None), 1)
        """
        if not isinstance(text, str):
            raise ValueError(f"assistance is text such as 'targets warn hints=3', got {text!r}")
        out: dict[str, Any] = {}
        for word in text.split():
            if word == "plain":
                continue
            if word in ("targets", "warn"):
                out[word] = True
            elif word.startswith("hints="):
                value = word.removeprefix("hints=")
                if not value.isdigit():
                    raise ValueError(f"hints=N needs a whole number, got {word!r}")
                out["hints"] = int(value)
            else:
                raise ValueError(f"unknown assistance {word!r}: use targets, warn, hints=N or plain")
        return cls(**out)


@dataclass(frozen=True)
class Assists:
    """The assistance of both players."""

    white: Assistance = Assistance()
    black: Assistance = Assistance()

    def of(self, side: str) -> Assistance:
        return self.white if side == "white" else self.black

    def with_side(self, side: str, assistance: Assistance) -> Assists:
        if side not in SIDES:
            raise ValueError(f"side must be 'white' or 'black', got {side!r}")
        return Assists(assistance, self.black) if side == "white" else Assists(self.white, assistance)

    @property
    def plain(self) -> bool:
        """Whether neither player has anything but the default."""
        return self == Assists()

    def meta(self) -> dict[str, str]:
        """As the save's meta keeps it: ``{"white": "targets warn", "black": "plain"}``."""
        return {"white": str(self.white), "black": str(self.black)}

    def tag(self) -> str:
        """The record's ``Assistance`` tag."""
        return f"white: {self.white}; black: {self.black}"

    @classmethod
    def parse(cls, data: Mapping[str, Any]) -> Assists:
        """From ``meta``'s form; ``ValueError`` names a bad side."""
        if not isinstance(data, Mapping):
            raise ValueError(f"assistance is a table of white and black, got {data!r}")
        out = cls()
        for side in SIDES:
            if side in data:
                try:
                    out = out.with_side(side, Assistance.parse(data[side]))
                except ValueError as exc:
                    raise ValueError(f"{side}: {exc}") from None
        return out


#: The set-up menu's choices of assistance, in the order a point cycles through them.
PRESETS: tuple[tuple[str, Assistance], ...] = (
    ("plain", Assistance()),
    ("coached", Assistance(targets=True, warn=True)),
    ("limited", Assistance(targets=True, warn=True, hints=3)),
    ("none", Assistance(hints=0)),
)


def preset_of(assistance: Assistance) -> str | None:
    """The name of the menu's preset that is ``assistance``, or ``None`` (a config's own mix).

    >>> preset_of(Assistance(hints=0)), preset_of(Assistance(warn=True))
    ('none', None)
    """
    for name, preset in PRESETS:
        if preset == assistance:
            return name
    return None


def next_preset(assistance: Assistance) -> Assistance:
    """The menu's next preset after ``assistance`` (the first after a mix of its own).

    >>> next_preset(Assistance()) == PRESETS[1][1], next_preset(PRESETS[-1][1]) == Assistance()
    (True, True)
    """
    name = preset_of(assistance)
    names = [n for n, _ in PRESETS]
    index = names.index(name) + 1 if name is not None else 0
    return PRESETS[index % len(PRESETS)][1] if name is not None else PRESETS[0][1]


@dataclass(frozen=True)
class Graded:
    """One legal turn with its grade and its loss against the best turn (centi-men)."""

    turn: Turn
    grade: str
    loss: int


@dataclass(frozen=True)
class Grading:
    """Every legal turn of one position graded, and the best of them."""

    plies: int  # the position: after this many turns of the game
    turns: tuple[Graded, ...]
    best: Turn | None

    def of(self, turn: Turn) -> Graded | None:
        """The grade of ``turn`` (``None`` when it is not among the turns graded)."""
        text = str(turn)
        return next((g for g in self.turns if str(g.turn) == text), None)

    def target_roles(self, lifted: str | None, targets: tuple[str, ...]) -> dict[str, str]:
        """The role of each target: the best grade of the turns from ``lifted`` (``None``:
        placements) to it, whatever they then remove.

        >>> g = Grading(0, (Graded(Turn.parse("d6"), "best", 0), Graded(Turn.parse("a1"), "blunder", 500)), None)
        >>> g.target_roles(None, ("d6", "a1", "g7"))
        {'d6': 'target-good', 'a1': 'target-losing'}
        """
        best: dict[str, int] = {}
        for graded in self.turns:
            turn = graded.turn
            if turn.origin != lifted or turn.target not in targets:
                continue
            rank = GRADES.index(graded.grade)
            best[turn.target] = min(rank, best.get(turn.target, rank))
        return {point: QUALITY_ROLES[GRADES[rank]] for point, rank in best.items()}


class Grader(Protocol):
    """Grades every legal turn of a position without blocking the board loop (as ``Opponent`` chooses one).

    ``start(game)`` begins (on the engine's thread), ``result()`` returns the
    ``Grading`` once it is ready (once), else ``None``; ``cancel()`` abandons it.
    """

    def start(self, game: Game) -> None: ...

    def result(self) -> Grading | None: ...

    def cancel(self) -> None: ...


@dataclass(frozen=True)
class BlunderWarning:
    """A turn graded a blunder, shown until the player takes it back or plays on."""

    side: Side
    turn: Turn
    better: Turn | None
    loss: int
    plies: int  # the game's length once the blunder was played
    #: Where the man stands that should move back (the turn's target).
    point: str
    #: The opponent's best answer, once the position after the blunder is graded.
    reply: Turn | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "side": self.side,
            "turn": str(self.turn),
            "better": str(self.better) if self.better is not None else None,
            "loss": self.loss,
            "point": self.point,
            "reply": str(self.reply) if self.reply is not None else None,
        }


def warning_words(warning: BlunderWarning, w: Any) -> str:
    """Why the turn was a blunder, in one sentence of the catalogue (``w``: ``catalogue.Words``):
    the opponent's answer once it is known (when it takes a man), what the turn gives away, and
    the better turn.

    >>> from morris_pi.catalogue import Words
    >>> print(warning_words(BlunderWarning("black", Turn.parse("a4"), Turn.parse("b6"), 480, 4, "a4"), Words("en")))
    a4 is a blunder: it gives away about 4.8 men, and b6 was better.
    >>> taken = BlunderWarning("black", Turn.parse("g7"), Turn.parse("d7"), 354, 4, "g7", Turn.parse("d7xg7"))
    >>> print(warning_words(taken, Words("en")))
    g7 is a blunder: white answers d7xg7 and takes a man, and d7 was better.
    >>> from dataclasses import replace
    >>> print(warning_words(replace(taken, reply=Turn.parse("g1")), Words("en")))
    g7 is a blunder: after white's answer g1 it gives away about 3.5 men, and d7 was better.
    """
    better = str(warning.better) if warning.better is not None else "?"
    reply = warning.reply
    opponent = w.side("white" if warning.side == "black" else "black", inside=True)
    if reply is not None and reply.removal:
        return str(w("assist.warn.takes", turn=str(warning.turn), side=opponent, reply=str(reply), better=better))
    key = "assist.warn.mate" if warning.loss >= LOST_GAME else "assist.warn.loss"
    men = f"{warning.loss / 100:.1f}"
    if getattr(w, "lang", "en") != "en":
        men = men.replace(".", ",")  # German and Norwegian write a decimal comma
    if reply is not None:
        key += "_reply"
        return str(w(key, turn=str(warning.turn), men=men, better=better, side=opponent, reply=str(reply)))
    return str(w(key, turn=str(warning.turn), men=men, better=better))
