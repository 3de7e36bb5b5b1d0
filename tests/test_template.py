"""The drilling template: a valid SVG, true to size, with a drill mark on every point."""

from __future__ import annotations

import argparse
import io
import math
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from morris_pi.commands import template as template_cmd
from morris_pi.rules import POINTS
from morris_pi.template import TemplateError, TemplateSpec, parse_length, render_svg

SVG = "{http://www.w3.org/2000/svg}"
REPO = Path(__file__).resolve().parents[1]


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg.encode())


def circles(root: ET.Element, cls: str) -> dict[str, tuple[float, float, float]]:
    found = {}
    for c in root.iter(f"{SVG}circle"):
        if c.get("class") == cls:
            found[c.get("id").split("-", 1)[1]] = (float(c.get("cx")), float(c.get("cy")), float(c.get("r")))
    return found


def expected_centre(name: str, size: float, margin: float) -> tuple[float, float]:
    step = (size - 2 * margin) / 6
    x = margin + (ord(name[0]) - ord("a")) * step
    y = margin + (7 - int(name[1])) * step  # rank 7 at the top
    return x, y


@pytest.mark.parametrize("size", [300.0, 400.0, 520.0])
def test_24_reed_holes_at_the_right_places(size):
    root = parse(render_svg(TemplateSpec(size=size)))
    reeds = circles(root, "reed")
    assert sorted(reeds) == sorted(POINTS)
    for name, (cx, cy, r) in reeds.items():
        ex, ey = expected_centre(name, size, size / 10)
        assert (cx, cy) == pytest.approx((ex, ey), abs=0.01), name
        assert r == 1.5


def test_corner_and_centre_points_for_a_400mm_board():
    reeds = circles(parse(render_svg(TemplateSpec(size=400))), "reed")
    assert reeds["a7"][:2] == (40, 40)
    assert reeds["g1"][:2] == (360, 360)
    assert reeds["d5"][:2] == pytest.approx((200, 146.67), abs=0.01)
    assert reeds["a1"][0] == 40 and reeds["d7"][0] == 200


def test_document_is_true_to_size_in_millimetres():
    root = parse(render_svg(TemplateSpec(size=400)))
    assert root.get("width") == "400mm"
    width, height = float(root.get("width")[:-2]), float(root.get("height")[:-2])
    assert root.get("viewBox") == f"0 0 {width:g} {height:g}"  # one user unit is one millimetre
    assert height > 400  # room for the scale bar below the board
    board = next(r for r in root.iter(f"{SVG}rect") if r.get("class") == "board")
    assert (board.get("width"), board.get("height")) == ("400", "400")


def test_scale_bar_is_100mm_with_10mm_ticks():
    root = parse(render_svg(TemplateSpec(size=400)))
    bar = next(g for g in root.iter(f"{SVG}g") if g.get("id") == "scale-bar")
    assert bar.get("data-length-mm") == "100"
    path = bar.find(f"{SVG}path").get("d")
    assert path.startswith("M10 410H110")  # 10 mm below the board
    assert path.count("V") == 11  # ticks at 0, 10, ... 100 mm
    texts = [t.text for t in bar.iter(f"{SVG}text")]
    assert texts == ["0", "100 mm"]


def test_lines_join_the_points_and_labels_name_them():
    root = parse(render_svg(TemplateSpec(size=400)))
    lines = [el for el in root.iter(f"{SVG}line") if el.get("class") == "line"]
    assert len(lines) == 16  # 12 square sides and 4 spokes, each drawn end to end
    labels = {t.text for t in root.iter(f"{SVG}text")}
    assert set(POINTS) <= labels


def test_led_holes_sit_diagonally_off_each_point_clear_of_the_man():
    spec = TemplateSpec(size=400, led_offset=18, led_hole=5, man_diameter=28)
    root = parse(render_svg(spec))
    reeds, leds = circles(root, "reed"), circles(root, "led")
    assert sorted(leds) == sorted(POINTS)
    for name in POINTS:
        (rx, ry, _), (lx, ly, lr) = reeds[name], leds[name]
        assert math.hypot(lx - rx, ly - ry) == pytest.approx(18, abs=0.02)
        assert lx > rx and ly < ry  # up and to the right
        assert lr == 2.5


def test_hole_sizes_are_parameters():
    root = parse(render_svg(TemplateSpec(size=400, reed_hole=4.2, led_hole=8)))
    assert {r for *_, r in circles(root, "reed").values()} == {2.1}
    assert {r for *_, r in circles(root, "led").values()} == {4}


def test_underside_is_mirrored_left_to_right():
    top = circles(parse(render_svg(TemplateSpec(size=400))), "reed")
    under = circles(parse(render_svg(TemplateSpec(size=400, underside=True))), "reed")
    for name in POINTS:
        assert under[name][0] == pytest.approx(400 - top[name][0], abs=0.01)
        assert under[name][1] == top[name][1]


@pytest.mark.parametrize(
    "text, mm",
    [("400mm", 400), ("400", 400), ("40cm", 400), ("16in", 406.4), (" 350 MM ", 350), ("400.5mm", 400.5)],
)
def test_lengths_in_units(text, mm):
    assert parse_length(text) == pytest.approx(mm)


@pytest.mark.parametrize(
    "text, message",
    [
        ("-3mm", "board size must be greater than zero, not '-3mm'"),
        ("0", "board size must be greater than zero"),
        ("abc", "board size 'abc' is not a length: write e.g. 400mm, 40cm, 16in"),
        ("400m", "is not a length"),
        ("", "is not a length"),
        ("nanmm", "must be a finite length"),
    ],
)
def test_bad_lengths_are_clear_errors(text, message):
    with pytest.raises(TemplateError, match=message):
        parse_length(text)


@pytest.mark.parametrize(
    "spec, message",
    [
        (dict(size=50), "board size 50 mm is out of range: 100 to 2000 mm"),
        (dict(size=5000), "out of range"),
        (dict(size=400, margin=250), "margin 250 mm must be at least 0 and less than half"),
        (dict(size=400, margin=5), "margin 5 mm is too small: the LED holes of the outer corners fall off"),
        (dict(size=400, led_offset=3), "LED offset 3 mm is too small: the LED hole .* would run into the reed hole"),
        (dict(size=200), "would cut the line|too close to point"),
        (dict(size=300, led_offset=24), "the LED hole of .* is too close to point"),
        (dict(size=400, reed_hole=-1), "reed hole must be a positive length"),
    ],
)
def test_layouts_that_do_not_fit_are_refused(spec, message):
    with pytest.raises(TemplateError, match=message):
        TemplateSpec(**spec)


def run_cli(argv):
    parser = argparse.ArgumentParser(prog="morris-pi")
    template_cmd.register(parser.add_subparsers(dest="command"))
    out, err = io.StringIO(), io.StringIO()
    code = template_cmd.run(parser.parse_args(["template", *argv]), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def test_cli_writes_the_file(tmp_path):
    dest = tmp_path / "t.svg"
    code, out, err = run_cli(["--size", "40cm", "--out", str(dest)])
    assert code == 0 and out == ""
    assert "points 53.33 mm apart" in err
    assert parse(dest.read_text()).get("width") == "400mm"


def test_cli_to_stdout_with_options():
    code, out, _ = run_cli(["--size", "500", "--reed-hole", "4mm", "--led-offset", "20mm"])
    assert code == 0
    assert {r for *_, r in circles(parse(out), "reed").values()} == {2}


@pytest.mark.parametrize("size", ["-3mm", "abc"])
def test_cli_bad_size_is_a_clear_error(size, tmp_path):
    code, out, err = run_cli([f"--size={size}", "--out", str(tmp_path / "x.svg")])
    assert code == 2 and out == ""
    assert err.startswith("morris-pi template: error: board size")
    assert not (tmp_path / "x.svg").exists()


def test_committed_template_is_what_the_generator_makes():
    committed = (REPO / "hardware" / "drilling-template-400mm.svg").read_text()
    assert committed == render_svg(TemplateSpec(size=400)), (
        "regenerate it: morris-pi template --size 400mm --out hardware/drilling-template-400mm.svg"
    )
