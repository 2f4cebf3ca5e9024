"""The tournament's Elo ranking as a PNG chart, drawn offscreen on the shared chart module
(`gui.chart`, the same axes, ticks and theme as the window's charts).

Imported only by `tournament --plot`, so the other commands never load pygame.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from plyground.ai.players.tournament import Rating
    from plyground.cli.output import OutputFile

MARGIN = 40
"""Elo points of room above and below the widest interval."""


def rating_chart(ranking: Sequence[Rating], title: str) -> Any:
    """The ranking as a `gui.chart.Chart`: each player's Elo with its 95% interval."""
    from plyground.ai.players.tournament import ANCHOR
    from plyground.gui import chart, theme

    ranking = [rating for rating in ranking if rating.rated]  # the unrated have no point
    lows = [rating.low for rating in ranking] or [ANCHOR]
    highs = [rating.high for rating in ranking] or [ANCHOR]
    return chart.Chart(
        title=title,
        y_label="Elo (95% interval)",
        series=[
            chart.Series(
                "Elo",
                [(float(index), rating.elo) for index, rating in enumerate(ranking)],
                kind="points",
                colour=theme.ACCENT,
                errors=[(rating.low, rating.high) for rating in ranking],
            )
        ],
        x_ticks=[(float(index), rating.label) for index, rating in enumerate(ranking)],
        x_range=(-0.5, len(ranking) - 0.5),
        y_range=(min(lows) - MARGIN, max(highs) + MARGIN),
        y_format="{:.0f}",
        legend=False,
    )


def draw_rating_chart(ranking: Sequence[Rating], title: str, output: OutputFile) -> None:
    """Draw the ranking into a PNG, written whole or not at all (`cli.output.OutputError`)."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    from plyground.gui import chart

    width = max(960, 140 * len(ranking))
    image = chart.render(rating_chart(ranking, title), (width, 600))
    output.write_with(lambda path: chart.save(image, path), (pygame.error,))
