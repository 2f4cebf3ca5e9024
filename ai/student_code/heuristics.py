"""Heuristics from a user's file: ``heuristic=my_eval.py`` anywhere a heuristic is named.

The file defines ``evaluate(state)`` with the built-in heuristics' contract: a value from
the point of view of the player to move (at a chance state, of `state.player`), within
[-HEURISTIC_LIMIT, HEURISTIC_LIMIT].  A value that is not a finite number, or lies outside
the bound, is refused with a message that says so (never silently clamped: a student should
see their scale is wrong).  The file never runs in our processes: the search runs here and
asks a worker (`ai.student_code.worker`) for each leaf's value, which is checked here.  A
search reaches it by the file's name (`file_heuristic`) inside `evaluating_in_worker`, or in
a process marked for it (`allow_user_code`: the window's AI worker, Compare's worker).

Each search that takes a file's heuristic has a budget for its evaluations together (a
player's: the game's time per move), besides the limit per evaluation: a file slow at every
leaf loses on time rather than stretching a move to the number of leaves times its limit.
"""

from __future__ import annotations

import atexit
import contextlib
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from plyground.ai.engine import heuristic_files
from plyground.ai.engine.heuristic_files import is_heuristic_file as is_heuristic_file
from plyground.ai.student_code.messages import encode_state
from plyground.ai.student_code.worker import (
    Limits,
    Refusal,
    StudentWorker,
    UserCodeError,
    check_number,
    require_function,
    resolve,
    user_code_allowed,
)
from plyground.games.base import HEURISTIC_LIMIT, Heuristic, State
from plyground.untrusted import printable

FUNCTION = "evaluate"
"""The function a heuristic file defines."""


class FileHeuristicError(ValueError):
    """A heuristic file that cannot be used (missing, no evaluate, or not in a worker)."""


def check_heuristic_file(name: str) -> str:
    """The file's absolute path; ValueError (one line) unless it exists, parses and defines
    evaluate().  Nothing of the file runs."""
    file = resolve(name.strip())
    require_function(file, FUNCTION)
    return str(file)


EVALUATION_SECONDS = 10.0
"""Seconds one evaluation may take where the caller names no limit."""
SEARCH_SECONDS = 30.0
"""Seconds the evaluations of one search not playing a move (an analysis, a trace, Compare)
may take together."""


class IsolatedHeuristic:
    """A heuristic file's evaluate(state), asked of a worker process; values checked here.

    Each evaluation may take `seconds`; the evaluations of one search together `budget`
    (`seconds` where none is given), counted from when a search takes the heuristic
    (`new_search`) and over the time spent waiting for the worker only.  `search` names
    what the budget is for in the message ("one move").  A failure of the student's code,
    or the budget spent, raises `UserCodeError` (one line naming the file).
    """

    def __init__(
        self,
        path: str,
        seconds: float = EVALUATION_SECONDS,
        budget: float | None = None,
        search: str = "one search",
    ) -> None:
        self.path = path
        self.seconds = seconds
        self.budget = seconds if budget is None else budget
        self.search = search
        self.spent = 0.0
        """Seconds this search has waited for the worker's evaluations."""
        self.worker = StudentWorker(path, {"kind": "heuristic", "path": path}, Limits(seconds))
        self.what = f"{FUNCTION}()"
        self.heuristic = Heuristic(path, f"evaluate(state) from {printable(Path(path).name)}", self)

    def new_search(self) -> None:
        """A search takes the heuristic: its budget starts whole."""
        self.spent = 0.0

    def __call__(self, state: State[Any]) -> float:
        """The checked value of `state` from the player to move's point of view."""
        left = self.budget - self.spent
        if left <= 0:
            self.worker.close()
            raise self._out_of_time()
        seconds = min(self.seconds, left)
        started = time.monotonic()
        try:
            value = self.worker.call(
                {"state": encode_state(state)}, seconds, what="for one evaluation"
            )
        except UserCodeError as error:
            waited = time.monotonic() - started
            self.spent += waited
            if seconds < self.seconds and waited >= seconds and not error.void:
                raise self._out_of_time() from None  # the budget ran out, not the answer's
            raise
        self.spent += time.monotonic() - started
        try:
            return check_number(value, self.what, HEURISTIC_LIMIT)
        except Refusal as refusal:
            self.worker.close()
            raise UserCodeError(self.path, str(refusal)) from None

    def _out_of_time(self) -> UserCodeError:
        return UserCodeError(
            self.path,
            f"lost on time: its {self.what} calls took more than {self.budget:g} s in all "
            f"for {self.search}",
        )

    def start(self) -> None:
        """Start the worker and load the file (raises UserCodeError when it fails to load)."""
        self.worker.start()

    def close(self) -> None:
        """End the worker."""
        self.worker.close()

    def abandon(self) -> None:
        """End the worker at once, from any thread: an evaluation waiting on it fails with
        `UserCodeError` (how a caller gives up a search that may never return)."""
        self.worker.abandon()


class _InUse(threading.local):
    """The heuristic files a thread's searches evaluate through (`evaluating_in_worker`): each
    thread its own, so a run given up in one thread never hands its ended worker to another's."""

    def __init__(self) -> None:
        self.files: dict[str, IsolatedHeuristic] = {}


_IN_USE = _InUse()
_KEPT: dict[str, IsolatedHeuristic] = {}
"""A marked process's heuristic files (`allow_user_code`), one worker each, ended at exit."""
_KEPT_LOCK = threading.Lock()


@contextlib.contextmanager
def evaluating_in_worker(heuristic: IsolatedHeuristic) -> Iterator[None]:
    """Within this block a search of this thread naming the heuristic's file evaluates
    through it."""
    files = _IN_USE.files
    earlier = files.get(heuristic.path)
    files[heuristic.path] = heuristic
    try:
        yield
    finally:
        if earlier is None:
            files.pop(heuristic.path, None)
        else:
            files[heuristic.path] = earlier


def _close_workers() -> None:
    with _KEPT_LOCK:
        kept = list(_KEPT.values())
    for heuristic in kept:
        heuristic.close()


atexit.register(_close_workers)


def file_heuristic(name: str) -> Heuristic:
    """The `Heuristic` a file defines, evaluated in a worker process with its values checked:
    within `evaluating_in_worker`, or in a process marked by `allow_user_code` (ended at
    exit).  A search calls this once, at its start: the file's budget starts whole.  A file
    already in use was checked when its worker was made: it is not parsed again."""
    path = str(resolve(name.strip()))
    active = _IN_USE.files.get(path)
    if active is None and user_code_allowed():
        with _KEPT_LOCK:
            active = _KEPT.get(path)
            if active is None:
                check_heuristic_file(path)
                active = _KEPT[path] = IsolatedHeuristic(path, budget=SEARCH_SECONDS)
    if active is None:
        raise FileHeuristicError(
            f"{printable(Path(name).name)}: a heuristic from a file runs only in a worker process "
            "(a match's player, the window's AI, Compare, the explorer), never in this one"
        )
    active.new_search()  # each search that takes it (once, at its start) has its budget
    return active.heuristic


heuristic_files.serve(file_heuristic)  # the engine reaches files through this one seam
