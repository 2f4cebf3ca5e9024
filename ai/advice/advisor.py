"""The one advisor: the search behind a human's hint, the board's values and their analysis.

Advice never depends on how strong an opponent the human chose.  At each position it comes
from the best evaluator the game offers there, asked through the game's description and
hooks (no game is named here):

1. an exact heuristic (`Heuristic.exact`: a game's exact table, e.g. an optimal policy's win
   chances), one decision deep: every value is exact (unless the table for the game's
   options is too large to build on this machine: `ai.engine.cost.heuristic_refusal`);
2. a solve, where the game says solving this position is cheap (`solve_is_cheap()`: an
   opening book within reach), with the book;
3. else the game's strongest preset on a small budget (`ADVICE_SECONDS`), with no randomness.

The window's Hint and `plyground hint` run the same `advise`; `advice_title` says which
evaluator answered ("exact table", "opening book", "Expert, depth 14, 1.5 s").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from plyground.ai.engine.cost import heuristic_refusal
from plyground.ai.engine.proof import solve_is_cheap
from plyground.ai.engine.result import SearchProgress, SearchResult
from plyground.ai.engine.search import (
    DepthLimited,
    MonteCarlo,
    algorithms_for,
    searchable_algorithms,
)
from plyground.ai.engine.table import TranspositionTable
from plyground.ai.evaluation.provenance import Source
from plyground.ai.evaluation.wording import counted
from plyground.ai.players.players import SearchPlayer, search_with
from plyground.ai.players.presets import presets_of
from plyground.games.base import Game, State

ADVICE_SECONDS = 1.5
"""The budget of advice from a preset (a solve the game calls cheap runs to its end)."""
SOLVE_SECONDS = 5.0
"""A cheap solve's safety net (it finishes long before on any machine: ai.engine.search)."""


@dataclass(frozen=True, slots=True)
class Advisor:
    """The search that advises at one position, and what to call it before it runs."""

    config: SearchPlayer
    evaluator: str
    """'exact table', 'solver', or the preset's name ('Expert')."""


def exact_heuristic(game: Game[Any]) -> str | None:
    """The name of the game's exact heuristic (an exact table), if it has one."""
    for name, heuristic in game.heuristics.items():
        if getattr(heuristic, "exact", False):
            return str(name)
    return None


def advisor_for(game: Game[Any], state: State[Any]) -> Advisor:
    """The best evaluator the game has at `state` (see the module's docstring)."""
    table = exact_heuristic(game)
    if table is not None and heuristic_refusal(game, table) is None:  # buildable here
        algorithm = algorithms_for(game)[0]
        return Advisor(SearchPlayer(DepthLimited(algorithm, 1, table)), "exact table")
    if "alphabeta" in searchable_algorithms(state) and solve_is_cheap(state):
        config = SearchPlayer(DepthLimited("alphabeta", None), SOLVE_SECONDS)
        return Advisor(config, "solver")
    presets = presets_of(game)
    buildable = [
        name for name in presets if heuristic_refusal(game, presets[name].heuristic) is None
    ]
    name = (buildable or list(presets))[-1]  # the strongest whose tables can be built here
    strongest = presets[name]
    budget = min(strongest.time_limit or ADVICE_SECONDS, ADVICE_SECONDS)
    return Advisor(replace(strongest, randomness=0.0, time_limit=budget, seed=0), name)


def advise_with(
    state: State[Any],
    config: SearchPlayer,
    *,
    progress: Callable[[SearchProgress], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
    finish_now: Callable[[], bool] | None = None,
    table: TranspositionTable | None = None,
) -> SearchResult:
    """Run an advisor's search: every root move's value, with the game's book (`table`: one
    kept across positions, as a game review keeps it).  Where the advisor is Monte Carlo tree
    search (a game with no evaluation), a solve is tried first on a third of its time: where it
    finishes, every move's value is exact (a win's distance too), which playouts cannot give."""
    if isinstance(config.search, MonteCarlo) and "alphabeta" in searchable_algorithms(state):
        solve_time = (config.time_limit or ADVICE_SECONDS) / 3
        solved = search_with(
            state,
            SearchPlayer(DepthLimited("alphabeta", None), solve_time),
            all_values=True,
            progress=progress,
            should_stop=should_stop,
            finish_now=finish_now,
            table=table,
        )
        if solved.complete and all(value.is_exact for value in solved.move_values.values()):
            return solved
    return search_with(
        state,
        config,
        all_values=True,
        progress=progress,
        should_stop=should_stop,
        finish_now=finish_now,
        table=table,
    )


def advise(game: Game[Any], state: State[Any], **options: Any) -> tuple[SearchResult, str]:
    """The advice at `state` and its title (`advice_title`): what the window's Hint shows."""
    advisor = advisor_for(game, state)
    result = advise_with(state, advisor.config, **options)
    return result, advice_title(advisor.evaluator, result)


def advice_title(evaluator: str, result: SearchResult) -> str:
    """Which evaluator answered, from the result's provenance: 'exact table', 'opening
    book', 'solver', or 'Expert, depth 14, 1.5 s' (the preset, depth reached and time)."""
    source = result.evaluation.source
    if source is Source.TABLE:
        return "exact table"
    if source is Source.BOOK:
        return "opening book"
    if source is Source.SOLVER or evaluator == "solver":
        return "solver" if result.evaluation.is_exact else f"solver, depth {result.depth}"
    playouts = result.details.playouts
    if playouts is not None:
        done = counted(playouts.iterations, "iteration")
        return f"{evaluator}, MCTS, {done}, {result.elapsed:.1f} s"
    return f"{evaluator}, depth {result.depth}, {result.elapsed:.1f} s"
