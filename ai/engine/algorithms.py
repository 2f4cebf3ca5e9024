"""Which search algorithms there are, and which fit a game: expectiminimax where dice roll,
minimax and alpha-beta where they do not (`ai.engine.search` re-exports these names)."""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from plyground.games.base import Game, State
from plyground.games.search_settings import ALGORITHM_TITLES, DEPTH_ALGORITHMS, MCTS

ALGORITHMS = DEPTH_ALGORITHMS
"""The depth-limited searches (the textbook's three; `DepthLimited` settings)."""
PLAYING_ALGORITHMS = (*ALGORITHMS, MCTS)
"""Every algorithm `search` runs and a player may use: the three above and Monte Carlo tree
search (`ai.engine.mcts`, asked with `MonteCarlo` settings), which plays every game."""
__all__ = [
    "ALGORITHMS",
    "ALGORITHM_TITLES",
    "MCTS",
    "PLAYING_ALGORITHMS",
    "algorithms_for",
    "playing_algorithms",
    "searchable_algorithms",
]


def _has_chance(game_or_state: Game[Any] | State[Any]) -> bool:
    """Whether the game (or a state's game) has chance nodes."""
    kind = type(game_or_state)
    is_state = _STATE_KINDS.get(kind)
    if is_state is None:  # a protocol's isinstance is slow: once per class (a search asks)
        is_state = _STATE_KINDS[kind] = isinstance(game_or_state, _StateLike)
    game = game_or_state.game if is_state else game_or_state  # type: ignore[union-attr]
    return bool(game.stochastic)  # type: ignore[union-attr]


_STATE_KINDS: dict[type, bool] = {}


@runtime_checkable
class _StateLike(Protocol):
    """A position: what has a game (a game has none)."""

    @property
    def game(self) -> Game[Any]: ...


def algorithms_for(game_or_state: Game[Any] | State[Any]) -> tuple[str, ...]:
    """The algorithms worth offering for this game (what a UI lists).

    Expectiminimax only where dice roll (without chance nodes it is minimax under another
    name); minimax and alpha-beta only where they do not.
    """
    return ("expectiminimax",) if _has_chance(game_or_state) else ("minimax", "alphabeta")


def searchable_algorithms(game_or_state: Game[Any] | State[Any]) -> tuple[str, ...]:
    """The depth-limited algorithms `search` accepts for this game: all three where there is
    no chance."""
    return ("expectiminimax",) if _has_chance(game_or_state) else ALGORITHMS


def playing_algorithms(game_or_state: Game[Any] | State[Any]) -> tuple[str, ...]:
    """The algorithms a player may use on this game: those worth offering, and MCTS."""
    return (*algorithms_for(game_or_state), MCTS)
