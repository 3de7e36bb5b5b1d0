"""A whole game reviewed: every turn graded on one fixed budget (``grading``), in order.

``review_game`` replays the turns from the game's start and grades each against the
position it was played in. The same turns and budget give the same review everywhere.
Each turn also carries the evaluation after it from White's side (``white_eval``),
which the page draws as a chart of the whole game.

>>> from morris_pi.rules import Game
>>> reviewed = review_game(Game(), "d6 a1 f6 a4".split(), budget="quick")
>>> [(r.ply, str(r.turn), r.side, r.grade.value) for r in reviewed][-1]
(4, 'a4', 'black', 'mistake')
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from morris_pi.rules import Game, Turn

from .grading import DEFAULT_BUDGET, Budget, Grade, TurnGrade, Value, score_turns
from .search import Searcher, StopFlag

__all__ = ["TurnReview", "play_whole", "review_game", "reviews"]


@dataclass(frozen=True)
class TurnReview:
    """One turn of a review."""

    ply: int  # 1 for the first turn of the record
    turn: Turn
    side: str
    graded: TurnGrade
    depth: int  # the deepest completed search of the position before the turn
    nodes: int

    @property
    def grade(self) -> Grade:
        return self.graded.grade

    @property
    def white_eval(self) -> int:
        """The value after the turn from White's side, in centi-men (known results as ±``KNOWN_RESULT``)."""
        value: Value = self.graded.value
        return value.centimen if self.side == "white" else -value.centimen

    def to_json(self) -> dict[str, Any]:
        """The JSON line of ``morris-pi review``."""
        better = self.graded.better
        return {
            "ply": self.ply,
            "turn": str(self.turn),
            "side": self.side,
            "grade": self.grade.value,
            "loss": self.graded.loss_json(),
            "better": str(better) if better is not None else None,
            "value": self.graded.value.to_json(),
            "best_value": self.graded.best_value.to_json(),
            "white_eval": self.white_eval,
            "depth": self.depth,
        }


def play_whole(game: Game, turn: Turn) -> None:
    """Play a whole turn, also where the game waits for the removal of a step already made."""
    if game.pending is not None and turn.removal is not None:
        game.play(f"x{turn.removal}")
    else:
        game.play(str(turn))


def reviews(
    start: Game,
    turns: Iterable[Turn | str],
    *,
    budget: Budget | str = DEFAULT_BUDGET,
    searcher: Searcher | None = None,
    should_stop: Callable[[], bool] | None = None,
    stop_flag: StopFlag | None = None,
) -> Iterator[TurnReview]:
    """Grade each of ``turns`` played on from ``start`` (which is not changed), one at a time.

    ``should_stop`` is asked before each turn: a review running in the background stops
    between turns, never in the middle of one (so each graded turn is the full budget's).
    ``stop_flag`` is passed to each search (``score_turns``): set, it raises ``GradingStopped``.
    An illegal turn raises the rules' ``ValueError`` naming it.
    """
    game = start.copy()
    searcher = searcher or Searcher(game.profile)
    first = len(game.history)
    for number, item in enumerate(turns, first + 1):
        if should_stop is not None and should_stop():
            return
        turn = Turn.parse(item) if isinstance(item, str) else item
        side = game.turn
        scores = score_turns(game, budget=budget, searcher=searcher, stop_flag=stop_flag)
        try:
            graded = scores.grade(turn)
        except ValueError as exc:
            raise ValueError(f"turn {number}: {exc}") from None
        yield TurnReview(number, graded.turn, side, graded, scores.depth, scores.nodes)
        play_whole(game, graded.turn)


def review_game(
    start: Game,
    turns: Sequence[Turn | str],
    *,
    budget: Budget | str = DEFAULT_BUDGET,
    searcher: Searcher | None = None,
) -> list[TurnReview]:
    """Every turn of ``turns`` after ``start`` graded (``reviews`` as a list)."""
    return list(reviews(start, turns, budget=budget, searcher=searcher))
