"""The caption over the board's values: it names the side whose values they are (the AI's
own view or advice for a person), carries the one short legend, and fits at every window
size without covering the status line or anything the board draws."""

from __future__ import annotations

import pygame
import pytest
from driving import pump

from plyground.gui import screenshot

SIZES = ((800, 600), (1280, 800), (1366, 768), (1920, 1080))
POSITIONS = {"tictactoe": "51", "connect4": "4444", "pig": "r6r6r4r4"}
"""Positions where the first player is to move (its values are shown)."""


def _analysed(size, game, players, moves=None):
    """A headless app with the analysed position on top, as `screenshot --scene analysis`."""
    from plyground.gui import screenshot
    from plyground.gui.app import App
    from plyground.gui.scenes.menu import MenuScene

    app = App(size, headless=True, use_saved_settings=False)
    app.settings.show_analysis = True
    app.settings.sides[game] = screenshot._sides(game, players)
    app.push(MenuScene(app))
    screenshot._push_play(app, "analysis", game, POSITIONS[game] if moves is None else moves, {})
    pump(app, 2)
    return app, app.scene


@pytest.mark.parametrize("game", sorted(POSITIONS))
def test_the_caption_names_the_side_and_whose_view(game):
    from plyground.gui.play import values_caption

    for players, role in ((["human", "Medium"], "you, to move"), (["Medium", "human"], "AI")):
        app, play = _analysed((1280, 800), game, players)
        try:
            controller = play.controller
            lines = values_caption.caption_lines(controller)
            assert lines is not None, "values are on the board, so a caption says whose"
            player, whose, legend = lines
            assert player == 0 == controller.state.player
            name = controller.colour_names()[0]
            assert whose.startswith(f"Values for {name} ({role}")
            assert ("advice" in whose) == (role != "AI")
            assert ("its own search" in whose) == (role == "AI")
            assert "source: " in whose
            assert legend.startswith("Key: ")
            assert legend.removeprefix("Key: ").split(" · ")[0] in _short_legend(controller)
            assert legend.startswith("Key: ")
        finally:
            app.quit(save=False)


def _short_legend(controller):
    from plyground.ai.evaluation.wording import short_legend

    values = controller.browse.shown_values().values.values()
    return short_legend(bool(controller.game.stochastic), values)


def test_the_legend_lists_the_kinds_on_the_board():
    from plyground.ai.evaluation.wording import short_legend
    from plyground.gui.play import values_caption

    app, play = _analysed((1280, 800), "connect4", ["human", "Medium"], moves="4")
    try:
        values = list(play.controller.browse.shown_values().values.values())
        legend = values_caption.caption_lines(play.controller)[2]
        assert legend == "Key: " + " · ".join(short_legend(False, values))
    finally:
        app.quit(save=False)


def test_no_caption_without_values():
    from plyground.gui.play import values_caption

    app, play = _analysed((1280, 800), "tictactoe", ["human", "Medium"])
    try:
        play.controller.settings.show_analysis = False
        play.controller.jobs.board = None
        assert values_caption.caption_lines(play.controller) is None
        assert values_caption.reserved(play.model, app.metrics) == 0
        assert values_caption.layout(play.model, play.screen()) == []
    finally:
        app.quit(save=False)


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", sorted(POSITIONS))
def test_the_caption_fits_between_the_status_line_and_the_board(game, size):
    from plyground.gui.play import values_caption

    for players in (["human", "Medium"], ["Medium", "human"]):
        app, play = _analysed(size, game, players)
        try:
            strip = values_caption.caption_rect(play.model, app.metrics, play.header_rect())
            board, header = play.board_rect(), play.header_rect()
            assert strip.top > header.bottom and strip.bottom <= board.top
            assert not strip.colliderect(board) and not strip.colliderect(play.panel_rect())
            placed = values_caption.layout(play.model, play.screen())
            compact = values_caption.compact_board(play.model, play.screen())
            _player, *texts = values_caption.caption_lines(play.controller, compact)
            assert [text for text, _size, _rect in placed] == texts, "shortened: no room"
            for _text, text_size, rect in placed:
                assert strip.contains(rect), (rect, strip)
                assert text_size >= values_caption.SMALLEST
            _assert_board_draws_nothing_in(play, strip)
        finally:
            app.quit(save=False)


def _assert_board_draws_nothing_in(play, strip):
    """The board's kit (the Pig buttons, connect-four's preview disc...) leaves the strip be:
    the frame is the same there with and without the board drawn."""
    surface = play.app.screen
    frames = []
    for draw_board in (True, False):
        surface.fill((0, 0, 0))
        if draw_board:
            state = play.controller.browse.shown_state()
            play.view.draw(surface, play.board_rect(), state, play.context())
        frames.append(pygame.image.tobytes(surface.subsurface(strip), "RGB"))
    assert frames[0] == frames[1]


def test_compare_writes_values_with_their_kind_and_shows_the_key():
    from plyground import games
    from plyground.ai.compare.comparison import Row
    from plyground.gui.compare.table import TableState, key_text, value_cell

    game = games.get_game("connect4")
    rows = [
        Row("minimax", "minimax", 3, value=0.178, kind="estimate", source="heuristic"),
        Row("alphabeta", "alpha-beta", 3, value=0.178, kind="estimate", source="heuristic"),
        Row("minimax", "minimax", 9, value=0.97, kind="exact", source="search"),
    ]
    assert value_cell(game, rows[0]) == "est. +0.18"
    assert value_cell(game, Row("x", "x", 3, value=0.5)) == "+0.500"  # no kind: the number
    state = TableState(game, {}, [], rows, depth=3, status="")
    assert key_text(state) == "Key: est.: estimate"
    assert key_text(TableState(game, {}, [], rows, depth=9, status="")).startswith("Key: win in")
    assert key_text(TableState(game, {}, [], [], depth=3, status="")) == ""


class _Stub:
    """Just what `values_caption.whose_values` reads of a controller."""

    def __init__(self, roles, browsing=False):
        from types import SimpleNamespace

        from plyground.ai.evaluation.provenance import Evaluation, Kind, Source

        self.roles, self.browsing = roles, browsing
        value = Evaluation(0.0, Kind.EXACT, Source.SOLVER)
        self.values = SimpleNamespace(values={4: value})
        self.game = SimpleNamespace(stochastic=False)
        self.browse = self  # the part that knows the position shown

    def shown_values(self):
        return self.values

    def shown_state(self):
        from types import SimpleNamespace

        return SimpleNamespace(player=1)

    def colour_names(self):
        return ("Red", "Yellow")

    def is_human(self, player):
        return not self.roles[player].startswith("AI")

    def player_roles(self):
        return self.roles


def test_the_wording_for_each_kind_of_side():
    from plyground.gui.play.values_caption import caption_lines, whose_values

    cases = {
        ("You", "AI · Hard"): "Values for Yellow (AI, to move) · its own search",
        ("AI · Hard", "You"): "Values for Yellow (you, to move) · advice",
        ("Human", "Human"): "Values for Yellow (to move) · advice",
        ("AI · Hard", "AI · Easy"): "Values for Yellow (AI, to move) · its own search",
    }
    for roles, text in cases.items():
        assert whose_values(_Stub(roles)) == (1, text)
    assert whose_values(_Stub(("You", "AI · Hard"), browsing=True)) == (
        1,
        "Values for Yellow (to move here) · advice",
    )
    _player, whose, legend = caption_lines(_Stub(("AI · Hard", "You")))
    assert whose.endswith("· source: solver") and legend == "Key: draw: exact"


def test_a_long_line_loses_its_sources_before_its_side():
    from plyground.gui.play.values_caption import fitted

    app, play = _analysed((800, 600), "connect4", ["Medium", "human"])
    try:
        long = (
            "Values for Red (AI, to move) · its own search · "
            "source: heuristic at depth 6, opening book, searched to the end"
        )
        width = values_caption_width(play)
        shown, _size = fitted(long, width, app.metrics)
        assert shown == "Values for Red (AI, to move) · its own search"
    finally:
        app.quit(save=False)


def values_caption_width(play):
    from plyground.gui.play import values_caption

    return values_caption.caption_rect(
        play.model, play.app.metrics, play.header_rect()
    ).width - play.app.metrics.px(values_caption.DOT_ROOM)


@pytest.mark.parametrize("size", [(800, 600), (1024, 640), (1280, 658), (1366, 768), (1920, 1080)])
def test_connect_four_s_values_under_the_board_keep_their_count(size):
    """Each column's value is drawn whole on one line: in words where they fit, else 'W21'."""
    from plyground.ai.evaluation.wording import board_text, compact_text
    from plyground.gui.widgets import text_audit

    app = screenshot.open_scene(
        "review", "connect4", "445544336", size, {"at": 6, "show_analysis": True}
    )
    try:
        play = app.scene
        values = play.controller.browse.shown_values().values
        with text_audit.TextRecorder() as recorder:
            app.request_frame()
            app.draw()
        drawn = {text.text for text in recorder.texts}
        for value in values.values():
            assert board_text(value, False) in drawn or compact_text(value, False) in drawn
        assert not any(text in drawn for text in ("win", "loss", "in", "lo..."))
    finally:
        app.quit(save=False)
