"""A generator's games written into a folder: what ``morris-pi traces GENERATOR OUT`` does.

Every game is ``NAME.jsonl``, a trace for ``morris-pi replay``, with ``NAME.expected.json``
beside it: the record (and the outcome) replay must end with, which ``bench/check_traces.py``
compares. ``summary.json`` holds the number of games, the seed, the mess asked for and how often
each kind of mess was played (``counts``). Game ``n`` of a run has a seed of its own, so the
same arguments write the same files:

- ``simple`` and ``physical``: seed ``SEED + n``; the profiles in turn, then the modes
  (``spread``); ``simple-PROFILE-MODE-seedS`` and ``physical-PROFILE-MODE-seedS``;
- ``second_hands``: seed ``"SEED:n"``; the profiles in turn, two players;
  ``hands-SEED-NNNN-PROFILE`` (with ``-cutFIRST-TURNS`` for a game cut down).

>>> spread(3, ("standard", "club"), MODES), spread(7, ("standard", "club"), MODES)
(('club', 'computer-white'), ('club', 'two-player'))
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path

from morris_pi.rules import PROFILES

from . import MODES
from .physical import Engine, generate, noise
from .physical.files import write
from .physical.playing import computer_side
from .second_hands import make_trace
from .simple import Mess, game_trace, random_game


def spread(n: int, profiles: Sequence[str], modes: Sequence[str]) -> tuple[str, str]:
    """Game ``n``'s profile and mode: every profile in turn, and the next mode after each round."""
    return profiles[n % len(profiles)], modes[(n // len(profiles)) % len(modes)]


def _text(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")


def _summary(folder: Path, games: int, seed: int, mess: Mapping[str, object], counts: Counter[str]) -> None:
    summary = {"games": games, "seed": seed, "mess": mess, "counts": dict(sorted(counts.items()))}
    _text(folder / "summary.json", json.dumps(summary, indent=1) + "\n")


def write_simple(
    folder: Path,
    *,
    games: int,
    seed: int,
    profiles: Sequence[str] = tuple(PROFILES),
    modes: Sequence[str] = MODES,
    max_turns: int = 150,
    mess: Mess | None = None,
) -> Counter[str]:
    """Random games of ``simple`` (default: ``Mess()``); the computer's side plays the first legal
    turn, as replay's player does."""
    mess = Mess() if mess is None else mess
    folder.mkdir(parents=True, exist_ok=True)
    total: Counter[str] = Counter()
    for n in range(games):
        game_seed = seed + n
        profile, mode = spread(n, profiles, modes)
        computer = computer_side(mode)
        game = random_game(profile, random.Random(game_seed), max_turns=max_turns, computer=computer)
        lines = game_trace(game, seed=game_seed, computer=computer, mess=mess, stats=total)
        name = f"simple-{profile}-{mode}-seed{game_seed}"
        _text(folder / f"{name}.jsonl", "".join(json.dumps(line) + "\n" for line in lines))
        expected = {
            "record": game.record,
            "outcome": game.outcome.to_dict() if game.outcome else None,
            "profile": profile,
            "mode": mode,
            "seed": game_seed,
        }
        _text(folder / f"{name}.expected.json", json.dumps(expected, indent=1) + "\n")
    _summary(folder, games, seed, dataclasses.asdict(mess), total)
    return total


def write_physical(
    folder: Path,
    *,
    games: int,
    seed: int,
    profiles: Sequence[str] = tuple(PROFILES),
    modes: Sequence[str] = MODES,
    mess: dict[str, float] | None = None,
    target: str | None = None,
    level: int | None = None,
) -> Counter[str]:
    """Games of ``physical``, each steered to ``target`` (default: one drawn per game); against the
    computer, the engine at ``level`` plays its side (default: replay's first-legal player)."""
    mess = noise(0.25) if mess is None else mess
    folder.mkdir(parents=True, exist_ok=True)
    total: Counter[str] = Counter()
    for n in range(games):
        game_seed = seed + n
        profile, mode = spread(n, profiles, modes)
        computer = Engine(level, game_seed) if level is not None and mode != "two-player" else None
        trace = generate(profile, game_seed, mode=mode, target=target, mess=mess, computer=computer)
        total.update(trace.mess)
        write(trace, folder, f"physical-{profile}-{mode}-seed{game_seed}")
    _summary(folder, games, seed, mess, total)
    return total


def write_second_hands(
    folder: Path,
    *,
    games: int,
    seed: int,
    mess: dict[str, float],
    profiles: Sequence[str] = tuple(PROFILES),
    game: int | None = None,
    window: tuple[int, int] | None = None,
    turns: int | None = None,
) -> Counter[str]:
    """Games of ``second_hands`` (``mess``: ``second_hands.mess_levels``); ``game`` writes only that
    game of the run, ``window`` and ``turns`` cut it down (``second_hands.make_trace``)."""
    folder.mkdir(parents=True, exist_ok=True)
    total: Counter[str] = Counter()
    numbers = range(games) if game is None else [game]
    for n in numbers:
        profile = profiles[n % len(profiles)]
        lines, expected, kinds = make_trace(f"{seed}:{n}", profile, mess, window, turns)
        total.update(kinds)
        name = f"hands-{seed}-{n:04d}-{profile}"
        if window or turns is not None:
            name += f"-cut{window[0] if window else 0}-{turns}"
        _text(folder / f"{name}.jsonl", "".join(json.dumps(line) + "\n" for line in lines))
        _text(folder / f"{name}.expected.json", json.dumps(expected) + "\n")
    _summary(folder, games, seed, mess, total)
    return total
