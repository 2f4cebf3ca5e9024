"""The messages between the window and its AI: a worker's answers about a job (the AI worker
process's and the students' agents' alike, `process` and `file_agents`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from plyground.games.base import Move
from plyground.gui.worker.requests import Position

if TYPE_CHECKING:
    from plyground.ai.advice.game_review import Line
    from plyground.ai.engine.result import SearchProgress, SearchResult
    from plyground.ai.evaluation.provenance import Evaluation


@dataclass(frozen=True)
class Progress:
    """How far the job's search has got (an `ai.SearchProgress`)."""

    job_id: int
    snapshot: SearchProgress
    kind: ClassVar[str] = "progress"


@dataclass(frozen=True)
class Result:
    """The job's answer: the move and its SearchResult (None for a player from a file, and
    both None when a game review has sent all its positions)."""

    job_id: int
    move: Move
    result: SearchResult | None
    kind: ClassVar[str] = "result"


@dataclass(frozen=True)
class PositionEvaluated:
    """One position of a game review: its index in the game, state, evaluation and lines."""

    job_id: int
    index: int
    state: Position
    evaluation: Evaluation
    lines: tuple[Line, ...]
    kind: ClassVar[str] = "position"


@dataclass(frozen=True)
class MinimaxNodes:
    """Minimax's node count at the depth the job's alpha-beta search reached."""

    job_id: int
    count: int
    kind: ClassVar[str] = "minimax_nodes"


@dataclass(frozen=True)
class Cancelled:
    """The job stopped because it was cancelled."""

    job_id: int
    kind: ClassVar[str] = "cancelled"


@dataclass(frozen=True)
class Failed:
    """The job failed: `reason` in one line; a player from a file that failed `forfeit`s
    the game, with its own traceback lines in `details`."""

    job_id: int
    reason: str
    forfeit: bool = False
    details: tuple[str, ...] = ()
    kind: ClassVar[str] = "error"


@dataclass(frozen=True)
class Restarted:
    """The worker process died mid-job; a new one runs it again (`restarts` so far)."""

    job_id: int
    restarts: int
    kind: ClassVar[str] = "restarted"


@dataclass(frozen=True)
class EndGame:
    """A request (no answer): the game ended, so the players kept for it are closed (a
    heuristic file's worker with them)."""


@dataclass(frozen=True)
class WarmUpEngines:
    """A request (answered by one `EngineReady` per game): load or compile the exact engines
    of these games now, while the menu is open, so the first move never waits for one."""

    game_names: tuple[str, ...]


@dataclass(frozen=True)
class EngineReady:
    """A game's exact engine is loaded (`seconds`: what it took; `problem`: why it could not
    be, in which case its searches run without it).  Not about a job: job_id is 0."""

    game_name: str
    seconds: float
    problem: str = ""
    job_id: int = 0
    kind: ClassVar[str] = "engine_ready"


WorkerMessage = (
    Progress | Result | PositionEvaluated | MinimaxNodes | Cancelled | Failed | Restarted
)
"""An answer from the worker about a job."""
FINISHED = (Result, Cancelled, Failed)
"""The answers that end a job."""
