"""The model of hands and switches: a frozen table of named durations, and what each costs.

A story's cost is ``-log p`` of the switch evidence under the story, up to a constant: each
duration the story implies costs ``Duration.cost``, each role noise plays costs its ``prior``
(how rarely it happens, as ``-log`` of its rate per turn), each unseen change ``lost``.
The numbers are set by hand from the timings the trace generators document, and checked on
their seeds 0 to 9 (``bench/shadow_tracker.py``); ``bench/fit_tracker_model.py`` measures each
role's durations and rates along games' true records, for comparison (docs/tracker-decoder.md).

>>> m = DEFAULT_MODEL
>>> m.carry.cost(0.9) < m.carry.cost(9.0)      # a man carried for a second is usual
True
>>> m.touch.cost(0.05) < m.drop.cost(0.05)     # a brief closing is a magnet passing over
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass

_SQRT_2 = math.sqrt(2)
_SQRT_2PI = math.sqrt(2 * math.pi)


def _normal_between(a: float, b: float) -> float:
    """The standard normal probability of ``[a, b]``, accurate far in either tail."""
    r = _SQRT_2
    if a > 0:
        return 0.5 * (math.erfc(a / r) - math.erfc(b / r))
    if b < 0:
        return 0.5 * (math.erfc(-b / r) - math.erfc(-a / r))
    return 0.5 * (math.erf(b / r) - math.erf(a / r))


@dataclass(frozen=True, slots=True)
class Duration:
    """A log-normal duration: ``median`` seconds, ``sigma`` the spread of its logarithm.

    ``cost`` is ``-log`` of its density plus ``prior`` (the role's own rarity); it is never
    negative, so a role never pays a story for being played.
    """

    median: float
    sigma: float
    prior: float = 0.0

    def cost(self, seconds: float) -> float:
        d = max(seconds, 1e-4)
        z = (math.log(d) - math.log(self.median)) / self.sigma
        # the density's log relative to its peak: 0 at the mode-ish centre, grows with distance
        return self.prior + 0.5 * z * z

    def tail(self, seconds: float) -> float:
        """The cost of a duration still going on after ``seconds`` (only its lower end is known)."""
        d = max(seconds, 1e-4)
        z = (math.log(d) - math.log(self.median)) / self.sigma
        return self.prior + (0.5 * z * z if z > 0 else 0.0)

    def head(self, seconds: float) -> float:
        """The cost of a duration that is only unusual when short (a man standing on his point)."""
        d = max(seconds, 1e-4)
        z = (math.log(d) - math.log(self.median)) / self.sigma
        return self.prior + (0.5 * z * z if z < 0 else 0.0)

    def cost_between(self, lo: float, hi: float) -> float:
        """The cost of a duration known only to lie in ``[lo, hi]``: an end a switch did not report,
        which happened at any moment of that window as likely as another. Its density is averaged
        over the window, not taken at its best: a wide window where only a sliver fits the role
        (a nudge's return somewhere in three seconds) is unlikely, where most of it fits (a knock's)
        is not.

        >>> knock = Duration(1.0, 0.6)
        >>> knock.cost_between(1.0, 1.0) == knock.cost(1.0) == 0.0
        True
        >>> round(knock.cost_between(0.0, 2.8), 2), round(Duration(0.07, 0.5).cost_between(0.0, 2.8), 2)
        (0.58, 3.34)
        """
        if hi < lo:
            lo, hi = hi, lo
        if hi - lo < 1e-3:
            return self.cost((lo + hi) / 2)
        lo = max(lo, 1e-4)
        # d = median * exp(sigma * z): the integral of exp(-z^2 / 2) over d in closed form
        s = self.sigma
        a = (math.log(lo) - math.log(self.median)) / s - s
        b = (math.log(hi) - math.log(self.median)) / s - s
        mass = _normal_between(a, b) * s * self.median * math.exp(s * s / 2) * _SQRT_2PI
        mean = mass / (hi - lo)
        if mean <= 0.0:  # far in one tail: its nearer end is the best that can be said
            return min(self.cost(lo), self.cost(hi))
        return self.prior + max(-math.log(mean), 0.0)


@dataclass(frozen=True, slots=True)
class Model:
    """Every duration and rate the decoder knows, by the role it plays."""

    #: A man moved: from the lift of its point to the closing of its target.
    carry: Duration = Duration(0.75, 0.55)
    #: From the step that closed a mill to the lift of the man taken (either order, see ``taken_first``).
    remove: Duration = Duration(1.1, 0.65)
    #: A man standing on his point, from his landing to his lift or removal later in the story:
    #: the other player needs time to see him and reach him. Only a short stand is priced.
    stand: Duration = Duration(1.0, 0.6)
    #: A point emptied (its man lifted or taken) until another man lands on it: the hand that
    #: emptied it clears away, and the next needs time to see it empty and reach it. Only a
    #: short one is priced.
    clear: Duration = Duration(2.0, 0.6)
    #: From a man's landing to a knock that lifts him off his point: the hand that put him down
    #: lets go first. Only a short one is priced.
    reach: Duration = Duration(0.3, 0.8)
    #: From a knocked man put back to a man lifted on another point, or the other way round: the
    #: hand that puts him back lets go before it reaches another. Only a short one is priced.
    put_back: Duration = Duration(0.3, 0.5)
    #: A magnet carried over an empty point: a brief closing.
    touch: Duration = Duration(0.05, 0.45, prior=1.0)
    #: A man set down on an empty point and taken up again (a change of mind, a slip).
    drop: Duration = Duration(1.5, 0.6, prior=8.0)
    #: A standing man pushed off its switch and back: a brief opening.
    nudge: Duration = Duration(0.07, 0.5, prior=1.5)
    #: A standing man knocked or lifted and put back on its own point.
    knock: Duration = Duration(1.0, 0.6, prior=3.5)
    #: A standing man lifted and put back by the hand that owes a removal, before it takes the
    #: man it may: the wrong man first (one of its own, or one the mill may not take). While a
    #: removal is due that is far likelier than a knock at any other moment; elsewhere it is one.
    fumble: Duration = Duration(1.0, 0.6, prior=2.0)
    #: A man just put down flickering on its switch before it rests.
    flicker: Duration = Duration(0.04, 0.8, prior=0.5)
    #: How soon after a landing a brief opening counts as flicker rather than a nudge.
    flicker_window_s: float = 0.6
    #: A point's last change begins an excursion not over yet (a man resting off its switch, a
    #: hand on a point): rarer than the same excursion finished.
    unfinished: float = 1.0
    #: Each turn a story claims (so noise that explains as well is not read as turns).
    turn: float = 2.0
    #: A man lifted and set down where no rule lets him go, not yet taken up again: a mistake the
    #: board shows, which he puts right (half of it on each of the two points).
    astray: float = 4.0
    #: How long a man set down astray is left there before he is taken up again; only its tail
    #: is priced while he is.
    stray: Duration = Duration(1.5, 0.6)
    #: A change that only a later scan showed: the switch's report was lost.
    lost: float = 2.0
    #: The board put back to the position before the last turn (before the human's, against the
    #: computer) while the game goes on: a takeback by hand.
    takeback: float = 4.0
    #: The man taken off before the mill's step was made.
    taken_first: float = 2.0
    #: How long the next turn's first change came before this turn's last one (two hands at
    #: once: the next player lifts while the man still flies or flickers). Only its tail is priced.
    early: Duration = Duration(0.65, 0.8, prior=3.5)
    #: Against the computer, from the end of the turn before to the first change of the computer's
    #: turn: a hand carries it out as the LEDs prompt it, and they prompt it once the turn before
    #: has been read, so only a short one is priced (a quick player guessing the reply).
    reply: Duration = Duration(1.0, 0.6)
    #: The next turn begun before the mill's removal was made: the other side waits to see
    #: which man is taken (it may be the one he would lift). On top of ``early``.
    before_removal: float = 6.0
    #: A man knocked off his point still off while changes of two turns happen elsewhere: the
    #: hand that knocked him puts him back once its own turn's man is down, before the next turn.
    left_off: float = 3.5
    #: A magnet held over an empty point while a man is put down, lifted or taken elsewhere: two
    #: hands over the board at once.
    second_hand: float = 3.5
    #: How long the player to move waits before his turn begins: a board silent that long is
    #: priced in every story in which the game goes on, so a turn that ends it is read in time.
    think: Duration = Duration(3.0, 1.0)
    #: The most a silence costs: a player may leave the board for good.
    left_board: float = 6.0
    #: Stories costing more than this much above the best are not believed.
    margin: float = 4.0
    #: A story costing more than this explains too little: the board is shown as a problem.
    cap: float = 40.0


DEFAULT_MODEL = Model()
