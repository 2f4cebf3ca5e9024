"""What every search returns, and the progress it reports while it runs."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from plyground.games.base import Move


@dataclass(frozen=True, slots=True)
class SearchProgress:
    """A snapshot sent while a search runs (after each iteration and every few thousand nodes)."""

    depth: int
    nodes: int
    elapsed: float
    best_move: Move | None
    value: float | None


@dataclass(frozen=True, slots=True)
class SearchResult:
    """The outcome of one search, read by the analysis panel, hints, `analyze` and `bench`.

    `value` and `move_values` are from the point of view of the player to move at the
    root (`player`).  `move_values` maps every legal root move to its value; moves that
    a budgeted search did not finish keep the value of the deepest iteration that did.
    """

    move: Move
    value: float
    move_values: dict[Any, float]
    pv: tuple[Move, ...]
    depth: int
    nodes: int
    leaf_evaluations: int
    cutoffs: int
    table_hits: int
    elapsed: float
    algorithm: str
    heuristic: str
    player: int
    complete: bool = True
    """False when a time limit or a stop request cut the deepest iteration short."""
    exact: bool = False
    """True when every root value is the game's true value: the search rested on no heuristic
    estimate (no leaf, no table answer resting on one), or every value is a proven win or
    loss.  Only then is a chance game's value a chance to win (ai.values.describe)."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Anything an algorithm adds (e.g. iterations' node counts for time-to-depth)."""

    @property
    def nodes_per_second(self) -> float:
        """Search speed; 0 when too quick to time."""
        return self.nodes / self.elapsed if self.elapsed > 0 else 0.0
