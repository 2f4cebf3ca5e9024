"""How a move looks on the board: its animation, why an illegal one was refused, move help.

The kit says all of this itself (`BoardView.move_seconds`, `refusal`, `move_help`; it draws the
`MoveMotion` the scene puts in its context); these helpers only add the generic fallbacks.
"""

from __future__ import annotations

from typing import Any

from plyground.games.base import Game, State
from plyground.gui.kits.base import BoardView


def move_seconds(view: BoardView[Any], before: State[Any], move: Any) -> float:
    """How long the move's animation runs at full speed."""
    return float(view.move_seconds(before, move))


def refusal(view: BoardView[Any], state: State[Any], move: Any) -> str | None:
    """Why a human's move is not legal here, in a few words (None: say nothing)."""
    return view.refusal(state, move)


def move_help(view: BoardView[Any], game: Game[Any]) -> str:
    """How a human moves: the kit's words, else the game's notation help."""
    return view.move_help or str(getattr(game, "notation_help", ""))
