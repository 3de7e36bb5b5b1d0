"""The board: 24 named points, the lines between them, and the mills.

Points are indexed in ring order (outer, middle, inner; each ring clockwise from
its top-left corner), which is also the order of the LED chain's default map.
A point's name is its coordinate: file ``a``-``g`` is x 0-6, rank ``1``-``7``
is y 0-6, so drawings and drilling templates derive positions from the names.

>>> POINTS[:3]
('a7', 'd7', 'g7')
>>> STANDARD.are_adjacent('a4', 'b4'), STANDARD.are_adjacent('a7', 'b6')
(True, False)
>>> DIAGONAL.are_adjacent('a7', 'b6')
True
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property

RINGS: tuple[tuple[str, ...], ...] = (
    ("a7", "d7", "g7", "g4", "g1", "d1", "a1", "a4"),
    ("b6", "d6", "f6", "f4", "f2", "d2", "b2", "b4"),
    ("c5", "d5", "e5", "e4", "e3", "d3", "c3", "c4"),
)
POINTS: tuple[str, ...] = tuple(p for ring in RINGS for p in ring)
INDEX: dict[str, int] = {p: i for i, p in enumerate(POINTS)}
FULL = (1 << len(POINTS)) - 1
#: The index of each side in a position's pairs of bitboards and hands.
WHITE, BLACK = 0, 1

SPOKES: tuple[tuple[str, str, str], ...] = (
    ("a4", "b4", "c4"),
    ("d7", "d6", "d5"),
    ("e4", "f4", "g4"),
    ("d1", "d2", "d3"),
)
DIAGONALS: tuple[tuple[str, str, str], ...] = (
    ("a7", "b6", "c5"),
    ("g7", "f6", "e5"),
    ("g1", "f2", "e3"),
    ("a1", "b2", "c3"),
)


def _ring_sides() -> list[tuple[str, str, str]]:
    sides = []
    for ring in RINGS:
        for corner in range(0, 8, 2):
            sides.append((ring[corner], ring[corner + 1], ring[(corner + 2) % 8]))
    return sides


def point_index(name: str) -> int:
    """Index of a point by name; ``ValueError`` names an unknown point.

    >>> point_index("d6")
    9
    """
    try:
        return INDEX[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown point {name!r}: points are {', '.join(POINTS)}") from None


def coordinates(name: str) -> tuple[int, int]:
    """Grid position (x, y) of a point, each 0-6, origin at a1.

    >>> coordinates("a1"), coordinates("g7"), coordinates("d5")
    ((0, 0), (6, 6), (3, 4))
    """
    point_index(name)
    return ord(name[0]) - ord("a"), int(name[1]) - 1


def bits(mask: int) -> tuple[int, ...]:
    """Indices of the set bits of a 24-bit mask, ascending."""
    return _LOW[mask & 0xFFF] + _HIGH[mask >> 12]


_LOW: tuple[tuple[int, ...], ...] = tuple(tuple(i for i in range(12) if m >> i & 1) for m in range(4096))
_HIGH: tuple[tuple[int, ...], ...] = tuple(tuple(i + 12 for i in range(12) if m >> i & 1) for m in range(4096))


def mask_of(points: Iterable[str]) -> int:
    m = 0
    for p in points:
        m |= 1 << point_index(p)
    return m


def names_of(mask: int) -> list[str]:
    return [POINTS[i] for i in bits(mask)]


@dataclass(frozen=True)
class Geometry:
    """Lines of a board: which points are adjacent and which triples are mills."""

    name: str
    lines: tuple[tuple[str, str, str], ...] = field(repr=False)

    @cached_property
    def mills(self) -> tuple[int, ...]:
        """Each mill as a bitmask of its three points."""
        return tuple(mask_of(line) for line in self.lines)

    @cached_property
    def adjacency(self) -> tuple[int, ...]:
        """For each point index, the bitmask of its neighbours."""
        adj = [0] * len(POINTS)
        for a, b, c in self.lines:
            for x, y in ((a, b), (b, c)):
                adj[INDEX[x]] |= 1 << INDEX[y]
                adj[INDEX[y]] |= 1 << INDEX[x]
        return tuple(adj)

    @cached_property
    def mill_partners(self) -> tuple[tuple[int, ...], ...]:
        """For each point, the masks of the other two points of every mill through it.

        A man arriving on point ``i`` closes a mill iff ``own & pair == pair`` for one
        of these pairs, where ``own`` excludes the point it came from.
        """
        return tuple(tuple(m & ~(1 << i) for m in self.mills if m >> i & 1) for i in range(len(POINTS)))

    def are_adjacent(self, a: str, b: str) -> bool:
        return bool(self.adjacency[point_index(a)] >> point_index(b) & 1)

    def neighbours(self, point: str) -> list[str]:
        return names_of(self.adjacency[point_index(point)])

    def mills_through(self, point: str) -> list[tuple[str, str, str]]:
        return [line for line in self.lines if point in line]


STANDARD = Geometry("standard", tuple(_ring_sides()) + SPOKES)
DIAGONAL = Geometry("diagonal", STANDARD.lines + DIAGONALS)
GEOMETRIES: dict[str, Geometry] = {g.name: g for g in (STANDARD, DIAGONAL)}
