"""The decision: rank the stories from the last committed position, commit what all good ones share.

``StoryDecoder`` takes the raw readings (as ``Tracker.update`` does) on an injected clock.
Once a change is firm (``FIRM_S`` after it, a burst of changes once), it ranks every story
(``stories.read_stories``) against the evidence since the committed position, as it stood
``FIRM_S`` ago. The stories returned are the *good* ones, within the model's ``margin`` of the
cheapest; the turns at the front of every good story are *agreed*, and so are the cheapest
story's turns up to a position every good story reaches (``_met``). Agreed turns are committed
once every switch they changed has been quiet for ``confirm_s`` (a turn that takes a man, once
the victim's next turn has been too) and no good story of a ranking in the last ``confirm_s``
doubted them (told another turn there, or held another man in the hand) unless a good story now
goes on from it (``_undoubted``); the next ranking starts after them. A reading with too much to
tell at once tells its oldest turns alone (``_catch_up``).

Some doubts only later turns settle: two men land at once and the switches cannot tell whose is
whose until one is taken or moved. When the good stories part at their first turn, and each
part's turns have been quiet for ``PART_QUIET_S``, the reading parts: one ``Branch`` per belief,
each committing its own turns from then on, ranked on one scale (each carries what its
committed turns cost). A belief whose stories all cost more than the margin above the cheapest
is dropped. The record holds the turns every belief shares, so nothing written is ever rolled
back. A change that no committed turn explains for ``STALE_S`` ends the reading (the board
waits).

Against the computer (``computer``), a hand carries out the computer's turns as the LEDs prompt
them (``prompt``, asked in the cheapest reading, ``asking``): where it was prompted, its side plays
only that turn, and a turn of its side a hand made before the prompt is read but not committed
until the prompt comes (``stories.Prompt``).

A board to be put right first (``set_up``: a new or resumed game, a takeback by button) begins
every story with its setting (``story.Setting``). A takeback by hand is a second reading ranked
beside the record's (``_taken_back``): believed once cheaper by the margin, holding commits while
it is the cheapest.

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
from dataclasses import replace

from morris_pi.rules import SIDES, Game, Position, Side, Turn
from morris_pi.rules.board import POINTS, mask_of

from .agreement import Told, contradicts, goes_on, same_after, same_turns
from .evidence import Evidence, SwitchLog
from .model import DEFAULT_MODEL, Model
from .readings import after_turn
from .scoring import Scorer
from .stories import LONGEST_TURNS, MAX_TURNS, ChainBudget, OutOfChains, Prompt, read_stories, retell
from .story import RawTurn, Setting, Story, flips_of
from .takeback import take_back
from .tellings import Telling, Tellings

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
#: Readings of the game believed at once (``Branch``): a doubt the switches will only settle
#: turns later (whose man is whose, when two hands reached at once) is carried forward as one
#: reading per belief, each committing its own turns, instead of holding up every turn after it.
MAX_BRANCHES = 4
#: Seconds every switch a part's turns changed must have been quiet before a reading is parted.
#: Longer than ``confirm_s``: a part commits which change was which turn's, and a doubt still
#: young may yet be a turn whose change is still to come (a removal made late).
PART_QUIET_S = 3.0
#: Seconds a switch may show otherwise than a written turn left it, with a scan since, before
#: the man is taken to rest off his switch: a knocked man is put back sooner.
REST_S = 3.0
#: Chains one ranking may score (all its readings together). A ranking past it decides nothing
#: and is tried again later, so that no wake holds up the board's loop for long.
RANK_CHAINS = 10_000
#: Shorter windows tried, each half the last, when one reading has too much to tell at once
#: (``StoryDecoder._catch_up``); they share one ranking's budget.
CATCH_UP_TRIES = 4
#: Windows also tried there that end at the board's longest pauses (each on the same share).
CATCH_UP_PAUSES = 2


class Branch:
    """One reading of the game believed: the turns committed in it, and the switches since.

    ``offset`` is what its committed turns cost beyond those of the cheapest reading when it parted
    from the others, so that stories of different readings are ranked on one scale.
    """

    __slots__ = ("game", "heads", "log", "offset", "setting", "told")

    def __init__(self, game: Game, log: SwitchLog, offset: float = 0.0, setting: Setting | None = None) -> None:
        self.game = game
        self.log = log
        self.offset = offset
        #: The board is still to be put right for the game's position (a takeback, a new or a
        #: resumed game): every story begins with this setting, until it is committed.
        self.setting = setting
        #: The beginnings of the last ranking's good stories: where to follow them further from
        #: when the board runs ahead of the turns told (``StoryDecoder._further``).
        self.heads: set[tuple[RawTurn, ...]] = set()
        #: What the good stories of the recent rankings told: when, and each one's turns and the
        #: turn in the hand. A turn is committed only ``confirm_s`` after the last that doubted it.
        self.told: list[tuple[float, list[Told]]] = []

    def copy(self) -> Branch:
        other = Branch(self.game.copy(), self.log.copy(), self.offset, self.setting)
        other.heads = set(self.heads)
        other.told = list(self.told)
        return other

    def occupancy(self) -> int:
        return mask_of(self.game.board)


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
        computer: Side | None = None,
    ) -> None:
        game = game if game is not None else Game(profile)
        if computer not in (None, *SIDES):
            raise ValueError(f"computer must be 'white', 'black' or None, got {computer!r}")
        self.rank_chains = rank_chains
        #: The side the computer plays (``None``: two people play). Its turns are read only as
        #: prompted (``prompt``).
        self.computer = computer
        #: The computer's prompted turn from each position it was asked in, and when the LEDs
        #: began to show it (a hand cannot misread it before).
        self._prompts: dict[Position, tuple[RawTurn, float]] = {}
        #: The turns the game is known to follow, from ``game``'s position on (fitting the model
        #: to games with their records); ``None`` in play.
        self.line = None if line is None else [t.to_raw() for t in line]
        self._line_from = len(game.history)
        self.model = model
        self.confirm_s = float(confirm_s)
        #: The readings believed, cheapest first; nearly always one. Each has its own committed
        #: turns and its own switches since them.
        self._branches = [Branch(game, SwitchLog(mask_of(game.board)))]
        #: No story explains the board, and too much has happened since the committed position
        #: for one ever to: the decoder reads no more of this game (the board waits).
        self.stalled = False
        self._wake = math.inf
        self._firm_due = math.inf
        self._now = -math.inf
        self._shown: list[Story] | None = None
        #: The cheapest story of the last ranking and the reading it was told from (``None``:
        #: nothing explained the board), and when it was ranked: what the LEDs show.
        self._cheapest: tuple[Branch, int, Story | None] | None = None
        self._cheapest_at = -math.inf
        #: Grows whenever a reading's committed turns or the readings believed change: ``game``
        #: is the same while it stays (it is worked out anew when asked for).
        self.version = 0
        self._scorer: Scorer | None = None
        #: What this ranking and the one before told, to be told again while only time passes.
        self._tellings = Tellings()

    @property
    def game(self) -> Game:
        """The turns every reading believed has committed (the record so far)."""
        if len(self._branches) == 1:
            return self._branches[0].game
        first = self._branches[0].game.history
        common = 0
        while common < len(first) and all(
            len(b.game.history) > common and b.game.history[common] == first[common] for b in self._branches
        ):
            common += 1
        trunk = self._branches[0].game.copy()
        while len(trunk.history) > common:
            trunk.undo()
        return trunk

    @property
    def log(self) -> SwitchLog:
        """The switches since the committed position of the cheapest reading."""
        return self._branches[0].log

    @property
    def record(self) -> str:
        return self.game.record

    @property
    def stories(self) -> list[Story]:
        """The good stories of the board as it is now, cheapest first: what the LEDs show.

        Ranked when asked for (the decision ranks the board as it stood a moment ago), from the
        cheapest reading's committed position.
        """
        if self._shown is None:
            branch = self._branches[0]
            evidence = branch.log.evidence(self._now)
            self._shown = self._tell(branch, evidence)
        return self._shown

    @property
    def best(self) -> Story | None:
        """The cheapest story of the board now (``None``: nothing explains it)."""
        stories = self.stories
        return stories[0] if stories else None

    @property
    def shown(self) -> Game | None:
        """The game as the cheapest story of the last ranking leaves it: the committed turns (or,
        while a takeback by hand is the cheapest reading, the position it goes back to), the turns
        read since, and a mill's step whose removal is still due (``None``: no story explained
        the board). What the LEDs show.

        >>> d = StoryDecoder()
        >>> d.feed(0, 0.0); d.feed(1 << POINTS.index("d6"), 1.0); d.tick(1.5)
        >>> d.record, d.shown.record
        ('', 'd6')
        """
        if self._cheapest is None:
            return None
        branch, told_at, story = self._cheapest
        game = branch.game.copy()
        if story is None:
            return game
        done = len(game.history) - told_at
        try:
            for raw in story.turns[done:]:
                if game.outcome is not None:  # a repetition ended it: stories do not know that
                    return game
                game.play(Turn.from_raw(raw))
            if game.outcome is None and story.pending is not None and story.pending[1] >= 0:
                o, t, _ = story.pending
                game.play(Turn.from_raw((o, t, -1)))
        except ValueError:  # not reached: every story is a legal chain from its base
            return None
        return game

    @property
    def astray(self) -> tuple[str | None, str] | None:
        """The man the cheapest story of the last ranking reads as set down astray (where he
        came from, ``None`` for a man from the pile, and where he stands), which the board shows
        to be put right."""
        story = None if self._cheapest is None else self._cheapest[2]
        if story is None or story.stray is None:
            return None
        origin, target = story.stray
        return (POINTS[origin] if origin >= 0 else None), POINTS[target]

    @property
    def ranked_at(self) -> float:
        """When the board was last ranked (``shown`` is as of then)."""
        return self._cheapest_at

    def commit_shown(self, now: float) -> bool:
        """Commit the turns the LEDs show (``shown``) at once: a player pressed a button on what
        they showed, so the turns read so far stand. Returns whether anything was committed.

        While the game is carried as several readings, the one the LEDs show stands and the
        others are given up: the player acted on it. Never a turn of the computer's side not
        prompted yet.

        >>> d = StoryDecoder()
        >>> d.feed(0, 0.0); d.feed(1 << POINTS.index("d6"), 1.0); d.tick(1.5)
        >>> d.commit_shown(1.6), d.record
        (True, 'd6')
        """
        if self._cheapest is None:
            return False
        branch, told_at, story = self._cheapest
        if story is None or not any(b is branch for b in self._branches) or len(branch.game.history) != told_at:
            return False
        chosen = len(self._branches) > 1
        if chosen:
            self._branches = [branch]
            self.version += 1
            self._forget_prompts()
        n = len(story.turns)
        prompt = self._prompt(branch)
        if prompt is not None:
            n = prompt.unprompted(branch.game.position, story.turns)
        if not n and branch.setting is None:
            if chosen:
                self._shown = None
            return chosen
        self._commit(branch, story, n, branch.log.evidence(max(now, self._now)), self._cheapest_at)
        self._shown = None
        self._wake = min(self._wake, now)
        return True

    @property
    def asking(self) -> list[Game]:
        """The reading the computer is to be asked in (a copy; ``prompt``), if it is to move there
        and has not been asked: the cheapest reading believed, nearly always the only one, the
        record. The LEDs prompt one turn on the position they show, so while a doubt is carried as
        several readings the computer is asked in the cheapest; if the hand carries out another
        turn, that reading grows dearer, and the one the hand followed is asked in next."""
        if self.computer is None:
            return []
        b = self._branches[0]
        if b.game.turn == self.computer and b.game.outcome is None and b.game.position not in self._prompts:
            return [b.game.copy()]
        return []

    @property
    def prompted(self) -> Turn | None:
        """The computer's turn prompted in the cheapest reading (``None``: none asked there)."""
        prompted = self._prompts.get(self._branches[0].game.position)
        return None if prompted is None else Turn.from_raw(prompted[0])

    def prompt(self, turn: Turn | str, game: Game | None = None) -> bool:
        """The computer's chosen turn in ``game`` (one of ``asking``; by default the record), which
        a hand will carry out.

        Only it is read as the computer's turn there; returns ``False`` (and ignores it) when the
        computer is not to move there. ``ValueError`` if it is not legal there.

        >>> d = StoryDecoder(computer="black")
        >>> d.feed(0, 0.0); d.feed(1 << POINTS.index("d6"), 1.0); d.tick(2.4)
        >>> d.record, [g.record for g in d.asking]
        ('d6', ['d6'])
        >>> d.prompt("a1"), d.asking
        (True, [])
        """
        turn = Turn.parse(turn) if isinstance(turn, str) else turn
        game = self.game if game is None else game
        if self.computer is None or game.turn != self.computer or game.outcome is not None:
            return False
        if not game.is_legal(turn):
            raise ValueError(f"the computer's turn {turn} is not legal here ({game.record or 'start'})")
        self._prompts[game.position] = (turn.to_raw(), self._now)
        self._shown = None
        self._wake = min(self._wake, self._now)  # what the hand did meanwhile is read again at once
        return True

    def set_up(self, game: Game, now: float) -> None:
        """The game is now ``game`` (a new game, a resumed one, a takeback by button) as of ``now``:
        every story begins by putting the board right for its position, and turns made after
        that are read as usual.

        Where the switches show the record's position, its men's colours are known, so a man
        that must change colour is looked for too; otherwise a man on a point where ``game`` has
        one is taken to be the right one.

        >>> d = StoryDecoder(Game.from_record("d6 a1"))
        >>> d.feed(mask_of(Game.from_record("d6 a1").board), 0.0)
        >>> d.set_up(Game.from_record("d6"), 1.0)            # a takeback by button
        >>> d.feed(1 << POINTS.index("d6"), 2.0)             # a1's man taken off
        >>> d.tick(3.4); d.record, d.setting is None
        ('d6', True)
        """
        raw = self._branches[0].log.raw
        record = self.game
        if raw == mask_of(record.board):
            setting = Setting.between(*record.position.men, game.position)
        else:
            setting = Setting.showing(raw, game.position)
        log = SwitchLog(raw, now)
        self._branches = [Branch(game.copy(), log, setting=setting if setting.lifts | setting.lands else None)]
        self.version += 1
        self._prompts = {}
        self.line = None
        self.stalled = False
        self._shown = None
        self._firm_due = math.inf
        self._wake = now
        self._now = max(self._now, now)

    @property
    def setting(self) -> Setting | None:
        """What the board must still be put right for (``None``: it shows the game's position)."""
        return self._branches[0].setting

    def feed(self, occupied: int, now: float, *, full: bool = False, seen: bool | None = None) -> None:
        """A reading of the switches (``full``: every switch read at once; ``seen``: as
        ``SwitchLog.feed``)."""
        before = self._branches[0].log.raw
        for branch in self._branches:
            branch.log.feed(occupied, now, full=full, seen=seen)
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
        """Rank every reading believed; drop those no longer believed; commit in each what is
        agreed and quiet, or part it into readings when its good stories part and each part is.

        Returns whether anything was committed or parted (rank again at once).
        """
        alone = len(self._branches) == 1
        self._tellings.next_ranking()
        ranked: list[tuple[Branch, list[Story], bool, Evidence]] = []
        budget = ChainBudget(self.rank_chains)
        latest = -math.inf
        stale = 0
        for branch in self._branches:
            evidence = branch.log.evidence(now)
            latest = max(latest, evidence.last_change)
            if alone and evidence.mask == branch.occupancy() and evidence.last_change == -math.inf:
                self._cheapest = None if branch.setting is not None else (branch, len(branch.game.history), None)
                self._cheapest_at = now
                return False
            # What is committed is decided on the board as it stood FIRM_S ago: a change only just
            # seen has not shown yet what it begins, and it may only confirm the past, never decide it.
            past = evidence.until(now - FIRM_S)
            # a board still being put right waits for it as long as it takes
            if now - past.first_change > STALE_S and branch.setting is None:
                if alone or self.computer is None:
                    self.stalled = True
                    return False
                # Against the computer, a reading that has committed nothing for so long while
                # another is believed beside it was never asked in, and its hand followed the
                # other's prompts: it is given up, and the board waits only when every reading
                # is stale. (Between two people both readings may be waiting on one doubt: there
                # giving one up is deciding it by time, and the board waits instead.)
                stale += 1
                if stale == len(self._branches):
                    self.stalled = True
                    return False
                continue
            try:
                good, full = self._read(branch, past, budget)
            except OutOfChains:
                # too much to tell at once: the oldest turns are told alone, or nothing is decided
                # now and later evidence may settle it
                if self._catch_up(branch, past, evidence, now, alone=alone):
                    self._shown = None
                    return True
                self._recheck(now, evidence.last_change)
                return False
            back = self._taken_back(branch, good, past, now, budget) if alone else False
            if isinstance(back, Branch):
                self._branches = [back]
                self.version += 1
                self._prompts = {}
                self._shown = None
                return True
            if back:  # the board may have been put back: nothing is committed until it is told
                self._recheck(now, evidence.last_change)
                return False
            ranked.append((branch, good, full, evidence))
        explained = [b.offset + good[0].cost for b, good, _, _ in ranked if good]
        self._cheapest_at = now
        if not explained:
            self._cheapest = None
            self._recheck(now, latest)
            if any(
                b.setting is None and sum(len(p.changes) for p in ev.points) > STALL_CHANGES for b, _, _, ev in ranked
            ):
                self.stalled = True
            return False
        # Readings whose stories all cost more than the margin above the cheapest are no longer
        # believed; two that reached one position with the same changes left to explain differ in
        # nothing the switches will show later. (Reached by different changes, as when one read a
        # cycle of captures as noise and the other as turns, they still differ in what is to come.)
        ceiling = min(explained) + self.model.margin
        kept: dict[tuple[Position, tuple[int, ...]], tuple[Branch, list[Story], bool, Evidence]] = {}
        for branch, good, full, evidence in sorted(
            ranked, key=lambda r: r[0].offset + r[1][0].cost if r[1] else math.inf
        ):
            good = [s for s in good if branch.offset + s.cost <= ceiling]
            at = (branch.game.position, tuple(len(p.changes) for p in evidence.points))
            if good and at not in kept:
                if not kept:
                    # told before anything is committed: the turns committed now are its first
                    self._cheapest = (branch, len(branch.game.history), good[0])
                kept[at] = (branch, good, full, evidence)
        changed = len(kept) < len(self._branches)
        self._branches = []
        for branch, good, full, evidence in kept.values():
            before, setting = len(branch.game.history), branch.setting
            parts = self._decide(branch, good, full, evidence, now, others=len(kept) - 1)
            # a setting committed alone moves the base too: what follows it is ranked at once
            changed = (
                changed or parts != [branch] or len(branch.game.history) != before or branch.setting is not setting
            )
            self._branches.extend(parts)
        if changed:
            self.version += 1
            self._shown = None
            self._forget_prompts()
        return changed

    def _taken_back(
        self, branch: Branch, good: list[Story], past: Evidence, now: float, budget: ChainBudget
    ) -> Branch | bool:
        """The reading in which the board was put back by hand to the position before the last
        turn (against the computer, before the human's): it begins by setting the board to that
        position, and the turns played after it are part of its stories.

        Returns that reading if it is believed: its cheapest story costs less by more than the
        margin than every story in which the game goes on, and is settled (committed as a turn
        is, once every switch it set has been quiet for ``confirm_s``). Returns ``True`` while it
        is in doubt (cheaper, but not by the margin: nothing is committed), ``False`` otherwise.
        A takeback withdraws what is written, so it holds the game up only while it is the
        cheapest reading: a dearer one, even within the margin, does not.

        A takeback undoes a turn that moved a man or took one (it puts a man back): a board that
        only lacks men is a man in the hand, or knocked off. A man a placement took, put back on
        his point before the man that took him is lifted, reads at first as the other side's
        placement there; so after a placement onto the point the turn before emptied by a
        removal, the reading two turns back is ranked too (each takeback as rare as the first).
        """
        game = branch.game
        if self.line is not None or game.outcome is not None:
            return False
        best: tuple[float, Story, Branch] | None = None
        back = game.copy()
        for depth in (1, 2):
            if depth == 2 and (self.computer is not None or not _capture_returned(game)):
                break
            if not take_back(back, self.computer):
                break
            undone = tuple(turn.to_raw() for turn in game.history[len(back.history) :])
            if not any(o >= 0 or r >= 0 for o, _, r in undone):
                continue
            setting = Setting.between(*game.position.men, back.position)
            if depth == 1 and _answered_alike(game.position, self._prompts.get(game.position), undone, setting):
                # A capture answered on the point it just emptied changes the very switches its
                # takeback would, and no later change tells them apart: the answer it is.
                break
            reading = Branch(
                back.copy(), branch.log.copy(), setting=setting.carrying([(t, o) for o, t, _ in undone if o >= 0])
            )
            prior = depth * self.model.takeback
            # a story dearer than the game going on changes nothing
            ceiling = good[0].cost - prior if good else math.inf
            try:
                stories = self._tell(reading, past, budget=budget, ceiling=ceiling)
            except OutOfChains:
                return bool(good)  # not told: what the game goes on with waits too
            # the oldest turn taken back made again: the record stands as far as it, and only
            # its changes are read anew (a shorter takeback, or none, tells that)
            stories = [s for s in stories if s.turns[:1] != undone[:1]]
            if stories and (best is None or stories[0].cost + prior < best[0]):
                best = (stories[0].cost + prior, stories[0], reading)
        if best is None:
            return False
        cost, story, reading = best
        if good and good[0].cost <= cost:
            return False
        # the cheapest reading: the LEDs show the board put back, before it is believed
        self._cheapest, self._cheapest_at = (reading, len(reading.game.history), story), now
        if good and good[0].cost <= cost + self.model.margin:
            return True
        # A board put back shows the position it went back to (or a turn made from it) with no
        # man in the hand: a man off it (lifted and put nowhere, or set down astray) is a hand
        # still busy, and a hand busy after a turn is more often the next player's than one
        # undoing it. A man put back and lifted again waits to land too: a man taken and set
        # down a moment where the mover came from looks the same until then.
        # (A man set down astray shows where no turn of the story leaves one, so the mask tells it.)
        in_hand = story.pending is not None and story.pending[1] < 0
        if in_hand or past.mask != _shown_by(reading.game, story):
            return True
        return reading if self._settled(story, 0, past, now) else True

    def _catch_up(self, branch: Branch, past: Evidence, evidence: Evidence, now: float, *, alone: bool) -> bool:
        """Commit the oldest turns of a board with too much to tell at once: rank the evidence as it
        stood before its later changes (before its longest pauses, the first half of them, the first
        quarter...), latest first, each try on its share of one ranking's budget, and commit what
        that ranking agrees on, once every switch those turns changed has been quiet and shows what
        they left, by all that was seen since or by the end of what was told.

        Without it a quick burst (men placed one after another within a second, flickering as they
        land) makes every later ranking dearer still, and the board never catches up. Returns
        whether anything was committed.

        Not ``alone`` (other readings are believed beside this one), the turns committed keep the
        reading on their scale, and a doubt among its stories is not parted further.
        """
        times = sorted(c.t for p in past.points for c in p.changes)
        # Halves hold ever fewer turns; a pause is where a turn most likely ended (a burst of
        # placements after a slow turn is cut before the burst, not in the slow turn's middle).
        halves = [len(times) >> k for k in range(1, CATCH_UP_TRIES + 1)]
        pauses = sorted(range(1, len(times)), key=lambda k: times[k] - times[k - 1])[-CATCH_UP_PAUSES:]
        for told in sorted({k for k in halves + pauses if k}, reverse=True):
            # as the board stood just before its next change: the last change seen has aged as long
            # as it did then
            at = math.nextafter(times[told], -math.inf)
            part = past.until(at)
            own = ChainBudget(self.rank_chains // CATCH_UP_TRIES)
            try:
                good = self._tell(branch, part, budget=own)
            except OutOfChains:
                continue
            if not good or any(_uses_all(s, MAX_TURNS, branch.game.position) for s in good):
                continue
            agreed = self._agreed(branch, good)
            if not agreed:
                if not alone:
                    continue
                # a doubt that outlasts the turns a ranking can tell is kept as readings side by side
                parts = self._part(branch, good, evidence, now, room=MAX_BRANCHES, told_at=at)
                if len(parts) > 1:
                    self._branches = parts
                    return True
                continue
            ready = self._ready(good[0], agreed, evidence, now)
            if not ready:
                # A point the turns changed may show a later turn's change by now (a man taken
                # and his point placed on again), which the turns told cannot explain: they are
                # done too if their switches were quiet for ``confirm_s`` by the end of what
                # was told, and what came after is told from them.
                wake = self._wake
                ready = self._ready(good[0], agreed, evidence.until(at), at + FIRM_S)
                self._wake = wake
            if ready:
                # (a reading that then explains nothing after them is given up at its next ranking)
                self._commit(branch, good[0], ready, evidence, now, scaled=not alone, told_at=at)
                return True
        return False

    def _read(self, branch: Branch, past: Evidence, budget: ChainBudget) -> tuple[list[Story], bool]:
        """The good stories of one reading, and whether one uses every turn told."""
        # A good story that uses every turn told may stand for a longer one that was not told: the
        # players ran ahead of the board. Longer stories are told then, up to LONGEST_TURNS, and
        # past that the good ones are followed further (``_further``); if a followed one still
        # uses every turn told, nothing is committed.
        turns = MAX_TURNS
        good = self._tell(branch, past, budget=budget)
        while (
            full := not good or any(_uses_all(s, turns, branch.game.position) for s in good)
        ) and turns < LONGEST_TURNS:
            turns += 1
            good = self._tell(branch, past, turns=turns, budget=budget)
        if full:
            good, full = self._further(branch, past, good, turns, budget)
        if good:
            branch.heads = _beginnings(good)
        return good, full

    def _waited(self, branch: Branch, good: list[Story], past: Evidence) -> list[Story]:
        """``good`` with the board's silence since its last change priced as the next player's
        wait in every story in which the game goes on: a board left alone after a turn that ends
        the game is read so in time, though a story reading that turn as noise is as cheap."""
        if not good:
            return good
        base = branch.game.position
        # the board's last change, whatever the reading: a commit keeps none older than ``since``
        silence = past.now - max(past.last_change, past.since)
        wait = min(self.model.think.tail(silence), self.model.left_board)
        if wait <= 0.0:
            return good
        priced = sorted(
            (s if s.pending is None and not _goes_on(base, s.turns) else replace(s, cost=s.cost + wait) for s in good),
            key=lambda s: s.cost,
        )
        return [s for s in priced if s.cost <= priced[0].cost + self.model.margin]

    def _decide(
        self, branch: Branch, good: list[Story], full: bool, evidence: Evidence, now: float, others: int
    ) -> list[Branch]:
        """What one reading becomes, with ``others`` believed beside it: itself with the agreed and
        quiet turns committed, or, when its good stories part at their first turn and every part
        has turns ready, one reading per part (``MAX_BRANCHES`` in all at most). A reading whose
        good stories use every turn told commits nothing."""
        if full:
            self._recheck(now, evidence.last_change)
            return [branch]
        self._note_told(branch, good, now)
        agreed = self._agreed(branch, good)
        if not agreed and branch.setting is not None and self._settled(good[0], 0, evidence, now):
            self._commit(branch, good[0], 0, evidence, now, scaled=others > 0)
            return [branch]
        if not agreed:
            self._recheck(now, evidence.last_change)
            return self._part(branch, good, evidence, now, room=MAX_BRANCHES - others)
        quiet = self._ready(good[0], agreed, evidence, now)
        if not quiet and self.computer is not None and (branch.game.turn == self.computer) == (agreed % 2 == 0):
            # A switch the agreed turns changed may show since the computer's reply, put down
            # before its prompt, which a good story as cheap tells and which is never committed
            # first: the turns are done if that story shows so, or the computer is never asked
            # and the board waits for a change that never comes.
            quiet = max(
                (
                    self._ready(s, agreed, evidence, now)
                    for s in good[1:]
                    if len(s.turns) > agreed and same_turns(s, good[0], agreed)
                ),
                default=0,
            )
        ready = self._undoubted(branch, good, quiet, now)
        if ready:
            self._commit(branch, good[0], ready, evidence, now, scaled=others > 0)
        return [branch]

    def _note_told(self, branch: Branch, good: list[Story], now: float) -> None:
        """Keep what this ranking's good stories tell, and forget rankings too old to hold anything
        back."""
        recent = [(t, told) for t, told in branch.told if t + self.confirm_s + FIRM_S > now]
        recent.append((now, [(s.turns, s.pending) for s in good]))
        branch.told = recent

    def _undoubted(self, branch: Branch, good: list[Story], ready: int, now: float) -> int:
        """The most of the first ``ready`` turns of the cheapest of ``good`` that no good story of a
        ranking in the last ``confirm_s`` (and the ``FIRM_S`` its evidence lagged) told otherwise,
        unless a good story now goes on from it (a wake is set for when the next will be).

        Quiet switches are not enough: a hand busy elsewhere can make one reading the only good
        one a moment after another was good beside it (the remover takes a man, puts him back and
        takes him again while the victim holds one of his own), and what that hand does next may
        make the other the cheaper again. A story still told now was weighed by this ranking's
        own agreement (stories that meet in one position part with no doubt left to wait for).
        """
        now_told = [(s.turns, s.pending) for s in good]
        gone = [(t, [o for o in told if not any(goes_on(s, o) for s in now_told)]) for t, told in branch.told]
        while ready:
            prefix = good[0].turns[:ready]
            last = max((t for t, told in gone if any(contradicts(o, prefix) for o in told)), default=None)
            if last is None or now >= last + self.confirm_s + FIRM_S:
                break
            self._wake = min(self._wake, last + self.confirm_s + FIRM_S)
            ready -= 1
        return ready

    def _agreed(self, branch: Branch, good: list[Story]) -> int:
        """How many turns of the cheapest of ``good`` every one of them agrees on."""
        best = good[0]
        agreed = 0
        while agreed < len(best.turns) and all(same_turns(s, best, agreed + 1) for s in good):
            agreed += 1
        # Good stories that part and meet again in the same position differ in nothing the
        # switches will ever show later: waiting cannot decide between them, so the cheapest does.
        agreed = max(agreed, self._met(branch, good))
        prompt = self._prompt(branch)
        # the computer's turn a hand carried out before it was prompted waits for the prompt
        return agreed if prompt is None else prompt.unprompted(branch.game.position, best.turns[:agreed])

    def _ready(self, best: Story, agreed: int, evidence: Evidence, now: float, quiet: float | None = None) -> int:
        """The longest of the first ``agreed`` turns of ``best`` whose switches have all been quiet
        for ``quiet`` (``confirm_s``) seconds and show what the turns left there (0: none yet; a
        wake is set for when the next one will be quiet)."""
        while agreed and not self._settled(best, agreed, evidence, now, quiet):
            agreed -= 1
        return agreed

    def _settled(self, best: Story, agreed: int, evidence: Evidence, now: float, quiet: float | None = None) -> bool:
        """Whether the board's setting and the first ``agreed`` turns of ``best`` are done: every
        switch they changed has been quiet for ``quiet`` seconds and shows what they left there.
        If not yet quiet, a wake is set for when it will be."""
        quiet = self.confirm_s if quiet is None else quiet
        past = evidence.until(now - FIRM_S)
        every = flips_of(best.turns, best.pending, best.setting)
        need = flips_of(best.turns[:agreed], None, best.setting)
        if any(
            flips
            and len(flips) == len(every[i])
            and _shows_otherwise(past.points[i].changes, best.matched[i])
            and not _rests_otherwise(past, i)
            for i, flips in enumerate(need)
        ):
            # a switch these turns changed, and no later turn does, no longer shows what they
            # left there: the hands are not done with it (a man knocked off, one put down on
            # the point just left), and the board is read again when it changes
            return False
        # The man taken and the man the victim moves next are both his: which lift was which
        # hand's is told only once the next hand is done too (he may reach before the
        # remover, or put his man back when he sees he was early).
        told = need
        if agreed and best.turns[agreed - 1][2] >= 0:
            pending = best.pending if agreed == len(best.turns) else None
            told = flips_of(best.turns[: agreed + 1], pending, best.setting)
        quiet_since = max(
            (
                self._quiet_since(past.points[i].changes, best.matched[i], len(flips), len(every[i]))
                for i, flips in enumerate(told)
                if flips
            ),
            default=-math.inf,
        )
        ready = quiet_since + quiet + FIRM_S
        if now >= ready:
            return True
        self._wake = min(self._wake, ready)
        return False

    def _part(
        self,
        branch: Branch,
        good: list[Story],
        evidence: Evidence,
        now: float,
        room: int,
        *,
        told_at: float | None = None,
    ) -> list[Branch]:
        """One reading per first turn of the good stories, each with its agreed and quiet turns
        committed; or ``branch`` alone while any part is not ready (a story with no turn yet, a
        turn not yet quiet), or there would be more parts than ``room``.

        Each part's ``offset`` carries what its committed turns cost beyond the cheapest story, so
        that the parts go on being ranked on one scale as the game goes on. ``told_at``: when the
        board stood as ``good`` tells it, if earlier than ``FIRM_S`` ago (its first changes only,
        too much to tell at once).
        """
        if self.line is not None or any(not s.turns for s in good):
            return [branch]
        groups: list[list[Story]] = []
        for story in good:
            group = next((g for g in groups if same_turns(story, g[0], 1)), None)
            if group is None:
                groups.append([story])
            else:
                group.append(story)
        if not 1 < len(groups) <= room:
            return [branch]
        plans = []
        for stories in groups:
            ready = self._ready(stories[0], self._agreed(branch, stories), evidence, now, PART_QUIET_S)
            if not ready:
                return [branch]
            plans.append((stories[0], ready))
        parts = []
        for best, ready in plans:
            part = branch.copy()
            if not self._commit(part, best, ready, evidence, now, scaled=True, told_at=told_at):
                return [branch]
            parts.append(part)
        return parts

    def _further(
        self, branch: Branch, past: Evidence, good: list[Story], turns: int, budget: ChainBudget
    ) -> tuple[list[Story], bool]:
        """Follow stories further than ``turns`` when the good ones use them all, or none is good:
        each good one (or, with none, each good one of the last ranking) from what it told but
        its last turns. A doubt about who placed which man is settled by what the men do later.

        Returns the good stories, and whether one still uses every turn told.
        """
        heads = _beginnings([s for s in good if _uses_all(s, turns, branch.game.position)]) if good else branch.heads
        shorter = [s for s in good if not _uses_all(s, turns, branch.game.position)]
        for _ in range(FURTHER_ROUNDS):
            if not heads:
                break
            found = shorter + [
                story
                for head in sorted(heads)
                for story in self._tell(branch, past, turns=len(head) + MAX_TURNS, prefix=head, budget=budget)
            ]
            if not found:
                break
            cheapest = min(s.cost for s in found)
            good = sorted((s for s in found if s.cost <= cheapest + self.model.margin), key=lambda s: s.cost)
            full_ones = [s for s in good if any(_uses_all(s, len(h) + MAX_TURNS, branch.game.position) for h in heads)]
            if not full_ones:
                return good, False
            heads = _beginnings(full_ones)
            shorter = [s for s in good if s not in full_ones]
        return good, bool(good)

    def _met(self, branch: Branch, good: list[Story]) -> int:
        """The most turns of the best story after which every good story has reached its position.

        Against the computer, only positions before its first turn not yet prompted count: the
        prompt still to come may tell the stories apart.
        """
        if len(good) > MET_STORIES:
            return 0
        prompt = self._prompt(branch)

        def states(story: Story) -> dict[Position, int]:
            """Each position the story reaches, with how many of its turns it took to reach it."""
            pos, out = branch.game.position, {}
            turns = story.turns if prompt is None else story.turns[: prompt.unprompted(pos, story.turns)]
            for k, raw in enumerate(turns, 1):
                pos = pos.play(raw)
                out[pos] = k
            return out

        best = good[0]
        met = states(best)
        for story in good[1:]:
            theirs = states(story)
            # Met, they must also go on alike: the same turns after, made by the same changes. A
            # story that reaches the position sooner in the evidence and tells more turns after it
            # (a cycle of captures read as noise in the other) has not met it.
            met = {pos: k for pos, k in met.items() if pos in theirs and same_after(story, theirs[pos], best, k)}
            if not met:
                return 0
        return max(met.values(), default=0)

    def _forget_prompts(self) -> None:
        """Keep the prompts the readings believed can still pass through.

        With one reading, that is the prompt of its position only: a position met again later
        is asked again. While several are carried, one reading's stories may reach the position
        another was asked in, and there the computer's turn is known: forgetting it would let
        that reading play any turn there for free, and a hand that carried out the prompt
        wrongly would price the reading asked dearer than the one that never was.
        """
        if len(self._branches) == 1:
            at = self._branches[0].game.position
            self._prompts = {pos: turn for pos, turn in self._prompts.items() if pos == at}

    def _line(self, branch: Branch) -> list[RawTurn] | None:
        return None if self.line is None else self.line[len(branch.game.history) - self._line_from :]

    def _prompt(self, branch: Branch) -> Prompt | None:
        if self.computer is None:
            return None
        return Prompt(SIDES.index(self.computer), self._prompts)

    def _tell(
        self,
        branch: Branch,
        evidence: Evidence,
        *,
        turns: int = MAX_TURNS,
        prefix: Sequence[RawTurn] = (),
        budget: ChainBudget | None = None,
        ceiling: float = math.inf,
    ) -> list[Story]:
        """The good stories of ``evidence`` from ``branch``'s committed position, with what is known
        of the turns: the game's line, the computer's prompt (none dearer than ``ceiling``)."""
        if self._scorer is None or self._scorer.ev is not evidence:
            # a ranking tells one evidence several times (longer chains, a takeback's reading)
            self._scorer = Scorer(evidence, self.model)
        line, prompt = self._line(branch), self._prompt(branch)
        key = (
            branch.game.position,
            branch.setting,
            None if line is None else tuple(line),
            None if prompt is None else (prompt.side, frozenset(prompt.turns.items())),
            turns,
            tuple(prefix),
            evidence.points,
            evidence.since,
        )
        earlier = self._tellings.find(key, ceiling, margin=self.model.margin)
        if earlier is not None:
            again = retell(
                branch.game.position,
                evidence,
                earlier.stories,
                earlier.unfinished,
                self.model,
                prompt=prompt,
                scorer=self._scorer,
            )
            if again is not None:
                if budget is not None:
                    budget.spend(earlier.chains)  # as much as telling them did: a ranking's budget is spent alike
                self._tellings.keep(key, replace(earlier, stories=tuple(again)))
                return self._waited(branch, [s for s in again if s.cost <= ceiling], evidence)
        left = None if budget is None else budget.left
        stories = read_stories(
            branch.game.position,
            evidence,
            self.model,
            line=line,
            prompt=prompt,
            turns=turns,
            prefix=prefix,
            budget=budget,
            setting=branch.setting,
            ceiling=ceiling,
            scorer=self._scorer,
        )
        chains = 0 if budget is None or left is None else left - budget.left
        self._tellings.keep(
            key, Telling(tuple(stories), ceiling, chains, self._scorer.unfinished(pile=prompt is not None))
        )
        return self._waited(branch, stories, evidence)

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

    def _commit(
        self,
        branch: Branch,
        best: Story,
        agreed: int,
        evidence: Evidence,
        now: float,
        *,
        scaled: bool = False,
        told_at: float | None = None,
    ) -> bool:
        """Play the first ``agreed`` turns of ``best`` in ``branch``, and keep of its switches only
        the changes those turns leave unexplained (``evidence`` is as of ``now``, ``best`` was read
        on it as it stood ``FIRM_S`` before).

        ``scaled``: other readings are believed beside this one, so its ``offset`` takes over what
        the turns committed cost, keeping its stories on their scale. Returns ``False`` if nothing
        then explains what the turns leave (only asked when ``scaled``). ``told_at``: when the
        board stood as ``best`` tells it, if earlier than ``FIRM_S`` ago.
        """
        # A story knows positions, not the game's history: the turns it agrees on may run on past
        # an end only the history shows (a third repetition). The game ends there.
        trial = branch.game.copy()
        for n, raw in enumerate(best.turns[:agreed]):
            if trial.outcome is not None:
                agreed = n
                break
            trial.play(Turn.from_raw(raw))
        points = evidence.until(now - FIRM_S).points
        total = [len(p.changes) for p in evidence.points]
        need = flips_of(best.turns[:agreed], None, best.setting)
        cut = -math.inf
        keep = [0] * len(POINTS)
        for i, flips in enumerate(need):
            if flips:
                cut = max(cut, points[i].changes[best.matched[i][len(flips) - 1]].t)
        for i, flips in enumerate(need):
            seq = points[i].changes
            if not seq:
                keep[i] = total[i]
                continue
            # what the story read as noise before the turns ended goes with them, up to the next
            # flip it tells (a later turn's, which is not committed)
            drop = best.matched[i][len(flips) - 1] + 1 if flips else 0
            matched = best.matched[i]
            upto = matched[len(flips)] if len(matched) > len(flips) else len(seq)
            while drop + 2 <= upto and seq[drop + 1].t < cut:
                drop += 2
            keep[i] = total[i] - drop
        for raw in best.turns[:agreed]:
            branch.game.play(Turn.from_raw(raw))
        self.version += 1
        branch.setting = None
        branch.heads = {h[agreed:] for h in branch.heads if h[:agreed] == best.turns[:agreed]}
        done = best.turns[:agreed]
        branch.told = [
            (t, [(turns[agreed:], pending) for turns, pending in told if turns[:agreed] == done])
            for t, told in branch.told
        ]
        branch.log.rebase(branch.occupancy(), keep, cut)
        if not scaled:
            branch.offset = 0.0
            return True
        rest = self._tell(branch, branch.log.evidence(now).until(now - FIRM_S if told_at is None else told_at))
        branch.offset += best.cost - (rest[0].cost if rest else 0.0)
        return bool(rest)


def _shown_by(game: Game, story: Story) -> int:
    """The occupancy the board shows once ``story``, told from ``game``, is done as it stands: its
    turns made, the man of a mill's step awaiting its removal landed and a man still in the hand
    off his point.

    >>> placed_a1 = Story(((-1, POINTS.index("a1"), -1),), None, 0.0, ())
    >>> [POINTS[i] for i in range(24) if _shown_by(Game.from_record("d6"), placed_a1) >> i & 1]
    ['a1', 'd6']
    """
    shown = mask_of(game.board)
    for raw in (*story.turns, *((story.pending,) if story.pending is not None else ())):
        shown = after_turn(shown, raw)
    return shown


def _capture_returned(game: Game) -> bool:
    """Whether the last turn placed a man on the point the turn before took a man from (between
    two people): the man taken put back by hand reads so, before his taker's man is lifted."""
    history = game.history
    if len(history) < 2:
        return False
    last, before = history[-1], history[-2]
    return last.origin is None and before.removal is not None and last.target == before.removal


def _shows_otherwise(changes: tuple, matched: tuple[int, ...]) -> bool:  # type: ignore[type-arg]
    """Whether a point whose last flip in a story is ``matched[-1]`` has changed an odd number of
    times since: its switch shows otherwise than that flip left it."""
    return (len(changes) - matched[-1] - 1) % 2 == 1


def _rests_otherwise(past: Evidence, i: int) -> bool:
    """Whether point ``i``'s switch has shown otherwise for ``REST_S`` and a scan read it since:
    no report was lost, and no hand is still busy there. The man rests off his switch
    (``unfinished``), and the turn is as good as shown."""
    last = past.points[i].changes[-1].t
    return past.now - last >= REST_S and any(s > last for s in past.scans)


def _uses_all(story: Story, turns: int, base: Position) -> bool:
    """Whether ``story`` uses every turn told: all of them, or all but one and the next begun (a
    turn still in the hand stands where a whole turn more may be, such as a man placed read as a
    mill's step awaiting its removal). A story whose turns end the game tells all there is."""
    if len(story.turns) + (story.pending is not None) < turns:
        return False
    return story.pending is not None or _goes_on(base, story.turns)


def _goes_on(base: Position, turns: Sequence[RawTurn]) -> bool:
    """Whether the side to move after ``turns`` (from ``base``) has a turn: the game goes on."""
    pos = base
    for raw in turns:
        pos = pos.play(raw)
    return bool(pos.steps())


def _beginnings(stories: list[Story]) -> set[tuple[RawTurn, ...]]:
    """What the cheapest stories (cheapest first) told but their last turns: where to follow them
    further from. Only the ``FURTHER_HEADS`` cheapest beginnings are followed."""
    out: dict[tuple[RawTurn, ...], None] = {}
    for story in stories:
        out.setdefault(story.turns[: max(len(story.turns) - FURTHER_REDO, 0)])
        if len(out) == FURTHER_HEADS:
            break
    return set(out)


def _answered_alike(
    pos: Position, prompted: tuple[RawTurn, float] | None, undone: tuple[RawTurn, ...], setting: Setting
) -> bool:
    """Whether ``setting``, which takes back ``undone``, changes just the switches an answer to it
    changes: the computer's prompted turn, where it was asked in ``pos``; else, after a placement
    that took a man, a placement that takes the man just placed where the man taken stood (a cycle
    of captures)."""
    if prompted is not None:
        answers = [prompted[0]]
    elif undone[0][0] < 0 and undone[0][2] >= 0:
        answers = [turn for turn in pos.turns() if turn[0] < 0 and turn[2] >= 0]
    else:
        return False
    for turn in answers:
        answer = Setting.between(*pos.men, pos.play(turn))
        if (answer.lifts, answer.lands) == (setting.lifts, setting.lands):
            return True
    return False
