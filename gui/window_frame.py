"""The window's frame: its first size (remembered, or one that fits the screen with its
taskbar), where it was on the screen, and full screen (F11).

The settings keep `window_size`, `window_position` and `fullscreen`; a remembered size or
place that no longer fits the screen (a smaller monitor, a monitor unplugged) is not used.
"""

from __future__ import annotations

import contextlib
import warnings
from typing import Any

import pygame

from plyground.gui import theme

DESIGN_SIZE = (1280, 800)
"""The size the layouts were drawn for: the default window where the screen has room."""
SCREEN_MARGIN = (80, 110)
"""Room left around a new window: a taskbar or dock, the title bar, a little air (a
1366x768 laptop gets a 1280x658 window)."""


def desktop_size() -> tuple[int, int] | None:
    """The size of the (first) screen, or None when the video driver does not say."""
    with contextlib.suppress(pygame.error, AttributeError):
        sizes = pygame.display.get_desktop_sizes()
        if sizes:
            return int(sizes[0][0]), int(sizes[0][1])
    return None


def default_size(desktop: tuple[int, int] | None) -> tuple[int, int]:
    """The design size, shrunk to fit `desktop` less `SCREEN_MARGIN` (never below 800x600)."""
    if desktop is None:
        return DESIGN_SIZE
    width = min(DESIGN_SIZE[0], desktop[0] - SCREEN_MARGIN[0])
    height = min(DESIGN_SIZE[1], desktop[1] - SCREEN_MARGIN[1])
    return max(theme.MIN_WINDOW[0], width), max(theme.MIN_WINDOW[1], height)


def no_window_fits(desktop: tuple[int, int] | None) -> bool:
    """Whether the smallest window (800x600, where layouts were checked) with its title bar
    and a taskbar is taller or wider than the screen: then the window fills the screen."""
    if desktop is None:
        return False
    return (
        desktop[0] < theme.MIN_WINDOW[0] + SCREEN_MARGIN[0] // 4
        or desktop[1] < theme.MIN_WINDOW[1] + SCREEN_MARGIN[1] // 2
    )


SMALL_SCREEN_NOTE = (
    "This screen has no room for a window of 800x600 with its title bar: Plyground fills "
    "it (F11: a window)"
)
"""Said once when a small screen opens the window full screen."""


def first_size(remembered: Any, desktop: tuple[int, int] | None) -> tuple[int, int]:
    """The remembered size when it is one and fits `desktop`, else `default_size`."""
    if is_pair(remembered):
        width, height = int(remembered[0]), int(remembered[1])
        fits = desktop is None or (width <= desktop[0] and height <= desktop[1])
        if fits and width >= theme.MIN_WINDOW[0] and height >= theme.MIN_WINDOW[1]:
            return width, height
    return default_size(desktop)


def is_pair(value: Any) -> bool:
    """Whether `value` is two whole numbers (a size or a place as the settings keep them)."""
    return (
        isinstance(value, (list, tuple))
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    )


def _window() -> Any:
    """The display's `pygame.Window`, or None (an older pygame or no window)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            return pygame.Window.from_display_module()
    except (AttributeError, pygame.error):
        return None


def position() -> tuple[int, int] | None:
    """Where the window's top left corner is on the screen (None: unknown)."""
    window = _window()
    if window is None:
        return None
    with contextlib.suppress(AttributeError, pygame.error):
        x, y = window.position
        return int(x), int(y)
    return None


def place(remembered: Any, size: tuple[int, int], desktop: tuple[int, int] | None) -> bool:
    """Put the window back where it was when that place keeps it on the screen; whether it
    moved."""
    if not is_pair(remembered) or desktop is None:
        return False
    x, y = int(remembered[0]), int(remembered[1])
    if x < 0 or y < 0 or x + size[0] > desktop[0] or y + size[1] > desktop[1]:
        return False
    window = _window()
    if window is None:
        return False
    with contextlib.suppress(AttributeError, pygame.error):
        window.position = (x, y)
        return True
    return False


def keep_on_screen(
    where: tuple[int, int] | None, size: tuple[int, int], desktop: tuple[int, int] | None
) -> None:
    """Put the window at `where` when it is whole on the screen there, else centre it."""
    if where is not None and place(where, size, desktop):
        return
    window = _window()
    if window is None or desktop is None:
        return
    x = max(0, (desktop[0] - size[0]) // 2)
    y = max(0, (desktop[1] - size[1]) // 2)
    with contextlib.suppress(AttributeError, pygame.error):
        window.position = (x, y)


def set_minimum_size() -> None:
    """Keep the window from shrinking below 800x600 (where layouts were checked)."""
    window = _window()
    if window is not None:
        with contextlib.suppress(AttributeError, pygame.error):
            window.minimum_size = theme.MIN_WINDOW


def open_display(size: tuple[int, int], fullscreen: bool) -> pygame.Surface:
    """The window `size` big (resizable), or full screen at the desktop's size."""
    if fullscreen:
        return pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
    surface = pygame.display.set_mode(size, pygame.RESIZABLE)
    set_minimum_size()
    return surface
