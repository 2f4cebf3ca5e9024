"""The small board in the explorer's hover card: the game's own view, or its text drawing.

The game's view comes from its kit (`gui.kits.kit_for`); a game without a kit (the textbook
trees) or a view that cannot draw a state gets no board.  Drawing goes to a separate
surface, so a view that draws outside its rectangle cannot spill over the card.
"""

from __future__ import annotations

from typing import Any

import pygame

from plyground.games.base import State
from plyground.gui.kits import MissingKitError, ViewContext, kit_for

_VIEWS: dict[str, Any] = {}


def _view(game_name: str) -> Any:
    """The game's board view, or None."""
    if game_name in _VIEWS:
        return _VIEWS[game_name]
    try:
        view: Any = kit_for(game_name)
    except MissingKitError:  # a game without a kit (the textbook trees)
        view = None
    _VIEWS[game_name] = view
    return view


def _context(state: State[Any]) -> Any:
    """A fresh, non-interactive view context from whichever module defines it."""
    return ViewContext(stochastic=bool(getattr(state, "STOCHASTIC", False)))


def has_view(state: State[Any]) -> bool:
    """Whether the state's game has a board view to draw with."""
    return _view(str(getattr(state.game, "name", ""))) is not None


def draw_position(surface: pygame.Surface, rect: pygame.Rect, state: State[Any]) -> bool:
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
