"""The small board in the explorer's hover card: the game's own view, or its text drawing.

The game's view comes from the kit registry when there is one (`gui.kits.kit_for`, the
layout of issue 9) or else from `gui.boards.view_for`; a game without a view (the textbook
trees) or a view that cannot draw a state gets no board.  Drawing goes to a separate
surface, so a view that draws outside its rectangle cannot spill over the card.
"""

from __future__ import annotations

import importlib
from typing import Any

import pygame

_VIEWS: dict[str, Any] = {}


def _view(game_name: str) -> Any:
    """The game's board view, or None."""
    if game_name in _VIEWS:
        return _VIEWS[game_name]
    view = None
    for module_name, factory in (("gui.kits", "kit_for"), ("gui.boards", "view_for")):
        try:
            view = getattr(importlib.import_module(module_name), factory)(game_name)
            break
        except Exception:  # no such registry (yet), or no view for this game
            continue
    _VIEWS[game_name] = view
    return view


def _context(state: Any) -> Any:
    """A fresh, non-interactive view context from whichever module defines it."""
    for module_name in ("gui.kits.base", "gui.kits", "gui.boards.base"):
        try:
            context = importlib.import_module(module_name).ViewContext
        except Exception:
            continue
        return context(stochastic=bool(getattr(state, "STOCHASTIC", False)))
    return None


def has_view(state: Any) -> bool:
    """Whether the state's game has a board view to draw with."""
    return _view(str(getattr(state.game, "name", ""))) is not None


def draw_position(surface: pygame.Surface, rect: pygame.Rect, state: Any) -> bool:
    """Draw `state` as a small board in `rect`; False when the game has no view."""
    view = _view(str(getattr(state.game, "name", "")))
    if view is None:
        return False
    try:
        board = pygame.Surface(rect.size, pygame.SRCALPHA)
        view.draw(board, board.get_rect(), state, _context(state))
    except Exception:  # a view that cannot draw this position: no board, no crash
        return False
    surface.blit(board, rect)
    return True
