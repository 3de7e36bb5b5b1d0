"""The FEN text, read into checked fields and written from a game (the format: ``fen``).

The parts of ``rules`` that build on a FEN (``Position.from_fen``, ``Game.from_fen``,
``Game.fen``) import this module, which imports neither of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .board import BLACK, INDEX, WHITE
from .errors import RulesError
from .profiles import Profile, get_profile

if TYPE_CHECKING:
    from .game import Game

#: The points in FEN order: Sanmill's squares 8-31 (inner, middle, outer ring).
FEN_POINTS: tuple[str, ...] = tuple("d5 e5 e4 e3 d3 c3 c4 c5 d6 f6 f4 f2 d2 b2 b4 b6 d7 g7 g4 g1 d1 a1 a4 a7".split())
_FEN_INDEX = tuple(INDEX[p] for p in FEN_POINTS)
_COUNT_FIELDS = (
    "white men on the board",
    "white men in hand",
    "black men on the board",
    "black men in hand",
    "men white must remove",
    "men black must remove",
    "last mill square (white, from)",
    "last mill square (white, to)",
    "last mill square (black, from)",
    "last mill square (black, to)",
    "formed mills",
    "N-move counter",
    "full-move number",
)


class FenError(RulesError):
    """A FEN that is malformed or not a position of the rules; the message names the field."""


class FenFields:
    """The fields of a FEN that our rules use, checked for consistency."""

    __slots__ = ("counter", "fullmove", "hand", "men", "pending_removal", "phase", "side")

    def __init__(
        self,
        men: tuple[int, int],
        hand: tuple[int, int],
        side: int,
        phase: str,
        pending_removal: bool,
        counter: int,
        fullmove: int,
    ) -> None:
        self.men = men
        self.hand = hand
        self.side = side
        self.phase = phase
        self.pending_removal = pending_removal
        self.counter = counter
        self.fullmove = fullmove


def parse_fen(text: str, profile: str | Profile = "standard") -> FenFields:
    """Read and check a FEN; ``FenError`` names the field that is wrong."""
    profile = get_profile(profile)
    if not isinstance(text, str):
        raise FenError(f"a FEN must be text, got {text!r}")
    fields = text.split()
    if len(fields) < 17:
        raise FenError(
            f"FEN {text.strip()!r}: {len(fields)} fields, expected 17 (board, side, phase, action, 13 numbers)"
        )
    if len(fields) > 17:
        raise FenError(f"FEN field 18 on ({' '.join(fields[17:])!r}): capture-variant extras are not part of our rules")
    board, side_text, phase, action = fields[:4]
    groups = board.split("/")
    if len(groups) != 3 or any(len(g) != 8 for g in groups):
        raise FenError(f"FEN field 1 (board) {board!r}: expected three groups of eight points joined by '/'")
    men = [0, 0]
    for i, char in enumerate("".join(groups)):
        if char == "O":
            men[WHITE] |= 1 << _FEN_INDEX[i]
        elif char == "@":
            men[BLACK] |= 1 << _FEN_INDEX[i]
        elif char == "X":
            raise FenError(
                f"FEN field 1 (board): {FEN_POINTS[i]} is 'X', a marked point, which only "
                "Sanmill's delayed-removal variant uses"
            )
        elif char != "*":
            raise FenError(f"FEN field 1 (board): {FEN_POINTS[i]} is {char!r}; use 'O' white, '@' black, '*' empty")
    if side_text not in ("w", "b"):
        raise FenError(f"FEN field 2 (side to move) {side_text!r}: 'w' or 'b'")
    side = WHITE if side_text == "w" else BLACK
    if phase not in ("r", "p", "m", "o"):
        raise FenError(f"FEN field 3 (phase) {phase!r}: 'p' placing, 'm' moving, 'o' game over ('r' ready)")
    if action not in ("p", "s", "r"):
        raise FenError(f"FEN field 4 (action) {action!r}: 'p' place, 's' select, 'r' remove")
    numbers = []
    for n, (name, value) in enumerate(zip(_COUNT_FIELDS, fields[4:], strict=True), start=5):
        if not (value.isascii() and value.isdigit()):
            raise FenError(f"FEN field {n} ({name}) {value!r}: expected a whole number 0 or more")
        numbers.append(int(value))
    w_board, w_hand, b_board, b_hand, w_remove, b_remove = numbers[:6]
    for n, count, side_name in ((5, w_board, "white"), (7, b_board, "black")):
        actual = men[WHITE if side_name == "white" else BLACK].bit_count()
        if count != actual:
            raise FenError(f"FEN field {n} ({side_name} men on the board) says {count}, the board shows {actual}")
    for n, on_board, in_hand, side_name in ((6, w_board, w_hand, "white"), (8, b_board, b_hand, "black")):
        if on_board + in_hand > profile.men:
            raise FenError(
                f"FEN field {n} ({side_name} men in hand) {in_hand}: with {on_board} on the board that is "
                f"more than the {profile.men} men of the {profile.name} rules"
            )
    if any(numbers[6:11]):
        raise FenError(
            "FEN fields 11-15 (last mill squares, formed mills) must be 0: they belong to Sanmill's "
            "repeated-mill and one-time-mill variants"
        )
    remove = (w_remove, b_remove)
    if remove[side ^ 1] or remove[side] > 1:
        raise FenError(
            f"FEN field {9 + (side ^ 1) if remove[side ^ 1] else 9 + side} (men to remove) "
            f"{w_remove} {b_remove}: only the side to move may have one removal pending"
        )
    pending = remove[side] == 1
    if pending != (action == "r"):
        raise FenError(
            f"FEN field 4 (action) {action!r} does not fit {remove[side]} man to remove for the side to move"
        )
    hand = (w_hand, b_hand)
    placing = any(hand)
    if phase == "m" and placing:
        raise FenError(f"FEN field 3 (phase) 'm' (moving) while men are in hand ({w_hand} white, {b_hand} black)")
    if phase in ("p", "r") and not placing and not pending:
        raise FenError("FEN field 3 (phase) 'p' (placing) with no men in hand")
    if action == "p" and not hand[side]:
        raise FenError(f"FEN field 4 (action) 'p' (place) but {('white', 'black')[side]} has no men in hand")
    counter, fullmove = numbers[11], numbers[12]
    return FenFields((men[0], men[1]), hand, side, phase, pending, counter, max(fullmove, 1))


def finished_by_removal(f: FenFields) -> bool:
    # Sanmill ends the game inside the removal ply that leaves two men: the winner stays to
    # move, "removing". By our rules the loser is to move (and has lost).
    loser = f.side ^ 1
    return f.phase == "o" and f.pending_removal and f.hand[loser] + f.men[loser].bit_count() < 3


def _sanmill_counter(game: Game) -> int:
    # Moves since the last placement or removal, as Sanmill counts them.
    count = 0
    for turn in reversed(game.history):
        if turn.removal or turn.is_placement:
            return count + (1 if game.pending and game.pending.origin else 0)
        count += 1
    start = game.positions[0]
    base = start.quiet if not any(start.hand) else 0
    return base + count + (1 if game.pending and game.pending.origin else 0)


def write_fen(game: Game) -> str:
    """Sanmill's FEN of a game, its pending step applied."""
    board = game.board
    cells = []
    for point in FEN_POINTS:
        owner = board.get(point)
        cells.append("O" if owner == "white" else "@" if owner == "black" else "*")
    text = "".join(cells)
    hand = game.in_hand
    side = game.turn
    pending_turn = game.pending
    pending = pending_turn is not None
    outcome = game.outcome
    counter = _sanmill_counter(game)
    # Sanmill's position knows these ends. Its repetition count lives in its search, and its
    # N-move rule ends the game only when one move more is tried, which a finished game of ours
    # never sees (our count, placing turns included, runs ahead of Sanmill's).
    if outcome and outcome.reason in ("fewer-than-three", "blocked"):
        phase = "o"
    else:
        # The last placement's mill keeps Sanmill in the placing phase until its removal.
        placing = any(hand.values()) or (pending_turn is not None and pending_turn.is_placement)
        phase = "p" if placing else "m"
    if pending:
        action = "r"
    else:
        action = "p" if hand[side] else "s"
    if outcome and outcome.reason == "fewer-than-three" and outcome.winner is not None:
        # Sanmill ends the game inside the removal ply: the winner stays to move, still "removing".
        side, action, pending = outcome.winner, "r", True
    on_board = {s: sum(1 for owner in board.values() if owner == s) for s in ("white", "black")}
    remove = (1 if pending and side == "white" else 0, 1 if pending and side == "black" else 0)
    plies = game.first_ply + len(game.sanmill_record.split())
    fullmove = 1 + (plies - (side == "black")) // 2
    return (
        f"{text[:8]}/{text[8:16]}/{text[16:]} {side[0]} {phase} {action} "
        f"{on_board['white']} {hand['white']} {on_board['black']} {hand['black']} {remove[0]} {remove[1]} "
        f"0 0 0 0 0 {counter} {fullmove}"
    )
