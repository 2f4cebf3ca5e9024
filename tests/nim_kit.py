"""The window's kit for three-heap Nim (tests/nim_game.py), defined only in tests/.

Each heap is a row of stones; clicking a stone takes it and every stone to its right.
Keys: a digit picks a heap (1-3), the next digit says how many stones to take from it.
Registered the documented way, next to the game: ``gui.kits.register_kit("nim", NimKit)``.
"""

from __future__ import annotations

from typing import Any

import pygame

from plyground.gui import theme
from plyground.gui.kits import BoardView, ViewContext
from plyground.gui.kits.base import digit_of
from plyground.gui.widgets import drawing

ROWS = 3
WIDEST = 5


def stone_centre(rect: pygame.Rect, heap: int, index: int) -> tuple[float, float]:
    """Where stone `index` (from the left) of `heap` is drawn."""
    step = min(rect.width / (WIDEST + 1), rect.height / (ROWS + 1))
    left = rect.centerx - step * (WIDEST - 1) / 2
    top = rect.centery - step * (ROWS - 1) / 2
    return (left + index * step, top + heap * step)


def stone_radius(rect: pygame.Rect) -> float:
    """A stone's radius: a third of the spacing."""
    return min(rect.width / (WIDEST + 1), rect.height / (ROWS + 1)) / 3


class NimKit(BoardView):
    """Rows of stones; click a stone to take it and all to its right, or type heap, count."""

    blurb = "Three heaps of stones: take the last one to win."
    keys_help = "Click a stone, or type the heap then how many."
    move_help = "click a stone, or type heap then count"

    def __init__(self) -> None:
        self.heap: int | None = None
        """The heap picked by the last digit key (waiting for the count)."""

    def draw(
        self, surface: pygame.Surface, rect: pygame.Rect, state: Any, ctx: ViewContext
    ) -> None:
        """Each heap's stones (the ones a click would take lit up), the picked heap marked."""
        hover = self.move_at(rect, state, ctx.mouse) if ctx.mouse and ctx.interactive else None
        radius = stone_radius(rect)
        for heap, size in enumerate(state.heaps):
            for index in range(size):
                taken = hover is not None and hover[0] == heap and index >= size - hover[1]
                colour = theme.PLAYER_COLOURS[state.to_move] if taken else theme.TEXT_DIM
                drawing.circle(surface, colour, stone_centre(rect, heap, index), radius)
            if heap == self.heap:
                x, y = stone_centre(rect, heap, -1)
                drawing.circle(surface, theme.ACCENT, (x, y), radius / 2)

    def move_at(self, rect: pygame.Rect, state: Any, pos: tuple[int, int] | None) -> Any:
        """The stone under `pos` and every stone to its right, or None."""
        if pos is None:
            return None
        radius = stone_radius(rect)
        for heap, size in enumerate(state.heaps):
            for index in range(size):
                x, y = stone_centre(rect, heap, index)
                if (pos[0] - x) ** 2 + (pos[1] - y) ** 2 <= radius**2:
                    return (heap, size - index)
        return None

    def move_for_key(self, state: Any, key: int, unicode: str) -> Any:
        """First digit: the heap (1-3); second digit: how many stones to take from it."""
        digit = digit_of(key, unicode)
        if digit is None:
            return None
        if self.heap is None:
            if 1 <= digit <= len(state.heaps) and state.heaps[digit - 1]:
                self.heap = digit - 1
            return None
        heap, self.heap = self.heap, None
        return (heap, digit) if digit >= 1 else None  # too many: the window says why

    def refusal(self, state: Any, move: Any) -> str | None:
        """Only a count bigger than the heap is refused."""
        return f"Heap {move[0] + 1} has only {state.heaps[move[0]]} stones"
