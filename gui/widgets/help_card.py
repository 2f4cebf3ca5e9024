"""The F1 card: every key in two columns (one on a narrow window), texts wrapped to fit."""

from __future__ import annotations

from typing import Any

import pygame

from plyground.gui import theme
from plyground.gui.widgets import drawing


def _wrapped(lines: list[tuple[str, str]], width: int, size: int) -> list[tuple[str, list[str]]]:
    return [(key, drawing.wrap(what, width, size) or [""]) for key, what in lines]


def _layout(
    lines: list[tuple[str, str]], columns: int, column_w: int, text_size: int, line_h: int, m: Any
) -> tuple[int, list[tuple[str, list[str]]], int, int]:
    """(key column width, wrapped entries, where the second column starts, body height)."""
    widest = max((drawing.text_size(key, text_size, "semibold")[0] for key, _ in lines), default=0)
    key_w = min(widest + m.px(16), round(column_w * 0.45))
    entries = _wrapped(lines, column_w - key_w - m.px(8), text_size)
    heights = [len(texts) * line_h + m.px(5) for _, texts in entries]
    split = len(entries)
    if columns == 2:
        running, half = 0, sum(heights) / 2
        split = next((i for i, h in enumerate(heights) if (running := running + h) >= half), 0) + 1
    return key_w, entries, split, max(sum(heights[:split]), sum(heights[split:]))


SPACINGS = ((15, 1.45), (14, 1.35), (13, 1.25), (12, 1.2), (11, 1.15))
"""The card's text sizes and line spacings, roomiest first: the first that fits is used."""


def fit(size: tuple[int, int], m: Any, lines: list[tuple[str, str]]) -> tuple[int, int, int, int]:
    """(columns, column width, text size, line height): the roomiest text whose lines fit on
    a window of `size` (the smallest when none does)."""
    columns = 2 if size[0] >= m.px(900) else 1
    column_w = min((size[0] - 2 * m.pad - (columns + 1) * m.pad) // columns, m.px(520))
    room = size[1] - 2 * m.pad - m.px(110)
    for points, spacing in SPACINGS:
        text_size = m.font_size(points)
        line_h = round(text_size * spacing)
        if _layout(lines, columns, column_w, text_size, line_h, m)[3] <= room:
            break
    return columns, column_w, text_size, line_h


def draw(
    surface: pygame.Surface, size: tuple[int, int], m: Any, lines: list[tuple[str, str]]
) -> None:
    """A veil over the window and the card with `lines` ((keys, what they do)) on it."""
    veil = pygame.Surface(size, pygame.SRCALPHA)
    veil.fill((6, 8, 14, 190))
    surface.blit(veil, (0, 0))
    columns, column_w, text_size, line_h = fit(size, m, lines)
    key_w, entries, split, body = _layout(lines, columns, column_w, text_size, line_h, m)
    card = pygame.Rect(0, 0, columns * column_w + (columns + 1) * m.pad, body + m.px(110))
    card.height = min(card.height, size[1] - 2 * m.pad)
    card.center = (size[0] // 2, size[1] // 2)
    drawing.shadow(surface, card, m.radius, spread=m.px(24), alpha=140)
    drawing.rounded_rect(surface, card, theme.PANEL, m.radius, 1, theme.PANEL_BORDER)
    title_pos = (card.x + m.pad, card.y + m.px(20))
    drawing.draw_text(surface, "Keys", title_pos, m.font_size(24), theme.TEXT, "bold")
    for column, part in enumerate((entries[:split], entries[split:])):
        x = card.x + m.pad + column * (column_w + m.pad)
        y = card.y + m.px(66)
        for key, texts in part:
            drawing.draw_text(surface, key, (x, y), text_size, theme.ACCENT, "semibold")
            for text in texts:
                drawing.draw_text(surface, text, (x + key_w, y), text_size, theme.TEXT_DIM)
                y += line_h
            y += m.px(5)
    drawing.draw_text(
        surface,
        "press any key to close",
        (card.centerx, card.bottom - m.px(14)),
        m.font_size(13),
        theme.TEXT_FAINT,
        anchor="midbottom",
    )
