"""Esc closes an open list before it leaves a screen, on every screen; F1 lists the keys of
the screen you are in."""

from __future__ import annotations

from typing import Any

import pygame
import pytest
from driving import click, press, pump

from plyground.gui import app as app_module
from plyground.gui import screenshot
from plyground.gui.widgets import focus


def _open_list(app: Any) -> Any:
    """Open the first drop-down of the screen with a click; it is open afterwards."""
    menus = [w for w in app.scene.widgets if getattr(w, "menu_states", None) is not None]
    assert menus, "the screen has no drop-down"
    click(app, menus[0].rect.center)
    assert focus.is_expanded(menus[0])
    return menus[0]


@pytest.mark.parametrize(
    ("scene", "game", "moves", "options"),
    [
        ("lesson", "tictactoe", "", {"lesson": 1}),
        ("explorer", "tictactoe", "5193", {}),
        ("compare", "tictactoe", "5193", {"depth": 2}),
    ],
)
def test_esc_closes_an_open_list_first_and_the_screen_stays(
    scene: str, game: str, moves: str, options: dict[str, Any]
) -> None:
    app = screenshot.open_scene(scene, game, moves, (1280, 720), options)
    try:
        pump(app, 2)
        shown = app.scene
        menu = _open_list(app)
        press(app, pygame.K_ESCAPE, frames=3)
        assert app.scene is shown, "Esc left the screen with a list open"
        assert not focus.is_expanded(menu)
        press(app, pygame.K_ESCAPE, frames=2)
        assert app.scene is not shown  # the next Esc goes back
    finally:
        app.quit(save=False)


@pytest.mark.parametrize(
    ("scene", "options", "expected", "absent"),
    [
        ("lesson", {"lesson": 1}, "one step of the search back / on", "undo"),
        ("compare", {"depth": 2}, "run every algorithm to the depth chosen", "undo"),
        ("play", {}, "undo", "one step of the search back / on"),
        ("menu", {}, "lessons: search trees from the textbook", "undo"),
    ],
)
def test_f1_lists_the_keys_of_the_screen_you_are_in(
    scene: str, options: dict[str, Any], expected: str, absent: str
) -> None:
    app = screenshot.open_scene(scene, "tictactoe", "5193", (1280, 720), options)
    try:
        pump(app, 2)
        lines = app_module.help_keys(app.scene)
        texts = " | ".join(text for _, text in lines)
        assert expected in texts and absent not in texts.lower()
        assert lines[-1][0] == "F1  or  ?"
    finally:
        app.quit(save=False)
