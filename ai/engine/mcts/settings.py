"""What Monte Carlo tree search is asked: its own typed settings, apart from the depth-limited
searches' `SearchConfig` (MCTS has no depth; it has iterations, a clock and an exploration
constant)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import ClassVar, Literal

MCTS = "mcts"
"""The algorithm's name wherever a player or a search is named."""
EXPLORATION = math.sqrt(2)
"""UCB1's exploration constant c for results scored 1 / 0.5 / 0 (Kocsis and Szepesvári's
UCT; the textbook's choice)."""
DEFAULT_ITERATIONS = 10_000
"""The budget when neither iterations nor a time limit is given."""
MAX_ITERATIONS = 10_000_000
PLAYOUT_CUTOFF = 12
"""Plies a heuristic-guided playout plays at random before the heuristic values its position."""

Playout = Literal["auto", "random", "heuristic"]
PLAYOUTS: tuple[Playout, ...] = ("auto", "random", "heuristic")
"""How playouts choose: "random" to the end; "heuristic" at random for `PLAYOUT_CUTOFF` plies,
then the game's heuristic values the position (an early cut-off); "auto": heuristic where the
game has one, random where it has none."""


@dataclass(frozen=True, slots=True)
class MctsSettings:
    """MCTS's own knobs, what a player or a preset adds to its time limit, heuristic and seed."""

    iterations: int | None = None
    """Iterations per move (None: `DEFAULT_ITERATIONS`, or as many as the time limit allows)."""
    exploration: float = EXPLORATION
    playout: Playout = "auto"

    def check(self) -> None:
        """Raise ValueError with one clear line if a field is out of range."""
        if self.iterations is not None and (
            not isinstance(self.iterations, int) or not 1 <= self.iterations <= MAX_ITERATIONS
        ):
            raise ValueError(f"iterations must be 1 to {MAX_ITERATIONS:,}, not {self.iterations!r}")
        if not isinstance(self.exploration, (int, float)) or not 0 <= self.exploration <= 100:
            raise ValueError(f"the exploration constant must be 0 to 100, not {self.exploration!r}")
        if self.playout not in PLAYOUTS:
            raise ValueError(f"playouts must be one of {', '.join(PLAYOUTS)}, not {self.playout!r}")


@dataclass(frozen=True, slots=True)
class MctsConfig:
    """One Monte Carlo tree search, asked whole of `ai.search` (as `SearchConfig` asks the
    depth-limited searches): its settings, its clock, the heuristic its playouts may use, the
    seed of its random stream (one seed, one tree)."""

    algorithm: ClassVar[str] = MCTS
    settings: MctsSettings = field(default_factory=MctsSettings)
    time_limit: float | None = None
    """Seconds for the move; with `settings.iterations` too, whichever ends first."""
    heuristic: str | None = None
    """The heuristic guided playouts use (None: the game's default)."""
    seed: int = 0

    def budget(self) -> int | None:
        """The iterations to run (None: until the time limit)."""
        if self.settings.iterations is not None:
            return self.settings.iterations
        return None if self.time_limit is not None else DEFAULT_ITERATIONS
