"""Stories: the legal histories that could have made the switch evidence, each with its cost.

A story is a chain of up to ``MAX_TURNS`` legal turns from the base position, perhaps ending
in a turn still in the hand (a man lifted, or a mill's step made and its removal not yet). It
explains every change of every switch: a change is either a flip the chain needs (a man
lifted, landed, taken) or one half of a noise excursion with a role from the model (a magnet
passing, a nudge, a knock, a flicker, a man set down and taken up). Hard constraints: a man
leaves before he lands, a turn begins after the turn it answers began, flips on one point come
in the chain's order. Everything else is priced by the model (``model.py``).

>>> from morris_pi.rules import Position
>>> ev = Evidence.static(0, {"d6": [(1.0, True)], "a1": [(3.0, True)]}, 5.0)
>>> [str(s) for s in read_stories(Position.start(), ev)][:1]
['d6 a1']
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from morris_pi.errors import MorrisPiError
from morris_pi.rules import Position
from morris_pi.rules.board import POINTS

from .evidence import Evidence
from .model import DEFAULT_MODEL, Model
from .scoring import Scorer
from .story import Part, RawTurn, Setting, Story, flips_of, joined, setting_span

#: The longest chain of turns a story tells beyond the base position, at first.
MAX_TURNS = 4
#: The longest chain told when every good story of a shorter one used all its turns (quick play
#: that ran ahead of the board); beyond it the board waits.
LONGEST_TURNS = 5
#: Stories kept per reading, cheapest first.
MAX_STORIES = 100000
#: Points at most whose last change starts an excursion still going on (a man off-centre, a
#: hand resting on a point) in one story.
ONGOING_MAX = 2
#: More such points a story may leave when it tells every turn it may: the men put down after
#: its last turn stand for turns beyond what it told, and only a longer story explains them.
HORIZON_ONGOING = 2


class OutOfChains(MorrisPiError, RuntimeError):
    """A ranking scored more chains than its ``ChainBudget`` allows (the evidence was fine, there
    was only too much of it to tell at once)."""


class ChainBudget:
    """How many chains one ranking may score before it gives up, so that no ranking holds up the
    board's loop for long: the board waits (and ranks again later) instead.

    >>> budget = ChainBudget(1)
    >>> budget.spend()
    >>> budget.spend()
    Traceback (most recent call last):
    ...
    morris_pi.tracker.stories.OutOfChains: a ranking scored more than 1 chains
    """

    def __init__(self, chains: int) -> None:
        self.chains = chains
        self.left = chains

    def spend(self, chains: int = 1) -> None:
        self.left -= chains
        if self.left < 0:
            raise OutOfChains(f"a ranking scored more than {self.chains} chains")


@dataclass(frozen=True, slots=True)
class Prompt:
    """Against the computer: its side (0 white, 1 black) and the turns it was prompted to play,
    by the position it was asked in, each with when the LEDs began to show it.

    A hand carries out the computer's turns as the LEDs show them: in a position it was asked
    in, its side plays only the prompted turn, in every story that passes through that position
    (not only from the base: while a doubt is carried as several readings, one reading reaches
    the position another was asked in). A turn of its side not prompted yet (the search still
    running, or the human's turn before it not yet committed) may be any legal turn, since a hand
    may be ahead of the LEDs, but it is never committed before it is prompted (``unprompted``).

    >>> from morris_pi.rules import Turn
    >>> after_d6 = Position.start().play(Turn.parse("d6").to_raw())
    >>> chain = [Turn.parse(t).to_raw() for t in ("a7", "g7", "a1")]
    >>> Prompt(1).unprompted(after_d6, chain), Prompt(1, {after_d6: (chain[0], 0.0)}).unprompted(after_d6, chain)
    (0, 2)
    >>> later = after_d6.play(chain[0]).play(chain[1])
    >>> Prompt(1, {after_d6: (chain[0], 0.0), later: (chain[2], 0.0)}).unprompted(after_d6, chain)
    3
    """

    side: int
    turns: Mapping[Position, tuple[RawTurn, float]] = field(default_factory=dict)

    def at(self, pos: Position) -> tuple[RawTurn, float] | None:
        """The turn prompted in ``pos`` and since when the LEDs show it, if the computer was
        asked there (a man put down elsewhere after it is a mistake)."""
        return self.turns.get(pos) if pos.side == self.side else None

    def unprompted(self, base: Position, turns: Sequence[RawTurn]) -> int:
        """How many of ``turns`` (from ``base``) come before the computer's first one not prompted."""
        pos = base
        for k, turn in enumerate(turns):
            if pos.side == self.side and pos not in self.turns:
                return k
            pos = pos.play(turn)
        return len(turns)


def _pendings(pos: Position, line: Sequence[RawTurn] | None = None) -> list[RawTurn]:
    """The turns that can be in the hand now: a man lifted, or a mill's step awaiting its removal."""
    out: set[RawTurn] = set()
    for o, t, r in pos.turns() if line is None else line:
        if o >= 0:
            out.add((o, -1, -1))
        if r >= 0:
            out.add((o, t, -1))
    return sorted(out)


def read_stories(
    base: Position,
    evidence: Evidence,
    model: Model = DEFAULT_MODEL,
    *,
    line: Sequence[RawTurn] | None = None,
    prompt: Prompt | None = None,
    turns: int = MAX_TURNS,
    prefix: Sequence[RawTurn] = (),
    budget: ChainBudget | None = None,
    setting: Setting | None = None,
    ceiling: float = math.inf,
    scorer: Scorer | None = None,
) -> list[Story]:
    """Every story of up to ``turns`` turns within the model's margin of the cheapest, cheapest first.

    ``setting`` puts the board right for ``base`` before the first turn (the board does not show
    it yet: a takeback, a new or resumed game); every story begins with it. ``line`` keeps only
    the stories that follow it (a game whose turns are known, as when the model is fitted to
    games with their records); ``prompt`` lets the computer's side play only its prompted turn;
    ``prefix`` keeps only the stories that begin with it; ``ceiling`` only those that cost no
    more (what is dearer would not matter to the caller). ``scorer``, if it scores ``evidence``
    with ``model``, is used (its per-point work shared with earlier calls).
    ``budget`` is spent one chain scored at a time, and raises ``OutOfChains`` when it runs out.

    A chain is not followed further once even its cheapest continuation would cost more than the
    margin above the cheapest story found: every cost is positive, and each point's changes
    cost at least the cheapest alignment with as many flips as the chain has used there or more.
    """
    # the setting's flips come first on every story: they are used before any turn is told
    used = [len(flips) for flips in flips_of((), None, setting)]
    if any(u > len(p.changes) for u, p in zip(used, evidence.points, strict=True)):
        return []  # a point still to be set has not changed yet
    if scorer is None or scorer.ev is not evidence or scorer.model is not model:
        scorer = Scorer(evidence, model)
    counts = scorer.counts
    most = turns + 1 + (2 if setting is not None else 0)  # a point flips at most once a ply, twice in a setting
    floor = [scorer.floors(i, most) for i in range(len(POINTS))]
    bound_now = [sum(row[u] for row, u in zip(floor, used, strict=True)) + scorer.lost]
    odd = sum(1 for n, u in zip(counts, used, strict=True) if (n - u) % 2)
    found: list[Story] = []
    replies = -1 if prompt is None else (prompt.side - base.side) % 2
    best = [ceiling - model.margin]  # until a cheaper story is found, the ceiling prunes

    # the points with a change left for a flip, as bits: most turns of a ranking fit nowhere
    room = sum(1 << p for p, (n, u) in enumerate(zip(counts, used, strict=True)) if u < n)

    def touch(turn: RawTurn, step: int) -> int:
        nonlocal odd, room
        for p in turn:
            if p >= 0:
                bound_now[0] -= floor[p][used[p]]
                used[p] += step
                bound_now[0] += floor[p][used[p]]
                odd += 1 if (counts[p] - used[p]) % 2 else -1
                room = room | 1 << p if used[p] < counts[p] else room & ~(1 << p)
        return odd

    def fits(turn: RawTurn) -> bool:
        o, t, r = turn
        return (o < 0 or room >> o & 1 == 1) and (t < 0 or room >> t & 1 == 1) and (r < 0 or room >> r & 1 == 1)

    def scored(chain: tuple[RawTurn, ...], pending: RawTurn | None, final: Position) -> Story | None:
        if budget is not None:
            budget.spend()
        placing = _placing(prompt, pending, final)
        return scorer.score(chain, pending, final, setting, placing, replies, ceiling=best[0] + model.margin)

    def keep(story: Story | None) -> None:
        if story is not None and story.cost <= best[0] + model.margin:
            found.append(story)
            best[0] = min(best[0], story.cost)

    def allowed(pos: Position, ply: int) -> Sequence[RawTurn]:
        if ply < len(prefix):
            return prefix[ply : ply + 1]
        if line is not None:
            return line[ply : ply + 1]
        prompted = None if prompt is None else prompt.at(pos)
        return pos.turns() if prompted is None else (prompted[0],)

    def walk(pos: Position, chain: tuple[RawTurn, ...]) -> None:
        if len(found) >= MAX_STORIES or bound_now[0] + model.turn * len(chain) > best[0] + model.margin:
            return
        ongoing = ONGOING_MAX + (HORIZON_ONGOING if len(chain) == turns else 0)
        if odd <= ongoing and len(chain) >= len(prefix):
            keep(scored(chain, None, pos))
        deeper = len(chain) < turns and odd <= 3 * (turns - len(chain)) + ONGOING_MAX + 2
        if not deeper and (odd > 2 + ongoing or len(chain) < len(prefix)):
            return
        following = allowed(pos, len(chain))
        if odd <= 2 + ongoing and len(chain) >= len(prefix):
            for pending in _pendings(pos, following):
                if fits(pending):
                    touch(pending, 1)
                    if odd <= ongoing and bound_now[0] + model.turn * (len(chain) + 1) <= best[0] + model.margin:
                        keep(scored(chain, pending, pos))
                    touch(pending, -1)
        if not deeper:
            return
        for turn in following:
            if not fits(turn):
                continue
            touch(turn, 1)
            walk(pos.play(turn), (*chain, turn))
            touch(turn, -1)

    walk(base, ())
    found = [s for s in found if s.cost <= best[0] + model.margin]
    found.sort(key=lambda s: s.cost)
    return found


def retell(
    base: Position,
    evidence: Evidence,
    told: Sequence[Story],
    unfinished: tuple[str, ...],
    model: Model = DEFAULT_MODEL,
    *,
    prompt: Prompt | None = None,
    scorer: Scorer | None = None,
) -> list[Story] | None:
    """What ``read_stories`` would tell now of ``told``, the stories it told from ``base`` when the
    switches had made the same changes as ``evidence`` shows and only time has passed since: each
    priced again at ``evidence.now``, when the cheapest of them costs what it did then; ``None``
    when it does not (the changes are to be read in full).

    Time makes a story dearer (a carry, a hand resting, a man off-centre last longer), so a chain
    that was not among them cost more than the margin above the cheapest then, and costs more
    still now: while the cheapest costs the same, the good stories are among ``told``. One thing
    time does otherwise: an unfinished excursion may come to be read as half of a man set down
    astray, and two such halves together cost less than the noise they were. ``unfinished``
    (``Scorer.unfinished`` of the evidence they were told from) says how they were read then;
    when any is read otherwise now, ``None``.

    >>> from morris_pi.rules import Position
    >>> ev = Evidence.static(0, {"d6": [(1.0, True)], "a1": [(3.0, True)]}, 5.0)
    >>> told = read_stories(Position.start(), ev)
    >>> then = Scorer(ev, DEFAULT_MODEL).unfinished()
    >>> later = Evidence(ev.points, 9.0)
    >>> again = retell(Position.start(), later, told, then)
    >>> [(str(s), s.cost) for s in again] == [(str(s), s.cost) for s in read_stories(Position.start(), later)]
    True
    """
    if not told:
        return []
    if scorer is None or scorer.ev is not evidence or scorer.model is not model:
        scorer = Scorer(evidence, model)
    if scorer.unfinished(pile=prompt is not None) != unfinished:
        return None
    replies = -1 if prompt is None else (prompt.side - base.side) % 2
    now: list[Story] = []
    for story in told:
        final = base
        for turn in story.turns:
            final = final.play(turn)
        placing = _placing(prompt, story.pending, final)
        again = scorer.score(story.turns, story.pending, final, story.setting, placing, replies)
        if not now and (again is None or again.cost != story.cost):
            return None  # the cheapest costs more now: another may be the cheapest
        if again is not None:
            now.append(again)
    now = [s for s in now if s.cost <= told[0].cost + model.margin]
    now.sort(key=lambda s: s.cost)
    return now


def _placing(prompt: Prompt | None, pending: RawTurn | None, final: Position) -> int | None:
    """Where the computer was prompted to put a man in ``final`` (a placement the LEDs show), if a
    story ends there with no turn in the hand."""
    prompted = None if pending is not None or prompt is None else prompt.at(final)
    if prompted is not None and prompted[0][0] < 0:
        return prompted[0][1]
    return None


def explain(
    evidence: Evidence,
    story: Story,
    model: Model = DEFAULT_MODEL,
    *,
    replies: int = -1,
    base: Position | None = None,
) -> list[Part]:
    """What each piece of ``story`` costs: every noise excursion with its role, every carry,
    removal, pause between turns and overlap, the changes only a scan showed, and the turns.

    This is how a failing game is read: the true story's parts beside the chosen one's show
    which role priced the truth out. ``replies``: against the computer, the parity of the plies
    it plays from the story's base (its turns are priced as replies to the LEDs' prompt).
    ``base``: the position its turns are made from, which says which men its removals could not
    take (without it, no man lifted and put back is read as a remover's fumble).
    """
    scorer = Scorer(evidence, model)
    need = flips_of(story.turns, story.pending, story.setting)
    parts: list[Part] = []
    times: dict[tuple[int, str], tuple[float, float]] = {}
    magnets: list[tuple[int, float, float]] = []
    lifts: list[tuple[int, float, float]] = []
    plies = len(story.turns) + (story.pending is not None)
    for i, picked in enumerate(story.matched):
        seq = evidence.points[i].changes
        for f, j in zip(need[i], picked, strict=True):
            times[(f.ply, f.role)] = (seq[j].lo, seq[j].t)
    final = base
    if final is not None:
        for turn in story.turns:
            final = final.play(turn)
    due = scorer.removals_due(times, scorer.spared(story.turns, final))
    for i, picked in enumerate(story.matched):
        seq = evidence.points[i].changes
        lifts += scorer.lifted(i, need[i], picked)
        for a, ongoing in scorer.excursions(i, picked):
            if not ongoing:
                cost, role = scorer.excursion_role(i, a)
                lo, hi = max(seq[a + 1].lo - seq[a].t, 0.0), seq[a + 1].t - seq[a].lo
                if role == "fumble" and scorer.misplaced([(i, seq[a].t, seq[a + 1].lo, 1.0)], due):
                    extra, role = scorer.unfumbled(i, a)
                    cost += extra
                parts.append(Part(role, f"{POINTS[i]}#{a}", lo, hi, cost))
            else:
                cost, role = scorer.ongoing_role(i, a)
                d = evidence.now - seq[a].t
                parts.append(Part(f"{role}, unfinished", f"{POINTS[i]}#{a}", d, d, cost))
            magnets.extend((i, start, end) for start, end in scorer.held(i, a, ongoing=ongoing))
    flips = [m for i, picked in enumerate(story.matched) for m in scorer.flip_moments(i, picked)]
    scorer.second_hands(magnets, flips, parts)
    put_back = [m for i, picked in enumerate(story.matched) for m in scorer.put_back(i, picked)]
    scorer.one_hand(put_back, lifts, parts)
    scorer.left_off([k for i, picked in enumerate(story.matched) for k in scorer.knocked(i, picked)], times, parts)
    if story.setting is not None and story.setting.carries:
        scorer.carried(story.setting, dict(enumerate(story.matched)), parts)
    ends = [i for i in range(len(POINTS)) if scorer.stray_end(i, story.matched[i])]
    if ends:
        scorer.strays(ends, lambda o, t: (o, t) == story.stray, times, parts)
    for i, picked in enumerate(story.matched):
        if need[i]:
            scorer.stands(i, need[i], picked, parts)
    set_up = joined(setting_span(need[i], picked, evidence.points[i].changes) for i, picked in enumerate(story.matched))
    scorer.timing(plies, times, parts, set_up=set_up, replies=replies)
    for i, p in enumerate(evidence.points):
        for j, c in enumerate(p.changes):
            if not c.seen:
                parts.append(Part("lost", f"{POINTS[i]}#{j}", c.t - c.lo, c.t - c.lo, model.lost))
    parts.append(Part("turn", f"{plies} turns", 0.0, 0.0, model.turn * plies))
    return parts
