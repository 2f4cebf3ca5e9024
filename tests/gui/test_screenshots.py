"""Every scene of every game renders to a PNG headless, at the smallest and a large size."""

from __future__ import annotations

import pygame
import pytest

from plyground.gui import screenshot

CASES = [
    ("menu", "connect4", ""),
    ("setup", "pig", ""),
    ("play", "tictactoe", "159"),
    ("play", "connect4", "4453"),
    ("play", "pig", "r4r6h r1 r5"),
    ("gameover", "tictactoe", "15293"),
    ("gameover", "connect4", "4455443"),
    ("analysis", "connect4", "4453"),
    ("analysis", "pig", "r4r6h"),
    ("resume", "connect4", "4453"),
    ("resume", "pig", "r4r6h r1"),
    ("series", "tictactoe", ""),
]


SIZES = ((800, 600), (1920, 1080), (1280, 800))


@pytest.mark.slow
@pytest.mark.parametrize(("scene", "game", "moves"), CASES)
def test_render(tmp_path, scene, game, moves):
    size = SIZES[CASES.index((scene, game, moves)) % len(SIZES)]
    out = tmp_path / f"{scene}-{game}-{size[0]}.png"
    options = {"games": 4} if scene == "series" else None
    screenshot.render(scene, game, moves, str(out), size=size, options=options)
    image = pygame.image.load(str(out))
    assert image.get_size() == size


def test_unknown_scene_is_refused(tmp_path):
    with pytest.raises(ValueError, match="unknown scene"):
        screenshot.render("credits", "connect4", "", str(tmp_path / "x.png"))
