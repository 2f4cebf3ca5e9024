"""Players: anything that, given a state, returns a move, and the configs that make them.

A `PlayerConfig` is one of three kinds: a `SearchPlayer` (a search's settings, a
`DepthLimited` or a `MonteCarlo`, with a time limit, randomness and seed), `RandomMoves`, or
an `AgentPlayer` (a user's file).  `HumanPlayer` is fed by its caller (the window),
`RandomPlayer` plays uniformly at random and `AIPlayer` searches with a `SearchPlayer`.  A
player given the same seed plays the same moves.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Protocol, TypeVar

from plyground.ai.engine.result import SearchProgress, SearchResult
from plyground.ai.engine.search import (
    DepthLimited,
    KeptTree,
    MonteCarlo,
    SearchConfig,
    SearchSettings,
    playing_algorithms,
    search,
)
from plyground.ai.engine.table import TranspositionTable
from plyground.ai.players.root_parallel import RootParallel, usable_processes
from plyground.ai.student_code.agents import agent_player, agent_spec, move_seconds
from plyground.ai.student_code.heuristics import (
    IsolatedHeuristic,
    check_heuristic_file,
    evaluating_in_worker,
    is_heuristic_file,
)
from plyground.games.base import Game, Move, State, capabilities
from plyground.games.search_settings import settings_from_flat, settings_to_flat
from plyground.untrusted import printable

RANDOM = "random"
"""How a random player is named in a player spec and a settings file."""
AGENT = "agent"
"""How a player from a user's file is named in a settings file (`spec` holds the file)."""
_TIME_LIMIT = 3600


def _check_seed(seed: object) -> None:
    """Raise ValueError unless `seed` is a whole number."""
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ValueError(f"seed must be a whole number, not {seed!r}")


def blind_heuristic(game: Game[Any] | None, search: MonteCarlo) -> bool:
    """Whether MCTS's heuristic on `game` cannot value a position (the game's "none", or a
    game with no evaluation): its playouts then go to the end at random.  No game: not known,
    so False (the heuristic is named as it is)."""
    if game is None:
        return False
    heuristic = game.heuristics.get(search.heuristic or game.default_heuristic)
    return heuristic is not None and heuristic.blind


@dataclass(frozen=True, slots=True)
class SearchPlayer:
    """A computer player that searches: which search (`search`, a `DepthLimited` or a
    `MonteCarlo`) and what a player adds to it.  Plain data, safe to save and to pickle.

    `randomness` r > 0 adds uniform noise in [-r, r] to every root value before choosing, so
    weaker levels sometimes prefer a worse move; proven wins are worth about 1, so r = 0.1
    rarely throws one away while r = 1 often does.
    """

    search: SearchSettings = field(default_factory=lambda: DepthLimited(depth=4))
    time_limit: float | None = None
    """Seconds a move (with a depth or iterations too, whichever ends first)."""
    randomness: float = 0.0
    seed: int = 0

    @property
    def algorithm(self) -> str:
        """The search's algorithm ("alphabeta", "mcts", ...)."""
        return self.search.algorithm

    @property
    def heuristic(self) -> str | None:
        """The search's heuristic (None: the game's default)."""
        return self.search.heuristic

    def search_config(self, all_values: bool = True) -> SearchConfig:
        """What this player asks of a search (its randomness is its own)."""
        return SearchConfig(self.search, self.time_limit, self.seed, all_values=all_values)

    def describe(self, game: Game[Any] | None = None) -> str:
        """A short text: 'alpha-beta, depth 6, windows, 2 s'.  Given the game, MCTS on a
        heuristic that cannot value a position says its playouts are random instead of
        naming that heuristic ('MCTS, 400 iterations, c 1, random playouts')."""
        settings = self.search
        if isinstance(settings, MonteCarlo):
            parts = [settings.describe(self.time_limit, blind=blind_heuristic(game, settings))]
        else:
            parts = [settings.describe()]
        if self.time_limit is not None:
            capped = isinstance(settings, MonteCarlo) and settings.iterations is not None
            parts.append(f"{'at most ' if capped else ''}{self.time_limit:g} s")
        if self.randomness:
            parts.append(f"randomness {self.randomness:g}")
        return printable(", ".join(parts))

    def validate(self, game: Game[Any] | None = None) -> None:
        """Raise ValueError with a clear message if a field is out of range (or, given the
        game, if the search cannot play it or its heuristic is not the game's)."""
        if not isinstance(self.search, (DepthLimited, MonteCarlo)):
            raise ValueError(f"a search's settings, not {self.search!r}")
        if self.time_limit is not None and (
            not isinstance(self.time_limit, (int, float)) or not 0 < self.time_limit <= _TIME_LIMIT
        ):
            raise ValueError(f"time must be a positive number of seconds, not {self.time_limit!r}")
        self.search.check(self.time_limit)
        if not isinstance(self.randomness, (int, float)) or not 0 <= self.randomness <= 2:
            raise ValueError(f"randomness must be 0 to 2, not {self.randomness!r}")
        _check_seed(self.seed)
        if game is None:
            return
        if self.algorithm not in playing_algorithms(game):
            raise ValueError(
                f"{self.algorithm} cannot play {game.title}; choose one of: "
                f"{', '.join(playing_algorithms(game))}"
            )
        heuristic = self.heuristic
        if is_heuristic_file(heuristic):
            check_heuristic_file(str(heuristic))
        elif heuristic is not None and heuristic not in game.heuristics:
            raise ValueError(
                f"unknown heuristic {heuristic!r} for {game.name}; choose one of: "
                f"{', '.join(game.heuristics)}"
            )

    def to_dict(self) -> dict[str, Any]:
        """As plain JSON-ready data, in the flat form every version writes and reads."""
        return {
            **settings_to_flat(self.search),
            "time_limit": self.time_limit,
            "randomness": self.randomness,
            "seed": self.seed,
        }


@dataclass(frozen=True, slots=True)
class RandomMoves:
    """A player that picks uniformly among the legal moves, from its seeded generator."""

    seed: int = 0
    algorithm: ClassVar[str] = RANDOM

    def describe(self) -> str:
        """'random moves'."""
        return "random moves"

    def validate(self, game: Game[Any] | None = None) -> None:
        """Raise ValueError if the seed is not a whole number."""
        _check_seed(self.seed)

    def to_dict(self) -> dict[str, Any]:
        """As plain JSON-ready data (the flat form every version reads)."""
        return {"algorithm": RANDOM, "depth": None, "seed": self.seed}


@dataclass(frozen=True, slots=True)
class AgentPlayer:
    """A player from a user's file: `spec` names it (`my_agent.py`, `a.py:name`,
    `kaggle:c.py`; `ai.student_code.agents`)."""

    spec: str
    seed: int = 0
    algorithm: ClassVar[str] = AGENT

    def describe(self) -> str:
        """The file and the function it plays with."""
        spec = agent_spec(self.spec) if isinstance(self.spec, str) else None
        return spec.describe() if spec is not None else printable(self.spec)

    def validate(self, game: Game[Any] | None = None) -> None:
        """Raise ValueError if the spec names no Python file (or, given the game, the file
        is missing or the game has no Kaggle form a Kaggle agent needs)."""
        spec = agent_spec(self.spec) if isinstance(self.spec, str) else None
        if spec is None:
            raise ValueError(f"an agent needs a Python file, not {self.spec!r}")
        _check_seed(self.seed)
        if game is not None:
            spec.check()
            if spec.kaggle and capabilities(game).kaggle_configuration is None:
                raise ValueError(f"{game.title} has no Kaggle format")

    def to_dict(self) -> dict[str, Any]:
        """As plain JSON-ready data (the flat form every version reads)."""
        return {"algorithm": AGENT, "depth": None, "agent": self.spec, "seed": self.seed}


PlayerConfig = SearchPlayer | RandomMoves | AgentPlayer
"""Everything that defines a computer player; plain data, safe to save and to pickle: one
that searches, one that moves at random, one from a user's file."""
PLAYER_CONFIGS = (SearchPlayer, RandomMoves, AgentPlayer)
"""The kinds of `PlayerConfig`, for `isinstance`."""

_FLAT_KEYS = frozenset(
    {
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
)


def player_from_dict(data: object) -> PlayerConfig:
    """A player's config from plain data (settings and save files), checking every field:
    the flat form every version has written (`algorithm`, `depth`, `heuristic`, ...)."""
    if not isinstance(data, dict):
        raise ValueError("a player's settings must be an object")
    unknown = set(data) - _FLAT_KEYS
    if unknown:
        raise ValueError(f"unknown player setting(s): {', '.join(sorted(unknown))}")
    seed = data.get("seed", 0)
    config: PlayerConfig
    algorithm = data.get("algorithm", "alphabeta")
    try:
        if algorithm == RANDOM:
            config = RandomMoves(seed)
        elif algorithm == AGENT:
            config = AgentPlayer(data.get("agent", ""), seed)
        else:
            config = SearchPlayer(
                settings_from_flat(data),
                data.get("time_limit"),
                data.get("randomness", 0.0),
                seed,
            )
    except TypeError as error:  # a field that is not one
        raise ValueError(f"a player's settings: {error}") from None
    config.validate()
    return config


def search_with(
    state: State[Any],
    config: SearchPlayer,
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
    """Search `state` with a player's config (`SearchPlayer.search_config`), with another
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
    """A searching player built from a `SearchPlayer` (or a `RandomMoves`, for the window's
    worker, which asks every player alike); keeps its table between moves."""

    def __init__(
        self, config: SearchPlayer | RandomMoves, game: Game[Any], name: str | None = None
    ) -> None:
        config.validate(game)
        self.config = config
        self.game = game
        self.name = name or config.describe()
        self.rng = random.Random(config.seed)
        # Solving (no depth limit) and chance games' (position, depth) entries want a larger table.
        settings = config.search if isinstance(config, SearchPlayer) else None
        unlimited = isinstance(settings, DepthLimited) and settings.depth is None
        bits = 20 if game.stochastic or unlimited else 18
        if not isinstance(settings, DepthLimited):
            bits = 8  # MCTS keeps a tree, not a table (a random player keeps neither)
        self.table = TranspositionTable(bits=bits)
        self.tree = KeptTree()
        """Monte Carlo tree search's tree, kept from one move to the next of a game (with the
        helper processes that search beside it, where the settings ask for more than one)."""
        if (
            isinstance(settings, MonteCarlo)
            and usable_processes(settings.processes) > 1
            and not is_heuristic_file(settings.heuristic)  # a student's file: one sandbox
        ):
            self.tree.helpers = RootParallel(settings.processes)
        self.last_result: SearchResult | None = None

    def close(self) -> None:
        """End the helper processes of a root-parallel search, if any."""
        helpers = self.tree.helpers
        if isinstance(helpers, RootParallel):
            helpers.close()

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
        if isinstance(config, RandomMoves):
            return self.rng.choice(state.legal_moves())
        seed = self.rng.getrandbits(32)
        result = search_with(
            state,
            config,
            seed=seed,
            all_values=all_values or config.randomness > 0,
            table=self.table,
            tree=self.tree if isinstance(config.search, MonteCarlo) else None,
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
    if isinstance(config, AgentPlayer):
        spec = agent_spec(config.spec)
        if spec is None:
            raise ValueError(f"an agent needs a Python file, not {config.spec!r}")
        return agent_player(spec, game)
    if isinstance(config, RandomMoves):
        return RandomPlayer(config.seed, name or "Random")
    if is_heuristic_file(config.heuristic):
        return search_player(config, game, name)
    return AIPlayer(config, game, name)


class IsolatedSearchPlayer:
    """A searching player whose heuristic is a student's file: the search runs here, each
    leaf's value comes from a worker process (`ai.student_code.heuristics`), checked here."""

    def __init__(
        self, config: SearchPlayer, game: Game[Any], name: str | None, seconds: float
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
    config: SearchPlayer, game: Game[Any], name: str | None = None
) -> IsolatedSearchPlayer:
    """The isolated player of a search with a heuristic from a file: its evaluations may take
    the game's time per move, each and all of one move's together (more: a loss on time)."""
    config.validate(game)
    return IsolatedSearchPlayer(config, game, name, move_seconds(game))


def player_for_window(config: PlayerConfig, game: Game[Any]) -> SearchingPlayer:
    """The window's AI worker's player: one from a file (an agent, or a search with a
    heuristic from a file) moves in a worker process of its own, with its limits."""
    if isinstance(config, AgentPlayer):
        agent: SearchingPlayer = make_player(config, game)  # takes and ignores the options
        return agent
    if isinstance(config, SearchPlayer) and is_heuristic_file(config.heuristic):
        config.validate(game)
        return search_player(config, game)
    return AIPlayer(config, game)


_Config = TypeVar("_Config", bound=PlayerConfig)


def with_seed(config: _Config, seed: int) -> _Config:
    """The same config with another seed (used to give each game of a match its own)."""
    return replace(config, seed=seed)
