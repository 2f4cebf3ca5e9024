"""The title block and the cards of the Compare and policy views."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from plyground.gui import theme
from plyground.gui.theme import Metrics
from plyground.gui.widgets import drawing

if TYPE_CHECKING:  # for annotations: the app imports every scene
    from plyground.gui.app import App


def draw_heading(surface: pygame.Surface, app: App, title: str, subtitle: str) -> int:
    """A view's title and subtitle (room left for buttons on the right); returns the y below."""
    m: Metrics = app.metrics
    drawing.draw_text(surface, title, (m.pad, m.pad), m.font_size(30), theme.TEXT, "bold")
    y = m.pad + round(m.font_size(30) * 1.3)
    width = app.size[0] - 3 * m.pad - max(m.px(350), 400)
    size = drawing.fit_size(subtitle, width, m.font_size(14))  # smaller letters, then
    lines = [subtitle] if drawing.text_size(subtitle, size)[0] <= width else []
    lines = lines or drawing.wrap(subtitle, width, size)  # on two lines
    for line in lines:
        drawing.draw_text(surface, line, (m.pad, y), size, theme.TEXT_DIM)
        y += round(size * 1.4)
    return y + round(m.font_size(14) * 0.4)


def draw_card(surface: pygame.Surface, rect: pygame.Rect, radius: int) -> None:
    """A panel-coloured card with a thin border."""
    drawing.rounded_rect(surface, rect, theme.PANEL, radius, 1, theme.PANEL_BORDER)
