"""The decision: rank the stories from the last committed position, commit what all good ones share.

``StoryDecoder`` takes the raw readings (as ``Tracker.update`` does) on an injected clock.
Once a change is firm (``FIRM_S`` after it, a burst of changes once), it ranks every story
(``stories.read_stories``) against the evidence since the committed position, as it stood
``FIRM_S`` ago. The stories returned are the *good* ones, within the model's ``margin`` of the
cheapest; the turns at the front of every good story are *agreed*, and so are the cheapest
story's turns up to a position every good story reaches (``_met``). Agreed turns are committed
once every switch they changed has been quiet for ``confirm_s``. Nothing is ever rolled back: a
turn is committed only when no good story disagrees with where it leads, and the next ranking
starts after it. A
change that no committed turn explains for ``STALE_S`` ends the reading (the board waits).

It is run beside the ``Tracker`` (in shadow, ``bench/shadow_tracker.py``) until it reads at
least as many games exactly and writes no wrong turn; see docs/tracker-decoder.md.

>>> d = StoryDecoder()
>>> d.feed(0, 0.0)
>>> d.feed(1 << POINTS.index("d6"), 1.0)
>>> d.tick(1.5); d.record
''
>>> d.tick(2.4); d.record
'd6'
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from morris_pi.rules import Game, Position, Turn
from morris_pi.rules.board import POINTS

from .evidence import Evidence, SwitchLog
from .model import DEFAULT_MODEL, Model
from .scoring import RawTurn, Story, flips_of
from .stories import LONGEST_TURNS, MAX_TURNS, ChainBudget, OutOfChains, read_stories

#: Seconds every switch an agreed turn changed must have been quiet before it is committed.
DEFAULT_CONFIRM_S = 1.0
#: Seconds to the first ranking again of a board nothing new happened on while it is undecided;
#: each further one waits twice as long (what a wait costs grows ever more slowly), until
#: ``RECHECK_FOR_S`` after its last change.
RECHECK_S = 0.25
RECHECK_FOR_S = 30.0
#: Changes since the committed position beyond which a board no story explains is given up.
STALL_CHANGES = 120
#: Seconds a change may stay unexplained by any committed turn. Past this, every story of the
#: board carries a doubt that no later change has settled (the players have long moved on), and
#: the decoder reads no more of the game: the board waits rather than guess.
STALE_S = 30.0
#: Rounds of following good stories further when they use every turn told (``_further``), the
#: turns each round tells again, and how many different beginnings (the cheapest) are followed.
FURTHER_ROUNDS = 6
FURTHER_REDO = 2
FURTHER_HEADS = 8
#: Good stories beyond which no meeting of them is looked for (each is played out once).
MET_STORIES = 200
#: Seconds the whole board must have been still before anything is committed: a change only
#: just seen has not shown yet what it begins.
FIRM_S = 0.3
#: Chains one ranking may score (all its readings together). A ranking past it decides nothing
#: and is tried again later, so that no wake holds up the board's loop for long.
RANK_CHAINS = 10_000


class StoryDecoder:
    """Raw switch readings in, committed turns out, by ranking stories (see the module)."""

    def __init__(
        self,
        game: Game | None = None,
        *,
        profile: str = "standard",
        model: Model = DEFAULT_MODEL,
        confirm_s: float = DEFAULT_CONFIRM_S,
        line: Sequence[Turn] | None = None,
        rank_chains: int = RANK_CHAINS,
    ) -> None:
        self.game = game if game is not None else Game(profile)
        self.rank_chains = rank_chains
        #: The turns the game is known to follow, from ``game``'s position on (fitting the model
        #: to games with their records); ``None`` in play.
        self.line = None if line is None else [t.to_raw() for t in line]
        self._line_from = len(self.game.history)
        self.model = model
        self.confirm_s = float(confirm_s)
        #: The switches since the committed position, which they start from.
        self.log = SwitchLog(self._occupancy())
        #: No story explains the board, and too much has happened since the committed position
        #: for one ever to: the decoder reads no more of this game (the board waits).
        self.stalled = False
        self._wake = math.inf
        self._firm_due = math.inf
        self._now = -math.inf
        self._shown: list[Story] | None = None
        #: The beginnings of the last ranking's good stories: where to follow them further from
        #: when the board runs ahead of the turns told (``_further``).
        self._heads: set[tuple[RawTurn, ...]] = set()

    @property
    def record(self) -> str:
        return self.game.record

    @property
    def stories(self) -> list[Story]:
        """The good stories of the board as it is now, cheapest first: what the LEDs show.

        Ranked when asked for (the decision ranks the board as it stood a moment ago).
        """
        if self._shown is None:
            evidence = self.log.evidence(self._now)
            self._shown = read_stories(self.game.position, evidence, self.model, line=self._line())
        return self._shown

    @property
    def best(self) -> Story | None:
        """The cheapest story of the board now (``None``: nothing explains it)."""
        stories = self.stories
        return stories[0] if stories else None

    def _occupancy(self) -> int:
        return sum(1 << POINTS.index(p) for p in self.game.board)

    def feed(self, occupied: int, now: float, *, full: bool = False) -> None:
        """A reading of the switches (``full``: every switch read at once)."""
        before = self.log.raw
        self.log.feed(occupied, now, full=full)
        self._now = max(self._now, now)
        if occupied != before:
            self._shown = None
            # ranked once the change is firm; a later change (a flicker, the next hand) puts it off
            self._firm_due = now + FIRM_S

    def next_deadline(self) -> float:
        """When ``tick`` next has something to do (``inf``: only a new reading will)."""
        return math.inf if self.stalled else min(self._wake, self._firm_due)

    def tick(self, now: float) -> None:
        """Rank the firm board again when it is due, and commit what is agreed and quiet."""
        if now > self._now:
            self._now = now
            self._shown = None
        if self.stalled or now < min(self._wake, self._firm_due):
            return
        self._wake = math.inf
        if now >= self._firm_due:
            self._firm_due = math.inf
        for _ in range(4):  # a commit moves the base: rank again from there at once
            if not self._rank(now):
                break

    def _rank(self, now: float) -> bool:
        evidence = self.log.evidence(now)
        if evidence.mask == self._occupancy() and evidence.last_change == -math.inf:
            return False
        # What is committed is decided on the board as it stood FIRM_S ago: a change only just
        # seen has not shown yet what it begins, and it may only confirm the past, never decide it.
        past = evidence.until(now - FIRM_S)
        if now - past.first_change > STALE_S:
            self.stalled = True
            return False
        # A good story that uses every turn told may stand for a longer one that was not told: the
        # players ran ahead of the board. Longer stories are told then, up to LONGEST_TURNS, and
        # past that the good ones are followed further (``_further``); if a followed one still
        # uses every turn told, nothing is committed.
        turns = MAX_TURNS
        budget = ChainBudget(self.rank_chains)
        try:
            good = read_stories(self.game.position, past, self.model, line=self._line(), budget=budget)
            while (full := not good or any(_uses_all(s, turns) for s in good)) and turns < LONGEST_TURNS:
                turns += 1
                good = read_stories(self.game.position, past, self.model, line=self._line(), turns=turns, budget=budget)
            if full:
                good, full = self._further(past, good, turns, budget)
        except OutOfChains:
            # too much to tell at once: nothing is decided now, and later evidence may settle it
            self._recheck(now, evidence.last_change)
            return False
        if good:
            self._heads = _beginnings(good)
        if not good:
            self._recheck(now, evidence.last_change)
            if sum(len(p.changes) for p in evidence.points) > STALL_CHANGES:
                self.stalled = True
            return False
        if full:
            self._recheck(now, evidence.last_change)
            return False
        best = good[0]
        agreed = 0
        while agreed < len(best.turns) and all(
            len(s.turns) > agreed and s.turns[agreed] == best.turns[agreed] for s in good
        ):
            agreed += 1
        # Good stories that part and meet again in the same position differ in nothing the
        # switches will ever show later: waiting cannot decide between them, so the cheapest does.
        agreed = max(agreed, self._met(good))
        if not agreed:
            self._recheck(now, evidence.last_change)
            return False
        # the longest agreed prefix whose switches have all been quiet for confirm_s
        every = flips_of(best.turns, best.pending)
        while agreed:
            need = flips_of(best.turns[:agreed], None)
            quiet_since = max(
                self._quiet_since(past.points[i].changes, best.matched[i], len(flips), len(every[i]))
                for i, flips in enumerate(need)
                if flips
            )
            ready = quiet_since + self.confirm_s + FIRM_S
            if now >= ready:
                break
            self._wake = min(self._wake, ready)
            agreed -= 1
        if not agreed:
            return False
        self._commit(best, agreed, past.points, need, [len(p.changes) for p in evidence.points])
        return True

    def _further(self, past: Evidence, good: list[Story], turns: int, budget: ChainBudget) -> tuple[list[Story], bool]:
        """Follow stories further than ``turns`` when the good ones use them all, or none is good:
        each good one (or, with none, each good one of the last ranking) from what it told but
        its last turns. A doubt about who placed which man is settled by what the men do later.

        Returns the good stories, and whether one still uses every turn told.
        """
        heads = _beginnings([s for s in good if _uses_all(s, turns)]) if good else self._heads
        shorter = [s for s in good if not _uses_all(s, turns)]
        for _ in range(FURTHER_ROUNDS):
            if not heads:
                break
            found = shorter + [
                story
                for head in sorted(heads)
                for story in read_stories(
                    self.game.position,
                    past,
                    self.model,
                    line=self._line(),
                    turns=len(head) + MAX_TURNS,
                    prefix=head,
                    budget=budget,
                )
            ]
            if not found:
                break
            cheapest = min(s.cost for s in found)
            good = sorted((s for s in found if s.cost <= cheapest + self.model.margin), key=lambda s: s.cost)
            full_ones = [s for s in good if any(_uses_all(s, len(h) + MAX_TURNS) for h in heads)]
            if not full_ones:
                return good, False
            heads = _beginnings(full_ones)
            shorter = [s for s in good if s not in full_ones]
        return good, bool(good)

    def _met(self, good: list[Story]) -> int:
        """The most turns of the best story after which every good story has reached its position."""
        if len(good) > MET_STORIES:
            return 0

        def states(story: Story) -> list[Position]:
            pos, out = self.game.position, []
            for raw in story.turns:
                pos = pos.play(raw)
                out.append(pos)
            return out

        order = states(good[0])
        met = set(order)
        for story in good[1:]:
            met.intersection_update(states(story))
            if not met:
                return 0
        return max((k + 1 for k, state in enumerate(order) if state in met), default=0)

    def _line(self) -> list[RawTurn] | None:
        return None if self.line is None else self.line[len(self.game.history) - self._line_from :]

    @staticmethod
    def _quiet_since(seq: tuple, matched: tuple[int, ...], done: int, flips: int) -> float:  # type: ignore[type-arg]
        """When a point last changed before the story's next flip there (a later turn's)."""
        if done < flips:
            return float(seq[matched[done] - 1].t)
        return float(seq[-1].t)

    def _recheck(self, now: float, last_change: float) -> None:
        """Rank again later: what a wait costs grows with time, so a tie now may be decided later."""
        quiet = now - last_change
        if quiet < RECHECK_FOR_S:
            self._wake = min(self._wake, now + max(RECHECK_S, quiet))

    def _commit(self, best: Story, agreed: int, points: tuple, need: list, total: list[int]) -> None:  # type: ignore[type-arg]
        cut = -math.inf
        keep = [0] * len(POINTS)
        for i, flips in enumerate(need):
            seq = points[i].changes
            if flips:
                last = best.matched[i][len(flips) - 1]
                cut = max(cut, seq[last].t)
                keep[i] = total[i] - last - 1
        for i, flips in enumerate(need):
            seq = points[i].changes
            if flips:
                continue
            if not seq:
                keep[i] = total[i]
                continue
            first_flip = best.matched[i][0] if best.matched[i] else len(seq)
            drop = 0
            while drop + 2 <= first_flip and seq[drop + 1].t < cut:
                drop += 2
            keep[i] = total[i] - drop
        for raw in best.turns[:agreed]:
            self.game.play(Turn.from_raw(raw))
        self._heads = {h[agreed:] for h in self._heads if h[:agreed] == best.turns[:agreed]}
        self.log.rebase(self._occupancy(), keep, cut)


def _uses_all(story: Story, turns: int) -> bool:
    """Whether ``story`` uses every turn told: all of them, or all but one and the next begun (a
    turn still in the hand stands where a whole turn more may be, such as a man placed read as a
    mill's step awaiting its removal)."""
    return len(story.turns) + (story.pending is not None) >= turns


def _beginnings(stories: list[Story]) -> set[tuple[RawTurn, ...]]:
    """What the cheapest stories (cheapest first) told but their last turns: where to follow them
    further from. Only the ``FURTHER_HEADS`` cheapest beginnings are followed."""
    out: dict[tuple[RawTurn, ...], None] = {}
    for story in stories:
        out.setdefault(story.turns[: max(len(story.turns) - FURTHER_REDO, 0)])
        if len(out) == FURTHER_HEADS:
            break
    return set(out)
