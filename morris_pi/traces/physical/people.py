"""People choosing turns: random play, steered towards each way a game can end.

A game's *target* is an ending; each side gets a style that makes it likely:
men racing for mills end with fewer than three (passing through flying), a
blocker smothers the other side, shufflers repeat positions, careful players
never close a mill (the N-move rule; twelve men's morris fills the board),
and anyone may resign. Steering only biases legal turns: every turn is one
``Game.legal_turns()`` offers.

>>> sorted(endings("move-this"))[:3]
['blocked', 'claim-n-move', 'claim-repetition']
>>> "full-board" in endings("twelve"), "full-board" in endings("standard")
(True, False)
"""

from __future__ import annotations

import random
from collections import Counter

from morris_pi.rules import Game, Position, Turn, get_profile
from morris_pi.rules.position import PositionKey

STYLES = ("random", "mills", "block", "shuffle", "quiet", "no_mills")

#: Ending target -> (white's style, black's style).
TARGET_STYLES: dict[str, tuple[str, str]] = {
    "fewer-than-three": ("mills", "mills"),
    "blocked": ("block", "random"),
    "threefold-repetition": ("shuffle", "shuffle"),
    "n-move-rule": ("quiet", "quiet"),
    "claim-repetition": ("shuffle", "shuffle"),
    "claim-n-move": ("quiet", "quiet"),
    "full-board": ("no_mills", "no_mills"),
    "resignation": ("random", "random"),
    "open": ("random", "random"),
}


def endings(profile: str) -> list[str]:
    """The ending targets a profile has (draws it claims rather than ends by itself)."""
    p = get_profile(profile)
    out = ["fewer-than-three", "blocked", "resignation"]
    out.append("claim-repetition" if p.repetition_draw == "claim" else "threefold-repetition")
    out.append("claim-n-move" if p.n_move_draw == "claim" else "n-move-rule")
    if p.men * 2 >= 24:
        out.append("full-board")
    return out


def reached(target: str, game: Game, claimed: str | None, resigned: bool) -> bool:
    """Whether a finished game ended the way ``target`` asked."""
    outcome = game.outcome
    if target == "resignation":
        return resigned
    if target == "open":
        return True
    if outcome is None:
        return False
    if target == "claim-repetition":
        return claimed == "threefold-repetition"
    if target == "claim-n-move":
        return claimed == "n-move-rule"
    if target == "full-board":
        return outcome.reason == "blocked" and len(game.history) == 2 * game.profile.men
    return outcome.reason == target


class Chooser:
    """Picks turns for both sides of one game in the styles of its target."""

    def __init__(self, game: Game, target: str, rng: random.Random) -> None:
        self.game = game
        self.styles = dict(zip(("white", "black"), TARGET_STYLES[target], strict=True))
        self.rng = rng
        self.seen: Counter[PositionKey] = Counter({game.position.key(): 1})
        self.last: dict[str, Turn | None] = {"white": None, "black": None}

    def played(self, turn: Turn, side: str) -> None:
        """Tell the chooser a turn was played (whoever chose it)."""
        self.last[side] = turn
        self.seen[self.game.position.key()] += 1

    def choose(self) -> Turn:
        game, rng = self.game, self.rng
        turns = game.legal_turns()
        style = self.styles[game.turn]
        if style in ("quiet", "shuffle") and game.profile.men * 2 >= 24 and any(game.in_hand.values()):
            # Twelve men fill the board unless mills clear points: quiet play starts after placing.
            style = "mills"
        if style == "random" or len(turns) == 1:
            return rng.choice(turns)
        if style == "mills":
            removing = [t for t in turns if t.removal]
            return rng.choice(removing) if removing and rng.random() < 0.9 else rng.choice(turns)
        if style == "block":
            return self._least_mobility(turns)
        if style == "shuffle":
            back = self._back(turns)
            if back is not None:
                return back
        # quiet, no_mills and a shuffler without a way back: no mill, no third repetition.
        return self._quiet(turns)

    def _after(self, turn: Turn) -> Position:
        return self.game.position.play(turn.to_raw())

    def _quiet(self, turns: list[Turn]) -> Turn:
        pos = self.game.position
        calm = [t for t in turns if not pos.closes_mill(*t.to_raw()[:2])]
        fresh = [t for t in calm if self.seen[self._after(t).key()] < 2 and self._after(t).steps()]
        pool = fresh or calm or turns
        # A quiet player also keeps the other side from closing a mill next, where it can.
        safe = [t for t in pool if not _threatens(self._after(t))]
        return self.rng.choice(safe or pool)

    def _back(self, turns: list[Turn]) -> Turn | None:
        last = self.last[self.game.turn]
        if last is None or last.origin is None or last.removal:
            return None
        for t in turns:
            if t.origin == last.target and t.target == last.origin and not t.removal:
                return t
        return None

    def _least_mobility(self, turns: list[Turn]) -> Turn:
        scored = []
        for t in turns:
            after = self._after(t)
            scored.append((len(after.steps()) - (5 if t.removal else 0), self.rng.random(), t))
        return min(scored, key=lambda s: (s[0], s[1]))[2]


def _threatens(pos: Position) -> bool:
    """Whether the side to move in ``pos`` can close a mill at once."""
    return any(pos.closes_mill(o, t) for o, t in pos.steps())
