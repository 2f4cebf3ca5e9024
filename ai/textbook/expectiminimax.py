"""Expectiminimax as on the course slides: minimax plus chance nodes, whose value is the
probability-weighted sum of their outcomes' values.

Depth counts player decisions: a chance layer does not use it up (a chance node is never
cut off by depth, only its children's decisions are).
"""

from __future__ import annotations

import math

from plyground.ai.textbook.observer import CHANCE, MAX, QUIET, Observer, S, SearchGame
from plyground.games.base import Move


def expectiminimax(
    game: SearchGame[S], state: S, depth: int, observer: Observer[S] = QUIET
) -> float:
    """EXPECTIMINIMAX value of `state` for MAX, looking `depth` player decisions ahead."""

    def value(state: S, depth: int) -> float:
        observer.enter(state, depth, -math.inf, math.inf)
        if game.is_cutoff(state, depth):
            v = game.evaluate(state)
            observer.leaf(state, v)
        elif game.to_move(state) == CHANCE:
            v = chance_value(state, depth)
        elif game.to_move(state) == MAX:
            v = max_value(state, depth)
        else:
            v = min_value(state, depth)
        observer.leave(state, v)
        return v

    def chance_value(state: S, depth: int) -> float:
        v = 0.0
        for outcome, p in game.chance_outcomes(state):
            child = value(game.result(state, outcome), depth)
            v += p * child
            observer.backed_up(state, outcome, child, v)
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


def expectiminimax_decision(game: SearchGame[S], state: S, depth: int) -> tuple[Move, float]:
    """The root form: the move MAX plays at `state` and its value, the first best in the
    game's order (no move at a chance node: dice decide there, the value is theirs)."""
    if game.to_move(state) == CHANCE:
        return None, expectiminimax(game, state, depth)
    best_move: Move = None
    best = -math.inf
    for a in game.actions(state):
        v = expectiminimax(game, game.result(state, a), depth - 1)
        if v > best:
            best_move, best = a, v
    return best_move, best
