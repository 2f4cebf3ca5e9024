"""Saving and opening games from the window, the autosave and its resume offer, closing
cleanly (window, Ctrl+C, SIGTERM) and a killed AI worker."""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pygame
import pygame_gui
import pytest
from driving import click_button, press, pump, start_game, wait_until

from plyground.games.search_settings import DepthLimited
from plyground.gui.storage import savefile, settings
from plyground.gui.storage.settings import AI, CUSTOM

ROOT = Path(__file__).resolve().parents[2]


def pick_path(app, dialog, path) -> None:
    """What pygame_gui's file dialog posts when its OK button is pressed."""
    pygame.event.post(
        pygame.event.Event(pygame_gui.UI_FILE_DIALOG_PATH_PICKED, ui_element=dialog, text=str(path))
    )
    pump(app, 2)


def test_ctrl_s_saves_and_ctrl_o_opens(make_app, tmp_path):
    app = make_app()
    play = start_game(app, "connect4", ("human", "human"))
    for key in "4453":
        press(app, ord(key), key)
    press(app, pygame.K_s, "\x13", mod=pygame.KMOD_CTRL)
    dialog = play.file_dialog
    assert dialog is not None and dialog.alive()
    assert not dialog.delete_button.visible, "a save dialog never deletes files"
    press(app, pygame.K_4, "4")  # the dialog is modal: no move behind it
    assert play.controller.history.state.ply == 4
    target = tmp_path / "my game.json"
    pick_path(app, dialog, target)
    assert json.loads(target.read_text())["moves"] == "4453"
    assert any("Saved to" in toast.text for toast in app.toasts)
    press(app, pygame.K_n, "n")
    press(app, pygame.K_RETURN, "\r", frames=3)  # a game in progress: confirm
    assert play.controller.history.moves == []
    press(app, pygame.K_o, "\x0f", mod=pygame.KMOD_CTRL)
    assert play.file_dialog is not None
    pick_path(app, play.file_dialog, target)
    opened = app.scene
    assert type(opened).__name__ == "PlayScene" and opened is not play
    assert opened.controller.game.format_moves(opened.controller.history.moves) == "4453"
    assert [type(s).__name__ for s in app.stack] == ["MenuScene", "SetupScene", "PlayScene"]


@pytest.mark.slow
def test_buttons_open_the_dialogs_and_esc_closes_them(make_app):
    app = make_app()
    play = start_game(app, "tictactoe", ("human", "human"))
    click_button(app, play.buttons["save"])
    assert play.file_dialog is not None
    press(app, pygame.K_ESCAPE)
    assert play.file_dialog is None and app.scene is play
    click_button(app, play.buttons["open"])
    assert play.file_dialog is not None
    app.resize((900, 650))  # a resize closes it rather than leaving it stranded
    pump(app)
    assert play.file_dialog is None


def test_opening_another_game_sets_its_players_goal_and_dice(make_app, tmp_path):
    from plyground import ai

    path = tmp_path / "pig.json"
    medium = ai.DIFFICULTIES["pig"]["Medium"].to_dict()
    savefile.save_game(
        path,
        "pig",
        {"goal": 30},
        [{"kind": "human"}, {"kind": "ai", "preset": "Medium", "config": medium}],
        5,
        "r4r6h r1",
    )
    app = make_app()
    play = start_game(app, "tictactoe", ("human", "human"))
    assert play.load_from(path)
    pig = app.scene
    assert pig.game_name == "pig" and pig.controller.game.goal == 30
    assert pig.controller.history.state.scores == (10, 0) and pig.controller.history.seed == 5
    assert [s.kind for s in pig.controller.sides] == ["human", AI] and pig.controller.sides[
        1
    ].preset == "Medium"
    assert app.settings.options_for("pig")["goal"] == 30


def test_a_bad_file_is_refused_with_the_move_named(make_app, tmp_path):
    path = tmp_path / "edited.json"
    path.write_text(
        json.dumps(
            {
                "format": "plyground-save",
                "version": 1,
                "game": "tictactoe",
                "players": [{"kind": "human"}, {"kind": "human"}],
                "moves": "155",
            }
        )
    )
    app = make_app()
    play = start_game(app, "tictactoe", ("human", "human"))
    press(app, pygame.K_1, "1")
    assert not play.load_from(path)
    assert app.scene is play and play.controller.history.moves == [0]
    assert any("move 3" in t.text and "'5'" in t.text for t in app.toasts)


def test_menu_opens_a_saved_game(make_app, tmp_path):
    path = tmp_path / "ttt.json"
    savefile.save_game(path, "tictactoe", {}, [{"kind": "human"}] * 2, 0, "15")
    app = make_app()
    pump(app, 2)
    menu = app.scene
    click_button(app, menu.open_button)
    assert menu.file_dialog is not None
    pick_path(app, menu.file_dialog, path)
    assert type(app.scene).__name__ == "PlayScene"
    assert app.scene.controller.history.moves == [0, 4]


@pytest.mark.slow
def test_game_in_progress_is_saved_on_quit_and_offered_next_time(make_app, config_dir):
    app = make_app()
    play = start_game(app, "connect4", ("human", "Easy"))
    play.controller.sides[1].kind = "human"  # keep the AI out of it: two humans from here
    for key in "445":
        press(app, ord(key), key)
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    pump(app)
    saved = json.loads((config_dir / "autosave.json").read_text())
    assert saved["moves"] == "445" and saved["game"] == "connect4"

    app2 = make_app()
    pump(app2, 2)
    menu = app2.scene
    assert menu.resume is not None
    assert "Connect Four" in menu.resume_text() and "3 moves" in menu.resume_text()
    press(app2, pygame.K_r, "r")
    resumed = app2.scene
    assert type(resumed).__name__ == "PlayScene"
    assert resumed.controller.game.format_moves(resumed.controller.history.moves) == "445"


def test_pig_resume_card_and_notice_count_the_same_moves(make_app, config_dir):
    players = [{"kind": "human"}] * 2
    savefile.save_game(savefile.autosave_path(), "pig", {"goal": 30}, players, 0, "r4r6h r1 r5")
    app = make_app()
    pump(app, 2)
    menu = app.scene
    saved = menu.resume
    assert saved is not None and len(saved.moves) > saved.decisions
    assert f"{saved.decisions} moves" in menu.resume_text()
    press(app, pygame.K_r, "r")
    notice = app.scene.controller.current_notice()
    assert notice == f"Resumed · {saved.decisions} moves replayed · Player 1 to move"


def test_discard_forgets_the_autosave(make_app, config_dir):
    savefile.save_game(
        config_dir / "autosave.json", "tictactoe", {}, [{"kind": "human"}] * 2, 0, "1"
    )
    app = make_app()
    pump(app, 2)
    click_button(app, app.scene.discard_button)
    assert app.scene.resume is None and not (config_dir / "autosave.json").exists()


def test_a_finished_game_is_not_offered(make_app, config_dir):
    app = make_app()
    start_game(app, "tictactoe", ("human", "human"))
    for key in "14253":
        press(app, ord(key), key)
    pump(app, 5)
    app.quit()
    assert not (config_dir / "autosave.json").exists()


@pytest.mark.parametrize("content", [b"", b"{oops", b'{"format": "plyground-save"}', b"\xff"])
def test_a_bad_autosave_is_set_aside_and_said_once(make_app, config_dir, content):
    config_dir.mkdir(parents=True)
    (config_dir / "autosave.json").write_bytes(content)
    app = make_app()
    pump(app)
    assert app.scene.resume is None
    assert sum("last game could not be restored" in t.text for t in app.toasts) == 1
    assert (config_dir / "autosave.json.bad").read_bytes() == content
    app.pop_to_root()
    app.scene.enter()
    pump(app)
    assert sum("last game could not be restored" in t.text for t in app.toasts) == 1


def test_an_autosave_folder_in_the_way_is_set_aside(make_app, config_dir):
    (config_dir / "autosave.json").mkdir(parents=True)
    app = make_app()
    pump(app)
    assert app.scene.resume is None
    assert (config_dir / "autosave.json.bad").is_dir()


def test_settings_folder_in_the_way_or_unreadable(config_dir, monkeypatch):
    (config_dir / "settings.json").mkdir(parents=True)
    loaded, warning = settings.load()
    assert warning and "kept as settings.json.bad" in warning
    assert (config_dir / "settings.json.bad").is_dir()
    assert settings.save(loaded) and settings.load() == (loaded, None)

    def refuse(self, *args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("os.open", refuse)  # plyground.file_reader opens with os.open
    loaded, warning = settings.load()
    assert warning and "could not be read" in warning
    assert loaded.to_json() == settings.Settings().to_json()


def test_signal_ends_the_loop_cleanly_and_saves(make_app, config_dir, monkeypatch):
    monkeypatch.setattr(pygame, "quit", lambda: None)  # other tests go on using pygame
    app = make_app()
    start_game(app, "tictactoe", ("human", "human"))
    press(app, pygame.K_5, "5")
    app.stop(signal.SIGINT)
    assert app.run() == 130
    assert json.loads((config_dir / "autosave.json").read_text())["moves"] == "5"
    assert multiprocessing.active_children() == []


def slow_side(side) -> None:
    side.kind = AI
    side.preset = CUSTOM
    side.custom = replace(side.custom, search=DepthLimited("alphabeta", 12), time_limit=None)


@pytest.mark.slow
def test_closing_mid_search_saves_and_leaves_no_process(make_app, config_dir):
    app = make_app()
    play = start_game(app, "connect4", ("human", "human"))
    press(app, pygame.K_4, "4")
    slow_side(play.controller.sides[1])
    assert wait_until(app, lambda: play.controller.jobs.progress is not None, 15)
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    pump(app)
    assert multiprocessing.active_children() == []
    assert json.loads((config_dir / "autosave.json").read_text())["moves"] == "4"


@pytest.mark.slow
def test_a_killed_worker_is_replaced_and_the_search_asked_again(make_app):
    app = make_app()
    play = start_game(app, "connect4", ("human", "human"))
    press(app, pygame.K_4, "4")
    slow_side(play.controller.sides[1])
    assert wait_until(app, lambda: play.controller.jobs.progress is not None, 15)
    job = play.controller.jobs.job
    old = app.worker._process
    os.kill(old.pid, signal.SIGKILL)
    old.join(2)
    play.controller.jobs.progress = None
    assert wait_until(app, lambda: play.controller.jobs.progress is not None, 15), (
        "the new worker searches"
    )
    assert app.worker.restarts == 1 and app.worker._process is not old
    assert play.controller.jobs.job is job, "the same search, asked again"
    assert play.controller.notice is not None and "new one" in play.controller.notice[0]
    side = play.controller.sides[1]
    side.custom = replace(
        side.custom, search=DepthLimited("alphabeta", 2)
    )  # let it finish quickly: the game goes on
    play.controller.jobs.cancel_search()
    assert wait_until(app, lambda: play.controller.history.state.ply == 2, 15)


DRIVER = """
import sys, pathlib
import plyground.gui.app
import main

ready = pathlib.Path(sys.argv[1])
run = plyground.gui.app.App.run
original_step = plyground.gui.app.App.step

def step(self, dt=1 / 60):
    original_step(self, dt)
    ready.touch()  # the loop is running: the test may send its signal now

plyground.gui.app.App.step = step
sys.exit(main.main([]))
"""


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_the_real_window_process_stops_on_signals(tmp_path, sig):
    """`python main.py` under the dummy video driver: Ctrl+C / SIGTERM end it, no traceback."""
    env = dict(
        os.environ,
        SDL_VIDEODRIVER="dummy",
        SDL_AUDIODRIVER="dummy",
        PLYGROUND_CONFIG_DIR=str(tmp_path / "config"),
    )
    ready = tmp_path / "ready"
    process = subprocess.Popen(
        [sys.executable, "-c", DRIVER, str(ready)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.time() + 20
    while time.time() < deadline and not ready.exists():
        time.sleep(0.02)
    assert ready.exists(), "the window did not start"
    os.killpg(process.pid, sig)  # like Ctrl+C in a terminal: the whole process group
    _, err = process.communicate(timeout=20)
    assert process.returncode == 128 + sig, err
    assert "Traceback" not in err
    deadline = time.time() + 10
    left = ["?"]
    while left and time.time() < deadline:  # the worker ends just after the window
        left = subprocess.run(
            ["pgrep", "-g", str(process.pid)], capture_output=True, text=True
        ).stdout.split()
        time.sleep(0.05)
    assert left == []
