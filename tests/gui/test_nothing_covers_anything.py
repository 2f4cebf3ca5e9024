"""Things on screen that must not cover each other ."""

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
    from plyground.gui.kits.pig.board import score_size, score_width
    from plyground.gui.widgets import drawing

    for unit in (30.0, 45.0, 60.0, 80.0, 100.0):
        for goal in (10, 30, 100, 500, 1000):
            lane_right = 1000
            flag_right = lane_right - score_width(unit, goal) + unit * 0.54
            text = str(goal + 5)
            score_left = (
                lane_right - unit * 0.3 - drawing.text_size(text, score_size(unit), "bold")[0]
            )
            assert flag_right < score_left, (unit, goal)


def _analysed_play(size, players):
    """A headless app with an analysed connect-four position on top (as the screenshots)."""
    from plyground.gui import screenshot
    from plyground.gui.app import App
    from plyground.gui.scenes.menu import MenuScene

    app = App(size, headless=True, use_saved_settings=False)
    app.settings.show_analysis = True
    app.settings.sides["connect4"] = screenshot._sides("connect4", players)
    app.push(MenuScene(app))
    screenshot._push_play(app, "analysis", "connect4", "4453443", {})
    pump(app, 2)
    return app, app.scene


def _panel_sections(play):
    from plyground.gui.play import analysis_panel, side_panel

    m = play.app.metrics
    panel = play.panel_rect()
    inner = panel.inflate(-2 * m.gap, 0)
    top, bottom = play.controls_bottom, panel.bottom - m.gap
    analysis, moves = side_panel.sections(play.model, m, top, bottom, inner.width, 0)
    record = side_panel.as_analysis(play.controller.jobs.analysis)
    wanted = analysis_panel.content_height(record, play.controller.game, m, inner.width)
    return panel, top, bottom, analysis, moves, wanted


def _panel_widgets(play):
    panel = play.panel_rect()
    return [w.rect for w in play.widgets if panel.contains(w.rect)]


def test_ai_vs_ai_at_1280x800_shows_every_analysis_row_and_the_move_list():
    app, play = _analysed_play((1280, 800), ["Hard", "Medium"])
    try:
        assert play.controller.ai_vs_ai() and play.controller.jobs.analysis is not None
        _panel, top, _bottom, analysis, moves, wanted = _panel_sections(play)
        assert analysis >= wanted  # every row, in the roomiest layout
        m = app.metrics
        three_rows = round(m.font_size(12) * 1.8 + m.font_size(14) * 1.5 * 3)
        assert moves >= three_rows
        assert all(rect.bottom <= top for rect in _panel_widgets(play))
    finally:
        app.quit(save=False)


def test_the_side_panel_fits_at_800x600():
    for players in (["Hard", "Medium"], ["human", "Medium"]):
        app, play = _analysed_play((800, 600), players)
        try:
            _panel, top, bottom, analysis, _moves, wanted = _panel_sections(play)
            widgets = _panel_widgets(play)
            assert len(widgets) >= 12  # roles, buttons, tools (and AI-vs-AI controls)
            assert all(rect.bottom <= top for rect in widgets)
            # The move list keeps six lines: the analysis shows its title and first
            # rows here, and all of them while pointed at (tests/gui/test_side_panel_text_room.py).
            assert top + analysis <= bottom and analysis >= min(wanted, app.metrics.px(60))
        finally:
            app.quit(save=False)
