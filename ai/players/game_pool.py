"""Games over local worker processes, where a dead worker costs at most its own game.

A worker process can die under a game: the out-of-memory killer, a `kill -9`, a crash in a
native library.  The pool then breaks and every game in it fails with it, the innocent
ones too.  So the games that were in the pool are played again in a fresh pool, one at a
time; a game whose worker dies a second time while it runs alone is the cause, and it is
given up (`lost(task, reason)` makes its record).  Games draw everything from their seeds,
so a game played again gives exactly what it would have given the first time.

Results come back in task order; only a window of games is handed out at a time, so
memory does not grow with the number of tasks.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures import process as futures_process
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, cast

from plyground.games.spawned import register_games, registered_games

Task = TypeVar("Task")
Result = TypeVar("Result")

WORKER_DIED = "void: its worker process died (killed, out of memory or crashed)"
"""Why a game has no result when its worker process died under it twice."""

AHEAD_PER_WORKER = 2
"""Games handed out ahead of the one awaited, per worker process."""


@dataclass(slots=True)
class _Slot(Generic[Task, Result]):
    """One game in the window: its task, its future once handed out, its result once known."""

    task: Task
    future: Future[Result] | None = None
    result: Result | None = None
    done: bool = False
    suspect: bool = False
    """Its pool broke while it ran: it is played again alone."""


def pool_results(
    tasks: Iterable[Task],
    play: Callable[[Task], Result],
    jobs: int,
    lost: Callable[[Task, str], Result],
) -> Iterator[Result]:
    """`play(task)` for every task over `jobs` spawned processes, results in task order.

    `play` must be a module-level function (it is sent to the workers by name).  A game
    whose worker dies is played again alone in a fresh pool; if its worker dies then too,
    its result is `lost(task, WORKER_DIED)` and the run goes on.
    """
    pending = iter(tasks)
    window: deque[_Slot[Task, Result]] = deque()
    exhausted = False
    pool = _new_pool(jobs)
    try:
        while True:
            while not exhausted and len(window) < AHEAD_PER_WORKER * jobs:
                try:
                    window.append(_Slot(next(pending)))
                except StopIteration:
                    exhausted = True
            if not window:
                pool.shutdown(wait=True)  # every game done: the workers leave on their own
                return
            head = window[0]
            try:
                with terminal_signals_held():  # submitting spawns the workers
                    _hand_out(pool, window, play)
                if not head.done:
                    assert head.future is not None
                    head.result, head.done = _result(pool, head.future), True
            except BrokenProcessPool:
                _settle_broken(window, lost)
                _stop(pool)
                pool = _new_pool(jobs)
                continue
            window.popleft()
            yield cast(Result, head.result)  # done: the result is set
    finally:
        _stop(pool)


WATCH_SECONDS = 0.25
"""How often the pool's processes are looked at while a game is awaited."""


def _result(pool: ProcessPoolExecutor, future: Future[Result]) -> Result:
    """The game's result; meanwhile a pool process found stopped (a SIGSTOP from anyone) is
    continued at once, as a student's supervisor continues its worker's tree."""
    while True:
        try:
            return future.result(timeout=WATCH_SECONDS)
        except TimeoutError:
            continue_stopped(_processes(pool))


def _processes(pool: ProcessPoolExecutor) -> list[Any]:
    """The pool's worker processes (multiprocessing's), while it has them."""
    return list((getattr(pool, "_processes", None) or {}).values())


def continue_stopped(processes: list[Any]) -> None:
    """Send SIGCONT to each of `processes` and their descendants (a student's supervisor,
    which then continues its own worker) that is stopped; nothing where there is no SIGSTOP
    (Windows)."""
    resume = getattr(signal, "SIGCONT", None)
    if resume is None:
        return
    import psutil

    for process in processes:
        with contextlib.suppress(Exception):  # gone meanwhile, or never started
            parent = psutil.Process(process.pid)
            for member in [parent, *parent.children(recursive=True)]:
                if member.status() == psutil.STATUS_STOPPED:
                    os.kill(member.pid, resume)


def _hand_out(
    pool: ProcessPoolExecutor,
    window: deque[_Slot[Task, Result]],
    play: Callable[[Task], Result],
) -> None:
    """Submit the window's waiting games: all of them, or one at a time while any is suspect."""
    careful = any(slot.suspect for slot in window)
    running = sum(1 for slot in window if slot.future is not None and not slot.done)
    for slot in window:
        if slot.done or slot.future is not None:
            continue
        if careful and running:
            return
        slot.future = pool.submit(play, slot.task)
        running += 1


def _settle_broken(window: deque[_Slot[Task, Result]], lost: Callable[[Task, str], Result]) -> None:
    """After the pool broke: keep what finished, give up a suspect that ran alone, and mark
    every other game that was handed out to be played again."""
    handed = [slot for slot in window if slot.future is not None and not slot.done]
    failed = []
    for slot in handed:
        future = slot.future
        assert future is not None
        if not future.done() or future.cancelled():
            failed.append(slot)
        elif future.exception() is None:
            slot.result, slot.done = future.result(), True
        elif not isinstance(future.exception(), BrokenProcessPool):
            continue  # the game's own error: raised when its turn comes
        else:
            failed.append(slot)
    for slot in failed:
        if slot.suspect and len(failed) == 1:
            slot.result, slot.done = lost(slot.task, WORKER_DIED), True
        else:
            slot.suspect, slot.future = True, None


@contextlib.contextmanager
def terminal_signals_held() -> Iterator[None]:
    """Within the block, Ctrl+C and a hang-up wait (blocked, where the system can block
    them): a process started here keeps them blocked from its first instruction, so a
    terminal's signal to the whole process group reaches only the parent, which reports
    and stops the pool; a worker still starting up would otherwise print a traceback.  (A
    blocked signal stays blocked in a child; the parent's own is delivered after.)

    Blocking holds them for this thread only: the system may hand a signal to another
    thread (a progress display's, say), and Python would still interrupt this one in the
    middle of starting a worker.  So here the signals' handlers only note them too, and one
    noted is raised again once the block is left."""
    block = getattr(signal, "pthread_sigmask", None)  # none on Windows
    held = {getattr(signal, name) for name in ("SIGINT", "SIGHUP") if hasattr(signal, name)}
    if block is None:
        yield
        return
    noted: list[int] = []
    handlers: dict[int, Any] = {}
    if threading.current_thread() is threading.main_thread():
        for number in held:
            handlers[number] = signal.getsignal(number)
            signal.signal(number, lambda signum, frame: noted.append(signum))
    before = block(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        block(signal.SIG_SETMASK, before)
        for number, handler in handlers.items():
            signal.signal(number, handler)
        for number in dict.fromkeys(noted):
            signal.raise_signal(number)


def _new_pool(jobs: int) -> ProcessPoolExecutor:
    """A pool of `jobs` spawned workers that know the parent's games (started, like the
    resource tracker, with the terminal's signals held: `terminal_signals_held`)."""
    from multiprocessing import resource_tracker

    with terminal_signals_held():
        resource_tracker.ensure_running()
    return ProcessPoolExecutor(
        jobs,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=start_worker,
        initargs=(registered_games(),),
    )


def _stop(pool: ProcessPoolExecutor) -> None:
    """Stop a pool now: waiting games cancelled, running ones ended, no process left (a
    stopped one continued first, one that does not end on SIGTERM killed)."""
    processes = _processes(pool)
    manager = getattr(pool, "_executor_manager_thread", None)  # shutdown() forgets it
    pool.shutdown(wait=False, cancel_futures=True)
    continue_stopped(processes)  # a stopped process ends only once continued
    for process in processes:
        with contextlib.suppress(OSError, ValueError):
            process.terminate()
    continue_stopped(processes)
    for process in processes:
        with contextlib.suppress(OSError, ValueError, AssertionError):
            process.join(5)
            if process.is_alive():
                process.kill()
                process.join(5)
    # Its manager thread ends once the workers are gone, closing its wake-up pipe; forget
    # that pipe, or CPython's exit hook may write to it as it closes (a traceback at exit).
    if manager is not None:
        manager.join(5)
        wakeups = getattr(futures_process, "_threads_wakeups", None)
        if wakeups is not None and not manager.is_alive():
            wakeups.pop(manager, None)


def start_worker(factories: tuple[tuple[str, str], ...]) -> None:
    """In a worker process: the parent's games; Ctrl+C and a hang-up left to the parent.

    The parent reports and stops the pool; a terminal's signal to the whole process group
    must not kill the workers under it first.  SIGTERM stays: it is how the pool is stopped.
    """
    register_games(factories)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    hangup = getattr(signal, "SIGHUP", None)  # none on Windows
    if hangup is not None:
        signal.signal(hangup, signal.SIG_IGN)
