"""Grading turns: every legal turn of a position scored on a fixed budget, and one played turn graded.

A turn's *loss* is how much worse it scores than the best turn, in centi-men (100: about a
man) from the side to move's view. The grade follows from the loss (``THRESHOLDS``):

========== ==========================
grade      loss (centi-men)
========== ==========================
best       0 to 15
good       16 to 50
inaccuracy 51 to 100
mistake    101 to 250 (a man lost for nothing)
blunder    over 250 (two men, or a man and the position), or a changed known result
========== ==========================

Where the result is known (the endgame tables, or a win or loss the search proved), the
grade compares results instead: a win thrown to a draw is a ``mistake``, a win or a draw
thrown to a loss is a ``blunder``, and ``loss`` is that change (``("win", "draw")``). A
slower win, or a faster loss, than the best is ``good``. Where only one side of the
comparison is known, the known result counts as ``KNOWN_RESULT`` centi-men for the loss, and
a turn into a proven loss that the best turn avoids is a ``blunder`` whatever that loss is.

Scores come from the engine's search with every root turn searched in a full window
(``Searcher.search(all_scores=True)``) to a node budget (``BUDGETS``), with no time
limit, and with a cleared transposition table, so the same position always gets the same
grades on any machine. The placing phase's evaluation swings with the side that moved
last, so each turn's score is the mean of the last two completed depths.

>>> from morris_pi.rules import Game
>>> game = Game.from_record("d6 a1 f6")
>>> scores = score_turns(game, budget="quick")
>>> graded = scores.grade("a4")              # ignores white's b6-d6-f6
>>> graded.grade, graded.grade.symbol
(<Grade.MISTAKE: 'mistake'>, '?')
>>> scores.loss_of("b6") < scores.loss_of("a4")
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from morris_pi.errors import MorrisPiError
from morris_pi.rules import Game, Turn
from morris_pi.rules.position import Position, RawTurn

from .search import MATE, MATE_BOUND, MAX_PLY, Limits, Searcher, StopFlag

#: The deepest search a budget may reach (an endgame with few turns gets there quickly).
MAX_DEPTH = min(24, MAX_PLY - 4)

__all__ = [
    "BUDGETS",
    "DEFAULT_BUDGET",
    "KNOWN_RESULT",
    "THRESHOLDS",
    "Budget",
    "Grade",
    "GradingStopped",
    "TurnGrade",
    "TurnScores",
    "Value",
    "grade_for_loss",
    "grade_turn",
    "score_turns",
]


class GradingStopped(MorrisPiError, RuntimeError):
    """A grading search was stopped by its flag before the budget was spent (nothing is graded)."""


class Grade(StrEnum):
    """How good a turn was, from ``best`` to ``blunder``."""

    BEST = "best"
    GOOD = "good"
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"

    @property
    def symbol(self) -> str:
        """The annotation a reader knows from chess: ``?!``, ``?``, ``??`` (none for best and good)."""
        return {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}.get(self.value, "")

    @property
    def rank(self) -> int:
        """0 for ``best`` up to 4 for ``blunder``."""
        return list(Grade).index(self)


#: The largest loss (centi-men) of each grade; anything above the last is a blunder.
THRESHOLDS: tuple[tuple[Grade, int], ...] = (
    (Grade.BEST, 15),
    (Grade.GOOD, 50),
    (Grade.INACCURACY, 100),
    (Grade.MISTAKE, 250),
)

#: A known win (or loss) counted in centi-men where it meets an estimate: ten men.
KNOWN_RESULT = 1000


def grade_for_loss(loss: int) -> Grade:
    """The grade of a loss in centi-men.

    >>> [grade_for_loss(n).value for n in (0, 15, 16, 100, 101, 251)]
    ['best', 'best', 'good', 'inaccuracy', 'mistake', 'blunder']
    """
    for grade, most in THRESHOLDS:
        if loss <= most:
            return grade
    return Grade.BLUNDER


@dataclass(frozen=True)
class Budget:
    """A fixed search budget: nodes per position searched (no time limit, so it repeats exactly)."""

    name: str
    nodes: int


BUDGETS: dict[str, Budget] = {
    b.name: b
    for b in (
        Budget("quick", 20_000),
        Budget("standard", 50_000),
        Budget("deep", 150_000),
    )
}
DEFAULT_BUDGET = "standard"


def _budget(budget: Budget | str) -> Budget:
    if isinstance(budget, Budget):
        return budget
    try:
        return BUDGETS[budget]
    except KeyError:
        raise ValueError(f"unknown budget {budget!r}: one of {', '.join(BUDGETS)}") from None


@dataclass(frozen=True)
class Value:
    """A score in a person's terms, from the side to move's view.

    ``result`` is ``"win"``, ``"draw"`` or ``"loss"`` where it is known (then ``turns`` is
    the distance to the end for a win or loss), else ``None`` and ``centimen`` is the estimate.
    """

    centimen: int
    result: str | None = None
    turns: int | None = None

    @classmethod
    def of(cls, score: int, table_draw: bool = False) -> Value:
        if score > MATE_BOUND:
            return cls(KNOWN_RESULT, "win", MATE - score)
        if score < -MATE_BOUND:
            return cls(-KNOWN_RESULT, "loss", MATE + score)
        if table_draw:
            return cls(0, "draw")
        return cls(score)

    def flipped(self) -> Value:
        """The same value from the other side's view."""
        result = {"win": "loss", "loss": "win"}.get(self.result or "", self.result)
        return Value(-self.centimen, result, self.turns)

    def to_json(self) -> int | dict[str, int | str]:
        """Centi-men, or ``{"win_in": n}`` / ``{"loss_in": n}`` / ``{"result": "draw"}``."""
        if self.result == "win":
            return {"win_in": self.turns or 0}
        if self.result == "loss":
            return {"loss_in": self.turns or 0}
        if self.result == "draw":
            return {"result": "draw"}
        return self.centimen


@dataclass(frozen=True)
class TurnGrade:
    """One turn graded: its grade, what it cost and the better turn (``None`` when it was best)."""

    turn: Turn
    grade: Grade
    #: centi-men lost against the best turn; ``None`` when ``change`` says what was lost
    loss: int | None
    #: a changed known result, e.g. ``("win", "draw")``; ``None`` otherwise
    change: tuple[str, str] | None
    better: Turn | None
    value: Value  # the turn's value, for the side that played it
    best_value: Value  # the position's value with the best turn

    def loss_json(self) -> int | dict[str, str]:
        """``loss`` as JSON: centi-men, or ``{"from": "win", "to": "draw"}``."""
        if self.change is not None:
            return {"from": self.change[0], "to": self.change[1]}
        return self.loss or 0


@dataclass(frozen=True)
class TurnScores:
    """Every legal turn of one position scored on one budget (``score_turns``)."""

    position: Position
    side: str
    budget: Budget
    values: Mapping[Turn, Value]  # for the side to move
    best: Turn | None
    depth: int  # the deepest completed search
    nodes: int

    def _find(self, turn: Turn | str) -> Turn:
        wanted = Turn.parse(turn) if isinstance(turn, str) else turn
        if wanted in self.values:
            return wanted
        raise ValueError(f"{wanted}: not a legal turn here ({self.side} to move)")

    def value(self, turn: Turn | str) -> Value:
        return self.values[self._find(turn)]

    @property
    def best_value(self) -> Value:
        """The position's value for the side to move (that of the best turn)."""
        return self.values[self.best] if self.best is not None else Value(-KNOWN_RESULT, "loss", 0)

    def loss_of(self, turn: Turn | str) -> int:
        """Centi-men lost against the best turn (known results count as ``KNOWN_RESULT``)."""
        return max(0, self.best_value.centimen - self.value(turn).centimen)

    def grade(self, turn: Turn | str) -> TurnGrade:
        """Grade ``turn`` against the best turn of this position."""
        played = self._find(turn)
        value, best = self.values[played], self.best_value
        change: tuple[str, str] | None = None
        loss: int | None
        if value.result and best.result and value.result != best.result:
            change = (best.result, value.result)
            grade = Grade.MISTAKE if change == ("win", "draw") else Grade.BLUNDER
            loss = None
        elif value.result and value.result == best.result and value.result != "draw":
            loss = 0
            grade = Grade.BEST if value.turns == best.turns else Grade.GOOD
        else:
            loss = self.loss_of(played)
            grade = grade_for_loss(loss)
            if value.result == "loss" and best.result != "loss":
                grade = Grade.BLUNDER  # into a forced loss that the best turn avoids, however bad it looks
        better = self.best if grade is not Grade.BEST and self.best != played else None
        return TurnGrade(played, grade, loss, change, better, value, best)

    def grades(self) -> dict[Turn, Grade]:
        """The grade every legal turn would get (for showing targets by quality)."""
        return {turn: self.grade(turn).grade for turn in self.values}


def _table_draws(searcher: Searcher, position: Position, turns: list[RawTurn]) -> set[RawTurn]:
    """The root turns whose position after is a draw in the endgame tables."""
    egtb = searcher.egtb
    draws: set[RawTurn] = set()
    if egtb is None:
        return draws
    for raw in turns:
        after = position.play(raw)
        me, op = after.men[after.side], after.men[after.side ^ 1]
        if after.hand != (0, 0) or me.bit_count() < 3 or op.bit_count() < 3 or me.bit_count() + op.bit_count() > 7:
            continue
        if egtb.probe(me, op) == 0:  # a draw in the tables is a draw whatever the N-move count
            draws.add(raw)
    return draws


def score_turns(
    game: Game,
    *,
    budget: Budget | str = DEFAULT_BUDGET,
    searcher: Searcher | None = None,
    stop_flag: StopFlag | None = None,
) -> TurnScores:
    """Score every legal turn of ``game``'s position for the side to move.

    With a removal pending, the turns are the step's completions. ``searcher`` may be
    reused between calls (its table is cleared first, so the answer is the same).
    ``stop_flag`` set during the search abandons it with ``GradingStopped``: a grade is
    always the whole budget's, never a part of it.

    Raises ``ValueError`` for a finished game.
    """
    if game.outcome is not None:
        raise ValueError(f"the game is over ({game.outcome}): nothing to grade")
    spent = _budget(budget)
    if searcher is None:
        searcher = Searcher(game.profile)
    searcher.clear()
    position = game.position
    legal = [t.to_raw() for t in game.legal_turns()]
    restrict = legal if game.pending else None
    # depth by depth on one warm table, so that each depth's scores are kept; a depth the
    # budget cuts short is dropped
    depths: list[dict[RawTurn, int]] = []
    nodes = 0
    for depth in range(1, MAX_DEPTH + 1):
        left = spent.nodes - nodes
        if left <= 0:
            break
        result = searcher.search(
            position,
            game.positions,
            Limits(depth=depth, nodes=left),
            all_scores=True,
            restrict=restrict,
            stop_flag=stop_flag,
        )
        if stop_flag is not None and stop_flag.is_set():
            raise GradingStopped("grading stopped before its budget was spent")
        nodes += result.nodes
        if result.nodes >= left or len(result.root_scores) < len(legal):
            break
        depths.append(dict(result.root_scores))
        if len(legal) == 1:
            break
    scores = _mean_of_last_two(depths)
    draws = _table_draws(searcher, position, legal)
    values: dict[Turn, Value] = {}
    for raw in legal:
        values[Turn.from_raw(raw)] = Value.of(scores.get(raw, 0), raw in draws)
    # the best by value, ties broken by the notation so that the answer never depends on order
    best = max(values, key=lambda t: (_rank(values[t]), -_sort_key(t))) if values else None
    return TurnScores(position, game.turn, spent, values, best, len(depths), nodes)


def _mean_of_last_two(depths: list[dict[RawTurn, int]]) -> dict[RawTurn, int]:
    """Each turn's mean score over the last two depths (the last alone for a known result)."""
    if not depths:
        return {}
    last = dict(depths[-1])
    if len(depths) >= 2:
        for raw, s in depths[-2].items():
            t = last.get(raw)
            if t is not None and abs(s) <= MATE_BOUND and abs(t) <= MATE_BOUND:
                last[raw] = (s + t) // 2
    return last


def _rank(value: Value) -> tuple[int, int]:
    """Order of values: a faster win over a slower one, a slower loss over a faster one."""
    if value.result == "win":
        return (2, -(value.turns or 0))
    if value.result == "loss":
        return (-2, value.turns or 0)
    return (0, value.centimen)


def _sort_key(turn: Turn) -> int:
    o, t, r = turn.to_raw()
    return (o + 1) * 625 + t * 25 + (r + 1)


def grade_turn(
    game: Game,
    turn: Turn | str,
    *,
    budget: Budget | str = DEFAULT_BUDGET,
    searcher: Searcher | None = None,
) -> TurnGrade:
    """Grade ``turn`` played in ``game``'s position (``score_turns`` then ``TurnScores.grade``).

    >>> from morris_pi.rules import Game
    >>> g = grade_turn(Game.from_record("d6 a1 f6"), "b6", budget="quick")
    >>> g.grade.rank <= Grade.GOOD.rank
    True
    """
    return score_turns(game, budget=budget, searcher=searcher).grade(turn)
