"""Run any board program in the simulator window: the self-test, a demo, a script.

The program is an ordinary function of a ``SimBoard``; it reads
``board.sensors``, shows frames on ``board.leds``, reads ``board.buttons``
and may write lines for the panel with ``board.say``. It runs in a worker
thread while the window (which pygame needs on the main thread) lets the user
move men with the mouse, exactly as they would on the wooden board.

    from morris_pi.sim.script import run_in_window
    code = run_in_window(lambda board: selftest(board.sensors, board.leds, board.buttons,
                                                clock=board.clock, say=board.say),
                         title="morris-pi hwtest")

Tests do the same headless, without the window's thread, by calling the
function on a ``SimBoard`` and moving men with ``board.hand``.
"""

from __future__ import annotations

import threading
import traceback
from collections.abc import Callable
from pathlib import Path

from morris_pi.rules import STANDARD, Geometry

from .backends import SimBoard


class ScriptSession:
    """A window session whose driver is a function running in its own thread."""

    geometry: Geometry = STANDARD

    def __init__(self, board: SimBoard, program: Callable[[SimBoard], object], title: str) -> None:
        self.board = board
        self.title = title
        self.result: object = None
        self.error: str | None = None
        self.done = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(program,), name="sim-script", daemon=True)
        self._thread.start()

    def _run(self, program: Callable[[SimBoard], object]) -> None:
        try:
            self.result = program(self.board)
        except Exception as exc:  # shown in the panel and returned as a failure
            self.error = f"{type(exc).__name__}: {exc}"
            self.board.say(self.error)
            traceback.print_exc()
        finally:
            self.done.set()

    def step(self) -> None:
        pass

    def next_wakeup(self) -> float | None:
        return None

    @property
    def busy(self) -> bool:
        # the program changes the LEDs from its own thread: poll for them
        return not self.done.is_set()

    def panel(self) -> list[tuple[str, str]]:
        lines: list[tuple[str, str]] = [("title", self.title), ("", "")]
        lines += [("text", text) for text in self.board.said[-30:]]
        if self.done.is_set():
            lines += [("", ""), ("warn" if self.error else "good", "Finished. Esc closes the window.")]
        return lines


def run_in_window(
    program: Callable[[SimBoard], object],
    *,
    title: str = "morris-pi",
    men: int = 9,
    size: tuple[int, int] = (1100, 760),
    trace_path: str | Path | None = None,
    close_when_done: bool = False,
    board: SimBoard | None = None,
) -> object:
    """Run ``program(board)`` against a simulated board shown in a window.

    Returns what the program returned (``1`` if it raised). The window stays
    open after the program ends until the user closes it, or closes by itself
    with ``close_when_done``. When the user closes it first, ``board.stopped``
    is set so the program can end too. ``display.NoDisplayError`` when there is
    no screen to show the window on (the program is not started then).
    """
    from .app import SimApp  # pygame only when a window is really wanted

    board = board or SimBoard(men=men)
    app = SimApp(board, size=size, trace_path=trace_path, caption=title)
    session = ScriptSession(board, program, title)
    app.session = session
    try:
        app.run(until=session.done.is_set if close_when_done else None)
    finally:
        board.stopped.set()
        app.close()
    if not session.done.is_set():
        return 1  # the window was closed before the program finished
    return 1 if session.error else session.result
