"""Game-agnostic search: minimax, alpha-beta and expectiminimax, players and difficulty presets.

`ai` depends only on the protocol in `games.base`; a new game needs no change here.
"""

from ai.difficulty import DIFFICULTIES, PRESET_BLURBS, get_preset, parse_player_spec
from ai.engine import SearchCancelled, SearchError
from ai.players import (
    AIPlayer,
    HumanPlayer,
    Player,
    PlayerConfig,
    RandomPlayer,
    make_player,
    with_seed,
)
from ai.result import SearchProgress, SearchResult
from ai.search import ALGORITHM_TITLES, ALGORITHMS, MAX_DEPTH, algorithms_for, search
from ai.table import TranspositionTable

__all__ = [
    "ALGORITHMS",
    "ALGORITHM_TITLES",
    "DIFFICULTIES",
    "MAX_DEPTH",
    "PRESET_BLURBS",
    "AIPlayer",
    "HumanPlayer",
    "Player",
    "PlayerConfig",
    "RandomPlayer",
    "SearchCancelled",
    "SearchError",
    "SearchProgress",
    "SearchResult",
    "TranspositionTable",
    "algorithms_for",
    "get_preset",
    "make_player",
    "parse_player_spec",
    "search",
    "with_seed",
]
