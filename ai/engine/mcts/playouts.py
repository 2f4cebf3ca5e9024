"""Playouts: a game played on from a new node of the tree to give a result.

Every result is a number on the value scale (`ai.evaluation.values`) for the FIRST player
(side 0): +1 a win, -1 a loss, 0 a draw, or the heuristic's judgement where a playout is cut
off early.  The tree turns it into each node's own point of view by whose move it is there,
never by alternation, so a game where a side moves twice in a row is backed up right.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from plyground.ai.engine.bookkeeping import terminal_units
from plyground.ai.engine.mcts.settings import PLAYOUT_CUTOFF, Playout
from plyground.ai.evaluation.values import HEURISTIC_UNITS, SCALE, WIN
from plyground.games.base import CHANCE, Heuristic, State, sample_outcome, state_capabilities

MAX_PLAYOUT = 2_000
"""Plies after which a playout stops and counts as a draw (a game whose lines may repeat)."""
LIMIT = HEURISTIC_UNITS / SCALE


def terminal_value(state: State[Any]) -> float:
    """A finished game's value for side 0: +1 a win, -1 a loss, 0 a draw (a game of scores:
    its score inside the heuristic band, `ai.engine.bookkeeping.terminal_units`)."""
    offered = state_capabilities(state)
    if offered.utility_is_value:
        value = terminal_units(state, offered) / SCALE
        return value if state.player == 0 else -value
    winner = state.winner()
    return 0.0 if winner is None else (WIN if winner == 0 else -WIN)


class Playouts:
    """The playouts of one search: `run(state)` returns a result for side 0.

    "random" plays uniformly random moves (chance outcomes by their probabilities) to the end.
    "heuristic" plays a move that wins at once where the game names one (its
    ``winning_move`` hook), else a random one, and after `PLAYOUT_CUTOFF` plies lets the
    heuristic value the position: an early cut-off (`evaluations` counts them).  A game that
    walks a position in place (``in_place``) and has no chance is played out on the walk:
    the same moves, without a new position per ply.
    """

    def __init__(
        self, root: State[Any], policy: Playout, heuristic: Heuristic, rng: random.Random
    ) -> None:
        offered = state_capabilities(root)
        real_heuristic = not heuristic.blind
        if policy == "auto":
            policy = "heuristic" if real_heuristic else "random"
        self.policy: Playout = policy
        self.rng = rng
        self.evaluate: Callable[[Any], float] = heuristic.evaluate
        self.cutoff = PLAYOUT_CUTOFF if policy == "heuristic" and real_heuristic else MAX_PLAYOUT
        self.winning_move = offered.winning_move if policy == "heuristic" else None
        self.scored = offered.utility_is_value
        self.walk = offered.in_place if not root.STOCHASTIC and not self.scored else None
        self.own_playout = (
            offered.random_playout if policy == "random" and not self.scored else None
        )
        self.evaluations = 0
        """Playouts the heuristic valued (cut off before the end)."""

    def run(self, state: State[Any]) -> float:
        """One playout from `state` (not finished): its result for side 0."""
        if self.own_playout is not None:  # the game plays it itself, the same moves faster
            winner = self.own_playout(state, self.rng)
            return 0.0 if winner is None else (WIN if winner == 0 else -WIN)
        if self.walk is not None and self.cutoff == MAX_PLAYOUT and self.winning_move is None:
            return self._walked(state)
        rng_random = self.rng.random
        winning_move = self.winning_move
        plies = 0
        while not state.is_terminal():
            if plies >= self.cutoff:
                return self._judged(state)
            plies += 1
            if state.to_move == CHANCE:
                state = state.play(sample_outcome(state, self.rng))
                continue
            if winning_move is not None and winning_move(state) is not None:
                return WIN if state.to_move == 0 else -WIN
            moves = state.legal_moves()
            state = state.play(moves[int(rng_random() * len(moves))])
        return terminal_value(state)

    def _judged(self, state: State[Any]) -> float:
        """The heuristic's value of a position a playout stopped at, for side 0."""
        if plies_left_is_unbounded(self.cutoff):
            return 0.0
        self.evaluations += 1
        value = max(-LIMIT, min(LIMIT, float(self.evaluate(state))))
        return value if state.player == 0 else -value

    def _walked(self, state: State[Any]) -> float:
        """A random playout on the game's in-place walk (`games.base.InPlacePosition`)."""
        assert self.walk is not None
        walk: Any = self.walk(state)
        rng_random = self.rng.random
        try:
            plies = 0
            while not walk.is_terminal():
                if plies >= MAX_PLAYOUT:
                    return 0.0
                plies += 1
                moves = walk.legal_moves()
                walk.play(moves[int(rng_random() * len(moves))])
            return float(walk.utility(0)) * WIN
        finally:
            walk.release()


def plies_left_is_unbounded(cutoff: int) -> bool:
    """Whether a playout reaching `cutoff` plies was stopped by the safety limit (a draw) rather
    than cut off for the heuristic to value."""
    return cutoff >= MAX_PLAYOUT
