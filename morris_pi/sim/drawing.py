"""Drawing the simulated board: wood, lines, LED glows, men, trays, buttons, panel.

The window paints exactly the colours the controller sent to the simulated
LED strip; nothing here knows about roles or rules beyond the board's lines.
Expensive pieces (the wooden board, glow masks, man sprites, fonts) are cached
per window size, so an idle redraw is a handful of blits.
"""

from __future__ import annotations

import math
import os
import random
from dataclasses import dataclass, field

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame

from morris_pi.core.ports import RGB
from morris_pi.rules import STANDARD, Geometry

from .hand import Hand
from .layout import SIDES, Layout, Pos

WOOD = (196, 150, 96)
WOOD_DARK = (120, 80, 44)
LINE = (58, 36, 20)
PANEL_BG = (32, 36, 42)
TEXT = (232, 232, 228)
MAN_FACE = {"white": (238, 230, 212), "black": (44, 40, 38)}
MAN_RIM = {"white": (170, 160, 140), "black": (96, 90, 86)}
SANS_FONTS = "dejavusans,freesans,liberationsans,arial,helvetica,verdana"
BUTTON_LABELS = {"new": "New game  N", "undo": "Undo  U", "hint": "Hint  H", "menu": "Menu  M"}
STATUS_LABELS = {"white-to-move": "white to move", "black-to-move": "black to move", "error": "error"}
STATUS_SHORT = {"white-to-move": "white", "black-to-move": "black", "error": "error"}
#: Text styles of panel lines: (size relative to the base size, colour, bold).
STYLES = {
    "title": (1.35, (255, 214, 150), True),
    "head": (1.0, (170, 190, 215), True),
    "text": (1.0, TEXT, False),
    "warn": (1.0, (255, 170, 60), True),
    "good": (1.0, (120, 220, 140), True),
    "dim": (0.85, (150, 150, 150), False),
}


@dataclass
class Scene:
    """Everything one frame shows."""

    hand: Hand
    leds: dict[str, RGB] = field(default_factory=dict)
    status: dict[str, RGB] = field(default_factory=dict)
    held_pos: Pos | None = None
    pressed: str | None = None
    panel: list[tuple[str, str]] = field(default_factory=list)
    geometry: Geometry = STANDARD


def _aacircle(surface: pygame.Surface, colour: RGB, centre: Pos, radius: float, width: int = 0) -> None:
    # pygame-ce has draw.aacircle; plain pygame (which lacks it) gets a plain circle
    if hasattr(pygame.draw, "aacircle"):
        pygame.draw.aacircle(surface, colour, centre, radius, width)
        return
    pygame.draw.circle(surface, colour, centre, radius, width)


def _scaled(colour: RGB, times: float, over: float = 1) -> RGB:
    r, g, b = colour
    return round(r * times / over), round(g * times / over), round(b * times / over)


class Renderer:
    """Draws scenes for one layout; make a new one when the window is resized."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self._board: pygame.Surface | None = None
        self._board_geometry: Geometry | None = None
        self._glow_mask = self._make_glow_mask(max(2, round(layout.glow_radius)))
        self._men: dict[tuple[str, int], pygame.Surface] = {}
        self._fonts: dict[tuple[int, bool], pygame.font.Font] = {}
        self.base_font = max(13, min(22, round(layout.panel.w / 22)))

    # -- whole frame --------------------------------------------------------------------

    def draw(self, surface: pygame.Surface, scene: Scene) -> None:
        lay = self.layout
        surface.fill((58, 44, 34))
        surface.blit(self._board_surface(scene.geometry), (round(lay.board.x), round(lay.board.y)))
        for point, colour in scene.leds.items():
            self._glow(surface, lay.leds[point], colour)  # beside the point, as drilled: a man never hides it
        for point, side in scene.hand.board.items():
            self._man(surface, lay.points[point], side)
        self._trays(surface, scene.hand)
        self._buttons(surface, scene.pressed, scene.status)
        self._panel(surface, scene.panel)
        if scene.hand.held and scene.held_pos:
            self.held_man(surface, scene.held_pos, scene.hand.held.colour)

    def held_man(self, surface: pygame.Surface, pos: Pos, colour: str) -> pygame.Rect:
        """Draw the man in the hand, lifted above the board; returns the area it covers."""
        self._man(surface, pos, colour, lifted=True)
        r = round(self.layout.man_radius * 1.08) + 3
        return pygame.Rect(round(pos[0]) - r, round(pos[1]) - r, 2 * r + 10, 2 * r + 12)

    # -- board --------------------------------------------------------------------------

    def _board_surface(self, geometry: Geometry) -> pygame.Surface:
        if self._board is not None and self._board_geometry == geometry:
            return self._board
        lay = self.layout
        size = round(lay.board.w)
        board = pygame.Surface((size, size))
        board.fill(WOOD)
        rng = random.Random(7)
        # grain: wavy streaks of slightly lighter and darker wood
        for row in range(-4, size + 4, 3):
            shade = rng.uniform(-22, 16)
            colour = tuple(max(0, min(255, round(c + shade))) for c in WOOD)
            phase, amp = rng.uniform(0, 6.3), rng.uniform(1.0, 3.5)
            pts = [(x, row + amp * math.sin(phase + x / (size / 5))) for x in range(0, size + 20, 20)]
            pygame.draw.lines(board, colour, False, pts, rng.choice((1, 2, 2, 3)))
        edge = max(3, size // 60)
        pygame.draw.rect(board, WOOD_DARK, board.get_rect(), edge)
        ox, oy = lay.board.x, lay.board.y
        width = max(2, round(lay.step * 0.06))
        for a, b, c in geometry.lines:
            for p, q in ((a, b), (b, c)):
                (x0, y0), (x1, y1) = lay.points[p], lay.points[q]
                pygame.draw.line(board, LINE, (x0 - ox, y0 - oy), (x1 - ox, y1 - oy), width)
        for x, y in lay.points.values():
            _aacircle(board, (30, 20, 12), (x - ox, y - oy), lay.hole_radius * 1.6)
            _aacircle(board, (12, 8, 6), (x - ox, y - oy), lay.hole_radius)
        for x, y in lay.leds.values():  # the LED holes, dark while their LED is off
            _aacircle(board, (88, 62, 38), (x - ox, y - oy), lay.led_radius * 1.5)
            _aacircle(board, (52, 40, 32), (x - ox, y - oy), lay.led_radius)
        # coordinates as on a printed board: every prompt, correction and record names the points so
        label_font = self._label_font()
        for text, (x, y) in lay.labels.items():
            label = label_font.render(text, True, LINE)
            board.blit(label, (x - ox - label.get_width() / 2, y - oy - label.get_height() / 2))
        self._board, self._board_geometry = board, geometry
        return board

    def _label_font(self) -> pygame.font.Font:
        size = max(10, round(self.layout.step * 0.24))
        path = _font_file(True)
        return pygame.font.Font(path, size) if path else pygame.font.Font(None, round(size * 1.3))

    @staticmethod
    def _make_glow_mask(radius: int) -> pygame.Surface:
        mask = pygame.Surface((2 * radius, 2 * radius), pygame.SRCALPHA)
        for r in range(radius, 0, -1):
            fall = r / radius
            alpha = 255 if fall < 0.3 else round(255 * (1 - (fall - 0.3) / 0.7) ** 1.4)
            pygame.draw.circle(mask, (255, 255, 255, alpha), (radius, radius), r)
        return mask

    def _glow(self, surface: pygame.Surface, pos: Pos, colour: RGB) -> None:
        """Light under a point: the LED's hue at full strength, its brightness as opacity."""
        peak = max(colour)
        if peak <= 0:
            return
        hue = _scaled(colour, 255, peak)
        glow = self._glow_mask.copy()
        glow.fill((*hue, 255), special_flags=pygame.BLEND_RGBA_MULT)
        if peak < 255:
            glow.fill((255, 255, 255, peak), special_flags=pygame.BLEND_RGBA_MULT)
        r = glow.get_width() // 2
        surface.blit(glow, (round(pos[0]) - r, round(pos[1]) - r))
        # the hole itself shows the LED's own colour; a dim LED still reads as its colour to the eye
        core = _scaled(hue, max(peak, 160), 255)
        _aacircle(surface, core, pos, self.layout.led_radius)

    # -- men ----------------------------------------------------------------------------

    def _man_sprite(self, colour: str, radius: int) -> pygame.Surface:
        key = (colour, radius)
        sprite = self._men.get(key)
        if sprite is None:
            size = 2 * radius + 4
            sprite = pygame.Surface((size, size), pygame.SRCALPHA)
            c = (size / 2, size / 2)
            _aacircle(sprite, MAN_RIM[colour], c, radius)
            _aacircle(sprite, MAN_FACE[colour], c, radius * 0.86)
            ring = tuple(max(0, min(255, v + (-18 if colour == "white" else 22))) for v in MAN_FACE[colour])
            pygame.draw.circle(sprite, ring, c, radius * 0.6, max(1, radius // 12))
            pygame.draw.circle(sprite, ring, c, radius * 0.25, max(1, radius // 14))
            self._men[key] = sprite
        return sprite

    def _man(self, surface: pygame.Surface, pos: Pos, colour: str, lifted: bool = False) -> None:
        radius = round(self.layout.man_radius * (1.08 if lifted else 1.0))
        if lifted:
            shadow = pygame.Surface((2 * radius, 2 * radius), pygame.SRCALPHA)
            pygame.draw.circle(shadow, (0, 0, 0, 90), (radius, radius), radius)
            surface.blit(shadow, (round(pos[0]) - radius + 6, round(pos[1]) - radius + 8))
        sprite = self._man_sprite(colour, radius)
        half = sprite.get_width() // 2
        surface.blit(sprite, (round(pos[0]) - half, round(pos[1]) - half))

    def _trays(self, surface: pygame.Surface, hand: Hand) -> None:
        lay = self.layout
        small = self.font(0.8)
        small_bold = self.font(0.8, bold=True)
        for side in SIDES:
            for kind, box, count in (
                ("in hand", lay.hand_trays[side], hand.in_hand[side]),
                ("removed", lay.removed_trays[side], hand.removed[side]),
            ):
                pygame.draw.rect(surface, (92, 64, 40), box.ints(), border_radius=8)
                pygame.draw.rect(surface, (60, 40, 24), box.ints(), 2, border_radius=8)
                for pos in lay.tray_slots(box, count):
                    self._man(surface, pos, side)
                label = small.render(f"{count} {kind}", True, (235, 220, 200))
                if label.get_width() > box.w - 4:
                    label = small.render(str(count), True, (235, 220, 200))
                surface.blit(label, (box.center[0] - label.get_width() / 2, box.bottom - label.get_height() - 3))
                name = small_bold.render(side.capitalize(), True, (245, 235, 220))
                surface.blit(name, (box.center[0] - name.get_width() / 2, box.y + 3))

    # -- buttons and status LEDs --------------------------------------------------------

    def _buttons(self, surface: pygame.Surface, pressed: str | None, status: dict[str, RGB]) -> None:
        lay = self.layout
        font = self.font(1.0, bold=True)
        for name, box in lay.buttons.items():
            face = (150, 110, 70) if name == pressed else (104, 74, 48)
            pygame.draw.rect(surface, face, box.ints(), border_radius=10)
            pygame.draw.rect(surface, (40, 26, 16), box.ints(), 2, border_radius=10)
            label = font.render(BUTTON_LABELS.get(name, name), True, (245, 235, 220))
            surface.blit(label, (box.center[0] - label.get_width() / 2, box.center[1] - label.get_height() / 2))
        r = max(3, round(lay.status_radius))
        small = self.font(0.75)
        room = lay.panel.x - 4 - (max(x for x, _ in lay.status_leds.values()) + 2 * r)
        for name, pos in lay.status_leds.items():
            colour = status.get(name)
            if colour and max(colour) > 0:
                halo = _scaled(colour, 0.35)
                _aacircle(surface, halo, pos, r * 1.5)
                _aacircle(surface, colour, pos, r)
            else:
                _aacircle(surface, (40, 34, 30), pos, r)
            label = small.render(STATUS_LABELS.get(name, name), True, (230, 220, 200))
            if label.get_width() > room:  # a narrow window: the short name
                label = small.render(STATUS_SHORT.get(name, name), True, (230, 220, 200))
            surface.blit(label, (pos[0] + 2 * r, pos[1] - label.get_height() / 2))

    # -- side panel ---------------------------------------------------------------------

    def font(self, scale: float, bold: bool = False) -> pygame.font.Font:
        size = round(self.base_font * scale)
        font = self._fonts.get((size, bold))
        if font is None:
            path = _font_file(bold)
            # pygame's bundled font is bold already and has no regular face
            font = pygame.font.Font(path, size) if path else pygame.font.Font(None, round(size * 1.3))
            self._fonts[(size, bold)] = font
        return font

    def _panel(self, surface: pygame.Surface, lines: list[tuple[str, str]]) -> None:
        box = self.layout.panel
        pygame.draw.rect(surface, PANEL_BG, box.ints())
        x, y = box.x + 14, box.y + 12
        width = box.w - 28
        for style, text in lines:
            scale, colour, bold = STYLES.get(style, STYLES["text"])
            font = self.font(scale, bold)
            if not text:
                y += font.get_linesize() // 2
                continue
            for row in wrap(text, font, width):
                if y + font.get_linesize() > box.bottom - 4:
                    return
                surface.blit(font.render(row, True, colour), (x, y))
                y += font.get_linesize()


_FONT_FILES: dict[bool, str | None] = {}


def _font_file(bold: bool) -> str | None:
    """A clear sans-serif font of the system, or ``None`` for pygame's bundled one."""
    if bold not in _FONT_FILES:
        try:
            _FONT_FILES[bold] = pygame.font.match_font(SANS_FONTS, bold=bold)
        except Exception:  # no font listing on this system
            _FONT_FILES[bold] = None
    return _FONT_FILES[bold]


def wrap(text: str, font: pygame.font.Font, width: float) -> list[str]:
    """Break ``text`` into rows no wider than ``width`` pixels, at spaces."""
    rows: list[str] = []
    line = ""
    for word in text.split(" "):
        trial = f"{line} {word}" if line else word
        if line and font.size(trial)[0] > width:
            rows.append(line)
            line = word
        else:
            line = trial
    rows.append(line)
    return rows
