"""Reading board pictures back in tests: parse the SVG and find what a user would see."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path

from morris_pi.rules import Game

NS = {"svg": "http://www.w3.org/2000/svg"}
GAMES_FILE = Path(__file__).parent / "data" / "render_games.txt"


def real_games() -> dict[str, str]:
    """Profile -> record of the engine's self-play games in ``tests/data/render_games.txt``."""
    games = {}
    for line in GAMES_FILE.read_text().splitlines():
        if line and not line.startswith("#"):
            profile, record = line.split("\t")
            games[profile] = record
    return games


def positions(profile: str) -> list[Game]:
    """Every position of a real game, the empty board first."""
    record = real_games()[profile].split()
    return [Game.from_record(record[:n], profile) for n in range(len(record) + 1)]


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    return root


def by_id(root: ET.Element, ident: str) -> ET.Element | None:
    return root.find(f".//*[@id='{ident}']")


def classes(element: ET.Element) -> set[str]:
    return set(element.get("class", "").split())


def men(root: ET.Element) -> dict[str, str]:
    """Point -> side of every man drawn, read from the point groups."""
    out = {}
    for group in root.iterfind(".//svg:g", NS):
        if "point" in classes(group):
            man = group.find("svg:g", NS)
            if man is not None:
                side = (classes(man) & {"white", "black"}).pop()
                out[group.get("data-point")] = side
    return out


def centre(root: ET.Element, point: str) -> tuple[float, float]:
    hole = by_id(root, f"point-{point}").find("svg:circle", NS)
    return float(hole.get("cx")), float(hole.get("cy"))


def near(a: tuple[float, float], b: tuple[float, float], tolerance: float = 0.02) -> bool:
    return math.dist(a, b) <= tolerance


def polygon(element: ET.Element) -> list[tuple[float, float]]:
    return [tuple(map(float, pair.split(","))) for pair in element.get("points").split()]


def path_points(element: ET.Element) -> list[tuple[float, float]]:
    numbers = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", element.get("d"))]
    return list(zip(numbers[::2], numbers[1::2]))
