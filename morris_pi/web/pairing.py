"""Who may change anything: paired browsers, each with a token in an HttpOnly cookie.

Watching needs nothing. Changing anything needs a token, which a browser gets
in one of two ways:

- **the board's buttons**: the page asks (``ask``) and gets a request id only it
  knows and a *code*: a short sequence of the board's buttons, drawn at random for
  that request and shown only on that page. The board blinks; the person at it
  types the code; the session grants that request's ticket, and the browser claims
  its token with the request id (``claim``). Several requests may wait at once
  (one per client), so nobody's request blocks the owner's own; codes are drawn
  so that no waiting code overlaps another (no proper end of one is the start of
  another), so typing one's own code, after any stray presses, can only ever
  complete one's own. A board with fewer than two buttons pairs by PIN only.
- **the PIN** from the config (``[web] pin``), compared in constant time. Each
  client's wrong PINs cost it a wait that doubles with each one (1 s, 2 s, 4 s ...
  up to an hour); across all clients, ``LOCK_AFTER`` wrong PINs within
  ``LOCK_WINDOW_S`` lock the PIN for ``LOCK_S``. A locked PIN is never judged, so
  even the right one is refused, but always with the words "the PIN is locked"
  and the way around it (the buttons), never as "wrong PIN".

Tokens live in memory only (a restart means pairing again) and are kept as
SHA-256 digests, so not even a memory dump of the table gives one away; they
are never logged.

>>> from morris_pi.core.ports import ManualClock
>>> clock = ManualClock()
>>> p = Pairing(clock, pin="471108")
>>> good = p.by_pin("471108", "10.0.0.2"); p.allowed(good.token), p.allowed("guess")
(True, False)
>>> bad = p.by_pin("123456", "10.0.0.9"); bad.status, bad.token is None
(403, True)
>>> p.by_pin("471108", "10.0.0.9").status        # that client waits 1 s now; the owner does not
429
>>> p.by_pin("471108", "10.0.0.2").status
200
>>> ask = p.ask("10.0.0.2", ("new", "undo", "hint", "menu")); len(ask.code)
4
>>> p.claim(ask.rid, granted=()) is None, p.claim(ask.rid, granted=(ask.ticket,)) is not None
(True, True)
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import secrets
from collections import OrderedDict, deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from morris_pi.core.ports import Clock

from .ratelog import RateLimitedLog

log = logging.getLogger("morris_pi.web")

#: Seconds the board blinks for one request.
ASK_SECONDS = 60.0
#: Requests that wait at once (one per client); a new one past this drops the oldest.
MAX_ASKS = 8
#: Most tokens kept; the oldest goes first.
MAX_TOKENS = 32
#: A client's first wrong PIN costs it this many seconds before the next try; each further one doubles it.
PIN_BACKOFF_S = 1.0
#: The longest wait of one client.
PIN_BACKOFF_MAX_S = 3600.0
#: Wrong PINs from all clients together within ``LOCK_WINDOW_S`` that lock the PIN ...
LOCK_AFTER = 20
LOCK_WINDOW_S = 600.0
#: ... for this many seconds. With a 6-digit PIN that is about 20 guesses per 25 minutes:
#: half the PINs take over 45 years to try.
LOCK_S = 900.0
#: Clients whose wrong PINs are remembered (the oldest is forgotten first; the lockout still counts them).
MAX_CLIENTS = 256

COOKIE = "morris_pi_token"

#: Button names as the page shows them (the labels on the board).
BUTTON_WORDS = {"new": "New", "undo": "Undo", "hint": "Hint", "menu": "Menu"}


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def code_length(buttons: int) -> int | None:
    """Presses in a code for a board with ``buttons`` buttons: at least 256 codes, or ``None``
    (fewer than two buttons cannot spell one).

    >>> [code_length(n) for n in (0, 1, 2, 3, 4)]
    [None, None, 8, 6, 4]
    """
    if buttons < 2:
        return None
    length = 4
    while buttons**length < 256:
        length += 1
    return length


def overlaps(a: Sequence[str], b: Sequence[str]) -> bool:
    """Whether some proper end of ``a`` is a start of ``b`` (``a`` typed then cut off could run
    into ``b``), or they are equal.

    >>> overlaps(("hint", "undo", "menu", "new"), ("menu", "new", "hint", "undo"))
    True
    >>> overlaps(("hint", "undo", "menu", "new"), ("undo", "hint", "new", "menu"))
    False
    """
    if tuple(a) == tuple(b):
        return True
    return any(tuple(a[i:]) == tuple(b[: len(a) - i]) for i in range(1, len(a)))


def _draw(names: tuple[str, ...], length: int, others: list[tuple[str, ...]]) -> tuple[str, ...] | None:
    """A random code of ``length`` presses over ``names`` that overlaps none of ``others`` either
    way, or ``None`` if none turned up. Its first press is no other code's last, and its last
    no other's first (the one-press overlaps), so a fitting code is found at once."""
    firsts = [n for n in names if n not in {o[-1] for o in others}]
    lasts = [n for n in names if n not in {o[0] for o in others}]
    if not firsts or not lasts:
        return None
    for _ in range(200):
        middle = [secrets.choice(names) for _ in range(length - 2)]
        code = (secrets.choice(firsts), *middle, secrets.choice(lasts))
        if not any(overlaps(code, other) or overlaps(other, code) for other in others):
            return code
    return None


@dataclass(frozen=True)
class PinAnswer:
    """What a PIN try got: ``token`` (``None`` unless 200), the HTTP ``status`` and words for the page."""

    status: int
    message: str
    token: str | None = None


@dataclass(frozen=True)
class Ask:
    """A pairing request: ``rid`` for the asking browser (secret), ``ticket`` for the board,
    the ``code`` to type, and the tickets of requests it replaced (to stop blinking for them)."""

    rid: str
    ticket: str
    code: tuple[str, ...]
    until: float
    dropped: tuple[str, ...] = ()


@dataclass
class _Client:
    failures: int = 0
    next_try: float = 0.0


@dataclass
class _Waiting:
    rid_digest: str
    ticket: str
    client: str
    code: tuple[str, ...]
    until: float


@dataclass
class Pairing:
    """The paired browsers' tokens, the waiting requests, and the PIN."""

    clock: Clock
    pin: str | None = None
    quiet: RateLimitedLog | None = None
    _tokens: dict[str, float] = field(default_factory=dict)  # digest -> when issued
    _asks: OrderedDict[str, _Waiting] = field(default_factory=OrderedDict)  # client -> its request
    _clients: OrderedDict[str, _Client] = field(default_factory=OrderedDict)
    _failures: deque[float] = field(default_factory=deque)  # when each recent wrong PIN came
    _locked_until: float = -1.0

    def __post_init__(self) -> None:
        if self.quiet is None:
            self.quiet = RateLimitedLog(log, self.clock)

    @property
    def has_pin(self) -> bool:
        return self.pin is not None

    def allowed(self, token: str | None) -> bool:
        """Whether ``token`` belongs to a paired browser."""
        return bool(token) and _digest(token) in self._tokens  # type: ignore[arg-type]

    def _issue(self) -> str:
        token = secrets.token_urlsafe(32)
        self._tokens[_digest(token)] = self.clock.now()
        while len(self._tokens) > MAX_TOKENS:
            self._tokens.pop(next(iter(self._tokens)))
        return token

    # -- the PIN ----------------------------------------------------------------------------

    def locked_for(self) -> float:
        """Seconds the PIN stays locked for everyone (0 when it is not)."""
        return max(0.0, self._locked_until - self.clock.now())

    def by_pin(self, pin: str, client: str) -> PinAnswer:
        """Judge a PIN from ``client`` (its ``client_key``)."""
        assert self.quiet is not None
        now = self.clock.now()
        if self.pin is None:
            return PinAnswer(403, "this board has no PIN set ([web] pin in its config): pair with its buttons")
        locked = self.locked_for()
        if locked > 0:
            return PinAnswer(
                429,
                f"the PIN is locked for {_minutes(locked)} after many wrong PINs on the network; "
                "pair with the board's buttons now, or try the PIN again then",
            )
        state = self._clients.get(client)
        if state is not None and now < state.next_try:
            return PinAnswer(
                429, f"too many wrong PINs from this device: wait {_seconds(state.next_try - now)} before the next try"
            )
        if pin.isascii() and pin.isdigit() and hmac.compare_digest(pin.encode(), self.pin.encode()):
            self._clients.pop(client, None)
            return PinAnswer(200, "paired", self._issue())
        # a wrong PIN: this client waits longer each time, and all of them together may lock it
        if state is None:
            state = self._clients[client] = _Client()
            while len(self._clients) > MAX_CLIENTS:
                self._clients.popitem(last=False)
        self._clients.move_to_end(client)
        state.failures += 1
        wait = min(PIN_BACKOFF_S * 2 ** (state.failures - 1), PIN_BACKOFF_MAX_S)
        state.next_try = now + wait
        self._failures.append(now)
        while self._failures and self._failures[0] <= now - LOCK_WINDOW_S:
            self._failures.popleft()
        self.quiet.say(
            "wrong-pin", logging.WARNING, "web: a wrong PIN from %s (%d from it in a row)", client, state.failures
        )
        if len(self._failures) >= LOCK_AFTER:
            self._locked_until = now + LOCK_S
            self._failures.clear()
            self.quiet.say(
                "pin-locked",
                logging.WARNING,
                "web: %d wrong PINs within %.0f minutes: the PIN is locked for %.0f minutes "
                "(pairing with the board's buttons still works)",
                LOCK_AFTER,
                LOCK_WINDOW_S / 60,
                LOCK_S / 60,
            )
        return PinAnswer(403, f"wrong PIN; this device may try again in {_seconds(wait)}")

    # -- the buttons ------------------------------------------------------------------------

    def _expire(self) -> None:
        now = self.clock.now()
        for client in [c for c, w in self._asks.items() if w.until <= now]:
            del self._asks[client]

    def asking(self) -> bool:
        """Whether any request waits for its code now."""
        self._expire()
        return bool(self._asks)

    def ask(self, client: str, buttons: Iterable[str]) -> Ask | None:
        """A new request of ``client`` (replacing its own earlier one) with a code over
        ``buttons``; ``None`` when the board has too few buttons to type one."""
        names = tuple(dict.fromkeys(buttons))
        length = code_length(len(names))
        if length is None:
            return None
        self._expire()
        dropped = []
        old = self._asks.pop(client, None)
        if old is not None:
            dropped.append(old.ticket)
        while len(self._asks) >= MAX_ASKS:
            dropped.append(self._asks.popitem(last=False)[1].ticket)
        while (code := _draw(names, length, [w.code for w in self._asks.values()])) is None:
            # no code fits beside the waiting ones: the oldest other request gives way (its page
            # is told it ran out and may ask again); this one is never refused
            dropped.append(self._asks.popitem(last=False)[1].ticket)
        rid = secrets.token_urlsafe(16)
        waiting = _Waiting(_digest(rid), secrets.token_urlsafe(12), client, code, self.clock.now() + ASK_SECONDS)
        self._asks[client] = waiting
        return Ask(rid, waiting.ticket, code, waiting.until, tuple(dropped))

    def claim(self, rid: str, granted: Iterable[str]) -> str | None:
        """The token for request ``rid`` once the board granted its ticket (it is in ``granted``)."""
        digest = _digest(rid)
        for client, waiting in list(self._asks.items()):
            if hmac.compare_digest(digest, waiting.rid_digest):
                if waiting.ticket not in set(granted):
                    return None
                del self._asks[client]
                return self._issue()
        return None

    def waiting(self, rid: str) -> bool:
        """Whether request ``rid`` still waits (it has not run out)."""
        self._expire()
        digest = _digest(rid)
        return any(hmac.compare_digest(digest, w.rid_digest) for w in self._asks.values())

    def forget(self, token: str | None) -> None:
        """Unpair the browser holding ``token``."""
        if token:
            self._tokens.pop(_digest(token), None)


def _seconds(s: float) -> str:
    s = max(1, round(s))
    return f"{s} s" if s < 120 else f"{round(s / 60)} minutes"


def _minutes(s: float) -> str:
    m = max(1, round(s / 60))
    return f"{m} more minute" + ("s" if m != 1 else "")
