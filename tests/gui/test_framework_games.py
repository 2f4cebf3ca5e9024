"""Games written for easyAI and aima-python, unchanged (their packages from the index, where
installed: `.ci/run` installs them), opened by module in the window and played there."""

from __future__ import annotations

from typing import Any

import pytest
from driving import press, wait_until
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
