"""What the set-up screen's helpers build into: its widgets, what each one means, and the texts
drawn beside them.

The scene (`gui.setup.scene`) makes a fresh `SetupForm` for each layout and hands it to its
helpers (`custom_ai`, `from_file`, `volume`) with the few values each reads; they add their
widgets to it and return what they change.  None of them sees the scene.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import pygame
import pygame_gui

from plyground.gui.theme import Metrics
from plyground.gui.widgets.drop_down import drop_down

W = TypeVar("W")


@dataclass
class SetupForm:
    """The set-up screen's widgets of one layout and the places of their texts."""

    manager: pygame_gui.UIManager
    metrics: Metrics
    register: Callable[[Any], Any]
    """The scene's own `add`: a widget it drops when the screen is laid out again."""
    ids: dict[Any, tuple[str, int]] = field(default_factory=dict)
    """Each widget's (action, side index): what its events mean."""
    card_rects: list[pygame.Rect] = field(default_factory=list)
    descriptions: list[tuple[pygame.Rect, list[str]]] = field(default_factory=list)
    """Texts drawn in a card: where, and the lines (a list the helper may fill in later)."""
    field_labels: list[tuple[int, str, tuple[int, int]]] = field(default_factory=list)
    depth_values: list[tuple[int, pygame.Rect]] = field(default_factory=list)
    randomness_values: list[tuple[int, pygame.Rect]] = field(default_factory=list)
    exploration_values: list[tuple[int, pygame.Rect]] = field(default_factory=list)
    volume_label: tuple[int, int] | None = None
    volume_value: pygame.Rect | None = None

    def add(self, widget: W) -> W:
        """`widget`, shown until the next layout."""
        self.register(widget)
        return widget

    def button(
        self,
        rect: pygame.Rect,
        text: str,
        action: str,
        index: int = -1,
        selected: bool = False,
        primary: bool = False,
        tip: str | None = None,
    ) -> pygame_gui.elements.UIButton:
        """A button whose presses come back as (`action`, `index`)."""
        object_id = "#primary" if primary else ("#selected" if selected else None)
        button = self.add(
            pygame_gui.elements.UIButton(
                rect, text, self.manager, object_id=object_id, tool_tip_text=tip
            )
        )
        self.ids[button] = (action, index)
        return button

    def dropdown(
        self,
        options: list[str],
        current: str,
        rect: pygame.Rect,
        action: str,
        index: int = -1,
        up: bool = False,
    ) -> None:
        """A drop-down of `options` showing `current`; its changes come back as `action`."""
        if current not in options:
            current = options[0]
        menu = self.add(
            drop_down(
                list[str | tuple[str, str]](options),
                current,
                rect,
                self.manager,
                object_id="#dropup" if up else None,
            )
        )
        self.ids[menu] = (action, index)
