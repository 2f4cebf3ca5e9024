"""Drop-down menus whose open list is as wide as the box (pygame_gui's is narrower), and
the room a pygame_gui button or drop-down gives its caption.

pygame_gui's `UIDropDownMenu` opens its option list at the box's width less the width of
the expand button (the ▼ at the right), so the list looks narrower than the box it drops
from.  Its theme offers no setting for the list's width (only `expand_direction` and the
button's `open_button_width`), so the expanded state is widened after it starts.
"""

from __future__ import annotations

from typing import Any

import pygame_gui
from pygame_gui.elements.ui_drop_down_menu import UIExpandedDropDownState


class _FullWidthExpanded(UIExpandedDropDownState):
    """The expanded state, with the option list widened to the whole box."""

    def start(self, should_rebuild: bool = True) -> None:
        """Open as pygame_gui does, then give the list the box's full width."""
        super().start(should_rebuild)
        listing = self.options_selection_list
        if listing is not None:
            width = self.drop_down_menu_ui.relative_rect.width
            listing.set_dimensions((width, listing.relative_rect.height))


def drop_down(*args: Any, **kwargs: Any) -> pygame_gui.elements.UIDropDownMenu:
    """A `UIDropDownMenu` (same arguments) whose open list spans the whole box."""
    menu = pygame_gui.elements.UIDropDownMenu(*args, **kwargs)
    expanded = menu.menu_states["expanded"]
    if type(expanded) is UIExpandedDropDownState:
        expanded.__class__ = _FullWidthExpanded
    return menu


def caption_room(button: Any) -> int:
    """The width a pygame_gui `UIButton` gives its caption, as pygame_gui lays it out: its
    rect less twice the shadow, the left and right border, the rounded corners' insets and,
    for a caption aligned left or right, the theme's `text_horiz_alignment_padding`."""
    border = button.border_width
    sides = (border["left"], border["right"]) if isinstance(border, dict) else (border, border)
    corners = getattr(button.drawable_shape, "rounded_corner_width_offsets", (0, 0))
    aligned = button.text_horiz_alignment in ("left", "right")
    padding = button.text_horiz_alignment_padding if aligned else 0
    return int(button.rect.width - 2 * button.shadow_width - sum(sides) - sum(corners) - padding)


def shown_option(menu: pygame_gui.elements.UIDropDownMenu) -> Any:
    """The closed drop-down's button showing its selected option (None while it is open)."""
    state = menu.current_state
    if state is not menu.menu_states["closed"]:
        return None
    return getattr(state, "selected_option_button", None)


def fitted_name(text: str, room: int, font: Any, keep: int = 3) -> str:
    """`text` whole if it fits in `room` pixels of `font` (a pygame_gui font: `size(text)`),
    else cut in the middle with "…" so that it does, its last `keep` characters kept
    ('AI · alphabeta_wi….py': the file's extension stays)."""

    def fits(shown: str) -> bool:
        return bool(font.size(shown)[0] <= room)

    if fits(text) or len(text) <= keep + 1:
        return text
    head, tail = text[:-keep], text[-keep:]
    while len(head) > 1 and not fits(f"{head}…{tail}"):
        head = head[:-1]
    return f"{head}…{tail}"
