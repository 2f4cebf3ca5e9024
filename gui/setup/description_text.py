"""The set-up cards' descriptions: what a side will do, wrapped to the card, in the largest
of a few text sizes that fits it whole (a long preset text never runs out of its card)."""

from __future__ import annotations

from typing import Any

import pygame

from plyground.gui import theme
from plyground.gui.widgets import drawing

SIZES: tuple[tuple[int, int], ...] = ((15, 14), (14, 13), (13, 12), (12, 12))
"""(first line, the rest) design font sizes, largest first."""
SPACING = 1.45
PARAGRAPH = 6
"""Design pixels between two paragraphs."""


def _weight(index: int) -> str:
    return "semibold" if index == 0 else "regular"


def pieces(
    lines: list[str], width: int, sizes: tuple[int, int], m: Any
) -> list[tuple[int, str, int]]:
    """(paragraph index, wrapped line, font size) for each line drawn."""
    out: list[tuple[int, str, int]] = []
    for i, line in enumerate(text for text in lines if text):
        size = m.font_size(sizes[0] if i == 0 else sizes[1])
        out.extend((i, piece, size) for piece in drawing.wrap(line, width, size, _weight(i)))
    return out


def height(lines: list[str], width: int, sizes: tuple[int, int], m: Any) -> int:
    """The height `lines` take `width` wide in `sizes`."""
    parts = pieces(lines, width, sizes, m)
    paragraphs = len({i for i, _, _ in parts})
    return int(sum(round(size * SPACING) for _, _, size in parts) + m.px(PARAGRAPH) * paragraphs)


def fit(lines: list[str], width: int, room: int, m: Any) -> tuple[int, int]:
    """The largest of `SIZES` in which `lines` fit `room` pixels (else the smallest)."""
    return next((s for s in SIZES if height(lines, width, s, m) <= room), SIZES[-1])


def draw(surface: pygame.Surface, rect: pygame.Rect, lines: list[str], bottom: int, m: Any) -> None:
    """`lines` in `rect` down to `bottom`: the first bold, the second bright, the rest dim."""
    sizes = fit(lines, rect.width, bottom - rect.y, m)
    y, last = rect.y, 0
    for i, piece, size in pieces(lines, rect.width, sizes, m):
        if i != last:
            y, last = y + m.px(PARAGRAPH), i
        if y + size * 1.4 > bottom:
            break  # the smallest size did not fit either: the rest waits for a bigger window
        colour = theme.TEXT if i <= 1 else theme.TEXT_DIM
        drawing.draw_text(surface, piece, (rect.x, y), size, colour, _weight(i))
        y += round(size * SPACING)
