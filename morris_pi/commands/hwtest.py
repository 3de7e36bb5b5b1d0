"""``morris-pi hwtest [--config PATH] [--learn] [--sim]``: test the LEDs and every reed switch."""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import time
from pathlib import Path
from typing import Any

from . import Subparsers

EXIT_OK, EXIT_FAULTS, EXIT_USAGE, EXIT_HARDWARE = 0, 1, 2, 3


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "hwtest",
        help="self-test of the board: LED sweep, then a man on every point in turn",
        description="Test the board: an LED sweep in each colour, then put a man on each lit point and take it "
        "off again. Reports swapped inputs, dead switches and switches stuck closed. Stop the service first "
        "(sudo systemctl stop morris-pi): both would drive the same LEDs. Exit code 0 when every point is "
        "OK, 1 when faults were found, 2 for a bad config or options, 3 when the hardware cannot be opened.",
    )
    parser.add_argument("--config", metavar="PATH", help="TOML config (default /etc/morris-pi/config.toml)")
    parser.add_argument(
        "--learn",
        action="store_true",
        help="write the switch map found into the config file (only the map table changes)",
    )
    parser.add_argument(
        "--sim",
        action="store_true",
        help="run the self-test on the simulated board: in a window, or without one when there is "
        "no display (the report is printed when the test ends)",
    )
    parser.add_argument(
        "--auto",
        action="store_true",
        help="with --sim: a scripted hand puts a man on each lit point and takes it off again, so "
        "the test runs unattended (every point should pass)",
    )
    parser.add_argument("--no-sweep", action="store_true", help="skip the LED sweep")
    parser.add_argument(
        "--show",
        type=float,
        default=10.0,
        metavar="S",
        help="seconds the result stays lit on the board (OK points green, faults red; default 10); "
        "with --sim the window then closes by itself (without a window nothing is shown)",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=30.0,
        metavar="S",
        help="seconds to wait for a man on each point before calling its switch dead "
        "(default 30; any button skips at once)",
    )
    parser.set_defaults(func=run)


def _test(args: argparse.Namespace) -> Any:
    from morris_pi.hwtest.selftest import HwTest

    if not args.timeout > 0:
        raise SystemExit("morris-pi hwtest: --timeout must be more than 0 seconds")
    return HwTest(sweep=not args.no_sweep, point_timeout_s=args.timeout)


def run(args: argparse.Namespace) -> int:
    if args.auto and not args.sim:
        print("morris-pi hwtest: --auto moves men on the simulated board; use it with --sim", file=sys.stderr)
        return EXIT_USAGE
    if args.sim:
        return _run_sim(args)
    from morris_pi.config.loader import DEFAULT_PATH, ConfigError, load_config
    from morris_pi.core.ports import MonotonicClock
    from morris_pi.hw import platform
    from morris_pi.hw.errors import HardwareError
    from morris_pi.hw.factory import build_hardware

    try:
        config = load_config(args.config)
        platform.check(config)
    except ConfigError as exc:
        for error in exc.errors:
            print(f"morris-pi hwtest: {error}", file=sys.stderr)
        return EXIT_USAGE
    clock = MonotonicClock()
    try:
        hardware = build_hardware(config, clock=clock)
    except HardwareError as exc:
        print(f"morris-pi hwtest: cannot open the hardware: {exc}", file=sys.stderr)
        return EXIT_HARDWARE
    path = Path(args.config) if args.config else DEFAULT_PATH
    try:
        return selftest(
            config,
            hardware,
            clock=clock,
            sleep=time.sleep,
            test=_test(args),
            learn_to=path if args.learn else None,
            scan_hz=config.sensors.scan_hz,
            show_s=max(0.0, args.show),
        )
    except KeyboardInterrupt:
        print("\nmorris-pi hwtest: stopped", file=sys.stderr)
        return 130
    finally:
        try:
            hardware.close()
        except HardwareError as exc:
            print(f"morris-pi hwtest: closing the hardware: {exc}", file=sys.stderr)


def selftest(
    config: Any,
    hardware: Any,
    *,
    clock: Any,
    sleep: Any,
    test: Any = None,
    learn_to: Path | None = None,
    say: Any = print,
    scan_hz: float = 100.0,
    show_s: float = 0.0,
) -> int:
    """The self-test over built hardware, the report, and ``--learn``; returns the exit code."""
    from morris_pi.hw.errors import HardwareError
    from morris_pi.hwtest.learn import LearnError, learn
    from morris_pi.hwtest.selftest import run_selftest

    try:
        report = run_selftest(
            hardware.sensors,
            hardware.leds,
            hardware.buttons,
            clock=clock,
            sleep=sleep,
            say=say,
            test=test,
            scan_hz=scan_hz,
        )
    except HardwareError as exc:
        say(f"morris-pi hwtest: the hardware failed during the test: {exc}")
        return EXIT_HARDWARE
    if show_s > 0:
        say(f"The result stays lit for {show_s:g} s: OK points green, faulty points red.")
        sleep(show_s)
    if learn_to is not None:
        try:
            changes = learn(learn_to, config, report)
        except (LearnError, OSError) as exc:
            say(f"--learn: nothing written: {exc}")
            return EXIT_FAULTS
        if changes:
            say(f"--learn: wrote the switch map to {learn_to}:")
            for change in changes:
                say(f"  {change}")
            say("Run 'morris-pi hwtest' again to check, then restart the service.")
        else:
            say("--learn: the switch map is already right; the config is unchanged.")
    return EXIT_OK if report.ok else EXIT_FAULTS


def _run_sim(args: argparse.Namespace, *, board: Any = None, sleep: Any = time.sleep) -> int:
    """The self-test on the simulated board: in a window when there is a screen, else without one.

    The report is printed as soon as the test ends. In the window the result
    then stays lit for ``--show`` seconds and the window closes by itself.
    """
    if args.learn:
        print(
            "morris-pi hwtest: --learn writes the switch map of a real board; the simulator has none to fix",
            file=sys.stderr,
        )
        return EXIT_USAGE
    from morris_pi.hwtest.selftest import Report
    from morris_pi.sim import hwtest_run
    from morris_pi.sim.backends import SimBoard

    test = _test(args)
    board = board or SimBoard()
    hand = hwtest_run.ScriptedHand(board) if args.auto else None
    reports: list[Report] = []

    def program(board: Any) -> int:
        report = hwtest_run.run(board, test, sleep=sleep, say=board.say, hand=hand, stop=board.stopped.is_set)
        if not test.done:
            return EXIT_FAULTS  # the window was closed first
        reports.append(report)
        print(report.text(), flush=True)
        if args.show > 0:
            board.say(f"The result stays lit for {args.show:g} s: OK points green, faulty points red.")
            until = board.clock.now() + args.show
            while board.clock.now() < until and not board.stopped.is_set():
                sleep(min(0.1, until - board.clock.now()))
        return EXIT_OK if report.ok else EXIT_FAULTS

    why = _no_window()
    if why is None:
        from morris_pi.sim.display import NoDisplayError
        from morris_pi.sim.script import run_in_window

        try:
            run_in_window(program, title="morris-pi hwtest", board=board, close_when_done=True)
        except NoDisplayError as exc:
            why = exc.problem
        except KeyboardInterrupt:
            print("\nmorris-pi hwtest: stopped", file=sys.stderr)
            return 130
        else:
            if not reports:
                print("morris-pi hwtest: the window was closed before the test finished", file=sys.stderr)
                return EXIT_FAULTS
            return EXIT_OK if reports[0].ok else EXIT_FAULTS
    nobody = (
        ""
        if args.auto
        else (
            f"; nobody puts men on it, so each point ends after --timeout "
            f"{args.timeout:g} s (--auto: a scripted hand does)"
        )
    )
    print(
        f"morris-pi hwtest: {why}: the self-test runs on the simulated board without a window{nobody}", file=sys.stderr
    )
    try:
        report = hwtest_run.run(board, test, sleep=sleep, say=print, hand=hand)
    except KeyboardInterrupt:
        print("\nmorris-pi hwtest: stopped", file=sys.stderr)
        return 130
    return EXIT_OK if report.ok else EXIT_FAULTS


def _no_window() -> str | None:
    """Why the simulated board cannot be shown in a window, or ``None`` when it can."""
    if importlib.util.find_spec("pygame") is None:
        return "pygame is not installed (pip install 'morris-pi[sim]' for the window)"
    from morris_pi.sim.display import missing_display

    return missing_display(os.environ)
