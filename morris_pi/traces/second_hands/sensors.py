"""From contacts to a trace: switch bounce, lost changes, and the board's periodic scan."""

from __future__ import annotations

import random

from morris_pi.rules import point_index

from .hands import Contact, Hands


def render(hands: Hands, contacts: list[Contact], end: float) -> list[dict[str, object]]:
    """Contacts to trace events: bounce, lost changes and the periodic scan."""
    rng = random.Random(f"{hands.seed}:render")
    by_point: dict[str, list[Contact]] = {}
    for c in sorted(contacts, key=lambda c: c.t):
        by_point.setdefault(c.point, []).append(c)
    transitions: list[tuple[float, int, str, bool]] = []  # (t, order, point, closed)
    for point, seq in by_point.items():
        state = False
        for k, c in enumerate(seq):
            if c.closed == state:
                raise AssertionError(f"{point}: contact at {c.t:.3f} does not change the switch")
            state = c.closed
            if c.lost:
                continue
            transitions.append((c.t, 0, point, c.closed))
            if c.bounce:
                gap = (seq[k + 1].t - c.t) if k + 1 < len(seq) else 1.0
                room = min(0.010, gap / 2)
                u = c.t
                flip = c.closed
                for _ in range(rng.randint(1, 3)):
                    u += rng.uniform(0.1, 0.4) * room / 2
                    transitions.append((u, 0, point, not flip))
                    u += rng.uniform(0.1, 0.4) * room / 2
                    transitions.append((u, 0, point, flip))
    truth_changes = sorted(((c.t, c.point, c.closed) for c in contacts), key=lambda x: x[0])
    scans = []
    s = hands.scan_phase
    while s < end:
        scans.append(s)
        s += hands.scan_period
    transitions.sort(key=lambda x: x[0])
    items: list[tuple[float, int, object]] = [(t, 0, (p, v)) for t, _, p, v in transitions]
    items += [(t, 1, None) for t in scans]
    items.sort(key=lambda x: (x[0], x[1]))
    reported: set[str] = set()
    truth: set[str] = set()
    j = 0
    out: list[dict[str, object]] = [{"t": 0, "snapshot": []}]
    for t, _, what in items:
        if what is None:
            while j < len(truth_changes) and truth_changes[j][0] <= t:
                _, p, v = truth_changes[j]
                (truth.add if v else truth.discard)(p)
                j += 1
            reported = set(truth)
            out.append({"t": round(t, 4), "snapshot": sorted(reported, key=point_index)})
            continue
        p, v = what  # type: ignore[misc]
        if v == (p in reported):
            continue
        (reported.add if v else reported.discard)(p)
        out.append({"t": round(t, 4), "on" if v else "off": p})
    last_t = 0.0
    for line in out:  # rounding must not reorder
        line["t"] = max(float(line["t"]), last_t)  # type: ignore[arg-type]
        last_t = float(line["t"])  # type: ignore[arg-type]
    return out
