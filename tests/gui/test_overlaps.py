"""Things on screen that must not cover each other (issue 15's overlaps)."""

from __future__ import annotations

import pygame
from driving import click, pump, start_game


def test_an_open_drop_down_list_is_as_wide_as_its_box(make_app):
    app = make_app()
    play = start_game(app, "connect4", ("human", "human"))
    menu = play.role_menus[1]
    click(app, menu.rect.center)
    listing = menu.current_state.options_selection_list
    assert listing is not None, "the drop-down did not open"
    assert listing.rect.left == menu.rect.left and listing.rect.width == menu.rect.width


def test_a_toast_in_play_stays_under_the_status_line(make_app):
    app = make_app()
    play = start_game(app, "tictactoe", ("human", "human"))
    app.toast("Saved to /somewhere/a-rather-long-file-name-for-a-saved-game.json")
    pump(app, 2)
    area = play.toast_area()
    assert area.top > play.header_rect().bottom
    assert not area.colliderect(play.panel_rect())


def test_no_tool_tip_while_the_file_dialog_is_up(make_app):
    app = make_app()
    play = start_game(app, "tictactoe", ("human", "human"))
    button = play.buttons["save"]
    app.mouse_override = button.rect.center
    pygame.mouse.set_pos(button.rect.center)
    button.hover_time = 5.0
    button.tool_tip_delay = 0.0
    pump(app, 3)
    play.open_file_dialog("save")
    assert button.tool_tip is None
    button.hover_time = 5.0
    pump(app, 3)
    assert button.tool_tip is None
    play.close_file_dialog()
    assert button.tool_tip_delay == 1.0


def test_pigs_flag_keeps_clear_of_the_highest_score():
    from gui import drawing
    from gui.kits.pig import score_size, score_width

    for unit in (30.0, 45.0, 60.0, 80.0, 100.0):
        for goal in (10, 30, 100, 500, 1000):
            lane_right = 1000
            flag_right = lane_right - score_width(unit, goal) + unit * 0.54
            text = str(goal + 5)
            score_left = (
                lane_right - unit * 0.3 - drawing.text_size(text, score_size(unit), "bold")[0]
            )
            assert flag_right < score_left, (unit, goal)
