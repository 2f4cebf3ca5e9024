"""Players from a user's file: agents and searches with a heuristic from a file, isolated.

Specs (any player spec of `match`, `tournament`, the window):

* ``my_agent.py``: the file's ``choose(state)`` (Plyground's state API) returns a move;
* ``my_agent.py:name``: another function of the file, same contract;
* ``kaggle:my_agent.py``: a Kaggle-format agent (Kaggle's board games), the file's last function
  (as Kaggle takes it), called as ``agent(observation, configuration)`` with the game's
  own `kaggle_observation()` / `kaggle_configuration()` (its hooks), returning a move;
* ``alphabeta:depth=4:heuristic=my_eval.py``: a search whose heuristic is the file's
  ``evaluate(state)`` (`ai.student_code.heuristics`; its isolated player is in
  `ai.players.players`).

Windows paths work (``C:\\work\\my_agent.py:choose``: a drive letter is not a function).
Every move is asked of a `user_code.Worker` process with a per-move time limit: the game's
`move_time_limit`, the Kaggle configuration's `actTimeout` for a Kaggle agent, a search's
own time budget with a margin.  Whatever goes wrong raises `UserCodeError`; a match scores
it as a loss by forfeit (`ai.players.match`).
"""

from __future__ import annotations

import operator
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from plyground.ai.student_code.worker import (
    Limits,
    Refusal,
    UserCodeError,
    Worker,
    load_module,
    require_function,
    resolve,
    short_repr,
)

KAGGLE_PREFIX = "kaggle:"
"""A spec starting with this is a Kaggle-format agent."""
DEFAULT_FUNCTION = "choose"
"""The function an agent file is asked for when the spec names none."""
MOVE_SECONDS = 10.0
"""Seconds a move may take in a game that names no `move_time_limit`."""
KAGGLE_GRACE = 0.5
"""Seconds added to a Kaggle agent's actTimeout for starting the call and sending the move."""
SEARCH_GRACE = 2.0
"""Seconds added to a search's own time budget before it is stopped."""

_FILE = re.compile(r"^(?P<path>.+?\.py)(?::(?P<function>[A-Za-z_]\w*))?$", re.IGNORECASE)
_DRIVE = re.compile(r"(^|=)[A-Za-z]$")


def split_spec(text: str) -> list[str]:
    """A player spec split at its colons, keeping Windows drive letters with their path
    (``kaggle:C:\\a.py`` -> ``kaggle``, ``C:\\a.py``)."""
    parts = text.split(":")
    joined: list[str] = []
    for part in parts:
        if joined and _DRIVE.search(joined[-1]) and part[:1] in ("\\", "/"):
            joined[-1] += ":" + part
        else:
            joined.append(part)
    return joined


@dataclass(frozen=True, slots=True)
class AgentSpec:
    """A player spec that names a file: the file, the function, and the format."""

    path: str
    function: str | None
    kaggle: bool

    @property
    def text(self) -> str:
        """The spec written back ("kaggle:a.py", "a.py:name")."""
        if self.kaggle:
            return KAGGLE_PREFIX + self.path
        return (
            self.path
            if self.function in (None, DEFAULT_FUNCTION)
            else f"{self.path}:{self.function}"
        )

    def describe(self) -> str:
        """ "my_agent.py, choose(state)" or "c.py, a Kaggle agent"."""
        name = Path(self.path).name
        if self.kaggle:
            return f"{name}, a Kaggle agent"
        return f"{name}, {self.function or DEFAULT_FUNCTION}(state)"

    def check(self) -> Path:
        """The resolved file; ValueError (one line) unless it exists, parses and defines the
        function.  Nothing of the file runs."""
        file = resolve(self.path)
        require_function(file, None if self.kaggle else self.function or DEFAULT_FUNCTION)
        return file


def agent_spec(text: str) -> AgentSpec | None:
    """The file a player spec names, or None when it names none (a preset, a search)."""
    spec = text.strip()
    kaggle = spec.lower().startswith(KAGGLE_PREFIX)
    if kaggle:
        spec = spec[len(KAGGLE_PREFIX) :].strip()
    match = None if "=" in spec else _FILE.match(spec)  # key=value: a search's settings
    if match is None:
        if kaggle:
            raise ValueError(f"kaggle: needs a Python file, e.g. kaggle:my_agent.py, not {spec!r}")
        return None
    function = match.group("function")
    if kaggle and function:
        raise ValueError("a Kaggle agent is the file's last function: give no :name")
    return AgentSpec(match.group("path"), function, kaggle)


def game_options(game: Any) -> dict[str, Any]:
    """The options a game was made with (a game's options), to make it again in the worker."""
    values = getattr(game, "option_values", None)
    return dict(values()) if values is not None else {}


def move_seconds(game: Any) -> float:
    """The per-move time limit of a player from a file in this game."""
    return float(getattr(game, "move_time_limit", MOVE_SECONDS))


class Struct(dict[str, Any]):
    """Kaggle's observation / configuration: a dict whose keys are also attributes."""

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


# --------------------------------------------------------------------------- worker side


def legal_move(state: Any, move: Any, what: str) -> Any:
    """`move` if it is legal in `state` (a Kaggle action may be any integer type), else a
    `Refusal` naming the legal moves."""
    legal = state.legal_moves()
    try:
        if move in legal:
            return next(m for m in legal if m == move)
    except Exception:
        pass
    try:
        number = operator.index(move)
    except TypeError:
        number = None
    if number is not None and number in legal:
        return number
    shown = ", ".join(str(m) for m in legal)
    raise Refusal(f"{what} returned {short_repr(move)}, not a legal move; legal moves: {shown}")


@dataclass(frozen=True)
class AgentHost:
    """Built in the worker: loads the file and answers states with moves."""

    path: str
    function: str | None
    kaggle: bool
    game: str
    options: tuple[tuple[str, Any], ...]

    def __call__(self) -> Any:
        from plyground import games

        module = load_module(Path(self.path))
        game = games.get_game(self.game, **dict(self.options))
        if self.kaggle:
            functions = [value for value in vars(module).values() if callable(value)]
            if not functions:
                raise Refusal("defines no function")
            return _KaggleAgent(functions[-1], game)
        name = self.function or DEFAULT_FUNCTION
        function = getattr(module, name, None)
        if not callable(function):
            raise Refusal(f"has no function {name}()")
        return _PlainAgent(function, name)


class _PlainAgent:
    def __init__(self, function: Any, name: str) -> None:
        self.function = function
        self.name = name

    def __call__(self, state: Any) -> Any:
        return legal_move(state, self.function(state), f"{self.name}()")


class _KaggleAgent:
    def __init__(self, function: Any, game: Any) -> None:
        self.function = function
        self.configuration = Struct(game.kaggle_configuration())
        self.name = getattr(function, "__name__", "agent")

    def __call__(self, state: Any) -> Any:
        observation = Struct(state.kaggle_observation())
        observation.setdefault("step", state.ply)
        observation.setdefault("remainingOverageTime", self.configuration.get("agentTimeout", 60))
        action = self.function(observation, self.configuration)
        return legal_move(state, action, f"{self.name}()")


# --------------------------------------------------------------------------- parent side


class FilePlayer:
    """A player whose every move comes from a worker process running a user's file."""

    def __init__(self, name: str, path: str, host: Any, limits: Limits) -> None:
        self.name = name
        self.path = path
        self.worker = Worker(path, host, limits)
        self.last_result: Any = None

    def start(self) -> None:
        """Start the worker and load the file before the game (so starting is not timed as
        a move); raises UserCodeError when the file fails to load."""
        self.worker.start()

    def choose(self, state: Any, **_: Any) -> Any:
        """The worker's move (raises UserCodeError: the game is lost by forfeit)."""
        answer = self.worker.call(state)
        if isinstance(answer, tuple):
            move, self.last_result = answer
            return move
        return answer

    def close(self) -> None:
        """Stop the worker process."""
        self.worker.close()


def agent_player(spec: AgentSpec, game: Any, options: dict[str, Any] | None = None) -> FilePlayer:
    """The isolated player of an agent file for `game`."""
    file = spec.check()
    seconds = move_seconds(game)
    if spec.kaggle:
        if not hasattr(game, "kaggle_configuration"):
            raise ValueError(f"{game.title} has no Kaggle format (no kaggle_configuration hook)")
        seconds = float(game.kaggle_configuration().get("actTimeout", seconds)) + KAGGLE_GRACE
    chosen: dict[str, Any] = options if options is not None else game_options(game)
    host = AgentHost(
        str(file), spec.function, spec.kaggle, game.name, tuple(sorted(chosen.items()))
    )
    return FilePlayer(Path(file).name, str(file), host, Limits(seconds))


__all__ = [
    "KAGGLE_PREFIX",
    "AgentSpec",
    "FilePlayer",
    "Struct",
    "UserCodeError",
    "agent_player",
    "agent_spec",
    "game_options",
    "move_seconds",
    "split_spec",
]
