"""The placing-phase opening book: shipped data checked at load, symmetric look-ups, legal turns,
and the levels that use it."""

from __future__ import annotations

import json
import random
import shutil

import pytest

from morris_pi.engine.book import (
    BOOK_FILE,
    MANIFEST,
    BookDataError,
    OpeningBook,
    canonical,
    from_canonical,
    opening_book,
    to_canonical,
)
from morris_pi.engine.egtb import SYMMETRIES
from morris_pi.engine.player import EnginePlayer
from morris_pi.rules import Game, Turn
from morris_pi.rules.position import Position


def shipped() -> OpeningBook:
    book = opening_book("standard")
    assert book is not None, "the opening book ships with the package"
    return book


def mirrored(pos: Position, sym: int) -> Position:
    perm = SYMMETRIES[sym]
    men = tuple(sum(1 << perm[i] for i in range(24) if m >> i & 1) for m in pos.men)
    return Position(pos.tables, men, pos.hand, pos.side, pos.quiet)


def test_every_book_turn_is_legal_and_the_book_covers_its_plies():
    book = shipped()
    manifest = json.loads(MANIFEST.read_text())
    assert book.plies == manifest["plies"] >= 3
    assert len(book) == manifest["positions"]
    for (w, b, hw, hb, side), entry in book.entries.items():
        pos = Position(Position.start().tables, (w, b), (hw, hb), side, 0)
        assert entry.turn in pos.turns(), f"book turn {entry.turn} is illegal in {pos}"


def test_book_answers_in_the_positions_own_coordinates_for_every_mirror_image():
    book = shipped()
    rng = random.Random(5)
    game = Game()
    game.play(Turn.from_raw(book.turn(game.position)))
    game.play(rng.choice(game.legal_turns()))
    for sym in range(16):
        pos = mirrored(game.position, sym)
        turn = book.turn(pos)
        assert turn is not None and turn in pos.turns()
        # the mirrored answer is the mirror of the original answer
        assert canonical(pos.play(turn))[0] == canonical(game.position.play(book.turn(game.position)))[0]


def test_symmetry_maps_round_trip():
    for sym in range(16):
        for turn in [(-1, 5, -1), (3, 4, 17), (0, 23, -1)]:
            assert from_canonical(to_canonical(turn, sym), sym) == turn


def test_a_player_follows_the_book_where_the_level_uses_it():
    game = Game()
    player = EnginePlayer(10, seed=3, threaded=False)
    player.start(game)
    turn = player.result()
    assert player.last.book
    assert turn.to_raw() == shipped().turn(game.position)
    beginner = EnginePlayer(1, seed=3, threaded=False)
    beginner.start(game)
    beginner.result()
    assert not beginner.last.book, "the beginner levels search for themselves"


def test_book_is_not_used_under_other_placing_rules():
    assert opening_book("lasker") is None  # ten men, moving while placing
    assert opening_book("move-this") is None  # other removal rule


def test_a_corrupt_book_is_refused_with_the_file_named(tmp_path):
    book, manifest = tmp_path / BOOK_FILE.name, tmp_path / MANIFEST.name
    shutil.copy(BOOK_FILE, book)
    shutil.copy(MANIFEST, manifest)
    assert len(OpeningBook.load(book, manifest)) == len(shipped())
    data = bytearray(book.read_bytes())
    data[3] = ord("0") if data[3] != ord("0") else ord("1")
    book.write_bytes(bytes(data))
    with pytest.raises(BookDataError, match="SHA-256"):
        OpeningBook.load(book, manifest)
    with pytest.raises(BookDataError, match="cannot read"):
        OpeningBook.load(tmp_path / "missing.txt", manifest)


def test_bad_lines_name_the_line():
    with pytest.raises(BookDataError, match="line 2"):
        OpeningBook.parse("000001 000000 8 9 1 -1 5 -1 0 9\nnonsense\n", 1, {})
