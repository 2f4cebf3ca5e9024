"""The menu and set-up by keyboard alone: arrows move the focus ring, Enter uses it, Esc
closes an open drop-down before it leaves; Enter in the save dialog's name box saves."""

from __future__ import annotations

import json
from typing import Any

import pygame

from plyground.gui.scenes.menu import game_cards
from plyground.gui.setup import custom_ai
from tests.gui.driving import press, pump, start_game


def _setup(app: Any, game: str) -> Any:
    """The set-up scene of `game`, reached from the menu by keys only."""
    pump(app, 2)
    names = [name for name, _, _ in game_cards()]
    press(app, pygame.K_RIGHT)  # the first press shows the ring on the first card
    for _ in range(names.index(game)):
        press(app, pygame.K_RIGHT)
    press(app, pygame.K_RETURN, "\r")
    assert type(app.scene).__name__ == "SetupScene" and app.scene.game_name == game
    return app.scene


def test_menu_arrows_move_the_ring_over_cards_and_buttons_and_enter_opens(make_app):
    app = make_app()
    pump(app, 2)
    menu = app.scene
    names = [name for name, _, _ in game_cards()]
    press(app, pygame.K_RIGHT)
    assert menu.focus.key == ("card", names[0])
    press(app, pygame.K_LEFT)  # nothing further left: the ring stays
    assert menu.focus.key == ("card", names[0])
    press(app, pygame.K_RIGHT)
    assert menu.focus.key == ("card", names[1])
    pump(app, 20)
    assert menu.hover_lift[1] > 0.9  # the focused card is lifted like a hovered one
    press(app, pygame.K_DOWN)  # down from the cards: the buttons at the bottom
    assert menu.focus.key[0] == "button"
    press(app, pygame.K_UP)
    assert menu.focus.key[0] == "card"
    menu.focus.key = ("button", "lessons")
    press(app, pygame.K_RETURN, "\r", frames=3)  # a button is pressed as a click would
    assert type(app.scene).__name__ == "ExplorerScene"
    press(app, pygame.K_ESCAPE)
    assert app.scene is menu
    menu.focus.key = ("card", names[1])
    press(app, pygame.K_SPACE, " ")
    assert type(app.scene).__name__ == "SetupScene" and app.scene.game_name == names[1]


def test_setup_arrows_enter_and_sliders(make_app):
    app = make_app()
    setup = _setup(app, "connect4")
    press(app, pygame.K_DOWN)  # the ring appears on the first field: the first matchup
    assert setup.focus.key == ("matchup", 0)
    press(app, pygame.K_RIGHT)
    press(app, pygame.K_RIGHT)
    assert setup.focus.key == ("matchup", 2)
    press(app, pygame.K_RETURN, "\r", frames=3)
    assert [s.kind for s in setup.sides] == ["human", "human"]
    assert setup.focus.key == ("matchup", 2)  # kept across the rebuild
    press(app, pygame.K_RIGHT)
    press(app, pygame.K_RETURN, "\r", frames=3)
    assert [s.kind for s in setup.sides] == ["ai", "ai"]
    press(app, pygame.K_DOWN)  # from the matchups down into the side cards
    assert setup.focus.key[0] in ("kind_human", "kind_ai")
    setup.focus.key = ("volume", -1)
    before = app.settings.sound_volume
    press(app, pygame.K_LEFT, frames=2)  # a slider takes Left/Right itself
    assert app.settings.sound_volume == round(before - 0.1, 2)
    assert setup.focus.key == ("volume", -1)


def test_setup_dropdown_by_keys_and_esc_closes_it_before_leaving(make_app):
    app = make_app()
    setup = _setup(app, "connect4")
    setup.sides[0].kind = "ai"
    setup.sides[0].preset = setup.presets[0]
    setup.rebuild()
    setup.focus.key = ("preset", 0)
    menu = next(w for w, key in setup.form.ids.items() if key == ("preset", 0))
    press(app, pygame.K_RETURN, "\r", frames=2)  # Enter opens the focused drop-down
    assert menu.current_state is menu.menu_states["expanded"]
    press(app, pygame.K_DOWN)
    press(app, pygame.K_DOWN)
    assert setup.focus.option == 1
    assert len(setup.focus.ring_rects(setup.focus_items())) == 2  # the field and its option
    press(app, pygame.K_RETURN, "\r", frames=4)
    assert setup.sides[0].preset == setup.presets[1]
    menu = next(w for w, key in setup.form.ids.items() if key == ("preset", 0))
    press(app, pygame.K_RETURN, "\r", frames=2)
    assert menu.current_state is menu.menu_states["expanded"]
    press(app, pygame.K_ESCAPE, frames=2)  # Esc closes the list, the screen stays
    assert app.scene is setup and menu.current_state is menu.menu_states["closed"]
    press(app, pygame.K_ESCAPE)
    assert type(app.scene).__name__ == "MenuScene"


def test_custom_ai_fields_are_their_own_module(make_app):
    app = make_app()
    setup = _setup(app, "connect4")
    setup.sides[1].kind = "ai"
    setup.sides[1].preset = "Custom"
    setup.rebuild()
    actions = {key for key in setup.form.ids.values()}
    assert {("algorithm", 1), ("depth", 1), ("heuristic", 1), ("time", 1)} <= actions
    assert custom_ai.snap_randomness(0.337) == 0.35
    pump(app, 2)


def test_enter_in_the_save_dialogs_name_box_saves(make_app, tmp_path):
    app = make_app()
    play = start_game(app, "connect4", ("human", "human"))
    for key in "44":
        press(app, ord(key), key, frames=3)
    press(app, pygame.K_s, "\x13", mod=pygame.KMOD_CTRL)
    dialog = play.file_dialog
    assert dialog is not None
    target = tmp_path / "by-enter.json"
    box = dialog.file_path_text_line
    box.set_text(str(target))
    app.manager.set_focus_set(box)
    press(app, pygame.K_RETURN, "\r", frames=5)
    assert target.exists(), "Enter in the name box saved the game"
    assert json.loads(target.read_text())["moves"] == "44"
    assert play.file_dialog is None and app.scene is play


def test_esc_in_the_dialogs_name_box_closes_the_dialog_not_the_screen(make_app):
    app = make_app()
    play = start_game(app, "tictactoe", ("human", "human"))
    press(app, pygame.K_s, "\x13", mod=pygame.KMOD_CTRL)
    app.manager.set_focus_set(play.file_dialog.file_path_text_line)
    press(app, pygame.K_ESCAPE)
    assert play.file_dialog is None and app.scene is play


def test_the_seed_box_by_keys_and_esc_gives_the_keys_back(make_app):
    app = make_app()
    setup = _setup(app, "pig")
    setup.focus.key = ("seed", -1)
    entry = next(w for w, key in setup.form.ids.items() if key == ("seed", -1))
    press(app, pygame.K_RETURN, "\r", frames=2)  # Enter on the box: its text takes the keys
    assert app._typing()
    entry.set_text("")
    for digit in "42":  # typed text, as SDL sends it to a text box
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=digit))
        pump(app, 1)
    press(app, pygame.K_n, "n")  # a shortcut key is text here, not New game
    assert app.scene is setup and app._typing()
    assert entry.get_text() == "42" and setup.seed_text == "42"
    press(app, pygame.K_ESCAPE, frames=2)  # Esc lets go of the box, the screen stays
    assert app.scene is setup and not app._typing()
    press(app, pygame.K_ESCAPE)
    assert type(app.scene).__name__ == "MenuScene"
