"""The window's side of the AI worker: it starts the process, sends it one typed request per
job and reads its answers without blocking, so the window keeps drawing while the AI thinks.

One persistent process (multiprocessing "spawn", daemon) runs `gui.worker.process.worker_main`.
`AIWorker.submit(request)` takes one typed request (`gui.worker.requests`: a `MoveRequest`,
an `AnalysisRequest` or a `ReviewRequest`, each with the same `JobHeader`), cancels the
running job, and returns the new job's id; the request travels to the process as a `Job`
under that id.  `poll()` returns the answers about the newest job (`gui.worker.messages`:
`Progress`, `Result` with the move and its `SearchResult`, a game review's
`PositionEvaluated`, `MinimaxNodes`, `Cancelled`, `Failed`, `Restarted`); answers about any
other job are dropped.

Cancelling sets a shared counter to the job's id; the search polls it through
`should_stop` and raises `ai.SearchCancelled` at once.  "Move now" (`move_now()`) sets a second
counter the same way; the search polls it through `ai.search(..., finish_now=...)` and answers
with the deepest finished iteration (`result.complete` False).  `close()` (also registered
with atexit) stops the process within a second, terminating it if it does not leave by itself.

A move of a student's agent (a side "From a file…", a Kaggle agent) is no job of the process:
`file_agents.FileAgents` asks the agent's own worker from a thread of the window's process, and
its answers come back through the same `poll()`.  `end_game()` ends every student's worker kept
for the game (the agents', and a heuristic file's in the process through an `EndGame` request).

If the process dies mid-job (killed from outside, out of memory), `poll()` notices, starts
a new one, sends the job again and answers `Restarted` (with a count) so the window can say
so gently; a job that kills MAX_RESTARTS processes in a row is answered with an error.
The worker ignores Ctrl+C (SIGINT reaches the whole process group): the window decides.
"""

from __future__ import annotations

import atexit
import contextlib
import multiprocessing
import pickle
import queue
import time
from multiprocessing.context import SpawnProcess
from multiprocessing.queues import Queue
from pathlib import Path
from typing import TypeVar

from plyground.gui.worker.file_agents import FileAgents
from plyground.gui.worker.messages import (
    FINISHED,
    EndGame,
    EngineReady,
    Failed,
    Restarted,
    WarmUpEngines,
    WorkerMessage,
)
from plyground.gui.worker.process import Counter, worker_main
from plyground.gui.worker.requests import GameFactory, Job, MoveRequest, Request, user_file

STUCK_AFTER = 0.75
"""A cancelled job that has not stopped after this long gets the process restarted."""
MAX_RESTARTS = 3
"""A job whose worker dies this many times in a row is reported as an error."""


def _is_agent(request: Request) -> bool:
    """Whether a request is a student's agent's move (it moves in a worker of its own)."""
    from plyground.ai.players.players import AgentPlayer

    return isinstance(request, MoveRequest) and isinstance(request.config, AgentPlayer)


def _registered_factory(game_name: str) -> GameFactory | None:
    """The factory `games.register` keeps for `game_name`, if it can travel to the worker
    (a class defined inside a function cannot: then None, and the worker needs the name)."""
    from plyground import games

    factory = games.GAMES.get(game_name)
    if games.is_from_file(game_name):
        return None  # the worker loads it from its file by name
    try:
        pickle.dumps(factory)
    except (pickle.PicklingError, AttributeError, TypeError):
        return None
    return factory


Item = TypeVar("Item")


def let_go_of(q: Queue[Item], wait: float) -> None:
    """Close a queue, waiting at most `wait` seconds for its feeder thread to finish.

    The feeder holds the queue's semaphores; were it the last to let go of them, they would be
    unlinked from that thread, and a process exiting at that moment leaves the resource tracker
    a "leaked semaphore" warning on the terminal.  Never blocks longer than `wait` (a feeder
    stuck on a full pipe whose reader died is left to die with the process)."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        q.cancel_join_thread()
        q.close()
        feeder = getattr(q, "_thread", None)  # multiprocessing keeps no public handle on it
        if feeder is not None:
            feeder.join(wait)


class AIWorker:
    """The window's side of the worker: submit, cancel, poll without blocking, close."""

    def __init__(self) -> None:
        self._context = multiprocessing.get_context("spawn")
        self._process: SpawnProcess | None = None
        self._requests: Queue[object] | None = None
        self._results: Queue[WorkerMessage | EngineReady] | None = None
        self._cancelled_through: Counter | None = None
        self._finished_through: Counter | None = None
        self._next_id = 0
        self.current_id = 0
        self.busy = False
        self._cancel_time: float | None = None
        self._closed = False
        self._job: Job | None = None
        """The current job, kept so it can be sent again if the process dies."""
        self._deaths = 0
        self.restarts = 0
        """How many times a dead worker process was replaced (for tests and the window)."""
        self.agents = FileAgents()
        """Students' agents: they move in workers of their own, asked from this process."""
        self._agent_job: int | None = None
        """The current job's id when a student's agent answers it (not the process)."""
        self.warming: set[str] = set()
        """Games whose exact engine the worker is loading or compiling now."""
        self.engines: dict[str, EngineReady] = {}
        """Games whose exact engine the worker has loaded (or failed to), with what it took."""
        atexit.register(self.close)

    @property
    def alive(self) -> bool:
        """Whether the worker process is running."""
        return self._process is not None and self._process.is_alive()

    def start(self) -> None:
        """Start the process now (it is also started on the first job)."""
        if self.alive:
            return
        self._closed = False
        self._requests = self._context.Queue()
        self._results = self._context.Queue()
        self._cancelled_through = self._context.Value("q", self._next_id, lock=False)
        self._finished_through = self._context.Value("q", self._next_id, lock=False)
        process = self._context.Process(
            target=worker_main,
            args=(self._requests, self._results, self._cancelled_through, self._finished_through),
            name="plyground-ai",
            daemon=True,
        )
        from plyground.ai.players.game_pool import terminal_signals_held

        with terminal_signals_held():  # Ctrl+C to the group while it starts: the window's
            process.start()
        self._process = process  # only a started process is ever joined

    def warm_up_engines(self, game_names: tuple[str, ...]) -> None:
        """Have the worker load or compile these games' exact engines now, in the background
        (the window asks while its menu is open); `warming` names them until each is ready."""
        names = tuple(n for n in game_names if n not in self.engines and n not in self.warming)
        if not names:
            return
        self.start()
        self.warming.update(names)
        with contextlib.suppress(OSError, ValueError, AssertionError):
            assert self._requests is not None
            self._requests.put(WarmUpEngines(names))

    def preparing(self, game_name: str) -> bool:
        """Whether the worker is still loading or compiling this game's exact engine."""
        return game_name in self.warming

    def submit(self, request: Request) -> int:
        """Queue a job (cancelling the running one); returns its id.  A move of a student's
        agent is asked of its own worker from a thread here (`file_agents`), not the process."""
        self.cancel()
        if isinstance(request, MoveRequest) and _is_agent(request):
            self._next_id += 1
            self.current_id = self._agent_job = self._next_id
            self.busy = True
            self._job = None
            self.agents.submit(self.current_id, request)
            return self.current_id
        self._agent_job = None
        if self._cancel_time is not None and time.perf_counter() - self._cancel_time > STUCK_AFTER:
            self._restart()
        self.start()
        self._next_id += 1
        self.current_id = self._next_id
        self.busy = True
        self._deaths = 0
        self._job = Job(self.current_id, request, _registered_factory(request.header.game_name))
        assert self._requests is not None  # started above
        self._requests.put(self._job)
        return self.current_id

    def cancel(self) -> None:
        """Stop the running job at once; its answers will be ignored."""
        if self._agent_job is not None:
            if self.busy:
                self.agents.cancel(self._agent_job)
            self.busy = False
            return
        if self._cancelled_through is not None and self.busy:
            self._cancelled_through.value = self.current_id
            if self._cancel_time is None:
                self._cancel_time = time.perf_counter()
        self.busy = False

    def end_game(self) -> None:
        """The game ended: the players kept for it close, every student's worker with them
        (an agent's here, a heuristic file's in the process)."""
        self.agents.end_game()
        if self.alive and self._requests is not None:
            with contextlib.suppress(OSError, ValueError, queue.Full):
                self._requests.put_nowait(EndGame())

    def move_now(self) -> bool:
        """Move now: the running search stops and answers with its deepest finished
        iteration (at least depth 1).  Returns whether a job was running to be told."""
        if self._agent_job is not None:
            return False  # a student's agent answers when it answers
        if self._finished_through is None or not self.busy:
            return False
        self._finished_through.value = max(self._finished_through.value, self.current_id)
        return True

    def poll(self) -> list[WorkerMessage]:
        """Every waiting answer about the current job (never blocks)."""
        messages: list[WorkerMessage] = []
        for answer in self.agents.poll():
            if answer.job_id == self.current_id and self._agent_job == self.current_id:
                self.busy = False
                messages.append(answer)
        if self._results is None:
            return messages
        while True:
            try:
                message: WorkerMessage | EngineReady = self._results.get_nowait()
            except (queue.Empty, OSError, ValueError):
                break
            if isinstance(message, EngineReady):  # about the worker, not a job
                self.warming.discard(message.game_name)
                self.engines[message.game_name] = message
                continue
            job_id = message.job_id
            finished = isinstance(message, FINISHED)
            if (
                finished
                and self._cancelled_through is not None
                and job_id <= self._cancelled_through.value
            ):
                self._cancel_time = None  # the cancelled job has let go of the worker
            if job_id != self.current_id:
                continue
            if finished:
                self.busy = False
            messages.append(message)
        if self.busy and self._agent_job is None and not self._closed and not self.alive:
            messages.append(self._respawn())
        return messages

    def _respawn(self) -> WorkerMessage:
        """The process died mid-job (killed, out of memory...): start a new one, ask again.

        Returns `Restarted` for the window's gentle notice, or `Failed` when the same job
        has killed MAX_RESTARTS processes in a row.
        """
        job = self._job
        self._shutdown(0.2)
        self._deaths += 1
        if job is None or job.job_id != self.current_id or self._deaths > MAX_RESTARTS:
            self.busy = False
            request = None if job is None else job.request
            file = user_file(request.config) if isinstance(request, MoveRequest) else None
            if file is not None:  # the side plays with a student's file: it forfeits
                from plyground.untrusted import printable

                reason = (
                    f"{printable(Path(file).name)}: the AI process running it stopped "
                    f"{self._deaths} times (killed, or out of memory)"
                )
                return Failed(self.current_id, reason, True)
            return Failed(self.current_id, "the AI process stopped unexpectedly")
        self.start()
        self.restarts += 1
        assert self._requests is not None and self._cancelled_through is not None  # started
        assert self._finished_through is not None
        self._cancelled_through.value = job.job_id - 1
        self._finished_through.value = job.job_id - 1
        self._cancel_time = None
        self._requests.put(job)
        return Restarted(job.job_id, self.restarts)

    def _restart(self) -> None:
        self._shutdown(0.2)
        self._cancel_time = None

    def _shutdown(self, timeout: float) -> None:
        process, self._process = self._process, None
        self.warming.clear()  # a new process loads its engines afresh
        self.engines.clear()
        if process is None:
            return
        if self._cancelled_through is not None:
            self._cancelled_through.value = max(self._next_id, self._cancelled_through.value)
        with contextlib.suppress(OSError, ValueError, queue.Full, AttributeError):
            self._requests.put_nowait(None)  # type: ignore[union-attr]  # None: never started
        process.join(timeout / 2)
        if process.is_alive():
            process.terminate()
            process.join(timeout / 2)
        if process.is_alive():
            process.kill()
            process.join(0.2)
        if self._requests is not None:
            let_go_of(self._requests, timeout / 4)
        if self._results is not None:
            let_go_of(self._results, timeout / 4)
        self._requests = self._results = None

    def close(self, timeout: float = 0.8) -> None:
        """Stop the worker; returns within about `timeout` seconds, leaving no process."""
        if self._closed:
            return
        self._closed = True
        self.busy = False
        self.agents.close()
        self._shutdown(timeout)
