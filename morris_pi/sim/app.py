"""The simulator window: mouse and keys in, a board that behaves like the real one out.

``SimApp`` owns the pygame window and turns mouse gestures into hand
movements on a ``SimBoard`` (switches close and open) and clicks on the drawn
buttons into button presses. Whatever drives the board (the board's own
session with its menu, controller and saves, or the self-test) is a
``Session``: the app only steps it and paints what the board's LEDs were last
shown.

The loop naps (a frame at a time, polling for input) until the next input,
the session's next wake-up or a slid magnet's switch opening, so an idle
window costs almost no CPU; while a man is carried it redraws at up to 60
frames a second.

With no screen to show it on, it refuses to open (``display.py``). Tests and
scripts run it headless on purpose (``SDL_VIDEODRIVER=dummy``) on a
``ManualClock`` and drive it with ``press``/``release``/``drag``/``key``,
which post the same pygame events a mouse would.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame

from morris_pi.core.closing import Closeable
from morris_pi.rules import STANDARD, Geometry

from .backends import SimBoard
from .display import NoDisplayError, missing_display, unrequested_fallback
from .drawing import Renderer, Scene
from .hand import HandError
from .layout import Layout, Pos

FPS = 60
#: A press and release closer than this (pixels) is a click: the man stays in the hand.
CLICK_SLOP = 6
#: The longest the loop sleeps with nothing to do (seconds).
MAX_IDLE = 1.0
KEY_BUTTONS = {pygame.K_n: "new", pygame.K_u: "undo", pygame.K_h: "hint", pygame.K_m: "menu"}


def open_window(size: tuple[int, int], caption: str) -> pygame.Surface:
    """Start SDL's video and open the window; ``NoDisplayError`` (one line: why, and how to run
    headless) when no screen would show it. ``SDL_VIDEODRIVER=dummy`` opens one that nothing shows."""
    problem = missing_display(os.environ)
    if problem:
        raise NoDisplayError(problem)
    try:
        pygame.display.init()
        problem = unrequested_fallback(pygame.display.get_driver(), os.environ)
        if problem:
            raise NoDisplayError(problem)
        pygame.font.init()
        pygame.display.set_caption(caption)
        return pygame.display.set_mode(size, pygame.RESIZABLE)
    except (pygame.error, NoDisplayError) as exc:
        pygame.display.quit()  # leave SDL as it was: a caller may go on without a window
        if isinstance(exc, NoDisplayError):
            raise
        raise NoDisplayError(f"cannot open the window ({exc})") from None


class Session(Protocol):
    """What the window drives: the controller in a game, or the self-test."""

    @property
    def geometry(self) -> Geometry: ...  # read only: the window draws it, never sets it

    def step(self) -> None: ...

    def next_wakeup(self) -> float | None: ...

    def panel(self) -> list[tuple[str, str]]: ...

    @property
    def busy(self) -> bool: ...


class IdleSession:
    """Nothing drives the board: the window is just a board to play with."""

    geometry = STANDARD
    busy = False

    def step(self) -> None:
        pass

    def next_wakeup(self) -> float | None:
        return None

    def panel(self) -> list[tuple[str, str]]:
        return [("title", "morris-pi simulator")]


class SimApp(Closeable):
    """One simulator window over a board and a session.

    ``close()`` (or the end of a ``with`` block) closes the window, once; the board and the
    session are their owner's to close. A closed window refuses to run.
    """

    def __init__(
        self,
        board: SimBoard,
        session: Session | None = None,
        *,
        size: tuple[int, int] = (1100, 760),
        trace_path: str | Path | None = None,
        caption: str = "morris-pi simulator",
    ) -> None:
        self.board = board
        self.session: Session = session or IdleSession()
        self.trace_path = Path(trace_path) if trace_path else None
        self.message = ""
        self.screen = open_window(size, caption)
        self._resize(size)
        self.cursor: Pos = (0.0, 0.0)
        self.running = True
        self.slide_key = False
        self.pressed_button: str | None = None
        self._press_pos: Pos | None = None
        self._dragged = False
        self._carrying_since_press = False
        self._dirty = True
        self._moved = False
        self._seen: tuple[int, object] | None = None
        self._base: pygame.Surface | None = None
        self._held_rect: pygame.Rect | None = None
        self.frames = 0
        self.board.sensors.read()  # a trace that runs starts with the window, from the board as it stands

    # -- geometry -----------------------------------------------------------------------

    def _resize(self, size: tuple[int, int]) -> None:
        self.layout = Layout.compute(*size)
        self.renderer = Renderer(self.layout)
        self._dirty = True

    def point_pos(self, point: str) -> Pos:
        """Window position of a point (for scripted mouse gestures)."""
        return self.layout.points[point]

    def led_pos(self, point: str) -> Pos:
        """Window position of a point's LED: beside the point, where the real board has it."""
        return self.layout.leds[point]

    def tray_pos(self, kind: str, side: str) -> Pos:
        """Window position of a side's ``hand`` or ``removed`` tray."""
        trays = self.layout.hand_trays if kind == "hand" else self.layout.removed_trays
        return trays[side].center

    def off_board_pos(self) -> Pos:
        """A spot off the board and off every tray, to drop men that are removed."""
        lay = self.layout
        return (lay.board.center[0], lay.board.bottom + (lay.buttons["new"].y - lay.board.bottom) / 2)

    # -- events -------------------------------------------------------------------------

    def handle_event(self, event: pygame.event.Event) -> None:
        """React to one pygame event (the loop and tests both come through here)."""
        kind = event.type
        if kind == pygame.QUIT:
            self.running = False
        elif kind == pygame.VIDEORESIZE:
            self.screen = pygame.display.set_mode(event.size, pygame.RESIZABLE)
            self._resize(event.size)
        elif kind == pygame.WINDOWSIZECHANGED:
            if self.screen.get_size() != (self.layout.width, self.layout.height):
                self._resize(self.screen.get_size())
        elif kind == pygame.WINDOWEXPOSED:
            self._dirty = True
        elif kind == pygame.MOUSEBUTTONDOWN:
            self._mouse_down(event.pos, event.button)
        elif kind == pygame.MOUSEMOTION:
            self._mouse_move(event.pos)
        elif kind == pygame.MOUSEBUTTONUP:
            self._mouse_up(event.pos, event.button)
        elif kind == pygame.KEYDOWN:
            self._key(event.key, True)
        elif kind == pygame.KEYUP:
            self._key(event.key, False)
        else:
            return
        # read the switches now so the trace carries the moment of the gesture itself
        self.board.sensors.read()

    def _sliding(self) -> bool:
        return self.slide_key or bool(pygame.key.get_mods() & pygame.KMOD_SHIFT)

    def _mouse_down(self, pos: Pos, button: int) -> None:
        self.cursor = pos
        self._dirty = True
        hand = self.board.hand
        with self.board.lock:
            if hand.held:
                if button == 1:
                    self._let_go(pos)
                else:
                    hand.cancel()
                return
            if button != 1:
                return
            region, where = self.layout.region_at(pos)
            try:
                if where is None:  # the board between points, or off it: nothing to pick up
                    return
                if region == "point" and where in hand.board:
                    hand.take("point", where)
                    if self._sliding():
                        hand.slide([], where, self.board.clock.now())
                elif region in ("hand", "removed"):
                    hand.take(region, where)
                elif region == "button":
                    self.pressed_button = where
                    self.board.buttons.press(where)
                    return
                else:
                    return
            except HandError:
                return
            self._press_pos = pos
            self._dragged = False
            self._carrying_since_press = True

    def _mouse_move(self, pos: Pos) -> None:
        last, self.cursor = self.cursor, pos
        hand = self.board.hand
        if not hand.held:
            return
        if self._press_pos and math.dist(pos, self._press_pos) > CLICK_SLOP:
            self._dragged = True
        self._moved = True  # only the carried man moves: no need to repaint the rest
        with self.board.lock:
            if self._sliding():
                over = self.layout.point_at(pos, reach=0.3)
                hand.slide(self.layout.points_along(last, pos), over, self.board.clock.now())
            elif hand.over:
                hand.slide([], None, self.board.clock.now())

    def _mouse_up(self, pos: Pos, button: int) -> None:
        self.cursor = pos
        if self.pressed_button:
            self.pressed_button = None
            self._dirty = True
        if button != 1 or not self.board.hand.held or not self._carrying_since_press:
            return
        self._carrying_since_press = False
        if not self._dragged and self._press_pos and math.dist(pos, self._press_pos) <= CLICK_SLOP:
            return  # a click: keep the man in the hand until the next click
        with self.board.lock:
            self._let_go(pos)

    def _let_go(self, pos: Pos) -> None:
        hand = self.board.hand
        region, where = self.layout.region_at(pos)
        if region == "point" and where is not None:
            hand.put(where)
        elif region in ("hand", "removed") and where is not None:
            hand.drop_off((region, where))
        elif region == "board":
            hand.cancel()  # between points: no hole to sit in, so it goes back
        else:
            hand.drop_off()
        self._carrying_since_press = False
        self._dirty = True

    def _key(self, key: int, down: bool) -> None:
        if key in (pygame.K_LSHIFT, pygame.K_RSHIFT):
            self.slide_key = down
            return
        if not down:
            return
        if key == pygame.K_ESCAPE:
            self.running = False
        elif key in KEY_BUTTONS:
            self.board.buttons.press(KEY_BUTTONS[key])
        elif key == pygame.K_c:
            with self.board.lock:
                self.board.hand.sweep()
            self._dirty = True
        elif key in (pygame.K_r, pygame.K_F5):
            self.save_trace()

    # -- trace --------------------------------------------------------------------------

    def save_trace(self, path: str | Path | None = None) -> Path:
        """Save the sensor trace (replay format); the panel says where.

        The latest trace goes to ``path``; traces of earlier games that
        ``replay`` must start afresh (the set-up menu chose new settings) go
        beside it as ``NAME-1``, ``NAME-2``... oldest first.
        """
        target = Path(path) if path else self.trace_path or Path(time.strftime("morris-pi-trace-%Y%m%d-%H%M%S.jsonl"))
        with self.board.lock:
            written = self.board.recorder.save(target)
        if not written:
            self.message = "No trace to save yet: it starts when a game starts."
        else:
            last, count = written[-1]
            self.message = f"Trace saved: {last} ({count} events)"
            if len(written) > 1:
                self.message += f", earlier games in {', '.join(p.name for p, _ in written[:-1])}"
        self._dirty = True
        return target

    # -- one turn of the loop -----------------------------------------------------------

    def update(self) -> bool:
        """Step the session and redraw if anything visible changed; returns whether it drew."""
        self.session.step()
        panel = self.session.panel()
        if self.message:
            panel = [*panel, ("", ""), ("good", self.message)]
        seen = (self.board.leds.version, panel)
        if seen != self._seen:
            self._seen = seen
            self._dirty = True
        self._panel = panel
        if self._dirty:
            self.draw()
        elif self._moved:
            self._draw_carried()
        else:
            return False
        return True

    def draw(self) -> None:
        """Paint the whole window: the scene into a cached base picture, then the carried man."""
        hand = self.board.hand
        scene = Scene(
            hand=hand,
            leds=self.board.leds.points,
            status=self.board.leds.status,
            pressed=self.pressed_button,
            panel=getattr(self, "_panel", []),
            geometry=self.session.geometry,
        )
        if self._base is None or self._base.get_size() != self.screen.get_size():
            self._base = pygame.Surface(self.screen.get_size())
        with self.board.lock:
            self.renderer.draw(self._base, scene)
        self.screen.blit(self._base, (0, 0))
        self._held_rect = self.renderer.held_man(self.screen, self.cursor, hand.held.colour) if hand.held else None
        pygame.display.flip()
        self.frames += 1
        self._dirty = self._moved = False

    def _draw_carried(self) -> None:
        """Only the carried man moved: repaint the two small areas it left and entered."""
        areas = []
        if self._held_rect and self._base:
            self.screen.blit(self._base, self._held_rect, self._held_rect)
            areas.append(self._held_rect)
        held = self.board.hand.held
        self._held_rect = self.renderer.held_man(self.screen, self.cursor, held.colour) if held else None
        if self._held_rect:
            areas.append(self._held_rect)
        pygame.display.update(areas)
        self.frames += 1
        self._moved = False

    def animating(self) -> bool:
        """Whether the picture may change without input: a carried man or a slide in progress."""
        return bool(self.board.hand.held) or self.board.next_change() is not None

    def idle_timeout(self) -> float:
        """Seconds the loop may sleep before something is due by itself."""
        now = self.board.clock.now()
        due = [t for t in (self.session.next_wakeup(), self.board.next_change()) if t is not None]
        timeout = min([MAX_IDLE, *(t - now for t in due)])
        if self.session.busy:
            timeout = min(timeout, 0.05)
        return max(0.0, timeout)

    def run(self, until: Callable[[], bool] | None = None) -> int:
        """Run the window until Esc, close, or ``until()`` is true; returns an exit code.

        With nothing due, the loop naps a frame at a time and polls for input:
        pygame's own timed wait polls internally and costs more CPU than this.
        """
        self._check_open("run the window")
        try:
            self._loop(until)
        finally:
            if self.trace_path:  # also after Ctrl-C: the trace is what explains a glitch
                self.save_trace()
        return 0

    def _loop(self, until: Callable[[], bool] | None) -> None:
        ticker = pygame.time.Clock()
        self.update()
        due = self.board.clock.now() + self.idle_timeout()
        while self.running and not (until and until()):
            events = pygame.event.get()
            for event in events:
                self.handle_event(event)
            now = self.board.clock.now()
            if events or now >= due or self._dirty or self.session.busy:
                drew = self.update()
                due = now + self.idle_timeout()
            else:
                drew = False
            if drew or self.animating():
                ticker.tick(FPS)  # cap the frame rate while things move
            else:
                time.sleep(max(0.0, min(due - now, 1 / FPS)))

    def _release(self) -> None:
        pygame.display.quit()

    def __repr__(self) -> str:
        if self.closed:
            return "<SimApp closed>"
        return f"<SimApp {self.layout.width}x{self.layout.height} frames={self.frames}>"

    # -- scripted mouse -----------------------------------------------------------------

    def post(self, kind: int, **attrs: Any) -> None:  # Any: pygame's Event takes any attributes
        """Handle one synthetic event as if it came from the window."""
        self.handle_event(pygame.event.Event(kind, **attrs))

    def press(self, pos: Pos, button: int = 1) -> None:
        self.post(pygame.MOUSEBUTTONDOWN, pos=pos, button=button)

    def release(self, pos: Pos, button: int = 1) -> None:
        self.post(pygame.MOUSEBUTTONUP, pos=pos, button=button)

    def move(self, pos: Pos) -> None:
        self.post(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(1, 0, 0))

    def drag(self, start: Pos, end: Pos, steps: int = 6, slide: bool = False) -> None:
        """Press at ``start``, move in ``steps`` to ``end``, release: a drag with the mouse."""
        self.slide_key = slide
        self.move(start)
        self.press(start)
        for i in range(1, steps + 1):
            f = i / steps
            self.move((start[0] + (end[0] - start[0]) * f, start[1] + (end[1] - start[1]) * f))
        self.release(end)
        self.slide_key = False

    def click(self, pos: Pos) -> None:
        self.move(pos)
        self.press(pos)
        self.release(pos)

    def key(self, key: int) -> None:
        self.post(pygame.KEYDOWN, key=key, mod=0)
        self.post(pygame.KEYUP, key=key, mod=0)
