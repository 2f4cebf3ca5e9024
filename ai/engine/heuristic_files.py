"""How the engine reaches a heuristic named by a user's file (``heuristic=my_eval.py``).

The engine never imports the code that runs such files: `ai.student_code.heuristics` offers
its one way in (`serve`) when it is imported, which every process that may search with a
file does first (the window's AI worker, Compare's worker, a match's players, a worker's
`evaluating_in_worker`).  Anywhere else the search says a file runs only in a worker.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from plyground.games.base import Heuristic
from plyground.untrusted import printable

_served: Callable[[str], Heuristic] | None = None


def is_heuristic_file(name: object) -> bool:
    """True when a heuristic name is a Python file rather than one of the game's names."""
    return isinstance(name, str) and name.strip().lower().endswith(".py")


def serve(resolver: Callable[[str], Heuristic]) -> None:
    """Make `resolver` the way a file's name becomes its `Heuristic` (student_code's)."""
    global _served
    _served = resolver


def file_heuristic(name: str) -> Heuristic:
    """The heuristic a file defines; ValueError (one line) where no worker serves files."""
    if _served is None:
        raise ValueError(
            f"{printable(Path(name).name)}: a heuristic from a file runs only in a worker process "
            "(a match's player, the window's AI, Compare, the explorer), never in this one"
        )
    return _served(name)
