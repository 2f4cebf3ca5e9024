"""Drop-down menus whose open list is as wide as the box (pygame_gui's is narrower).

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
