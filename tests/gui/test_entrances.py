"""The entrances to the explorer, the compare view, the policy picture, the lessons and
"move now", driven headless like a person would (buttons, keys, the real AI worker)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pygame
import pytest
from driving import click_button, press, pump, start_game, wait_until

from plyground.games.search_settings import DepthLimited
from plyground.gui import app as app_module
from plyground.gui.play import controls
from plyground.gui.setup.scene import cost_warning
from plyground.gui.storage.settings import AI, CUSTOM


def _scene_name(app: Any) -> str:
    return type(app.scene).__name__


@pytest.mark.slow
def test_explore_opens_the_current_position_with_the_ai_settings(
    make_app: Callable[..., Any],
) -> None:
    app = make_app()
    play = start_game(app, "connect4", ("human", "Expert"))
    press(app, pygame.K_4, "4")
    state = play.controller.state
    assert "explore" in play.buttons and "compare" in play.buttons
    assert "policy" not in play.buttons  # connect-four draws no policy picture
    algorithm, depth, heuristic = controls.tool_search(play.controller)
    expert = play.controller.sides[1].player_config("connect4")
    assert (algorithm, heuristic) == (expert.algorithm, expert.heuristic)
    assert depth == min(expert.search.depth or 4, 4) == 4
    press(app, pygame.K_e, "e")
    assert _scene_name(app) == "ExplorerScene"
    explorer = app.scene
    assert explorer.model.state is state and explorer.model.depth == 4
    assert explorer.model.algorithm == algorithm and explorer.model.heuristic == heuristic
    assert play.controller.jobs.job is None  # the AI's search waits while the view is open
    press(app, pygame.K_ESCAPE)
    assert app.scene is play
    assert wait_until(app, lambda: play.controller.state.ply == 2, 30)  # and goes on after


@pytest.mark.slow
def test_compare_button_opens_the_compare_view(make_app: Callable[..., Any]) -> None:
    app = make_app()
    play = start_game(app, "tictactoe", ("human", "Medium"))
    press(app, pygame.K_5, "5")
    assert wait_until(app, lambda: play.controller.state.ply == 2, 15)
    pump(app, 3)
    click_button(app, play.buttons["compare"])
    assert _scene_name(app) == "CompareScene"
    view = app.scene
    _, depth, heuristic = controls.tool_search(play.controller)
    assert view.state is play.controller.state and view.game is play.controller.game
    assert view.depth == depth and view.heuristic == heuristic
    press(app, pygame.K_ESCAPE)
    assert app.scene is play
    press(app, pygame.K_c, "c")
    assert _scene_name(app) == "CompareScene"


@pytest.mark.slow
def test_policy_for_a_game_that_draws_one(make_app: Callable[..., Any]) -> None:
    app = make_app()
    play = start_game(app, "pig", ("human", "Medium"))
    assert "policy" in play.buttons
    play.controller.hint = "roll"  # as if Hint had answered
    click_button(app, play.buttons["policy"])
    assert _scene_name(app) == "PolicyScene"
    policy = app.scene
    assert policy.problem == "" and policy.picture is not None
    assert policy.state is play.controller.state
    assert controls.tool_chosen(play.controller) == "roll"
    press(app, pygame.K_ESCAPE)
    assert app.scene is play
    press(app, pygame.K_p, "p")
    assert _scene_name(app) == "PolicyScene"


def test_policy_key_without_a_policy_explains(make_app: Callable[..., Any]) -> None:
    app = make_app()
    play = start_game(app, "tictactoe", ("human", "human"))
    press(app, pygame.K_p, "p")
    assert app.scene is play
    assert play.controller.current_notice() == "This game has no reference policy to draw"


def test_views_are_disabled_when_the_game_is_over(make_app: Callable[..., Any]) -> None:
    app = make_app()
    play = start_game(app, "tictactoe", ("human", "human"))
    for digit in "14253":
        press(app, ord(digit), digit)
    pump(app, 3)
    assert play.controller.state.is_terminal()
    for key in ("explore", "compare"):
        button = play.buttons[key]
        assert not button.is_enabled
        assert button.tool_tip_text.startswith("The game is over")
    press(app, pygame.K_e, "e")
    assert app.scene is play
    assert play.controller.current_notice().startswith("The game is over")
    press(app, pygame.K_u, "u")  # undo: a position again, the views come back
    pump(app, 2)
    assert play.buttons["explore"].is_enabled
    assert play.buttons["explore"].tool_tip_text == controls.TOOLS[0][2]


def test_the_new_keys_are_in_the_help() -> None:
    keys = dict(app_module.HELP_KEYS)
    assert {"E", "C", "P", "G", "L"} <= set(keys)
    assert {"explorer", "compare", "policy", "lessons"} <= set(app_module.SCENES)


def test_lessons_from_the_menu(make_app: Callable[..., Any]) -> None:
    app = make_app()
    pump(app, 2)
    menu = app.scene
    click_button(app, menu.lessons_button)
    assert _scene_name(app) == "ExplorerScene" and app.scene.model.lesson == 0
    press(app, pygame.K_ESCAPE)
    assert app.scene is menu
    press(app, pygame.K_l, "l")
    assert _scene_name(app) == "ExplorerScene" and app.scene.model.lesson == 0


def _slow_minimax(side: Any) -> None:
    """Minimax depth 9 on connect-four: minutes of work without "move now"."""
    side.kind = AI
    side.preset = CUSTOM
    side.custom = replace(
        side.custom, search=DepthLimited("minimax", 9, "windows"), time_limit=None
    )


@pytest.mark.slow
def test_move_now_plays_the_deepest_finished_iteration(make_app: Callable[..., Any]) -> None:
    app = make_app()
    play = start_game(app, "connect4", ("human", "human"))
    _slow_minimax(play.controller.sides[0])
    play.rebuild()
    button = play.buttons["move_now"]
    assert not button.visible
    assert wait_until(app, lambda: play.controller.jobs.progress is not None, 30)
    assert play.controller.jobs.job is not None and play.controller.jobs.job.kind == "move"
    assert button.visible
    header = play.header_rect()
    assert header.contains(button.relative_rect)
    click_button(app, button)
    assert wait_until(app, lambda: play.controller.state.ply == 1, 30)
    analysis = play.controller.jobs.analysis
    assert analysis is not None and analysis.source == "ai"
    result = analysis.result
    assert result.complete is False and 1 <= result.depth < 9
    assert play.controller.history.moves[0] in range(7)
    pump(app, 2)
    assert not button.visible


def test_move_now_key_when_nobody_thinks(make_app: Callable[..., Any]) -> None:
    app = make_app()
    play = start_game(app, "tictactoe", ("human", "human"))
    press(app, pygame.K_g, "g")
    assert play.controller.current_notice() == "Move now is for an AI that is thinking"
    assert play.controller.state.ply == 0


def test_the_worker_finishes_a_search_on_request() -> None:
    """Straight to the worker: `move_now()` makes a long search answer, incomplete."""
    import time

    from plyground import games
    from plyground.ai.engine.search import DepthLimited
    from plyground.ai.players.players import SearchPlayer
    from plyground.gui.worker.ai_worker import AIWorker
    from plyground.gui.worker.requests import JobHeader, MoveRequest

    worker = AIWorker()
    try:
        state = games.get_game("connect4").initial_state()
        config = SearchPlayer(DepthLimited("minimax", 9, "windows"))
        job = worker.submit(MoveRequest(JobHeader("connect4", {}, state), config))
        seen: list[Any] = []
        deadline = time.monotonic() + 30
        while not any(m.kind == "progress" for m in seen) and time.monotonic() < deadline:
            seen += worker.poll()
            time.sleep(0.01)
        assert worker.move_now()
        while not any(m.kind == "result" for m in seen) and time.monotonic() < deadline:
            seen += worker.poll()
            time.sleep(0.01)
        result = next(m for m in seen if m.kind == "result")
        move, search = result.move, result.result
        assert result.job_id == job and move in state.legal_moves()
        assert search.complete is False
        assert not worker.move_now()  # nothing is running now
    finally:
        worker.close()


def test_cost_warning_for_a_custom_ai() -> None:
    from plyground import games

    state = games.get_game("connect4").initial_state()
    never = cost_warning(state, "minimax", 12, None)
    assert never.startswith("Depth 12 cannot finish in reasonable time")
    assert "time limit" in never
    assert cost_warning(state, "minimax", 12, 5.0) == ""  # a time limit always finishes
    assert cost_warning(state, "minimax", 4, None) == ""
    assert cost_warning(state, "alphabeta", 12, None).startswith("Depth 12 may take a while")


@pytest.mark.slow
def test_cost_warning_shows_in_the_setup_and_does_not_block(
    make_app: Callable[..., Any],
) -> None:
    app = make_app()
    sides = app.settings.sides["connect4"]
    _slow_minimax(sides[1])
    sides[1].custom = replace(sides[1].custom, search=replace(sides[1].custom.search, depth=12))
    app.switch("setup", game_name="connect4")
    setup = app.scene
    pump(app, 2)
    assert setup.side_warning(0) == ""
    assert setup.side_warning(1).startswith("Depth 12 cannot finish")
    start = next(w for w, (action, _) in setup.form.ids.items() if action == "start")
    click_button(app, start)
    assert _scene_name(app) == "PlayScene"


def test_a_late_run_leaves_no_twin_row(make_app: Callable[..., Any]) -> None:
    """A run that finishes just as Run restarts the comparison is not counted twice (twins
    once made the next estimate divide by zero; found by the random-events test)."""
    from plyground import games
    from plyground.ai.compare.comparison import Row, estimate
    from plyground.gui.compare.scene import CompareScene

    app = make_app()
    game = games.get_game("tictactoe")
    view = CompareScene(app, game, game.initial_state(), depth=3, autostart=False)
    for nodes in (10, 80, 80):
        view._add(Row("minimax", "minimax", 1 if nodes == 10 else 2, value=0.0, nodes=nodes))
    assert [(row.depth, row.nodes) for row in view.rows] == [(1, 10), (2, 80)]
    assert estimate("minimax", 3, 9.0, view.rows).nodes == 640
    view.close()


class _Worker:
    """Just enough of `AIWorker` for the controller; counts "move now" requests."""

    def __init__(self) -> None:
        self.moved_now = 0

    def start(self) -> None: ...
    def cancel(self) -> None: ...
    def end_game(self) -> None: ...
    def poll(self) -> list[Any]:
        return []

    def preparing(self, game_name: str) -> bool:
        return False

    def submit(self, request: object) -> int:
        return 1

    def move_now(self) -> bool:
        self.moved_now += 1
        return True


def test_move_now_asks_the_worker_only_for_an_ai_move() -> None:
    from plyground.gui.play.controller import PlayController
    from plyground.gui.play.search_jobs import Purpose, SearchJob
    from plyground.gui.storage.settings import Settings

    worker = _Worker()
    controller = PlayController("tictactoe", Settings(), worker, lambda: 0.0)
    assert controller.jobs.move_now() is False and worker.moved_now == 0
    controller.jobs.job = SearchJob(1, Purpose.ANALYSE, 0, 0, 0.0)  # a hint: nothing to hurry
    assert controller.jobs.move_now() is False and worker.moved_now == 0
    controller.jobs.job = SearchJob(2, Purpose.MOVE, 0, 0, 0.0)
    assert controller.jobs.move_now() is True and worker.moved_now == 1
    assert controller.current_notice() == "Moving now · the deepest search finished so far"
    assert controls.tool_refusal(controller, "move_now") == ""


def test_a_finished_game_reviewed_opens_the_views_on_the_reviewed_position(
    make_app: Callable[..., Any],
) -> None:
    app = make_app()
    play = start_game(app, "tictactoe", ("human", "human"))
    for digit in "14253":
        press(app, ord(digit), digit)
    pump(app, 3)
    controller = play.controller
    assert controller.state.is_terminal()
    controller.browse.browse_to(2)  # as a click on the second move in the list
    pump(app, 2)
    reviewed = controller.browse.shown_state()
    assert not reviewed.is_terminal()
    assert play.buttons["explore"].is_enabled
    press(app, pygame.K_e, "e")
    assert _scene_name(app) == "ExplorerScene"
    assert app.scene.model.state == reviewed
    press(app, pygame.K_ESCAPE)
    assert app.scene is play and controller.browse.browsing  # back where the learner was
    press(app, pygame.K_c, "c")
    assert _scene_name(app) == "CompareScene" and app.scene.state == reviewed
