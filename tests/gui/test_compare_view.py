"""The Compare view and the policy view, headless: the numbers, skip, cancel, leaving."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pygame
import pytest
from driving import click_button, press, pump, wait_until

from plyground import games
from plyground.ai.compare import comparison as compare
from plyground.gui import chart
from plyground.gui.compare.charts import nodes_chart
from plyground.gui.compare.policy_scene import PolicyScene
from plyground.gui.compare.scene import CompareScene


def _c4(moves: str = "4453") -> tuple[Any, Any]:
    game = games.get_game("connect4")
    return game, game.replay(game.parse_moves(moves))


def _button(scene: Any, action: str) -> Any:
    return next(button for button, name in scene.buttons.items() if name == action)


@pytest.mark.slow
def test_the_view_shows_the_numbers_of_the_comparison(make_app: Callable[..., Any]) -> None:
    app = make_app()
    game, state = _c4()
    scene = CompareScene(app, game, state, depth=4)
    app.push(scene)
    assert wait_until(app, lambda: not scene.running, 120)
    expected = compare.compare(state, [1, 2, 3, 4])
    got = {(row.variant, row.depth): row for row in scene.rows if row.variant != "mcts"}
    assert len(got) == len(expected.rows) == 16
    for row in expected.rows:
        mine = got[row.variant, row.depth]
        assert (mine.value, mine.move, mine.nodes, mine.leaves, mine.cutoffs) == (
            row.value,
            row.move,
            row.nodes,
            row.leaves,
            row.cutoffs,
        )
        assert mine.share == row.share
    figure = scene.comparison()
    surface = pygame.Surface((900, 500))
    plot = chart.draw(
        surface,
        surface.get_rect(),
        nodes_chart(figure),
    )
    for title, points in figure.series().items():
        for (depth, nodes), pixel in zip(points, plot.points[title], strict=True):
            x, y = plot.to_data(*pixel)
            assert round(x) == depth and abs(y - nodes) <= nodes * 1e-9
    assert "same value" in scene.status(4)
    assert scene.shown_depth() == 4
    press(app, pygame.K_LEFT)
    press(app, pygame.K_LEFT)
    assert scene.shown_depth() == 2
    press(app, pygame.K_RIGHT)
    assert scene.shown_depth() == 3
    click_button(app, _button(scene, "back"))
    assert app.scene is not scene


def test_a_long_run_waits_for_skip(make_app: Callable[..., Any]) -> None:
    app = make_app()
    game, state = _c4()
    scene = CompareScene(app, game, state, depth=3, autostart=False)
    scene.limit_seconds = 0.0  # every run "too long": each waits for an answer
    app.push(scene)
    scene.start()
    pump(app, 2)
    assert scene.pending is not None and scene.pending[:2] == ("minimax", 1)
    click_button(app, _button(scene, "skip"))
    assert scene.rows[0].skipped.startswith("estimated")
    assert scene.pending is not None and scene.pending[:2] == ("alphabeta-plain", 1)
    click_button(app, _button(scene, "anyway"))
    assert wait_until(app, lambda: len(scene.rows) == 2 or scene.pending is not None, 60)
    assert wait_until(app, lambda: scene.pending is not None, 60)
    assert scene.rows[1].ran and scene.rows[1].nodes == 8
    # minimax was skipped: it is not offered again at depth 2
    assert scene.pending[:2] == ("alphabeta-ordered", 1)
    scene.cancel()
    assert not scene.running and scene.message == "Cancelled."


@pytest.mark.slow
def test_cancel_and_leaving_stop_the_worker(make_app: Callable[..., Any]) -> None:
    app = make_app()
    game, state = _c4("")
    scene = CompareScene(app, game, state, depth=10)
    scene.limit_seconds = 1e9
    app.push(scene)
    assert wait_until(app, lambda: scene.runner.job is not None and scene.runner.job[1] >= 5, 60)
    click_button(app, _button(scene, "cancel"))
    assert wait_until(app, lambda: not scene.runner.busy, 30)
    assert not scene.running and all(row.depth < 10 for row in scene.rows)
    scene.start()
    assert wait_until(app, lambda: scene.runner.busy, 10)
    app.pop()  # leaving cancels and ends the worker process
    assert not scene.runner.busy


def test_a_finished_game_is_explained(make_app: Callable[..., Any]) -> None:
    app = make_app((800, 600))
    game = games.get_game("tictactoe")
    scene = CompareScene(app, game, game.replay(game.parse_moves("14253")))
    app.push(scene)
    pump(app, 2)
    assert not scene.running and "over" in scene.status(1)


def test_the_policy_view(make_app: Callable[..., Any]) -> None:
    for size in ((1280, 800), (800, 600)):
        app = make_app(size)
        game = games.get_game("pig", goal=30)
        state = game.replay(game.parse_moves("r4r6h r5r3"))
        scene = PolicyScene(app, game, state, "hold")
        app.push(scene)
        pump(app, 2)
        assert scene.picture is not None and len(scene.charts) == 2
        assert scene.charts[0].markers[1].label == "AI: hold"
        click_button(app, scene.back_button)
        assert app.scene is not scene
    app = make_app()
    ttt = games.get_game("tictactoe")
    scene = PolicyScene(app, ttt, ttt.initial_state())
    app.push(scene)
    pump(app)
    assert "no reference policy" in scene.problem
