"""The rules of every game: a registry, and the protocol every game and state follows.

game = games.get_game("connect4")        # also "tictactoe", "pig" (options: goal=20)
state = game.initial_state().play(3)

Adding a game: one module with a `Game` class and its `State` (the protocol in `games.base`,
descriptive class attributes included: title, side names, options, notation help, default
heuristic, presets), then `games.register(Game)`.  Optional hooks (one Protocol each in
`games.base`: `bench_positions`, `reference_policy()`, `State.book_value()`, ...) are read once
per class: `games.capabilities(game)` and `games.state_capabilities(state)`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from plyground.games.base import (
    CHANCE,
    HEURISTIC_LIMIT,
    BenchPosition,
    BenchPositions,
    Capabilities,
    CheapSolve,
    ExercisePositions,
    Game,
    GameOption,
    HasExactEngine,
    HasReferencePolicy,
    Heuristic,
    IllegalMoveError,
    KaggleConfiguration,
    KaggleObservation,
    KnownValue,
    MoveTimeLimit,
    OpeningBook,
    OptionCosting,
    PlyHorizon,
    PolicyPicture,
    Preset,
    ReferencePolicy,
    SearchMoves,
    SolvedValue,
    SolverBenchmark,
    SolverBenchmarked,
    SolverSet,
    SolveSpeed,
    State,
    TextbookTree,
    ValuedReferencePolicy,
    WarmUp,
    WinningMove,
    capabilities,
    missing_members,
    replay,
    sample_outcome,
    state_capabilities,
)
from plyground.games.connect4.rules import Game as Connect4
from plyground.games.pig.rules import Game as Pig
from plyground.games.tictactoe import Game as TicTacToe

__all__ = [
    "CHANCE",
    "GAMES",
    "HEURISTIC_LIMIT",
    "BenchPosition",
    "BenchPositions",
    "Capabilities",
    "CheapSolve",
    "ExercisePositions",
    "Game",
    "GameOption",
    "HasExactEngine",
    "HasReferencePolicy",
    "Heuristic",
    "IllegalMoveError",
    "KaggleConfiguration",
    "KaggleObservation",
    "KnownValue",
    "MoveTimeLimit",
    "OpeningBook",
    "OptionCosting",
    "PlyHorizon",
    "PolicyPicture",
    "Preset",
    "ReferencePolicy",
    "SearchMoves",
    "SolveSpeed",
    "SolvedValue",
    "SolverBenchmark",
    "SolverBenchmarked",
    "SolverSet",
    "State",
    "TextbookTree",
    "ValuedReferencePolicy",
    "WarmUp",
    "WinningMove",
    "builtin_names",
    "capabilities",
    "get_game",
    "is_from_file",
    "register",
    "replay",
    "resolve",
    "sample_outcome",
    "state_capabilities",
]

GAMES: dict[str, Callable[..., Game[Any]]] = {
    "tictactoe": TicTacToe,
    "connect4": Connect4,
    "pig": Pig,
}
"""Every game by registry name: a factory taking the game's options as keywords.

A factory is the game's class: its class attributes (title, side names, options, presets,
...) describe the game without making one.  Add a game with `register`."""
for _factory in GAMES.values():
    capabilities(_factory)  # read once, at start-up


def register(factory: Callable[..., Game[Any]]) -> None:
    """Add a game to the registry under its ``name`` (the documented way to add a game).

    Its optional hooks are read here, once (`capabilities`).

    :raises ValueError: a class lacking a member every game has (the message names them), or
        a name already taken by another game.
    """
    missing = missing_members(factory)
    if missing:
        title = getattr(factory, "__name__", repr(factory))
        raise ValueError(f"game {title} cannot be registered: it lacks {', '.join(missing)}")
    name = factory.name  # type: ignore[attr-defined]
    if GAMES.get(name, factory) is not factory:
        raise ValueError(f"a game named {name!r} is already registered")
    capabilities(factory)
    GAMES[name] = factory


def resolve(name: str, options: dict[str, Any] | None = None) -> str:
    """The registry name of a game: a built-in name as it is; a game in a file or a module
    (``nim.py``, ``nim.py:Nim``, ``easyAI.games:Nim``) loaded and registered once, under its
    resolved file (or module) and class, and checked (probed) with `options` once per set of
    options.

    :raises ValueError: an unknown name; a file or module that cannot be loaded
        (`GameFileError`) or whose code fails as the game is made (`GameCodeError`).
    """
    if name in GAMES and not (options and is_from_file(name)):
        return name
    from plyground.games import from_file

    if not from_file.is_spec(name):
        raise ValueError(
            f"unknown game {name!r}; choose one of: {', '.join(builtin_names())}, "
            "or a game file (FILE.py, FILE.py:CLASS, MODULE:CLASS)"
        )
    factory = from_file.load(name, options)
    if factory.name not in GAMES:
        capabilities(factory)
        GAMES[factory.name] = factory
    return factory.name


def builtin_names() -> list[str]:
    """The registered games that did not come from a file."""
    return [name for name, factory in GAMES.items() if not is_from_file(name)]


def is_from_file(name: str) -> bool:
    """Whether a registered game was loaded from a file or a module (`resolve`)."""
    from plyground.games.from_file import FileGame

    factory = GAMES.get(name)
    return isinstance(factory, type) and issubclass(factory, FileGame)


def get_game(name: str, **options: Any) -> Game[Any]:
    """A new game by name, e.g. ``get_game("pig", goal=20)``, ``get_game("nim.py",
    piles=(3, 4, 5))`` (a game from a file: `resolve`, which checks it with the options).

    :raises ValueError: an unknown name (the message lists the valid ones) or an option
        the game does not take.
    """
    factory = GAMES.get(name)
    if factory is None:
        factory = GAMES[resolve(name, options)]
    elif options and is_from_file(name):
        resolve(name, options)  # its load-time check made with these options too, once
    try:
        return factory(**options)
    except TypeError:
        given = ", ".join(sorted(options))
        raise ValueError(f"{name} does not take the option(s): {given}") from None
