"""What the window asks of its AI worker: one frozen request per kind of job, each with the
same header.

A `MoveRequest` (an AI's move), an `AnalysisRequest` (every root move's value) or a
`ReviewRequest` (a game's positions), each with a `JobHeader` (the game and the position);
the `Job` carries a request to the worker process under its id."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, TypeAlias

from plyground.games.base import Game, State

if TYPE_CHECKING:
    from plyground.ai.players.players import PlayerConfig, SearchPlayer

Position: TypeAlias = State[Any]
"""A position of a game the worker does not know beforehand."""
GameFactory: TypeAlias = Callable[..., Game[Any]]
"""What `games.register` keeps for a game: called with the game's options."""


@dataclass(frozen=True)
class JobHeader:
    """What every request names: the game (by name and options) and the position searched
    (a game review's: the game's last)."""

    game_name: str
    game_options: dict[str, int]
    state: Position


@dataclass(frozen=True)
class PlayerKey:
    """Which side of which game an AI move is for: moves with the same key reuse one player
    (its generator and table) in the worker, and one agent's worker in the window."""

    match_seed: int
    game: int
    side: int


@dataclass(frozen=True)
class MoveRequest:
    """An AI player's move (its difficulty's randomness included)."""

    header: JobHeader
    config: PlayerConfig
    player_key: PlayerKey = PlayerKey(0, 0, 0)
    analysis: bool = False
    """The analysis panel is shown: every root value, and a minimax count if cheap."""
    kind: ClassVar[str] = "move"


@dataclass(frozen=True)
class AnalysisRequest:
    """Every root move's value with the advisor's search (`config`)."""

    header: JobHeader
    config: SearchPlayer
    analysis: bool = False
    """The analysis panel is shown: a minimax count too, if cheap."""
    kind: ClassVar[str] = "analyse"


@dataclass(frozen=True)
class ReviewRequest:
    """A game's positions evaluated one by one: (index in the game, state) pairs, each with
    `seconds` of search (None: the review's default)."""

    header: JobHeader
    positions: tuple[tuple[int, Position], ...] = ()
    seconds: float | None = None
    kind: ClassVar[str] = "game_review"


Request: TypeAlias = MoveRequest | AnalysisRequest | ReviewRequest
"""One job's request, by kind."""


@dataclass(frozen=True)
class Job:
    """A request on its way to the worker process, under the id its answers name."""

    job_id: int
    request: Request
    factory: GameFactory | None = None
    """The game's registered factory (a class travels by reference): a game registered at
    run time in the window (`games.register`) is registered in the worker too."""


def user_file(config: PlayerConfig | None) -> str | None:
    """The student's file a player config names (an agent's file, or a heuristic file), or
    None for a player of ours."""
    from plyground.ai.players.players import AgentPlayer, SearchPlayer
    from plyground.ai.student_code.agents import agent_spec
    from plyground.ai.student_code.heuristics import is_heuristic_file

    if config is None:
        return None
    if isinstance(config, AgentPlayer):
        try:
            spec = agent_spec(str(config.spec))
        except ValueError:
            return str(config.spec)
        return spec.path if spec is not None else str(config.spec)
    if isinstance(config, SearchPlayer) and is_heuristic_file(config.heuristic):
        return str(config.heuristic)
    return None
