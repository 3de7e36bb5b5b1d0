"""``morris-pi sim``: play on a simulated board in a window (needs the ``sim`` extra)."""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
from pathlib import Path

from morris_pi.catalogue import LANGUAGES
from morris_pi.rules import PROFILES

from . import Subparsers
from .arguments import level

#: Exit code when there is no screen for the window (and SDL_VIDEODRIVER does not ask for none).
EXIT_NO_DISPLAY = 3


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"window size must look like 1100x760, got {text!r}") from None
    if w < 200 or h < 150:
        raise argparse.ArgumentTypeError(f"window size {text} is too small")
    return w, h


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "sim",
        help="play on a simulated board in a window (pygame)",
        description="A window that behaves like the wooden board: drag men with the mouse, the LEDs guide you. "
        "Keys: N new game, U takeback, H hint, M menu, C clear the board, R save the sensor trace, Esc quit; "
        "hold Shift while dragging to slide a man across the points. It runs the board's own session: "
        "the set-up menu on the points (--menu), saves and resume (--state-dir). Without a display it says so and "
        "exits with 3; SDL_VIDEODRIVER=dummy runs it headless on purpose.",
    )
    parser.add_argument("--mode", choices=("computer", "two-player"), help="play the computer or a friend")
    parser.add_argument("--human", choices=("white", "black"), help="your colour against the computer")
    parser.add_argument("--level", type=level, help="computer strength 1-10")
    parser.add_argument("--profile", choices=sorted(PROFILES), help="rule profile")
    parser.add_argument(
        "--seed",
        type=int,
        help="seed for the computer's choices: every game the same (default: a new seed each game, kept in its record)",
    )
    parser.add_argument(
        "--clock",
        metavar="M[+S]",
        help="a clock for two-player games: M minutes each, S seconds more after every turn (5+3; 10 sudden death)",
    )
    parser.add_argument(
        "--lang",
        choices=LANGUAGES,
        help="the language of the window's panel (default: the desktop's, from LANGUAGE/LC_ALL/LANG, else English)",
    )
    parser.add_argument(
        "--fen",
        metavar="FEN",
        help="start from this position (Sanmill's FEN, in quotes), set up on the board first: the lights show "
        "where the white men go, then the black, and the game starts once the board shows it",
    )
    parser.add_argument("--config", metavar="PATH", help="read [game] and [palette] from this TOML config")
    parser.add_argument(
        "--menu",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="open the set-up menu on the points first, as the board does (default: only when "
        "--config says [game] menu = true and no --mode/--human/--level/--profile is given)",
    )
    parser.add_argument(
        "--state-dir",
        metavar="DIR",
        help="save the game after every turn here, resume it at start, keep finished games as "
        "records (list them with: morris-pi records --state-dir DIR list); default: no saves",
    )
    parser.add_argument("--record-trace", metavar="PATH", help="save the sensor trace here on exit (R saves it too)")
    parser.add_argument(
        "--web",
        metavar="HOST:PORT",
        help="also serve the companion page here (needs the web extra); a bare PORT listens on "
        "127.0.0.1 only. Docs: docs/web.md",
    )
    parser.add_argument(
        "--no-window",
        action="store_true",
        help="with --web: no window; the page is the board (click points to lift and put men). Needs no pygame",
    )
    parser.add_argument("--size", type=_size, default=(1100, 760), metavar="WxH", help="window size (default 1100x760)")
    parser.set_defaults(func=run)


def trace_path_problem(path: str) -> str | None:
    """Why the sensor trace could not be written to ``path`` at exit, or ``None`` if it can.

    Checked before the window opens, so a typo does not lose a whole game's trace.
    """
    target = Path(path)
    if target.is_dir():
        return "it is a directory"
    if os.path.lexists(target):
        if not target.is_file():
            return "it exists and is not a regular file"
        return None if os.access(target, os.W_OK) else "it is not writable"
    folder = target.parent
    if not folder.is_dir():
        return f"the folder {folder} does not exist"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"the folder {folder} is not writable"
    return None


def run(args: argparse.Namespace) -> int:
    if args.record_trace:
        problem = trace_path_problem(args.record_trace)
        if problem:
            print(
                f"morris-pi sim: cannot save the trace to {args.record_trace}: {problem}; "
                "choose another --record-trace",
                file=sys.stderr,
            )
            return 2
    web = None
    if getattr(args, "web", None) is not None:
        from morris_pi.web.server import parse_address

        try:
            web = parse_address(args.web)
        except ValueError as exc:
            print(f"morris-pi sim: {exc}", file=sys.stderr)
            return 2
    if getattr(args, "no_window", False):
        if web is None:
            print("morris-pi sim: --no-window needs --web HOST:PORT (the page is then the board)", file=sys.stderr)
            return 2
        return _in_browser(args, web)
    if importlib.util.find_spec("pygame") is None:
        print(
            "morris-pi sim: pygame is not installed; install the simulator with: pip install 'morris-pi[sim]'",
            file=sys.stderr,
        )
        return 2
    from morris_pi.sim.display import NoDisplayError, headless_requested
    from morris_pi.sim.play import settings_from
    from morris_pi.sim.window import play_in_window
    from morris_pi.web.server import WebError

    try:
        settings = settings_from(args)
    except ValueError as exc:
        print(f"morris-pi sim: {exc}", file=sys.stderr)
        return 2
    if headless_requested(os.environ):
        print(
            f"morris-pi sim: SDL_VIDEODRIVER={os.environ['SDL_VIDEODRIVER']}: the window is not shown; Ctrl-C ends it",
            file=sys.stderr,
        )
    try:
        return play_in_window(
            settings, size=args.size, trace_path=args.record_trace, web=web, pin=_pin(args) if web else None
        )
    except WebError as exc:
        print(f"morris-pi sim: {exc}", file=sys.stderr)
        return 2
    except NoDisplayError as exc:
        print(f"morris-pi sim: {exc}", file=sys.stderr)
        return EXIT_NO_DISPLAY
    except KeyboardInterrupt:
        print("morris-pi sim: stopped", file=sys.stderr)
        return 130


def _in_browser(args: argparse.Namespace, web: tuple[str, int]) -> int:
    from morris_pi.sim.browser import play_in_browser
    from morris_pi.sim.play import settings_from
    from morris_pi.web.server import WebError

    try:
        settings = settings_from(args)
    except ValueError as exc:
        print(f"morris-pi sim: {exc}", file=sys.stderr)
        return 2
    try:
        return play_in_browser(settings, *web, trace_path=args.record_trace, pin=_pin(args))
    except WebError as exc:
        print(f"morris-pi sim: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("morris-pi sim: stopped", file=sys.stderr)
        return 130


def _pin(args: argparse.Namespace) -> str | None:
    """The ``[web] pin`` of ``--config``, if any (read again: the settings keep only the game)."""
    if not getattr(args, "config", None):
        return None
    from morris_pi.config.loader import load_config

    return load_config(args.config).web.pin
