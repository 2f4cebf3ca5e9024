"""Heuristics from a user's file: ``heuristic=my_eval.py`` anywhere a heuristic is named.

The file defines ``evaluate(state)`` with the built-in heuristics' contract: a value from
the point of view of the player to move (at a chance state, of `state.player`), within
[-HEURISTIC_LIMIT, HEURISTIC_LIMIT].  A value that is not a finite number, or lies outside
the bound, is refused with a message that says so (never silently clamped: a student should
see their scale is wrong).  The file is loaded only in a process marked for user code
(`user_code.allow_user_code`): the searching player of a match is isolated by
`ai.student_code.agents`, the window's AI worker, Compare and explorer run it in their workers.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from plyground.ai.student_code.worker import (
    check_number,
    load_module,
    require_function,
    resolve,
    user_code_allowed,
)
from plyground.games.base import HEURISTIC_LIMIT, Heuristic

FUNCTION = "evaluate"
"""The function a heuristic file defines."""


class FileHeuristicError(ValueError):
    """A heuristic file that cannot be used (missing, no evaluate, or not in a worker)."""


def is_heuristic_file(name: object) -> bool:
    """True when a heuristic name is a Python file rather than one of the game's names."""
    return isinstance(name, str) and name.strip().lower().endswith(".py")


def check_heuristic_file(name: str) -> str:
    """The file's absolute path; ValueError (one line) unless it exists, parses and defines
    evaluate().  Nothing of the file runs."""
    file = resolve(name.strip())
    require_function(file, FUNCTION)
    return str(file)


_LOADED: dict[str, Heuristic] = {}


def file_heuristic(name: str) -> Heuristic:
    """The `Heuristic` a file defines, with its values checked (only in a worker process)."""
    if not user_code_allowed():
        raise FileHeuristicError(
            f"{Path(name).name}: a heuristic from a file runs only in a worker process "
            "(a match's player, the window's AI, Compare, the explorer), never in this one"
        )
    path = check_heuristic_file(name)
    found = _LOADED.get(path)
    if found is not None:
        return found
    module = load_module(Path(path))
    function = getattr(module, FUNCTION, None)
    if not callable(function):
        raise FileHeuristicError(f"{Path(path).name}: no function {FUNCTION}()")
    what = f"{FUNCTION}()"

    def evaluate(state: Any) -> float:
        return check_number(function(state), what, HEURISTIC_LIMIT)

    heuristic = Heuristic(name, f"evaluate(state) from {Path(path).name}", evaluate)
    _LOADED[path] = heuristic
    return heuristic
