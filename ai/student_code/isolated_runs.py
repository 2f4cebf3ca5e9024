"""Traces and searches whose heuristic is a student's file: the evaluations in a worker.

The explorer and `trace` record through `record_trace`, `analyze` searches through
`run_search`: with a game's own heuristic they run as they are; with a heuristic from a file
the search runs here and asks a worker process (`ai.student_code.heuristics`) for each leaf's
value, checked here, any failure of the student's code becoming a `SearchError` that names
the file.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any, TypeVar

from plyground.ai.engine.bookkeeping import SearchError
from plyground.ai.engine.result import SearchProgress, SearchResult
from plyground.ai.engine.search import SearchConfig, search
from plyground.ai.student_code.heuristics import (
    IsolatedHeuristic,
    check_heuristic_file,
    evaluating_in_worker,
    is_heuristic_file,
)
from plyground.ai.student_code.worker import UserCodeError
from plyground.ai.textbook.trace import NODE_BUDGET, Trace, TraceNode, trace
from plyground.games.base import State

__all__ = ["Trace", "TraceNode", "isolated_trace", "record_trace", "run_search"]

TRACE_SECONDS = 30.0
"""Seconds the evaluations of a student's heuristic may take in a trace or an analysis, each
and all of them together."""

_T = TypeVar("_T")


Abandon = Callable[[Callable[[], None]], None]
"""Given the function that ends a run's worker at once (from any thread), keeps it: how a
caller (the explorer) gives up a run that may never return without waiting for it."""


def _with_worker(
    path: str,
    seconds: float,
    run: Callable[[], _T],
    abandon: Abandon | None = None,
    what: str = "one search",
) -> _T:
    """`run()` with the heuristic file evaluated by a worker; failures as one SearchError."""
    evaluator = IsolatedHeuristic(path, seconds, search=what)
    if abandon is not None:
        abandon(evaluator.abandon)
    try:
        with evaluating_in_worker(evaluator):
            return run()
    except UserCodeError as error:
        raise SearchError(error.line) from None
    finally:
        evaluator.close()


def run_search(
    state: State[Any],
    config: SearchConfig,
    progress: Callable[[SearchProgress], None] | None = None,
) -> SearchResult:
    """`ai.search(state, config)`, evaluating in a worker when the heuristic is a student's
    file."""
    heuristic = config.heuristic
    if heuristic is None or not is_heuristic_file(heuristic):
        return search(state, config, progress=progress)
    path = check_heuristic_file_or_fail(heuristic)
    asked = replace(config, settings=replace(config.settings, heuristic=path))
    return _with_worker(
        path, TRACE_SECONDS, lambda: search(state, asked, progress=progress), what="one analysis"
    )


def check_heuristic_file_or_fail(name: str) -> str:
    """The heuristic file's absolute path, or a SearchError saying what is wrong."""
    try:
        return check_heuristic_file(name)
    except ValueError as error:
        raise SearchError(str(error)) from None


def isolated_trace(
    state: State[Any],
    algorithm: str,
    depth: int,
    heuristic: str,
    ordering: str = "game",
    table: bool = False,
    node_budget: int = NODE_BUDGET,
    seconds: float = TRACE_SECONDS,
    book: bool = False,
    abandon: Abandon | None = None,
) -> Trace:
    """`ai.textbook.trace.trace(...)` with a heuristic from a file evaluated in a worker.

    :raises SearchError: the settings, the file, or the user's code failed (one line).
    """
    path = check_heuristic_file_or_fail(heuristic)
    return _with_worker(
        path,
        seconds,
        lambda: trace(state, algorithm, depth, path, ordering, table, node_budget, book),
        abandon,
        "one trace",
    )


def record_trace(
    state: State[Any],
    algorithm: str,
    depth: int,
    heuristic: str | None = None,
    ordering: str = "game",
    table: bool = False,
    node_budget: int = NODE_BUDGET,
    book: bool = False,
    abandon: Abandon | None = None,
) -> Trace:
    """`ai.textbook.trace.trace`, in a worker process when the heuristic is a user's file (the
    explorer's and `trace`'s one call: user code never runs in their process); `abandon`
    receives the function that ends that worker at once."""
    if heuristic is not None and is_heuristic_file(heuristic):
        return isolated_trace(
            state,
            algorithm,
            depth,
            heuristic,
            ordering,
            table,
            node_budget,
            book=book,
            abandon=abandon,
        )
    return trace(state, algorithm, depth, heuristic, ordering, table, node_budget, book)
