"""What a search is asked to be: one typed family of settings, one record per search family.

`DepthLimited` is minimax, alpha-beta or expectiminimax to a depth; `MonteCarlo` is Monte
Carlo tree search with its iterations, exploration constant and playouts.  A `SearchSettings`
is either; a game's difficulty presets hold one (`games.base.Preset`), a player searches with
one (`ai.players.SearchPlayer`) and `ai.search` takes one inside its `SearchConfig`.  The
record lives here, below the games, because a game's presets are plain data of it; the engine
re-exports it.  Each family checks itself (`check()`, a clear one-line `ValueError`) and
describes itself ("alpha-beta, depth 6, windows"; "Monte Carlo tree search, 4,000 iterations,
c 1.4").
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any, ClassVar, Literal

DEPTH_ALGORITHMS = ("minimax", "alphabeta", "expectiminimax")
"""The depth-limited searches (the textbook's three)."""
MCTS = "mcts"
"""Monte Carlo tree search's name wherever a player or a search is named."""
ALGORITHM_TITLES = {
    "minimax": "minimax",
    "alphabeta": "alpha-beta",
    "expectiminimax": "expectiminimax",
    MCTS: "MCTS",
}
MAX_DEPTH = 64
"""The deepest fixed depth a caller may ask for (use None to search to the end)."""
EXPLORATION = math.sqrt(2)
"""UCB1's exploration constant c for results scored 1 / 0.5 / 0 (Kocsis and Szepesvári's
UCT; the textbook's choice)."""
DEFAULT_ITERATIONS = 10_000
"""Monte Carlo tree search's budget when neither iterations nor a time limit is given."""
MAX_ITERATIONS = 10_000_000
MAX_PROCESSES = 64

Playout = Literal["auto", "random", "heuristic"]
PLAYOUTS: tuple[Playout, ...] = ("auto", "random", "heuristic")
"""How playouts choose: "random" to the end; "heuristic" at random for a few plies, then the
game's heuristic values the position (an early cut-off); "auto": heuristic where the game has
one, random where it has none."""


def _heuristic_label(heuristic: str | None) -> str:
    """A heuristic's name as a description shows it (a file by its name alone)."""
    name = heuristic or "default heuristic"
    return PurePath(name).name if name.strip().lower().endswith(".py") else name


@dataclass(frozen=True, slots=True)
class DepthLimited:
    """Minimax, alpha-beta or expectiminimax to a depth: the one record that declares a
    search's depth and heuristic."""

    algorithm: str = "alphabeta"
    depth: int | None = 8
    """Player decisions to look ahead (chance layers use none); None: no limit (solve, within
    the time limit if one is set)."""
    heuristic: str | None = None
    """A heuristic's name or a student's file (None: the game's default)."""
    node_limit: int | None = None
    """The most nodes a search may visit (None: no limit): iterative deepening keeps the
    deepest iteration finished within them, the same on every machine (the first iteration
    always finishes: a move is owed)."""

    def check(self, time_limit: float | None = None) -> None:
        """Raise ValueError with one clear line if a field is out of range (`time_limit`: the
        clock it will run with, since only alpha-beta may go without a depth and a clock)."""
        if self.algorithm == MCTS:
            raise ValueError("MCTS has no depth: ask it with MonteCarlo settings")
        if self.algorithm not in DEPTH_ALGORITHMS:
            raise ValueError(
                f"unknown algorithm {self.algorithm!r}; choose one of: "
                f"{', '.join((*DEPTH_ALGORITHMS, MCTS))}"
            )
        if self.depth is not None and (
            not isinstance(self.depth, int)
            or isinstance(self.depth, bool)
            or not 1 <= self.depth <= MAX_DEPTH
        ):
            raise ValueError(f"depth must be 1 to {MAX_DEPTH} or none, not {self.depth!r}")
        if self.heuristic is not None and not isinstance(self.heuristic, str):
            raise ValueError(f"a heuristic is a name, not {self.heuristic!r}")
        if self.node_limit is not None and (
            not isinstance(self.node_limit, int)
            or isinstance(self.node_limit, bool)
            or self.node_limit < 1
        ):
            raise ValueError(f"nodes must be a positive whole number, not {self.node_limit!r}")
        if self.depth is None and time_limit is None and self.algorithm != "alphabeta":
            raise ValueError(f"{self.algorithm} needs a depth or a time limit")

    def describe(self) -> str:
        """'alpha-beta, depth 6, windows' (a node budget too where there is one)."""
        parts = [
            ALGORITHM_TITLES.get(self.algorithm, self.algorithm),
            "depth unlimited" if self.depth is None else f"depth {self.depth}",
            _heuristic_label(self.heuristic),
        ]
        if self.node_limit is not None:
            parts.append(f"{self.node_limit:,} nodes a move")
        return ", ".join(parts)


@dataclass(frozen=True, slots=True)
class MonteCarlo:
    """Monte Carlo tree search: no depth; iterations (or the clock), UCB1's exploration
    constant, and how playouts choose (`heuristic`: what guided playouts use)."""

    algorithm: ClassVar[str] = MCTS
    iterations: int | None = None
    """Iterations per move (None: `DEFAULT_ITERATIONS`, or as many as the time limit allows)."""
    exploration: float = EXPLORATION
    playout: Playout = "auto"
    heuristic: str | None = None
    """The heuristic guided playouts use (None: the game's default)."""
    processes: int = 1
    """Processes searching the position at once (root parallelization: each grows a tree of
    its own on the same budget, and the root moves' counts are added up), at most the
    machine's cores."""

    def check(self, time_limit: float | None = None) -> None:
        """Raise ValueError with one clear line if a field is out of range."""
        if (
            not isinstance(self.processes, int)
            or isinstance(self.processes, bool)
            or not 1 <= self.processes <= MAX_PROCESSES
        ):
            raise ValueError(f"processes must be 1 to {MAX_PROCESSES}, not {self.processes!r}")
        if self.iterations is not None and (
            not isinstance(self.iterations, int)
            or isinstance(self.iterations, bool)
            or not 1 <= self.iterations <= MAX_ITERATIONS
        ):
            raise ValueError(f"iterations must be 1 to {MAX_ITERATIONS:,}, not {self.iterations!r}")
        if not isinstance(self.exploration, (int, float)) or not 0 <= self.exploration <= 100:
            raise ValueError(f"the exploration constant must be 0 to 100, not {self.exploration!r}")
        if self.playout not in PLAYOUTS:
            raise ValueError(f"playouts must be one of {', '.join(PLAYOUTS)}, not {self.playout!r}")
        if self.heuristic is not None and not isinstance(self.heuristic, str):
            raise ValueError(f"a heuristic is a name, not {self.heuristic!r}")
        if self.playout == "random" and self.heuristic is not None:
            raise ValueError(
                "random playouts use no heuristic; drop the heuristic, or ask for heuristic "
                "(or auto) playouts"
            )

    def budget(self, time_limit: float | None = None) -> int | None:
        """The iterations to run with this clock (None: until the time limit)."""
        if self.iterations is not None:
            return self.iterations
        return None if time_limit is not None else DEFAULT_ITERATIONS

    def describe(
        self, time_limit: float | None = None, *, long: bool = False, blind: bool = False
    ) -> str:
        """'MCTS, 4,000 iterations, c 1.4' with this clock (the playouts and the heuristic
        where not the defaults); `long`: 'Monte Carlo tree search, 4,000 iterations, c 1.4',
        and the clock too ('2 s a move', 'at most 2 s a move' beside iterations), as the
        window's set-up says it.  `blind`: the heuristic cannot value a position (the game
        has no evaluation), so the playouts go to the end at random and no heuristic is named:
        'MCTS, 4,000 iterations, c 1.4, random playouts'."""
        parts = ["Monte Carlo tree search" if long else ALGORITHM_TITLES[MCTS]]
        budget = self.budget(time_limit)
        if budget is not None:
            parts.append(f"{budget:,} iterations")
        if long and time_limit is not None:
            clock = f"{time_limit:g} s a move"
            parts.append(f"at most {clock}" if self.iterations is not None else clock)
        parts.append(f"c {self.exploration:.2g}")
        if self.processes > 1:
            parts.append(f"{self.processes} processes")
        playout = "random" if blind and self.playout == "auto" else self.playout
        if playout != "auto":
            parts.append(f"{playout} playouts")
        if self.heuristic is not None and not blind:
            parts.append(_heuristic_label(self.heuristic))
        return ", ".join(parts)


SearchSettings = DepthLimited | MonteCarlo
"""What one search is: a depth-limited search or Monte Carlo tree search."""

_MCTS_KEYS = frozenset({"iterations", "exploration", "playout", "processes"})


def settings_from_flat(data: dict[str, Any]) -> SearchSettings:
    """The settings that a flat record (a settings or save file, a preset's table) spells as
    `algorithm`, `depth`, `heuristic`, `node_limit` and, for MCTS, an `mcts` object of
    iterations, exploration and playout (and processes, where more than one): the form every
    version has written."""
    algorithm = data.get("algorithm", "alphabeta")
    heuristic = data.get("heuristic")
    if algorithm == MCTS:
        extra = data.get("mcts") or {}
        if not isinstance(extra, dict):
            raise ValueError("a player's MCTS settings must be an object")
        unknown = set(extra) - _MCTS_KEYS
        if unknown:
            raise ValueError(f"unknown MCTS setting(s): {', '.join(sorted(unknown))}")
        return MonteCarlo(heuristic=heuristic, **extra)
    if data.get("mcts") is not None:
        raise ValueError(f"{algorithm} takes no MCTS settings")
    return DepthLimited(algorithm, data.get("depth", 4), heuristic, data.get("node_limit"))


def settings_to_flat(settings: SearchSettings) -> dict[str, Any]:
    """The flat record `settings_from_flat` reads (a node budget and MCTS's own settings
    only where there are any, so a file reads the same in every version)."""
    if isinstance(settings, MonteCarlo):
        return {
            "algorithm": MCTS,
            "depth": None,
            "heuristic": settings.heuristic,
            "mcts": {
                "iterations": settings.iterations,
                "exploration": settings.exploration,
                "playout": settings.playout,
            }
            | ({"processes": settings.processes} if settings.processes != 1 else {}),
        }
    flat: dict[str, Any] = {
        "algorithm": settings.algorithm,
        "depth": settings.depth,
        "heuristic": settings.heuristic,
    }
    if settings.node_limit is not None:
        flat["node_limit"] = settings.node_limit
    return flat
