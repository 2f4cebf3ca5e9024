"""One board view per game: draws a state and turns clicks and keys into moves."""

from __future__ import annotations

from gui.boards.base import BoardView, ViewContext


def view_for(game_name: str) -> BoardView:
    """The board view for a game's registry name."""
    if game_name == "tictactoe":
        from gui.boards.tictactoe_view import TicTacToeView

        return TicTacToeView()
    if game_name == "connect4":
        from gui.boards.connect4_view import ConnectFourView

        return ConnectFourView()
    if game_name == "pig":
        from gui.boards.pig_view import PigView

        return PigView()
    raise ValueError(f"no board view for {game_name!r}")


__all__ = ["BoardView", "ViewContext", "view_for"]
