"""Static evaluation of a position from the side to move's point of view.

Terms (each counted for both sides, own minus opponent's), weighted per phase:

- ``men``: men on the board plus men in hand (material).
- ``closed``: mills standing closed.
- ``two``: two men of a mill with its third point empty.
- ``closable``: such a pair that a man can complete next turn (placing from
  hand, flying, or stepping in from a neighbouring point outside the mill).
- ``double``: a running double mill (Zwickmuehle): a man of a closed mill that
  steps to a neighbour and closes a second mill, and steps back to close the
  first again. While placing: an empty point that completes two mills.
- ``mobility``: steps along lines to empty points, in every phase (from the
  moving phase on not counted for a side that may fly).
- ``blocked``: men with no empty neighbour.
- ``threat``: the side to move can close a mill with its very next turn.
- ``liberties``: distinct empty points next to the side's men (its room to
  move). Counted while placing too: a side that places all its men into a
  pocket is smothered as soon as moving starts.
- ``cramped``: ``max(0, 5 - liberties) ** 2``, blockade danger. A side with
  few liberties can be shut in completely (it loses when it cannot move), so
  the penalty grows fast as the last exits close. Not counted for a side that
  may fly.

The phase is ``placing`` while anyone has men in hand, ``flying`` when a side
may fly, else ``moving``. Weights come from self-play tuning
(``morris_pi.engine.tune``); see ``DEFAULT_WEIGHTS``.

>>> from morris_pi.rules import Position
>>> ev = Evaluator(Position.start().tables)
>>> ev.evaluate(0, 0, 9, 9)
0
"""

from __future__ import annotations

from morris_pi.rules.board import FULL, bits
from morris_pi.rules.position import Tables

FEATURES: tuple[str, ...] = (
    "men",
    "closed",
    "two",
    "closable",
    "double",
    "mobility",
    "blocked",
    "threat",
    "liberties",
    "cramped",
)
#: Below this many liberties a side counts as cramped (see ``cramped``).
CRAMP_FREE = 5
PHASES: tuple[str, ...] = ("placing", "moving", "flying")

#: Weights per phase, in centi-men. Result of ``python -m morris_pi.engine.tune``
#: (the README's engine section records the runs that produced them).
DEFAULT_WEIGHTS: dict[str, dict[str, int]] = {
    "placing": {
        "men": 100,
        "closed": 20,
        "two": 14,
        "closable": 6,
        "double": 40,
        "mobility": 8,
        "blocked": -5,
        "threat": 24,
        "liberties": 8,
        "cramped": -12,
    },
    "moving": {
        "men": 100,
        "closed": 12,
        "two": 6,
        "closable": 30,
        "double": 70,
        "mobility": 6,
        "blocked": -8,
        "threat": 60,
        "liberties": 6,
        "cramped": -20,
    },
    "flying": {
        "men": 100,
        "closed": 5,
        "two": 10,
        "closable": 30,
        "double": 20,
        "mobility": 0,
        "blocked": 0,
        "threat": 70,
        "liberties": 0,
        "cramped": 0,
    },
}

WIN_SCORE = 30000  # a won position at the root; wins at ply p score WIN_SCORE - p


def merged(weights: dict[str, dict[str, int]] | None) -> dict[str, dict[str, int]]:
    """Default weights overridden by ``weights`` (per phase, per feature)."""
    out = {phase: dict(DEFAULT_WEIGHTS[phase]) for phase in PHASES}
    for phase, terms in (weights or {}).items():
        if phase not in out:
            raise ValueError(f"unknown evaluation phase {phase!r}: choose from {', '.join(PHASES)}")
        for name, value in terms.items():
            if name not in FEATURES:
                raise ValueError(f"unknown evaluation term {name!r} in phase {phase!r}")
            out[phase][name] = int(value)
    return out


class Evaluator:
    """Evaluates ``(me, op, hand_me, hand_op)`` bitboards of one profile's tables."""

    def __init__(self, tables: Tables, weights: dict[str, dict[str, int]] | None = None) -> None:
        self.adjacency = tables.adjacency
        self.partners = tables.partners
        self.flying = tables.flying
        self.move_while_placing = tables.move_while_placing
        # per mill: (mask, ((point, bit), ...))
        self.mills = tuple((m, tuple((i, 1 << i) for i in bits(m))) for m in tables.mills)
        w = merged(weights)
        self.weights = w
        self._vec = {phase: tuple(w[phase][f] for f in FEATURES) for phase in PHASES}

    # -- features ------------------------------------------------------------------

    def side_features(self, me: int, op: int, hme: int, fly: bool) -> tuple[int, ...]:
        """Feature counts of the side owning ``me`` (``threat``: it could close a mill next turn)."""
        adjacency = self.adjacency
        empty = FULL & ~(me | op)
        closed = two = closable = double = 0
        moving = hme == 0 or self.move_while_placing
        for m, pts in self.mills:
            a = me & m
            if op & m:
                continue
            if a == m:
                closed += 1
                if moving and not fly:
                    for p, pb in pts:
                        for q in bits(adjacency[p] & empty):
                            for pair in self.partners[q]:
                                if not pair & pb and me & pair == pair:
                                    double += 1
                                    break
            elif a and a & (a - 1):
                two += 1
                e = (m ^ a).bit_length() - 1
                if hme or (fly and me & ~m) or (moving and adjacency[e] & me & ~m):
                    closable += 1
        if hme and not moving:
            # placing: empty points that complete two mills at once
            for q in bits(empty):
                n = 0
                for pair in self.partners[q]:
                    if me & pair == pair:
                        n += 1
                if n > 1:
                    double += 1
        mobility = blocked = 0
        room = 0
        for p in bits(me):
            free = adjacency[p] & empty
            if free:
                mobility += free.bit_count()
                room |= free
            else:
                blocked += 1
        men = me.bit_count() + hme
        liberties = room.bit_count()
        cramped = 0 if fly or liberties >= CRAMP_FREE else (CRAMP_FREE - liberties) ** 2
        return (men, closed, two, closable, double, mobility, blocked, 1 if closable else 0, liberties, cramped)

    def evaluate(self, me: int, op: int, hme: int, hop: int) -> int:
        """Score in centi-men, positive when the side to move stands better."""
        flying = self.flying
        fme = flying and hme == 0 and me.bit_count() == 3
        fop = flying and hop == 0 and op.bit_count() == 3
        phase = "placing" if hme or hop else ("flying" if fme or fop else "moving")
        w = self._vec[phase]
        a = self.side_features(me, op, hme, fme)
        b = self.side_features(op, me, hop, fop)
        score = (
            w[0] * (a[0] - b[0])
            + w[1] * (a[1] - b[1])
            + w[2] * (a[2] - b[2])
            + w[3] * (a[3] - b[3])
            + w[4] * (a[4] - b[4])
            + w[6] * (a[6] - b[6])
            + w[7] * a[7]
            + w[8] * (a[8] - b[8])
            + w[9] * (a[9] - b[9])
        )
        if phase != "placing":
            # mobility counts only for sides that step along lines
            score += w[5] * ((0 if fme else a[5]) - (0 if fop else b[5]))
        else:
            score += w[5] * (a[5] - b[5])
        return score
