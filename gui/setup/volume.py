"""The set-up screen's volume control: the effects' volume slider, its label and value."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame
import pygame_gui

from plyground.gui import theme
from plyground.gui.sound import sounds
from plyground.gui.storage import settings
from plyground.gui.widgets import drawing

if TYPE_CHECKING:
    from plyground.gui.app import App
    from plyground.gui.setup.form import SetupForm


def build(
    form: SetupForm, back: pygame.Rect, start: pygame.Rect, editing: bool, volume: float, width: int
) -> None:
    """The slider at `volume` (0-1): top right of a window `width` wide, or between Cancel
    and Apply while editing a running game."""
    m = form.metrics
    label_w, slider_w, value_w = m.px(62), m.px(130), m.px(52)
    if editing:
        left = (back.right + start.x - (label_w + slider_w + value_w)) // 2
        rect = pygame.Rect(left + label_w, back.y, slider_w, m.button_h)
    else:
        rect = pygame.Rect(0, m.pad, slider_w, m.button_h)
        rect.right = width - m.pad - value_w
    slider = form.add(
        pygame_gui.elements.UIHorizontalSlider(
            rect, round(100 * volume), (0, 100), form.manager, click_increment=10
        )
    )
    slider.set_tooltip("Volume of the sound effects (M mutes them while playing)")
    form.ids[slider] = ("volume", -1)
    form.volume_label = (rect.x - label_w, rect.centery)
    form.volume_value = pygame.Rect(rect.right, rect.y, value_w, rect.height)


def set_volume(app: App, volume: float) -> None:
    """The effects' volume (0-1), at once and remembered."""
    sounds().volume = volume
    app.settings.sound_volume = sounds().volume
    settings.save(app.settings)


def draw(surface: pygame.Surface, form: SetupForm) -> None:
    """'Volume' left of the slider and the level (or 'muted') right of it."""
    if form.volume_label is None or form.volume_value is None:
        return
    size = form.metrics.font_size(14)
    drawing.draw_text(surface, "Volume", form.volume_label, size, theme.TEXT_DIM, anchor="midleft")
    volume = "muted" if sounds().muted else f"{round(100 * sounds().volume)}%"
    drawing.draw_text(surface, volume, form.volume_value.center, size, theme.TEXT, anchor="center")
