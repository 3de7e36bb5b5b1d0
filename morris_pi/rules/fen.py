"""Sanmill's FEN: a position as one line of text, read and written exactly as Sanmill 7.4 does.

Seventeen fields separated by spaces (Sanmill's ``Position::fen()``)::

    ********/OO*****O/*****@@* w p r 3 6 2 7 1 0 0 0 0 0 0 0 3

1. the 24 points, ``O`` white, ``@`` black, ``*`` empty, in three groups of
   eight joined by ``/``: inner ring, middle ring, outer ring, each from the
   top centre point clockwise (``d5 e5 e4 e3 d3 c3 c4 c5 / d6 f6 ... /
   d7 g7 g4 g1 d1 a1 a4 a7``);
2. side to move ``w`` / ``b``;
3. phase ``p`` placing, ``m`` moving, ``o`` game over (``r`` ready = placing);
   Sanmill marks a game over by blocking and by fewer than three men; its N-move
   rule only when a move beyond the limit is tried; never by repetition;
4. action ``p`` place, ``s`` select a man to move, ``r`` remove;
5. white men on the board, white in hand, black on board, black in hand;
6. men white must remove, men black must remove (1 while a removal is pending);
7. four "last mill" squares and 8. the formed-mills bitmask: both serve
   Sanmill's repeated-mill and one-time-mill variants, always 0 under our rules;
9. Sanmill's N-move counter: moves since the last placement or removal;
10. the full-move number (Sanmill counts a removal as a ply of its own).

What a FEN carries and what it does not: the men, the hands, the side to
move, a pending removal and the N-move counter; no history, so repetitions
start counting at the FEN. Sanmill's counter ignores placing turns (a
placement resets it) where ours counts every turn since the last removal:
read, the counter becomes ``Position.quiet``; written, it is the moves since
the last placement or removal (0 while placing). A pending removal (action
``r``) does not say which step closed the mill; ``game_from_fen`` names one
that fits (the first man of the side to move standing in a closed mill).

>>> game = game_from_fen("********/OO*****O/*****@@* w p r 3 6 2 7 1 0 0 0 0 0 0 0 3")
>>> game.turn, game.removable
('white', ['a1', 'a4'])
>>> to_fen(Game.from_record("d6 a1 f6 a4 b6"))
'********/OO*****O/*****@@* w p r 3 6 2 7 1 0 0 0 0 0 0 0 3'
"""

from __future__ import annotations

from .board import FULL, INDEX, POINTS, bits
from .errors import RulesError
from .game import Game
from .notation import Turn
from .position import BLACK, WHITE, Position, tables_for
from .profiles import Profile, get_profile

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


def _finished_by_removal(f: FenFields) -> bool:
    # Sanmill ends the game inside the removal ply that leaves two men: the winner stays to
    # move, "removing". By our rules the loser is to move (and has lost).
    loser = f.side ^ 1
    return f.phase == "o" and f.pending_removal and f.hand[loser] + f.men[loser].bit_count() < 3


def position_from_fen(text: str, profile: str | Profile = "standard") -> Position:
    """The ``Position`` of a FEN (no pending removal: use ``game_from_fen`` for those)."""
    f = parse_fen(text, profile)
    if _finished_by_removal(f):
        return Position(tables_for(profile), f.men, f.hand, f.side ^ 1, 0)
    if f.pending_removal:
        raise FenError(
            "FEN field 4 (action) 'r': a removal is pending, which a Position cannot hold; use Game.from_fen"
        )
    return Position(tables_for(profile), f.men, f.hand, f.side, f.counter)


def game_from_fen(text: str, profile: str | Profile = "standard") -> Game:
    """A game starting at the FEN's position, with no history; a pending removal stays pending."""
    f = parse_fen(text, profile)
    tables = tables_for(profile)
    ply = 2 * (f.fullmove - 1) + (f.side == BLACK)
    if _finished_by_removal(f):
        return Game.from_position(Position(tables, f.men, f.hand, f.side ^ 1, 0), first_ply=ply)
    if not f.pending_removal:
        return Game.from_position(Position(tables, f.men, f.hand, f.side, f.counter), first_ply=ply)
    # Undo one step that fits: a man of the side to move in a closed mill, placed or moved there.
    me = f.side
    own, opp = f.men[me], f.men[me ^ 1]
    placing = f.phase in ("p", "r")
    for target in bits(own):
        if not any(own & pair == pair for pair in tables.partners[target]):
            continue
        before = own & ~(1 << target)
        if placing:
            hand = list(f.hand)
            hand[me] += 1
            men = (before, opp) if me == WHITE else (opp, before)
            step = Turn(POINTS[target])
            quiet = f.counter
        else:
            empty = FULL & ~(own | opp)
            fly = tables.flying and own.bit_count() == 3
            origins = bits(empty if fly else tables.adjacency[target] & empty)
            if not origins:
                continue
            origin = origins[0]
            before |= 1 << origin
            hand = list(f.hand)
            men = (before, opp) if me == WHITE else (opp, before)
            step = Turn(POINTS[target], POINTS[origin])
            quiet = max(f.counter - 1, 0)
        start = Position(tables, men, (hand[0], hand[1]), me, quiet)
        try:
            return Game.from_position(start, pending=step, first_ply=max(ply - 1, 0))
        except RulesError as exc:  # e.g. the opponent has no man on the board to remove
            raise FenError(f"FEN field 4 (action) 'r': no removal is possible: {exc}") from None
    raise FenError(
        f"FEN field 4 (action) 'r': no {('white', 'black')[me]} man stands in a closed mill that a "
        "step could have just closed"
    )


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


def to_fen(source: Game | Position) -> str:
    """Sanmill's FEN of a game (its pending step applied) or of a position.

    A ``Position`` has no history: its full-move number is written as 1 and its
    counter as ``quiet`` once no men are in hand (0 while placing).
    """
    if isinstance(source, Position):
        game = Game.from_position(source)
    elif isinstance(source, Game):
        game = source
    else:
        raise TypeError(f"to_fen needs a Game or a Position, got {type(source).__name__}")
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
