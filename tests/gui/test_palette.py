"""The colour-blind safe palette: remembered in the settings, F2 toggles it, drawing uses it."""

from __future__ import annotations

import pygame
import pytest
from driving import press, pump, start_game

from plyground.gui import theme
from plyground.gui.kits.connect4 import draw_disc
from plyground.gui.play.sides import side_names
from plyground.gui.storage import settings


@pytest.fixture(autouse=True)
def standard_palette():
    """Every test starts and ends with the standard palette (it is module state)."""
    theme.set_palette("standard")
    yield
    theme.set_palette("standard")


def test_the_palettes_are_the_settings_choices():
    assert tuple(theme.PALETTES) == settings.PALETTE_NAMES


def test_the_palette_round_trips_through_the_settings_file(config_dir):
    stored = settings.Settings()
    stored.palette = "colour-blind"
    settings.save(stored)
    loaded, warning = settings.load()
    assert warning is None and loaded.palette == "colour-blind"
    data = stored.to_json()
    data["palette"] = "sepia"  # unknown: the default, no error
    assert settings.Settings.from_json(data).palette == "standard"


def test_the_colour_blind_sides_differ_by_more_than_red_and_yellow():
    safe = theme.PALETTES["colour-blind"]
    (r0, _, b0), (r1, _, b1) = safe.players
    assert b0 > r0 and r1 > b1  # blue against orange
    assert safe.marked and not theme.PALETTES["standard"].marked
    assert safe.good != safe.bad and safe.good[2] > safe.bad[2]  # not red against green


def test_f2_switches_the_palette_and_remembers_it(make_app, config_dir):
    app = make_app()
    pump(app, 2)
    press(app, pygame.K_F2)
    assert theme.PALETTE.name == "colour-blind" and app.settings.palette == "colour-blind"
    assert "colour-blind" in app.toasts[-1].text
    assert settings.load()[0].palette == "colour-blind"
    press(app, pygame.K_F2)
    assert theme.PALETTE.name == "standard"


def test_discs_are_drawn_in_the_palette_with_their_mark():
    def disc(player: int) -> pygame.Surface:
        surface = pygame.Surface((60, 60), pygame.SRCALPHA)
        draw_disc(surface, (30, 30), 26, player)
        return surface

    plain = [disc(0), disc(1)]
    theme.set_palette("colour-blind")
    marked = [disc(0), disc(1)]
    rim = (30 + 26 * 0.75, 30)  # between the mark and the rim: the side's own colour
    for player in (0, 1):
        assert (
            plain[player].get_at((round(rim[0]), 30))[:3]
            == theme.PALETTES["standard"].players[player]
        )
        assert marked[player].get_at((round(rim[0]), 30))[:3] == theme.PLAYER_COLOURS[player]
    # the X crosses the centre; the ring leaves it and crosses 0.42 of the radius
    shade = theme.PLAYER_SHADES
    assert marked[0].get_at((30, 30))[:3] == shade[0]
    assert marked[1].get_at((30, 30))[:3] != shade[1]
    assert marked[1].get_at((30 + round(26 * 0.42 + 2), 30))[:3] == shade[1]


def test_a_game_named_by_colours_takes_the_palettes_names():
    assert side_names("connect4") == ("Red", "Yellow")
    assert side_names("connect4", "colour-blind") == ("Blue", "Orange")
    assert side_names("tictactoe", "colour-blind") == ("X", "O")


def test_the_play_scene_draws_with_the_chosen_palette(make_app):
    app = make_app()
    app.set_palette("colour-blind")
    play = start_game(app, "connect4", ("human", "human"))
    press(app, pygame.K_4, "4")
    pump(app, 60)
    assert play.controller.colour_names() == ("Blue", "Orange")
    board = play.board_rect()
    found = {
        app.screen.get_at((x, y))[:3]
        for x in range(board.x, board.right, 3)
        for y in range(board.y, board.bottom, 3)
    }

    def shows(colour: tuple[int, int, int]) -> bool:
        return any(max(abs(a - b) for a, b in zip(c, colour, strict=True)) <= 3 for c in found)

    safe, standard = theme.PALETTES["colour-blind"], theme.PALETTES["standard"]
    assert shows(safe.board) and shows(safe.players[0])
    assert not shows(standard.board) and not shows(standard.players[0])
