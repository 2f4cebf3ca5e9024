"""Playing by keyboard alone: the board cursor, Enter/Space/Down, the hint key, Esc's order,
the new-game confirmation and the F1 card, all from one key table."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pygame
import pytest

from plyground import games
from plyground.gui import app as app_module
from plyground.gui import kits
from plyground.gui.play import keyboard
from tests import nim_game, nim_kit
from tests.gui.driving import click, click_button, press, pump, start_game, wait_until


def moves(play: Any) -> list[Any]:
    return list(play.controller.history.moves)


def test_tictactoe_cursor_moves_over_the_grid_and_enter_or_space_plays(make_app):
    app = make_app()
    play = start_game(app, "tictactoe")
    assert play.context().cursor is None  # hidden until an arrow is pressed
    press(app, pygame.K_RIGHT)  # the first press shows it in the centre
    assert play.context().cursor == 4
    press(app, pygame.K_RIGHT)
    press(app, pygame.K_UP)
    assert play.context().cursor == 2
    press(app, pygame.K_UP)  # the edge: it stays
    assert play.context().cursor == 2
    press(app, pygame.K_RETURN, "\r", frames=3)
    assert moves(play) == [2]
    press(app, pygame.K_DOWN)  # in a grid ↓ moves the cursor, it does not play
    assert play.context().cursor == 5 and moves(play) == [2]
    press(app, pygame.K_SPACE, " ", frames=3)
    assert moves(play) == [2, 5]
    press(app, pygame.K_KP_ENTER, frames=3)  # a taken square: refused, nothing played
    assert moves(play) == [2, 5]
    app.mouse_override = (5, 5)  # the mouse moves: the keyboard's cursor hides
    assert play.context().cursor is None


def test_connect4_cursor_moves_along_the_top_and_down_enter_space_drop(make_app):
    app = make_app()
    play = start_game(app, "connect4")
    press(app, pygame.K_LEFT)
    assert play.context().cursor == 3  # the middle column first
    press(app, pygame.K_RIGHT)
    press(app, pygame.K_DOWN, frames=3)
    assert moves(play) == [4]
    press(app, pygame.K_LEFT)
    press(app, pygame.K_LEFT)
    press(app, pygame.K_RETURN, "\r", frames=3)
    press(app, pygame.K_SPACE, " ", frames=3)
    assert play.controller.game.format_moves(moves(play)) == "533"
    for _ in range(9):
        press(app, pygame.K_RIGHT)
    assert play.context().cursor == 6  # stops at the last column
    press(app, pygame.K_UP)
    assert play.context().cursor == 6 and len(moves(play)) == 3


def test_enter_with_no_cursor_shows_it_first(make_app):
    app = make_app()
    play = start_game(app, "connect4")
    press(app, pygame.K_RETURN, "\r", frames=3)
    assert moves(play) == [] and play.context().cursor == 3
    press(app, pygame.K_RETURN, "\r", frames=3)
    assert moves(play) == [3]


@pytest.fixture
def nim() -> Iterator[str]:
    """Nim registered for one test: its kit has no cursor hook of its own."""
    games.register(nim_game.Game)
    kits.register_kit(nim_game.Game.name, nim_kit.NimKit)
    try:
        yield nim_game.Game.name
    finally:
        games.GAMES.pop(nim_game.Game.name, None)
        kits.unregister_kit(nim_game.Game.name)


def test_a_kit_without_a_cursor_gets_the_default_and_the_move_named(nim, make_app):
    app = make_app()
    play = start_game(app, nim)
    legal = list(play.controller.state.legal_moves())
    press(app, pygame.K_RIGHT)
    press(app, pygame.K_RIGHT)
    assert play.model.cursor_shown(app.mouse()) == legal[1]
    text = play.controller.game.format_move(legal[1])
    assert play.controller.current_notice() == f"Selected {text} · Enter plays it"
    press(app, pygame.K_RETURN, "\r", frames=3)
    assert moves(play) == [legal[1]]


@pytest.mark.slow
def test_the_hint_key_asks_for_a_hint(make_app):
    app = make_app()
    play = start_game(app, "tictactoe")
    for key in "15":
        press(app, ord(key), key, frames=3)
    press(app, pygame.K_i, "i")
    assert play.controller.jobs.job is not None and play.controller.jobs.job.kind == "analyse"
    assert wait_until(app, lambda: play.controller.hint is not None)
    assert play.controller.hint in play.controller.state.legal_moves()


def test_esc_closes_an_open_drop_down_then_leaves(make_app):
    app = make_app()
    play = start_game(app, "tictactoe")
    menu = play.role_menus[0]
    click(app, menu.rect.center)
    assert menu.current_state is menu.menu_states["expanded"]
    press(app, pygame.K_ESCAPE, frames=2)
    assert app.scene is play and menu.current_state is menu.menu_states["closed"]
    press(app, pygame.K_ESCAPE)
    assert type(app.scene).__name__ == "SetupScene"


def test_new_game_asks_first_during_a_game_by_key_and_by_button(make_app):
    app = make_app()
    play = start_game(app, "connect4")
    press(app, pygame.K_n, "n")  # nothing played yet: at once
    assert play.confirm is None
    for key in "44":
        press(app, ord(key), key, frames=3)
    press(app, pygame.K_n, "n")
    assert play.confirm is not None and moves(play) == [3, 3]
    press(app, pygame.K_4, "4", frames=3)  # the confirmation is modal: no move behind it
    assert moves(play) == [3, 3]
    press(app, pygame.K_ESCAPE)  # Esc keeps playing (and does not leave the screen)
    assert play.confirm is None and app.scene is play and moves(play) == [3, 3]
    click_button(app, play.buttons["new"])
    assert play.confirm is not None
    click_button(app, play.confirm.confirm_button, frames=3)
    assert play.confirm is None and moves(play) == []


def test_the_f1_card_lists_every_key_of_the_table(make_app):
    lines = app_module.help_keys()
    for binding in keyboard.PLAY_KEYS:
        if binding.help:
            assert (keyboard.key_label(binding.keys), binding.help) in lines
    listed = {label for label, _ in lines}
    assert {"I", "← → ↑ ↓", "Enter  /  Space  /  ↓", "Home  /  End"} <= listed
    assert keyboard.key_label(((pygame.K_z, keyboard.CTRL), (pygame.K_u, 0))) == "Ctrl+Z  /  U"
    app = make_app((800, 600))
    start_game(app, "pig")
    press(app, pygame.K_F1)
    assert app.show_help
    pump(app, 2)  # drawn in one column at the smallest size
    press(app, pygame.K_a, "a")  # any key closes it (and does nothing else)
    assert not app.show_help
    assert not app.settings.show_analysis


def test_every_key_in_the_table_is_one_the_scene_acts_on():
    actions = {b.action for b in keyboard.PLAY_KEYS}
    handled = {"cursor", "play_cursor", "browse_step", "browse_ends", "scroll"}
    scene_actions = {"back", "new", "undo", "redo", "hint", "pause", "step", "analysis"}
    scene_actions |= {
        "mute",
        "save",
        "open",
        "series",
        "explore",
        "compare",
        "policy",
        "whole_analysis",
        "copy",
    }
    assert actions == handled | scene_actions | {"move_now", "retry"}
    for i, binding in enumerate(keyboard.PLAY_KEYS):  # each reachable by one of its keys
        earlier = {(key, b.when) for b in keyboard.PLAY_KEYS[:i] for key in b.keys}
        assert any((key, binding.when) not in earlier for key in binding.keys), binding
