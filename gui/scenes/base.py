"""The scene protocol: handle events, update with dt, draw (drawing changes nothing)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame
import pygame_gui

if TYPE_CHECKING:
    from plyground.gui.app import App


class Scene:
    """A screen on the app's stack.  Widgets exist only while the scene is on top.

    `build()` creates the pygame_gui widgets for the current window size; the app calls
    it when the scene becomes the top one and again after every resize, after `clear()`
    has removed the old ones.  Everything worth keeping lives in plain attributes.
    """

    title = ""

    def __init__(self, app: App) -> None:
        self.app = app
        self.widgets: list[pygame_gui.core.UIElement] = []

    @property
    def manager(self) -> pygame_gui.UIManager:
        """The app's pygame_gui manager."""
        return self.app.manager

    def add(self, widget: Any) -> Any:
        """Remember a widget so `clear()` can remove it; returns it."""
        self.widgets.append(widget)
        return widget

    def add_back_button(self, rect: pygame.Rect) -> Any:
        """The primary "Back" button at `rect` (its tip: Esc does the same); returns it."""
        return self.add(
            pygame_gui.elements.UIButton(
                rect, "Back", self.manager, object_id="#primary", tool_tip_text="Esc"
            )
        )

    def build(self) -> None:
        """Create this scene's widgets for the current window size."""

    def clear(self) -> None:
        """Remove this scene's widgets."""
        for widget in self.widgets:
            widget.kill()  # type: ignore[no-untyped-call]
        self.widgets.clear()

    def enter(self) -> None:
        """The scene became the top of the stack."""
        self.build()

    def leave(self) -> None:
        """Another scene covers this one, or it is being removed."""
        self.clear()

    def close(self) -> None:
        """The scene is removed for good (stop anything it started)."""

    def handle(self, event: pygame.event.Event) -> bool:
        """React to one event; True when it was used."""
        return False

    def update(self, dt: float) -> None:
        """Advance animations and poll background work by `dt` seconds."""

    def keys_help(self) -> list[tuple[str, str]]:
        """This screen's own keys for the F1 card ((keys, what they do)); the window's
        keys (F1, F2, F11) follow them.  Empty: the card lists every screen's keys."""
        return []

    def toast_area(self) -> pygame.Rect:
        """Where the app's toasts may go (centred at its top): the whole window by default."""
        return pygame.Rect((0, 0), self.app.size)

    def animating(self) -> bool:
        """Whether the picture changes without an event (an animation, a search reporting
        progress); the app redraws only then, or after an event, and rests otherwise."""
        return False

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the scene (widgets are drawn by the app on top)."""
