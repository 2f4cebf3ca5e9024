"""Players from a user's file: agents and searches with a heuristic from a file, isolated.

Specs (any player spec of `match`, `tournament`, the window):

* ``my_agent.py``: the file's ``choose(state)`` (Plyground's state API) returns a move;
* ``my_agent.py:name``: another function of the file, same contract;
* ``kaggle:my_agent.py``: a Kaggle-format agent (Kaggle's board games), the file's last function
  (as Kaggle takes it), called as Kaggle calls it: ``agent(observation, configuration)``, or
  ``agent(observation)`` when it takes one argument, with the game's own
  `kaggle_observation()` / `kaggle_configuration()` (its hooks), returning a move;
* ``alphabeta:depth=4:heuristic=my_eval.py``: a search whose heuristic is the file's
  ``evaluate(state)`` (`ai.student_code.heuristics`; its isolated player is in
  `ai.players.players`).

Windows paths work (``C:\\work\\my_agent.py:choose``: a drive letter is not a function).
Every move is asked of a `worker.Worker` process with a per-move time limit: the game's
`move_time_limit`, or for a Kaggle agent the configuration's `actTimeout` plus what is left of
its overage bank (`agentTimeout`, Kaggle's 60 s).  Whatever goes wrong raises
`UserCodeError`; a match scores it as a loss by forfeit (`ai.players.match`).
"""

from __future__ import annotations

import operator
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from plyground.ai.student_code.messages import MessageError, encode_state, parse_move
from plyground.ai.student_code.worker import (
    Limits,
    Refusal,
    StudentWorker,
    UserCodeError,
    require_function,
    resolve,
    short_repr,
)
from plyground.games.base import Game, KaggleConfiguration, MoveTimeLimit, State
from plyground.untrusted import printable

KAGGLE_PREFIX = "kaggle:"
"""A spec starting with this is a Kaggle-format agent."""
DEFAULT_FUNCTION = "choose"
"""The function an agent file is asked for when the spec names none."""
MOVE_SECONDS = 10.0
"""Seconds a move may take in a game that names no `move_time_limit`."""
KAGGLE_GRACE = 0.5
"""Seconds added to a Kaggle agent's actTimeout for starting the call and sending the move."""

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
        name = printable(Path(self.path).name)
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


def game_options(game: Game[Any]) -> dict[str, Any]:
    """The options a game was made with (a game's options), to make it again in the worker."""
    return dict(game.option_values())


def move_seconds(game: Game[Any]) -> float:
    """The per-move time limit of a player from a file in this game."""
    return float(game.move_time_limit) if isinstance(game, MoveTimeLimit) else MOVE_SECONDS


class Struct(dict[str, Any]):
    """Kaggle's observation / configuration: a dict whose keys are also attributes."""

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


# --------------------------------------------------------------------------- worker side


def legal_move(state: State[Any], move: Any, what: str) -> Any:
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


# --------------------------------------------------------------------------- parent side


class FilePlayer:
    """A player whose every move comes from a worker process running a student's file.

    The worker answers a move in the game's notation; it is checked here (a move that does
    not parse or is not legal is a forfeit).  A Kaggle agent has Kaggle's overage bank:
    time beyond `actTimeout` is taken from it, the agent is told what is left
    (`remainingOverageTime`), and it forfeits only when the bank is spent.
    """

    def __init__(
        self,
        name: str,
        path: str,
        host: dict[str, Any],
        limits: Limits,
        overage: float | None = None,
    ) -> None:
        self.name = name
        self.path = path
        self.worker = StudentWorker(path, host, limits)
        self.last_result: Any = None
        self.overage = overage
        """Seconds left in a Kaggle agent's overage bank (None: not a Kaggle agent)."""

    def start(self) -> None:
        """Start the worker and load the file before the game (so starting is not timed as
        a move); raises UserCodeError when the file fails to load."""
        self.worker.start()

    def choose(self, state: State[Any], **_: Any) -> Any:
        """The worker's move, checked (raises UserCodeError: the game is lost by forfeit)."""
        request: dict[str, Any] = {"state": encode_state(state)}
        seconds, what = None, "for one move"
        if self.overage is not None:
            request["overage"] = round(self.overage, 3)
            seconds = self.worker.limits.seconds + self.overage
            what = f"for one move (actTimeout and the {self.overage:.1f} s left of its overage)"
        started = time.monotonic()
        text = self.worker.call(request, seconds, what=what)
        if self.overage is not None:
            beyond = time.monotonic() - started - (self.worker.limits.seconds - KAGGLE_GRACE)
            self.overage -= max(0.0, beyond)
            if self.overage < 0:
                self.worker.close()
                raise UserCodeError(self.path, "spent its overage time (Kaggle's bank)")
        try:
            return parse_move(state.game, state, text)
        except MessageError:
            self.worker.close()
            raise UserCodeError(
                self.path, f"answered {short_repr(text)}, not a legal move"
            ) from None

    def close(self) -> None:
        """Stop the worker process and everything it started."""
        self.worker.close()


def agent_player(spec: AgentSpec, game: Game[Any]) -> FilePlayer:
    """The isolated player of an agent file for `game`."""
    file = spec.check()
    seconds = move_seconds(game)
    overage = None
    configuration: dict[str, Any] = {}
    if spec.kaggle:
        if not isinstance(game, KaggleConfiguration):
            raise ValueError(f"{game.title} has no Kaggle format (no kaggle_configuration hook)")
        configuration = game.kaggle_configuration()
        seconds = float(configuration.get("actTimeout", seconds)) + KAGGLE_GRACE
        overage = float(configuration.get("agentTimeout", 0.0))
    host: dict[str, Any] = {
        "kind": "agent",
        "path": str(file),
        "function": spec.function,
        "kaggle": spec.kaggle,
    }
    if spec.kaggle:
        host["configuration"] = dict(configuration)  # what the agent is told, from here
    return FilePlayer(printable(Path(file).name), str(file), host, Limits(seconds), overage)


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
