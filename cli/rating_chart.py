"""The tournament's Elo ranking as a PNG chart, drawn offscreen with pygame.

Imported only by `tournament --plot`, so the other commands never load pygame.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ai.tournament import Rating
    from cli.output import OutputFile


def draw_rating_chart(ranking: Sequence[Rating], title: str, output: OutputFile) -> None:
    """Draw the ranking as dots with 95% whiskers on an Elo axis into a PNG (pygame, offscreen).

    The file is written whole or not at all; a failure raises `cli.output.OutputError`.
    """
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    started = not pygame.font.get_init()  # quit only what we started: the GUI caches fonts
    pygame.font.init()
    try:
        font = pygame.font.Font(None, 26)
        small = pygame.font.Font(None, 22)
        big = pygame.font.Font(None, 34)
        label_width = max(font.size(rating.label)[0] for rating in ranking) + 30
        left, right, top, row = max(140, int(label_width)), 40, 80, 48
        width = 960
        height = top + row * len(ranking) + 90
        surface = pygame.Surface((width, height))
        surface.fill((250, 250, 247))
        ink, grid, accent = (30, 30, 36), (215, 215, 210), (35, 100, 190)
        finite = [
            v
            for rating in ranking
            for v in (rating.low, rating.high, rating.elo)
            if math.isfinite(v)
        ]
        low, high = min(finite), max(finite)
        span = max(high - low, 50.0)
        step = _nice_step(span / 6)
        axis_low = math.floor((low - 0.05 * span) / step) * step
        axis_high = math.ceil((high + 0.05 * span) / step) * step
        plot_right = width - right
        bottom = top + row * len(ranking)

        def x_of(elo: float) -> int:
            return round(left + (elo - axis_low) / (axis_high - axis_low) * (plot_right - left))

        tick = axis_low
        while tick <= axis_high + 1e-9:
            x = x_of(tick)
            pygame.draw.line(surface, grid, (x, top - 10), (x, bottom), 1)
            text = small.render(f"{tick:.0f}", True, ink)
            surface.blit(text, (x - text.get_width() // 2, bottom + 8))
            tick += step
        pygame.draw.line(surface, ink, (left, bottom), (plot_right, bottom), 2)
        for index, rating in enumerate(ranking):
            y = top + row * index + row // 2
            name = font.render(rating.label, True, ink)
            surface.blit(name, (left - name.get_width() - 14, y - name.get_height() // 2))
            x_low, x_high, x = x_of(rating.low), x_of(rating.high), x_of(rating.elo)
            pygame.draw.line(surface, accent, (x_low, y), (x_high, y), 3)
            for end in (x_low, x_high):
                pygame.draw.line(surface, accent, (end, y - 9), (end, y + 9), 3)
            pygame.draw.circle(surface, (200, 60, 40), (x, y), 8)
            value = small.render(f"{rating.elo:.0f}", True, ink)
            surface.blit(value, (x - value.get_width() // 2, y - 28))
        heading = big.render(title, True, ink)
        surface.blit(heading, ((width - heading.get_width()) // 2, 22))
        axis = font.render(
            "Elo rating (mean of the field 1500), dot = estimate, whiskers = 95% interval",
            True,
            ink,
        )
        surface.blit(axis, ((width - axis.get_width()) // 2, bottom + 40))
        output.write_with(lambda path: pygame.image.save(surface, path), (pygame.error,))
    finally:
        if started:
            pygame.font.quit()


def _nice_step(raw: float) -> float:
    """A round tick step (1, 2 or 5 times a power of ten) near `raw`."""
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if factor * power >= raw:
            return float(factor * power)
    return float(10 * power)
