"""The AI in a separate process, so the window keeps drawing while it thinks.

One persistent worker process (multiprocessing "spawn", daemon) reads jobs from a
request queue and answers on a result queue:

* job: `Job(job_id, kind, game_name, game_options, state, config, analysis, player_key,
  factory)` (the factory registers a game added at run time in the worker too);
  kind "move" asks an `ai.players.players.AIPlayer` built from `config` for its move (difficulty
  randomness included), kind "analyse" runs `ai.engine.search` with the config's settings, kind
  "game_review" evaluates a game's positions one by one (`ai.advice.game_review`), answering each.
* answers: the `WorkerMessage` dataclasses `Progress`, `Result` (move, SearchResult),
  `PositionEvaluated` (index, state, Evaluation, lines) of a game review, `MinimaxNodes`,
  `Cancelled` and `Failed` (a reason; for a player from a file whose code failed, a
  forfeit with its traceback lines), each naming its job's id.

Cancelling sets a shared counter to the job's id; the search polls it through
`should_stop` and raises `ai.SearchCancelled` at once.  "Move now" (`move_now()`) sets a second
counter the same way; the search polls it through `ai.search(..., finish_now=...)` and answers
with the deepest finished iteration (`result.complete` False).  Answers about any job other
than the newest one are dropped.  `close()` (also registered with atexit) stops the
process within a second, terminating it if it does not leave by itself.

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
import inspect
import multiprocessing
import pickle
import queue
import signal
import threading
import time
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any

from plyground.games.base import Game, State
from plyground.gui.worker.file_agents import FileAgents
from plyground.gui.worker.messages import (
    FINISHED,
    Cancelled,
    EndGame,
    EngineReady,
    Failed,
    MinimaxNodes,
    PositionEvaluated,
    Progress,
    Restarted,
    Result,
    WarmUpEngines,
    WorkerMessage,
)

if TYPE_CHECKING:
    from plyground.ai.players.players import PlayerConfig

PROGRESS_INTERVAL = 0.05
"""At most this often (seconds) a progress message is sent."""
MINIMAX_BUDGET = 0.4
"""Seconds the worker may spend counting a minimax tree to show what pruning saved."""
PARENT_CHECK = 0.5
"""Seconds between checks that the window's process is still alive."""
STUCK_AFTER = 0.75
"""A cancelled job that has not stopped after this long gets the process restarted."""
MAX_RESTARTS = 3
"""A job whose worker dies this many times in a row is reported as an error."""
MOVE_NOW_AFTER = 1.0
"""A fixed-depth search estimated (`ai.engine.cost`) to take longer than this many seconds deepens
iteratively, so "move now" has a finished iteration to answer with; shorter ones run as asked."""


class JobKind(StrEnum):
    """What a job asks of the worker."""

    MOVE = "move"
    """An AI player's move (its difficulty's randomness included)."""
    ANALYSE = "analyse"
    """Every root move's value with the advisor's search."""
    GAME_REVIEW = "game_review"
    """A game's positions evaluated one by one."""


@dataclass(frozen=True)
class Job:
    """One request to the worker."""

    job_id: int
    kind: JobKind
    game_name: str
    game_options: dict[str, Any]
    state: State[Any]
    """The position searched (a game review's: the game's last)."""
    config: PlayerConfig | None
    """The player's or the advisor's config (None for a game review)."""
    positions: tuple[tuple[int, State[Any]], ...] = ()
    """A game review's positions: (index in the game, state) pairs."""
    review_seconds: float | None = None
    """The seconds a reviewed position may take (None: the review's default)."""
    analysis: bool = False
    """The analysis panel is shown: every root value, and a minimax count if cheap."""
    player_key: Any = None
    """Jobs with the same key reuse one AIPlayer (its generator and table) across moves."""
    factory: Any = None
    """The game's registered factory (a class travels by reference): a game registered at
    run time in the window (`games.register`) is registered in the worker too."""


def _accepts(function: Any, *names: str) -> bool:
    """Whether `function` takes all these keyword arguments (or **kwargs)."""
    try:
        params = inspect.signature(function).parameters
    except (TypeError, ValueError):
        return False
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()):
        return True
    return all(name in params for name in names)


_PLAYERS: dict[Any, Any] = {}
"""AI players by (player_key, config): a player keeps its generator and table between moves."""


def user_file(config: object) -> str | None:
    """The student's file a player config names (an agent's file, or a heuristic file), or
    None for a player of ours."""
    from plyground.ai.players.players import AGENT, PlayerConfig
    from plyground.ai.student_code.agents import agent_spec
    from plyground.ai.student_code.heuristics import is_heuristic_file

    if not isinstance(config, PlayerConfig):
        return None
    if config.algorithm == AGENT:
        try:
            spec = agent_spec(str(config.agent))
        except ValueError:
            return str(config.agent)
        return spec.path if spec is not None else str(config.agent)
    if is_heuristic_file(config.heuristic):
        return str(config.heuristic)
    return None


def _is_agent(config: object) -> bool:
    """Whether a config is a student's agent (it moves in a worker of its own)."""
    from plyground.ai.players.players import AGENT, PlayerConfig

    return isinstance(config, PlayerConfig) and config.algorithm == AGENT


def _player_config(job: Job) -> PlayerConfig:
    """The job's player or advisor config (a move or an analysis carries one)."""
    from plyground.ai.players.players import PlayerConfig

    if not isinstance(job.config, PlayerConfig):
        raise TypeError(f"a {job.kind} job needs a PlayerConfig, not {job.config!r}")
    return job.config


def _may_finish_early(job: Job) -> bool:
    """Whether this job's search gets a "move now" flag: a search that deepens anyway (a time
    budget, no depth limit) or a fixed depth estimated to take longer than MOVE_NOW_AFTER."""
    from plyground.ai.engine import cost as ai_cost

    try:
        config = _player_config(job)
    except TypeError:
        return False
    algorithm = config.algorithm
    if algorithm not in ai_cost.NODES_PER_SECOND:
        return False  # the random player does not search
    if config.depth is None or config.time_limit is not None:
        return True
    try:
        return ai_cost.estimate_seconds(job.state, algorithm, config.depth) > MOVE_NOW_AFTER
    except Exception:  # an estimate is a nicety: without one the search runs as asked
        return False


def _finish_flag(finished_through: Any, job_id: int) -> Any:
    """The search's `finish_now`: True once "move now" reached this job."""

    def finish_now() -> bool:
        return bool(finished_through.value >= job_id)

    return finish_now


def _choose(
    job: Job, game: Game[Any], progress: Any, should_stop: Any, finish_now: Any = None
) -> tuple[Any, Any]:
    """The AI player's move (difficulty randomness included) and its SearchResult."""
    from plyground.ai.players import players as ai_players

    key = (job.player_key, job.config)
    player = _PLAYERS.get(key)
    if player is None:
        if len(_PLAYERS) > 8:
            close_players()
        player = _PLAYERS[key] = ai_players.player_for_window(_player_config(job), game)
    options: dict[str, Any] = {"progress": progress, "should_stop": should_stop}
    if finish_now is not None:
        options["finish_now"] = finish_now
    if job.analysis and _accepts(player.choose, "all_values"):
        options["all_values"] = True
    move = player.choose(job.state, **options)
    return move, player.last_result


def close_players() -> None:
    """Forget the kept players, ending the workers of those with a heuristic file."""
    players = list(_PLAYERS.values())
    _PLAYERS.clear()
    for player in players:
        close = getattr(player, "close", None)  # only players from a file own a worker
        if close is not None:
            with contextlib.suppress(Exception):
                close()


def _analyse(job: Job, progress: Any, should_stop: Any, finish_now: Any = None) -> tuple[Any, Any]:
    """A full analysis (every root move's value) with the config's search settings: the
    advisor's search (`ai.advice.advisor.advise_with`, as `plyground hint` runs it)."""
    from plyground.ai.advice.advisor import advise_with

    result = advise_with(
        job.state,
        _player_config(job),
        progress=progress,
        should_stop=should_stop,
        finish_now=finish_now,
    )
    return result.move, result


def _review_positions(job: Job, game: Game[Any], results: Any, should_stop: Any) -> None:
    """A game review (kind "game_review"): `job.positions` holds (index, state) pairs and
    `job.review_seconds` the seconds a position may take; each evaluated position is answered
    at once as `PositionEvaluated`, then `Result(id, None, None)`."""
    from plyground import ai
    from plyground.ai.advice.review_evaluator import default_evaluator

    evaluate = default_evaluator(game, job.review_seconds, should_stop)
    try:
        for index, state in job.positions:
            if should_stop():
                raise ai.SearchCancelled("review cancelled")
            evaluation, lines = evaluate(state)
            results.put(PositionEvaluated(job.job_id, index, state, evaluation, tuple(lines)))
    except ai.SearchCancelled:
        results.put(Cancelled(job.job_id))
        return
    except Exception as error:  # report, never die
        results.put(Failed(job.job_id, f"{error.__class__.__name__}: {error}"))
        return
    results.put(Result(job.job_id, None, None))


def _count_minimax(job: Job, result: Any) -> int | None:
    """Minimax's node count at the same depth, if it finishes within MINIMAX_BUDGET."""
    from plyground import ai

    if result is None or getattr(result, "algorithm", "") != "alphabeta" or not result.depth:
        return None
    if result.details.exact_engine:  # a game's solver did the work: the panel compares it
        return None  # with the sampled size of minimax's tree (`report.versus_tree`) instead
    branching = max(2, len(job.state.legal_moves()))
    if branching**result.depth > 400_000:
        return None
    deadline = time.perf_counter() + MINIMAX_BUDGET
    try:
        counted = ai.search(
            job.state,
            ai.SearchConfig(algorithm="minimax", depth=result.depth, heuristic=result.heuristic),
            should_stop=lambda: time.perf_counter() > deadline,
        )
    except Exception:  # cancelled by the budget, or anything else: no count then
        return None
    return int(counted.nodes)


def _housekeeping(request: Any, results: Any) -> bool:
    """Requests that are not searches (a game ended, engines to warm up); True if it was one."""
    if isinstance(request, EndGame):
        close_players()
        return True
    if isinstance(request, WarmUpEngines):
        _warm_up_engines(request.game_names, results)
        return True
    return False


def _warm_up_engines(names: tuple[str, ...], results: Any) -> None:
    """Load or compile each game's exact engine in a background thread (jobs go on meanwhile:
    a search that needs the engine waits only for what is left); report each as ready."""
    from plyground import games

    def run() -> None:
        for name in names:
            began, problem = time.perf_counter(), ""
            try:
                hook = games.capabilities(games.get_game(name)).warm_up
                if hook is not None:
                    hook()
            except Exception as error:  # a search later says what is wrong; report it
                problem = f"{error.__class__.__name__}: {error}"
            results.put(EngineReady(name, time.perf_counter() - began, problem))

    threading.Thread(target=run, name="warm-up engines", daemon=True).start()


def _orphan_check() -> Any:
    """A cheap test (at most every PARENT_CHECK seconds) of whether the window process died."""
    parent = multiprocessing.parent_process()
    last = [time.monotonic(), False]

    def orphaned(force: bool = False) -> bool:
        now = time.monotonic()
        if parent is not None and (force or now - last[0] > PARENT_CHECK):
            last[0] = now
            last[1] = not parent.is_alive()
        return bool(last[1])

    return orphaned


def _registered_factory(game_name: str) -> Any:
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


def _game_for(job: Job, cache: dict[tuple[str, tuple[tuple[str, Any], ...]], Any]) -> Any:
    """The job's game (built once per name and options); ValueError for an unknown one."""
    from plyground import games

    if job.factory is not None and job.game_name not in games.GAMES:
        games.register(job.factory)
    key = (job.game_name, tuple(sorted(job.game_options.items())))
    if key not in cache:
        cache[key] = games.get_game(job.game_name, **job.game_options)
    return cache[key]


def _ignore_terminal_signals() -> None:
    """Ctrl+C in the terminal reaches the whole process group: the window decides.  The
    process started with it held (`terminal_signals_held`): ignored now, let it go."""
    with contextlib.suppress(ValueError, OSError):
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        unblock = getattr(signal, "pthread_sigmask", None)
        if unblock is not None:
            unblock(signal.SIG_UNBLOCK, {signal.SIGINT, getattr(signal, "SIGHUP", signal.SIGINT)})


def failure_text(error: Exception) -> str:
    """A failed job's one line: a game file's failure as it says itself (file, method,
    position), anything else with its exception's name."""
    from plyground.games.from_file import GameCodeError

    if isinstance(error, GameCodeError):
        return str(error)
    return f"{error.__class__.__name__}: {error}"


def worker_main(
    requests: Any, results: Any, cancelled_through: Any, finished_through: Any = None
) -> None:
    """The worker process: answer jobs until a None arrives (`finished_through`: the
    "move now" counter, see `AIWorker.move_now`)."""
    from plyground import ai
    from plyground.ai.student_code import heuristics
    from plyground.ai.student_code.worker import UserCodeError, allow_user_code
    from plyground.games.from_file import GameCodeError
    from plyground.games.from_file.guard import watch

    assert heuristics  # imported: it serves heuristic files to the engine here
    allow_user_code()  # a search with a heuristic from a file runs here, not in the window;
    # its evaluations go to a worker of its own (player_for_window), ended by EndGame
    _ignore_terminal_signals()
    watch()  # a game file's method that loops fails after a while: the job, not the worker
    game_cache: dict[tuple[str, tuple[tuple[str, Any], ...]], Any] = {}
    orphaned = _orphan_check()
    from plyground.ai.engine.exact_solving import warm_up_in_background

    while True:
        try:
            job = requests.get(timeout=PARENT_CHECK)
        except queue.Empty:
            if orphaned(force=True):
                close_players()
                return  # the window was killed without closing us: leave too
            continue
        if job is None:
            close_players()
            return
        if _housekeeping(job, results):
            continue
        if cancelled_through.value >= job.job_id:
            results.put(Cancelled(job.job_id))
            continue
        try:
            game = _game_for(job, game_cache)
        except (GameCodeError, ValueError) as error:  # a game this process cannot build
            results.put(Failed(job.job_id, failure_text(error)))
            continue
        last_sent = [0.0]

        def should_stop(job_id: int = job.job_id) -> bool:
            return bool(cancelled_through.value >= job_id) or orphaned()

        def progress(
            snapshot: Any, job_id: int = job.job_id, last_sent: list[float] = last_sent
        ) -> None:
            now = time.perf_counter()
            if now - last_sent[0] >= PROGRESS_INTERVAL:
                last_sent[0] = now
                results.put(Progress(job_id, snapshot))

        if job.kind == JobKind.GAME_REVIEW:
            _review_positions(job, game, results, should_stop)
            continue
        finish_now: Any = None
        if finished_through is not None and _may_finish_early(job):
            finish_now = _finish_flag(finished_through, job.job_id)
        try:
            if job.kind == JobKind.ANALYSE:
                move, result = _analyse(job, progress, should_stop, finish_now)
            else:
                move, result = _choose(job, game, progress, should_stop, finish_now)
        except ai.SearchCancelled:
            results.put(Cancelled(job.job_id))
            continue
        except UserCodeError as error:  # a player's own file failed: it forfeits the game
            results.put(Failed(job.job_id, error.line, True, tuple(error.details)))
            continue
        except Exception as error:  # report, never die: the window shows the message
            results.put(Failed(job.job_id, failure_text(error)))
            continue
        results.put(Result(job.job_id, move, result))
        warm_up_in_background(game)  # the game's compiled engine, if any, after answering
        if job.analysis and not should_stop():
            count = _count_minimax(job, result)
            if count is not None:
                results.put(MinimaxNodes(job.job_id, count))


class AIWorker:
    """The window's side of the worker: submit, cancel, poll without blocking, close."""

    def __init__(self) -> None:
        self._context = multiprocessing.get_context("spawn")
        self._process: Any = None
        self._requests: Any = None
        self._results: Any = None
        self._cancelled_through: Any = None
        self._finished_through: Any = None
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
            self._requests.put(WarmUpEngines(names))

    def preparing(self, game_name: str) -> bool:
        """Whether the worker is still loading or compiling this game's exact engine."""
        return game_name in self.warming

    def submit(
        self,
        kind: JobKind,
        game_name: str,
        game_options: dict[str, Any],
        state: State[Any],
        config: PlayerConfig | None,
        analysis: bool = False,
        player_key: Any = None,
        *,
        positions: tuple[tuple[int, State[Any]], ...] = (),
        review_seconds: float | None = None,
    ) -> int:
        """Queue a job (cancelling the running one); returns its id.  A move of a student's
        agent is asked of its own worker from a thread here (`file_agents`), not the process.
        A game review names its `positions` and the `review_seconds` each may take."""
        self.cancel()
        if kind == JobKind.MOVE and _is_agent(config):
            assert config is not None
            self._next_id += 1
            self.current_id = self._agent_job = self._next_id
            self.busy = True
            self._job = None
            self.agents.submit(self.current_id, game_name, game_options, state, config, player_key)
            return self.current_id
        self._agent_job = None
        if self._cancel_time is not None and time.perf_counter() - self._cancel_time > STUCK_AFTER:
            self._restart()
        self.start()
        self._next_id += 1
        self.current_id = self._next_id
        self.busy = True
        self._deaths = 0
        self._job = Job(
            self.current_id,
            kind,
            game_name,
            dict(game_options),
            state,
            config,
            positions,
            review_seconds,
            analysis,
            player_key,
            _registered_factory(game_name),
        )
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
                message: WorkerMessage = self._results.get_nowait()
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
            file = user_file(job.config) if job is not None and job.kind == JobKind.MOVE else None
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
        with contextlib.suppress(OSError, ValueError, queue.Full):
            self._requests.put_nowait(None)
        process.join(timeout / 2)
        if process.is_alive():
            process.terminate()
            process.join(timeout / 2)
        if process.is_alive():
            process.kill()
            process.join(0.2)
        for q in (self._requests, self._results):
            try:
                q.cancel_join_thread()
                q.close()
            except (OSError, ValueError, AttributeError):
                pass
        self._requests = self._results = None

    def close(self, timeout: float = 0.8) -> None:
        """Stop the worker; returns within about `timeout` seconds, leaving no process."""
        if self._closed:
            return
        self._closed = True
        self.busy = False
        self.agents.close()
        self._shutdown(timeout)


__all__ = [
    "FINISHED",
    "MAX_RESTARTS",
    "AIWorker",
    "Cancelled",
    "EndGame",
    "Failed",
    "Job",
    "JobKind",
    "MinimaxNodes",
    "PositionEvaluated",
    "Progress",
    "Restarted",
    "Result",
    "WorkerMessage",
    "user_file",
    "worker_main",
]
