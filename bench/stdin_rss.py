"""Peak memory of every command that reads standard input, fed 100 MB of garbage.

Each command runs in a process of its own (``python -m morris_pi.cli``) with a
writer thread pushing SIZE bytes of one kind of garbage into its stdin; the
command may stop reading early (that is the point). Reported per command and
kind: the child's peak RSS (``wait4`` rusage), how much of the input it read
before it ended, its exit status and the wall time. Target: peak RSS < 64 MB.

Kinds of garbage: ``random`` (bytes from os.urandom, newlines included by
chance), ``zeros`` (/dev/zero: one endless line), ``lines`` (printable junk in
80-byte lines: every line a bad event or turn). The figures go into
``bench/results/stdin_rss.md``, a row per command, garbage and size.

    python bench/stdin_rss.py [--mb 100] [--kinds random,zeros,lines]
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import threading
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, ROOT)

from bench.results import record  # noqa: E402  # the repository on the path first

COMMANDS = {
    "replay -": ["replay", "-"],
    "replay - --json": ["replay", "-", "--json"],
    "legal -": ["legal", "-"],
    "analyze --depth 1 -": ["analyze", "--depth", "1", "-"],
    "perft 1 -": ["perft", "1", "-"],
}
TARGET_MB = 64


def chunk_of(kind: str) -> bytes:
    if kind == "random":
        return os.urandom(1 << 20)
    if kind == "zeros":
        return bytes(1 << 20)
    if kind == "lines":
        line = (b"x7 {garbage: not a turn, not json} " * 3)[:79] + b"\n"
        return line * ((1 << 20) // len(line))
    raise ValueError(kind)


def measure(argv: list[str], kind: str, size: int) -> dict:
    env = {**os.environ, "PYTHONPATH": ROOT + os.pathsep + os.environ.get("PYTHONPATH", "")}
    started = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "morris_pi.cli", *argv],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    chunk = chunk_of(kind)
    sent = [0]

    def feed() -> None:
        try:
            while sent[0] < size:
                for start in range(0, len(chunk), 1 << 16):  # small writes: "taken in" is accurate
                    part = chunk[start : start + min(1 << 16, size - sent[0])]
                    if not part:
                        break
                    proc.stdin.write(part)
                    proc.stdin.flush()
                    sent[0] += len(part)
            proc.stdin.close()
        except (BrokenPipeError, ValueError, OSError):
            pass  # the command stopped reading: expected for garbage

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    writer.join(5)
    return {
        "rss_mb": usage.ru_maxrss / 1024,  # KiB on Linux
        "read_mb": sent[0] / 1e6,
        "code": proc.returncode,
        "seconds": time.perf_counter() - started,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mb", type=int, default=100, help="garbage per run, in MB (default 100)")
    parser.add_argument("--kinds", default="random,zeros,lines")
    args = parser.parse_args()
    size = args.mb * 1_000_000
    print(
        f"python {platform.python_version()}, {platform.machine()}; {args.mb} MB of garbage per run; "
        f"target peak RSS < {TARGET_MB} MB"
    )
    print(f"{'command':24} {'garbage':8} {'peak RSS':>9} {'taken in':>9} {'exit':>5} {'time':>7}")
    base = measure(["legal", "d6"], "zeros", 0)
    print(
        f"{'(baseline: legal d6)':24} {'none':8} {base['rss_mb']:7.1f} MB {0:6.1f} MB {base['code']:5d} "
        f"{base['seconds']:6.2f}s"
    )
    rows = [
        {
            "command, garbage": "legal d6 (the baseline), none",
            "peak RSS": f"{base['rss_mb']:.1f} MB",
            "taken in": "0 MB",
            "exit": base["code"],
        }
    ]
    worst = 0.0
    for name, argv in COMMANDS.items():
        for kind in args.kinds.split(","):
            r = measure(argv, kind, size)
            worst = max(worst, r["rss_mb"])
            rows.append(
                {
                    "command, garbage": f"{name}, {args.mb} MB of {kind}",
                    "peak RSS": f"{r['rss_mb']:.1f} MB",
                    "taken in": f"{r['read_mb']:.1f} MB",
                    "exit": r["code"],
                }
            )
            print(
                f"{name:24} {kind:8} {r['rss_mb']:7.1f} MB {r['read_mb']:6.1f} MB {r['code']:5d} {r['seconds']:6.2f}s",
                flush=True,
            )
    print(f"worst peak RSS: {worst:.1f} MB ({'within' if worst < TARGET_MB else 'OVER'} the {TARGET_MB} MB target)")
    record(
        "stdin_rss",
        "Commands fed garbage on standard input: peak memory (bench/stdin_rss.py)",
        ["command, garbage", "peak RSS", "taken in", "exit"],
        rows,
        notes=f"Each command in a process of its own (`python -m morris_pi.cli`), its peak RSS from `wait4`; "
        f"taken in: how much of the input it read before it ended. Python {platform.python_version()}, "
        f"{platform.machine()}. Target: peak RSS < {TARGET_MB} MB.",
    )
    return 0 if worst < TARGET_MB else 1


if __name__ == "__main__":
    sys.exit(main())
