"""Reed switches: real contact changes in, trace events out.

A person's hands decide when a magnet is over a point (``Contacts``). The
switch layer turns each change into what the board reads: contact bounce of
under 1 ms on a make or a break, a change the board never reads (``lost``),
and the scan of every switch (a trace ``snapshot``) that heals a loss.

>>> c = Contacts()
>>> _ = c.close(1.0, "d6"), c.open(2.5, "d6")
>>> [e for e in events(c, bounce=0.0, rng=None)]
[{'t': 1.0, 'on': 'd6'}, {'t': 2.5, 'off': 'd6'}]
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

#: Trace times are written to 10 microseconds: bounce lives below a millisecond.
DIGITS = 5

#: One trace line: ``t`` and one of ``on``/``off`` (a point), ``snapshot`` (the closed points) or ``button``.
Event = dict[str, float | str | list[str]]


@dataclass
class Change:
    """A magnet arriving over a point (``closed``) or leaving it."""

    t: float
    point: str
    closed: bool
    seq: int
    lost: bool = False


@dataclass
class Contacts:
    """Every real contact change of a game, plus scans and button presses."""

    changes: list[Change] = field(default_factory=list)
    scans: list[tuple[float, int]] = field(default_factory=list)
    buttons: list[tuple[float, int, str]] = field(default_factory=list)
    _seq: int = 0

    def _next(self) -> int:
        self._seq += 1
        return self._seq

    def close(self, t: float, point: str) -> Change:
        change = Change(t, point, True, self._next())
        self.changes.append(change)
        return change

    def open(self, t: float, point: str) -> Change:
        change = Change(t, point, False, self._next())
        self.changes.append(change)
        return change

    def scan(self, t: float) -> None:
        self.scans.append((t, self._next()))

    def press(self, t: float, button: str) -> None:
        self.buttons.append((t, self._next(), button))

    def closed_at(self, t: float) -> list[str]:
        """The points whose switch is closed at time ``t`` (what a scan reads)."""
        state: dict[str, bool] = {}
        for change in sorted(self.changes, key=lambda c: (c.t, c.seq)):
            if change.t > t:
                break
            state[change.point] = change.closed
        return sorted(p for p, on in state.items() if on)

    def check(self) -> None:
        """Every point alternates make, break, make ...: a generator bug otherwise."""
        state: dict[str, bool] = {}
        for change in sorted(self.changes, key=lambda c: (c.t, c.seq)):
            if state.get(change.point, False) == change.closed:
                raise AssertionError(
                    f"contact at {change.point} {'closed' if change.closed else 'opened'} twice (t={change.t:.4f})"
                )
            state[change.point] = change.closed


def _bounce(change: Change, rng: random.Random) -> list[tuple[float, bool]]:
    """The make or break plus 1-3 reversals within a millisecond, ending in the new state."""
    out = [(change.t, change.closed)]
    t = change.t
    for _ in range(rng.randint(1, 3)):
        t += rng.uniform(0.00005, 0.0003)
        out.append((t, not change.closed))
        t += rng.uniform(0.00005, 0.0003)
        out.append((t, change.closed))
    return out


def events(
    contacts: Contacts, *, bounce: float, rng: random.Random | None, counts: Counter[str] | None = None
) -> list[Event]:
    """The trace events the board reads, in time order.

    ``counts["bounce"]`` grows by one for every make or break that bounced.
    """
    rows: list[tuple[float, int, int, dict[str, str | list[str]]]] = []
    for change in contacts.changes:
        if change.lost:
            continue
        key = "on" if change.closed else "off"
        if bounce and rng is not None and rng.random() < bounce:
            if counts is not None:
                counts["bounce"] += 1
            for sub, (t, closed) in enumerate(_bounce(change, rng)):
                rows.append((round(t, DIGITS), change.seq, sub, {"on" if closed else "off": change.point}))
        else:
            rows.append((round(change.t, DIGITS), change.seq, 0, {key: change.point}))
    for t, seq in contacts.scans:
        rows.append((round(t, DIGITS), seq, 0, {"snapshot": contacts.closed_at(t)}))
    for t, seq, button in contacts.buttons:
        rows.append((round(t, DIGITS), seq, 0, {"button": button}))
    rows.sort(key=lambda r: (r[0], r[1], r[2]))
    return [{"t": t, **body} for t, _, _, body in rows]
