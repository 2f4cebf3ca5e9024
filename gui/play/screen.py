"""Where the play screen's parts go this frame: a frozen `PlayScreen` the views read.

The scene measures it (`PlayScene.screen()`) from the window's size and metrics, the
model and its widgets' places; views take it with the model and never reach into the
scene.  The functions here are the layout itself.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

import pygame

from plyground.gui.play import review_card, values_caption
from plyground.gui.play.model import PlayModel
from plyground.gui.theme import Metrics
from plyground.gui.widgets import drawing

BOARD_STEPS = 6
"""The board shrinks for the game-over card in this many sizes (each is drawn once)."""


@dataclass(frozen=True)
class PlayScreen:
    """The window's size, clock and pointer, and where the play screen's parts are now."""

    metrics: Metrics
    size: tuple[int, int]
    now: float
    mouse: tuple[int, int] | None
    header: pygame.Rect
    """The strip above the board with whose turn it is."""
    panel: pygame.Rect
    """The side panel on the right."""
    board: pygame.Rect
    """Where the board view draws (it shrinks for the game-over card and the review)."""
    controls_bottom: int = 0
    """The side panel's y under its widgets (the analysis and the move list start there)."""
    buttons: Mapping[str, pygame.Rect] = field(default_factory=dict)
    """Each visible button's rect, by its action's name."""
    role_menus: tuple[pygame.Rect, ...] = ()
    """The two sides' role menus."""
    speed_slider: pygame.Rect | None = None


def panel_rect(m: Metrics, size: tuple[int, int]) -> pygame.Rect:
    """The side panel on the right."""
    w, h = size
    return pygame.Rect(w - m.side_panel_w - m.pad, m.pad, m.side_panel_w, h - 2 * m.pad)


def header_rect(m: Metrics, size: tuple[int, int]) -> pygame.Rect:
    """The strip above the board with whose turn it is."""
    panel = panel_rect(m, size)
    return pygame.Rect(m.pad, m.pad, panel.x - 2 * m.pad, m.px(52))


def overlay_height(m: Metrics) -> int:
    """Height of the game-over card."""
    return int(m.px(96) + m.button_h // 2)


def board_rect(model: PlayModel, m: Metrics, size: tuple[int, int], now: float) -> pygame.Rect:
    """Where the board view draws; it shrinks while the game-over card is shown."""
    header = header_rect(m, size)
    top = values_caption.board_top(model, m, header)  # under the status line and the caption
    rect = pygame.Rect(header.x, top, header.width, size[1] - top - m.pad)
    shown = model.overlay_shown(now)
    if shown > 0:
        # In a few steps: each board size is drawn and cached anew.
        eased = math.ceil(drawing.ease_out_cubic(shown) * BOARD_STEPS) / BOARD_STEPS
        rect.height -= round((overlay_height(m) + m.gap) * eased)
    rect.height -= review_card.reserved(model, m)  # the game review's card under the board
    return rect


def overlay_rect(
    model: PlayModel, m: Metrics, size: tuple[int, int], now: float, final: bool = False
) -> pygame.Rect:
    """The game-over card, under the (shrunk) board."""
    header = header_rect(m, size)
    shown = 1.0 if final else drawing.ease_out_cubic(model.overlay_shown(now))
    card = pygame.Rect(header.x, 0, header.width, overlay_height(m))
    card.bottom = round(size[1] - m.pad + (1 - shown) * (card.height + m.pad))
    return card


def mute_rect(m: Metrics, size: tuple[int, int]) -> pygame.Rect:
    """The mute button, at the right end of the header strip."""
    header = header_rect(m, size)
    rect = pygame.Rect(0, 0, m.px(76), min(m.button_h, header.height))
    rect.midright = header.midright
    return rect


def measure(
    model: PlayModel,
    m: Metrics,
    size: tuple[int, int],
    now: float,
    mouse: tuple[int, int] | None,
    *,
    controls_bottom: int = 0,
    buttons: Mapping[str, pygame.Rect] | None = None,
    role_menus: tuple[pygame.Rect, ...] = (),
    speed_slider: pygame.Rect | None = None,
) -> PlayScreen:
    """The play screen this frame, with its widgets where the scene placed them."""
    return PlayScreen(
        metrics=m,
        size=size,
        now=now,
        mouse=mouse,
        header=header_rect(m, size),
        panel=panel_rect(m, size),
        board=board_rect(model, m, size, now),
        controls_bottom=controls_bottom,
        buttons=dict(buttons or {}),
        role_menus=role_menus,
        speed_slider=speed_slider,
    )
