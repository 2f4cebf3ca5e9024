"""Preset texts fit their set-up cards at every size, series results
without an infinite Elo and ranked by score, a file dialog scaled to the window, saves in a
visible documents folder, the turn said after opening a game, Pig's die before the first roll,
and a seed box for every game's AI-vs-AI series."""

from __future__ import annotations

import pathlib
from typing import Any

import pygame
import pytest
from driving import pump, start_game

from plyground import games
from plyground.gui import screenshot
from plyground.gui.describe import describe_side
from plyground.gui.play.series_record import GameSeries
from plyground.gui.setup import description_text
from plyground.gui.storage import savefile, settings
from plyground.gui.widgets import drawing

SIZES = [(800, 600), (1280, 800), (1366, 768), (1920, 1080)]


def setup_app(size: tuple[int, int], game: str, preset: str) -> Any:
    """The set-up scene with both sides AI at `preset`."""
    from plyground.gui.app import App
    from plyground.gui.scenes.menu import MenuScene
    from plyground.gui.setup.scene import SetupScene

    app = App(size, headless=True, use_saved_settings=False)
    app.settings.sides[game] = screenshot._sides(game, [preset, preset])
    app.push(MenuScene(app))
    app.push(SetupScene(app, game))
    pump(app, 1)
    return app


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", list(games.GAMES))
def test_every_preset_text_fits_its_card(size: tuple[int, int], game: str) -> None:
    for preset in settings.preset_names(game):
        app = setup_app(size, game, preset)
        try:
            scene, m = app.scene, app.metrics
            assert len(scene.form.descriptions) == 2
            for rect, lines in scene.form.descriptions:
                card = next(c for c in scene.form.card_rects if c.collidepoint(rect.topleft))
                assert rect.bottom <= card.bottom
                sizes = description_text.fit(lines, rect.width, rect.height, m)
                needed = description_text.height(lines, rect.width, sizes, m)
                assert needed <= rect.height, (game, preset, size, needed, rect.height)
                for i, piece, font in description_text.pieces(lines, rect.width, sizes, m):
                    weight = "semibold" if i == 0 else "regular"
                    assert drawing.text_size(piece, font, weight)[0] <= rect.width, piece
        finally:
            app.quit(save=False)


def test_the_connect_four_expert_text_is_whole_in_its_largest_size_at_1280x800() -> None:
    app = setup_app((1280, 800), "connect4", "Expert")
    try:
        rect, lines = app.scene.form.descriptions[0]
        side = app.scene.sides[0]
        assert lines == describe_side(side, app.scene.game) and "opening" in lines[0]
        assert (
            description_text.fit(lines, rect.width, rect.height, app.metrics)
            == (description_text.SIZES[0])
        )
    finally:
        app.quit(save=False)


def test_series_results_say_why_there_is_no_elo_and_rank_by_score() -> None:
    series = GameSeries()
    series.add("AI · Easy", "AI · Hard", 1)
    series.add("AI · Hard", "AI · Easy", 0)
    assert series.result().specs == ("AI · Hard", "AI · Easy")  # not seating order
    text = series.head_to_head()
    assert text is not None and "∞" not in text and "inf" not in text
    assert "no Elo estimate while one player wins every game" in text
    series.add("AI · Easy", "AI · Hard", None)
    text = series.head_to_head()
    assert text is not None and "Elo difference +280 (95% CI −139 to +698)" in text


def test_three_players_rows_rank_by_score() -> None:
    series = GameSeries()
    for first, second, winner in (("A", "B", 1), ("C", "B", 1), ("A", "C", None), ("C", "A", 0)):
        series.add(first, second, winner)
    assert series.result().specs == ("B", "C", "A")
    assert [line.label for line in series.lines()] == ["B", "C", "A"]


def test_the_file_dialog_is_scaled_at_1920x1080(make_app: Any) -> None:
    app = make_app((1920, 1080))
    play = start_game(app, "connect4", ("human", "human"))
    play.open_file_dialog("save")
    pump(app, 2)
    dialog = play.file_dialog
    scale = app.metrics.scale
    assert scale > 1.3
    assert dialog.ok_button.rect.height >= round(32 * scale) - 1
    assert dialog.home_button.rect.width >= round(22 * scale) - 1
    assert dialog.title_bar_height >= 2 * app.metrics.widget_font
    assert dialog.file_selection_list.list_item_height >= round(1.7 * app.metrics.widget_font)
    font = dialog.ok_button.font
    assert font.size("Cancel")[0] < dialog.cancel_button.rect.width
    inside = dialog.get_container().get_rect()
    for element in (dialog.ok_button, dialog.cancel_button, dialog.file_selection_list):
        assert inside.contains(element.rect), element
    assert not dialog.delete_button.visible


def test_saves_go_to_a_visible_documents_folder_made_on_the_first_save(
    monkeypatch: pytest.MonkeyPatch, tmp_path: pathlib.Path
) -> None:
    import platformdirs

    from plyground.gui.scenes import file_dialog

    monkeypatch.delenv("PLYGROUND_CONFIG_DIR")
    monkeypatch.setattr(platformdirs, "user_documents_dir", lambda: str(tmp_path / "Documents"))
    monkeypatch.setattr(platformdirs, "user_data_dir", lambda *a, **k: str(tmp_path / "data"))
    folder = tmp_path / "Documents" / "Plyground"
    assert settings.saves_dir() == folder
    assert file_dialog.saves_folder("open") == tmp_path / "Documents"  # nothing saved yet
    assert not folder.exists()
    assert file_dialog.saves_folder("save") == folder and folder.is_dir()
    assert file_dialog.saves_folder("open") == folder


def test_after_opening_a_game_the_status_line_says_whose_turn(
    make_app: Any, tmp_path: pathlib.Path
) -> None:
    from plyground.gui.play import status_line

    path = tmp_path / "c4.json"
    savefile.save_game(path, "connect4", {}, [{"kind": "human"}] * 2, 0, "445")
    app = make_app()
    play = start_game(app, "tictactoe", ("human", "human"))
    assert play.load_from(path)
    opened = app.scene
    text = status_line.status_text(opened.controller, opened.view)
    assert text == "Opened c4.json · 3 moves · Yellow to move"


def test_pigs_die_shows_a_face_before_the_first_roll() -> None:
    from plyground.gui.kits.pig import board as pig

    faces: list[Any] = []
    real = pig.draw_die

    def spy(surface: Any, rect: Any, face: Any, *args: Any, **kw: Any) -> None:
        faces.append(face)
        real(surface, rect, face, *args, **kw)

    pig.draw_die = spy
    try:
        surface = pygame.Surface((1280, 800))
        view = pig.PigView()
        state = games.get_game("pig").initial_state()
        from plyground.gui.kits.base import ChanceMotion, ViewContext

        view.draw(surface, surface.get_rect(), state, ViewContext(chance=ChanceMotion(None)))
    finally:
        pig.draw_die = real
    assert faces and all(face in range(1, 7) for face in faces)


@pytest.mark.parametrize("game", list(games.GAMES))
def test_every_games_ai_vs_ai_series_has_a_seed_box(game: str) -> None:
    for preset, wanted in (("Medium", True), ("human", bool(games.GAMES[game].stochastic))):
        app = setup_app((1280, 800), game, "Medium")
        try:
            scene = app.scene
            if preset == "human":
                scene.sides[0].kind = settings.HUMAN
                scene.rebuild()
            has_seed = any(key == ("seed", -1) for key in scene.form.ids.values())
            assert has_seed == wanted, (game, preset)
        finally:
            app.quit(save=False)


def test_a_time_limit_is_said_as_what_bounds_the_move() -> None:
    """A search on a clock stops at its time; a solve on a game's own engine is bounded by
    nodes, so there the seconds are said as the heuristic search's, never as a cap."""
    from plyground import games
    from plyground.gui.describe import time_text

    connect4, tictactoe = games.get_game("connect4"), games.get_game("tictactoe")
    assert time_text(1.5, False, connect4, False) == "up to 1.5 s a move"
    assert time_text(2, True, tictactoe, False) == "up to 2 s a move"
    solving = time_text(0.5, True, connect4, False)
    assert "up to" not in solving and "bounded by nodes" in solving
    expert = time_text(1.5, True, connect4, True)
    assert expert == "1.5 s a move for the heuristic search, where the solve does not finish"
