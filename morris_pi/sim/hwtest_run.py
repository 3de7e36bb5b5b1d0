"""The self-test (``morris-pi hwtest --sim``) on the simulated board, with or without a window.

``run`` drives ``morris_pi.hwtest.selftest.run_selftest`` over a ``SimBoard``: the
same test the wooden board runs. In a window the user answers with the
mouse; ``ScriptedHand`` answers instead, as a person following the lights
would: a man on the point lit blue, off again when it turns white, and off
every point lit magenta. So "test my build against the simulator" runs
unattended and ends with the report:

    morris-pi hwtest --sim --auto --no-sweep        # 24 of 24 points OK, exit 0

>>> from morris_pi.core.ports import ManualClock
>>> from morris_pi.hwtest.selftest import HwTest
>>> board = SimBoard(clock=ManualClock())
>>> said = []
>>> report = run(board, HwTest(sweep=False), hand=ScriptedHand(board), sleep=board.clock.advance, say=said.append)
>>> report.ok, said[-1]
(True, 'Switches: 24 of 24 points OK.')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from morris_pi.guidance import DEFAULT_PALETTE, Look
from morris_pi.hwtest.selftest import HwTest, Report, run_selftest

from .backends import SimBoard
from .hand import HandError


class ScriptedHand:
    """A person at the simulated board who does what the self-test's lights ask.

    The self-test lights the point to test in the ``computer-to`` colour (put a
    man here), turns it to the ``lifted`` colour once the man is read (take it
    off), and lights men left on the board in the ``extra`` colour (take them
    off). The hand takes its men from the white tray and puts them back there.
    """

    def __init__(self, board: SimBoard, palette: Mapping[str, Look] = DEFAULT_PALETTE, colour: str = "white") -> None:
        self.board = board
        self.colour = colour
        self.put_here = palette["computer-to"].colour
        self.take_off = {palette["lifted"].colour, palette["extra"].colour}
        #: How many men it put on the board.
        self.placed = 0

    def act(self) -> None:
        """Look at the lights once and do what they ask."""
        board, hand = self.board, self.board.hand
        with board.lock:
            lit = dict(board.leds.points)
            for point, colour in lit.items():
                try:
                    if colour == self.put_here and len(lit) == 1 and point not in hand.board:
                        if not hand.in_hand[self.colour]:
                            hand.reset(hand.men)
                        hand.place(point, self.colour)
                        self.placed += 1
                    elif colour in self.take_off and point in hand.board:
                        side = hand.board[point]
                        hand.take("point", point)
                        hand.drop_off(("hand", side))
                except HandError:  # the mouse holds a man there: leave it to the user
                    continue


def run(
    board: SimBoard,
    test: HwTest,
    *,
    sleep: Callable[[float], None],
    say: Callable[[str], None],
    hand: ScriptedHand | None = None,
    stop: Callable[[], bool] = lambda: False,
) -> Report:
    """The self-test on ``board``; ``hand`` (if any) answers its lights between readings."""

    def wait(seconds: float) -> None:
        if hand is not None:
            hand.act()
        sleep(seconds)

    return run_selftest(
        board.sensors, board.leds, board.buttons, clock=board.clock, sleep=wait, say=say, test=test, stop=stop
    )
