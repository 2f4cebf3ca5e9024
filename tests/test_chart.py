"""plyground.gui.chart: ticks, scales, and the chart's points are exactly the numbers given."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest

from plyground import games
from plyground.ai.compare import comparison as compare
from plyground.ai.evaluation.numbers import compact
from plyground.gui import chart, theme
from plyground.gui.compare.charts import nodes_chart, policy_charts


@pytest.fixture(autouse=True)
def fonts() -> None:
    pygame.font.init()


def test_ticks() -> None:
    assert chart.nice_ticks(0, 10) == [0, 2, 4, 6, 8, 10]
    assert chart.nice_ticks(0, 1, 4) == [0, 0.5, 1]
    assert chart.log_ticks(3, 40_000) == [1, 10, 100, 1000, 10_000, 100_000]
    assert [compact(v) for v in (5, 1000, 25_000, 3e6, 1e9)] == [
        "5",
        "1k",
        "25k",
        "3M",
        "1G",
    ]


def test_the_nodes_chart_shows_the_table_numbers() -> None:
    game = games.get_game("connect4")
    result = compare.compare(game.replay(game.parse_moves("4453")), [1, 2, 3, 4])
    figure = nodes_chart(result)
    surface = pygame.Surface((900, 560))
    plot = chart.draw(surface, surface.get_rect(), figure)
    assert plot.log_y and plot.y_range[0] <= 1 and plot.y_range[1] >= 2717
    for title, points in result.series().items():
        pixels = plot.points[title]
        assert len(pixels) == len(points)
        for (depth, nodes), pixel in zip(points, pixels, strict=True):
            x, y = plot.to_data(*pixel)
            assert x == pytest.approx(depth) and y == pytest.approx(nodes, rel=1e-9)
    minimax = [n for d, n in result.series()["minimax"]]
    assert minimax == [8, 57, 400, 2717]
    theory = [s for s in figure.series if s.faint]
    assert len(theory) == 2 and theory[0].points[1] == (2.0, result.branching**2)


def test_skipped_runs_are_not_points() -> None:
    game = games.get_game("tictactoe")
    result = compare.compare(
        game.initial_state(), [1, 2, 3], skip=lambda v, d, g: v == "minimax" and d == 3
    )
    assert [d for d, _ in result.series()["minimax"]] == [1, 2]


def test_bars_with_error_bars_for_ratings() -> None:
    figure = chart.Chart(
        title="Ratings",
        y_label="Elo",
        series=[
            chart.Series(
                "rating",
                [(0, 1500.0), (1, 1620.0), (2, 1380.0)],
                kind="bars",
                colour=theme.ACCENT,
                errors=[(1450, 1550), (1570, 1670), (1330, 1430)],
            )
        ],
        x_ticks=[(0, "Easy"), (1, "Hard"), (2, "Random")],
    )
    surface = pygame.Surface((700, 420))
    plot = chart.draw(surface, surface.get_rect(), figure)
    assert plot.y_range[0] <= 0 and plot.y_range[1] >= 1670
    x, y = plot.to_pixel(1, 800)
    assert surface.get_at((round(x), round(y)))[:3] == theme.ACCENT


def test_render_and_save(tmp_path: object) -> None:
    figure = chart.Chart(
        series=[chart.Series("a", [(0, 1), (1, 3)])], markers=[chart.Marker(1, 3, "here")]
    )
    image = chart.render(figure, (640, 400))
    assert image.get_size() == (640, 400)
    path = os.path.join(str(tmp_path), "c.png")
    chart.save(image, path)
    assert pygame.image.load(path).get_size() == (640, 400)


def test_policy_picture_reads_into_charts() -> None:
    game = games.get_game("pig", goal=20)
    state = game.replay(game.parse_moves("r4r6h r5"))
    picture = game.policy_picture(state, "hold")  # type: ignore[attr-defined]
    boundary, surface = policy_charts(picture)
    assert boundary.series[1].kind == "step" and boundary.markers[0].x == 0
    assert boundary.markers[0].y == 5 and surface.heat is not None
    assert len(surface.heat.values) == 20 and len(surface.heat.values[0]) == 20
    image = chart.render_panels([boundary, surface], (1000, 480))
    assert image.get_size() == (1000, 480)


def test_the_depth_axis_counts_decisions_as_every_view_does() -> None:
    pig = games.get_game("pig", goal=20)
    figure = nodes_chart(compare.compare(pig.replay(pig.parse_moves("r4")), [1, 2]))
    assert figure.x_label == "depth (decisions)"  # chance layers use no depth: never plies
