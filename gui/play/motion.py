"""How a move looks on the board: its animation, and why an illegal one was refused.

A board view (or kit) can say this itself with optional members; the play scene asks it
first and falls back to the defaults here for the views that do not:
`move_seconds(before, move) -> float` (the animation at full speed),
`move_animation(state, move, progress) -> dict` (the view context's `anim` entries while it
runs), `refusal(state, move) -> str` (the notice for an illegal move) and `move_help`.
"""

from __future__ import annotations

from typing import Any

from gui import drawing

MOVE_HELP = {
    "tictactoe": "click a square or press 1-9",
    "connect4": "click a column or press 1-7",
    "pig": "Roll (R) or Hold (H)",
}
CONNECT4_ROWS = 6


def move_seconds(view: Any, game_name: str, before: Any, move: Any) -> float:
    """How long the move's animation runs at full speed."""
    hook = getattr(view, "move_seconds", None)
    if callable(hook):
        return float(hook(before, move))
    if game_name == "connect4":
        return 0.28 + 0.045 * (CONNECT4_ROWS - int(before.height(move)))
    if game_name == "tictactoe":
        return 0.22
    return 0.0


def move_animation(
    view: Any, game_name: str, state: Any, move: Any, progress: float
) -> dict[str, Any]:
    """The `anim` entries of a move still animating (`progress` 0..1)."""
    hook = getattr(view, "move_animation", None)
    if callable(hook):
        return dict(hook(state, move, progress))
    if game_name == "connect4" and isinstance(move, int):
        return {"drop": (move, state.height(move) - 1, max(0.0, progress))}
    if game_name == "tictactoe":
        return {"place": (move, drawing.ease_out_cubic(max(0.0, progress)))}
    return {}


def refusal(view: Any, game_name: str, state: Any, move: Any) -> str | None:
    """Why a human's move is not legal here, in a few words (None: say nothing)."""
    hook = getattr(view, "refusal", None)
    if callable(hook):
        text = hook(state, move)
        return None if text is None else str(text)
    if game_name == "connect4":
        return f"Column {move + 1} is full"
    if game_name == "tictactoe":
        return "That square is taken"
    if move == "hold":
        return "Roll at least once before holding"
    return None


def move_help(view: Any, game_name: str, game: Any) -> str:
    """How a human moves: the view's words, else the defaults, else the notation help."""
    text = getattr(view, "move_help", None) or MOVE_HELP.get(game_name)
    return str(text or getattr(game, "notation_help", ""))
