"""Keyboard focus: the arrows move a ring between a screen's items, Enter uses the one in it.

An item is `(key, rect, element)`: a stable key (kept across widget rebuilds), where it is,
and the pygame_gui element it stands for (None for something the scene draws itself, such
as a menu card).  The arrows go to the nearest item in their direction; a slider takes
Left/Right itself; an open drop-down takes Up/Down (the option) and Enter (pick it).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import pygame
import pygame_gui

from plyground.gui import theme

Item = tuple[Any, pygame.Rect, Any]
"""(stable key, rect on screen, pygame_gui element or None)."""
ARROWS = {
    pygame.K_LEFT: (-1, 0),
    pygame.K_RIGHT: (1, 0),
    pygame.K_UP: (0, -1),
    pygame.K_DOWN: (0, 1),
}
"""Each arrow key as a direction (dx, dy) on screen."""
USE_KEYS = (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE)


def nearest(rects: Sequence[pygame.Rect], current: int, direction: tuple[int, int]) -> int:
    """The item an arrow leads to from `current`: the closest centre that lies that way,
    sideways offsets counting double; `current` itself when nothing lies that way."""
    cx, cy = rects[current].center
    dx, dy = direction
    best, best_score = current, math.inf
    for i, rect in enumerate(rects):
        ox, oy = rect.centerx - cx, rect.centery - cy
        along = ox * dx + oy * dy
        if i == current or along <= 0:
            continue
        score = along + 2 * abs(ox * dy + oy * dx)
        if score < best_score:
            best, best_score = i, score
    return best


def is_expanded(element: Any) -> bool:
    """Whether `element` is a drop-down whose list is open."""
    states: dict[str, Any] | None = getattr(element, "menu_states", None)
    return states is not None and element.current_state is states["expanded"]


def close_dropdowns(widgets: Sequence[Any]) -> bool:
    """Close every open drop-down list among `widgets` (Esc); True when one was open."""
    closed = False
    for widget in widgets:
        if is_expanded(widget):
            widget.current_state.should_transition = True
            closed = True
    return closed


def close_open_lists(manager: pygame_gui.UIManager) -> bool:
    """Close every open drop-down list anywhere in the window (Esc closes a list before it
    leaves a screen, on every screen); True when one was open."""
    return close_dropdowns(manager.get_sprite_group().sprites())


def option_buttons(menu: Any) -> list[Any]:
    """The option buttons of an open drop-down, top to bottom."""
    listing = getattr(menu.current_state, "options_selection_list", None)
    if listing is None:
        return []
    return [item["button_element"] for item in listing.item_list if item["button_element"]]


def press(element: Any) -> None:
    """Press a pygame_gui button as a click would (the event reaches widgets and the scene)."""
    data = {"ui_element": element, "ui_object_id": element.most_specific_combined_id}
    pygame.event.post(pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, data))


def nudge(slider: Any, step: int) -> None:
    """Move a slider one click increment left (-1) or right (+1), as its arrow buttons do."""
    low, high = slider.value_range
    value = min(high, max(low, slider.get_current_value() + step * slider.increment))
    slider.set_current_value(value)
    data = {"ui_element": slider, "value": slider.get_current_value()}
    pygame.event.post(pygame.event.Event(pygame_gui.UI_HORIZONTAL_SLIDER_MOVED, data))


def type_into(manager: Any, entry: Any) -> None:
    """Give a text box the keyboard, as a click in it would."""
    manager.set_focus_set(entry)


def typing(manager: Any) -> bool:
    """Whether a text box has the keyboard (then keys are text, not shortcuts)."""
    focused = manager.get_focus_set() or ()
    return any(
        isinstance(w, pygame_gui.elements.UITextEntryLine) and w.alive()  # type: ignore[no-untyped-call]
        for w in focused
    )  # a box of a dialog that has closed holds no keyboard


def stop_typing(manager: Any) -> bool:
    """Take the keyboard back from a text box that has it; False when none had it."""
    if not typing(manager):
        return False
    manager.set_focus_set(None)
    return True


class Focus:
    """Which item has the keyboard (by key, so it survives a rebuild), and the highlighted
    option of an open drop-down."""

    def __init__(self) -> None:
        self.key: Any = None
        self.option: int | None = None

    def current(self, items: Sequence[Item]) -> Item | None:
        """The focused item, if it is still there."""
        return next((item for item in items if item[0] == self.key), None)

    def on_key(self, key: int, items: Sequence[Item]) -> Item | None:
        """Arrows move the focus (or a slider, or an open list's option); Enter/Space use
        it: returns the item to use (a button, a card...), None when the key only moved."""
        item = self.current(items)
        element = item[2] if item is not None else None
        if element is not None and is_expanded(element):
            return self._in_list(key, element)
        direction = ARROWS.get(key)
        if direction is not None:
            if element is not None and direction[1] == 0 and hasattr(element, "value_range"):
                nudge(element, direction[0])
            elif items:
                rects = [rect for _, rect, _ in items]
                index = items.index(item) if item is not None else -1
                self.key = items[0 if index < 0 else nearest(rects, index, direction)][0]
            self.option = None
            return None
        if key in USE_KEYS and item is not None:
            if element is not None and hasattr(element, "menu_states"):
                element.current_state.should_transition = True  # open its list
                self.option = None
                return None
            return item
        return None

    def _in_list(self, key: int, menu: Any) -> Item | None:
        """Up/Down pick an option of the open list, Enter/Space choose it."""
        buttons = option_buttons(menu)
        if not buttons:
            return None
        if key in (pygame.K_UP, pygame.K_DOWN):
            step = 1 if key == pygame.K_DOWN else -1
            start = -1 if self.option is None and step > 0 else (self.option or 0)
            self.option = (start + step) % len(buttons)
        elif key in USE_KEYS and self.option is not None:
            press(buttons[min(self.option, len(buttons) - 1)])
            self.option = None
        return None

    def ring_rects(self, items: Sequence[Item]) -> list[pygame.Rect]:
        """Where to draw rings: the focused item, and the option picked in its open list."""
        item = self.current(items)
        if item is None:
            return []
        rects = [item[1]]
        if item[2] is not None and is_expanded(item[2]) and self.option is not None:
            buttons = option_buttons(item[2])
            if self.option < len(buttons):
                rects.append(buttons[self.option].rect)
        return rects


def draw_ring(surface: pygame.Surface, rect: pygame.Rect, m: Any) -> None:
    """The focus ring: an accent outline just outside `rect`, inside a soft halo."""
    width = max(2, m.px(2.5))
    ring = rect.inflate(2 * width + m.px(4), 2 * width + m.px(4))
    halo = pygame.Surface(ring.inflate(m.px(8), m.px(8)).size, pygame.SRCALPHA)
    radius = m.px(12)
    pygame.draw.rect(halo, (*theme.ACCENT[:3], 60), halo.get_rect(), m.px(4), radius + m.px(4))
    surface.blit(halo, (ring.x - m.px(4), ring.y - m.px(4)))
    pygame.draw.rect(surface, theme.ACCENT, ring, width, radius)
