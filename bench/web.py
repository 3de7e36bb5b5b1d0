"""The service with its web page on, in real time: idle CPU, peak memory, sensor change to page update.

Runs ``morris_pi.service.run_service`` as ``morris-pi run`` does with ``[web]
enabled`` (real clock, real sleep, 100 Hz scan) over the emulated MCP23017
and SPI LED chain of ``bench/service.py``, resuming a game in the moving phase.
A page watches it over Server-Sent Events from a process of its own (so its
CPU is not counted), noting when each update arrives on loopback. Prints:

- idle CPU of the service process (board loop + web server) with the page
  connected and nobody touching the board (target < 3 % of one core);
- latency from a switch changing on the expander to the page receiving the
  update that shows it (a man lifted: ``lifted`` and its targets), median,
  p99 and max (target p99 < 100 ms); and from the moment a move becomes firm
  (``settle_ms`` after the man is put down) to the update showing it recorded;
- the RSS of the service process after each of ``--hints`` hints asked in
  the same position (the hint button, a full-strength search each), and its
  peak: the page's hint must not cost memory that stays (target < 80 MB after
  20 hints).

The figures go into ``bench/results/web.md``, a row per measure.

    python bench/web.py [--idle 10] [--moves 60] [--hints 20]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import platform
import random
import resource
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from service import MOVING, Bench, spread, summary

from bench import results
from morris_pi.config.model import WebConfig

#: The page: an SSE client printing "arrival-time lifted record" per update (its own process).
CLIENT = r"""
import http.client, json, sys, time
c = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]))
c.request("GET", "/api/events")
r = c.getresponse()
for raw in r:
    line = raw.decode().rstrip("\n")
    if line.startswith("data: "):
        v = json.loads(line[6:])
        print(time.monotonic(), json.dumps([v.get("lifted"), v["game"]["record"] if v.get("game") else None]),
              flush=True)
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


#: The placing phase, black to move: the hints are asked here, where a player asks them most.
PLACING = "d6 a1 f6 a4 b6xa1 d7 b4 g7 f4"


class WebBench(Bench):
    def __init__(self, state: Path, port: int, record: str = MOVING) -> None:
        super().__init__(True, state, record)
        self.config = dataclasses.replace(self.config, web=WebConfig(enabled=True, host="127.0.0.1", port=port))
        self.port = port
        self.updates: list[tuple[float, str | None, str | None]] = []

    def watch(self) -> subprocess.Popen:
        client = subprocess.Popen([sys.executable, "-c", CLIENT, str(self.port)], stdout=subprocess.PIPE, text=True)

        def read() -> None:
            for line in client.stdout:  # type: ignore[union-attr]
                t, data = line.split(" ", 1)
                lifted, record = json.loads(data)
                self.updates.append((float(t), lifted, record))

        threading.Thread(target=read, daemon=True).start()
        return client

    def update_after(self, t: float, ok, timeout: float = 2.0) -> float | None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            for when, lifted, record in self.updates[-20:]:
                if when >= t and ok(lifted, record):
                    return when
            time.sleep(0.0005)
        return None


def latencies(bench: WebBench, moves: int, rng: random.Random) -> tuple[list[float], list[float]]:
    lift, decide = [], []
    settle = bench.config.sensors.settle_ms / 1000
    session = bench.session
    for _ in range(moves):
        game = session.controller.game
        turn = rng.choice([t for t in game.legal_turns() if t.origin and not t.removal])
        time.sleep(rng.uniform(0.05, 0.15))
        t = time.monotonic()
        bench.set(turn.origin, False)
        w = bench.update_after(t, lambda lifted, record, p=turn.origin: lifted == p)
        if w is not None:
            lift.append(w - t)
        time.sleep(rng.uniform(0.1, 0.3))
        before = game.record
        t = time.monotonic()
        bench.set(turn.target, True)
        w = bench.update_after(t, lambda lifted, record, b=before: record is not None and record != b)
        if w is not None:
            decide.append(max(0.0, w - (t + settle)))
        time.sleep(0.25)
    return lift, decide


def rss_mb(field: str = "VmRSS") -> float:
    """The process's resident memory now (``VmHWM``: its peak), in MB on Linux; elsewhere the peak."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith(f"{field}:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def hints(bench: WebBench, count: int, searched: list[float]) -> list[float]:
    """Press the hint button ``count`` times in the same position, each once the last search ended;
    the RSS after each. A search is over when the player's last result is a new one."""
    pin = bench.factory.pin(22)  # the hint button: a full-strength search (tables, TT)
    controller = bench.session.controller
    out = []
    for _ in range(count):
        before = getattr(controller.opponent, "last", None)
        started = time.perf_counter()
        pin.drive_low()
        time.sleep(0.1)
        pin.drive_high()
        deadline = time.time() + 60
        while time.time() < deadline and (getattr(controller.opponent, "last", None) is before or controller.waiting):
            time.sleep(0.005)
        if getattr(controller.opponent, "last", None) is before:
            raise SystemExit("bench: the hint button started no search")
        searched.append(time.perf_counter() - started)
        time.sleep(0.05)
        out.append(rss_mb())
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--idle", type=float, default=10.0, help="seconds of idle measurement")
    parser.add_argument("--moves", type=int, default=60, help="moves for the latency measurement")
    parser.add_argument("--hints", type=int, default=20, help="hints asked in one position for the memory figure")
    args = parser.parse_args()
    rng = random.Random(1)
    rows: list[dict[str, object]] = []

    def row(measure: str, measured: str, target: str = "") -> None:
        rows.append({"measure": measure, "measured": measured, "target": target})

    if hasattr(os, "geteuid") and os.geteuid() == 0:  # a container's root: the service would serve no page
        from morris_pi.web import server as web_server

        web_server.geteuid = lambda: 1000  # type: ignore[assignment]
        print("(running as root: the service is told it is an ordinary user, so that it serves its page)")
    with tempfile.TemporaryDirectory() as state:
        bench = WebBench(Path(state), free_port())
        bench.start()
        client = bench.watch()
        try:
            base = f"http://127.0.0.1:{bench.port}"
            for path in ("/", "/static/app.js", "/static/style.css", "/api/state", "/api/game"):
                urllib.request.urlopen(base + path, timeout=10).read()
            time.sleep(1.0)
            c0, w0 = time.process_time(), time.perf_counter()
            time.sleep(args.idle)
            share = (time.process_time() - c0) / (time.perf_counter() - w0)
            print(
                f"python {sys.version.split()[0]}; scan rate {bench.config.sensors.scan_hz:g} Hz, INT line wired, "
                f"web page on 127.0.0.1:{bench.port} with one page watching"
            )
            print(f"idle CPU (service + web, page connected): {share * 100:.2f} % of one core over {args.idle:g} s")
            lift, decide = latencies(bench, args.moves, rng)
            print(summary("latency, switch change -> page update received (SSE, loopback)", lift))
            print(summary("latency, move firm (settle_ms after the man is down) -> page update", decide))
            print(f"updates the page received: {len(bench.updates)}")
            row(
                "idle CPU, service + web, one page connected (INT line wired)",
                f"{share * 100:.2f} % of one core over {args.idle:g} s",
                "< 3 % of one core",
            )
            row("switch change → page update received (a man lifted; SSE, loopback)", spread(lift), "p99 < 100 ms")
            row("move firm (settle_ms after the man is down) → page update", spread(decide))
        finally:
            client.terminate()
            bench.close()
    with tempfile.TemporaryDirectory() as state:
        # the hints, on a service resumed in the placing phase, its page watched as before
        bench = WebBench(Path(state), free_port(), PLACING)
        bench.start()
        client = bench.watch()
        try:
            time.sleep(1.0)
            print(f"hints asked in one position ({PLACING}, black to move); RSS before them: {rss_mb():.1f} MB")
            searched: list[float] = []
            after = hints(bench, args.hints, searched)
            print(summary("hint, button pressed -> search done", searched))
            shown = ", ".join(f"{n}: {after[n - 1]:.1f}" for n in sorted({1, 2, 5, 10, len(after)}) if n <= len(after))
            print(f"RSS after each hint (hint number: MB): {shown}")
            print(f"RSS after {len(after)} hints in one position: {after[-1]:.1f} MB (target < 80 MB)")
            print(f"peak RSS (service + web, {len(after)} hints): {rss_mb('VmHWM'):.1f} MB")
            row("a hint, button pressed → search done (level 10, full strength)", spread(searched))
            row(
                f"RSS after {len(after)} hints in one position of the placing phase",
                f"{after[-1]:.1f} MB ({shown})",
                "< 80 MB after 20",
            )
            row("peak RSS, service + web", f"{rss_mb('VmHWM'):.1f} MB")
        finally:
            client.terminate()
            bench.close()
    results.record(
        "web",
        "The board service with its web page (bench/web.py)",
        ["measure", "measured", "target"],
        rows,
        notes="The service as `morris-pi run` runs it with `[web]` on, over the emulated expanders and LED "
        "chain, a page watching over Server-Sent Events from a process of its own; the hints are asked of a "
        f"second service resumed in the placing phase. This machine ({platform.machine()}, Python "
        f"{platform.python_version()}); a Pi Zero 2 W is several times slower per update.",
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
