"""Board pictures (``morris_pi.render``): what a user sees in the SVG, read back with xml.etree."""

from __future__ import annotations

import math

import pytest
from render_kit import NS, by_id, centre, classes, men, near, parse, path_points, polygon, positions, real_games

from morris_pi.guidance import BLINKS, DEFAULT_PALETTE, ROLES, Frame, Look
from morris_pi.render import DEFAULT_COLORS, board_svg, last_turn_of, led_paint
from morris_pi.rules import Game, Position, Turn


@pytest.mark.parametrize("profile", ["standard", "twelve"])
def test_every_position_of_a_real_game_shows_exactly_its_men(profile):
    for game in positions(profile):
        root = parse(board_svg(game, last_turn=last_turn_of(game)))
        assert root.get("viewBox") == "0 0 492 492"
        assert men(root) == game.board, game.record
        points = [g for g in root.iter("{http://www.w3.org/2000/svg}g") if "point" in classes(g)]
        ring_order = "a7 d7 g7 g4 g1 d1 a1 a4 b6 d6 f6 f4 f2 d2 b2 b4 c5 d5 e5 e4 e3 d3 c3 c4".split()
        assert [g.get("id") for g in points] == [f"point-{p}" for p in ring_order]
        for g in points:
            side = game.board.get(g.get("data-point"), "empty")
            assert classes(g) == {"point", side}


def test_the_same_position_gives_the_same_text():
    game = positions("standard")[30]
    first = board_svg(game, last_turn=last_turn_of(game), leds={"d6": "hint", "a1": "removable"}, size=300)
    again = board_svg(
        Game.from_record(game.record),
        last_turn=str(last_turn_of(game)),
        leds={"a1": "removable", "d6": "hint"},
        size=300,
    )
    assert first == again


def test_the_points_sit_on_the_grid_with_white_at_the_bottom():
    root = parse(board_svg())
    assert centre(root, "a1")[1] > centre(root, "a7")[1]  # rank 1 nearest the viewer
    assert centre(root, "g1")[0] > centre(root, "a1")[0]
    # the same spacing everywhere: neighbouring grid positions one step apart
    (ax, ay), (bx, by), (dx, _) = centre(root, "a7"), centre(root, "b6"), centre(root, "d7")
    assert bx - ax == by - ay == 60 and dx - ax == 180


def test_flipped_is_the_board_seen_from_blacks_side():
    plain, flipped = parse(board_svg(size=400)), parse(board_svg(size=400, flipped=True))
    size = 492
    for point in ("a1", "d6", "g7", "c3"):
        x, y = centre(plain, point)
        assert centre(flipped, point) == (size - x, size - y)
    files = [t.text for t in flipped.iterfind(".//svg:text", NS) if "coord" in classes(t) and t.text.isalpha()]
    xs = {t.text: float(t.get("x")) for t in flipped.iterfind(".//svg:text", NS) if t.text in files}
    assert sorted(files, key=xs.get) == list("gfedcba")
    assert "flipped" in classes(flipped)


def test_labels_name_every_file_and_rank_beside_its_points():
    root = parse(board_svg())
    texts = {t.text: t for t in root.iterfind(".//svg:text", NS) if "coord" in classes(t)}
    assert sorted(texts) == list("1234567abcdefg")
    one_point = dict(
        zip(
            "abcdefg1234567",
            ["a1", "b2", "c3", "d1", "e3", "f2", "g1", "a1", "b2", "c3", "a4", "c5", "b6", "a7"],
            strict=True,
        )
    )
    for label, point in one_point.items():
        x, y = centre(root, point)
        if label.isalpha():
            assert float(texts[label].get("x")) == x and float(texts[label].get("y")) > centre(root, "a1")[1]
        else:  # the baseline sits a little below the point's centre, so the glyph is centred on it
            assert 0 < float(texts[label].get("y")) - y < 10 and float(texts[label].get("x")) < centre(root, "a1")[0]
    plain = parse(board_svg(coordinates=False))
    assert not [t for t in plain.iterfind(".//svg:text", NS)]
    assert plain.get("viewBox") == "0 0 444 444"


def test_light_men_have_a_dark_outline():
    root = parse(board_svg({"d6": "white", "d2": "black"}))
    white = by_id(root, "point-d6").find("svg:g/svg:circle", NS)
    assert white.get("fill") == DEFAULT_COLORS["white man"]
    outline = white.get("stroke")
    luminance = sum(int(outline[i : i + 2], 16) for i in (1, 3, 5)) / 3
    assert luminance < 80 and float(white.get("stroke-width")) >= 2


def test_a_move_with_a_removal_shows_its_path_and_crosses_out_the_removed_man():
    record = real_games()["standard"].split()
    number = record.index("g4-g7xd1") + 1
    game = Game.from_record(record[:number])
    root = parse(board_svg(game, last_turn=last_turn_of(game)))
    last = root.find(".//svg:g[@class='last-turn']", NS)
    assert last.get("data-turn") == "g4-g7xd1" and last.get("pointer-events") == "none"
    origin = last.find("svg:circle[@class='origin']", NS)
    assert near((float(origin.get("cx")), float(origin.get("cy"))), centre(root, "g4"))
    # the arrow runs from g4 towards g7 and its head points at g7
    line = last.find("svg:g[@class='arrow']/svg:line", NS)
    head = polygon(last.find("svg:g[@class='arrow']/svg:polygon", NS))
    g4, g7 = centre(root, "g4"), centre(root, "g7")
    assert float(line.get("x1")) == float(line.get("x2")) == g4[0] == g7[0]
    assert g4[1] > float(line.get("y1")) > float(line.get("y2")) > g7[1]
    tip = min(head, key=lambda p: math.dist(p, g7))
    assert math.dist(tip, g7) < 25 and all(math.dist(p, g7) >= math.dist(tip, g7) for p in head)
    target = last.find("svg:circle[@class='target']", NS)
    assert near((float(target.get("cx")), float(target.get("cy"))), g7)
    # the removed man's point is empty, and a cross is centred on it
    assert "d1" not in game.board
    cross = last.find("svg:g[@class='removed']", NS)
    ends = path_points(cross.find("svg:path", NS))
    mid = (sum(x for x, _ in ends) / 4, sum(y for _, y in ends) / 4)
    assert near(mid, centre(root, "d1"))
    assert cross.findall("svg:path", NS)[-1].get("stroke") == DEFAULT_COLORS["removed"]


def test_a_placement_is_marked_on_its_man_without_a_path():
    game = Game.from_record("c5 f2 d7 c3 d5 f4 d6xf2")
    root = parse(board_svg(game, last_turn=last_turn_of(game)))
    last = root.find(".//svg:g[@class='last-turn']", NS)
    mark = last.find("svg:circle[@class='placement']", NS)
    assert near((float(mark.get("cx")), float(mark.get("cy"))), centre(root, "d6"))
    assert last.find("svg:g[@class='arrow']", NS) is None
    assert last.find("svg:g[@class='removed']", NS) is not None


def test_a_pending_step_is_the_last_turn_until_its_removal():
    game = Game.from_record("d6 a1 f6 a4 b6")
    assert last_turn_of(game) == Turn("b6")
    root = parse(board_svg(game, last_turn=last_turn_of(game)))
    assert men(root)["b6"] == "white"  # the pending man stands on the board
    assert root.find(".//svg:g[@class='removed']", NS) is None
    assert "b6 closed a mill and waits for its removal" in root.find("svg:title", NS).text


def test_no_last_turn_is_drawn_unless_asked():
    game = positions("standard")[10]
    assert parse(board_svg(game)).find(".//svg:g[@class='last-turn']", NS) is None


@pytest.mark.parametrize("role", ROLES)
def test_led_rings_are_the_palette_colour_of_their_role(role):
    root = parse(board_svg(leds={"d6": role, "a1": "legal-target"}))
    led = by_id(root, "led-d6")
    look = DEFAULT_PALETTE[role]
    assert classes(led) == {"led", f"role-{role}", f"blink-{look.blink}"}
    assert led.get("data-role") == role
    light = led.findall("svg:circle", NS)[-1]
    hue, level = led_paint(look.colour)
    assert light.get("stroke") == hue
    assert float(light.get("stroke-opacity")) == pytest.approx(level, abs=0.01)
    # the hue at full strength times the opacity is the LED's colour
    rgb = [int(hue[i : i + 2], 16) * float(light.get("stroke-opacity")) for i in (1, 3, 5)]
    assert rgb == pytest.approx(look.colour, abs=2)
    x, y = float(light.get("cx")), float(light.get("cy"))
    assert (x, y) == centre(root, "d6")
    assert by_id(root, "led-a1") is not None and by_id(root, "led-b6") is None


def test_a_configured_palette_colours_the_rings():
    palette = dict(DEFAULT_PALETTE, removable=Look((0, 255, 0), "fast"))
    led = by_id(parse(board_svg(leds={"a4": "removable"}, palette=palette)), "led-a4")
    assert led.findall("svg:circle", NS)[-1].get("stroke") == "#00ff00"
    assert "blink-fast" in classes(led)


def test_leds_beside_the_points_sit_where_the_boards_led_holes_are():
    root = parse(board_svg(leds={"d6": "hint"}, led_style="beside"))
    led = by_id(root, "led-d6").findall("svg:circle", NS)[-1]
    x, y = float(led.get("cx")), float(led.get("cy"))
    px, py = centre(root, "d6")
    assert x > px and y < py and x - px == pytest.approx(py - y)  # up and to the right
    assert len(root.find(".//svg:g[@class='led-holes']", NS)) == 24
    flipped = parse(board_svg(leds={"d6": "hint"}, led_style="beside", flipped=True))
    fx, fy = (float(v) for v in (by_id(flipped, "led-d6").findall("svg:circle", NS)[-1].get(k) for k in ("cx", "cy")))
    qx, qy = centre(flipped, "d6")
    assert fx < qx and fy > qy  # seen from the other side, the same hole is down and left


def test_status_leds_of_a_frame_show_in_the_corners():
    frame = Frame({"a1": "removable"}, {"white-to-move": "to-move"})
    root = parse(board_svg(leds=frame))
    lit, dark = by_id(root, "status-white-to-move"), by_id(root, "status-black-to-move")
    assert "role-to-move" in classes(lit) and "role-to-move" not in classes(dark)
    x, y = (float(lit.find("svg:circle", NS).get(k)) for k in ("cx", "cy"))
    assert x > 400 and y > 400  # white's corner is on white's side
    assert lit.find("svg:circle", NS).get("fill") == led_paint(DEFAULT_PALETTE["to-move"].colour)[0]
    assert by_id(parse(board_svg(leds={"a1": "removable"})), "status-error") is None


def test_blinking_roles_can_be_animated_with_the_guidance_timing():
    svg = board_svg(leds={"a1": "removable", "d6": "computer-from", "d2": "legal-target"}, animate=True)
    css = parse(svg).find("svg:style", NS).text
    assert f".blink-pulse{{animation:morris-pulse {BLINKS['pulse'][0]:g}s" in css
    assert f".blink-slow{{animation:morris-slow {BLINKS['slow'][0]:g}s" in css
    assert "blink-steady" not in css
    assert parse(board_svg(leds={"a1": "removable"})).find("svg:style", NS) is None


def test_twelve_draws_its_four_diagonals():
    def lines(root):
        return [line for line in root.iterfind(".//svg:line", NS) if "line" in classes(line)]

    standard = parse(board_svg(Game()))
    twelve = parse(board_svg(Game(profile="twelve")))
    assert len(lines(standard)) == 32 and not [x for x in lines(standard) if "diagonal" in classes(x)]
    diagonals = [x for x in lines(twelve) if "diagonal" in classes(x)]
    assert len(lines(twelve)) == 40 and len(diagonals) == 8
    for line in diagonals:
        dx = float(line.get("x2")) - float(line.get("x1"))
        dy = float(line.get("y2")) - float(line.get("y1"))
        assert abs(dx) == abs(dy) == 60
    ends = {(float(x.get("x1")), float(x.get("y1"))) for x in diagonals}
    assert centre(twelve, "a7") in ends | {(float(x.get("x2")), float(x.get("y2"))) for x in diagonals}
    # a board given as men alone draws the profile asked for
    assert "profile-twelve" in classes(parse(board_svg({"d6": "white"}, profile="twelve")))


def test_a_position_and_a_plain_board_draw_the_same_men_as_the_game():
    game = positions("standard")[25]
    from_game = men(parse(board_svg(game)))
    assert men(parse(board_svg(game.position))) == from_game
    assert men(parse(board_svg(dict(game.board)))) == from_game
    assert isinstance(game.position, Position)


def test_ids_can_be_prefixed_for_several_boards_on_one_page():
    page = [parse(board_svg(positions("standard")[n], leds={"d6": "hint"}, id_prefix=f"b{n}-")) for n in (3, 4)]
    ids = [e.get("id") for root in page for e in root.iter() if e.get("id")]
    assert len(ids) == len(set(ids)) == 2 * 25
    assert by_id(page[0], "b3-point-d6") is not None and by_id(page[0], "b3-led-d6") is not None


def test_size_sets_the_pixels_and_none_leaves_the_picture_fluid():
    sized = parse(board_svg(size=320))
    assert (sized.get("width"), sized.get("height")) == ("320", "320")
    fluid = parse(board_svg())
    assert fluid.get("width") is None and fluid.get("viewBox") == "0 0 492 492"


def test_colours_and_a_stylesheet_can_be_given():
    root = parse(board_svg({"d6": "black"}, colors={"black man": "#112233"}, style=".point:hover{opacity:.8}"))
    assert by_id(root, "point-d6").find("svg:g/svg:circle", NS).get("fill") == "#112233"
    assert root.find("svg:style", NS).text == ".point:hover{opacity:.8}"


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"leds": {"d6": "sparkle"}}, "unknown LED role 'sparkle' at d6"),
        ({"leds": {"h9": "hint"}}, "LED at 'h9', which is not a point"),
        ({"leds": Frame({}, {"blue-to-move": "to-move"})}, "unknown status LED 'blue-to-move'"),
        ({"position": {"d6": "red"}}, "the man on d6 is 'red'"),
        ({"position": {"x1": "white"}}, "'x1' is not a point"),
        ({"last_turn": "d6-d8"}, "not a turn"),
        ({"size": 0}, "size must be a whole number of pixels above 0"),
        ({"led_style": "under"}, "led_style must be 'ring' or 'beside'"),
        ({"colors": {"wodo": "#000"}}, "unknown colour name(s) wodo"),
        ({"profile": "thirteen"}, "thirteen"),
    ],
)
def test_bad_input_names_what_is_wrong(kwargs, message):
    position = kwargs.pop("position", None)
    with pytest.raises(ValueError) as info:
        board_svg(position, **kwargs)
    assert message in str(info.value)


def test_a_finished_game_says_so_in_its_title():
    game = positions("twelve")[-1]
    title = parse(board_svg(game)).find("svg:title", NS).text
    assert title.startswith("twelve: black wins (fewer-than-three)")


def test_the_renderer_imports_only_the_rules_the_guidance_and_the_error_root():
    """Floor 2 beside the tracker: no board, engine, pygame or third-party code at import."""
    import ast
    import sys
    from pathlib import Path

    import morris_pi.render as package

    allowed = ("morris_pi.rules", "morris_pi.guidance", "morris_pi.errors")
    for path in Path(package.__file__).parent.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                ours = name.startswith(allowed)
                lazy = path.name == "png.py" and name == "cairosvg"  # imported only when a PNG is asked for
                assert ours or lazy or top in sys.stdlib_module_names, f"{path.name} imports {name}"
