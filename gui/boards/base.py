"""What every board view offers, and the context the play scene hands it each frame."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pygame

from gui import theme
from gui.theme import Colour


@dataclass
class ViewContext:
    """Everything a view needs besides the state; built fresh by the play scene each frame.

    Views only read it: drawing changes neither the state nor the context.
    """

    now: float = 0.0
    scale: float = 1.0
    mouse: tuple[int, int] | None = None
    interactive: bool = False
    """True when a human may move now (hover previews and clicks are live)."""
    winning_line: tuple[Any, ...] | None = None
    values: dict[Any, float] | None = None
    """Value of each legal move for the player to move (analysis panel shown)."""
    stochastic: bool = False
    chosen: Any = None
    hint: Any = None
    last_move: Any = None
    anim: dict[str, Any] = field(default_factory=dict)
    """View-specific animation progress (see each view)."""
    cue: tuple[Any, float] | None = None
    """A gentle 'not here' cue: (what it is about, seconds since it started)."""
    names: tuple[str, str] = ("Player 1", "Player 2")


class BoardView:
    """Base class: subclasses implement draw, move_at and move_for_key."""

    def draw(
        self, surface: pygame.Surface, rect: pygame.Rect, state: Any, ctx: ViewContext
    ) -> None:
        """Draw `state` inside `rect`."""
        raise NotImplementedError

    def move_at(self, rect: pygame.Rect, state: Any, pos: tuple[int, int]) -> Any:
        """The move a click at `pos` means, or None (which may be an illegal move)."""
        raise NotImplementedError

    def move_for_key(self, state: Any, key: int, unicode: str) -> Any:
        """The move a key press means, or None."""
        raise NotImplementedError

    def needs_hover_redraw(self) -> bool:
        """Whether mouse movement changes the picture (all current views: yes)."""
        return True


def value_colour(value: float) -> Colour:
    """Green for good, red for bad, grey near zero (from the mover's point of view)."""
    if value > 0.02:
        return theme.mix(theme.TEXT_DIM, theme.SUCCESS, min(1.0, 0.35 + value))
    if value < -0.02:
        return theme.mix(theme.TEXT_DIM, theme.DANGER, min(1.0, 0.35 - value))
    return theme.TEXT_DIM


def short_value(value: float, stochastic: bool) -> str:
    """Compact value text for a board label ('win in 3', '+0.25', '62%')."""
    from ai.values import describe

    text = describe(value, stochastic)
    if stochastic and text.endswith(" to win"):
        text = text[: -len(" to win")]
    return text


def digit_of(key: int, unicode: str) -> int | None:
    """The digit a key press typed (top row or keypad), or None."""
    if unicode and unicode.isdigit():
        return int(unicode)
    keypad = {getattr(pygame, f"K_KP{i}", -1): i for i in range(10)}
    keypad.update({getattr(pygame, f"K_KP_{i}", -1): i for i in range(10)})
    return keypad.get(key)
