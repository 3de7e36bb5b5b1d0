"""Who may change anything: paired browsers, each with a token in an HttpOnly cookie.

Watching needs nothing. Changing anything needs a token, which a browser gets
in one of two ways:

- **the menu button**: the page asks (``ask``: a request id only that browser
  knows), the board blinks the pairing pattern, a hand on the board presses
  the menu button, and that browser claims its token with the request id
  (``claim``). Only one request blinks at a time, so nobody else's request can
  ride on the owner's press;
- **the PIN** from the config (``[web] pin``), compared in constant time, with
  a pause after each wrong one.

Tokens live in memory only (a restart means pairing again) and are kept as
SHA-256 digests, so not even a memory dump of the table gives one away; they
are never logged.

>>> from morris_pi.board.ports import ManualClock
>>> clock = ManualClock()
>>> p = Pairing(clock, pin="4711")
>>> token = p.by_pin("4711"); p.allowed(token), p.allowed("guess"), p.by_pin("1234")
(True, False, None)
>>> rid = p.ask(); p.claim(rid, granted=0)            # the button was not pressed yet
>>> p.claim(rid, granted=1) is not None, p.claim(rid, granted=1)   # one token per request
(True, None)
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from morris_pi.board.ports import Clock

#: Seconds the board blinks for one request.
ASK_SECONDS = 60.0
#: Seconds a wrong PIN locks the PIN out (slows guessing to a crawl over a LAN).
PIN_PAUSE_S = 2.0
#: Most tokens kept; the oldest goes first.
MAX_TOKENS = 32

COOKIE = "morris_pi_token"


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Pairing:
    """The paired browsers' tokens, the one pairing request, and the PIN."""

    def __init__(self, clock: Clock, *, pin: str | None = None) -> None:
        self.clock = clock
        self._pin = pin
        self._tokens: dict[str, float] = {}  # digest -> when issued
        self._request: tuple[str, float, int] | None = None  # (digest of id, until, grants seen when asked)
        self._pin_locked_until = -1.0

    @property
    def has_pin(self) -> bool:
        return self._pin is not None

    def allowed(self, token: str | None) -> bool:
        """Whether ``token`` belongs to a paired browser."""
        return bool(token) and _digest(token) in self._tokens  # type: ignore[arg-type]

    def _issue(self) -> str:
        token = secrets.token_urlsafe(32)
        self._tokens[_digest(token)] = self.clock.now()
        while len(self._tokens) > MAX_TOKENS:
            self._tokens.pop(next(iter(self._tokens)))
        return token

    def by_pin(self, pin: str) -> str | None:
        """A token for the right PIN; ``None`` for a wrong one, or while a wrong one's pause runs."""
        now = self.clock.now()
        if self._pin is None or now < self._pin_locked_until:
            return None
        if not hmac.compare_digest(pin.encode(), self._pin.encode()):
            self._pin_locked_until = now + PIN_PAUSE_S
            return None
        return self._issue()

    def asking(self) -> bool:
        """Whether a request waits for the menu button now."""
        return self._request is not None and self.clock.now() < self._request[1]

    def ask(self, granted: int = 0) -> str | None:
        """A new request (its id, a secret for the asking browser), or ``None`` while another one blinks.

        ``granted`` is the session's count of pairings so far: a press counts only after the ask.
        """
        if self.asking():
            return None
        rid = secrets.token_urlsafe(16)
        self._request = (_digest(rid), self.clock.now() + ASK_SECONDS, granted)
        return rid

    def claim(self, rid: str, granted: int) -> str | None:
        """The token for request ``rid`` once the menu button was pressed after it (``granted`` grew)."""
        request = self._request
        if request is None or not hmac.compare_digest(_digest(rid), request[0]):
            return None
        if granted <= request[2]:
            return None
        self._request = None
        return self._issue()

    def forget(self, token: str | None) -> None:
        """Unpair the browser holding ``token``."""
        if token:
            self._tokens.pop(_digest(token), None)
