"""``morris-pi traces GENERATOR OUT``: messy sensor traces of made-up games, written into a folder.

One command for the three generators of ``morris_pi.traces`` (``simple``, ``physical``,
``second_hands``): each game is ``NAME.jsonl`` for ``morris-pi replay``, ``NAME.expected.json``
beside it (the record replay must end with, what ``bench/check_traces.py`` compares), and
``summary.json`` counts the mess played (``morris_pi.traces.writing``). The same arguments
write the same files.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

from morris_pi.rules import PROFILES
from morris_pi.traces import GENERATORS, MODES
from morris_pi.traces.second_hands import KINDS as SECOND_HANDS_KINDS

from . import Subparsers
from .arguments import level, positive, probability
from .arguments import seed as seed_or_random

HELP = {
    "simple": "a random game played with bounce, slides, nudges, lifts and missed events",
    "physical": "whole games steered to every ending, played by modelled hands and switches",
    "second_hands": "a second model of hands, magnets and reed switches, every turn decidable",
}


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "traces",
        help="write messy sensor traces of made-up games, with the records replay must end with",
        description=(
            "Write a generator's games into OUT: NAME.jsonl, a trace for morris-pi replay, and NAME.expected.json "
            "with the record (and outcome) replay must end with; summary.json counts the mess played. "
            "Generators: " + "; ".join(f"{name}: {HELP[name]}" for name in GENERATORS) + "."
        ),
    )
    generators = parser.add_subparsers(dest="generator", metavar="GENERATOR")
    generators.required = True
    made = {name: generators.add_parser(name, help=HELP[name], description=HELP[name] + ".") for name in GENERATORS}
    for sub in made.values():
        sub.add_argument("out", type=Path, help="the folder to write the traces in")
        sub.add_argument("--games", type=positive, default=10, help="how many games (default 10)")
        sub.add_argument(
            "--seed", type=seed_or_random, default="0", help="a whole number, or 'random' (drawn and printed)"
        )
        sub.add_argument(
            "--profiles",
            nargs="+",
            choices=list(PROFILES),
            default=list(PROFILES),
            metavar="PROFILE",
            help=f"profiles, in turn (default: all: {', '.join(PROFILES)})",
        )
        sub.set_defaults(func=run)
    for name in ("simple", "physical"):
        made[name].add_argument(
            "--modes",
            nargs="+",
            choices=MODES,
            default=list(MODES),
            metavar="MODE",
            help=f"modes, the next after every round of profiles (default: all: {', '.join(MODES)})",
        )

    simple = made["simple"]
    simple.add_argument("--max-turns", type=positive, default=150, help="stop a game after this many turns")
    simple.add_argument("--clean", action="store_true", help="no mess at all: every switch changes once, on time")

    physical = made["physical"]
    physical.add_argument("--mess", type=probability, default=0.25, help="probability of each kind (default 0.25)")
    physical.add_argument(
        "--kinds", nargs="+", metavar="KIND", help="only these kinds of mess (morris_pi.traces.physical.mess.KINDS)"
    )
    physical.add_argument("--target", help="the ending every game is steered to (default: one drawn per game)")
    physical.add_argument("--level", type=level, help="the engine at this level plays the computer's side")

    second = made["second_hands"]
    second.add_argument("--mess", type=probability, default=0.25, help="probability of each kind where it can happen")
    kinds = ", ".join(SECOND_HANDS_KINDS)
    second.add_argument(
        "--only", nargs="+", choices=SECOND_HANDS_KINDS, metavar="KIND", help=f"play only these kinds of mess: {kinds}"
    )
    second.add_argument("--off", nargs="+", choices=SECOND_HANDS_KINDS, metavar="KIND", help="never play these kinds")
    second.add_argument("--game", type=int, help="write only game number N of the run (to cut a failing one down)")
    second.add_argument("--window", type=int, nargs=2, metavar=("FIRST", "LAST"), help="mess only on these turns")
    second.add_argument("--turns", type=int, help="stop the game after this many turns (record so far expected)")


def run(args: argparse.Namespace) -> int:
    from morris_pi.traces import writing
    from morris_pi.traces.heldout import parse_seed
    from morris_pi.traces.physical import noise
    from morris_pi.traces.second_hands import mess_levels
    from morris_pi.traces.simple import CLEAN, Mess

    seed = parse_seed(args.seed)
    if args.seed == "random":
        print(f"seed drawn: {seed}", flush=True)
    out: Path = args.out
    total: Counter[str]
    try:
        if args.generator == "simple":
            mess = CLEAN if args.clean else Mess()
            total = writing.write_simple(
                out,
                games=args.games,
                seed=seed,
                profiles=args.profiles,
                modes=args.modes,
                max_turns=args.max_turns,
                mess=mess,
            )
        elif args.generator == "physical":
            total = writing.write_physical(
                out,
                games=args.games,
                seed=seed,
                profiles=args.profiles,
                modes=args.modes,
                mess=noise(args.mess, args.kinds),
                target=args.target,
                level=args.level,
            )
        else:
            window = (args.window[0], args.window[1]) if args.window else None
            total = writing.write_second_hands(
                out,
                games=args.games,
                seed=seed,
                mess=mess_levels(args.mess, args.only, args.off),
                profiles=args.profiles,
                game=args.game,
                window=window,
                turns=args.turns,
            )
    except ValueError as exc:
        print(f"morris-pi traces {args.generator}: {exc}", file=sys.stderr)
        return 2
    print(f"{args.games} traces in {out}")
    for kind in sorted(total):
        print(f"  {kind:24} {total[kind]}")
    return 0
