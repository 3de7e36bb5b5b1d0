"""A game: history, notation, two-step removals, outcomes, saving and restoring.

>>> game = Game()
>>> for text in "d6 a1 f6 a4 b6".split():
...     _ = game.play(text)
>>> game.pending, game.removable
(Turn('b6'), ['a1', 'a4'])
>>> game.play("xa1")
Turn('b6xa1')
>>> game.record
'd6 a1 f6 a4 b6xa1'
>>> game.play("d7-d6")
Traceback (most recent call last):
...
morris_pi.rules.errors.IllegalTurnError: d7-d6: black must place: 7 men still in hand (black to move)
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal, get_args

from .board import BLACK, FULL, POINTS, WHITE, bits, names_of, point_index
from .errors import GameOverError, GameTextError, IllegalTurnError, RulesError
from .fen_text import FenError, finished_by_removal, parse_fen, write_fen
from .notation import Turn, parse_removal, sanmill_form, split_record
from .position import SIDES, Position, PositionKey, Side, other_side, tables_for
from .profiles import Profile, get_profile

TEXT_FORMAT = "morris-pi/game-1"
#: Why a game ended, spelled as saves and JSON spell it (a Literal, so the saved form is the value itself).
Reason = Literal["fewer-than-three", "blocked", "threefold-repetition", "n-move-rule", "resignation", "agreement"]
REASONS: tuple[Reason, ...] = get_args(Reason)
#: The draws a player may claim where a profile makes them claimed.
DrawClaim = Literal["threefold-repetition", "n-move-rule"]


@dataclass(frozen=True)
class Outcome:
    """How a game ended. ``winner`` is ``"white"``, ``"black"`` or ``None`` for a draw."""

    winner: Side | None
    reason: Reason

    def to_dict(self) -> dict[str, str | None]:
        return {"winner": self.winner, "reason": self.reason}

    def __str__(self) -> str:
        return f"{self.winner} wins ({self.reason})" if self.winner else f"draw ({self.reason})"


def _declared_outcome(game: Game, declared: object) -> Outcome:
    """A saved resignation, agreement or claimed draw, checked against the restored game."""
    if not isinstance(declared, dict) or set(declared) != {"winner", "reason"}:
        raise GameTextError(f"saved game: bad declared result {declared!r}: expected {{'winner': ..., 'reason': ...}}")
    winner, reason = declared["winner"], declared["reason"]
    if reason == "resignation":
        fits = winner in SIDES
    elif reason == "agreement":
        fits = winner is None
    elif reason in ("threefold-repetition", "n-move-rule"):
        # Only a claim is ever declared, so it must be the claim the position allows.
        fits = winner is None and reason == game.claimable_draw()
    else:
        fits = False
    if not fits:
        raise GameTextError(f"saved game: bad declared result {declared!r} after {game.record!r}")
    if game.outcome:
        raise GameTextError(f"saved game: declared result {declared!r}, but the record already ended: {game.outcome}")
    return Outcome(winner, reason)


def _start_fen(game: Game) -> str:
    """The FEN of a game's first position, with its full-move number."""
    first = Game.from_position(game._positions[0], first_ply=game.first_ply)
    return write_fen(first)


def _side_index(side: str) -> int:
    try:
        return SIDES.index(side)
    except ValueError:
        raise RulesError(f"unknown side {side!r}: 'white' or 'black'") from None


class Game:
    """A game of one rule profile, from the empty board.

    A placement or move that closes a mill leaves the game *removal pending*
    (``pending`` and ``removable``) until ``remove`` or ``play("xa1")``
    completes the turn; ``play("d6xa1")`` does both at once and gives the same
    game. Every refused call raises a ``ValueError`` subclass and changes nothing.
    """

    def __init__(self, profile: str | Profile = "standard") -> None:
        self.profile: Profile = get_profile(profile)
        start = tables_for(self.profile).start
        self._positions: list[Position] = [start]
        self._history: list[Turn] = []
        self._record: str | None = None  # the record's text, kept until the history changes
        self._seen: Counter[PositionKey] = Counter({start.key(): 1})
        self._pending: Turn | None = None
        self._declared: Outcome | None = None
        self._adjudicated: tuple[int, Outcome | None] | None = None
        #: Sanmill plies before this game's first position (non-zero for a game set up from a FEN).
        self.first_ply = 0

    # -- construction -----------------------------------------------------------------

    @classmethod
    def from_record(cls, record: str | Iterable[str], profile: str | Profile = "standard") -> Game:
        """The game after a record, in atomic (``d6xa1``) or Sanmill (``d6 xa1``) form.

        A trailing step whose removal is still to come is left pending.
        """
        game = cls(profile)
        game.play_record(record)
        return game

    def play_record(self, record: str | Iterable[str], *, first: int = 1, after: str = "") -> None:
        """Play the turns of a record in order; an error names the turn: ``turn 3`` (counted from
        ``first``), followed by ``after`` (" after the FEN", say).

        >>> game = Game()
        >>> game.play_record("d6 a1")
        >>> game.play_record("d6", first=3)
        Traceback (most recent call last):
        ...
        morris_pi.rules.errors.IllegalTurnError: turn 3: d6: d6 is occupied (white to move)
        """
        text = record if isinstance(record, str) else " ".join(record)
        for number, token in enumerate(split_record(text), start=first):
            where = f"turn {number}{after}"
            try:
                self.play(token)
            except IllegalTurnError as exc:
                raise IllegalTurnError(exc.turn, exc.side, exc.reason, where=where) from None
            except RulesError as exc:
                raise type(exc)(f"{where}: {exc}") from None

    @classmethod
    def from_position(cls, position: Position, pending: Turn | str | None = None, first_ply: int = 0) -> Game:
        """A game starting at ``position``, with no history (repetitions count from here).

        ``pending`` is a mill-closing step whose removal is still to come.
        """
        if not isinstance(position, Position):
            raise RulesError(f"a game starts from a Position, got {type(position).__name__}")
        game = cls(position.profile)
        game._positions = [position]
        game._seen = Counter({position.key(): 1})
        game.first_ply = first_ply
        if pending is not None:
            step = game.play(pending)
            if not game.pending or step.removal:
                raise IllegalTurnError(str(step), game.turn, "a pending step must close a mill and await its removal")
        return game

    @classmethod
    def from_fen(cls, fen: str, profile: str | Profile = "standard") -> Game:
        """A game starting at a Sanmill FEN (see ``morris_pi.rules.fen``), with no history; a pending
        removal stays pending (on the step that fits). ``FenError`` names a bad field."""
        f = parse_fen(fen, profile)
        tables = tables_for(profile)
        ply = 2 * (f.fullmove - 1) + (f.side == BLACK)
        if finished_by_removal(f):
            return cls.from_position(Position(tables, f.men, f.hand, f.side ^ 1, 0), first_ply=ply)
        if not f.pending_removal:
            return cls.from_position(Position(tables, f.men, f.hand, f.side, f.counter), first_ply=ply)
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
                return cls.from_position(start, pending=step, first_ply=max(ply - 1, 0))
            except RulesError as exc:  # e.g. the opponent has no man on the board to remove
                raise FenError(f"FEN field 4 (action) 'r': no removal is possible: {exc}") from None
        raise FenError(
            f"FEN field 4 (action) 'r': no {('white', 'black')[me]} man stands in a closed mill that a "
            "step could have just closed"
        )

    @property
    def fen(self) -> str:
        """The current position as Sanmill's FEN, the pending step applied."""
        return write_fen(self)

    def copy(self) -> Game:
        other = Game.__new__(Game)
        other.profile = self.profile
        other._positions = list(self._positions)
        other._history = list(self._history)
        other._record = self._record
        other._seen = Counter(self._seen)
        other._pending = self._pending
        other._declared = self._declared
        other._adjudicated = self._adjudicated
        other.first_ply = self.first_ply
        return other

    # -- state ------------------------------------------------------------------------

    @property
    def position(self) -> Position:
        """The position after the last completed turn (a pending step not applied)."""
        return self._positions[-1]

    @property
    def positions(self) -> tuple[Position, ...]:
        """Every position of the game, the start included; the engine reads repetitions from it."""
        return tuple(self._positions)

    @property
    def turn(self) -> Side:
        """The side to move: ``"white"`` or ``"black"``."""
        return SIDES[self.position.side]

    @property
    def history(self) -> tuple[Turn, ...]:
        return tuple(self._history)

    @property
    def record(self) -> str:
        """The completed turns in notation, e.g. ``"d6 a1 f6 a4 b6xa1"``."""
        # Read on every step of the board's loop, while it changes once a turn.
        if self._record is None:
            self._record = " ".join(map(str, self._history))
        return self._record

    @property
    def sanmill_record(self) -> str:
        """The record in Sanmill's ply form, where a removal is a token of its own."""
        text = sanmill_form(self._history)
        if self._pending:
            text = f"{text} {self._pending}".strip()
        return text

    @property
    def pending(self) -> Turn | None:
        """The step that closed a mill and waits for its removal, or ``None``."""
        return self._pending

    @property
    def removable(self) -> list[str]:
        """The opponent men that may be removed now (empty unless a removal is pending)."""
        if not self._pending:
            return []
        return names_of(self.position.removable(self.position.side))

    @property
    def board(self) -> dict[str, str]:
        """What should stand on the board now: point -> ``"white"``/``"black"``, pending step applied."""
        pos = self.position
        out = {p: "white" for p in names_of(pos.men[0])}
        out.update({p: "black" for p in names_of(pos.men[1])})
        if self._pending:
            if self._pending.origin:
                del out[self._pending.origin]
            out[self._pending.target] = self.turn
        return dict(sorted(out.items(), key=lambda item: point_index(item[0])))

    @property
    def in_hand(self) -> dict[str, int]:
        """Men each side still has to place (a pending placement already counted)."""
        hand: dict[str, int] = dict(zip(SIDES, self.position.hand, strict=True))
        if self._pending and self._pending.is_placement:
            hand[self.turn] -= 1
        return hand

    def flies(self, side: Side | None = None) -> bool:
        """Whether a side (default: the side to move) may fly to any empty point."""
        return self.position.flies(_side_index(side or self.turn))

    @property
    def quiet_turns(self) -> int:
        """Turns counted towards the N-move rule."""
        return self.position.quiet

    def repetitions(self) -> int:
        """How often the current position has occurred, this time included."""
        return self._seen[self.position.key()]

    # -- legal turns ------------------------------------------------------------------

    def legal_turns(self) -> list[Turn]:
        """Every legal turn now, in notation order of generation; completions only while pending."""
        if self.outcome:
            return []
        turns = [Turn.from_raw(raw) for raw in self.position.turns()]
        if self._pending:
            turns = [t for t in turns if t.step == self._pending]
        return turns

    def legal_targets(self, origin: str | None = None) -> list[str]:
        """Where a man may go now: from ``origin``, or placed from hand when ``origin`` is None."""
        if self.outcome or self._pending:
            return []
        start = point_index(origin) if origin else -1
        return [POINTS[to] for o, to in self.position.steps() if o == start]

    def is_legal(self, turn: Turn | str) -> bool:
        try:
            self.copy().play(turn)
        except ValueError:
            return False
        return True

    # -- playing ----------------------------------------------------------------------

    def play(self, turn: Turn | str) -> Turn:
        """Play a whole turn, a step that will wait for its removal, or a lone removal ``xa1``.

        Returns the completed turn, or the pending step.
        """
        if isinstance(turn, str):
            point = parse_removal(turn)
            if point is not None:
                return self.remove(point)
            turn = Turn.parse(turn)
        elif not isinstance(turn, Turn):
            raise IllegalTurnError(repr(turn), self.turn, "not a turn")
        text = str(turn)
        self._refuse_if_over(text)
        pos = self.position
        side = self.turn
        if self._pending:
            if turn.step != self._pending or turn.removal is None:
                raise IllegalTurnError(
                    text, side, f"{self._pending} closed a mill; remove a {other_side(side)} man first"
                )
            return self.remove(turn.removal)
        origin, target, _ = turn.to_raw()
        self._check_step(turn, pos, side)
        closes = pos.closes_mill(origin, target)
        if turn.removal:
            if not closes:
                raise IllegalTurnError(text, side, f"{turn.step} does not close a mill, so nothing may be removed")
            self._check_removal(turn, turn.removal)
            return self._commit(turn)
        if closes and pos.removable(pos.side):
            self._pending = turn
            return turn
        return self._commit(turn)

    def remove(self, point: str) -> Turn:
        """Complete a pending mill by removing the opponent man on ``point``."""
        if not self._pending:
            raise IllegalTurnError(f"x{point}", self.turn, "no mill was closed, so nothing may be removed")
        turn = self._pending.with_removal(point)
        self._refuse_if_over(str(turn))
        self._check_removal(turn, point)
        return self._commit(turn)

    def undo(self) -> Turn | None:
        """Take back the pending step, else the last turn; returns what was taken back.

        A resignation, agreement or claimed draw is withdrawn first (returning ``None``).
        """
        if self._declared:
            self._declared = None
            return None
        if self._pending:
            step, self._pending = self._pending, None
            return step
        if not self._history:
            raise RulesError("nothing to undo: no turn has been played")
        position = self._positions.pop()
        self._seen[position.key()] -= 1
        if not self._seen[position.key()]:
            del self._seen[position.key()]
        self._adjudicated = None
        self._record = None
        return self._history.pop()

    def _commit(self, turn: Turn) -> Turn:
        position = self.position.play(turn.to_raw())
        self._positions.append(position)
        self._history.append(turn)
        self._record = None
        self._seen[position.key()] += 1
        self._pending = None
        self._adjudicated = None
        return turn

    def _check_step(self, turn: Turn, pos: Position, side: str) -> None:
        me = pos.side
        text = str(turn)
        board = self.board
        if turn.origin is None:
            if pos.hand[me] == 0:
                raise IllegalTurnError(text, side, f"{side} has no men in hand; move a man instead")
        else:
            if not pos.can_move(me):
                raise IllegalTurnError(text, side, f"{side} must place: {pos.hand[me]} men still in hand")
            owner = board.get(turn.origin)
            if owner is None:
                raise IllegalTurnError(text, side, f"{turn.origin} is empty")
            if owner != side:
                raise IllegalTurnError(text, side, f"{turn.origin} holds a {owner} man")
        if turn.target in board:
            raise IllegalTurnError(text, side, f"{turn.target} is occupied")
        if turn.origin and not pos.flies(me) and not pos.profile.board.are_adjacent(turn.origin, turn.target):
            raise IllegalTurnError(text, side, f"{turn.origin} and {turn.target} are not adjacent")

    def _check_removal(self, turn: Turn, point: str) -> None:
        pos = self.position
        side = self.turn
        other = other_side(side)
        owner = self.board.get(point)
        if owner != other:
            what = "empty" if owner is None else f"{side}'s own man"
            raise IllegalTurnError(str(turn), side, f"{point} is {what}; remove a {other} man")
        allowed = pos.removable(pos.side)
        if not allowed >> point_index(point) & 1:
            if not allowed:
                raise IllegalTurnError(str(turn), side, f"every {other} man stands in a mill, so none may be removed")
            raise IllegalTurnError(
                str(turn), side, f"{point} is protected by a mill while {other} has men outside mills"
            )

    def _refuse_if_over(self, text: str) -> None:
        outcome = self.outcome
        if outcome:
            raise GameOverError(f"{text}: the game is over: {outcome}")

    # -- outcomes ---------------------------------------------------------------------

    @property
    def outcome(self) -> Outcome | None:
        """``None`` while the game goes on, else how it ended."""
        if self._declared:
            return self._declared
        if self._pending:
            return None
        ply = len(self._positions)
        if self._adjudicated is None or self._adjudicated[0] != ply:
            self._adjudicated = (ply, self._adjudicate())
        return self._adjudicated[1]

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    def _adjudicate(self) -> Outcome | None:
        # RULES.md order: loss of the side to move, then repetition, then the N-move rule.
        pos = self.position
        winner = other_side(self.turn)
        if pos.count(pos.side) < 3:
            return Outcome(winner, "fewer-than-three")
        if not pos.steps():
            return Outcome(winner, "blocked")
        profile = self.profile
        if profile.repetition_draw == "auto" and self.repetitions() >= 3:
            return Outcome(None, "threefold-repetition")
        if profile.n_move_draw == "auto" and pos.quiet >= profile.n_move_limit:
            return Outcome(None, "n-move-rule")
        return None

    def claimable_draw(self) -> DrawClaim | None:
        """The reason a draw may be claimed now (profiles whose draws are claimed), else ``None``."""
        if self.outcome or self._pending:
            return None
        profile = self.profile
        if profile.repetition_draw == "claim" and self.repetitions() >= 3:
            return "threefold-repetition"
        if profile.n_move_draw == "claim" and self.position.quiet >= profile.n_move_limit:
            return "n-move-rule"
        return None

    def claim_draw(self) -> Outcome:
        self._refuse_if_over("draw claim")
        reason = self.claimable_draw()
        if reason is None:
            raise RulesError(
                f"no draw can be claimed now: the position has occurred {self.repetitions()} time(s) and "
                f"{self.position.quiet} of {self.profile.n_move_limit} quiet turns have passed"
            )
        self._declared = Outcome(None, reason)
        return self._declared

    def resign(self, side: Side) -> Outcome:
        _side_index(side)  # a side from outside (a button, a saved file) is checked before anything changes
        self._refuse_if_over(f"{side} resigns")
        self._declared = Outcome(other_side(side), "resignation")
        return self._declared

    def agree_draw(self) -> Outcome:
        self._refuse_if_over("draw by agreement")
        self._declared = Outcome(None, "agreement")
        return self._declared

    # -- saving -----------------------------------------------------------------------

    def to_text(self) -> str:
        """The whole game as text; ``from_text`` restores it exactly, history included."""
        data: dict[str, object] = {
            "format": TEXT_FORMAT,
            "profile": self.profile.name,
            "record": self.record,
            "pending": str(self._pending) if self._pending else None,
            "declared": self._declared.to_dict() if self._declared else None,
        }
        start = self._positions[0]
        if start != tables_for(self.profile).start or self.first_ply:
            # a game set up from a FEN: the record continues it; the ply count is kept apart
            # because a FEN's full-move number cannot say whether a removal ply came before
            data["start"] = _start_fen(self)
            data["start_ply"] = self.first_ply
        return json.dumps(data)

    @classmethod
    def from_text(cls, text: str) -> Game:
        """Restore a game saved by ``to_text``; ``GameTextError`` says what is wrong with a bad text."""
        try:
            data = json.loads(text)
        except (json.JSONDecodeError, TypeError) as exc:
            raise GameTextError(f"saved game is not valid JSON: {exc}") from None
        if not isinstance(data, dict):
            raise GameTextError("saved game must be a JSON object")
        if data.get("format") != TEXT_FORMAT:
            raise GameTextError(f"saved game format is {data.get('format')!r}, expected {TEXT_FORMAT!r}")
        unknown = set(data) - {"format", "profile", "record", "pending", "declared", "start", "start_ply"}
        if unknown:
            raise GameTextError(f"saved game has unknown field(s): {', '.join(sorted(unknown))}")
        record, pending, declared = data.get("record"), data.get("pending"), data.get("declared")
        if not isinstance(record, str) or not (pending is None or isinstance(pending, str)):
            raise GameTextError("saved game: 'record' must be text and 'pending' text or null")
        profile = data.get("profile")
        if not isinstance(profile, str):
            raise GameTextError(f"saved game: 'profile' must be a profile name, not {profile!r}")
        try:
            start = data.get("start")
            if start is None:
                game = cls.from_record(record, profile)
            elif not isinstance(start, str) or not isinstance(data.get("start_ply", 0), int):
                raise GameTextError("saved game: 'start' must be a FEN text and 'start_ply' a whole number")
            else:
                game = cls.from_fen(start, profile)
                game.first_ply = max(data.get("start_ply", game.first_ply), 0)
                try:
                    game.play_record(record, after=" after the start FEN")
                except RulesError as exc:
                    raise GameTextError(f"saved game: {exc}") from None
            if game.pending:
                raise GameTextError(
                    f"saved game: the record ends with {game.pending}, which waits for its removal; "
                    "a step in progress belongs in 'pending'"
                )
            if pending:
                step = Turn.parse(pending)
                if step.removal or game.play(step) != step or not game.pending:
                    raise GameTextError(f"saved game: pending step {pending!r} does not close a mill")
        except GameTextError:
            raise
        except RulesError as exc:
            raise GameTextError(f"saved game: {exc}") from None
        if declared is not None:
            game._declared = _declared_outcome(game, declared)
        return game

    def __repr__(self) -> str:
        state = f"outcome={self.outcome}" if self.outcome else f"{self.turn} to move"
        return f"<Game {self.profile.name} record={self.record!r} {state}>"
