"""The AI worker process's side: the loop that answers the window's jobs.

`worker_main` reads `Job`s and `EndGame` / `WarmUpEngines` requests from one queue and answers
on another (`gui.worker.messages`).  A `MoveRequest` asks the player its config describes
(`ai.players.players.player_for_window`, kept per `PlayerKey` so its generator and table last
the game) for its move, an `AnalysisRequest` runs the advisor's search
(`ai.advice.advisor.advise_with`), a `ReviewRequest` evaluates a game's positions one by one
(`ai.advice.review_evaluator`), answering each.  Cancelling and "move now" reach a search
through two shared counters the window sets to a job's id (`gui.worker.ai_worker`); the loop
leaves when a None arrives or the window's process has died.
"""

from __future__ import annotations

import contextlib
import queue
import signal
import threading
import time
from collections.abc import Callable
from multiprocessing import parent_process
from typing import TYPE_CHECKING, Protocol

from plyground.games.base import Game, Move
from plyground.gui.worker.messages import (
    Cancelled,
    EndGame,
    EngineReady,
    Failed,
    MinimaxNodes,
    PositionEvaluated,
    Progress,
    Result,
    WarmUpEngines,
)
from plyground.gui.worker.requests import (
    AnalysisRequest,
    GameFactory,
    Job,
    JobHeader,
    MoveRequest,
    PlayerKey,
    Position,
    ReviewRequest,
)

if TYPE_CHECKING:
    from plyground.ai.engine.result import SearchProgress, SearchResult
    from plyground.ai.players.players import PlayerConfig, SearchingPlayer

PROGRESS_INTERVAL = 0.05
"""At most this often (seconds) a progress message is sent."""
MINIMAX_BUDGET = 0.4
"""Seconds the worker may spend counting a minimax tree to show what pruning saved."""
PARENT_CHECK = 0.5
"""Seconds between checks that the window's process is still alive."""
MOVE_NOW_AFTER = 1.0
"""A fixed-depth search estimated (`ai.engine.cost`) to take longer than this many seconds deepens
iteratively, so "move now" has a finished iteration to answer with; shorter ones run as asked."""

Stop = Callable[[], bool]
"""A search's `should_stop` or `finish_now`: polled, True once it should end."""
Report = Callable[["SearchProgress"], None]
"""A search's `progress`: told how far it has got."""


class Counter(Protocol):
    """A shared integer (`multiprocessing.Value("q")`): the newest job cancelled or told to
    move now."""

    value: int


class Answers(Protocol):
    """The queue the worker answers on."""

    def put(self, obj: object) -> None: ...


_PLAYERS: dict[tuple[PlayerKey, PlayerConfig], SearchingPlayer] = {}
"""AI players by (key, config): a player keeps its generator and table between moves."""


def _may_finish_early(state: Position, config: PlayerConfig) -> bool:
    """Whether this search gets a "move now" flag: a search that deepens anyway (a time
    budget, no depth limit) or a fixed depth estimated to take longer than MOVE_NOW_AFTER."""
    from plyground.ai.engine import cost as ai_cost
    from plyground.ai.engine.search import DepthLimited
    from plyground.ai.players.players import SearchPlayer

    if not isinstance(config, SearchPlayer):
        return False  # the random player does not search, an agent moves as it will
    if config.time_limit is not None:
        return True
    search = config.search
    if not isinstance(search, DepthLimited):
        return True  # Monte Carlo tree search: its iterations can stop after any one of them
    if search.algorithm not in ai_cost.NODES_PER_SECOND or search.depth is None:
        return search.depth is None
    try:
        return ai_cost.estimate_seconds(state, search.algorithm, search.depth) > MOVE_NOW_AFTER
    except Exception:  # an estimate is a nicety: without one the search runs as asked
        return False


def _finish_flag(finished_through: Counter, job_id: int) -> Stop:
    """The search's `finish_now`: True once "move now" reached this job."""

    def finish_now() -> bool:
        return bool(finished_through.value >= job_id)

    return finish_now


def choose(
    request: MoveRequest,
    game: Game[Move],
    progress: Report | None,
    should_stop: Stop,
    finish_now: Stop | None = None,
) -> tuple[Move, SearchResult | None]:
    """The AI player's move (difficulty randomness included) and its SearchResult."""
    from plyground.ai.players import players as ai_players

    key = (request.player_key, request.config)
    player = _PLAYERS.get(key)
    if player is None:
        if len(_PLAYERS) > 8:
            close_players()
        player = _PLAYERS[key] = ai_players.player_for_window(request.config, game)
    move = player.choose(
        request.header.state,
        all_values=request.analysis,
        progress=progress,
        should_stop=should_stop,
        finish_now=finish_now,
    )
    return move, player.last_result


def close_players() -> None:
    """Forget the kept players, ending the workers of those with a heuristic file."""
    players = list(_PLAYERS.values())
    _PLAYERS.clear()
    for player in players:
        close = getattr(player, "close", None)  # a file's worker, a search's helpers
        if close is not None:
            with contextlib.suppress(Exception):
                close()


def analyse(
    request: AnalysisRequest,
    progress: Report | None,
    should_stop: Stop,
    finish_now: Stop | None = None,
) -> tuple[Move, SearchResult]:
    """A full analysis (every root move's value) with the config's search settings: the
    advisor's search (`ai.advice.advisor.advise_with`, as `plyground hint` runs it)."""
    from plyground.ai.advice.advisor import advise_with

    result = advise_with(
        request.header.state,
        request.config,
        progress=progress,
        should_stop=should_stop,
        finish_now=finish_now,
    )
    return result.move, result


def review_positions(
    job_id: int, request: ReviewRequest, game: Game[Move], results: Answers, should_stop: Stop
) -> None:
    """A game review: each of `request.positions` evaluated in `request.seconds` and answered
    at once as `PositionEvaluated`, then `Result(id, None, None)`."""
    from plyground import ai
    from plyground.ai.advice.review_evaluator import default_evaluator

    evaluate = default_evaluator(game, request.seconds, should_stop)
    try:
        for index, state in request.positions:
            if should_stop():
                raise ai.SearchCancelled("review cancelled")
            evaluation, lines = evaluate(state)
            results.put(PositionEvaluated(job_id, index, state, evaluation, tuple(lines)))
    except ai.SearchCancelled:
        results.put(Cancelled(job_id))
        return
    except Exception as error:  # report, never die
        results.put(Failed(job_id, f"{error.__class__.__name__}: {error}"))
        return
    results.put(Result(job_id, None, None))


def _count_minimax(state: Position, result: SearchResult | None) -> int | None:
    """Minimax's node count at the same depth, if it finishes within MINIMAX_BUDGET."""
    from plyground import ai

    if result is None or result.algorithm != "alphabeta" or not result.depth:
        return None
    if result.details.exact_engine:  # a game's solver did the work: the panel compares it
        return None  # with the sampled size of minimax's tree (`report.versus_tree`) instead
    branching = max(2, len(state.legal_moves()))
    if branching**result.depth > 400_000:
        return None
    deadline = time.perf_counter() + MINIMAX_BUDGET
    try:
        counted = ai.search(
            state,
            ai.SearchConfig(ai.DepthLimited("minimax", result.depth, result.heuristic)),
            should_stop=lambda: time.perf_counter() > deadline,
        )
    except Exception:  # cancelled by the budget, or anything else: no count then
        return None
    return int(counted.nodes)


def _housekeeping(request: object, results: Answers) -> bool:
    """Requests that are not searches (a game ended, engines to warm up); True if it was one."""
    if isinstance(request, EndGame):
        close_players()
        return True
    if isinstance(request, WarmUpEngines):
        _warm_up_engines(request.game_names, results)
        return True
    return False


def _warm_up_engines(names: tuple[str, ...], results: Answers) -> None:
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


def _orphan_check() -> Callable[[bool], bool]:
    """A cheap test (at most every PARENT_CHECK seconds) of whether the window process died."""
    parent = parent_process()
    last_check, last_answer = [time.monotonic()], [False]

    def orphaned(force: bool = False) -> bool:
        now = time.monotonic()
        if parent is not None and (force or now - last_check[0] > PARENT_CHECK):
            last_check[0] = now
            last_answer[0] = not parent.is_alive()
        return last_answer[0]

    return orphaned


GameKey = tuple[str, tuple[tuple[str, int], ...]]
"""A game built in the worker: its name and options."""


def _game_for(
    header: JobHeader, factory: GameFactory | None, cache: dict[GameKey, Game[Move]]
) -> Game[Move]:
    """The job's game (built once per name and options); ValueError for an unknown one."""
    from plyground import games

    if factory is not None and header.game_name not in games.GAMES:
        games.register(factory)
    key = (header.game_name, tuple(sorted(header.game_options.items())))
    if key not in cache:
        cache[key] = games.get_game(header.game_name, **header.game_options)
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


class _Requests(Protocol):
    def get(self, block: bool = True, timeout: float | None = None) -> object: ...


def worker_main(
    requests: _Requests,
    results: Answers,
    cancelled_through: Counter,
    finished_through: Counter | None = None,
) -> None:
    """The worker process: answer jobs until a None arrives (`finished_through`: the
    "move now" counter, see `AIWorker.move_now`)."""
    from plyground.ai.student_code import heuristics
    from plyground.ai.student_code.worker import allow_user_code
    from plyground.games.from_file import GameCodeError
    from plyground.games.from_file.guard import watch

    assert heuristics  # imported: it serves heuristic files to the engine here
    allow_user_code()  # a search with a heuristic from a file runs here, not in the window;
    # its evaluations go to a worker of its own (player_for_window), ended by EndGame
    _ignore_terminal_signals()
    watch()  # a game file's method that loops fails after a while: the job, not the worker
    game_cache: dict[GameKey, Game[Move]] = {}
    orphaned = _orphan_check()

    while True:
        try:
            job = requests.get(timeout=PARENT_CHECK)
        except queue.Empty:
            if orphaned(True):
                close_players()
                return  # the window was killed without closing us: leave too
            continue
        if job is None:
            close_players()
            return
        if _housekeeping(job, results):
            continue
        assert isinstance(job, Job)
        if cancelled_through.value >= job.job_id:
            results.put(Cancelled(job.job_id))
            continue
        request = job.request
        try:
            game = _game_for(request.header, job.factory, game_cache)
        except (GameCodeError, ValueError) as error:  # a game this process cannot build
            results.put(Failed(job.job_id, failure_text(error)))
            continue

        def should_stop(job_id: int = job.job_id) -> bool:
            return bool(cancelled_through.value >= job_id) or orphaned(False)

        if isinstance(request, ReviewRequest):
            review_positions(job.job_id, request, game, results, should_stop)
            continue
        _search(job.job_id, request, game, results, should_stop, finished_through)


def _search(
    job_id: int,
    request: MoveRequest | AnalysisRequest,
    game: Game[Move],
    results: Answers,
    should_stop: Stop,
    finished_through: Counter | None,
) -> None:
    """Answer a move or an analysis: its progress, its result (or why it has none), then the
    size of minimax's tree where the analysis is shown and it is cheap to count."""
    from plyground import ai
    from plyground.ai.engine.exact_solving import warm_up_in_background
    from plyground.ai.student_code.worker import UserCodeError

    last_sent = [0.0]

    def progress(snapshot: SearchProgress) -> None:
        now = time.perf_counter()
        if now - last_sent[0] >= PROGRESS_INTERVAL:
            last_sent[0] = now
            results.put(Progress(job_id, snapshot))

    finish_now: Stop | None = None
    if finished_through is not None and _may_finish_early(request.header.state, request.config):
        finish_now = _finish_flag(finished_through, job_id)
    result: SearchResult | None
    try:
        if isinstance(request, AnalysisRequest):
            move, result = analyse(request, progress, should_stop, finish_now)
        else:
            move, result = choose(request, game, progress, should_stop, finish_now)
    except ai.SearchCancelled:
        results.put(Cancelled(job_id))
        return
    except UserCodeError as error:  # a player's own file failed: it forfeits the game
        results.put(Failed(job_id, error.line, True, tuple(error.details)))
        return
    except Exception as error:  # report, never die: the window shows the message
        results.put(Failed(job_id, failure_text(error)))
        return
    results.put(Result(job_id, move, result))
    warm_up_in_background(game)  # the game's compiled engine, if any, after answering
    if request.analysis and not should_stop():
        count = _count_minimax(request.header.state, result)
        if count is not None:
            results.put(MinimaxNodes(job_id, count))
