"""What the computer player found in a position, for a person: the score, its depth and the line it expects.

The engine answers a hint (or its own turn) with a search result; ``analysis_of``
turns the player's last result into an ``Analysis``: plain turns in the notation,
the score for the side that was to move, a known result as a number of turns,
and the same from White's side for an evaluation bar. It reads the engine's
public result (``score``, ``depth``, ``nodes``, ``pv``, ``book``) and its
``score_form``; it imports the engine only when asked, so a board without the
engine shows no analysis instead of failing.

>>> a = Analysis(kind="hint", plies=4, side="black", turn="a7", score=-120, win_in=None, loss_in=None,
...              depth=8, nodes=85248, pv=("a7", "b6"))
>>> a.white_score, a.to_dict()["pv"]
(120, ['a7', 'b6'])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from morris_pi.rules import Game, Turn


@dataclass(frozen=True)
class Analysis:
    """One search of the computer player, in a person's terms."""

    kind: str  # "hint" (for the human) or "turn" (the computer's own)
    plies: int  # turns of the game before the position searched
    side: str  # the side to move there: the score is from its side
    turn: str | None  # the turn it chose
    score: int | None  # centi-men for ``side`` (100: about a man); ``None`` when the result is known
    win_in: int | None  # turns until ``side`` wins, where the search or the tables know it
    loss_in: int | None  # turns until ``side`` loses, likewise
    depth: int
    nodes: int
    pv: tuple[str, ...]  # the line it expects, its own turn first
    book: bool = False  # the turn came from the opening book

    @property
    def white_score(self) -> int | None:
        """The score from White's side (``None`` for a known result)."""
        if self.score is None:
            return None
        return self.score if self.side == "white" else -self.score

    @property
    def winner(self) -> str | None:
        """The side a known result goes to, else ``None``."""
        other = "black" if self.side == "white" else "white"
        if self.win_in is not None:
            return self.side
        if self.loss_in is not None:
            return other
        return None

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "plies": self.plies,
            "side": self.side,
            "turn": self.turn,
            "score": self.score,
            "white_score": self.white_score,
            "win_in": self.win_in,
            "loss_in": self.loss_in,
            "winner": self.winner,
            "depth": self.depth,
            "nodes": self.nodes,
            "pv": list(self.pv),
            "book": self.book,
        }


def analysis_of(result: Any, kind: str, game: Game) -> Analysis | None:
    """The engine's search ``result`` for ``game``'s position as an ``Analysis`` (``None`` if there is none)."""
    if result is None or getattr(result, "depth", None) is None:
        return None
    try:
        from morris_pi.engine.search import score_form
    except ImportError:  # a board without its engine shows no analysis
        return None
    form = score_form(int(result.score))
    pv = []
    for raw in getattr(result, "pv", ()) or ():
        try:
            pv.append(str(Turn.from_raw(raw)))
        except (TypeError, ValueError):
            break
    turn = getattr(result, "turn", None)
    return Analysis(
        kind=kind,
        plies=len(game.history),
        side=game.turn,
        turn=str(Turn.from_raw(turn)) if turn is not None else None,
        score=form if isinstance(form, int) else None,
        win_in=form.get("win_in") if isinstance(form, dict) else None,
        loss_in=form.get("loss_in") if isinstance(form, dict) else None,
        depth=int(result.depth),
        nodes=int(result.nodes),
        pv=tuple(pv),
        book=bool(getattr(result, "book", False)),
    )
