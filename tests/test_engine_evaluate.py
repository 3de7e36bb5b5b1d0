"""The evaluation computes exactly its documented terms.

The engine's evaluation works on whole bitboards (byte tables, shifts) for speed. Here each
term is written out plainly, point by point and mill by mill, from its definition in
``evaluate.py``'s docstring, and both must agree on many positions of every profile: from
random games (every phase as it arises in play) and random boards (men in hand and on the
board drawn freely, so crowded, flying and moving-while-placing corners come up too).
"""

from __future__ import annotations

import random
from dataclasses import asdict

import pytest

from morris_pi.engine.evaluate import CRAMP_FREE, FEATURES, Evaluator
from morris_pi.rules import PROFILES, Game
from morris_pi.rules.position import tables_for
from morris_pi.rules.profiles import get_profile


def reference_features(tables, me: int, op: int, hme: int, fly: bool) -> dict[str, int]:
    """The terms of the side owning ``me``, from their definitions."""
    adjacency, mills = tables.adjacency, tables.mills
    points = range(24)
    empty = [not ((me | op) >> p & 1) for p in points]
    mine = [bool(me >> p & 1) for p in points]
    moving = hme == 0 or tables.move_while_placing
    f = dict.fromkeys(FEATURES, 0)
    f["men"] = sum(mine) + hme
    for mill in mills:
        pts = [p for p in points if mill >> p & 1]
        if any(op >> p & 1 for p in pts):
            continue
        own = [p for p in pts if mine[p]]
        if len(own) == 3:
            f["closed"] += 1
            if moving and not fly:
                # a man of this mill steps to an empty neighbour and closes another mill there
                for p in pts:
                    for q in points:
                        if adjacency[p] >> q & 1 and empty[q]:
                            others = [m for m in mills if m >> q & 1 and not m >> p & 1]
                            if any(all(mine[x] for x in points if m >> x & 1 and x != q) for m in others):
                                f["double"] += 1
        elif len(own) == 2:
            f["two"] += 1
            (gap,) = [p for p in pts if not mine[p]]
            outside = [p for p in points if mine[p] and p not in pts]
            steps_in = any(adjacency[gap] >> p & 1 for p in outside)
            if hme or (fly and outside) or (moving and steps_in):
                f["closable"] += 1
    if hme and not moving:
        for q in points:
            if empty[q]:
                completes = [m for m in mills if m >> q & 1 and all(mine[x] for x in points if m >> x & 1 and x != q)]
                if len(completes) > 1:
                    f["double"] += 1
    room = set()
    for p in points:
        if mine[p]:
            free = [q for q in points if adjacency[p] >> q & 1 and empty[q]]
            f["mobility"] += len(free)
            room.update(free)
            if not free:
                f["blocked"] += 1
    f["threat"] = 1 if f["closable"] else 0
    f["liberties"] = len(room)
    f["cramped"] = 0 if fly or len(room) >= CRAMP_FREE else (CRAMP_FREE - len(room)) ** 2
    return f


def reference_score(ev: Evaluator, tables, me: int, op: int, hme: int, hop: int) -> int:
    fme = tables.flying and hme == 0 and me.bit_count() == 3
    fop = tables.flying and hop == 0 and op.bit_count() == 3
    phase = "placing" if hme or hop else ("flying" if fme or fop else "moving")
    w = asdict(ev.weights.phase(phase))
    a = reference_features(tables, me, op, hme, fme)
    b = reference_features(tables, op, me, hop, fop)
    score = 0
    for name in FEATURES:
        if name == "threat":
            score += w[name] * a[name]  # only the side to move can use its threat
        elif name == "mobility" and phase != "placing":
            # from the moving phase on, mobility counts only for a side that steps
            score += w[name] * ((0 if fme else a[name]) - (0 if fop else b[name]))
        else:
            score += w[name] * (a[name] - b[name])
    return score


def positions(profile: str, seed: int):
    """(me, op, hme, hop) from random games and from random boards."""
    rng = random.Random(seed)
    for _ in range(60):
        game = Game(profile)
        for _ in range(rng.randrange(0, 80)):
            turns = game.legal_turns()
            if not turns:
                break
            game.play(rng.choice(turns))
        for pos in game.positions[-6:]:
            yield pos.men[pos.side], pos.men[pos.side ^ 1], pos.hand[pos.side], pos.hand[pos.side ^ 1]
    men = get_profile(profile).men
    for _ in range(400):
        cells = rng.sample(range(24), rng.randrange(0, 2 * men + 1))
        split = rng.randrange(0, len(cells) + 1)
        me = sum(1 << p for p in cells[:split][:men])
        op = sum(1 << p for p in cells[split:][:men])
        yield me, op, rng.randrange(0, men - me.bit_count() + 1), rng.randrange(0, men - op.bit_count() + 1)


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_evaluation_equals_the_plain_reference(profile):
    tables = tables_for(profile)
    ev = Evaluator(tables)
    checked = 0
    for me, op, hme, hop in positions(profile, seed=len(profile)):
        fme = tables.flying and hme == 0 and me.bit_count() == 3
        expected = reference_features(tables, me, op, hme, fme)
        got = dict(zip(FEATURES, ev.side_features(me, op, hme, fme), strict=True))
        assert got == expected, (profile, me, op, hme, hop)
        assert ev.evaluate(me, op, hme, hop) == reference_score(ev, tables, me, op, hme, hop), (profile, me, op, hme)
        checked += 1
    assert checked > 600


def test_the_reference_sees_each_term():
    # the comparison above means something only if the positions exercise every term
    seen = set()
    for profile in sorted(PROFILES):
        tables = tables_for(profile)
        for me, op, hme, _ in positions(profile, seed=len(profile)):
            fme = tables.flying and hme == 0 and me.bit_count() == 3
            seen.update(name for name, value in reference_features(tables, me, op, hme, fme).items() if value)
    assert seen == set(FEATURES)
