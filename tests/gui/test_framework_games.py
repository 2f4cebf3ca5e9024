"""Games written for easyAI and aima-python, unchanged (their packages from the index, where
installed: `.ci/run` installs them), opened by module in the window and played there."""

from __future__ import annotations

from typing import Any

import pygame
import pytest
from driving import press, type_in_game_dialog, wait_until
from test_file_games import open_file_game, start

from plyground import games

pytest.importorskip("easyAI")
pytest.importorskip("aima3.games")


@pytest.mark.parametrize("spec", ["easyAI.games:Nim", "aima3.games:TicTacToe"])
def test_a_frameworks_game_plays_in_the_window(make_app: Any, spec: str) -> None:
    app = make_app()
    setup = open_file_game(app, spec)
    assert setup.game_name == games.resolve(spec)
    play = start(app, ("human", "Easy"))
    press(app, ord("1"), "1")  # the first move in the game's order
    assert len(play.controller.history.moves) >= 1
    assert wait_until(app, lambda: len(play.controller.history.moves) >= 2, 60)
    assert not play.controller.state.is_terminal() or play.controller.over_since is not None


@pytest.mark.parametrize("spec", ["easyAI.games:Nim", "aima3.games:TicTacToe"])
def test_a_frameworks_game_opens_typed_into_the_game_dialog(make_app: Any, spec: str) -> None:
    app = make_app()
    type_in_game_dialog(app, spec)
    assert wait_until(app, lambda: type(app.scene).__name__ == "SetupScene", 60)
    assert app.scene.game_name == games.resolve(spec)
    assert spec in [entry["name"] for entry in app.settings.recent_games]


def test_aimas_own_games_file_opens_as_part_of_its_package(make_app: Any) -> None:
    """aima3/games.py imports its package's modules relatively: picked as a file, it is
    loaded as aima3.games."""
    from pathlib import Path

    import aima3.games

    path = Path(aima3.games.__file__).resolve()
    app = make_app()
    type_in_game_dialog(app, f"{path}:TicTacToe")
    assert wait_until(app, lambda: type(app.scene).__name__ == "SetupScene", 60)
    assert app.scene.game_name == f"{path}:TicTacToe"
    assert games.GAMES[app.scene.game_name].source is aima3.games.TicTacToe
    origin = app.scene.factory.origin()  # the set-up screen's line names it as the card does
    assert origin == "From aima3/games.py, written for aima-python's Game", origin
    press(app, pygame.K_ESCAPE, frames=2)
    card = next(card for card in app.scene.cards if card[0] == f"{path}:TicTacToe")
    assert card[2] == "Your game, from aima3/games.py"
