"""Game-agnostic search: minimax, alpha-beta and expectiminimax, players and difficulty presets.

`ai` depends only on the protocol in `games.base`; a new game needs no change here.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # what IDEs and mypy see; at run time each name loads when first used
    from plyground.ai.advice.advisor import advise, advisor_for
    from plyground.ai.engine.bookkeeping import SearchCancelled, SearchError
    from plyground.ai.engine.result import SearchProgress, SearchResult
    from plyground.ai.engine.search import (
        ALGORITHM_TITLES,
        ALGORITHMS,
        MAX_DEPTH,
        DepthLimited,
        MonteCarlo,
        SearchConfig,
        SearchSettings,
        algorithms_for,
        search,
    )
    from plyground.ai.engine.table import TranspositionTable
    from plyground.ai.evaluation.provenance import Evaluation, Kind, Source
    from plyground.ai.players.players import (
        AgentPlayer,
        AIPlayer,
        HumanPlayer,
        Player,
        PlayerConfig,
        RandomMoves,
        RandomPlayer,
        SearchPlayer,
        make_player,
        player_from_dict,
        with_seed,
    )
    from plyground.ai.players.presets import (
        DIFFICULTIES,
        game_presets,
        get_preset,
        parse_player_spec,
        preset_config,
        preset_description,
    )
    from plyground.ai.textbook.trace import (
        trace,  # the function; its module is ai.textbook.trace
    )

_WHERE = {
    "advise": "plyground.ai.advice.advisor",
    "advisor_for": "plyground.ai.advice.advisor",
    "SearchCancelled": "plyground.ai.engine.bookkeeping",
    "SearchError": "plyground.ai.engine.bookkeeping",
    "SearchProgress": "plyground.ai.engine.result",
    "SearchResult": "plyground.ai.engine.result",
    "ALGORITHM_TITLES": "plyground.ai.engine.search",
    "ALGORITHMS": "plyground.ai.engine.search",
    "MAX_DEPTH": "plyground.ai.engine.search",
    "algorithms_for": "plyground.ai.engine.search",
    "search": "plyground.ai.engine.search",
    "SearchConfig": "plyground.ai.engine.search",
    "DepthLimited": "plyground.ai.engine.search",
    "MonteCarlo": "plyground.ai.engine.search",
    "SearchSettings": "plyground.ai.engine.search",
    "TranspositionTable": "plyground.ai.engine.table",
    "Evaluation": "plyground.ai.evaluation.provenance",
    "Kind": "plyground.ai.evaluation.provenance",
    "Source": "plyground.ai.evaluation.provenance",
    "AIPlayer": "plyground.ai.players.players",
    "HumanPlayer": "plyground.ai.players.players",
    "Player": "plyground.ai.players.players",
    "PlayerConfig": "plyground.ai.players.players",
    "SearchPlayer": "plyground.ai.players.players",
    "RandomMoves": "plyground.ai.players.players",
    "AgentPlayer": "plyground.ai.players.players",
    "player_from_dict": "plyground.ai.players.players",
    "RandomPlayer": "plyground.ai.players.players",
    "make_player": "plyground.ai.players.players",
    "with_seed": "plyground.ai.players.players",
    "DIFFICULTIES": "plyground.ai.players.presets",
    "game_presets": "plyground.ai.players.presets",
    "get_preset": "plyground.ai.players.presets",
    "parse_player_spec": "plyground.ai.players.presets",
    "preset_config": "plyground.ai.players.presets",
    "preset_description": "plyground.ai.players.presets",
    "trace": "plyground.ai.textbook.trace",
}
"""Each public name and the module it lives in (loaded on first use, PEP 562: a process
that needs one part of `ai`, such as a student's worker, loads only that part)."""


def __getattr__(name: str) -> Any:
    """The public name `name`, imported from its module the first time it is asked for."""
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


__all__ = [
    "ALGORITHMS",
    "ALGORITHM_TITLES",
    "DIFFICULTIES",
    "MAX_DEPTH",
    "AIPlayer",
    "AgentPlayer",
    "DepthLimited",
    "Evaluation",
    "HumanPlayer",
    "Kind",
    "MonteCarlo",
    "Player",
    "PlayerConfig",
    "RandomMoves",
    "RandomPlayer",
    "SearchCancelled",
    "SearchConfig",
    "SearchError",
    "SearchPlayer",
    "SearchProgress",
    "SearchResult",
    "SearchSettings",
    "Source",
    "TranspositionTable",
    "advise",
    "advisor_for",
    "algorithms_for",
    "game_presets",
    "get_preset",
    "make_player",
    "parse_player_spec",
    "player_from_dict",
    "preset_config",
    "preset_description",
    "search",
    "trace",
    "with_seed",
]
