"""The window against students' files and dying workers: a dead worker forfeits the side that
plays with a file (naming it), an AI that could not move offers Retry, file workers end with
their game, and leaving a view never waits for a search that does not return.  Each hostile
case runs twice."""

from __future__ import annotations

import contextlib
import os
import signal
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pygame
import pytest
from driving import pump, wait_until
from test_play_controller import make, run

from plyground.gui.play import status_line

LOOPS = "def evaluate(state):\n    while True:\n        pass\n"


def poll_until(worker: Any, wanted: Callable[[Any], bool], seconds: float) -> Any:
    """Poll `worker` until a message satisfies `wanted` (None when the deadline passes)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for message in worker.poll():
            if wanted(message):
                return message
        time.sleep(0.01)
    return None


def test_retry_after_the_ai_could_not_move_searches_again():
    controller, worker, clock = make("tictactoe", ("human", "Easy"))
    assert controller.try_human_move(4)
    for attempt in (1, 2):  # the hostile case the second time too
        controller.update()
        assert controller.jobs.job is not None and len(worker.jobs) == attempt
        controller.set_notice("The AI process stopped; a new one is thinking again", 3.0)
        worker.send("error", "the AI process stopped unexpectedly")
        run(controller, clock, 0.1)
        assert controller.jobs.job is None and len(worker.jobs) == attempt, "no search on its own"
        text = status_line.status_text(controller, None)
        assert "could not move: the AI process stopped" in text and "R retries" in text
        controller.retry()
        assert controller.jobs.ai_failed_here() is None
    controller.update()
    assert controller.jobs.job is not None and len(worker.jobs) == 3
    worker.finish()
    run(controller, clock, 2.0)
    assert controller.state.ply == 2, "the retried search moved"


def test_r_is_retry_only_where_the_ai_could_not_move():
    from plyground.gui.play.keyboard import Action, Situation, key_press

    failed = Situation(
        ai_vs_ai=False, paused=False, human_turn=False, browsing=False, ai_failed=True
    )
    pressed = key_press(pygame.K_r, 0, failed)
    assert pressed is not None and pressed.action == Action.RETRY
    fine = Situation(ai_vs_ai=False, paused=False, human_turn=True, browsing=False)
    assert key_press(pygame.K_r, 0, fine) is None  # a kit's key then (Pig's roll)


def test_a_killed_ai_worker_forfeits_the_side_with_a_heuristic_file(tmp_path: Path):
    from plyground.ai.engine.search import DepthLimited
    from plyground.ai.players.players import SearchPlayer
    from plyground.gui.worker.ai_worker import MAX_RESTARTS, AIWorker
    from plyground.gui.worker.messages import Failed, Restarted
    from plyground.gui.worker.requests import JobHeader, MoveRequest, PlayerKey

    path = tmp_path / "slow_eval.py"
    path.write_text(LOOPS)
    config = SearchPlayer(DepthLimited("alphabeta", 2, str(path)))
    worker = AIWorker()
    try:
        for _ in range(2):  # the hostile case the second time too
            job = worker.submit(
                MoveRequest(JobHeader("tictactoe", {}, _opening()), config, PlayerKey(0, 1, 0))
            )
            failed = None
            for _death in range(MAX_RESTARTS + 1):
                process = worker._process
                assert process is not None and process.is_alive()
                os.kill(process.pid, signal.SIGKILL)
                message = poll_until(worker, lambda m: isinstance(m, Restarted | Failed), 20)
                assert message is not None and message.job_id == job
                if isinstance(message, Failed):
                    failed = message
                    break
            assert failed is not None, "four deaths in a row end the job"
            assert failed.forfeit
            assert failed.reason.startswith("slow_eval.py: the AI process running it stopped")
    finally:
        worker.close()
    assert not worker.alive


def _opening() -> Any:
    from plyground import games

    return games.get_game("tictactoe").initial_state().play(4)


def test_a_killed_ai_worker_with_our_own_search_is_no_forfeit():
    from plyground.ai.engine.search import DepthLimited
    from plyground.ai.players.players import AgentPlayer, SearchPlayer
    from plyground.gui.worker.requests import user_file

    assert user_file(SearchPlayer(DepthLimited("alphabeta", 2))) is None
    assert user_file(AgentPlayer("kaggle:/x/k.py")) == "/x/k.py"
    assert user_file(SearchPlayer(DepthLimited("alphabeta", 4, "e.py"))) == "e.py"
    assert user_file(None) is None


MARK = "PLYGROUND_WINDOW_RUN"
"""The environment variable every process of a test inherits (to find its student workers)."""


@pytest.fixture
def run_mark(monkeypatch: pytest.MonkeyPatch) -> str:
    """A fresh marker in the environment the workers inherit (Linux: found through /proc)."""
    if not Path("/proc").is_dir():
        pytest.skip("finding a test's processes needs /proc (Linux)")
    mark = uuid.uuid4().hex
    monkeypatch.setenv(MARK, mark)
    return mark


def student_workers(mark: str, chain: bool = False) -> list[int]:
    """Live student workers (the Python process running the student's file, not a bubblewrap
    around it) started with `mark` in their environment; with `chain`, every process that
    runs one (its supervisor and bubblewrap too: a worker still starting is only those)."""
    from plyground.ai.student_code.sandbox import CHILD_MODULE

    needle, module, found = f"{MARK}={mark}".encode(), CHILD_MODULE.encode(), []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if needle not in (entry / "environ").read_bytes():
                continue
            argv = (entry / "cmdline").read_bytes().split(b"\0")
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        python = Path(argv[0].decode(errors="replace")).name.startswith("python")
        worker = python and module in argv
        if state != "Z" and (worker or (chain and any(module in arg for arg in argv))):
            found.append(int(entry.name))
    return found


WORKERS_END = 15.0
"""Seconds the students' workers of a game that was left may take to be gone: they are
killed at once, but on a loaded 2-core machine a worker still starting (a new Python, its
sandbox) can take seconds to appear and go.  Polled: a pass costs only the real time."""


QUIET = 0.5
"""Seconds without a student's process that count as gone: a thread that starts one late
(a run given up as it started) shows within them."""


def gone_within(mark: str, seconds: float) -> bool:
    """Whether every process of the run's student workers (a worker still starting: its
    supervisor or bubblewrap) has ended, and none started since for `QUIET` seconds, within
    `seconds`; what is left is printed."""
    deadline, quiet_since = time.monotonic() + seconds, None
    while (now := time.monotonic()) < deadline:
        if student_workers(mark, chain=True):
            quiet_since = None
        elif quiet_since is None:
            quiet_since = now
        elif now - quiet_since >= QUIET:
            return True
        time.sleep(0.05)
    left = student_workers(mark, chain=True)
    for pid in left:  # what a failure needs to be understood (pytest shows it)
        with contextlib.suppress(OSError):
            line = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")
            print(pid, "under", ancestors(pid)[:4], line[:160], _thread_states(pid))
    return not left


def _thread_states(pid: int) -> list[str]:
    """Each thread of `pid`: its name and state."""
    found = []
    for task in sorted(Path(f"/proc/{pid}/task").glob("*")):
        with contextlib.suppress(OSError):
            stat = (task / "stat").read_text()
            found.append(stat[stat.index("(") : stat.rindex(")") + 3])
    return found


def open_with_looping_heuristic(app: Any, view: str, path: Path, mark: str) -> Any:
    """The compare view or the explorer on a connect-four position, searching with `path`'s
    endless `evaluate`, once the student's worker runs it."""
    from plyground import games
    from plyground.gui.compare.scene import CompareScene
    from plyground.gui.explorer.scene import ExplorerScene

    game = games.get_game("connect4")
    state = game.replay(game.parse_moves("4444443333331"))
    if view == "compare":
        scene: Any = CompareScene(app, game, state, depth=2, heuristic=str(path))
    else:
        scene = ExplorerScene(app, state, algorithm="alphabeta", depth=2, heuristic=str(path))
    app.push(scene)
    assert wait_until(app, lambda: bool(student_workers(mark)), 30), "the file is evaluating"
    pump(app, 3)
    return scene


@pytest.mark.parametrize("view", ["compare", "explorer"])
def test_leaving_a_view_never_waits_for_an_endless_evaluate(
    make_app: Callable[..., Any], tmp_path: Path, run_mark: str, view: str
) -> None:
    path = tmp_path / "endless_eval.py"
    path.write_text(LOOPS)
    app = make_app()
    pump(app, 2)
    for _ in range(2):  # the hostile case the second time too
        open_with_looping_heuristic(app, view, path, run_mark)
        started = time.monotonic()
        app.pop()
        took = time.monotonic() - started
        assert took < 2.0, f"leaving {view} took {took:.1f} s"
        assert gone_within(run_mark, WORKERS_END), "the student's worker ended with the view"
        pump(app, 2)


@pytest.mark.slow
def test_quitting_never_waits_for_the_ai_workers_endless_evaluate(
    tmp_path: Path, run_mark: str
) -> None:
    from plyground.ai.engine.search import DepthLimited
    from plyground.ai.players.players import SearchPlayer
    from plyground.gui.worker.ai_worker import AIWorker
    from plyground.gui.worker.requests import JobHeader, MoveRequest, PlayerKey

    path = tmp_path / "endless_eval.py"
    path.write_text(LOOPS)
    config = SearchPlayer(DepthLimited("alphabeta", 2, str(path)))
    for _ in range(2):  # the hostile case the second time too
        worker = AIWorker()
        worker.submit(
            MoveRequest(JobHeader("tictactoe", {}, _opening()), config, PlayerKey(0, 1, 0))
        )
        deadline = time.monotonic() + 30
        while not student_workers(run_mark) and time.monotonic() < deadline:
            worker.poll()
            time.sleep(0.02)
        assert student_workers(run_mark), "the file is evaluating"
        started = time.monotonic()
        worker.close()
        took = time.monotonic() - started
        assert took < 2.0, f"closing the AI worker took {took:.1f} s"
        assert not worker.alive and gone_within(run_mark, WORKERS_END)


def ancestors(pid: int) -> list[int]:
    """The process ids above `pid` (Linux /proc), nearest first."""
    found = []
    while pid > 1:
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            break
        pid = int(stat.rsplit(")", 1)[1].split()[1])
        found.append(pid)
    return found


def start_file_game(app: Any, game: str, agents: tuple[str, str]) -> Any:
    """From the menu, a game between two files (fastest speed); returns the play scene."""
    from driving import click
    from test_own_code_in_the_window import set_up_from_files

    setup = set_up_from_files(app, game, agents)
    app.settings.speed = 0.0
    click(app, next(w for w, (a, _) in setup.form.ids.items() if a == "start").rect.center)
    play = app.scene
    assert type(play).__name__ == "PlayScene"
    return play


@pytest.mark.slow
def test_file_agents_move_beside_the_window_and_end_with_each_game(
    make_app: Callable[..., Any], tmp_path: Path, run_mark: str
) -> None:
    from test_own_code_in_the_window import FIRST_LEGAL

    first, second = tmp_path / "first.py", tmp_path / "second.py"
    first.write_text(FIRST_LEGAL)
    second.write_text("def choose(state):\n    return state.legal_moves()[-1]\n")
    app = make_app()
    play = start_file_game(app, "tictactoe", (str(first), str(second)))
    controller, most, seen = play.controller, 0, set()
    ai_process = app.worker._process.pid if app.worker.alive else None

    def three_games_played() -> bool:
        nonlocal most
        workers = student_workers(run_mark)
        most = max(most, len(workers))
        for pid in set(workers) - seen:
            seen.add(pid)
            above = ancestors(pid)
            if not above:
                continue  # it ended as it was found
            assert os.getpid() in above, "an agent's worker is started by the window's process"
            assert ai_process is None or ai_process not in above, "not under the AI worker"
        return len(controller.series) >= 3

    assert wait_until(app, three_games_played, 90)
    assert not controller.jobs.forfeited
    assert 1 <= most <= 2, f"{most} student workers at once: at most the two in play"
    assert len(seen) >= 4, "each game starts its own workers"
    app.pop_to_root()  # back to the menu: the game's workers end
    assert gone_within(run_mark, WORKERS_END)


def test_new_game_and_leaving_end_an_endless_agents_worker(
    make_app: Callable[..., Any], tmp_path: Path, run_mark: str
) -> None:
    from test_own_code_in_the_window import FIRST_LEGAL

    first, endless = tmp_path / "first.py", tmp_path / "endless.py"
    first.write_text(FIRST_LEGAL)
    endless.write_text("def choose(state):\n    while True:\n        pass\n")
    app = make_app()
    play = start_file_game(app, "tictactoe", (str(endless), str(first)))
    for _ in range(2):  # the hostile case the second time too
        assert wait_until(app, lambda: bool(student_workers(run_mark)), 30)
        before = set(student_workers(run_mark))
        started = time.monotonic()
        play.controller.new_game()
        pump(app)
        assert time.monotonic() - started < 1.0, "a new game never waits for the agent"
        deadline = time.monotonic() + 5
        while before & set(student_workers(run_mark)) and time.monotonic() < deadline:
            pump(app)
        assert not before & set(student_workers(run_mark)), "the old game's worker ended"
        assert len(student_workers(run_mark)) <= 2
    app.pop_to_root()
    assert gone_within(run_mark, WORKERS_END)


@pytest.mark.slow
def test_end_game_ends_a_heuristic_files_worker_in_the_ai_worker(
    tmp_path: Path, run_mark: str
) -> None:
    from plyground.ai.engine.search import DepthLimited
    from plyground.ai.players.players import SearchPlayer
    from plyground.gui.worker.ai_worker import AIWorker
    from plyground.gui.worker.messages import Result
    from plyground.gui.worker.requests import JobHeader, MoveRequest, PlayerKey

    path = tmp_path / "flat_eval.py"
    path.write_text("def evaluate(state):\n    return 0.0\n")
    config = SearchPlayer(DepthLimited("alphabeta", 2, str(path)))
    worker = AIWorker()
    try:
        for game in range(2):  # two games: none of the first one's workers is kept
            job = worker.submit(
                MoveRequest(JobHeader("tictactoe", {}, _opening()), config, PlayerKey(0, game, 0))
            )
            answer = poll_until(
                worker, lambda m, j=job: m.job_id == j and isinstance(m, Result), 60
            )
            assert answer is not None and answer.move in _opening().legal_moves()
            assert len(student_workers(run_mark)) == 1, "the side's worker, kept for its game"
            worker.end_game()
            assert gone_within(run_mark, WORKERS_END), "ended with its game"
    finally:
        worker.close()


def test_the_spinner_turns_whenever_the_ai_works():
    controller, worker, clock = make("tictactoe", ("human", "Easy"))
    controller.settings.show_analysis = True
    controller.update()
    assert controller.jobs.job is not None and controller.jobs.job.kind == "position"
    assert status_line.ai_working(controller), "the board's values are being worked out"
    worker.finish()
    controller.update()
    assert controller.jobs.job is None and not status_line.ai_working(controller)
    assert controller.try_human_move(4)
    controller.update()
    assert controller.jobs.job is not None and controller.jobs.job.kind == "move"
    assert status_line.ai_working(controller)
    worker.finish()
    controller.update()
    assert controller.jobs.job is None and controller.jobs.pending is not None
    assert status_line.ai_working(controller), "its move waits for its moment: still working"
    run(controller, clock, 2.0)
    assert controller.state.ply == 2 and controller.jobs.pending is None


def test_move_now_is_not_offered_for_a_students_agent():
    from plyground.gui.play import controls
    from plyground.gui.storage.settings import FROM_FILE

    controller, _, _ = make("tictactoe", ("human", "Easy"))
    side = controller.sides[1]
    side.preset, side.agent = FROM_FILE, "first.py"
    assert controller.try_human_move(4)
    controller.update()
    assert controller.jobs.job is not None and controller.jobs.job.agent
    assert controls.tool_refusal(controller, "move_now")
    assert controller.jobs.move_now() is False
    assert "file's agent" in (controller.current_notice() or "")


@pytest.mark.slow
def test_an_agent_that_kills_its_worker_forfeits_each_game_naming_its_file(
    make_app: Callable[..., Any], tmp_path: Path, run_mark: str
) -> None:
    from test_own_code_in_the_window import FIRST_LEGAL

    first, killer = tmp_path / "first.py", tmp_path / "killer.py"
    first.write_text(FIRST_LEGAL)
    killer.write_text(
        "import os, signal\n\ndef choose(state):\n    os.kill(os.getpid(), signal.SIGKILL)\n"
    )
    app = make_app()
    play = start_file_game(app, "tictactoe", (str(first), str(killer)))
    controller = play.controller
    for game in range(2):  # the hostile case the second time too
        assert wait_until(app, lambda: bool(controller.jobs.forfeited), 30)
        assert "forfeits: killer.py: its process was killed" in controller.jobs.forfeited
        assert controller.recorded and len(controller.series) == game + 1
        assert gone_within(run_mark, WORKERS_END), "both sides' workers ended with the game"
        controller.new_game()
    app.pop_to_root()


@pytest.mark.slow
def test_cancel_in_compare_abandons_an_endless_evaluate(
    make_app: Callable[..., Any], tmp_path: Path, run_mark: str
) -> None:
    path = tmp_path / "endless_eval.py"
    path.write_text(LOOPS)
    app = make_app()
    pump(app, 2)
    scene = open_with_looping_heuristic(app, "compare", path, run_mark)
    for _ in range(2):  # the hostile case the second time too
        scene.cancel()
        assert wait_until(app, lambda: not scene.running, 5.0), "the cancelled run is given up"
        assert scene.message == "Cancelled." and gone_within(run_mark, WORKERS_END)
        scene.start()  # runs again on a new process: the file loops again
        assert wait_until(app, lambda: bool(student_workers(run_mark)), 30)
    app.pop()
    assert gone_within(run_mark, WORKERS_END)
