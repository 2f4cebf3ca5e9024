"""The Compare view with Monte Carlo tree search: its row beside every depth's, each move's
exact value, and the budget curve's chart (headless)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import pygame
from driving import press, wait_until

from plyground import games
from plyground.ai.compare.exact import exact_values
from plyground.ai.evaluation.wording import board_text
from plyground.gui import chart
from plyground.gui.compare.charts import budget_chart
from plyground.gui.compare.scene import CompareScene
from plyground.gui.compare.table import row_cells


def test_the_view_shows_mcts_each_moves_exact_value_and_the_curve(
    make_app: Callable[..., Any],
) -> None:
    app = make_app((800, 600))
    game = games.get_game("tictactoe")
    state = game.replay(game.parse_moves("5"))
    scene = CompareScene(app, game, state, depth=3, autostart=False)
    scene.mcts_iterations = 200
    scene.curve_budgets, scene.curve_positions = (5, 20), 2
    app.push(scene)
    scene.start()
    assert wait_until(app, lambda: not scene.running, 120)
    mcts = [row for row in scene.rows if row.variant == "mcts"]
    assert len(mcts) == 1 and mcts[0].title == "MCTS, 200 iterations"
    assert mcts[0].playouts == 200 and mcts[0].depth == 0
    exact = exact_values(state)
    assert exact is not None and scene.exact == exact
    assert all(row.exact == exact.of(row.move) for row in scene.rows)
    for depth in (1, 3):  # MCTS's row stands beside every depth's
        cells, _ = row_cells(scene.table_state(), "mcts", mcts[0], depth)
        assert cells[0] == "MCTS, 200 iterations"
        assert cells[3] == board_text(exact.values[mcts[0].move], False)  # 'draw', 'loss in 6'
        assert cells[3] in ("draw", "loss in 6")
        assert cells[1].startswith("○")  # a mean of playouts, not drawn as exact
    assert "optimal 1, 3, 7, 9 (solver)" in scene.status(3)
    assert scene.curve is None  # measured on asking: B
    press(app, pygame.K_b)
    assert wait_until(app, lambda: scene.curve is not None and not scene.running, 120)
    curve = scene.curve
    assert curve is not None and [point.iterations for point in curve.points] == [5, 20]
    assert all(point.positions == 2 == len(curve.positions) for point in curve.points)
    surface = pygame.Surface((600, 400))
    figure = budget_chart(curve)
    plot = chart.draw(surface, surface.get_rect(), figure)
    for series in figure.series:
        shares = [y for _, y in series.points]
        assert all(0.0 <= share <= 1.0 for share in shares)
        for (_, share), pixel in zip(series.points, plot.points[series.label], strict=True):
            assert abs(plot.to_data(*pixel)[1] - share) <= 1e-9
    scene.draw(app.screen)  # the whole view with the curve drawn beside the nodes


def test_the_empty_budget_chart_has_the_axes_the_curve_will_have() -> None:
    """Before B the frame's x axis read 1, 1.5, 2 ... 4 "MCTS iterations" and its y axis 0 to 1:
    ticks no budget has.  It shows the budgets to be measured and 0% to 100%, as after."""
    for measuring in (False, True):
        figure = budget_chart(None, measuring, (100, 300, 1_000, 3_000))
        assert figure.x_ticks is not None
        assert [label for _, label in figure.x_ticks] == ["100", "300", "1,000", "3,000"]
        assert figure.x_label == "MCTS iterations (log scale)"
        assert figure.y_format == "{:.0%}" and figure.y_range == (0.0, 1.05)
        assert not figure.series and figure.note
    assert budget_chart(None, budgets=(5, 20)).x_ticks == [
        (math.log10(5), "5"),
        (math.log10(20), "20"),
    ]
