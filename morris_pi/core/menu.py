"""The screenless set-up menu: the LEDs offer the choices on the points, a man picks one.

Layout (rank 7 at the top; L = level, P = rule profile, TWO / CMP = mode,
WHT / BLK = your colour against the computer, GO = start; the points marked
with a dot are never lit)::

          a       b       c       d       e       f       g
     7   L1 -------------------- L2 -------------------- L3
          |                       |                       |
     6    |      L4 ------------ L5 ------------ L6       |
          |       |               |               |       |
     5    |       |      L7 ---- L8 ---- L9       |       |
          |       |       |               |       |       |
     4   P1 ---- P2 ---- P3              P4 ---- P5 ---- P6
          |       |       |               |       |       |
     3    |       |      AW ---- L10 ---- AB      |       |
          |       |               |               |       |
     2    |      TWO ------------ . ------------ CMP      |
          |                       |                       |
     1   WHT ------------------- GO -------------------- BLK

- Level 1-10 (upper half, read like a phone keypad: 1 2 3 / 4 5 6 / 7 8 9,
  and 10 below 8 where a keypad has its 0). Shown only against the computer.
- Rule profile (the middle row, in ``morris_pi.rules.PROFILES`` order:
  standard, move-this, club, no-flying, lasker, twelve).
- Mode: b2 (TWO) two players, f2 (CMP) against the computer.
- The human's colour: a1 (WHT) white, g1 (BLK) black. Shown only against the
  computer.
- Assistance (``morris_pi.core.assist``): c3 (AW) for white, e3 (AB) for
  black; each choice moves on to the next of ``PRESETS`` (plain, coached,
  limited, none). The point shows ``menu-choice`` while that player has any
  assistance beyond the plain board, else ``menu-option``. Against the computer
  only the human's point is lit.
- d1 (GO) starts the game with the choices shown (so does the ``new`` or the
  ``menu`` button).

Each question shows its current choice as ``menu-choice`` and the other
answers as ``menu-option``; the start point is ``confirm``. A choice is made
by putting a man on a lit point and taking it off again: the man must have
stood for ``hold_s`` (a slid magnet or a bouncing contact never chooses), and
only men put down while the menu is shown count, so men left on the board from
the last game choose nothing.

The menu is pure: readings and presses come in with their time, the frame of
roles goes out; ``morris_pi.core.session`` shows it and starts the game.

>>> menu = Menu(GameSettings(mode="computer", level=3))
>>> menu.update(frozenset(), 0.0); menu.update({"d6"}, 1.0); menu.update(set(), 1.5)
>>> menu.settings.level, menu.frame().points["d6"], menu.frame().points["g7"]
(5, 'menu-choice', 'menu-option')
>>> menu.update({"d1"}, 2.0); menu.update(set(), 2.4); menu.done
True
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from morris_pi.catalogue import Words
from morris_pi.guidance import Frame
from morris_pi.rules import PROFILES, SIDES, Side, other_side

from .assist import Assistance, Assists, next_preset, preset_of
from .gameclock import TimeControl

MODES: tuple[str, ...] = ("two-player", "computer")

#: Level n is lit on LEVEL_POINTS[n - 1].
LEVEL_POINTS: tuple[str, ...] = ("a7", "d7", "g7", "b6", "d6", "f6", "c5", "d5", "e5", "d3")
#: Profiles in ``PROFILES`` order on the middle row.
PROFILE_POINTS: tuple[str, ...] = ("a4", "b4", "c4", "e4", "f4", "g4")
MODE_POINTS: dict[str, str] = {"two-player": "b2", "computer": "f2"}
COLOUR_POINTS: dict[Side, str] = {"white": "a1", "black": "g1"}
#: Each player's assistance: a choice there moves on to the next preset.
ASSIST_POINTS: dict[Side, str] = {"white": "c3", "black": "e3"}
START_POINT = "d1"

#: Seconds a man must stand on a point before taking it off chooses (the
#: default debounce of the tracker: a slid magnet closes a switch for < 0.15 s).
DEFAULT_HOLD_S = 0.2


@dataclass(frozen=True)
class GameSettings:
    """How the next game is played: the ``[game]`` table of the config, chosen in the menu.

    >>> GameSettings(mode="computer", human="black").computer
    'white'
    >>> GameSettings.from_meta({"mode": "two-player", "level": 99}, GameSettings(level=4)).level
    4
    """

    mode: str = "computer"
    human: Side = "white"
    level: int = 3
    profile: str = "standard"
    #: The two-player clock (``TimeControl`` text such as ``"5+3"``), or ``None``: no clock.
    #: Against the computer the clock is kept but not used (``timed``).
    clock: str | None = None
    #: How much the board helps each player (``morris_pi.core.assist``); against the computer
    #: only the human's counts.
    assist: Assists = field(default_factory=Assists)

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, got {self.mode!r}")
        if self.human not in SIDES:
            raise ValueError(f"human must be 'white' or 'black', got {self.human!r}")
        if isinstance(self.level, bool) or not isinstance(self.level, int) or not 1 <= self.level <= 10:
            raise ValueError(f"level must be a whole number 1-10, got {self.level!r}")
        if self.profile not in PROFILES:
            raise ValueError(f"unknown rule profile {self.profile!r}: choose one of {', '.join(PROFILES)}")
        if self.clock is not None:
            TimeControl.parse(self.clock)  # a clear error for a bad clock
        if not isinstance(self.assist, Assists):
            raise ValueError(f"assist must be an Assists, got {self.assist!r}")

    @property
    def assists(self) -> Assists:
        """The assistance the game gives: both players', or against the computer the human's only.

        >>> s = GameSettings(mode="computer", human="white", assist=Assists(black=Assistance(targets=True)))
        >>> s.assists.black.targets
        False
        """
        if self.computer is None:
            return self.assist
        return self.assist.with_side(self.computer, Assistance())

    @property
    def timed(self) -> TimeControl | None:
        """The clock a game with these settings runs: two-player games only.

        >>> GameSettings(mode="two-player", clock="5+3").timed, GameSettings(clock="5+3").timed
        (TimeControl(seconds=300.0, increment=3.0), None)
        """
        if self.clock is None or self.mode != "two-player":
            return None
        return TimeControl.parse(self.clock)

    @property
    def computer(self) -> Side | None:
        """The computer's side, or ``None`` in a two-player game."""
        if self.mode != "computer":
            return None
        return other_side(self.human)

    def meta(self) -> dict[str, Any]:
        """The settings as the save's meta data (and the record's tags); ``clock`` only when set."""
        out: dict[str, Any] = {"mode": self.mode, "human": self.human, "level": self.level, "profile": self.profile}
        if self.clock is not None:
            out["clock"] = self.clock
        if not self.assist.plain:
            out["assist"] = self.assists.meta()
        return out

    @classmethod
    def from_meta(cls, meta: Mapping[str, Any], fallback: GameSettings) -> GameSettings:
        """Settings from a save's meta data; a missing or bad value keeps ``fallback``'s."""
        out = fallback
        for key in ("mode", "human", "level", "profile", "clock"):
            if key in meta:
                with contextlib.suppress(ValueError, TypeError):
                    out = replace(out, **{key: meta[key]})
        if "assist" in meta:
            with contextlib.suppress(ValueError, TypeError):
                out = replace(out, assist=Assists.parse(meta["assist"]))
        return out

    @classmethod
    def from_config(cls, game: Any, assist: Assists | None = None) -> GameSettings:
        """From a validated ``[game]`` table (``morris_pi.config.model.GameConfig``) and ``[assist]``."""
        return cls(mode=game.mode, human=game.human, level=game.level, profile=game.profile, assist=assist or Assists())


class Menu:
    """The set-up menu's state: the choices so far, and the men put down while it is shown."""

    def __init__(self, settings: GameSettings | None = None, *, hold_s: float = DEFAULT_HOLD_S) -> None:
        if not hold_s >= 0:
            raise ValueError(f"hold must be a number of seconds >= 0, got {hold_s!r}")
        self.settings = settings or GameSettings()
        self.hold_s = float(hold_s)
        self.done = False
        #: Bumped whenever the frame changes.
        self.version = 0
        self._raw: frozenset[str] | None = None
        self._down: dict[str, float] = {}  # point -> when a man was put on it during the menu

    def __repr__(self) -> str:
        s = self.settings
        players = s.mode if s.computer is None else f"level {s.level} plays {s.computer}"
        done = " done" if self.done else ""
        return f"<Menu {players} {s.profile}{done}>"

    # -- inputs -----------------------------------------------------------------------

    def update(self, occupancy: Iterable[str], now: float) -> None:
        """A raw reading of the switches at time ``now``."""
        raw = frozenset(occupancy)
        if self._raw is None:  # men already standing when the menu opened choose nothing
            self._raw = raw
            return
        for point in raw - self._raw:
            self._down[point] = now
        for point in self._raw - raw:
            since = self._down.pop(point, None)
            if since is not None and now - since >= self.hold_s:
                self.choose(point)
        self._raw = raw

    def press(self, name: str) -> bool:
        """A button: ``new`` or ``menu`` starts the game; the others do nothing here."""
        if name in ("new", "menu") and not self.done:
            self._finish()
            return True
        return False

    def choose(self, point: str) -> bool:
        """The answer lit on ``point``, as if a man had been put there and taken off."""
        if self.done:
            return False
        s = self.settings
        new = s
        if point == START_POINT:
            self._finish()
            return True
        for mode, p in MODE_POINTS.items():
            if point == p:
                new = replace(s, mode=mode)
        if s.mode == "computer":
            for side, p in COLOUR_POINTS.items():
                if point == p:
                    new = replace(s, human=side)
            if point in LEVEL_POINTS:
                new = replace(s, level=LEVEL_POINTS.index(point) + 1)
        if point in PROFILE_POINTS:
            new = replace(s, profile=tuple(PROFILES)[PROFILE_POINTS.index(point)])
        for side, p in ASSIST_POINTS.items():
            if point == p and (s.mode == "two-player" or side == s.human):
                new = replace(s, assist=s.assist.with_side(side, next_preset(s.assist.of(side))))
        if new == s:
            return False
        self.settings = new
        self.version += 1
        return True

    def _finish(self) -> None:
        self.done = True
        self.version += 1

    # -- outputs ----------------------------------------------------------------------

    def choices(self) -> dict[str, tuple[str, str | int | None]]:
        """Every lit point and what choosing it does: ``(question, answer)``, the question one of
        ``QUESTIONS`` (the start point answers nothing).

        >>> Menu(GameSettings(mode="computer")).choices()["a7"], Menu().choices()["d1"]
        (('level', 1), ('start', None))
        """
        s = self.settings
        out: dict[str, tuple[str, str | int | None]] = {p: ("mode", m) for m, p in MODE_POINTS.items()}
        if s.mode == "computer":
            out.update({p: ("colour", side) for side, p in COLOUR_POINTS.items()})
            out.update({p: ("level", n) for n, p in enumerate(LEVEL_POINTS, 1)})
        # six points offer profiles: one added to the rules beyond them is not offered here
        out.update({p: ("rules", name) for p, name in zip(PROFILE_POINTS, PROFILES, strict=False)})
        for side, p in ASSIST_POINTS.items():
            if s.mode == "two-player" or side == s.human:
                out[p] = ("assist", side)
        out[START_POINT] = ("start", None)
        return out

    def options(self, lang: str = "en") -> dict[str, str]:
        """Every lit point and what choosing it does, in words (for logs, the panel and the page).

        >>> Menu(GameSettings(mode="computer")).options()["g1"], Menu().options("de")["d1"]
        ('you play black', 'Spiel beginnen')
        >>> Menu(GameSettings(mode="two-player")).options()["c3"]
        'help for white: hints without limit'
        >>> Menu(GameSettings(mode="two-player", assist=Assists(black=Assistance(hints=0)))).options()["e3"]
        'help for black: none: no hints'

        """
        w = Words(lang)
        out = {}
        for point, (question, answer) in self.choices().items():
            out[point] = choice_words(question, answer, w)
            if question == "assist":
                out[point] += ": " + assist_words(self.settings.assist.of(str(answer)), w)
        return out

    def chosen(self) -> tuple[str, ...]:
        """The points of the current choices."""
        s = self.settings
        points = [MODE_POINTS[s.mode], PROFILE_POINTS[tuple(PROFILES).index(s.profile)]]
        if s.mode == "computer":
            points += [COLOUR_POINTS[s.human], LEVEL_POINTS[s.level - 1]]
        for side, p in ASSIST_POINTS.items():
            if (s.mode == "two-player" or side == s.human) and s.assist.of(side) != Assistance():
                points.append(p)
        return tuple(points)

    def frame(self) -> Frame:
        """The roles of the lit points: choices, the other options, and the start point."""
        if self.done:
            return Frame()
        chosen = set(self.chosen())
        points = {p: ("menu-choice" if p in chosen else "menu-option") for p in self.choices()}
        points[START_POINT] = "confirm"
        return Frame(points, {})

    def describe(self, lang: str = "en") -> str:
        """One line: the choices so far.

        >>> Menu(GameSettings(mode="two-player", profile="club")).describe()
        'two players, club rules'
        >>> Menu(GameSettings(mode="computer", human="black", level=4)).describe("de")
        'du spielst Schwarz gegen den Computer auf Stufe 4, Regeln: Standard'
        """
        s = self.settings
        w = Words(lang)
        rules = w(f"profile.{s.profile}")
        if s.mode == "two-player":
            return w("menu.describe.two_player", rules=rules)
        return w("menu.describe.computer", side=w.side(s.human, inside=True), level=s.level, rules=rules)


#: The set-up menu's questions, in the order the panel and the page list them.
QUESTIONS: tuple[str, ...] = ("mode", "colour", "level", "rules", "assist", "start")


def choice_words(question: str, answer: str | int | None, w: Words, *, short: bool = False) -> str:
    """What choosing an answer does, in words; ``short`` for a label beside its point on a picture.

    >>> w = Words("en")
    >>> choice_words("level", 3, w), choice_words("colour", "black", w), choice_words("mode", "computer", w, short=True)
    ('level 3', 'you play black', 'vs computer')
    """
    form = "menu.short" if short else "menu.choice"
    if question == "mode":
        return w(f"{form}.mode.{answer}")
    if question == "colour":
        return w(f"{form}.colour", side=w.side(str(answer), inside=True))
    if question == "level":
        return w(f"{form}.level", n=answer)
    if question == "rules":
        return w(f"{form}.rules", rules=w(f"profile.{answer}"))
    if question == "assist":
        return w(f"{form}.assist", side=w.side(str(answer), inside=True))
    return w(f"{form}.start")


def assist_words(assistance: Assistance, w: Words) -> str:
    """One player's assistance in words: the preset's name, or what it gives.

    >>> w = Words("en")
    >>> assist_words(Assistance(targets=True, warn=True, hints=3), w), assist_words(Assistance(warn=True), w)
    ('limited: coloured targets, blunder warnings, 3 hints a game', 'blunder warnings, hints without limit')
    """
    parts = []
    if assistance.targets:
        parts.append(w("assist.targets"))
    if assistance.warn:
        parts.append(w("assist.warn"))
    if assistance.hints is None:
        parts.append(w("assist.hints.any"))
    elif assistance.hints == 0:
        parts.append(w("assist.hints.none"))
    else:
        parts.append(w.count("count.hints", assistance.hints))
    text = ", ".join(parts)
    name = preset_of(assistance)
    if name is not None and name != "plain":
        return w("assist.preset", name=w(f"assist.preset.{name}"), what=text)
    return text
