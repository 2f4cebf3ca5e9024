"""Players: anything that, given a state, returns a move.

`HumanPlayer` is fed by its caller (the window), `RandomPlayer` plays uniformly at random,
and `AIPlayer` searches with a `PlayerConfig`: algorithm, depth (or Monte Carlo tree
search's own settings), heuristic, time limit, randomness and seed.  A player given the same
seed plays the same moves.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any, Protocol

from plyground.ai.engine.result import SearchProgress, SearchResult
from plyground.ai.engine.search import (
    ALGORITHM_TITLES,
    MAX_DEPTH,
    MCTS,
    PLAYING_ALGORITHMS,
    KeptTree,
    MctsConfig,
    MctsSettings,
    SearchConfig,
    playing_algorithms,
    search,
)
from plyground.ai.engine.table import TranspositionTable
from plyground.ai.student_code.agents import agent_player, agent_spec, move_seconds
from plyground.ai.student_code.heuristics import (
    IsolatedHeuristic,
    check_heuristic_file,
    evaluating_in_worker,
    is_heuristic_file,
)
from plyground.games.base import Game, Move, State, capabilities
from plyground.untrusted import printable

RANDOM = "random"
"""The algorithm name of a player that picks uniformly among the legal moves."""
AGENT = "agent"
"""The algorithm name of a player from a user's file (`agent` holds its spec)."""


@dataclass(frozen=True, slots=True)
class PlayerConfig:
    """Everything that defines a computer player; plain data, safe to save and to pickle.

    `depth` None means no limit (solve, within `time_limit` if set).  Monte Carlo tree search
    (algorithm "mcts") has no depth: its iterations, exploration constant and playouts are its
    own `mcts` settings, its clock `time_limit`.  `randomness` r > 0
    adds uniform noise in [-r, r] to every root value before choosing, so weaker levels
    sometimes prefer a worse move; proven wins are worth about 1, so r = 0.1 rarely
    throws one away while r = 1 often does.
    """

    algorithm: str = "alphabeta"
    depth: int | None = 4
    heuristic: str | None = None
    time_limit: float | None = None
    randomness: float = 0.0
    seed: int = 0
    agent: str = ""
    """With algorithm AGENT: the file's spec (`my_agent.py`, `a.py:name`, `kaggle:c.py`)."""
    node_limit: int | None = None
    """The most nodes a move may search (None: no limit): iterative deepening keeps the
    deepest depth finished within them, the same move on every machine."""
    mcts: MctsSettings | None = None
    """With algorithm "mcts": its iterations, exploration and playouts (None: the defaults)."""

    def search_config(self, all_values: bool = True) -> SearchConfig | MctsConfig:
        """What this player asks of a search (its randomness and agent are its own)."""
        if self.algorithm == MCTS:
            return MctsConfig(
                self.mcts or MctsSettings(), self.time_limit, self.heuristic, self.seed
            )
        return SearchConfig(
            self.algorithm,
            self.depth,
            self.heuristic,
            self.time_limit,
            self.seed,
            all_values=all_values,
            node_limit=self.node_limit,
        )

    def describe(self) -> str:
        """A short text: 'alpha-beta, depth 6, windows'."""
        if self.algorithm == RANDOM:
            return "random moves"
        if self.algorithm == AGENT:
            spec = agent_spec(self.agent)
            return spec.describe() if spec is not None else printable(self.agent)
        parts = [ALGORITHM_TITLES.get(self.algorithm, self.algorithm)]
        if self.algorithm == MCTS:
            settings = self.mcts or MctsSettings()
            budget = settings.iterations if self.time_limit is None else None
            budget = MctsConfig(settings, self.time_limit).budget() if budget is None else budget
            if budget is not None:
                parts.append(f"{budget:,} iterations")
            parts.append(f"c {settings.exploration:.2g}")
            if settings.playout != "auto":
                parts.append(f"{settings.playout} playouts")
        else:
            parts.append("depth unlimited" if self.depth is None else f"depth {self.depth}")
        if self.algorithm != MCTS or self.heuristic is not None:
            heuristic = self.heuristic or "default heuristic"
            parts.append(
                printable(Path(heuristic).name if is_heuristic_file(heuristic) else heuristic)
            )
        if self.time_limit is not None:
            parts.append(f"{self.time_limit:g} s")
        if self.node_limit is not None:
            parts.append(f"{self.node_limit:,} nodes a move")
        if self.randomness:
            parts.append(f"randomness {self.randomness:g}")
        return ", ".join(parts)

    def to_dict(self) -> dict[str, Any]:
        """As plain JSON-ready data (a node budget and MCTS's settings only where the player
        has them, so a settings file written before either reads the same)."""
        data = asdict(self)
        for optional in ("node_limit", "mcts"):
            if data[optional] is None:
                del data[optional]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PlayerConfig:
        """Build from plain data, checking every field's type (for settings and save files)."""
        if not isinstance(data, dict):
            raise ValueError("a player's settings must be an object")
        unknown = set(data) - {
            "algorithm",
            "depth",
            "heuristic",
            "time_limit",
            "randomness",
            "seed",
            "agent",
            "node_limit",
            "mcts",
        }
        if unknown:
            raise ValueError(f"unknown player setting(s): {', '.join(sorted(unknown))}")
        data = dict(data)
        settings = data.get("mcts")
        if isinstance(settings, dict):
            extra = set(settings) - {"iterations", "exploration", "playout"}
            if extra:
                raise ValueError(f"unknown MCTS setting(s): {', '.join(sorted(extra))}")
            data["mcts"] = MctsSettings(**settings)
        elif settings is not None:
            raise ValueError("a player's MCTS settings must be an object")
        config = cls(**data)
        config.validate()
        return config

    def validate(self, game: Game[Any] | None = None) -> None:
        """Raise ValueError with a clear message if a field is out of range."""
        if self.algorithm == AGENT:
            spec = agent_spec(self.agent) if isinstance(self.agent, str) else None
            if spec is None:
                raise ValueError(f"an agent needs a Python file, not {self.agent!r}")
            if game is not None:
                spec.check()
                if spec.kaggle and capabilities(game).kaggle_configuration is None:
                    raise ValueError(f"{game.title} has no Kaggle format")
            return
        if self.algorithm not in (*PLAYING_ALGORITHMS, RANDOM):
            raise ValueError(
                f"unknown algorithm {self.algorithm!r}; choose one of: "
                f"{', '.join((*PLAYING_ALGORITHMS, RANDOM))}"
            )
        if self.mcts is not None:
            if self.algorithm != MCTS:
                raise ValueError(f"{self.algorithm} takes no MCTS settings")
            self.mcts.check()
        if self.depth is not None and (
            not isinstance(self.depth, int) or not 1 <= self.depth <= MAX_DEPTH
        ):
            raise ValueError(f"depth must be 1 to {MAX_DEPTH} or none, not {self.depth!r}")
        if self.time_limit is not None and (
            not isinstance(self.time_limit, (int, float)) or not 0 < self.time_limit <= 3600
        ):
            raise ValueError(f"time must be a positive number of seconds, not {self.time_limit!r}")
        if not isinstance(self.randomness, (int, float)) or not 0 <= self.randomness <= 2:
            raise ValueError(f"randomness must be 0 to 2, not {self.randomness!r}")
        if not isinstance(self.seed, int):
            raise ValueError(f"seed must be a whole number, not {self.seed!r}")
        if self.node_limit is not None and (
            not isinstance(self.node_limit, int)
            or isinstance(self.node_limit, bool)
            or self.node_limit < 1
        ):
            raise ValueError(f"nodes must be a positive whole number, not {self.node_limit!r}")
        if (
            self.depth is None
            and self.time_limit is None
            and self.algorithm
            not in (
                "alphabeta",
                RANDOM,
                MCTS,
            )
        ):
            raise ValueError(f"{self.algorithm} needs a depth or a time limit")
        if game is not None:
            if self.algorithm != RANDOM and self.algorithm not in playing_algorithms(game):
                raise ValueError(
                    f"{self.algorithm} cannot play {game.title}; choose one of: "
                    f"{', '.join(playing_algorithms(game))}"
                )
            if is_heuristic_file(self.heuristic):
                check_heuristic_file(str(self.heuristic))
            elif self.heuristic is not None and self.heuristic not in game.heuristics:
                raise ValueError(
                    f"unknown heuristic {self.heuristic!r} for {game.name}; choose one of: "
                    f"{', '.join(game.heuristics)}"
                )


def search_with(
    state: State[Any],
    config: PlayerConfig,
    *,
    all_values: bool = True,
    seed: int | None = None,
    time_limit: float | None = None,
    progress: Callable[[SearchProgress], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
    finish_now: Callable[[], bool] | None = None,
    table: TranspositionTable | None = None,
    tree: KeptTree | None = None,
) -> SearchResult:
    """Search `state` with a player's config (`PlayerConfig.search_config`), with another
    `seed` or `time_limit` where given, and `search`'s callbacks (and what it keeps between
    moves: a depth-limited search's `table`, MCTS's `tree`)."""
    asked = config.search_config(all_values)
    if seed is not None:
        asked = replace(asked, seed=seed)
    if time_limit is not None:
        asked = replace(asked, time_limit=time_limit)
    return search(
        state,
        asked,
        progress=progress,
        should_stop=should_stop,
        finish_now=finish_now,
        table=table,
        tree=tree,
    )


class Player(Protocol):
    """Anything that picks a move for a state."""

    name: str

    def choose(self, state: State[Any]) -> Move:
        """The move to play in `state`."""
        ...


class SearchingPlayer(Protocol):
    """A player the window's AI worker asks for moves: it takes a search's options (a file's
    agent, which does not search here, takes and ignores them) and keeps its last search."""

    name: str
    last_result: SearchResult | None

    def choose(
        self,
        state: State[Any],
        *,
        all_values: bool = False,
        progress: Callable[[SearchProgress], None] | None = None,
        should_stop: Callable[[], bool] | None = None,
        finish_now: Callable[[], bool] | None = None,
    ) -> Move:
        """The move to play in `state`, searched with these options."""
        ...


class HumanPlayer:
    """A person: the caller supplies the moves, so `choose` is never asked."""

    def __init__(self, name: str = "Human") -> None:
        self.name = name

    def choose(self, state: State[Any]) -> Move:
        """Humans move through the window; there is nothing to compute."""
        raise RuntimeError("a human player's moves come from the window, not from choose()")


class RandomPlayer:
    """Plays a uniformly random legal move, from its own seeded generator."""

    def __init__(self, seed: int = 0, name: str = "Random") -> None:
        self.name = name
        self.rng = random.Random(seed)
        self.last_result: SearchResult | None = None

    def choose(self, state: State[Any]) -> Move:
        """A random legal move."""
        return self.rng.choice(state.legal_moves())


class AIPlayer:
    """A searching player built from a `PlayerConfig`; keeps its table between moves."""

    def __init__(self, config: PlayerConfig, game: Game[Any], name: str | None = None) -> None:
        config.validate(game)
        self.config = config
        self.game = game
        self.name = name or config.describe()
        self.rng = random.Random(config.seed)
        # Solving (no depth limit) and chance games' (position, depth) entries want a larger table.
        bits = 20 if game.stochastic or config.depth is None else 18
        if config.algorithm == MCTS:
            bits = 8  # MCTS keeps a tree, not a table
        self.table = TranspositionTable(bits=bits)
        self.tree = KeptTree()
        """Monte Carlo tree search's tree, kept from one move to the next of a game."""
        self.last_result: SearchResult | None = None

    def choose(
        self,
        state: State[Any],
        all_values: bool = False,
        progress: Callable[[SearchProgress], None] | None = None,
        should_stop: Callable[[], bool] | None = None,
        finish_now: Callable[[], bool] | None = None,
    ) -> Move:
        """Search and return a move; `last_result` keeps the analysis."""
        config = self.config
        if config.algorithm == RANDOM:
            return self.rng.choice(state.legal_moves())
        seed = self.rng.getrandbits(32)
        result = search_with(
            state,
            config,
            seed=seed,
            all_values=all_values or config.randomness > 0,
            table=self.table,
            tree=self.tree if config.algorithm == MCTS else None,
            progress=progress,
            should_stop=should_stop,
            finish_now=finish_now,
        )
        self.last_result = result
        if config.randomness <= 0:
            return result.move
        noisy = {
            move: value + self.rng.uniform(-config.randomness, config.randomness)
            for move, value in result.values.items()
        }
        return max(noisy, key=noisy.__getitem__)


def make_player(config: PlayerConfig, game: Game[Any], name: str | None = None) -> Any:
    """The player a config describes; one from a user's file runs in a worker process
    (`ai.student_code.agents`), unless this process is such a worker already."""
    if config.algorithm == AGENT:
        spec = agent_spec(config.agent)
        if spec is None:
            raise ValueError(f"an agent needs a Python file, not {config.agent!r}")
        return agent_player(spec, game)
    if is_heuristic_file(config.heuristic):
        return search_player(config, game, name)
    if config.algorithm == RANDOM:
        return RandomPlayer(config.seed, name or "Random")
    return AIPlayer(config, game, name)


class IsolatedSearchPlayer:
    """A searching player whose heuristic is a student's file: the search runs here, each
    leaf's value comes from a worker process (`ai.student_code.heuristics`), checked here."""

    def __init__(
        self, config: PlayerConfig, game: Game[Any], name: str | None, seconds: float
    ) -> None:
        self.name = name or config.describe()
        self.path = str(config.heuristic)
        self.evaluator = IsolatedHeuristic(self.path, seconds, search="one move")
        self.player = AIPlayer(config, game, self.name)
        self.last_result: SearchResult | None = None

    def start(self) -> None:
        """Load the file before the game (raises UserCodeError when it fails to load)."""
        self.evaluator.start()

    def choose(self, state: State[Any], **search_options: Any) -> Move:
        """Search with the file's evaluate (raises UserCodeError: the game is forfeit)."""
        with evaluating_in_worker(self.evaluator):
            move = self.player.choose(state, **search_options)
        self.last_result = self.player.last_result
        return move

    def close(self) -> None:
        """End the worker process."""
        self.evaluator.close()


def search_player(
    config: PlayerConfig, game: Game[Any], name: str | None = None
) -> IsolatedSearchPlayer:
    """The isolated player of a search with a heuristic from a file: its evaluations may take
    the game's time per move, each and all of one move's together (more: a loss on time)."""
    config.validate(game)
    return IsolatedSearchPlayer(config, game, name, move_seconds(game))


def player_for_window(config: PlayerConfig, game: Game[Any]) -> SearchingPlayer:
    """The window's AI worker's player: one from a file (an agent, or a search with a
    heuristic from a file) moves in a worker process of its own, with its limits."""
    if config.algorithm == AGENT:
        agent: SearchingPlayer = make_player(config, game)  # takes and ignores the options
        return agent
    if is_heuristic_file(config.heuristic):
        config.validate(game)
        return search_player(config, game)
    return AIPlayer(config, game)


def with_seed(config: PlayerConfig, seed: int) -> PlayerConfig:
    """The same config with another seed (used to give each game of a match its own)."""
    return replace(config, seed=seed)
