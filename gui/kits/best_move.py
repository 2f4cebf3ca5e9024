"""How a kit marks the best move of a reviewed position (`BoardView.draw_best_move`): an
arrow, a ring round a cell or a button, and a small "best" tag, in one colour for all games."""

from __future__ import annotations

import math

import pygame

from plyground.gui import theme
from plyground.gui.widgets import drawing


def best_colour() -> theme.Colour:
    """The best move's colour (read at draw time: palettes change it)."""
    return theme.SUCCESS


def best_arrow(
    surface: pygame.Surface, start: tuple[float, float], end: tuple[float, float], width: float
) -> None:
    """A thick arrow from `start` to `end` with its head at `end`."""
    (x1, y1), (x2, y2) = start, end
    length = math.hypot(x2 - x1, y2 - y1)
    if length < 1:
        return
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    head = min(length * 0.6, width * 3)
    base = (x2 - ux * head, y2 - uy * head)
    drawing.thick_line(surface, best_colour(), start, base, width)
    wing = head * 0.7
    drawing.polygon(
        surface,
        best_colour(),
        [
            (x2, y2),
            (base[0] - uy * wing, base[1] + ux * wing),
            (base[0] + uy * wing, base[1] - ux * wing),
        ],
    )


def best_ring(surface: pygame.Surface, rect: pygame.Rect, width: int, radius: int) -> None:
    """A ring round `rect` (a cell, a button)."""
    pygame.draw.rect(surface, best_colour(), rect, max(2, width), radius)


def best_button(surface: pygame.Surface, rect: pygame.Rect, unit: float) -> None:
    """A ring round a button and a "best" tag above it (`unit`: the board's size unit)."""
    best_ring(surface, rect.inflate(unit * 0.16, unit * 0.16), 3, rect.height // 2 + 2)
    best_tag(surface, "best", (rect.centerx, rect.y - unit * 0.25), max(11, round(unit * 0.22)))


def best_tag(surface: pygame.Surface, text: str, pos: tuple[float, float], size: int) -> None:
    """A small label such as "best", centred on `pos`, on a dark pill so it reads anywhere."""
    w, h = drawing.text_size(text, size, "bold")
    pill = pygame.Rect(0, 0, w + size, h + size // 3)
    pill.center = (round(pos[0]), round(pos[1]))
    drawing.rounded_rect(surface, pill, theme.PANEL, pill.height // 2, 1, best_colour())
    drawing.draw_text(surface, text, pill.center, size, best_colour(), "bold", anchor="center")


def best_caption(surface: pygame.Surface, rect: pygame.Rect, text: str) -> None:
    """The default mark: the best move in words, over the top of the board area."""
    size = max(12, round(min(rect.width, rect.height) * 0.035))
    best_tag(surface, text, (rect.centerx, rect.y + size), size)
