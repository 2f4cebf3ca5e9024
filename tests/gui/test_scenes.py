"""Menu, set-up, play and game over driven with real events; keys; help; resizing."""

from __future__ import annotations

import pygame
import pytest
from driving import choose_option, click, click_button, press, pump, start_game

from plyground.gui.play.scene import PlayScene
from plyground.gui.scenes.menu import MenuScene
from plyground.gui.setup.scene import SetupScene


def test_menu_opens_setup_and_back(make_app):
    app = make_app()
    pump(app, 2)
    assert isinstance(app.scene, MenuScene)
    click(app, app.scene.card_rects()[0].center)
    assert isinstance(app.scene, SetupScene) and app.scene.game_name == "tictactoe"
    press(app, pygame.K_ESCAPE)
    assert isinstance(app.scene, MenuScene)
    press(app, pygame.K_3, "3")
    assert isinstance(app.scene, SetupScene) and app.scene.game_name == "pig"


def test_menu_quit_button(make_app):
    app = make_app()
    pump(app, 2)
    click_button(app, app.scene.quit_button)
    assert not app.running


def test_setup_matchups_are_one_click(make_app):
    app = make_app()
    pump(app)
    press(app, pygame.K_2, "2")
    setup = app.scene
    for label, kinds in (
        ("AI vs AI", ("ai", "ai")),
        ("Human vs Human", ("human", "human")),
        ("AI vs Human", ("ai", "human")),
        ("Human vs AI", ("human", "ai")),
    ):
        button = next(
            w
            for w, (action, _) in setup.form.ids.items()
            if action == "matchup" and w.text == label
        )
        click_button(app, button)
        assert tuple(side.kind for side in setup.sides) == kinds


def test_setup_custom_ai_fields(make_app):
    app = make_app()
    pump(app)
    press(app, pygame.K_2, "2")
    setup = app.scene
    preset_menu = next(
        w for w, (action, index) in setup.form.ids.items() if action == "preset" and index == 1
    )
    choose_option(app, preset_menu, "Custom")
    assert setup.sides[1].preset == "Custom"
    algorithm_menu = next(w for w, (action, _) in setup.form.ids.items() if action == "algorithm")
    choose_option(app, algorithm_menu, "Minimax")
    assert setup.sides[1].custom.algorithm == "minimax"
    heuristic_menu = next(w for w, (action, _) in setup.form.ids.items() if action == "heuristic")
    choose_option(app, heuristic_menu, "centre")
    assert setup.sides[1].custom.heuristic == "centre"
    time_menu = next(w for w, (action, _) in setup.form.ids.items() if action == "time")
    choose_option(app, time_menu, "1 s")
    assert setup.sides[1].custom.time_limit == 1.0
    description = setup.game.heuristics["centre"].description
    assert any(description in lines for _, lines in setup.form.descriptions)
    config = setup.sides[1].player_config("connect4")
    assert (config.algorithm, config.heuristic, config.time_limit) == ("minimax", "centre", 1.0)


def test_pig_setup_offers_expectiminimax_and_mcts_only(make_app):
    app = make_app()
    pump(app)
    press(app, pygame.K_3, "3")
    assert app.scene.algorithms == ["expectiminimax", "mcts"]  # no minimax where dice roll


@pytest.mark.slow
def test_tictactoe_full_game_by_keys_then_play_again(make_app):
    app = make_app()
    play = start_game(app, "tictactoe")
    for key in "14253":
        press(app, getattr(pygame, f"K_{key}"), key, frames=3)
    state = play.controller.history.state
    assert state.is_terminal() and state.winner() == 0
    assert tuple(state.winning_line()) == (0, 1, 2)
    pump(app, 30)
    assert play.controller.over_since is not None and "again" in play.buttons
    assert play.controller.score == [1, 0, 0]
    click_button(app, play.buttons["again"])
    assert play.controller.history.state.ply == 0 and "again" not in play.buttons


def test_tictactoe_full_game_by_clicks_ignores_taken_squares(make_app):
    app = make_app()
    play = start_game(app, "tictactoe")
    from plyground.gui.kits.tictactoe import cell_rect, geometry

    def cell_centre(index: int) -> tuple[int, int]:
        board, size = geometry(play.board_rect())
        return cell_rect(board, size, index).center

    for index in (4, 0, 8, 2, 1, 7, 6, 3, 5):
        click(app, cell_centre(index), frames=3)
        if index == 4:
            click(app, cell_centre(4), frames=5)  # taken: a gentle cue, nothing else
            assert play.controller.history.state.ply == 1 and play.model.cue is not None
    state = play.controller.history.state
    assert state.is_terminal() and state.winner() is None
    click(app, (5, app.size[1] - 5))  # outside the board: nothing
    assert play.controller.history.state is state


@pytest.mark.slow
def test_connect4_full_game_by_clicks_and_keys(make_app):
    app = make_app()
    play = start_game(app, "connect4")
    from plyground.gui.kits.connect4 import geometry

    def column_point(col: int) -> tuple[int, int]:
        board, cell = geometry(play.board_rect())
        return (round(board.x + (col + 0.5) * cell), board.y + 10)

    for col in (0, 0, 0, 0, 0, 0):
        click(app, column_point(col), frames=3)
    assert play.controller.history.state.height(0) == 6
    before = play.controller.history.state
    click(app, column_point(0), frames=5)  # full column: only a cue
    assert play.controller.history.state is before and "full" in play.controller.notice[0]
    for key in "4455667":
        press(app, getattr(pygame, f"K_{key}"), key, frames=3)
    pump(app, 40)
    state = play.controller.history.state
    assert state.is_terminal() and state.winner() == 0
    assert sorted(state.winning_line()) == [(3, 0), (4, 0), (5, 0), (6, 0)]
    pump(app, 30)
    assert play.controller.over_since is not None


@pytest.mark.slow
def test_pig_race_by_keys_is_seeded(make_app):
    outcomes = []
    for _ in range(2):
        app = make_app()
        app.settings.set_option("pig", "goal", 20)
        play = start_game(app, "pig")
        assert play.controller.game.goal == 20
        play.controller.animate = False  # dice land at once; the animation has its own test
        presses = 0
        while not play.controller.history.state.is_terminal() and presses < 400:
            state = play.controller.history.state
            key, char = (pygame.K_h, "h") if state.turn_total >= 8 else (pygame.K_r, "r")
            press(app, key, char, frames=3)
            presses += 1
        assert play.controller.history.state.is_terminal()
        outcomes.append(play.controller.game.format_moves(play.controller.history.moves))
        app.quit(save=False)
    assert outcomes[0] == outcomes[1]


@pytest.mark.slow
def test_pig_wipe_out_message(make_app):
    app = make_app()
    app.settings.set_option("pig", "goal", 30)
    play = start_game(app, "pig")
    press(app, pygame.K_r, "r", frames=5)
    assert play.controller.roll is not None, "the die should be rolling"
    pump(app, 40)
    assert play.controller.roll is None and play.model.last_outcome is not None
    play.controller.animate = False  # the rest of the rolls land at once
    for _ in range(60):
        if play.model.message is not None:
            break
        press(app, pygame.K_r, "r", frames=3)
    assert play.model.message is not None and "Rolled a 1" in play.model.message.text


def test_undo_redo_by_keys_and_buttons(make_app):
    app = make_app()
    play = start_game(app, "connect4")
    for key in "4453":
        press(app, getattr(pygame, f"K_{key}"), key, frames=3)
    assert play.controller.game.format_moves(play.controller.history.moves) == "4453"
    press(app, pygame.K_u, "u")
    assert play.controller.game.format_moves(play.controller.history.moves) == "445"
    press(app, pygame.K_z, "\x1a", mod=pygame.KMOD_CTRL)
    assert play.controller.game.format_moves(play.controller.history.moves) == "44"
    press(app, pygame.K_y, "\x19", mod=pygame.KMOD_CTRL)
    assert play.controller.game.format_moves(play.controller.history.moves) == "445"
    click_button(app, play.buttons["redo"])
    assert play.controller.game.format_moves(play.controller.history.moves) == "4453"
    click_button(app, play.buttons["undo"])
    press(app, pygame.K_6, "6", frames=3)
    assert play.controller.game.format_moves(play.controller.history.moves) == "4456"
    assert not play.controller.history.can_redo()
    press(app, pygame.K_n, "n")
    press(app, pygame.K_RETURN, "\r", frames=3)  # a game in progress: confirm
    assert play.controller.history.moves == []


def test_help_overlay_toggles(make_app):
    app = make_app()
    pump(app)
    press(app, pygame.K_F1)
    assert app.show_help
    press(app, pygame.K_SPACE, " ")
    assert not app.show_help
    press(app, pygame.K_SLASH, "?")
    assert app.show_help


def test_escape_walks_back(make_app):
    app = make_app()
    start_game(app, "connect4")
    press(app, pygame.K_ESCAPE)
    assert isinstance(app.scene, SetupScene)
    press(app, pygame.K_ESCAPE)
    assert isinstance(app.scene, MenuScene)


def _check_widgets_fit(app):
    width, height = app.size
    for widget in app.scene.widgets:
        rect = widget.rect
        assert rect.left >= 0 and rect.top >= 0, widget
        assert rect.right <= width and rect.bottom <= height, (widget, rect, app.size)
        text = getattr(widget, "text", None)
        if isinstance(widget, pygame_gui_button()) and text:
            font = widget.font
            assert font.size(text)[0] <= rect.width, (text, rect.width)


def pygame_gui_button():
    import pygame_gui

    return pygame_gui.elements.UIButton


def test_resize_relays_out_every_scene(make_app):
    app = make_app()
    for size in ((800, 600), (1920, 1080), (1280, 800)):
        pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, w=size[0], h=size[1], size=size))
        pump(app, 2)
        assert app.size == size
        _check_widgets_fit(app)
    play = start_game(app, "pig", ("human", "Easy"))
    for size in ((800, 600), (1920, 1080)):
        pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, w=size[0], h=size[1], size=size))
        pump(app, 2)
        assert app.size == size and play.board_rect().width > 200
        _check_widgets_fit(app)


def test_play_scene_is_the_play_scene_class(make_app):
    app = make_app()
    assert isinstance(start_game(app, "tictactoe"), PlayScene)
