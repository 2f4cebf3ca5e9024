"""Game-agnostic search: minimax, alpha-beta and expectiminimax, players and difficulty presets.

`ai` depends only on the protocol in `games.base`; a new game needs no change here.
"""

from plyground.ai.advice.advisor import advise, advisor_for
from plyground.ai.engine.bookkeeping import SearchCancelled, SearchError
from plyground.ai.engine.result import SearchProgress, SearchResult
from plyground.ai.engine.search import (
    ALGORITHM_TITLES,
    ALGORITHMS,
    MAX_DEPTH,
    algorithms_for,
    search,
)
from plyground.ai.engine.table import TranspositionTable
from plyground.ai.evaluation.provenance import Evaluation, Kind, Source
from plyground.ai.players.players import (
    AIPlayer,
    HumanPlayer,
    Player,
    PlayerConfig,
    RandomPlayer,
    make_player,
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

__all__ = [
    "ALGORITHMS",
    "ALGORITHM_TITLES",
    "DIFFICULTIES",
    "MAX_DEPTH",
    "AIPlayer",
    "Evaluation",
    "HumanPlayer",
    "Kind",
    "Player",
    "PlayerConfig",
    "RandomPlayer",
    "SearchCancelled",
    "SearchError",
    "SearchProgress",
    "SearchResult",
    "Source",
    "TranspositionTable",
    "advise",
    "advisor_for",
    "algorithms_for",
    "game_presets",
    "get_preset",
    "make_player",
    "parse_player_spec",
    "preset_config",
    "preset_description",
    "search",
    "trace",
    "with_seed",
]
