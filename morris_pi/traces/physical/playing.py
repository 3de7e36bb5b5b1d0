"""One generated game: a legal record, then the people and switches that play it on the board.

First the turns are chosen (``people``, and the computer player for a computer
side), steered towards the game's target ending. Then ``Hands`` carry them out
with the mess drawn for each turn, and the switches turn that into a trace.

>>> trace = generate("standard", seed=3, target="fewer-than-three")
>>> trace.outcome["reason"], trace.lines()[0]
('fewer-than-three', '{"profile": "standard", "white": "human", "black": "human"}')
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from morris_pi.rules import Game, Turn, get_profile, other_side

from .. import MODES
from .computer import Computer, FirstLegal
from .hands import Hands, illegal_step
from .mess import KINDS, noise
from .people import TARGET_STYLES, Chooser, endings, reached
from .switches import Contacts, Event, events

#: A trace header: ``profile``, ``white`` and ``black``, and the computer's ``level`` and ``seed``.
Header = dict[str, str | int]


@dataclass
class PhysicalTrace:
    """A generated trace with what replay must make of it."""

    profile: str
    mode: str
    seed: int
    target: str
    header: Header
    events: list[Event]
    record: str
    outcome: dict[str, str | None] | None
    mess: dict[str, int]
    flying: bool = False
    turns: int = 0
    extra: dict[str, object] = field(default_factory=dict)
    #: Turns made and taken back by hand: how many turns of the record came before each, and it.
    taken_back: list[tuple[int, str]] = field(default_factory=list)

    def lines(self) -> list[str]:
        """The trace as JSON Lines (header first), ready for ``morris-pi replay``."""
        return [json.dumps(self.header), *(json.dumps(e) for e in self.events)]

    def expected(self) -> dict[str, object]:
        """The sidecar: the exact record and outcome replay must end with, and the mess that happened."""
        return {
            "record": self.record,
            "outcome": self.outcome,
            "profile": self.profile,
            "mode": self.mode,
            "seed": self.seed,
            "target": self.target,
            "mess": self.mess,
            **({"taken_back": [list(x) for x in self.taken_back]} if self.taken_back else {}),
        }


@dataclass
class Plan:
    """The chosen game: turns, and how it ends beyond the record (a button)."""

    turns: list[Turn]
    outcome: dict[str, str | None] | None
    button: str | None = None
    flying: bool = False


def computer_side(mode: str) -> str | None:
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}; modes are {', '.join(MODES)}")
    return None if mode == "two-player" else mode.split("-")[1]


def plan_game(
    profile: str, target: str, rng: random.Random, computer: Computer | None, side: str | None, max_turns: int = 220
) -> tuple[Plan, bool]:
    """Choose a game's turns; returns the plan and whether it reached ``target``."""
    if side is not None and computer is None:
        raise ValueError(f"the {side} side is the computer's, but no computer player was given")
    game = Game(profile)
    chooser = Chooser(game, target, rng)
    resign_at = rng.randint(6, 60) if target == "resignation" else None
    button = None
    flying = False
    while not game.outcome and len(game.history) < max_turns:
        mover = game.turn
        human = mover != side
        if resign_at is not None and len(game.history) >= resign_at and human:
            game.resign(mover)
            button = "resign"
            break
        turn = computer(game) if computer is not None and not human else chooser.choose()
        if turn.origin and game.flies(mover) and not game.profile.board.are_adjacent(turn.origin, turn.target):
            flying = True
        game.play(turn)
        chooser.played(turn, mover)
        if target.startswith("claim") and game.claimable_draw() and game.turn != side:
            game.claim_draw()
            button = "draw"
            break
    outcome = game.outcome.to_dict() if game.outcome else None
    plan = Plan(list(game.history), outcome, button, flying)
    return plan, reached(target, game, outcome["reason"] if button == "draw" and outcome else None, button == "resign")


def generate(
    profile: str = "standard",
    seed: int = 0,
    *,
    mode: str = "two-player",
    target: str | None = None,
    mess: dict[str, float] | None = None,
    computer: Computer | None = None,
    max_turns: int = 220,
    attempts: int = 20,
    plan: Plan | None = None,
) -> PhysicalTrace:
    """A messy trace of one game; deterministic for its arguments.

    ``mess`` maps kinds (``mess.KINDS``) to probabilities (default: every kind at 0.25).
    ``computer`` plays the computer side (default: replay's first-legal player).
    ``plan`` replays given turns instead of choosing them (the issue-9 cases).
    """
    get_profile(profile)
    side = computer_side(mode)
    if side and computer is None:
        computer = FirstLegal()
    mess = noise(0.25) if mess is None else {**noise(0.0), **mess}
    unknown = sorted(set(mess) - set(KINDS))
    if unknown:
        raise ValueError(f"unknown mess kind(s) {', '.join(unknown)}")
    rng = random.Random(f"physical:{profile}:{mode}:{seed}")
    if target is None:
        target = rng.choice([*endings(profile), "open"])
    if target not in TARGET_STYLES:
        raise ValueError(f"unknown target {target!r}; targets are {', '.join(TARGET_STYLES)}")
    if plan is None:
        if attempts < 1:
            raise ValueError(f"attempts must be 1 or more, got {attempts}")
        tries = attempts if side is None else min(attempts, 3)
        plan, ok = plan_game(profile, target, rng, computer, side, max_turns)
        for _ in range(tries - 1):
            if ok:
                break
            plan, ok = plan_game(profile, target, rng, computer, side, max_turns)
    contacts = Contacts()
    counts: Counter[str] = Counter({kind: 0 for kind in KINDS})
    hands = Hands(profile, contacts, rng, mess, counts)
    ready = perform(plan, profile, side, hands)
    rows = events(contacts, bounce=mess.get("bounce", 0.0), rng=rng, counts=counts)
    rows.append({"t": round(ready + 3.0, 3)})
    contacts.check()
    header: Header = {
        "profile": profile,
        "white": "computer" if side == "white" else "human",
        "black": "computer" if side == "black" else "human",
        **(computer.header if side and computer is not None else {}),
    }
    record = " ".join(str(t) for t in plan.turns)
    taken = [(ply, str(turn)) for ply, turn in hands.taken_back]
    return PhysicalTrace(
        profile,
        mode,
        seed,
        target,
        header,
        rows,
        record,
        plan.outcome,
        dict(counts),
        plan.flying,
        len(plan.turns),
        taken_back=taken,
    )


def _think(rng: random.Random) -> float:
    return rng.uniform(4.0, 12.0) if rng.random() < 0.1 else rng.uniform(0.8, 4.0)


def perform(
    plan: Plan,
    profile: str,
    side: str | None,
    hands: Hands,
    hooks: dict[int, Callable[[Hands, Game, Turn], None]] | None = None,
) -> float:
    """Carry out a plan on the board; returns the time the board is ready after the last action.

    ``hooks[i]`` replaces the way turn ``i`` is carried out (the issue-9 cases script theirs).
    """
    rng = hands.rng
    game = Game(profile)
    ready = rng.uniform(0.5, 1.5)
    skip = False
    turns = plan.turns
    for i, turn in enumerate(turns):
        mover = game.turn
        if skip:
            skip = False
            game.play(turn)
            continue
        first_change = len(hands.contacts.changes)
        if mover == side:
            hands.t = ready + rng.uniform(0.8, 2.5)  # the prompt shows 0.2 s after the last turn was read
        elif i > 0 and not _recent(hands, turn, ready) and hands.chance("fast"):
            hands.counts["fast"] += 1
            hands.t = ready + rng.uniform(0.03, 0.18)
        else:
            hands.t = ready + _think(rng)
        pair = False
        if hooks and i in hooks:
            hooks[i](hands, game, turn)
        elif pair := _both_reach(game, turns, i, side, hands):
            hands.counts["both_reach"] += 1
            hands.land(turn.target, mover, plain=True)
            hands.t += rng.uniform(0.005, 0.06)
            hands.land(turns[i + 1].target, other_side(mover), plain=True)
            skip = True
        else:
            carry_out(hands, game, turn, computer_turn=mover == side)
        game.play(turn)
        new = hands.contacts.changes[first_change:]
        ready = max([hands.t] + [c.t for c in new])
        # Two men down at once are told apart only by the order their switches closed; a lost
        # change there would leave no observer able to say whose man is whose.
        if new and hooks is None and not pair and hands.chance("lost"):
            hands.counts["lost"] += 1
            change = rng.choice(new)
            change.lost = True
            scan = change.t + rng.uniform(0.2, 0.8)
            hands.contacts.scan(scan)
            ready = max(ready, scan)
    if plan.button:
        ready += _think(rng)
        hands.contacts.press(ready, plan.button)
    return ready


def _recent(hands: Hands, turn: Turn, ready: float) -> bool:
    """Whether the turn touches a point that changed in the last 0.5 s.

    A man cannot be put where another is still being lifted off; and a point off for a
    moment and on again is a nudge to anyone watching, not a removal and a placement.
    """
    points = {p for p in (turn.origin, turn.target, turn.removal) if p}
    return any(c.point in points and c.t > ready - 0.5 for c in hands.contacts.changes[-12:])


def _both_reach(game: Game, turns: list[Turn], i: int, side: str | None, hands: Hands) -> bool:
    if side is not None or i + 1 >= len(turns):
        return False
    this, other = turns[i], turns[i + 1]
    if this.origin or this.removal or other.origin or other.removal:
        return False
    # The second man lands within 60 ms of the first: onto a point emptied in the last 0.5 s
    # (the removal just made) that is a nudge to anyone watching, as for fast play.
    if any(c.point == other.target and c.t > hands.t - 0.5 for c in hands.contacts.changes[-12:]):
        return False
    return hands.chance("both_reach")


def carry_out(hands: Hands, game: Game, turn: Turn, *, computer_turn: bool) -> None:
    """One turn with the mess drawn for it: mistakes first, then the step and its removal."""
    rng = hands.rng
    colour = game.turn
    involved = {p for p in (turn.origin, turn.target, turn.removal) if p}
    if hands.chance("knocked") and hands.knock(involved):
        hands.counts["knocked"] += 1
        hands.wait(0.3, 1.0)
    own = sorted(p for p, c in hands.men.items() if c == colour and p != turn.origin)
    if own and hands.chance("wrong_man"):
        hands.counts["wrong_man"] += 1
        hands.lift_and_return(rng.choice(own), 0.3, 1.5)
        hands.wait(0.3, 1.0)
    if turn.origin and hands.chance("lift_replace"):
        hands.counts["lift_replace"] += 1
        hands.lift_and_return(turn.origin, 0.4, 2.5)
        hands.wait(0.3, 1.2)
    if hands.mess.get("illegal") and hands.chance("illegal"):
        wrong = illegal_step(game, colour, rng, turn if computer_turn else None)
        if wrong is not None:
            hands.counts["illegal"] += 1
            origin, target = wrong
            # A deliberate step takes a moment to decide: the man the other side just put down
            # lifted within a hover's time is, to anyone watching, a hover.
            changed = [c.t for c in hands.contacts.changes[-12:] if c.point in (origin, target)]
            hands.t = max([hands.t] + [t + 0.5 for t in changed])
            if origin is None:
                hands.land(target, colour, plain=True)
                hands.wait(0.8, 2.5)
                hands.lift(target)  # back into the hand
            else:
                owner = hands.lift(origin)
                hands.wait(0.2, 0.8)
                hands.land(target, owner, plain=True)
                hands.wait(0.8, 2.5)
                hands.lift(target)
                hands.wait(0.2, 0.6)
                hands.put_back(origin, owner)
            hands.wait(0.3, 1.0)
    if not computer_turn and hands.chance("takeback"):
        other = changed_mind(game, turn, rng)
        if other is not None:
            hands.counts["takeback"] += 1
            hands.taken_back.append((len(game.history), other))
            taken_back(hands, game, other)
    if turn.removal and hands.chance("removal_first"):
        hands.counts["removal_first"] += 1
        removal(hands, game, turn)
        hands.wait(0.3, 1.2)
        hands.step(turn, colour, involved)
    else:
        hands.step(turn, colour, involved)
        if turn.removal:
            hands.wait(0.4, 1.8)
            removal(hands, game, turn)


def changed_mind(game: Game, planned: Turn, rng: random.Random) -> Turn | None:
    """A legal turn other than ``planned`` that a player makes and then takes back by hand.

    Only a turn whose takeback puts a man back (a move's man on the point he left, the man a
    mill took): a placement taken back only lifts a man, which no one watching can tell from a
    man knocked off. Never a turn that ends the game: the board declares the result at once.
    """
    options = [t for t in game.legal_turns() if t != planned and (t.origin or t.removal) and not _ends(game, t)]
    return rng.choice(sorted(options, key=str)) if options else None


def _ends(game: Game, turn: Turn) -> bool:
    """Whether ``turn`` ends the game: the board declares it over, and a hand takes nothing back."""
    after = game.copy()
    after.play(turn)
    return after.outcome is not None


def taken_back(hands: Hands, game: Game, turn: Turn) -> None:
    """``turn`` made, left standing while the player sees what it allows, and taken back by hand:
    the man back where he came from (or into the hand), the man it took back from the tray."""
    rng = hands.rng
    colour = game.turn
    involved = {p for p in (turn.origin, turn.target, turn.removal) if p}
    hands.step(turn, colour, involved)
    if turn.removal:
        hands.wait(0.4, 1.8)
        hands.remove(turn.removal)
    hands.wait(2.0, 6.0)
    undo = ["step", "removal"] if turn.removal else ["step"]
    rng.shuffle(undo)
    for part in undo:
        if part == "removal" and turn.removal:
            victim = other_side(colour)
            hands.removed[victim] -= 1
            hands.place(turn.removal, victim, involved)
        elif turn.origin:
            hands.move(turn.target, turn.origin, involved)
        else:
            hands.lift(turn.target)  # back into the hand
        hands.wait(0.4, 1.5)
    hands.wait(1.0, 4.0)  # thinks again


def removal(hands: Hands, game: Game, turn: Turn) -> None:
    """The removal a mill earned, maybe after touching a protected man or one's own."""
    rng = hands.rng
    colour = game.turn
    pending = game.copy()
    pending.play(turn.step)
    removable = set(pending.removable)
    board = pending.board
    protected = sorted(p for p, c in board.items() if c != colour and p not in removable)
    geometry = game.profile.board
    if protected and hands.chance("protected"):
        # The tempting one stands next to a man that may be taken (the issue-9 trap), when there is one.
        near = [p for p in protected if any(n in removable for n in geometry.neighbours(p))]
        victim = rng.choice(near or protected)
        if victim in hands.men:
            hands.counts["protected"] += 1
            hands.lift_and_return(victim, 0.4, 2.0)
            hands.wait(0.3, 0.8)
    own = sorted(p for p, c in hands.men.items() if c == colour and p not in (turn.target, turn.origin))
    if own and hands.chance("own_in_removal"):
        hands.counts["own_in_removal"] += 1
        hands.lift_and_return(rng.choice(own), 0.3, 1.5)
        hands.wait(0.3, 0.8)
    if turn.removal is None:
        raise ValueError(f"{turn} removes no man")
    hands.remove(turn.removal)
