"""Freeze a trace into the regression corpus, with its sidecar: what was played, where it comes from, why.

    python bench/freeze_trace.py TRACE.jsonl --why "what the case shows" [--name NAME]
                                 [--generator G] [--seed S] [--game N] [--mess M] [--remake HOW]
                                 [--corpus tests/data/traces] [--tracker MODULE:CALLABLE] [--force]

TRACE's true record comes from its ``.expected.json`` sidecar (what ``bench/soak.py`` and
``bench/second_hands.py`` write beside a failing game) or from an ``"expected"`` key in its
header. The profile and mode come from the trace's header; the generator, seed, game and mess
from the sidecar where it has them, else from the options. The trace is replayed once with
``--tracker`` (default today's) to set ``exact`` and, when it is not read exactly, ``today``
(the record it ends with) and ``shown_wrong_today`` (the first line holding a turn nobody
played: ``tests/test_tracker_corpus.py`` then expects it to fail, strictly). A trace already in
the corpus is kept unless ``--force``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from morris_pi.traces import heldout
from morris_pi.traces.physical.files import expectation

CORPUS = Path(__file__).resolve().parents[1] / "tests" / "data" / "traces"


def mode_of(header: dict[str, object]) -> str:
    """``two-player``, ``computer-white`` or ``computer-black``, from a replay header.

    >>> mode_of({"profile": "club", "white": "human", "black": "computer"})
    'computer-black'
    """
    for side in ("white", "black"):
        if header.get(side) == "computer":
            return f"computer-{side}"
    return "two-player"


def freeze(trace: Path, meta: dict[str, object], corpus: Path, name: str, tracker: str, force: bool) -> Path:
    """Write ``name``.jsonl and its sidecar into ``corpus``; returns the trace's path there."""
    lines, expected, _ = expectation(trace)
    if expected is None:
        raise ValueError(f"{trace}: no expected record (no .expected.json sidecar, none in the header)")
    header = json.loads(lines[0])
    if not isinstance(header, dict) or "t" in header:
        raise ValueError(f"{trace}: the first line is not a replay header")
    sidecar_path = trace.with_name(trace.name.removesuffix(".jsonl") + ".expected.json")
    extra = json.loads(sidecar_path.read_text(encoding="utf-8")) if sidecar_path.exists() else {}
    out: dict[str, object] = {"record": expected["record"]}
    if "outcome" in expected:
        out["outcome"] = expected["outcome"]
    if "taken_back" in extra:
        out["taken_back"] = extra["taken_back"]  # played, then taken back by hand: no turn nobody played
    out["profile"] = header.get("profile", "standard")
    out["mode"] = mode_of(header)
    for key in ("generator", "seed", "game", "target", "mess", "remake"):
        if meta.get(key) is not None:
            out[key] = meta[key]
        elif key in extra:
            out[key] = extra[key]
    missing = [key for key in ("generator", "mess") if key not in out]
    if missing:
        raise ValueError(f"{trace}: say where it comes from: --{' --'.join(missing)}")
    out["why"] = meta["why"]
    code, rows, err = heldout.replay_rows(lines, tracker)
    if code != 0:
        raise ValueError(f"{trace}: replay refused lines: {err.strip()[:200]}")
    out["exact"] = heldout.judge(rows, expected) == "exact"
    if not out["exact"]:
        out["today"] = rows[-1]["record"] if rows else ""
    shown = heldout.shown_wrong(rows, expected)
    if shown:
        out["shown_wrong_today"] = shown
    target = corpus / f"{name}.jsonl"
    if target.exists() and not force:
        raise ValueError(f"{target} is already in the corpus (--force to replace it)")
    corpus.mkdir(parents=True, exist_ok=True)
    target.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    (corpus / f"{name}.expected.json").write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("trace", type=Path, help="a NAME.jsonl trace, with NAME.expected.json beside it")
    parser.add_argument("--why", required=True, help="what the case shows, in a sentence or two")
    parser.add_argument("--name", help="its name in the corpus (default: the trace's own)")
    parser.add_argument("--generator", help="what made it, e.g. bench/second_hands.py")
    parser.add_argument("--seed", type=int)
    parser.add_argument("--game", type=int)
    parser.add_argument("--mess", help="how much mess, and where")
    parser.add_argument("--remake", help="how to make it again")
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--tracker", default=heldout.DEFAULT_TRACKER, help="MODULE:CALLABLE that reads it")
    parser.add_argument("--force", action="store_true", help="replace a trace of that name")
    args = parser.parse_args(argv)
    if not args.why.strip():
        parser.error("--why must say what the case shows")
    meta = {
        "why": args.why.strip(),
        "generator": args.generator,
        "seed": args.seed,
        "game": args.game,
        "mess": args.mess,
        "remake": args.remake,
    }
    name = args.name or args.trace.name.removesuffix(".jsonl")
    try:
        heldout.load_tracker(args.tracker)
        path = freeze(args.trace, meta, args.corpus, name, args.tracker, args.force)
    except (OSError, ValueError) as exc:
        print(f"freeze_trace: {exc}", file=sys.stderr)
        return 1
    sidecar = json.loads(path.with_name(f"{name}.expected.json").read_text(encoding="utf-8"))
    state = "exact" if sidecar["exact"] else ("shows a wrong turn" if "shown_wrong_today" in sidecar else "stops short")
    print(f"{path}: {state} with {args.tracker}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
