"""Minimax as on the course slides: MAX-VALUE takes the largest child, MIN-VALUE the smallest.

Depth-limited: at `depth` 0 (or at the game's end) a position is evaluated.  Values are
always MAX's, so MAX maximises and MIN minimises the same number.
"""

from __future__ import annotations

import math

from plyground.ai.textbook.observer import MAX, QUIET, Observer, S, SearchGame
from plyground.games.base import Move


def minimax(game: SearchGame[S], state: S, depth: int, observer: Observer[S] = QUIET) -> float:
    """MINIMAX-VALUE of `state` for MAX, looking `depth` player decisions ahead."""

    def value(state: S, depth: int) -> float:
        observer.enter(state, depth, -math.inf, math.inf)
        if game.is_cutoff(state, depth):
            v = game.evaluate(state)
            observer.leaf(state, v)
        elif game.to_move(state) == MAX:
            v = max_value(state, depth)
        else:
            v = min_value(state, depth)
        observer.leave(state, v)
        return v

    def max_value(state: S, depth: int) -> float:
        v = -math.inf
        for a in game.actions(state):
            child = value(game.result(state, a), depth - 1)
            v = max(v, child)
            observer.backed_up(state, a, child, v)
        return v

    def min_value(state: S, depth: int) -> float:
        v = math.inf
        for a in game.actions(state):
            child = value(game.result(state, a), depth - 1)
            v = min(v, child)
            observer.backed_up(state, a, child, v)
        return v

    return value(state, depth)


def minimax_decision(game: SearchGame[S], state: S, depth: int) -> tuple[Move, float]:
    """MINIMAX-DECISION: the move MAX plays at `state` and its value, `depth` decisions
    ahead: the move whose position MIN-VALUE rates highest (the first such in the game's
    order)."""
    best_move: Move = None
    best = -math.inf
    for a in game.actions(state):
        v = minimax(game, game.result(state, a), depth - 1)
        if v > best:
            best_move, best = a, v
    return best_move, best
