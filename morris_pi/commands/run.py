"""``morris-pi run [--config PATH]``: the board service (what systemd starts)."""

from __future__ import annotations

import argparse
import logging
import signal
import threading

from . import Subparsers

#: Exit code for a config that cannot be used: the unit's RestartPreventExitStatus=
#: keeps systemd from restarting into the same error.
EXIT_CONFIG = 2


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "run",
        help="run the board: sensors -> tracker -> LEDs, with the engine (the systemd service)",
        description="Run the board service: the set-up menu, games against the computer or between two "
        "players, saves after every turn and resume after a power cut. Logs to stderr (journald "
        "priorities under systemd); stops cleanly on SIGTERM.",
    )
    parser.add_argument(
        "--config",
        metavar="PATH",
        help="TOML config (default /etc/morris-pi/config.toml; built-in defaults if that is missing)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from morris_pi.config.loader import ConfigError, load_config
    from morris_pi.hw import platform
    from morris_pi.service import journal

    journal.configure("info")
    log = logging.getLogger("morris_pi.service")
    try:
        config = load_config(args.config)
        platform.check(config)  # a GPIO library that cannot work on this Pi is a config error
    except ConfigError as exc:
        for error in exc.errors:  # every mistake in the file, one journal line each
            log.critical("config error, not starting: %s", error)
        return EXIT_CONFIG
    journal.configure(config.service.log_level)
    stopping = threading.Event()
    received: list[str] = []

    def on_signal(signum: int, _frame: object) -> None:
        # Nothing is written here: a handler that logs while the loop is halfway through a
        # write to stderr makes a reentrant call on the stream, which raises RuntimeError and
        # can leave the service unable to stop. The loop logs the signal when it sees it.
        received.append(signal.Signals(signum).name)
        stopping.set()

    def stop() -> bool:
        while received:
            log.info("got %s", received.pop(0))
        return stopping.is_set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    from morris_pi.service.loop import run_service

    try:
        return run_service(config, stop=stop)
    except Exception:
        log.critical("the service stopped on an unexpected error", exc_info=True)
        return 1
