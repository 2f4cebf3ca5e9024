"""Colours, fonts and sizes shared by every scene (the one place the look is decided)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import pygame

Colour = tuple[int, int, int]

ROOT = Path(__file__).resolve().parent.parent
FONT_DIR = ROOT / "assets" / "fonts"
GUI_THEME_FILE = Path(__file__).resolve().parent / "theme.json"
FONT_FILES = {
    "regular": FONT_DIR / "Inter-Regular.otf",
    "semibold": FONT_DIR / "Inter-SemiBold.otf",
    "bold": FONT_DIR / "Inter-Bold.otf",
}

# Palette: a dark slate background, one accent, and a colour per player used by every game.
BG_TOP: Colour = (22, 26, 38)
BG_BOTTOM: Colour = (12, 14, 21)
PANEL: Colour = (29, 34, 48)
PANEL_RAISED: Colour = (38, 44, 62)
PANEL_BORDER: Colour = (52, 60, 82)
TEXT: Colour = (236, 239, 246)
TEXT_DIM: Colour = (150, 160, 184)
TEXT_FAINT: Colour = (98, 108, 132)
ACCENT: Colour = (108, 140, 255)
ACCENT_SOFT: Colour = (70, 92, 180)
SUCCESS: Colour = (88, 214, 141)
WARNING: Colour = (255, 184, 76)
DANGER: Colour = (255, 98, 98)
PLAYER_COLOURS: tuple[Colour, Colour] = ((255, 99, 112), (255, 201, 71))
PLAYER_SHADES: tuple[Colour, Colour] = ((186, 58, 72), (204, 150, 34))
BOARD_BLUE: Colour = (44, 64, 148)
BOARD_BLUE_DARK: Colour = (30, 44, 108)
HOLE: Colour = (15, 18, 28)


@dataclass(frozen=True)
class Palette:
    """The colours that tell the two sides (and good from bad moves) apart."""

    name: str
    title: str
    players: tuple[Colour, Colour]
    shades: tuple[Colour, Colour]
    board: Colour
    board_dark: Colour
    good: Colour
    bad: Colour
    marked: bool
    """Whether each side's pieces carry its symbol (an X for the first, a ring for the
    second), so the sides differ by more than their colour."""
    colour_names: tuple[str, str] | None
    """What to call the sides in games that name them by colour (None: the game's names)."""


PALETTES = {
    "standard": Palette(
        "standard",
        "red / yellow",
        PLAYER_COLOURS,
        PLAYER_SHADES,
        BOARD_BLUE,
        BOARD_BLUE_DARK,
        SUCCESS,
        DANGER,
        marked=False,
        colour_names=None,
    ),
    # Okabe-Ito blue and orange: they differ in hue and in lightness for every common kind
    # of colour blindness; the board turns slate so blue discs stand out on it.
    "colour-blind": Palette(
        "colour-blind",
        "blue / orange, marked (colour-blind safe)",
        ((74, 158, 255), (255, 166, 38)),
        ((30, 92, 186), (184, 104, 0)),
        (70, 78, 98),
        (46, 52, 68),
        (96, 196, 255),
        (255, 128, 64),
        marked=True,
        colour_names=("Blue", "Orange"),
    ),
}
"""Every palette by name (the settings' `palette`)."""
PALETTE = PALETTES["standard"]


def set_palette(name: str) -> Palette:
    """Use the palette `name` (unknown names: the standard one) from now on."""
    global PALETTE, PLAYER_COLOURS, PLAYER_SHADES, BOARD_BLUE, BOARD_BLUE_DARK, SUCCESS, DANGER
    PALETTE = PALETTES.get(name, PALETTES["standard"])
    PLAYER_COLOURS, PLAYER_SHADES = PALETTE.players, PALETTE.shades
    BOARD_BLUE, BOARD_BLUE_DARK = PALETTE.board, PALETTE.board_dark
    SUCCESS, DANGER = PALETTE.good, PALETTE.bad
    return PALETTE


# Base sizes at a 1280x800 window; `Metrics` scales them.
BASE_SIZE = (1280, 800)
MIN_WINDOW = (800, 600)
PANEL_TEXT_SCALE = 1.15
"""The play panel's text grows with the window up to this scale; beyond it a bigger window
shows more rows and wider columns instead of bigger letters."""


def mix(a: Colour, b: Colour, t: float) -> Colour:
    """Blend two colours: t=0 gives a, t=1 gives b."""
    t = max(0.0, min(1.0, t))
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


class Metrics:
    """Sizes for one window size: everything in pixels, scaled from the 1280x800 design."""

    def __init__(self, size: tuple[int, int], most: float = 1.45) -> None:
        """`most`: the largest scale (text in the side panel grows less than the board)."""
        self.width, self.height = size
        raw = min(self.width / BASE_SIZE[0], self.height / BASE_SIZE[1])
        self.scale = max(0.78, min(most, 1.45, raw))
        self.pad = self.px(24)
        self.gap = self.px(12)
        self.radius = self.px(14)
        self.button_h = max(32, self.px(38))
        self.panel_w = max(272, min(self.px(360), self.width // 3))
        self.side_panel_w = max(272, min(self.px(440), round(self.width * 0.31)))
        """The play scene's side panel: wider on big windows, so it gains room to read, not
        only bigger letters (its text grows at most `PANEL_TEXT_SCALE`)."""

    def capped(self, most: float) -> Metrics:
        """These metrics with the scale at most `most` (the same window size)."""
        return Metrics((self.width, self.height), most)

    def px(self, value: float) -> int:
        """A design-size length in pixels for this window."""
        return max(1, round(value * self.scale))

    def font_size(self, value: float) -> int:
        """A design-size font size for this window (text shrinks less than shapes do)."""
        return max(12, round(value * max(0.92, self.scale)))

    @property
    def widget_font(self) -> int:
        """The pygame_gui font size for this window (one of a few tiers)."""
        if self.scale < 0.9:
            return 14
        if self.scale < 1.2:
            return 15
        return 18


MONOSPACED = ("dejavusansmono", "consolas", "menlo", "liberationmono", "couriernew", "monospace")
"""The system's fixed-width fonts, in the order one is chosen (Linux, Windows, macOS, ...):
a game's own text (a board drawn in characters) lines up in one."""


@lru_cache(maxsize=1)
def monospaced_path() -> str | None:
    """The file of the system's first fixed-width font, or None where it has none."""
    try:
        found = pygame.font.match_font(list(MONOSPACED))
    except Exception:
        return None
    return str(found) if found else None


@lru_cache(maxsize=64)
def font(size: int, weight: str = "regular") -> pygame.font.Font:
    """The Inter font at `size` pixels in `weight` (regular, semibold, bold), or the system's
    fixed-width font ("mono", Inter where there is none)."""
    if weight == "mono":
        mono = monospaced_path()
        if mono is not None:
            try:
                return pygame.font.Font(mono, size)
            except (OSError, FileNotFoundError):
                pass
        weight = "regular"
    path = FONT_FILES.get(weight, FONT_FILES["regular"])
    try:
        return pygame.font.Font(str(path), size)
    except (OSError, FileNotFoundError):  # a missing asset must not stop the game
        return pygame.font.Font(None, round(size * 1.3))


def ui_theme(font_size: int = 15) -> dict[str, Any]:
    """The pygame_gui theme: gui/theme.json with the bundled font paths made absolute and
    the Inter font at `font_size`."""
    with GUI_THEME_FILE.open(encoding="utf-8") as handle:
        data: dict[str, Any] = json.load(handle)

    def fix(node: Any) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key.endswith("_path") and isinstance(value, str):
                    node[key] = str(ROOT / value)
                elif key == "size" and node.get("name") == "inter":
                    node[key] = str(font_size)
                else:
                    fix(value)

    fix(data)
    # The file dialog's title bar and list rows grow with the font (pygame_gui's are fixed
    # 28 and 20 pixels, cramped at the larger font tiers).
    data["#file_dialog"] = {"misc": {"title_bar_height": str(round(font_size * 2))}}
    data["#file_display_list"] = {"misc": {"list_item_height": str(round(font_size * 1.7))}}
    return data
