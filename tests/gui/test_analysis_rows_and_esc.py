"""Every analysis row shows at 800x600 (pointed at), Esc works
while the menu is still animating, and a custom AI keeps its randomness."""

from __future__ import annotations

from typing import Any

import pygame
import pytest

from plyground.gui import screenshot
from plyground.gui.play import analysis_panel
from plyground.gui.widgets import drawing


def drawn_panel_rows(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any, game: str, moves: str, size: str
) -> tuple[list[str], list[str]]:
    """(labels the panel had to show, texts drawn) for the analysis screenshot."""
    wanted: list[str] = []
    drawn: list[str] = []
    real_draw, real_text = analysis_panel.draw, drawing.draw_text

    def spy_draw(
        surface: Any, rect: Any, analysis: Any, game_obj: Any, *args: Any, **kw: Any
    ) -> Any:
        wanted.clear()
        wanted.extend(label for label, _ in kw.get("extra") or [])
        if analysis is not None:
            wanted.extend(label for label, _ in analysis_panel.summary_lines(analysis, game_obj))
        drawn.clear()
        return real_draw(surface, rect, analysis, game_obj, *args, **kw)

    def spy_text(surface: Any, text: str, *args: Any, **kw: Any) -> Any:
        drawn.append(text)
        return real_text(surface, text, *args, **kw)

    monkeypatch.setattr(analysis_panel, "draw", spy_draw)
    monkeypatch.setattr(drawing, "draw_text", spy_text)
    width, height = (int(v) for v in size.split("x"))
    # The pointer on the analysis: rows a short window has no room for show over the buttons.
    options = {"point_at": "analysis"}
    screenshot.render("analysis", game, moves, str(tmp_path / "shot.png"), (width, height), options)
    return wanted, drawn


@pytest.mark.slow
@pytest.mark.parametrize("size", ["800x600", "1280x800"])
@pytest.mark.parametrize(
    ("game", "moves"), [("connect4", "435"), ("tictactoe", "51"), ("pig", "r3r4")]
)
def test_the_analysis_panel_shows_every_row(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any, game: str, moves: str, size: str
) -> None:
    wanted, drawn = drawn_panel_rows(monkeypatch, tmp_path, game, moves, size)
    assert len(wanted) >= 4
    missing = [label for label in wanted if label not in drawn]
    assert missing == []


def esc(app: Any) -> None:
    """An Esc press and release, posted as real events, then one frame."""
    for kind in (pygame.KEYDOWN, pygame.KEYUP):
        pygame.event.post(
            pygame.event.Event(kind, key=pygame.K_ESCAPE, unicode="\x1b", mod=0, scancode=41)
        )
    app.step(1 / 60)


def test_esc_on_the_menus_very_first_frame_quits(make_app: Any) -> None:
    app = make_app()
    esc(app)
    assert not app.running


def test_esc_while_a_menu_card_is_still_lifting_quits(make_app: Any) -> None:
    app = make_app()
    app.step(1 / 60)
    app.mouse_override = app.scene.card_rects()[0].center
    app.step(1 / 60)
    assert 0 < app.scene.hover_lift[0] < 0.9  # the card is on its way up
    esc(app)
    assert not app.running


def test_esc_right_after_coming_back_to_the_menu_quits(make_app: Any) -> None:
    app = make_app()
    app.step(1 / 60)
    app.scene.open_game("connect4")
    esc(app)  # set-up -> menu
    assert app.running and app.scene.title == "menu"
    esc(app)  # the menu has just been entered again
    assert not app.running


def test_a_custom_ais_randomness_is_kept_by_the_settings_and_saves(
    make_app: Any, config_dir: Any
) -> None:
    import json

    import pygame_gui

    from plyground.gui.play import sides as side_info
    from plyground.gui.storage import settings
    from plyground.gui.storage.settings import AI, CUSTOM

    app = make_app()
    app.step(1 / 60)
    app.scene.open_game("connect4")
    setup = app.scene
    setup.sides[1].kind, setup.sides[1].preset = AI, CUSTOM
    setup.rebuild()
    slider = next(
        w for w, (action, i) in setup.form.ids.items() if action == "randomness" and i == 1
    )
    assert slider.get_current_value() == 0
    moved = pygame.event.Event(pygame_gui.UI_HORIZONTAL_SLIDER_MOVED, ui_element=slider, value=0.34)
    assert setup.handle(moved)
    assert setup.sides[1].custom.randomness == 0.35  # in steps of 0.05
    setup.commit()
    assert app.settings.sides["connect4"][1].custom.randomness == 0.35
    assert app.settings.sides["connect4"][1].player_config("connect4").randomness == 0.35
    on_disk = json.loads((config_dir / "settings.json").read_text())
    assert on_disk["sides"]["connect4"][1]["config"]["randomness"] == 0.35
    loaded, warning = settings.load()
    assert warning is None and loaded.sides["connect4"][1].custom.randomness == 0.35
    player = side_info.side_to_player(loaded.sides["connect4"][1], "connect4")
    back = side_info.player_to_side(player, settings.SideSetup())
    assert (back.preset, back.custom.randomness) == (CUSTOM, 0.35)
    # a file from before the field: no randomness, as before
    del on_disk["sides"]["connect4"][1]["config"]["randomness"]
    assert settings.Settings.from_json(on_disk).sides["connect4"][1].custom.randomness == 0.0
    on_disk["sides"]["connect4"][1]["config"]["randomness"] = 9
    assert settings.Settings.from_json(on_disk).sides["connect4"][1].custom.randomness == 0.0
