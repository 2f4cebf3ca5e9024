"""A trace whose heuristic is a user's file, recorded in a worker process (`ai.user_code`).

The explorer records its traces in the window's process; with a heuristic from a file it
asks `isolated_trace` instead, which runs `ai.trace.trace` in a worker with a time limit and
a memory cap and turns any failure of the user's code into a `SearchError` naming the file.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from plyground.ai.engine import SearchError
from plyground.ai.file_heuristics import check_heuristic_file, is_heuristic_file
from plyground.ai.trace import NODE_BUDGET, Trace, TraceNode, trace
from plyground.ai.user_code import Limits, UserCodeError, Worker

__all__ = ["Trace", "TraceNode", "isolated_trace", "record_trace"]

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


def isolated_trace(
    state: Any,
    algorithm: str,
    depth: int,
    heuristic: str,
    ordering: str = "game",
    table: bool = False,
    node_budget: int = NODE_BUDGET,
    seconds: float = TRACE_SECONDS,
) -> Trace:
    """`ai.trace.trace(...)` with a heuristic from a file, run in a worker process.

    :raises SearchError: the settings, the file, or the user's code failed (one line).
    """
    try:
        path = check_heuristic_file(heuristic)
    except ValueError as error:
        raise SearchError(str(error)) from None
    worker = Worker(path, TraceHost(path), Limits(seconds))
    try:
        found: Trace = worker.call((state, algorithm, depth, path, ordering, table, node_budget))
    except UserCodeError as error:
        raise SearchError(error.line) from None
    finally:
        worker.close()
    return found


def record_trace(
    state: Any,
    algorithm: str,
    depth: int,
    heuristic: str | None = None,
    ordering: str = "game",
    table: bool = False,
    node_budget: int = NODE_BUDGET,
) -> Trace:
    """`ai.trace.trace`, in a worker process when the heuristic is a user's file (the
    explorer's and `trace`'s one call: user code never runs in their process)."""
    if heuristic is not None and is_heuristic_file(heuristic):
        return isolated_trace(state, algorithm, depth, heuristic, ordering, table, node_budget)
    return trace(state, algorithm, depth, heuristic, ordering, table, node_budget)
