"""Traces and searches whose heuristic is a user's file, run in a worker process.

The explorer and `trace` record through `record_trace`, `analyze` searches through
`run_search`: with a game's own heuristic they run here, with a heuristic from a file in a
worker (`ai.student_code.worker`) with a time limit and a memory cap, any failure of the user's code
becoming a `SearchError` that names the file.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from plyground.ai.engine.bookkeeping import SearchError
from plyground.ai.engine.result import SearchResult
from plyground.ai.engine.search import search
from plyground.ai.student_code.heuristics import check_heuristic_file, is_heuristic_file
from plyground.ai.student_code.worker import Limits, UserCodeError, Worker
from plyground.ai.textbook.trace import NODE_BUDGET, Trace, TraceNode, trace

__all__ = ["Trace", "TraceNode", "isolated_trace", "record_trace", "run_search"]

TRACE_SECONDS = 30.0
"""Seconds a trace with a user's heuristic may take."""


@dataclass(frozen=True)
class TraceHost:
    """Built in the worker: records traces."""

    path: str

    def __call__(self) -> Any:
        def run(request: tuple[Any, ...]) -> Trace:
            return trace(*request)

        return run


@dataclass(frozen=True)
class SearchHost:
    """Built in the worker: runs searches."""

    path: str

    def __call__(self) -> Any:
        def run(request: tuple[Any, dict[str, Any]]) -> SearchResult:
            state, options = request
            return search(state, **options)

        return run


def _in_worker(host: Any, heuristic: str, request: Any, seconds: float) -> Any:
    """`host(request)` in a worker for the heuristic file; failures as one SearchError."""
    try:
        path = check_heuristic_file(heuristic)
    except ValueError as error:
        raise SearchError(str(error)) from None
    worker = Worker(path, host(path), Limits(seconds))
    try:
        return worker.call(request)
    except UserCodeError as error:
        raise SearchError(error.line) from None
    finally:
        worker.close()


def run_search(state: Any, **options: Any) -> SearchResult:
    """`ai.search(state, **options)`, in a worker when the heuristic is a user's file (no
    progress reports from there); `time_limit` plus a margin, or TRACE_SECONDS, bounds it."""
    heuristic = options.get("heuristic")
    if heuristic is None or not is_heuristic_file(heuristic):
        return search(state, **options)
    options.pop("progress", None)
    options["heuristic"] = check_heuristic_file_or_fail(heuristic)
    budget = options.get("time_limit")
    seconds = budget + 5.0 if budget else TRACE_SECONDS
    result: SearchResult = _in_worker(SearchHost, heuristic, (state, options), seconds)
    return result


def check_heuristic_file_or_fail(name: str) -> str:
    """The heuristic file's absolute path, or a SearchError saying what is wrong."""
    try:
        return check_heuristic_file(name)
    except ValueError as error:
        raise SearchError(str(error)) from None


def isolated_trace(
    state: Any,
    algorithm: str,
    depth: int,
    heuristic: str,
    ordering: str = "game",
    table: bool = False,
    node_budget: int = NODE_BUDGET,
    seconds: float = TRACE_SECONDS,
    book: bool = False,
) -> Trace:
    """`ai.textbook.trace.trace(...)` with a heuristic from a file, run in a worker process.

    :raises SearchError: the settings, the file, or the user's code failed (one line).
    """
    request = (state, algorithm, depth, check_heuristic_file_or_fail(heuristic), ordering, table)
    found: Trace = _in_worker(TraceHost, heuristic, (*request, node_budget, book), seconds)
    return found


def record_trace(
    state: Any,
    algorithm: str,
    depth: int,
    heuristic: str | None = None,
    ordering: str = "game",
    table: bool = False,
    node_budget: int = NODE_BUDGET,
    book: bool = False,
) -> Trace:
    """`ai.textbook.trace.trace`, in a worker process when the heuristic is a user's file (the
    explorer's and `trace`'s one call: user code never runs in their process)."""
    if heuristic is not None and is_heuristic_file(heuristic):
        return isolated_trace(
            state, algorithm, depth, heuristic, ordering, table, node_budget, book=book
        )
    return trace(state, algorithm, depth, heuristic, ordering, table, node_budget, book)
