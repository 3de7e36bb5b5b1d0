"""The service with its web page under attack from the LAN, while a game goes on: every case of
issue 23, one after another, against the real service on emulated hardware.

Runs ``morris_pi.service.run_service`` as ``morris-pi run`` does with ``[web] enabled`` (real
clock, 100 Hz scan, a PIN and four buttons) over the emulated MCP23017 and SPI LED chain of
``bench/service.py``, resuming a game in the moving phase, with 2,000 finished records on the
card. A thread plays moves on the switches all the time. Each case runs for a few seconds;
the socket attacks come from a process of their own (so their sockets and memory are not the
service's), from many loopback addresses (127.0.0.0/8). For each case it prints:

- the board's latency from a move becoming firm (``settle_ms`` after the man is down) to the
  game recording it, p50/p99 and the moves played (target p99 < 50 ms);
- what was refused (status codes the attacker got, sockets the server closed and why) and
  whether an ordinary visitor from another address was still served;
- the service's RSS now and its peak so far (target peak < 80 MB);
and at the end tracebacks in the log (target 0), log lines and bytes, and confirmed turns the
save on the card lacks (target 0). The figures go into ``bench/results/web_attack.md``, a row
per case.

    nice python bench/web_attack.py [--seconds 6] [--seed 1]

The service runs in this process as it does under systemd. The bench usually runs as root
in a container; the service serves no page as root (``serve_board``), so the bench stands in
an ordinary user id for that one check and says so.
"""

from __future__ import annotations

import argparse
import dataclasses
import http.client
import io
import json
import logging
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
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from service import Bench

from bench import results as tables
from morris_pi.config.model import ButtonsConfig, WebConfig
from morris_pi.core.record_format import format_record
from morris_pi.core.storage import Storage
from morris_pi.web import server as web_server

PIN = "471108"
BUTTON_PINS = {"new": 17, "undo": 27, "hint": 22, "menu": 23}

#: The socket attacks, run in a process of their own: ``python -c ATTACKER CASE PORT SECONDS``.
#: Prints one JSON line: the status codes got (or "closed"/"reset"/"refused") and how many sockets it held.
ATTACKER = r"""
import json, socket, sys, time
from collections import Counter
case, port, seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
got = Counter()
end = time.monotonic() + seconds

def conn(source="127.0.0.1", timeout=5):
    s = socket.socket()
    s.bind((source, 0))
    s.settimeout(timeout)
    s.connect(("127.0.0.1", port))
    return s

def status(s):
    try:
        data = s.recv(200)
    except (ConnectionResetError, BrokenPipeError):
        return "reset"
    except TimeoutError:
        return "no answer"
    return data[9:12].decode() if data.startswith(b"HTTP/") else "closed"

def hold(sockets):
    # keep them until the end; count the ones the server closed
    while time.monotonic() < end:
        time.sleep(0.2)
    closed = 0
    for s in sockets:
        s.setblocking(False)
        try:
            closed += s.recv(1) == b""
        except BlockingIOError:
            pass
        except OSError:
            closed += 1
        s.close()
    got["closed by the server"] += closed
    got["held at the end"] += len(sockets) - closed

if case == "body":
    for size, chunked in ((100 * 2**20, False), (300 * 2**20, False), (60 * 2**20, True)):
        s = conn()
        head = "POST /api/pair HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://127.0.0.1\r\n"
        head += "Content-Type: application/json\r\n"
        head += "Transfer-Encoding: chunked\r\n\r\n" if chunked else f"Content-Length: {size}\r\n\r\n"
        s.sendall(head.encode())
        sent, block = 0, b"7" * 65536
        try:
            while sent < size:
                s.sendall(b"%x\r\n%s\r\n" % (len(block), block) if chunked else block)
                sent += len(block)
        except (BrokenPipeError, ConnectionResetError, TimeoutError):
            pass
        got[status(s)] += 1
        most = "MB sent before the server stopped reading (max)"
        got[most] = max(got[most], sent // 2**20)
        s.close()
elif case == "silent":
    socks = []
    for n in range(64):
        try:
            socks.append(conn(f"127.0.0.{1 + n // 32}"))
        except OSError:
            got["refused at connect"] += 1
    hold(socks)
elif case == "slowloris":
    socks = []
    for n in range(31):
        try:
            s = conn(f"127.0.0.{1 + n % 4}")
            socks.append(s)
        except OSError:
            got["refused at connect"] += 1
    line = b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\nX-a: " + b"a" * 4000
    i = 0
    while time.monotonic() < end:
        for s in list(socks):
            try:
                s.send(line[i:i+1])
            except OSError:
                socks.remove(s)
                got["closed by the server"] += 1
        i = (i + 1) % len(line)
        time.sleep(0.5)
    got["held at the end"] += len(socks)
elif case == "sse":
    socks = []
    for n in range(31):
        try:
            s = conn(f"127.0.0.{1 + n // 8}")
            s.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            got[status(s)] += 1
            socks.append(s)
        except OSError:
            got["refused at connect"] += 1
    hold(socks)
elif case == "fds":
    socks = []
    for n in range(1100):
        try:
            socks.append(conn(f"127.0.{1 + n // 200}.{1 + n % 200}", timeout=2))
        except OSError:
            got["refused at connect"] += 1
    hold(socks)
elif case == "records":
    while time.monotonic() < end:
        for path in ("/api/records", "/api/records?offset=1000", "/api/records/latest", "/api/records/2024"):
            try:
                s = conn("127.0.0.9")
                s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
                got[status(s)] += 1
                s.close()
            except OSError as exc:
                got[type(exc).__name__] += 1
print(json.dumps(got))
"""


def rss_mb() -> tuple[float, float]:
    """(RSS now, peak RSS so far) of this process, in MB."""
    now = 0.0
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            now = int(line.split()[1]) / 1024
    return now, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


class LogCapture(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.stream = io.StringIO()
        self.lines = 0
        self.tracebacks = 0
        self.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        text = self.format(record)
        self.lines += 1
        self.tracebacks += text.count("Traceback")
        self.stream.write(text + "\n")


class AttackBench(Bench):
    def __init__(self, state: Path, port: int) -> None:
        super().__init__(True, state)
        self.config = dataclasses.replace(
            self.config,
            web=WebConfig(enabled=True, host="127.0.0.1", port=port, pin=PIN),
            buttons=ButtonsConfig(**BUTTON_PINS),
        )
        self.port = port
        self.state = state

    def press(self, name: str) -> None:
        pin = self.factory.pin(BUTTON_PINS[name])
        pin.drive_low()
        time.sleep(0.06)
        pin.drive_high()
        time.sleep(0.06)


class Player(threading.Thread):
    """Plays legal moves on the switches, one after another; notes firm -> recorded per move."""

    def __init__(self, bench: AttackBench, rng: random.Random) -> None:
        super().__init__(daemon=True)
        self.bench = bench
        self.rng = rng
        self.delays: list[float] = []
        self.missed = 0
        self.stopping = threading.Event()
        self.paused = threading.Event()

    def run(self) -> None:
        settle = self.bench.config.sensors.settle_ms / 1000
        session = self.bench.session
        while not self.stopping.is_set():
            if self.paused.is_set():
                time.sleep(0.05)
                continue
            game = session.controller.game
            if game.outcome is not None:
                break
            turns = [t for t in game.legal_turns() if t.origin and not t.removal]
            if not turns:
                break
            turn = self.rng.choice(turns)
            self.bench.set(turn.origin, False)
            time.sleep(self.rng.uniform(0.1, 0.2))
            before = len(game.history)
            t = time.perf_counter()
            self.bench.set(turn.target, True)
            firm = t + settle
            deadline = t + 3.0
            while len(session.controller.game.history) == before and time.perf_counter() < deadline:
                time.sleep(0.0005)
            if len(session.controller.game.history) == before:
                self.missed += 1
            else:
                self.delays.append(max(0.0, time.perf_counter() - firm))
            time.sleep(self.rng.uniform(0.1, 0.25))


def p(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, round(q * (len(values) - 1)))] * 1000 if values else float("nan")


def visitor(port: int, source: str = "127.0.5.5", path: str = "/api/game") -> str:
    try:
        s = socket.socket()
        s.bind((source, 0))
        s.settimeout(5)
        s.connect(("127.0.0.1", port))
        s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
        data = s.recv(100)
        s.close()
        return data[9:12].decode() if data.startswith(b"HTTP/") else "closed"
    except OSError as exc:
        return type(exc).__name__


def request(port: int, method: str, path: str, body: bytes | None = None, *, headers=None, source="127.0.0.1"):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(source, 0))
    hdrs = {"Host": "127.0.0.1", "Origin": "http://127.0.0.1", "Content-Type": "application/json", **(headers or {})}
    conn.request(method, path, body=body, headers=hdrs)
    answer = conn.getresponse()
    data = answer.read()
    conn.close()
    return answer.status, data, answer.getheader("set-cookie"), dict(answer.getheaders())


def in_process_cases(bench: AttackBench, seconds: float) -> dict[str, dict]:
    """The request-level cases, sent from this process (they hold no sockets)."""
    port = bench.port
    out: dict[str, dict] = {}
    # pairing: the attacker asks again and again; the owner asks too and types the code
    end = time.monotonic() + seconds
    codes: Counter[str] = Counter()
    owner = None
    owner_cookie = ""
    while time.monotonic() < end:
        status, data, _, _ = request(port, "POST", "/api/pair", b"{}", source="127.0.0.66")
        codes[f"attacker ask {status}"] += 1
        attacker = json.loads(data) if status == 202 else None
        if owner is None:
            status, data, _, _ = request(port, "POST", "/api/pair", b"{}", source="127.0.0.2")
            codes[f"owner ask {status}"] += 1
            owner = json.loads(data)
            bench.press("menu")  # a press meant for anything else
            for name in owner["code"]:
                bench.press(name)
            time.sleep(0.2)
            status, _, cookie, _ = request(
                port, "POST", "/api/pair/claim", json.dumps({"request": owner["request"]}).encode(), source="127.0.0.2"
            )
            codes[f"owner claim {status}"] += 1
            owner_cookie = (cookie or "").split(";")[0]
        if attacker is not None:
            status, _, cookie, _ = request(
                port,
                "POST",
                "/api/pair/claim",
                json.dumps({"request": attacker["request"]}).encode(),
                source="127.0.0.66",
            )
            codes[f"attacker claim {status}" + (" WITH A TOKEN" if cookie else "")] += 1
        time.sleep(0.5)
    out["pairing hijack (renewed asks; owner asks and types its code)"] = dict(codes)
    # the PIN: guesses from many addresses as fast as they are answered, then the owner's PIN
    end = time.monotonic() + seconds
    codes = Counter()
    n = 0
    while time.monotonic() < end:
        status, _, _, _ = request(
            port, "POST", "/api/pair", json.dumps({"pin": f"{n:06d}"}).encode(), source=f"127.0.7.{1 + n % 50}"
        )
        codes[f"guess {status}"] += 1
        n += 1
    status, data, _, _ = request(port, "POST", "/api/pair", json.dumps({"pin": PIN}).encode(), source="127.0.0.2")
    codes[f"owner's right PIN {status}: {json.loads(data).get('error', 'paired')[:60]}"] += 1
    out["PIN guessing from 50 addresses"] = dict(codes)
    # bodies that once gave 500s and tracebacks
    codes = Counter()
    for body in (b"[" * 100_000, b'{"do": []}', b'{"pin": "\\ud800"}', b'{"request": "\\udfffxxxxxxxx"}', b"\xff{"):
        path = "/api/action" if b"do" in body or body.startswith(b"[") else "/api/pair"
        status, _, _, _ = request(port, "POST", path, body, headers={"Cookie": owner_cookie}, source="127.0.0.2")
        codes[str(status)] += 1
    out["hostile JSON (deep, wrong types, surrogates)"] = dict(codes)
    # DNS rebinding: a public name on every GET
    codes = Counter()
    for path in ("/", "/api/state", "/api/game", "/api/records", "/api/events"):
        status, _, _, _ = request(port, "GET", path, headers={"Host": "rebind.example.com:8080"})
        codes[str(status)] += 1
    out["GET with a public Host (rebinding)"] = dict(codes)
    # stored XSS: the answers say how they may be used
    status, _, _, headers = request(port, "GET", "/api/records/latest/picture?ply=2")
    csp = headers.get("content-security-policy", "")
    out["a record picture's headers"] = {
        "CSP script-src 'self'": "script-src 'self'" in csp,
        "frame-ancestors 'none'": "frame-ancestors 'none'" in csp,
        "nosniff": headers.get("x-content-type-options") == "nosniff",
    }
    return out


def cli_cases() -> dict[str, dict]:
    """The command-line cases, each a process of its own: exit code, peak RSS, a traceback or not."""
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        deep = Path(tmp, "deep.toml")
        deep.write_text("a = " + "[" * 5000 + "]" * 5000 + "\n")
        for name, args in (
            ("run --config /dev/zero", ["run", "--config", "/dev/zero"]),
            ("run, 5,000-deep TOML", ["run", "--config", str(deep)]),
        ):
            proc = subprocess.Popen(
                [sys.executable, "-m", "morris_pi.cli", *args],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            peak = 0.0  # the child's own high-water mark (ru_maxrss would count this process's, from the fork)
            while proc.poll() is None:
                try:
                    for line in Path(f"/proc/{proc.pid}/status").read_text().splitlines():
                        if line.startswith("VmHWM:"):
                            peak = max(peak, int(line.split()[1]) / 1024)
                except OSError:
                    pass
                time.sleep(0.005)
            err = proc.stderr.read() if proc.stderr else ""
            out[name] = {"exit": proc.returncode, "peak RSS MB": round(peak, 1), "traceback": "Traceback" in err}
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=6.0, help="seconds per case")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--records", type=int, default=2000, help="finished records on the card")
    args = parser.parse_args()
    if os.geteuid() == 0:
        web_server.geteuid = lambda: 1000  # type: ignore[assignment]
        print("(running as root: the service is told it is an ordinary user, so that it serves its page)")
    servers: list = []
    start = web_server.WebServer.start

    def keep(self):  # the bench reads the server's socket counts
        servers.append(self)
        return start(self)

    web_server.WebServer.start = keep  # type: ignore[method-assign]
    capture = LogCapture()
    for name in ("", "uvicorn", "uvicorn.error", "asyncio"):
        logging.getLogger(name).addHandler(capture)
    logging.getLogger().setLevel(logging.INFO)
    rng = random.Random(args.seed)
    results = []
    with tempfile.TemporaryDirectory() as state:
        records = Path(state) / "records"
        records.mkdir()
        for n in range(args.records):
            tags = {"Date": "2024.01.01", "Time": "12:00:00Z", "White": "<img src=x onerror=alert(1)>", "Result": "1-0"}
            (records / f"20240101-{n:06d}.txt").write_text(format_record(tags, "d6 a1 f6 a4 b6xa1 d7"))
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        bench = AttackBench(Path(state), port)
        bench.start()
        server = servers[0]
        print(
            f"python {sys.version.split()[0]}; service + web on 127.0.0.1:{port}, {args.records} records, "
            f"{args.seconds:g} s per case, seed {args.seed}; caps: {server.counts.max_sockets} sockets, "
            f"{server.counts.per_client} per client, {server.counts.request_timeout_s:g} s per request"
        )
        player = Player(bench, rng)
        player.start()
        try:
            time.sleep(1.0)
            cases = ["quiet (no attack)", "body", "silent", "slowloris", "sse", "fds", "records"]
            names = {
                "body": "100 MB, 300 MB and chunked 60 MB bodies to POST /api/pair",
                "silent": "64 silent sockets (32 each from two addresses)",
                "slowloris": "31 slowloris sockets (a header byte every 0.5 s)",
                "sse": "31 event streams from 4 addresses",
                "fds": "1,100 sockets from 1,100 addresses",
                "records": "a flood of /api/records* calls",
            }
            for case in cases:
                delays0, missed0 = len(player.delays), player.missed
                refused0 = Counter(server.counts.refused)
                if case.startswith("quiet"):
                    time.sleep(args.seconds)
                    got: dict = {}
                    seen = visitor(port)
                else:
                    attacker = subprocess.Popen(
                        [sys.executable, "-c", ATTACKER, case, str(port), str(args.seconds)],
                        stdout=subprocess.PIPE,
                        text=True,
                    )
                    time.sleep(min(2.0, args.seconds / 2))
                    seen = visitor(port)
                    out, _ = attacker.communicate(timeout=args.seconds + 120)
                    got = json.loads(out.strip().splitlines()[-1]) if out.strip() else {}
                refused = Counter(server.counts.refused)
                refused.subtract(refused0)
                delays = player.delays[delays0:]
                results.append(
                    (
                        names.get(case, case),
                        len(delays),
                        p(delays, 0.5),
                        p(delays, 0.99),
                        player.missed - missed0,
                        got,
                        {k: v for k, v in refused.items() if v},
                        seen,
                        rss_mb(),
                    )
                )
                time.sleep(1.0)
            delays0 = len(player.delays)
            extra = in_process_cases(bench, args.seconds)
            delays = player.delays[delays0:]
            results.append(
                (
                    "request-level cases (below)",
                    len(delays),
                    p(delays, 0.5),
                    p(delays, 0.99),
                    0,
                    {},
                    {},
                    visitor(port),
                    rss_mb(),
                )
            )
        finally:
            player.stopping.set()
            player.join(10)
            time.sleep(1.0)
            game = bench.session.controller.game
            saved = Storage(Path(state)).load_current()
            played = len(game.history)
            on_card = len(saved[0].history) if saved is not None else 0
            bench.close()
    for name, n, p50, p99, missed, got, refused, seen, (now, peak) in results:
        print(f"\n{name}")
        print(
            f"  board: {n} moves recorded, firm -> recorded p50 {p50:.1f} ms, p99 {p99:.1f} ms; "
            f"moves not recorded: {missed}"
        )
        if got:
            print(f"  attacker got: {json.dumps(got)}")
        if refused:
            print(f"  server closed: {json.dumps(refused)}")
        print(f"  a visitor from another address got: {seen}; RSS {now:.1f} MB, peak so far {peak:.1f} MB")
    for name, got in extra.items():
        print(f"\n{name}: {json.dumps(got)}")
    commands = cli_cases()
    for name, got in commands.items():
        print(f"\n{name}: {json.dumps(got)}")
    all_delays = player.delays
    print(
        f"\nall cases: {len(all_delays)} moves, firm -> recorded p99 {p(all_delays, 0.99):.1f} ms "
        f"(max {max(all_delays) * 1000 if all_delays else float('nan'):.1f} ms); peak RSS {rss_mb()[1]:.1f} MB; "
        f"log: {capture.lines} lines, {len(capture.stream.getvalue().encode()) / 1024:.1f} KiB, "
        f"{capture.tracebacks} tracebacks; confirmed turns {played}, on the card {on_card}, unsaved {played - on_card}"
    )
    if capture.tracebacks:
        print(capture.stream.getvalue()[-4000:])
    rows: list[dict[str, object]] = []
    for name, n, p50, p99, missed, got, refused, seen, (now, peak) in results:
        answered = "; ".join(f"{k}: {v}" for k, v in {**got, **refused}.items())
        rows.append(
            {
                "case": name,
                "firm → recorded p50 / p99": f"{p50:.1f} / {p99:.1f} ms ({n} moves, {missed} not recorded)",
                "the attack got": answered,
                "a visitor from another address got": seen,
                "RSS now / peak": f"{now:.1f} / {peak:.1f} MB",
            }
        )
    for name, got in extra.items():
        rows.append({"case": name, "the attack got": "; ".join(f"{k}: {v}" for k, v in got.items())})
    for name, got in commands.items():
        rows.append(
            {
                "case": f"morris-pi {name}",
                "the attack got": f"exit {got['exit']}, {'a traceback' if got['traceback'] else 'no traceback'}",
                "RSS now / peak": f"peak {got['peak RSS MB']} MB",
            }
        )
    rows.append(
        {
            "case": "all cases",
            "firm → recorded p50 / p99": f"{p(all_delays, 0.5):.1f} / {p(all_delays, 0.99):.1f} ms "
            f"({len(all_delays)} moves)",
            "the attack got": f"{capture.tracebacks} tracebacks, {capture.lines} log lines; "
            f"{played - on_card} of {played} confirmed turns unsaved",
            "RSS now / peak": f"peak {rss_mb()[1]:.1f} MB",
        }
    )
    tables.record(
        "web_attack",
        "The web page under attack while a game goes on (bench/web_attack.py)",
        ["case", "firm → recorded p50 / p99", "the attack got", "a visitor from another address got", "RSS now / peak"],
        rows,
        notes=f"Every case of issue 23 for {args.seconds:g} s against the service on emulated hardware, with a "
        f"PIN, four buttons and {args.records:,} records on the card, seed {args.seed}; this machine "
        f"({platform.machine()}, Python {platform.python_version()}). Targets: firm → recorded p99 < 50 ms, "
        "peak RSS < 80 MB, 0 tracebacks, 0 turns unsaved.",
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
