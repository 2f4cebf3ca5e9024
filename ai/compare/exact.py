"""The exact value of every root move, where Plyground knows it: Compare's yardstick.

Compare says, beside the move each search chooses, what that move is truly worth, and
Monte Carlo tree search's budget curve (`ai.compare.budget_curve`) counts a choice as
optimal when its exact value equals the best one.  The values come from the game's own
hooks, never from a game's name:

* a game's exact table (its reference policy's `key_of` and `move_values`: an optimal
  policy's win chances), source "table", where the table can be built here
  (`ai.engine.cost.heuristic_refusal` of the game's exact heuristic);
* otherwise a solve (`ai.engine.search` with no depth, the game's opening book and solver
  on), within `seconds`: kept only when it finished and valued every root move exactly
  (source "solver", "book" or "search", as the search labels each value).

Where neither answers in time, the values are not known (None) and Compare says so.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from plyground.ai.engine.cost import heuristic_refusal
from plyground.ai.engine.search import DepthLimited, SearchConfig, SearchError, search
from plyground.ai.evaluation.provenance import Evaluation, Kind, Source
from plyground.games.base import (
    CHANCE,
    HasReferencePolicy,
    Move,
    State,
    ValuedReferencePolicy,
)

EXACT_SECONDS = 10.0
"""The most a solve for the exact values may take (a table answers at once)."""
TOLERANCE = 1e-9
"""Two exact values this close are equal (a table's win chances are floats)."""


@dataclass(frozen=True, slots=True)
class ExactValues:
    """Every root move's exact value, from the point of view of the player to move."""

    values: dict[Move, Evaluation]

    @property
    def best(self) -> float:
        """The best move's exact value."""
        return max(evaluation.value for evaluation in self.values.values())

    def optimal(self) -> frozenset[Move]:
        """The optimal moves: those whose exact value equals the best (a quicker win is
        better than a slower one, as the solver counts it)."""
        best = self.best
        return frozenset(m for m, e in self.values.items() if e.value >= best - TOLERANCE)

    def of(self, move: Move) -> Evaluation | None:
        """The exact value of `move` (None: not a root move)."""
        return self.values.get(move)

    @property
    def source(self) -> str:
        """What the values rest on, in words ('table', 'solver', 'book', 'search'; several
        joined by '+')."""
        return "+".join(sorted({e.source.value for e in self.values.values()}))


def exact_values(
    state: State[Any],
    seconds: float = EXACT_SECONDS,
    should_stop: Callable[[], bool] | None = None,
) -> ExactValues | None:
    """The exact value of every legal move at `state` (a player's decision), or None where
    Plyground does not know them within `seconds`.

    :raises SearchCancelled: `should_stop()` returned True (`ai.engine.search`).
    """
    if state.is_terminal() or state.to_move == CHANCE:
        return None
    table = _from_table(state)
    if table is not None:
        return table
    algorithm = "expectiminimax" if state.STOCHASTIC else "alphabeta"
    config = SearchConfig(
        DepthLimited(algorithm, None), time_limit=seconds, book=True, all_values=True
    )
    try:
        result = search(state, config, should_stop=should_stop)
    except SearchError:
        return None
    values = result.move_values
    if not result.complete or not values or not all(e.is_exact for e in values.values()):
        return None
    return ExactValues(dict(values))


def _from_table(state: State[Any]) -> ExactValues | None:
    """Every move's value from the game's exact table (None: it has none, it cannot be
    built here, or it does not hold the position)."""
    game = state.game
    if not isinstance(game, HasReferencePolicy):
        return None
    exact_names = [name for name, h in game.heuristics.items() if getattr(h, "exact", False)]
    if any(heuristic_refusal(game, name) is not None for name in exact_names):
        return None  # the table is too large to build with these options
    policy = game.reference_policy()
    if not isinstance(policy, ValuedReferencePolicy):
        return None
    key = policy.key_of(state)
    if key is None:
        return None
    chances = policy.move_values(key)
    legal = set(state.legal_moves())
    if set(chances) != legal:
        return None
    return ExactValues(
        {move: Evaluation(2 * p - 1, Kind.EXACT, Source.TABLE) for move, p in chances.items()}
    )
