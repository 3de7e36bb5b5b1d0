"""A person at the board for service tests: plays its own turns, and the computer's as the LEDs show them.

The person sees only what a player sees: which men stand where (it put them
there) and the LED colours. It reads the computer's prompted turn from the
LEDs (blue on an occupied point: lift it; blue on an empty point: put a man
there; orange on a man of its own: take it off), and puts the board right
after a takeback from the correction LEDs (orange on an empty point: a man is
missing; magenta: take that man off).
"""

from __future__ import annotations

import random

from morris_pi.guidance import DEFAULT_PALETTE
from morris_pi.rules import Game, Turn

COMPUTER = DEFAULT_PALETTE["computer-to"].colour
REMOVE = DEFAULT_PALETTE["computer-remove"].colour
MISSING = DEFAULT_PALETTE["missing"].colour
EXTRA = DEFAULT_PALETTE["extra"].colour
assert DEFAULT_PALETTE["computer-from"].colour == COMPUTER and MISSING == REMOVE


class Person:
    def __init__(self, board, *, human: str = "white", seed: int = 7, profile: str = "standard") -> None:
        self.board = board
        self.human = human
        self.game = Game(profile)
        self.rng = random.Random(seed)

    # -- own turns --------------------------------------------------------------------

    def choose(self) -> Turn:
        turns = self.game.legal_turns()
        mills = [t for t in turns if t.removal]
        return self.rng.choice(mills or turns)

    def make(self, turn: Turn) -> None:
        """Do a turn with the hands."""
        b = self.board
        if turn.origin:
            b.take(turn.origin, 0.1)
        b.put(turn.target, 0.5)
        if turn.removal:
            b.take(turn.removal, 0.5)

    def play_own(self) -> Turn:
        turn = self.choose()
        self.make(turn)
        self.game.play(turn)
        return turn

    # -- the computer's turns, read from the LEDs -------------------------------------

    def wait_for_engine(self, timeout: float = 60.0) -> None:
        """Wait until the engine's search thread has ended.

        The engine thinks in real time while the board's clock stands still
        between steps, so the person waits on the thread itself, not on a
        number of steps or a sleep.
        """
        session = self.board.session
        controller = session.controller if session is not None else None
        opponent = controller.opponent if controller is not None else None
        player = getattr(opponent, "player", opponent)  # the EnginePlayer inside the service's watcher
        join = getattr(player, "join", None)
        if join is not None and not join(timeout):
            raise AssertionError(f"the engine was still thinking after {timeout} s")

    def read_prompt(self, tries: int = 100) -> Turn:
        b = self.board
        for _ in range(tries):
            b.run(0.1)  # the loop notices the human's turn and starts the engine
            self.wait_for_engine()
            seen = b.seen(0.65)
            seen2 = b.seen(0.65)
            for p, cs in seen2.items():
                seen.setdefault(p, set()).update(cs)
            blue = {p for p, cs in seen.items() if COMPUTER in cs}
            if blue:
                occupied = b.closed()
                target = blue - occupied
                origin = blue & occupied
                removal = {p for p, cs in seen.items() if REMOVE in cs and p in occupied}
                assert len(target) == 1 and len(origin) <= 1 and len(removal) <= 1, (blue, removal, occupied)
                text = (f"{origin.pop()}-" if origin else "") + target.pop()
                if removal:
                    text += f"x{removal.pop()}"
                return Turn.parse(text)
        raise AssertionError("the computer's turn never lit up")

    def play_computer(self) -> Turn:
        turn = self.read_prompt()
        self.make(turn)
        self.game.play(turn)
        return turn

    # -- putting the board right --------------------------------------------------------

    def follow_corrections(self, rounds: int = 10) -> None:
        b = self.board
        for _ in range(rounds):
            seen = b.seen(1.3)
            occupied = b.closed()
            missing = {p for p, cs in seen.items() if MISSING in cs and p not in occupied}
            extra = {p for p, cs in seen.items() if EXTRA in cs and p in occupied}
            if not missing and not extra:
                return
            for p in sorted(extra):
                b.take(p, 0.1)
            for p in sorted(missing):
                b.put(p, 0.1)
            b.run(0.5)
        raise AssertionError("the board could not be put right from the LEDs")
