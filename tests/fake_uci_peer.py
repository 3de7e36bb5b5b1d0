"""A stand-in for Sanmill's console engine, speaking the same protocol, for testing bench/sanmill.py.

It plays random legal plies by our rules (a removal is a ply of its own, as in
Sanmill). Misbehaviours for the tests:

    --illegal-at N      the N-th ``go`` answers a ply our rules refuse
    --refuse-removal    a removal asked for after ``position startpos`` gets "none"
                        (as Sanmill does for a position it thinks finished); after
                        ``position fen`` it answers
    --claim-draw        the same, answering "draw" (as Sanmill does when its N-move count
                        reaches 100 on a mill-closing move, before the removal resets it)
    --unknown-option    answers every setoption with "No such option"
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from morris_pi.rules import Game


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--illegal-at", type=int, default=0)
    parser.add_argument("--refuse-removal", action="store_true")
    parser.add_argument("--claim-draw", action="store_true")
    parser.add_argument("--unknown-option", action="store_true")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    game = Game()
    from_fen = False
    goes = 0
    say = lambda text: print(text, flush=True)  # noqa: E731
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        cmd = words[0]
        if cmd == "uci":
            say("id name FakePeer 1")
            say("option name SkillLevel type spin default 1 min 0 max 30")
            say("uciok")
        elif cmd == "setoption" and args.unknown_option:
            name = " ".join(words[2 : words.index("value")] if "value" in words else words[2:])
            say(f"No such option: {name}")
        elif cmd == "isready":
            say("readyok")
        elif cmd == "position":
            if words[1] == "startpos":
                game, from_fen = Game(), False
                moves = words[3:] if len(words) > 2 and words[2] == "moves" else []
            else:
                end = words.index("moves") if "moves" in words else len(words)
                game, from_fen = Game.from_fen(" ".join(words[2:end])), True
                moves = words[end + 1 :]
            for ply in moves:
                game.play(ply)
        elif cmd == "go":
            goes += 1
            if args.illegal_at and goes == args.illegal_at:
                occupied = next(iter(game.board), "a1")
                say(f"info score 0 bestmove {occupied}")  # a placement or move onto a man: illegal
            elif game.is_over:
                say("info score 0 bestmove none")
            elif game.pending:
                if args.refuse_removal and not from_fen:
                    say("info score 0 bestmove none")
                elif args.claim_draw and not from_fen:
                    say("info score 0 bestmove draw")
                else:
                    say(f"info score 0 bestmove x{rng.choice(game.removable)}")
            else:
                say(f"info score 0 bestmove {rng.choice(game.legal_turns()).step}")
            say("Fen: this trailing line imitates the analysis Sanmill prints after its answer")
        elif cmd == "d":
            say(f"Fen: {game.fen}")
        elif cmd == "quit":
            return


if __name__ == "__main__":
    main()
