"""A second sensor-trace generator, written from how hands, magnets and reed switches behave.

    morris-pi traces second_hands OUT --games N --seed S [--mess 0.25] [--profiles P ...]
                                      [--only KIND ...] [--off KIND ...]

Writes ``NAME.jsonl`` (a trace for ``morris-pi replay``) and ``NAME.expected.json``
(``{"record", "outcome"}``, what ``bench/check_traces.py`` compares) for N random games, and
``summary.json`` with how often each kind of mess was actually played. The games are two-player,
spread over every profile, with a preference for turns that close a mill or block the opponent, so
that games reach flying and real endings: fewer than three men, blocked, threefold repetition,
the N-move rule, a resignation (the ``resign`` button, side to move) or a claimed draw (the
``draw`` button, profiles whose draws are claimed).

How the trace is made. A game is chosen first (every turn known in advance), then played by two
people, turn by turn, as *contacts*: the moments a man's magnet comes within reach of a reed
switch (``closed``) or leaves it. A sensor layer turns contacts into the trace: switch bounce,
lost changes, and the board's periodic scan (a ``snapshot`` of every closed switch). An event is
written only when it changes what the board last reported, as a driver that compares with its last
reading would; a lost change therefore stays unseen until the next scan shows it.

Timing (my own choices, from watching people play; seconds):

- thinking before a turn 1-10 (log-uniform); fast play 0.05-0.5, counted from the previous
  turn's last lift or landing, so the next hand may start while that man still flickers;
- a move carries the man 0.3-1.5; a placement comes in from the player's side of the board in
  0.3-1.0 (no event until it lands); a removal follows the mill after 0.4-3;
- switch bounce: 2-6 extra transitions within 1-10 ms of the change;
- a man put down off-centre: 2-8 flickers (closed 30-150 ms, open 10-120 ms each), about 0.8 s
  in all (0.1-2.2 s);
- a slide over an empty point: a close of 15-60 ms; a hover over a point: 40-120 ms, 0.2-0.6
  between points; a nudged neighbour: open 30-150 ms;
- a knocked man is off 0.5-2.5 before its owner puts it back; a hesitation holds the man 0.3-2;
  a protected man or own man lifted for removal is held 0.4-2; an illegal move stands 1-3 before
  the man goes back;
- the board scans every 2-5 (fixed per game), which heals a lost change.

Kinds of mess (each played with probability ``--mess`` wherever it can happen, and counted):
``bounce`` (per switch change), ``slide`` (a carried man passes over empty points), ``off_centre``,
``hover`` (a man held over other points before it lands), ``hesitate`` (the man to move lifted and
put back), ``wrong_man`` (another own man lifted and put back first), ``knock`` (a sleeve knocks a
man near the hand off its point, before or after the moved man lands; its owner puts it back),
``nudge``, ``removal_first`` (the man to be taken lifted before the mill is closed), ``protected``
(a protected man lifted for removal and put back), ``own_lift`` (the remover lifts an own man to
take it, then puts it back), ``illegal`` (a non-adjacent move, or a move while men are still to be
placed, then the man goes back and the legal turn follows), ``fast`` (see timing),
``both_hands`` (the next player lifts a man before the mover's man has landed), ``lost`` (one
switch change of a turn never reported; the next scan shows it), ``two_lifted`` (a flying side
grabs two men, puts one back) and ``captured_dropped`` (a taken man dropped back onto a point and
picked up again).

Decidability: what is excluded and why. A trace is only useful if a careful reader *could* get the
record right. The tracker sees occupancy and when it changed, never colour. So:

- Any state of the board that lasts 0.25 s or longer during a turn with a lingering kind of mess,
  as the switches show it (true occupancy) and as the events show it (with a lost change, until
  the next scan), must not be the occupancy after a *different* legal reading from the position
  before the turn: another whole turn, another mill-closing step waiting for its removal, any two
  turns in a row, or another turn with one more man missing (a move onto a point where a
  placement is legal, with the origin off at the same moment, *is* that placement with a knocked
  man). Such a turn is re-drawn (up to 8 times, then played without the lingering kinds). This
  excludes, for example, a knocked man that could be the removal the mill earns, an illegal move
  while men are still to be placed, a man knocked off beside the target in ``lasker``, and a lost
  lift whose landing reads as a legal placement.
- While the other side still has men to place, no man is put on a point after the turn is
  complete (a knocked man put back late, a taken man dropped back): it would read as the other
  side's placement there.
- Shorter states (bounce, slides, hovers, flickers, nudges; all under 0.15 s) are not checked:
  a switch closed for a tenth of a second is not a man put down. A taken man dropped back stays
  at least 0.3 s, so it is checked.
- A man just put down is not taken (or moved) by the other side before it has stood still for
  0.5 s: taken while it still flickers, it reads as a hand hovering there, never as a turn.
- Fast play never lands a placement before the last man put down has stopped flickering, nor
  starts a move that could have swapped targets with it: only the order of the landings would
  tell which man went where.
- ``both_hands`` is played only when no side has men in hand and the mover's turn takes no man
  (nothing may happen during a pending removal but the remover's own hand), and not when the
  crossed reading (each man landing on the other's target) is also legal.
- The next turn starts only after every knocked man is back and after the scan that heals a lost
  change: two stale pictures at once would make two games equally likely.
- A man is never put down on another's point, and every mess restores the board (a knocked man
  goes back to its own point).

How the games are chosen: ``STYLES`` per game (``attack`` prefers mills, ``block`` hems the
other side in, ``shuffle`` moves a man back and forth, ``quiet`` avoids mills), a turn that
blocks the opponent strongly preferred, a resignation in one game of ten, a claimable draw
claimed four times in five, and a resignation after 300 turns.
"""

from __future__ import annotations

import random
from collections import Counter

from .hands import KINDS, Hands
from .plan import choose_game
from .sensors import render

__all__ = ["KINDS", "make_trace", "mess_levels"]


def make_trace(
    seed: str,
    profile: str,
    mess: dict[str, float],
    window: tuple[int, int] | None = None,
    turns: int | None = None,
) -> tuple[list[dict[str, object]], dict[str, object], Counter[str]]:
    """One game: the trace lines (header first), the expectation and the kinds played.

    ``window`` plays mess only on those turns (first, last; 0-based) and ``turns`` stops the game
    after that many turns, with the record so far and no outcome expected: how a failing trace
    is cut down to the turns that matter.
    """
    rng = random.Random(seed)
    plan = choose_game(rng, profile)
    if turns is not None and turns >= len(plan.turns):
        turns = None
    hands = Hands(seed, plan, mess, window, turns)
    contacts, end = hands.play()
    end += rng.uniform(2.0, 5.0)
    header: dict[str, object] = {"profile": profile, "white": "human", "black": "human"}
    events = render(hands, contacts, end + 4.0)
    if plan.button and turns is None:
        events.append({"t": round(end, 4), "button": plan.button})
    events.sort(key=lambda e: float(e["t"]))  # type: ignore[arg-type]
    events.append({"t": round(end + 5.0, 4)})
    expected: dict[str, object] = {"record": plan.record, "outcome": plan.outcome.to_dict()}
    if turns is not None:
        expected = {"record": " ".join(str(t) for t in plan.turns[:turns])}
    kinds = Counter(hands.counts)
    kinds[f"end:{plan.outcome.reason}"] += 1
    return [header, *events], expected, kinds


def mess_levels(level: float, only: list[str] | None, off: list[str] | None) -> dict[str, float]:
    chosen = set(only or KINDS) - set(off or [])
    return {k: (level if k in chosen else 0.0) for k in KINDS}
