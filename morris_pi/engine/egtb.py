"""Endgame tables of the flying endgames (3 v 3, 3 v 4, 4 v 3 men, none in hand).

The tables are made by ``python -m morris_pi.engine.egtb_build`` (retrograde
analysis) and shipped in ``morris_pi/engine/data``. This module reads them
with the standard library only.

Layout. A table ``(k, j)`` holds positions where the side to move has ``k``
men and the opponent ``j``. The side to move's men are reduced by the 16
symmetries of the board (the 8 symmetries of the square times swapping the
outer and inner ring) to a canonical set; the opponent's men are then ranked
among the ``24 - k`` points left. One byte per position: ``0`` for a draw,
else ``1 + d`` where ``d`` is the number of turns to the end of the game with
best play (distance to mate): odd ``d`` wins for the side to move, even ``d``
loses. 3 v 4 and 4 v 3 also come with the distance to conversion (turns to
the next capture or the end, with the winner hurrying to it): the N-move
counter restarts at a capture, so a win is certain when ``quiet`` plus that
distance stays within the limit, and the search uses a table result only
then. Repetitions are not part of the tables.

Validity. The values depend on the profile settings that act in these
endgames: the standard board's lines, flying at three men, and what happens
when every man of a side stands in a mill (``all_in_mills``). Men in hand,
``move_while_placing`` and the N-move rule do not change them. So one file
serves ``standard``, ``club`` and ``lasker`` (``all_in_mills = "any"``) and
another ``move-this`` (``"none"``); ``no-flying`` and ``twelve`` have none.

>>> len(SYMMETRIES)
16
"""

from __future__ import annotations

import hashlib
import json
import lzma
from collections.abc import Callable, Mapping
from functools import cache
from itertools import combinations
from math import comb
from pathlib import Path

from morris_pi.errors import MorrisPiError
from morris_pi.rules.board import RINGS, STANDARD, bits, coordinates, point_index
from morris_pi.rules.profiles import Profile, get_profile

DATA_DIR = Path(__file__).with_name("data")
MANIFEST = DATA_DIR / "egtb.json"
MAGIC = b"MPEGTB1\n"
TABLES: tuple[tuple[int, int], ...] = ((3, 3), (3, 4), (4, 3))
#: Per symmetry, the image of each byte of a mask: one 256-entry map per byte of the 24 bits.
ByteMaps = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]


class TableDataError(MorrisPiError, ValueError):
    """An endgame-table file that is missing, corrupt or does not match its manifest."""


def _symmetries() -> tuple[tuple[int, ...], ...]:
    names = [p for ring in RINGS for p in ring]
    dihedral: list[Callable[[int, int], tuple[int, int]]] = []
    for flip in (False, True):
        for turns in range(4):

            def f(x: int, y: int, flip: bool = flip, turns: int = turns) -> tuple[int, int]:
                if flip:
                    x = 6 - x
                for _ in range(turns):
                    x, y = 6 - y, x
                return x, y

            dihedral.append(f)
    by_xy = {coordinates(p): point_index(p) for p in names}
    swap: dict[int, int] = {}
    for k in range(8):
        swap[point_index(RINGS[0][k])] = point_index(RINGS[2][k])
        swap[point_index(RINGS[2][k])] = point_index(RINGS[0][k])
        swap[point_index(RINGS[1][k])] = point_index(RINGS[1][k])
    out = []
    for rings_swapped in (False, True):
        for square in dihedral:
            perm = []
            for p in names:
                j = by_xy[square(*coordinates(p))]
                perm.append(swap[j] if rings_swapped else j)
            out.append(tuple(perm))
    mills = set(STANDARD.mills)
    for image in out:
        assert {_apply(image, m) for m in mills} == mills, "a symmetry must map mills to mills"
    return tuple(out)


def _apply(perm: tuple[int, ...], mask: int) -> int:
    out = 0
    for i in bits(mask):
        out |= 1 << perm[i]
    return out


SYMMETRIES = _symmetries()


@cache
def _byte_maps() -> tuple[ByteMaps, ...]:
    """Per symmetry, three 256-entry maps: the image of each byte of a mask."""
    out = []
    for perm in SYMMETRIES:
        low, middle, high = (tuple(_apply(perm, b << shift) for b in range(256)) for shift in (0, 8, 16))
        out.append((low, middle, high))
    return tuple(out)


def transform(sym: int, mask: int) -> int:
    t0, t1, t2 = _byte_maps()[sym]
    return t0[mask & 255] | t1[(mask >> 8) & 255] | t2[mask >> 16]


@cache
def canonical_sets(k: int) -> tuple[tuple[int, ...], dict[int, tuple[int, int]]]:
    """The canonical ``k``-men masks (sorted) and, for every ``k``-men mask, ``(rep index, symmetry)``."""
    maps = _byte_maps()
    reps: dict[int, int] = {}
    pick: dict[int, tuple[int, int]] = {}
    for combo in combinations(range(24), k):
        mask = 0
        for i in combo:
            mask |= 1 << i
        best, best_sym = 1 << 24, 0  # above every mask: the first image replaces it
        for s, (t0, t1, t2) in enumerate(maps):
            image = t0[mask & 255] | t1[(mask >> 8) & 255] | t2[mask >> 16]
            if image < best:
                best, best_sym = image, s
        pick[mask] = (best, best_sym)
        reps[best] = 1
    ordered = tuple(sorted(reps))
    index = {m: i for i, m in enumerate(ordered)}
    return ordered, {mask: (index[rep], s) for mask, (rep, s) in pick.items()}


def relative_rank(sub: int, taken: int) -> int:
    """Rank of the set ``sub`` among same-size subsets of the points not in ``taken`` (colex order)."""
    rank = 0
    for n, p in enumerate(bits(sub), start=1):
        c = p - (taken & ((1 << p) - 1)).bit_count()
        rank += comb(c, n)
    return rank


def table_size(k: int, j: int) -> int:
    return len(canonical_sets(k)[0]) * comb(24 - k, j)


class EndgameTables:
    """The three tables of one ``all_in_mills`` setting, loaded from bytes.

    ``probe(me, op)`` returns ``None`` for a position the tables do not cover,
    ``0`` for a draw, else ``1 + d`` (``d`` turns to mate; odd wins for the side to move).
    """

    def __init__(
        self,
        tables: dict[tuple[int, int], bytes],
        all_in_mills: str,
        conversion: dict[tuple[int, int], bytes] | None = None,
    ) -> None:
        self.data = tables
        # 3 v 3: every capture ends the game, so conversion and mate coincide
        self.conversion_data = {(3, 3): tables.get((3, 3)), **(conversion or {})}
        self.all_in_mills = all_in_mills
        self._canon = {k: canonical_sets(k) for k in (3, 4)}
        self._per_rep = {(k, j): comb(24 - k, j) for k, j in tables}

    def __repr__(self) -> str:
        def names(tables: Mapping[tuple[int, int], bytes | None]) -> str:
            return " ".join(f"{k}v{j}" for (k, j), data in sorted(tables.items()) if data is not None)

        return (
            f"<EndgameTables all_in_mills={self.all_in_mills} mate=[{names(self.data)}] "
            f"conversion=[{names(self.conversion_data)}]>"
        )

    def probe(self, me: int, op: int) -> int | None:
        return self._lookup(self.data, me, op)

    def conversion(self, me: int, op: int) -> int | None:
        """Like ``probe``, but ``1 + turns`` to the next capture (or the end) instead of to mate."""
        return self._lookup(self.conversion_data, me, op)

    def _lookup(self, tables: Mapping[tuple[int, int], bytes | None], me: int, op: int) -> int | None:
        k, j = me.bit_count(), op.bit_count()
        data = tables.get((k, j))
        if data is None:
            return None
        reps, pick = self._canon[k]
        rep_index, sym = pick[me]
        image = transform(sym, op)
        return data[rep_index * self._per_rep[(k, j)] + relative_rank(image, reps[rep_index])]

    @classmethod
    def load(cls, path: Path, expected_sha256: str | None = None) -> EndgameTables:
        try:
            raw = path.read_bytes()
        except OSError as exc:
            raise TableDataError(f"{path}: cannot read endgame tables: {exc}") from None
        if expected_sha256 is not None and hashlib.sha256(raw).hexdigest() != expected_sha256:
            raise TableDataError(f"{path}: checksum does not match {MANIFEST.name}; rebuild the tables")
        if not raw.startswith(MAGIC):
            raise TableDataError(f"{path}: not an endgame-table file (bad magic)")
        header_end = raw.index(b"\n", len(MAGIC))
        header = json.loads(raw[len(MAGIC) : header_end])
        try:
            payload = lzma.decompress(raw[header_end + 1 :])
        except lzma.LZMAError as exc:
            raise TableDataError(f"{path}: corrupt payload: {exc}") from None
        tables: dict[str, dict[tuple[int, int], bytes]] = {"dtm": {}, "dtc": {}}
        offset = 0
        for entry in header["tables"]:
            k, j, size = entry["men"][0], entry["men"][1], entry["size"]
            if size != table_size(k, j):
                raise TableDataError(f"{path}: table {k}v{j} has {size} entries, expected {table_size(k, j)}")
            tables[entry.get("metric", "dtm")][(k, j)] = payload[offset : offset + size]
            offset += size
        if offset != len(payload):
            raise TableDataError(f"{path}: payload has {len(payload)} bytes, tables need {offset}")
        return cls(tables["dtm"], header["all_in_mills"], tables["dtc"])


def file_name(all_in_mills: str) -> str:
    return f"flying-{all_in_mills}.bin"


def covers(profile: Profile) -> bool:
    """Whether the shipped tables are valid under ``profile`` (see the module docstring)."""
    return profile.geometry == "standard" and profile.flying


@cache
def _load(all_in_mills: str) -> EndgameTables | None:
    try:
        manifest = json.loads(MANIFEST.read_text())
    except (OSError, ValueError):
        return None
    entry = manifest.get("files", {}).get(file_name(all_in_mills))
    if entry is None:
        return None
    return EndgameTables.load(DATA_DIR / file_name(all_in_mills), entry["sha256"])


def tables_for_profile(profile: str | Profile) -> EndgameTables | None:
    """The endgame tables valid under ``profile``, or ``None`` (none apply, or none shipped)."""
    profile = get_profile(profile)
    if not covers(profile):
        return None
    return _load(profile.all_in_mills)
