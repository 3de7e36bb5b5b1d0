"""Board pictures as SVG: the board, its labels, the men, the last turn and the LEDs.

``board_svg`` returns the text of one self-contained SVG image, built with the
standard library's ``xml.etree`` and nothing else, so the same picture serves
the docs, the command line and a web page that embeds it inline.

For a page the picture is addressable: each point is a group
``<g id="point-d6" class="point white" data-point="d6">`` holding the hole, an
invisible hit circle and the man; LED rings are ``<g id="led-d6" class="led
role-removable blink-pulse">``; overlays (the last turn, the LEDs) ignore the
pointer, so clicks reach the points. ``id_prefix`` keeps ids unique when a page
shows several boards, and every colour can be overridden with ``colors``.

>>> from morris_pi.rules import Game
>>> game = Game.from_record("d6 a1 f6 a4 b6xa1")
>>> svg = board_svg(game, last_turn=last_turn_of(game), size=300)
>>> svg.startswith('<svg xmlns="http://www.w3.org/2000/svg"')
True
>>> 'id="point-d6" class="point white"' in svg, 'class="removed"' in svg
(True, True)
>>> svg == board_svg(game, last_turn=last_turn_of(game), size=300)  # the same input, the same text
True
"""

from __future__ import annotations

import itertools
import math
import xml.etree.ElementTree as ET
from collections.abc import Mapping

from morris_pi.guidance import BLINKS, DEFAULT_PALETTE, Frame, Look
from morris_pi.rules import POINTS, Game, Geometry, Position, Profile, Turn, get_profile
from morris_pi.rules.board import names_of

from .layout import MAN_RADIUS, RING_RADIUS, STEP, Layout, Pos

SVG_NS = "http://www.w3.org/2000/svg"
SIDES = ("white", "black")

#: Every colour of the picture by name; ``board_svg(colors=...)`` overrides any of them.
#: The wood and lines are the simulator's; light men get a dark outline so they
#: stand out on light wood and on paper.
DEFAULT_COLORS: dict[str, str] = {
    "wood": "#c49660",
    "wood edge": "#784c2c",
    "line": "#3a2414",
    "hole": "#1e140c",
    "coord": "#3a2414",
    "white man": "#f4ede0",
    "white man outline": "#2e241a",
    "white man ring": "#d6cbb6",
    "black man": "#2c2826",
    "black man outline": "#000000",
    "black man ring": "#4a4440",
    "last turn": "#1565c0",
    "removed": "#d84315",
    "removed halo": "#ffffff",
    "led halo": "#000000",
    "status off": "#3a2e26",
}

#: Corner of the rim for each status LED, seen from white's side (mirrored when flipped).
STATUS_CORNERS: dict[str, str] = {
    "error": "top-left",
    "black-to-move": "top-right",
    "white-to-move": "bottom-right",
}
_FLIPPED_CORNER = {"top-left": "bottom-left", "top-right": "bottom-right", "bottom-right": "top-right"}
STATUS_LABELS = {"error": "!", "black-to-move": "B", "white-to-move": "W"}

Board = Mapping[str, str]


def _num(value: float) -> str:
    """A coordinate as short, stable text: two decimals at most, no trailing zeros."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _hex(rgb: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def led_paint(colour: tuple[int, int, int]) -> tuple[str, float]:
    """An LED colour as a hue at full strength and an opacity, as the simulator glows.

    A dim white LED is faint white light, not grey paint.

    >>> led_paint((255, 140, 0)), led_paint((40, 40, 40))
    (('#ff8c00', 1.0), ('#ffffff', 0.157))
    """
    peak = max(colour)
    if peak <= 0:
        return "#000000", 0.0
    r, g, b = colour
    return _hex((round(r * 255 / peak), round(g * 255 / peak), round(b * 255 / peak))), round(peak / 255, 3)


def last_turn_of(game: Game) -> Turn | None:
    """The turn a picture of ``game`` should show as the last: the pending step, else the last turn.

    >>> last_turn_of(Game.from_record("d6 a1 f6 a4 b6")), last_turn_of(Game())
    (Turn('b6'), None)
    """
    if game.pending is not None:
        return game.pending
    return game.history[-1] if game.history else None


def _board_of(position: Game | Position | Board | None) -> tuple[dict[str, str], Profile | None]:
    if position is None:
        return {}, None
    if isinstance(position, Game):
        return position.board, position.profile
    if isinstance(position, Position):
        board = {p: "white" for p in names_of(position.men[0])}
        board.update({p: "black" for p in names_of(position.men[1])})
        return board, position.profile
    if isinstance(position, Mapping):
        board = {}
        for point, side in position.items():
            if point not in POINTS:
                raise ValueError(f"board picture: {point!r} is not a point; points are {', '.join(POINTS)}")
            if side not in SIDES:
                raise ValueError(f"board picture: the man on {point} is {side!r}; men are 'white' or 'black'")
            board[point] = side
        return board, None
    raise TypeError(
        f"board picture: expected a Game, a Position or a point -> side mapping, got {type(position).__name__}"
    )


def _title_of(position: Game | Position | Board | None) -> str | None:
    if isinstance(position, Game):
        hand = position.in_hand
        state = str(position.outcome) if position.outcome else f"{position.turn} to move"
        if position.pending is not None:
            state += f", {position.pending} closed a mill and waits for its removal"
        return f"{position.profile.name}: {state}; in hand: white {hand['white']}, black {hand['black']}"
    if isinstance(position, Position):
        return (
            f"{position.profile.name}: {SIDES[position.side]} to move; "
            f"in hand: white {position.hand[0]}, black {position.hand[1]}"
        )
    return None


def _roles_of(leds: Frame | Mapping[str, str] | None) -> tuple[dict[str, str], dict[str, str]]:
    if leds is None:
        return {}, {}
    if isinstance(leds, Frame):
        points, status = dict(leds.points), dict(leds.status)
    elif isinstance(leds, Mapping):
        points, status = dict(leds), {}
    else:
        raise TypeError(
            f"board picture: leds must be a guidance Frame or a point -> role mapping, got {type(leds).__name__}"
        )
    for point in points:
        if point not in POINTS:
            raise ValueError(f"board picture: LED at {point!r}, which is not a point; points are {', '.join(POINTS)}")
    for name in status:
        if name not in STATUS_CORNERS:
            raise ValueError(f"board picture: unknown status LED {name!r}; status LEDs are {', '.join(STATUS_CORNERS)}")
    return points, status


def _check_roles(roles: Mapping[str, str], palette: Mapping[str, Look]) -> None:
    for where, role in roles.items():
        if role not in palette:
            raise ValueError(f"board picture: unknown LED role {role!r} at {where}; roles are {', '.join(palette)}")


def _sub(parent: ET.Element, tag: str, **attrs: object) -> ET.Element:
    """A child element; attribute names use ``_`` for ``-`` and ``class_`` for ``class``."""
    clean = {}
    for key, value in attrs.items():
        if value is None:
            continue
        name = "class" if key == "class_" else key.replace("_", "-")
        clean[name] = _num(value) if isinstance(value, float) else str(value)
    return ET.SubElement(parent, tag, clean)


def board_svg(
    position: Game | Position | Board | None = None,
    *,
    last_turn: Turn | str | None = None,
    leds: Frame | Mapping[str, str] | None = None,
    size: int | None = None,
    coordinates: bool = True,
    flipped: bool = False,
    profile: str | Profile | None = None,
    palette: Mapping[str, Look] = DEFAULT_PALETTE,
    led_style: str = "ring",
    animate: bool = False,
    colors: Mapping[str, str] | None = None,
    id_prefix: str = "",
    title: str | None = None,
    style: str | None = None,
) -> str:
    """The board as the text of an SVG image.

    :param position: a ``Game`` (its board, a pending step applied), a ``Position``,
        a mapping of point to ``"white"``/``"black"``, or ``None`` for the empty board.
    :param last_turn: the turn to show as just played: a move's path as an arrow from
        origin to target, a placement's target marked, a removed man crossed out.
        ``last_turn_of(game)`` gives the usual one; ``None`` shows none.
    :param leds: what the LEDs show: a guidance ``Frame`` (its status LEDs appear
        in the corners) or a mapping of point to role, drawn in ``palette``'s colours.
        Blinking roles carry the class ``blink-<pattern>``.
    :param size: width and height in pixels; ``None`` leaves them out so the picture
        fills its container (the viewBox keeps it square).
    :param coordinates: the ``a``-``g`` and ``1``-``7`` labels on the rim.
    :param flipped: seen from black's side, rank 7 nearest.
    :param profile: the rule profile whose lines to draw (twelve's diagonals); default:
        the game's or position's own, else ``standard``.
    :param led_style: ``"ring"`` around the point, or ``"beside"`` it where the real
        board's LED hole is.
    :param animate: embed CSS that blinks the LEDs in their patterns.
    :param colors: overrides of ``DEFAULT_COLORS`` by name.
    :param id_prefix: put before every id, for several boards on one page.
    :param title: the picture's ``<title>`` (a tooltip, and what a screen reader says);
        default: who is to move and the men in hand, for a game or a position.
    :param style: a CSS stylesheet to embed.

    >>> svg = board_svg({"d6": "white", "a1": "black"}, leds={"d6": "removable"}, profile="twelve")
    >>> 'class="line diagonal"' in svg, 'class="led role-removable blink-pulse"' in svg
    (True, True)
    >>> board_svg(leds={"d6": "sparkle"})
    Traceback (most recent call last):
    ...
    ValueError: board picture: unknown LED role 'sparkle' at d6; roles are error, missing, extra, protected, lifted, \
computer-remove, computer-from, computer-to, removable, legal-target, target-good, target-doubtful, \
target-losing, blunder, hint, mill, winner, last-move, menu-option, menu-choice, confirm, low-time, to-move, \
setup-white, setup-black
    """
    board, own_profile = _board_of(position)
    rules = get_profile(profile) if profile is not None else own_profile or get_profile("standard")
    geometry = rules.board
    turn = Turn.parse(last_turn) if isinstance(last_turn, str) else last_turn
    if turn is not None and not isinstance(turn, Turn):
        raise TypeError(f"board picture: last_turn must be a Turn or text like 'a1-a4xg7', got {turn!r}")
    point_roles, status_roles = _roles_of(leds)
    _check_roles(point_roles, palette)
    _check_roles(status_roles, palette)
    if led_style not in ("ring", "beside"):
        raise ValueError(f"board picture: led_style must be 'ring' or 'beside', not {led_style!r}")
    if size is not None and (isinstance(size, bool) or not isinstance(size, int) or size <= 0):
        raise ValueError(f"board picture: size must be a whole number of pixels above 0, not {size!r}")
    unknown = set(colors or ()) - set(DEFAULT_COLORS)
    if unknown:
        raise ValueError(
            f"board picture: unknown colour name(s) {', '.join(sorted(unknown))}; names are {', '.join(DEFAULT_COLORS)}"
        )
    paint = {**DEFAULT_COLORS, **(colors or {})}
    lay = Layout.compute(coordinates=coordinates, flipped=flipped)

    svg = ET.Element(
        "svg",
        {
            "xmlns": SVG_NS,
            "viewBox": f"0 0 {_num(lay.size)} {_num(lay.size)}",
            "class": f"morris-board profile-{rules.name}" + (" flipped" if flipped else ""),
        },
    )
    if size is not None:
        svg.set("width", str(size))
        svg.set("height", str(size))
    title = title if title is not None else _title_of(position)
    if title:
        ET.SubElement(svg, "title").text = title
    css = _blink_css(point_roles, status_roles, palette) if animate else ""
    if style:
        css = f"{css}\n{style}" if css else style
    if css:
        ET.SubElement(svg, "style").text = css

    _draw_board(svg, lay, geometry, paint)
    if coordinates:
        _draw_coordinates(svg, lay, paint)
    if led_style == "beside":
        holes = _sub(svg, "g", class_="led-holes", fill=paint["hole"], pointer_events="none")
        for point in POINTS:
            x, y = lay.led(point)
            _sub(holes, "circle", cx=x, cy=y, r=0.06 * STEP)
    _draw_points(svg, lay, board, paint, id_prefix)
    if turn is not None:
        _draw_last_turn(svg, lay, board, turn, paint)
    if point_roles:
        _draw_leds(svg, lay, point_roles, palette, paint, id_prefix, led_style)
    if status_roles or isinstance(leds, Frame):
        _draw_status(svg, lay, status_roles, palette, paint, id_prefix)
    return ET.tostring(svg, encoding="unicode")


# -- layers ---------------------------------------------------------------------------


def _draw_board(svg: ET.Element, lay: Layout, geometry: Geometry, paint: Mapping[str, str]) -> None:
    edge = 0.08 * STEP
    _sub(
        svg,
        "rect",
        class_="board",
        x=edge / 2,
        y=edge / 2,
        width=lay.size - edge,
        height=lay.size - edge,
        rx=0.15 * STEP,
        fill=paint["wood"],
        stroke=paint["wood edge"],
        stroke_width=edge,
    )
    lines = _sub(svg, "g", class_="lines", stroke=paint["line"], stroke_width=0.06 * STEP, stroke_linecap="round")
    diagonal = {
        frozenset(pair)
        for line in geometry.lines
        for pair in itertools.pairwise(line)
        if line[0][0] != line[2][0] and line[0][1] != line[2][1]
    }
    seen: set[frozenset[str]] = set()
    for line in geometry.lines:
        for a, b in itertools.pairwise(line):
            pair = frozenset((a, b))
            if pair in seen:
                continue
            seen.add(pair)
            (x1, y1), (x2, y2) = lay.points[a], lay.points[b]
            _sub(lines, "line", class_="line diagonal" if pair in diagonal else "line", x1=x1, y1=y1, x2=x2, y2=y2)


def _draw_coordinates(svg: ET.Element, lay: Layout, paint: Mapping[str, str]) -> None:
    group = _sub(
        svg,
        "g",
        class_="coords",
        fill=paint["coord"],
        font_family="sans-serif",
        font_size=0.3 * STEP,
        font_weight="bold",
        text_anchor="middle",
        pointer_events="none",
    )
    baseline = 0.1 * STEP  # centres the glyphs on their spot
    for file in "abcdefg":
        _sub(
            group, "text", class_=f"coord file-{file}", x=lay.column_x(file), y=lay.size - lay.label_offset() + baseline
        ).text = file
    for rank in "1234567":
        _sub(group, "text", class_=f"coord rank-{rank}", x=lay.label_offset(), y=lay.row_y(rank) + baseline).text = rank


def _draw_points(svg: ET.Element, lay: Layout, board: Board, paint: Mapping[str, str], prefix: str) -> None:
    group = _sub(svg, "g", class_="points")
    for point in POINTS:
        x, y = lay.points[point]
        side = board.get(point)
        g = _sub(group, "g", id=f"{prefix}point-{point}", class_=f"point {side or 'empty'}", data_point=point)
        _sub(g, "circle", class_="hole", cx=x, cy=y, r=0.075 * STEP, fill=paint["hole"])
        # An invisible target as large as a man: a page can make every point clickable.
        _sub(g, "circle", class_="hit", cx=x, cy=y, r=MAN_RADIUS, fill="transparent")
        if side is not None:
            _draw_man(g, (x, y), side, paint)


def _draw_man(parent: ET.Element, pos: Pos, side: str, paint: Mapping[str, str]) -> None:
    x, y = pos
    man = _sub(parent, "g", class_=f"man {side}")
    _sub(
        man,
        "circle",
        cx=x,
        cy=y,
        r=MAN_RADIUS,
        fill=paint[f"{side} man"],
        stroke=paint[f"{side} man outline"],
        stroke_width=0.04 * STEP,
    )
    _sub(
        man,
        "circle",
        cx=x,
        cy=y,
        r=MAN_RADIUS * 0.6,
        fill="none",
        stroke=paint[f"{side} man ring"],
        stroke_width=0.025 * STEP,
    )


def _draw_last_turn(svg: ET.Element, lay: Layout, board: Board, turn: Turn, paint: Mapping[str, str]) -> None:
    colour = paint["last turn"]
    group = _sub(svg, "g", class_="last-turn", data_turn=str(turn), pointer_events="none")
    tx, ty = lay.points[turn.target]
    if turn.origin is not None:
        ox, oy = lay.points[turn.origin]
        _sub(
            group,
            "circle",
            class_="origin",
            cx=ox,
            cy=oy,
            r=MAN_RADIUS * 0.75,
            fill="none",
            stroke=colour,
            stroke_width=0.04 * STEP,
            stroke_dasharray=f"{_num(0.1 * STEP)} {_num(0.07 * STEP)}",
        )
        _draw_arrow(group, (ox, oy), (tx, ty), colour)
    _sub(
        group,
        "circle",
        class_="placement" if turn.origin is None else "target",
        cx=tx,
        cy=ty,
        r=0.11 * STEP,
        fill=colour,
    )
    if turn.removal is not None:
        _draw_removed(group, lay.points[turn.removal], paint)


def _draw_arrow(group: ET.Element, start: Pos, end: Pos, colour: str) -> None:
    (x0, y0), (x1, y1) = start, end
    dx, dy = x1 - x0, y1 - y0
    length = math.hypot(dx, dy)
    ux, uy = dx / length, dy / length
    head_len, head_half, width = 0.3 * STEP, 0.16 * STEP, 0.1 * STEP
    # Start clear of the origin's dashed ring and stop with the tip touching the man that arrived.
    sx, sy = x0 + ux * MAN_RADIUS * 0.75, y0 + uy * MAN_RADIUS * 0.75
    tip_x, tip_y = x1 - ux * MAN_RADIUS, y1 - uy * MAN_RADIUS
    base_x, base_y = tip_x - ux * head_len, tip_y - uy * head_len
    arrow = _sub(group, "g", class_="arrow", fill=colour, stroke=colour, opacity="0.85")
    _sub(arrow, "line", x1=sx, y1=sy, x2=base_x, y2=base_y, stroke_width=width)
    corners = [
        (tip_x, tip_y),
        (base_x - uy * head_half, base_y + ux * head_half),
        (base_x + uy * head_half, base_y - ux * head_half),
    ]
    _sub(arrow, "polygon", points=" ".join(f"{_num(px)},{_num(py)}" for px, py in corners), stroke="none")


def _draw_removed(group: ET.Element, pos: Pos, paint: Mapping[str, str]) -> None:
    x, y = pos
    arm = 0.22 * STEP
    cross = _sub(group, "g", class_="removed", stroke_linecap="round", fill="none")
    _sub(
        cross,
        "circle",
        cx=x,
        cy=y,
        r=MAN_RADIUS,
        stroke=paint["removed"],
        stroke_width=0.03 * STEP,
        stroke_dasharray=f"{_num(0.08 * STEP)} {_num(0.06 * STEP)}",
    )
    path = (
        f"M{_num(x - arm)} {_num(y - arm)}L{_num(x + arm)} {_num(y + arm)}"
        f"M{_num(x - arm)} {_num(y + arm)}L{_num(x + arm)} {_num(y - arm)}"
    )
    # The light halo keeps the cross readable on wood, on a line and over a hole.
    _sub(cross, "path", d=path, stroke=paint["removed halo"], stroke_width=0.16 * STEP)
    _sub(cross, "path", d=path, stroke=paint["removed"], stroke_width=0.09 * STEP)


def _draw_leds(
    svg: ET.Element,
    lay: Layout,
    roles: Mapping[str, str],
    palette: Mapping[str, Look],
    paint: Mapping[str, str],
    prefix: str,
    led_style: str,
) -> None:
    group = _sub(svg, "g", class_="leds", pointer_events="none")
    for point in POINTS:  # board order, not the caller's: the same frame gives the same text
        role = roles.get(point)
        if role is None:
            continue
        look = palette[role]
        hue, level = led_paint(look.colour)
        g = _sub(
            group,
            "g",
            id=f"{prefix}led-{point}",
            class_=f"led role-{role} blink-{look.blink}",
            data_point=point,
            data_role=role,
        )
        if led_style == "ring":
            x, y = lay.points[point]
            # A thin dark ring under the light one: bright colours stay visible on light wood.
            _sub(
                g,
                "circle",
                cx=x,
                cy=y,
                r=RING_RADIUS,
                fill="none",
                stroke=paint["led halo"],
                stroke_opacity="0.35",
                stroke_width=0.13 * STEP,
            )
            _sub(
                g,
                "circle",
                cx=x,
                cy=y,
                r=RING_RADIUS,
                fill="none",
                stroke=hue,
                stroke_opacity=_num(level),
                stroke_width=0.09 * STEP,
            )
        else:
            x, y = lay.led(point)
            _sub(g, "circle", cx=x, cy=y, r=0.2 * STEP, fill=hue, fill_opacity=_num(level * 0.35))
            _sub(
                g,
                "circle",
                cx=x,
                cy=y,
                r=0.09 * STEP,
                fill=hue,
                fill_opacity=_num(level),
                stroke=paint["led halo"],
                stroke_opacity="0.5",
                stroke_width=0.02 * STEP,
            )


def _draw_status(
    svg: ET.Element,
    lay: Layout,
    roles: Mapping[str, str],
    palette: Mapping[str, Look],
    paint: Mapping[str, str],
    prefix: str,
) -> None:
    group = _sub(svg, "g", class_="status-leds", pointer_events="none")
    for name, corner in STATUS_CORNERS.items():
        x, y = lay.corner(_FLIPPED_CORNER[corner] if lay.flipped else corner)
        role = roles.get(name)
        classes = f"status status-{name}"
        if role is None:
            fill, level = paint["status off"], 1.0
        else:
            fill, level = led_paint(palette[role].colour)
            classes += f" role-{role} blink-{palette[role].blink}"
        g = _sub(group, "g", id=f"{prefix}status-{name}", class_=classes, data_role=role)
        _sub(
            g,
            "circle",
            cx=x,
            cy=y,
            r=0.15 * STEP,
            fill=fill,
            fill_opacity=_num(level),
            stroke=paint["led halo"],
            stroke_width=0.02 * STEP,
        )
        _sub(
            g,
            "text",
            x=x,
            y=y + 0.07 * STEP,
            fill=paint["coord"] if role else paint["wood"],
            font_family="sans-serif",
            font_size=0.18 * STEP,
            font_weight="bold",
            text_anchor="middle",
        ).text = STATUS_LABELS[name]


def _blink_css(points: Mapping[str, str], status: Mapping[str, str], palette: Mapping[str, Look]) -> str:
    """CSS keyframes for the blink patterns in use, timed from the guidance's own table."""
    rules = []
    for blink in sorted({palette[r].blink for r in (*points.values(), *status.values())} - {"steady"}):
        period, duty = BLINKS[blink]
        if blink == "pulse":
            frames = "0%,100%{opacity:.15}50%{opacity:1}"
            timing = "ease-in-out"
        elif blink == "double":
            # the guidance's two short flashes: on 0-12 % and 24-36 % of the period
            frames = "0%,11.9%{opacity:1}12%,23.9%{opacity:0}24%,35.9%{opacity:1}36%,100%{opacity:0}"
            timing = "step-end"
        else:
            on = round(duty * 100, 1)
            frames = f"0%,{on - 0.1:g}%{{opacity:1}}{on:g}%,100%{{opacity:0}}"
            timing = "step-end"
        rules.append(
            f"@keyframes morris-{blink}{{{frames}}}"
            f".blink-{blink}{{animation:morris-{blink} {period:g}s {timing} infinite}}"
        )
    return "".join(rules)
