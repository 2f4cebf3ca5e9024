"""The Compare view's background runs: one search at a time in a spawned process.

`CompareRunner` owns a one-process `ProcessPoolExecutor` (spawn context) and runs one
(variant, depth) search after another on it (besides the variants: Monte Carlo tree search's
row, `MCTS_JOB`; the exact values of the root moves, `EXACT_JOB`; the budget curve,
`CURVE_JOB`); the window polls it every frame, so the
drawing loop never waits.  Progress comes back through a queue; `cancel()` sets a shared
event that the search's `should_stop` reads.  No pygame here: the worker imports only
`ai` and `games`.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import queue
import time
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

from plyground.ai.compare.budget_curve import budget_curve
from plyground.ai.compare.comparison import run_mcts, run_variant
from plyground.ai.compare.exact import EXACT_SECONDS, exact_values
from plyground.ai.engine.bookkeeping import SearchCancelled
from plyground.ai.engine.mcts.settings import MCTS, MonteCarlo
from plyground.games.base import State
from plyground.gui.worker.ai_worker import let_go_of

MCTS_JOB = MCTS
"""The job that runs Monte Carlo tree search's row (its option: the iterations)."""
EXACT_JOB = "exact"
"""The job that finds every root move's exact value (an `ExactValues`, or None)."""
CURVE_JOB = "curve"
"""The job that measures the budget curve (its option: (budgets, positions))."""

END_GRACE = 0.5
"""Seconds a closed run's process has to end after it is told to, before it is killed."""
CANCEL_GRACE = 1.0
"""Seconds a cancelled run has to stop by itself; then its process is ended (a heuristic
file's `evaluate` that never returns cannot read the stop flag) and a new one starts later."""

_stop: Any = None
_progress: Any = None


def _start_worker(stop: Any, progress: Any, registered: list[Any]) -> None:
    """In the worker: keep the shared stop flag and progress queue; register extra games."""
    global _stop, _progress
    _stop, _progress = stop, progress
    from plyground.ai.student_code import heuristics
    from plyground.ai.student_code.worker import allow_user_code

    assert heuristics  # imported: it serves heuristic files to the engine here
    allow_user_code()  # a heuristic from a file runs here, never in the window's process

    from plyground.games.spawned import register_games

    register_games(tuple(tuple(pair) for pair in registered))  # each once: a known one is kept


def _run(
    state: State[Any], variant: str, depth: int, heuristic: str | None, option: Any = None
) -> Any:
    """In the worker: one search (a `Row`), or the exact values or the budget curve of the
    jobs that are not a variant; None when it was cancelled or found nothing."""

    def report(snapshot: Any) -> None:
        with contextlib.suppress(queue.Full):  # a lost snapshot does not matter
            _progress.put_nowait((variant, depth, snapshot.nodes, snapshot.elapsed))

    try:
        if variant == MCTS_JOB:
            settings = MonteCarlo(iterations=option)
            return run_mcts(state, settings, heuristic, progress=report, should_stop=_stop.is_set)
        if variant == EXACT_JOB:
            return exact_values(state, EXACT_SECONDS, _stop.is_set)
        if variant == CURVE_JOB:
            budgets, positions = option
            return budget_curve(state, budgets, positions, heuristic, should_stop=_stop.is_set)
        return run_variant(
            state, variant, depth, heuristic, progress=report, should_stop=_stop.is_set
        )
    except SearchCancelled:
        return None


class CompareRunner:
    """Runs searches in the background, one at a time."""

    def __init__(self) -> None:
        self._context = multiprocessing.get_context("spawn")
        self._stop = self._context.Event()
        self._progress = self._context.Queue(maxsize=256)
        self._pool: ProcessPoolExecutor | None = None
        self._future: Future[Any] | None = None
        self.job: tuple[str, int] | None = None
        """(variant, depth) of the run under way, or None."""
        self.nodes = 0
        self.elapsed = 0.0
        self._closed = False
        self._cancelled_at: float | None = None

    @property
    def busy(self) -> bool:
        """A run is under way (or its result not yet collected)."""
        return self._future is not None

    def start(
        self,
        state: State[Any],
        variant: str,
        depth: int,
        heuristic: str | None,
        option: Any = None,
    ) -> None:
        """Begin one search or job (the previous one must have been collected)."""
        if self._pool is None:
            from plyground.games.spawned import registered_games

            extra = list(registered_games())  # a game from a file is loaded there by its name
            self._pool = ProcessPoolExecutor(
                max_workers=1,
                mp_context=self._context,
                initializer=_start_worker,
                initargs=(self._stop, self._progress, extra),
            )
        self._stop.clear()
        self._cancelled_at = None
        self.job, self.nodes, self.elapsed = (variant, depth), 0, 0.0
        self._future = self._pool.submit(_run, state, variant, depth, heuristic, option)

    def poll(self) -> tuple[bool, Any, str]:
        """(finished, what it found (a `Row`, `ExactValues` or `BudgetCurve`) or None if
        cancelled, error text) of the run under way."""
        while True:
            try:
                variant, depth, nodes, elapsed = self._progress.get_nowait()
            except (queue.Empty, OSError, ValueError):
                break
            if (variant, depth) == self.job:
                self.nodes, self.elapsed = nodes, elapsed
        future = self._future
        if future is None:
            return False, None, ""
        if not future.done():
            cancelled_at = self._cancelled_at
            if cancelled_at is None or time.monotonic() - cancelled_at < CANCEL_GRACE:
                return False, None, ""
            self._end_pool()  # cancelled but not stopping: abandoned with its process
            self._future, self.job, self._cancelled_at = None, None, None
            return True, None, ""
        self._future = None
        self.job = None
        try:
            return True, future.result(), ""
        except Exception as error:  # a broken worker must not take the window down
            self._pool = None
            return True, None, f"the search failed: {error}"

    def cancel(self) -> None:
        """Ask the running search to stop (it returns None soon after; one that does not stop
        within CANCEL_GRACE is abandoned with its process)."""
        self._stop.set()
        if self._future is not None and self._cancelled_at is None:
            self._cancelled_at = time.monotonic()

    def _end_pool(self) -> None:
        """End the worker process without waiting for its run (a later run starts a new one)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            processes = list((pool._processes or {}).values())  # the executor keeps no other handle
            pool.shutdown(wait=False, cancel_futures=True)
            end_processes(processes)

    def close(self) -> None:
        """Abandon the run and end the worker process (a second call does nothing).

        Never waits for the search: one that does not return (a heuristic file's endless
        `evaluate`) is ended with its process, which takes the student's worker with it."""
        if self._closed:
            return
        self._closed = True
        self._stop.set()
        self._end_pool()
        self._future = None
        let_go_of(self._progress, END_GRACE)


def end_processes(processes: list[Any], grace: float = END_GRACE) -> None:
    """Terminate `processes` and reap them, killing any still alive after `grace` seconds in
    all (so a caller returns within about twice `grace`)."""
    for process in processes:
        with contextlib.suppress(OSError, ValueError, AttributeError):
            process.terminate()
    deadline = time.monotonic() + grace
    for process in processes:
        with contextlib.suppress(OSError, ValueError, AttributeError):
            process.join(max(0.0, deadline - time.monotonic()))
            if process.is_alive():
                process.kill()
                process.join(grace)
