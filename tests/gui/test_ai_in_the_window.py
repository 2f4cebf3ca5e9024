"""The AI in its worker process, seen from the window: moves, hints, analysis, AI vs AI,
mid-game changes, cancelling and quitting mid-search."""

from __future__ import annotations

import multiprocessing
import os
import sys
import time
from dataclasses import replace

import pygame
import pytest
from driving import choose_option, click_button, press, pump, start_game, wait_until

from plyground.games.search_settings import DepthLimited
from plyground.gui.storage.settings import AI, CUSTOM

SLOW = {"search": DepthLimited("alphabeta", 12, "windows"), "time_limit": None}


def make_slow(side) -> None:
    """A connect-four AI that would think for a long time (to be cancelled)."""
    side.kind = AI
    side.preset = CUSTOM
    side.custom = replace(side.custom, **SLOW)


@pytest.mark.slow
def test_human_vs_ai_connect4(make_app):
    app = make_app()
    play = start_game(app, "connect4", ("human", "Easy"))
    press(app, pygame.K_4, "4")
    assert play.controller.history.state.ply == 1
    press(app, pygame.K_3, "3")  # the AI's turn: ignored with a gentle notice
    assert play.controller.history.state.ply == 1 and play.controller.notice is not None
    assert wait_until(app, lambda: play.controller.history.state.ply == 2, 15)
    assert (
        play.controller.jobs.analysis is not None and play.controller.jobs.analysis.source == "ai"
    )
    # Easy plays with some randomness: the panel shows the move played and the search's best.
    assert play.controller.jobs.analysis.played == play.controller.history.moves[-1]
    assert set(play.controller.jobs.analysis.result.move_values) <= set(range(7))


@pytest.mark.slow
def test_hint_marks_a_move(make_app):
    app = make_app()
    play = start_game(app, "tictactoe", ("human", "Medium"))
    click_button(app, play.buttons["hint"])
    assert wait_until(app, lambda: play.controller.hint is not None, 15)
    assert play.controller.hint in play.controller.history.state.legal_moves()
    assert play.controller.jobs.analysis.source == "hint"
    press(app, pygame.K_a, "a", frames=3)  # analysis shown: values drawn on the board
    ctx = play.context()
    assert ctx.values and ctx.hint == play.controller.hint


@pytest.mark.slow
def test_ai_vs_ai_plays_to_the_end_and_keeps_score(make_app):
    app = make_app()
    play = start_game(app, "tictactoe", ("Medium", "Hard"), speed=0.0)
    assert wait_until(app, lambda: play.controller.recorded, 30)
    assert play.controller.history.state.is_terminal() and sum(play.controller.score) == 1
    press(app, pygame.K_SPACE, " ")
    assert play.controller.paused
    press(app, pygame.K_n, "n")
    press(app, pygame.K_RETURN, "\r", frames=3)  # a game in progress: confirm
    assert play.controller.history.moves == []
    press(app, pygame.K_s, "s")
    assert wait_until(app, lambda: play.controller.history.state.ply == 1, 15)
    pump(app, 30)
    assert play.controller.history.state.ply == 1, "paused: one step plays one move"
    click_button(app, play.buttons["pause"])
    assert not play.controller.paused


@pytest.mark.slow
def test_same_seed_replays_the_same_pig_match(make_app):
    records = []
    for _ in range(2):
        app = make_app()
        app.settings.set_option("pig", "goal", 20)
        app.settings.seed = 7
        play = start_game(app, "pig", ("Easy", "Medium"), speed=0.0)
        assert wait_until(app, lambda play=play: play.controller.recorded, 40)
        records.append(play.controller.game.format_moves(play.controller.history.moves))
        app.quit(save=False)
    assert records[0] == records[1]


@pytest.mark.slow
def test_difficulty_change_mid_game_applies_to_the_next_move(make_app):
    app = make_app()
    submitted = []
    original = app.worker.submit

    def spy(request):
        submitted.append(request.config)
        return original(request)

    app.worker.submit = spy
    play = start_game(app, "connect4", ("human", "Easy"))
    press(app, pygame.K_4, "4")
    assert wait_until(app, lambda: play.controller.history.state.ply == 2, 15)
    from plyground import ai

    assert submitted[-1].search == ai.DIFFICULTIES["connect4"]["Easy"].search
    choose_option(app, play.role_menus[1], "AI · Hard")
    assert play.controller.sides[1].preset == "Hard"
    press(app, pygame.K_4, "4")
    assert wait_until(app, lambda: play.controller.history.state.ply == 4, 30)
    from plyground import ai

    assert submitted[-1].search == ai.DIFFICULTIES["connect4"]["Hard"].search


@pytest.mark.slow
def test_undo_new_game_and_back_cancel_the_search_at_once(make_app):
    app = make_app()
    play = start_game(app, "connect4", ("human", "human"))
    make_slow(play.controller.sides[0])
    play.rebuild()
    assert wait_until(app, lambda: play.controller.jobs.progress is not None, 15), (
        "the slow search should report progress"
    )
    first = play.controller.jobs.job.job_id
    press(app, pygame.K_n, "n")  # new game: cancel, then the AI starts again
    press(app, pygame.K_RETURN, "\r", frames=3)  # a game in progress: confirm
    assert play.controller.jobs.job is None or play.controller.jobs.job.job_id != first
    # The new search can only report progress once the old one has stopped.
    assert wait_until(
        app,
        lambda: (
            play.controller.jobs.progress is not None and play.controller.jobs.job.job_id != first
        ),
        3,
    )
    press(app, pygame.K_ESCAPE)  # back: cancelled too
    assert not app.worker.busy
    started = time.perf_counter()
    from plyground import games

    state = games.get_game("tictactoe").initial_state()
    from plyground.ai import get_preset
    from plyground.gui.worker.requests import AnalysisRequest, JobHeader

    header = JobHeader("tictactoe", {}, state)
    app.worker.submit(AnalysisRequest(header, get_preset("tictactoe", "Easy")))
    answers = []
    while time.perf_counter() - started < 3 and not any(m.kind == "result" for m in answers):
        answers += app.worker.poll()
        time.sleep(0.01)
    assert any(m.kind == "result" for m in answers), "the worker should be free at once"


@pytest.mark.slow
def test_quit_mid_search_leaves_no_process(make_app):
    app = make_app()
    play = start_game(app, "connect4", ("human", "human"))
    make_slow(play.controller.sides[0])
    assert wait_until(app, lambda: play.controller.jobs.progress is not None, 15)
    assert multiprocessing.active_children()
    started = time.perf_counter()
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    pump(app)
    assert not app.running
    assert time.perf_counter() - started < 1.0
    assert multiprocessing.active_children() == []


@pytest.mark.slow
def test_ai_settings_can_be_edited_during_a_game(make_app):
    app = make_app()
    play = start_game(app, "connect4", ("human", "Easy"))
    press(app, pygame.K_4, "4")
    assert wait_until(app, lambda: play.controller.history.state.ply == 2, 15)
    choose_option(app, play.role_menus[1], "AI · Custom…")
    editor = app.scene
    assert type(editor).__name__ == "SetupScene" and editor.editing
    assert editor.sides[1].preset == CUSTOM
    algorithm = next(w for w, (action, _) in editor.form.ids.items() if action == "algorithm")
    choose_option(app, algorithm, "Minimax")
    apply = next(w for w, (action, _) in editor.form.ids.items() if action == "start")
    click_button(app, apply)
    assert app.scene is play and play.controller.history.state.ply == 2, "the game goes on"
    assert (
        play.controller.sides[1].preset == CUSTOM
        and play.controller.sides[1].custom.algorithm == "minimax"
    )
    press(app, pygame.K_3, "3")
    assert wait_until(app, lambda: play.controller.history.state.ply == 4, 15)
    assert play.controller.jobs.analysis.result.algorithm == "minimax"


def test_swap_sides_hands_the_move_to_the_ai(make_app):
    app = make_app()
    play = start_game(app, "tictactoe", ("human", "Medium"))
    click_button(app, play.buttons["swap"])
    assert [s.kind for s in play.controller.sides] == ["ai", "human"]
    assert wait_until(app, lambda: play.controller.history.state.ply == 1, 15), (
        "X is now the AI and moves"
    )


@pytest.mark.slow
def test_undo_against_the_ai_goes_back_to_the_humans_turn(make_app):
    app = make_app()
    play = start_game(app, "connect4", ("human", "Easy"))
    press(app, pygame.K_4, "4")
    assert wait_until(app, lambda: play.controller.history.state.ply == 2, 15)
    press(app, pygame.K_u, "u")
    assert play.controller.history.moves == [] and play.controller.history.state.to_move == 0
    press(app, pygame.K_y, "\x19", mod=pygame.KMOD_CTRL)
    assert len(play.controller.history.moves) == 2


@pytest.mark.slow
def test_analysis_measures_what_pruning_saved(make_app):
    """The AI's own search (Hard, depth 4) is measured against minimax and stays visible as
    its view beside the human's advice (which solves, so has no minimax count)."""
    app = make_app()
    play = start_game(app, "tictactoe", ("human", "Hard"))
    press(app, pygame.K_a, "a")
    assert app.settings.show_analysis
    controller = play.controller
    assert controller.try_human_move(4)

    def ai_view():
        shown = controller.jobs.analysis
        if shown is None:
            return None
        return shown if shown.source == "ai" else shown.opponent

    assert wait_until(app, lambda: ai_view() is not None and ai_view().minimax_nodes, 15)
    record = ai_view()
    assert record.result.algorithm == "alphabeta"
    assert record.minimax_nodes >= record.result.nodes
    from plyground.gui.play.analysis_panel import summary_lines

    labels = [label for label, _ in summary_lines(record, controller.game)]
    assert "vs minimax" in labels and "Pruning" in labels


def test_the_worker_prepares_each_games_engine_while_the_menu_is_open() -> None:
    """The window asks its worker to load (or compile) connect-four's solver at launch; the
    worker says when it is ready, and meanwhile `preparing` tells the status line."""
    from plyground.gui.app import engine_games
    from plyground.gui.worker.ai_worker import AIWorker

    assert "connect4" in engine_games() and "tictactoe" not in engine_games()
    worker = AIWorker()
    try:
        worker.warm_up_engines(engine_games())
        assert worker.preparing("connect4") and not worker.preparing("tictactoe")
        deadline = time.monotonic() + 120
        while worker.preparing("connect4") and time.monotonic() < deadline:
            worker.poll()
            time.sleep(0.05)
        ready = worker.engines["connect4"]
        assert not worker.preparing("connect4") and ready.problem == ""
        worker.warm_up_engines(engine_games())  # once is enough
        assert not worker.preparing("connect4")
    finally:
        worker.close()


def test_closing_a_worker_queue_releases_its_semaphores_before_returning() -> None:
    """Otherwise the queue's feeder thread may unlink them while the window's process exits,
    and the terminal shows a "leaked semaphore" warning (seen once in CI)."""
    import subprocess
    import sys

    script = (
        "import multiprocessing, threading\n"
        "from multiprocessing import synchronize\n"
        "from plyground.gui.worker.ai_worker import let_go_of\n"
        "where = []\n"
        "real = synchronize.SemLock._cleanup\n"
        "def spy(name):\n"
        "    where.append(threading.current_thread().name)\n"
        "    real(name)\n"
        "synchronize.SemLock._cleanup = staticmethod(spy)\n"
        "if __name__ == '__main__':\n"
        "    for _ in range(20):\n"
        "        q = multiprocessing.get_context('spawn').Queue()\n"
        "        q.put(None)\n"
        "        let_go_of(q, 1.0)\n"
        "        q = None\n"
        "    print(len(where), sorted(set(where)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout == "60 ['MainThread']\n"
    assert done.stderr == ""


def _root_helpers() -> list[int]:
    """Process ids of running root-parallel helpers (Linux: read from /proc)."""
    from pathlib import Path

    found = []
    for entry in Path("/proc").iterdir():
        try:
            command = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if b"plyground.ai.players.root_helper" in command:
            found.append(int(entry.name))
    return found


@pytest.mark.slow
@pytest.mark.skipif(
    not sys.platform.startswith("linux") or (os.cpu_count() or 1) < 2,
    reason="reads /proc; one core starts no helper",
)
def test_a_blind_games_expert_searches_on_two_processes_and_quitting_ends_them(make_app):
    """The window's worker is a daemonic process, which multiprocessing forbids children:
    Expert's helper is a plain child process, and it ends when the worker does."""
    from pathlib import Path

    from plyground import games

    before = set(_root_helpers())
    name = games.resolve(str(Path(__file__).parents[1] / "game_files" / "kalah_no_eval.py"))
    app = make_app()
    pump(app, 2)
    app.scene.open_game(name)
    assert type(app.scene).__name__ == "SetupScene"
    for side in app.scene.sides:
        side.kind, side.preset = AI, "Expert"
    app.scene.rebuild()
    app.settings.speed = 0.0
    start = next(w for w, (action, _) in app.scene.form.ids.items() if action == "start")
    click_button(app, start)
    play = app.scene
    assert wait_until(app, lambda: len(play.controller.history.moves) >= 2, 60)
    assert set(_root_helpers()) - before, "the helper runs beside the worker"
    app.quit(save=False)
    deadline = time.perf_counter() + 10
    while set(_root_helpers()) - before and time.perf_counter() < deadline:
        time.sleep(0.1)
    assert not set(_root_helpers()) - before
