"""The list of moves in the game's notation, the newest at the bottom."""

from __future__ import annotations

from typing import Any

import pygame

from gui import drawing, theme

Line = tuple[int | None, list[tuple[int, str]]]
"""A visual line: the move number (None for a wrapped continuation) and (player, text) parts."""


def layout(rows: list[tuple[int, str]], stochastic: bool, width: int, size: int) -> list[Line]:
    """Turns in pairs (one column per side), or one wrapped turn a line for dice games."""
    lines: list[Line] = []
    if stochastic:
        for number, (player, text) in enumerate(rows, start=1):
            for k, part in enumerate(drawing.wrap(text, width, size)):
                lines.append((number if k == 0 else None, [(player, part)]))
    else:
        for i in range(0, len(rows), 2):
            lines.append((i // 2 + 1, rows[i : i + 2]))
    return lines


def draw(
    surface: pygame.Surface,
    rect: pygame.Rect,
    m: Any,
    rows: list[tuple[int, str]],
    stochastic: bool,
) -> None:
    """The MOVES heading and as many of the newest lines as fit."""
    if rect.height < m.px(44):
        return
    small = m.font_size(12)
    drawing.draw_text(surface, "MOVES", (rect.x, rect.y), small, theme.TEXT_FAINT, "semibold")
    size = m.font_size(14)
    line_h = round(size * 1.5)
    top = rect.y + round(small * 1.8)
    room = max(0, (rect.bottom - top) // line_h)
    if not rows:
        drawing.draw_text(surface, "No moves yet", (rect.x, top), size, theme.TEXT_FAINT)
        return
    col_w = (rect.width - m.px(36)) // 2
    lines = layout(rows, stochastic, rect.width - m.px(36) - m.px(14), size)
    shown = lines[-room:] if room else []
    for k, (label, pairs) in enumerate(shown):
        y = top + k * line_h
        newest_line = k == len(shown) - 1 or (
            stochastic and shown[-1][0] is None and all(n is None for n, _ in shown[k + 1 :])
        )
        if label is not None:
            drawing.draw_text(surface, f"{label}.", (rect.x, y), size, theme.TEXT_FAINT)
        for j, (player, text) in enumerate(pairs):
            x = rect.x + m.px(36) + (0 if stochastic else j * col_w)
            width = rect.right - x if stochastic else col_w - m.px(8)
            if label is not None:
                drawing.circle(
                    surface, theme.PLAYER_COLOURS[player], (x + m.px(4), y + size * 0.62), m.px(3.5)
                )
            newest = newest_line and j == len(pairs) - 1
            drawing.draw_text(
                surface,
                drawing.ellipsize(text, width - m.px(14), size),
                (x + m.px(14), y),
                size,
                theme.TEXT if newest else theme.TEXT_DIM,
                "semibold" if newest else "regular",
            )
