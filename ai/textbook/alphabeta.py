"""Alpha-beta as on the course slides: minimax that stops looking at a node's moves once
its value is outside the window (alpha, beta) and so cannot change the decision above.

alpha: the best value MAX is already sure of on the path to the root; beta: the best
(lowest) value MIN is sure of.  Fail-soft: a node returns the value it found, which is a
bound when the search stopped early.  The root value is minimax's.
"""

from __future__ import annotations

import math

from plyground.ai.textbook.observer import MAX, QUIET, Observer, S, SearchGame
from plyground.games.base import Move


def alphabeta(
    game: SearchGame[S],
    state: S,
    depth: int,
    alpha: float = -math.inf,
    beta: float = math.inf,
    observer: Observer[S] = QUIET,
) -> float:
    """ALPHA-BETA-SEARCH: the minimax value of `state` for MAX, `depth` decisions ahead
    (within the window (`alpha`, `beta`): outside it, a bound)."""

    def value(state: S, alpha: float, beta: float, depth: int) -> float:
        observer.enter(state, depth, alpha, beta)
        if game.is_cutoff(state, depth):
            v = game.evaluate(state)
            observer.leaf(state, v)
        elif game.to_move(state) == MAX:
            v = max_value(state, alpha, beta, depth)
        else:
            v = min_value(state, alpha, beta, depth)
        observer.leave(state, v)
        return v

    def max_value(state: S, alpha: float, beta: float, depth: int) -> float:
        v = -math.inf
        moves = game.actions(state)
        for i, a in enumerate(moves):
            child = value(game.result(state, a), alpha, beta, depth - 1)
            v = max(v, child)
            observer.backed_up(state, a, child, v)
            if v >= beta:
                observer.cut_off(state, a, v, "beta", moves[i + 1 :])
                return v
            if v > alpha:
                observer.narrowed(state, "alpha", alpha, v)
                alpha = v
        return v

    def min_value(state: S, alpha: float, beta: float, depth: int) -> float:
        v = math.inf
        moves = game.actions(state)
        for i, a in enumerate(moves):
            child = value(game.result(state, a), alpha, beta, depth - 1)
            v = min(v, child)
            observer.backed_up(state, a, child, v)
            if v <= alpha:
                observer.cut_off(state, a, v, "alpha", moves[i + 1 :])
                return v
            if v < beta:
                observer.narrowed(state, "beta", beta, v)
                beta = v
        return v

    return value(state, alpha, beta, depth)


def alphabeta_decision(game: SearchGame[S], state: S, depth: int) -> tuple[Move, float]:
    """The root form: the move MAX plays at `state` and its value.  Each move's position is
    searched with alpha the best value so far (what MAX is already sure of at the root), so
    a worse move is cut off as early as inside the tree; the first best move is kept."""
    best_move: Move = None
    best = -math.inf
    for a in game.actions(state):
        v = alphabeta(game, game.result(state, a), depth - 1, best, math.inf)
        if v > best:
            best_move, best = a, v
    return best_move, best
