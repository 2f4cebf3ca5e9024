"""Monte Carlo tree search's constants; its settings are `MonteCarlo`, one family of the
search settings (`games.search_settings`), asked of `ai.search` inside a `SearchConfig`."""

from __future__ import annotations

from plyground.games.search_settings import (
    DEFAULT_ITERATIONS,
    EXPLORATION,
    MAX_ITERATIONS,
    MCTS,
    PLAYOUTS,
    MonteCarlo,
    Playout,
)

__all__ = [
    "DEFAULT_ITERATIONS",
    "EXPLORATION",
    "MAX_ITERATIONS",
    "MCTS",
    "PLAYOUTS",
    "PLAYOUT_CUTOFF",
    "MonteCarlo",
    "Playout",
]

PLAYOUT_CUTOFF = 12
"""Plies a heuristic-guided playout plays at random before the heuristic values its position."""
