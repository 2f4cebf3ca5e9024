"""The window against hostile files and requests.

Its own files hold anything (the autosave, the settings): it starts and sets them aside; a
Pig goal whose table cannot be built here is refused in set-up with the reason; an AI that
cannot move leaves no "thinking" behind; a write that fails is said once and caught up.
"""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from driving import pump
from test_play_controller import make, run

from plyground.gui.play import status_line

ROOT = Path(__file__).resolve().parents[2]


def test_an_ai_that_cannot_move_leaves_no_thinking_behind():
    controller, worker, clock = make("tictactoe", ("human", "Easy"))
    assert controller.try_human_move(4)
    controller.update()
    assert controller.jobs.job is not None and controller.jobs.job.kind == "move"
    controller.take_events()
    worker.send("error", "the AI process stopped unexpectedly")  # what 4 deaths in a row say
    run(controller, clock, 2.0)
    toasts = controller.take_events()
    assert controller.jobs.job is None and len(worker.jobs) == 1, "no new search on its own"
    text = status_line.status_text(controller, None)
    assert "thinking" not in text and "could not move: the AI process stopped" in text
    assert any("could not move: the AI process stopped" in getattr(e, "text", "") for e in toasts)
    controller.undo()
    assert controller.try_human_move(0)
    controller.update()
    assert controller.jobs.job is not None, "the player acted: the AI tries again"


def test_a_goal_whose_table_cannot_be_built_is_refused_in_set_up(make_app, monkeypatch):
    from plyground.ai.engine import cost

    monkeypatch.setattr(cost, "available_memory", lambda: 2**30)  # a 1 GB machine
    app = make_app()
    app.switch("setup", game_name="pig")
    pump(app)
    setup = app.scene
    setup.options["goal"] = 1000
    setup.start()
    pump(app)
    assert app.scene is setup, "not started"
    toast = next(t.text for t in app.toasts if t.text.startswith("Cannot start"))
    assert "goal 1000" in toast and "1.0 GB free" in toast and "use goal 274 or less" in toast
    setup.options["goal"] = 100  # the stored table: nothing to build
    setup.start()
    pump(app)
    assert type(app.scene).__name__ == "PlayScene"


def full_disk(*_args: Any, **_kwargs: Any) -> None:
    raise OSError(errno.ENOSPC, "No space left on device")


def test_a_full_disk_is_said_once_and_the_autosave_catches_up(config_dir, monkeypatch):
    from plyground.gui.storage import savefile
    from plyground.gui.storage.write_problems import WRITES

    controller, _, clock = make("connect4", ("human", "human"), autosave=True)
    monkeypatch.setattr(savefile, "write_atomic", full_disk)
    for column in (3, 3, 2):
        assert controller.try_human_move(column)
        run(controller, clock, 6.0)  # past AUTOSAVE_EVERY each time
    said = WRITES.take()
    assert len(said) == 1, "said once, not at every attempt"
    text = said[0][0]
    assert "Could not keep the game in progress (autosave.json): the disk is full" in text
    assert f"Free some space in {config_dir}" in text
    monkeypatch.undo()
    monkeypatch.setenv("PLYGROUND_CONFIG_DIR", str(config_dir))
    run(controller, clock, 6.0)  # no new move: the next try catches up anyway
    assert WRITES.take() == [("The game in progress is kept again.", "success")]
    assert json.loads((config_dir / "autosave.json").read_text())["moves"] == "443"


def test_settings_that_cannot_be_saved_are_said_in_the_window(make_app, monkeypatch, capfd):
    import pygame
    from driving import press

    from plyground.gui.storage import settings

    app = make_app()
    pump(app)
    monkeypatch.setattr(settings, "write_atomic", full_disk)
    press(app, pygame.K_F2)  # the colour-blind palette, saved at once
    pump(app)
    toasts = [t.text for t in app.toasts if t.text.startswith("Could not keep your settings")]
    assert len(toasts) == 1 and "the disk is full" in toasts[0]
    app.quit()
    assert "plyground: Could not keep your settings (settings.json)" in capfd.readouterr().err


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(signal, "SIGTERM") or os.name != "posix", reason="POSIX signals")
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_bench_gui_ends_on_a_signal_with_the_display_up(signum):
    """SDL turns SIGTERM into a QUIT event the benchmark loop never waited for: it went on.

    The child says "searching" after the first frame drawn while the AI's worker searches
    (the display, the worker and a search are up); the signal is sent then."""
    code = (
        "import sys\nfrom plyground.gui.bench import frame_bench\nprint('up', flush=True)\n"
        "seen = {}\nopen_series, step = frame_bench.open_series, frame_bench.step\n"
        "def opened(*args, **kwargs):\n    seen['series'] = open_series(*args, **kwargs)\n"
        "    return seen['series']\n"
        "def stepped(app, dt):\n    step(app, dt)\n"
        "    if 'told' not in seen and seen['series'][1].controller.jobs.job is not None:\n"
        "        seen['told'] = print('searching', flush=True)\n"
        "frame_bench.open_series, frame_bench.step = opened, stepped\n"
        "try:\n    frame_bench.run(max_seconds=60)\nexcept KeyboardInterrupt:\n"
        "    print('interrupted', flush=True)\n    sys.exit(130)\n"
    )
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    bench = subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, text=True, env=env, cwd=ROOT
    )
    try:
        assert bench.stdout is not None and bench.stdout.readline() == "up\n"
        assert bench.stdout.readline() == "searching\n"
        bench.send_signal(signum)
        assert bench.wait(timeout=30) == 130
        assert bench.stdout.read() == "interrupted\n"
    finally:
        if bench.poll() is None:
            bench.kill()


def test_the_policy_view_never_builds_a_slow_table_in_the_drawing_loop(make_app, monkeypatch):
    from plyground import games
    from plyground.games.pig import optimal as pig_optimal
    from plyground.gui.compare.policy_scene import PolicyScene

    def never(goal: int) -> Any:
        raise AssertionError(f"goal {goal}'s table was built in the drawing loop")

    monkeypatch.setattr(pig_optimal, "solve", never)
    app = make_app()
    game = games.get_game("pig", goal=400)  # about 20 s and 1.6 GB to build
    scene = PolicyScene(app, game, game.initial_state())
    assert scene.picture is None and "too long for the window to wait" in scene.problem
    assert "goal 400" in scene.problem
    app.push(scene)
    pump(app)


def test_a_saved_game_whose_ai_needs_a_table_too_large_here_sends_no_search(monkeypatch):
    from plyground.ai.engine import cost

    monkeypatch.setattr(cost, "available_memory", lambda: 2**30)
    from test_play_controller import Clock, FakeWorker

    from plyground.gui.play.controller import PlayController
    from plyground.gui.storage.settings import AI, Settings

    stored = Settings()
    stored.set_option("pig", "goal", 1000)  # in range for the game, too large for this machine
    stored.sides["pig"][0].kind, stored.sides["pig"][0].preset = AI, "Expert"
    worker, clock = FakeWorker(), Clock()
    controller = PlayController("pig", stored, worker, clock)
    run(controller, clock, 1.0)
    events = controller.take_events()
    assert worker.jobs == [] and controller.jobs.job is None
    text = status_line.status_text(controller, None)
    assert "could not move: the optimal-play table for goal 1000" in text
    assert sum(getattr(e, "kind", "") == "toast" for e in events) == 1
