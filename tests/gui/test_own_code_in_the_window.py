"""Users' own code in the window: the explorer on a student's tree and on a file heuristic."""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pygame
import pytest
from driving import pump, wait_until

from plyground import games
from tests.exercise_solutions import NO_PRUNING


@pytest.mark.slow
def test_explore_opens_the_students_tree_beside_the_reference(
    make_app: Callable[..., Any], tmp_path: Path
) -> None:
    from plyground.ai.student_code.grader import grade
    from plyground.gui.explorer.exercise_scene import open_student_tree
    from plyground.gui.explorer.two_trees import REFERENCE, YOURS

    path = tmp_path / "my_search.py"
    path.write_text(NO_PRUNING, encoding="utf-8")
    failed = next(o for o in grade("alphabeta", str(path)) if not o.passed)
    assert failed.case.title == "lesson 1"
    app = make_app()
    scene = open_student_tree(app, failed)
    pump(app, 3)
    assert app.scene is scene
    yours, reference = scene.pair.yours.trace, scene.pair.reference.trace
    assert yours is not None and reference is not None
    assert len([n for n in yours.nodes if n.kind == "leaf"]) == 9  # no pruning: all nine
    assert yours.value == 3 and yours.heuristic == "your search"
    assert len([n for n in reference.nodes if n.kind == "leaf"]) == 7
    # opened on the grader's first difference, both trees drawn side by side (1280x800)
    assert scene.pair.message == failed.line and failed.line.startswith("leaf 5:")
    assert scene.pair.side_by_side and set(scene.frames) == {YOURS, REFERENCE}
    assert scene.pair.leaves_done(YOURS) == scene.pair.leaves_done(REFERENCE) == 5
    scene.go_to(0)  # Home: both from the start
    assert scene.pair.yours.step == scene.pair.reference.step == 0
    scene.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RIGHT, unicode="", mod=0))
    assert scene.pair.yours.step == 1 == scene.pair.reference.step
    scene._press("difference")  # "Go to the first difference"
    assert scene.pair.leaves_done(YOURS) == 5
    scene.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_TAB, unicode="\t", mod=0))
    assert scene.pair.lead == REFERENCE and scene.model is scene.pair.reference
    assert scene.pair.leaves_done(REFERENCE) == 5  # the same leaf in the reference
    pump(app, 2)


@pytest.mark.slow
def test_the_explorer_traces_a_file_heuristic_in_a_worker(
    make_app: Callable[..., Any], tmp_path: Path
) -> None:
    from plyground.gui.explorer.scene import ExplorerScene

    path = tmp_path / "my_eval.py"
    path.write_text("def evaluate(state):\n    return 0.25 if state.ply % 2 else -0.25\n")
    game = games.get_game("connect4")
    state = game.replay(game.parse_moves("4444443333331"))
    app = make_app()
    scene = ExplorerScene(app, state, algorithm="alphabeta", depth=2, heuristic=str(path))
    app.push(scene)
    assert wait_until(app, lambda: scene.model.trace is not None or bool(scene.model.error), 30)
    assert not scene.model.error
    pump(app, 2)
    assert scene.model.trace.heuristic == str(path)
    estimates = {
        n.value for n in scene.model.trace.nodes if n.kind == "leaf" and n.source != "terminal"
    }
    assert estimates and estimates <= {0.25, -0.25}


FIRST_LEGAL = "def choose(state):\n    return state.legal_moves()[0]\n"
KAGGLE_LEFTMOST = """
def agent(observation, configuration):
    return next(c for c in range(configuration.columns) if observation.board[c] == 0)
"""


def set_up_from_files(app: Any, game: str, agents: tuple[str, str]) -> Any:
    """From the menu to set-up: both sides AI "From a file…", the files typed."""
    from driving import click

    from plyground.gui.scenes.menu import game_cards
    from plyground.gui.storage.settings import AI, FROM_FILE

    pump(app, 2)
    index = [name for name, _, _ in game_cards()].index(game)
    click(app, app.scene.card_rects()[index].center)
    setup = app.scene
    for side, agent in zip(setup.sides, agents, strict=True):
        side.kind, side.preset, side.agent = AI, FROM_FILE, agent
    setup.rebuild()
    return setup


@pytest.mark.slow
def test_a_file_agent_and_a_kaggle_agent_play_in_the_window_and_are_remembered(
    make_app: Callable[..., Any], tmp_path: Path
) -> None:
    from driving import click

    from plyground.gui.storage import savefile
    from plyground.gui.storage.settings import FROM_FILE, SideSetup

    first, kaggle = tmp_path / "first.py", tmp_path / "leftmost.py"
    first.write_text(FIRST_LEGAL)
    kaggle.write_text(KAGGLE_LEFTMOST)
    app = make_app()
    setup = set_up_from_files(app, "connect4", (str(first), f"kaggle:{kaggle}"))
    entries = [w for w, (action, _) in setup.form.ids.items() if action == "agent_path"]
    assert [e.get_text() for e in entries] == [str(first), f"kaggle:{kaggle}"]
    app.settings.speed = 0.0
    click(app, next(w for w, (a, _) in setup.form.ids.items() if a == "start").rect.center)
    play = app.scene
    assert type(play).__name__ == "PlayScene"
    assert wait_until(app, lambda: play.controller.recorded, 60)
    state = play.controller.history.state
    assert state.is_terminal() and not play.controller.jobs.forfeited
    # The first file plays the first legal move (the centre first), the Kaggle agent the
    # leftmost free column: four in the centre column wins.
    assert play.controller.game.format_moves(play.controller.history.moves) == "4141414"
    saved = play.controller.save_data()
    assert saved["players"][1]["config"]["agent"] == f"kaggle:{kaggle}"
    path = tmp_path / "game.json"
    play.controller.save_to(path)
    loaded = savefile.load_game(path)
    side = SideSetup.from_dict(loaded.players[1], SideSetup())
    assert side.preset == FROM_FILE and side.agent == f"kaggle:{kaggle}"
    remembered = SideSetup.from_dict(
        app.settings.sides["connect4"][0].to_dict("connect4"), SideSetup()
    )
    assert remembered.preset == FROM_FILE and remembered.agent == str(first)


@pytest.mark.slow
def test_a_failing_file_forfeits_the_game_in_the_window(
    make_app: Callable[..., Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from driving import click

    broken = tmp_path / "broken.py"
    broken.write_text("def choose(state):\n    return 1 / 0\n")
    first = tmp_path / "first.py"
    first.write_text(FIRST_LEGAL)
    app = make_app()
    setup = set_up_from_files(app, "tictactoe", (str(first), str(broken)))
    app.settings.speed = 0.0
    click(app, next(w for w, (a, _) in setup.form.ids.items() if a == "start").rect.center)
    play = app.scene
    assert wait_until(app, lambda: bool(play.controller.jobs.forfeited), 60)
    assert (
        play.controller.jobs.forfeited
        == "O forfeits: broken.py: raised ZeroDivisionError: division by zero"
    )
    assert play.controller.recorded and play.controller.last_winner == 0
    assert play.controller.history.state.ply == 1  # X's one move stays; nothing else is lost
    pump(app, 20)
    assert play.controller.jobs.job is None  # the AI waits for a new game


@pytest.mark.slow
def test_start_refuses_a_file_that_cannot_play(
    make_app: Callable[..., Any], tmp_path: Path
) -> None:
    from driving import click

    app = make_app()
    setup = set_up_from_files(app, "tictactoe", (str(tmp_path / "missing.py"), "hard.py"))
    click(app, next(w for w, (a, _) in setup.form.ids.items() if a == "start").rect.center)
    assert app.scene is setup
    assert any("no such file" in toast.text for toast in app.toasts)


@pytest.mark.slow
def test_compare_runs_a_file_heuristic_in_its_worker(
    make_app: Callable[..., Any], tmp_path: Path
) -> None:
    from plyground.gui.compare.scene import CompareScene

    path = tmp_path / "my_eval.py"
    path.write_text("def evaluate(state):\n    return 0.25 if state.ply % 2 else -0.25\n")
    game = games.get_game("connect4")
    state = game.replay(game.parse_moves("4444443333331"))
    app = make_app()
    scene = CompareScene(app, game, state, depth=2, heuristic=str(path))
    app.push(scene)
    assert wait_until(app, lambda: not scene.running, 60)
    rows = [row for row in scene.rows if row.ran]
    assert rows and len({row.value for row in rows if row.depth == 2}) == 1
    pump(app, 2)


def test_browse_picks_an_agent_and_a_heuristic_file(
    make_app: Callable[..., Any], tmp_path: Path
) -> None:
    import pygame_gui

    from plyground.gui.setup import from_file
    from plyground.gui.storage.settings import CUSTOM

    plain, kaggle, heuristic = tmp_path / "a.py", tmp_path / "k.py", tmp_path / "e.py"
    plain.write_text(FIRST_LEGAL)
    kaggle.write_text(KAGGLE_LEFTMOST)
    heuristic.write_text("def evaluate(state):\n    return 0.0\n")
    app = make_app()
    setup = set_up_from_files(app, "connect4", ("", ""))

    def pick(index: int, target: str, path: Path) -> None:
        setup.browse_file(index, target)
        dialog = setup.file_dialog[0]
        event = pygame.event.Event(
            pygame_gui.UI_FILE_DIALOG_PATH_PICKED, ui_element=dialog, text=str(path)
        )
        assert setup.handle(event)
        dialog.kill()

    pick(0, "agent", plain)
    pick(1, "agent", kaggle)  # no choose(): a Kaggle agent where the game has the format
    assert [side.agent for side in setup.sides] == [str(plain), f"kaggle:{kaggle}"]
    assert from_file.problems(setup.sides, setup.game) == ""
    setup.sides[1].preset = CUSTOM
    setup.rebuild()
    pick(1, "heuristic", heuristic)
    assert setup.sides[1].custom.heuristic == str(heuristic)
    options, shown = from_file.heuristic_options(setup.sides[1], setup.game)
    assert shown == "e.py" and options[-2:] == ["e.py", "From a file…"]
    gone = replace(setup.sides[1].custom.search, heuristic=str(tmp_path / "gone.py"))
    setup.sides[1].custom = replace(setup.sides[1].custom, search=gone)
    assert "no such file" in from_file.problems(setup.sides, setup.game)


@pytest.mark.slow
def test_explore_fits_the_screen_and_esc_closes_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from plyground.ai.student_code.grader import grade
    from plyground.gui import window_frame
    from plyground.gui.app import App
    from plyground.gui.explorer import exercise_scene

    path = tmp_path / "my_search.py"
    path.write_text(NO_PRUNING, encoding="utf-8")
    failed = next(o for o in grade("alphabeta", str(path)) if not o.passed)
    monkeypatch.setattr(window_frame, "desktop_size", lambda: (1366, 768))
    seen: dict[str, Any] = {}

    def run(app: App) -> int:
        seen["size"] = app.size
        seen["stack"] = list(app.stack)
        app.headless = True
        app.take(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, unicode="", mod=0))
        seen["running"] = app.running
        seen["saves"] = app.saves_settings or app.autosave_enabled
        app.quit()
        return 0

    monkeypatch.setattr(App, "run", run)
    assert exercise_scene.explore(failed) == 0
    assert seen["size"] == window_frame.default_size((1366, 768))
    assert seen["size"][1] <= 768 - 100
    assert [type(scene).__name__ for scene in seen["stack"]] == ["ComparisonScene"]
    assert seen["running"] is False and seen["saves"] is False


def test_file_dialogs_take_typing_at_once_and_list_a_students_folders_first(
    make_app: Callable[..., Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from plyground.gui.scenes.file_dialog import folder_listing
    from plyground.gui.widgets import focus

    for name in (".git", ".venv", ".ci", "__pycache__", "build", "agents", "Week 3"):
        (tmp_path / name).mkdir()
    (tmp_path / "mine.py").write_text(FIRST_LEGAL)
    listed = [entry[0] for entry in folder_listing(str(tmp_path), {".py"})]
    assert set(listed[:2]) == {"agents", "Week 3"} and listed[-1] == "mine.py"
    assert set(listed[2:-1]) == {".git", ".venv", ".ci", "__pycache__", "build"}
    monkeypatch.chdir(tmp_path)
    app = make_app()
    setup = set_up_from_files(app, "connect4", ("", ""))
    setup.browse_file(0, "agent")
    dialog = setup.file_dialog[0]
    assert focus.typing(app.manager)  # the path field has the keyboard
    assert dialog.file_path_text_line in (app.manager.get_focus_set() or ())
    from driving import click_button, start_game

    other = make_app()
    play = start_game(other, "tictactoe", ("human", "human"))
    click_button(other, play.buttons["open"])
    assert play.file_dialog is not None and focus.typing(other.manager)


@pytest.mark.skipif(sys.platform == "win32", reason="file names that are not UTF-8: POSIX")
def test_an_agent_whose_name_is_not_utf8_plays_in_the_window(
    make_app: Callable[..., Any], tmp_path: Path
) -> None:
    import os

    name = str(tmp_path / os.fsdecode(b"ag\xff\xfeent.py"))
    Path(name).write_text(FIRST_LEGAL)
    app = make_app()
    setup = set_up_from_files(app, "tictactoe", (name, name))
    pump(app, 2)
    setup.start()
    pump(app, 3)
    play = app.scene
    assert wait_until(app, lambda: len(play.controller.history.entries) >= 3, 30)
    app.request_frame()
    app.draw()  # its name is drawn with replacement characters, never a crash
    assert all("\ufffd" in side.label() for side in play.controller.sides)
