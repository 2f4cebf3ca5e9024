"""Compare's theory lines and opening depth, in the window."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import pygame
import pytest
from driving import pump, wait_until

from plyground import games
from plyground.gui.compare.charts import nodes_chart
from plyground.gui.compare.scene import CURVE_DEPTH, CompareScene


@pytest.mark.slow
def test_pig_opens_at_a_curve_and_draws_no_alpha_beta_line(
    make_app: Callable[..., Any],
) -> None:
    app = make_app()
    game = games.get_game("pig", goal=20)
    state = game.replay(game.parse_moves("r4r6h r5"))
    scene = CompareScene(app, game, state, depth=1)  # Pig's presets look one decision ahead
    assert scene.depth == CURVE_DEPTH
    app.push(scene)
    assert wait_until(app, lambda: not scene.running, 60)
    comparison = scene.comparison()
    assert comparison.chance and len(comparison.depths()) == CURVE_DEPTH
    labels = [series.label for series in nodes_chart(comparison).series]
    assert any(label.startswith("b^d") for label in labels)
    assert not any("ceil(d/2)" in label for label in labels)
    pump(app, 3)
    out = os.environ.get("PLYGROUND_SHOT")
    if out:  # a picture to look at: PLYGROUND_SHOT=compare-pig.png
        pygame.image.save(app.screen, out)


@pytest.mark.slow
def test_connect_four_draws_the_minimal_tree_and_says_why_the_engine_counts_more(
    make_app: Callable[..., Any],
) -> None:
    app = make_app()
    game = games.get_game("connect4")
    state = game.replay(game.parse_moves("4453"))
    scene = CompareScene(app, game, state, depth=3)
    app.push(scene)
    assert wait_until(app, lambda: not scene.running, 60)
    labels = [series.label for series in nodes_chart(scene.comparison()).series]
    assert any("ceil(d/2)" in label for label in labels)
    pump(app, 3)
    out = os.environ.get("PLYGROUND_SHOT_C4")
    if out:
        pygame.image.save(app.screen, out)
