"""A game file's quirk that Plyground works around (a move listed twice, a failing show()
drawn plainly) is said in the window as the terminal says it, once a game: a toast on
opening the game or when the quirk first shows."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from driving import press, pump
from test_file_games import FILES, open_file_game, start

TWICE_LISTED = """
from dataclasses import dataclass


@dataclass(frozen=True)
class Pile:
    left: int = 4
    to_move: int = 0

    def legal_moves(self):
        return (1, 1, 2) if self.left >= 2 else (1,)

    def play(self, move):
        return Pile(self.left - move, 1 - self.to_move)

    def is_terminal(self):
        return self.left == 0

    def utility(self, player):
        return 1 if player != self.to_move else -1


class Listed:
    title = "Listed twice"

    def initial_state(self):
        return Pile()
"""

WARNING = (
    "Warning: listed.py:Listed: legal_moves() returned the same move twice (first at the "
    "start); each move is searched once"
)


def said(app: Any) -> list[str]:
    return [toast.text for toast in app.toasts]


def test_a_move_listed_twice_is_said_in_the_window_once(make_app: Any, tmp_path: Path) -> None:
    path = tmp_path / "listed.py"
    path.write_text(TWICE_LISTED, encoding="utf-8")
    app = make_app()
    open_file_game(app, path)
    pump(app, 2)
    assert WARNING in said(app), said(app)
    play = start(app, ("human", "human"))
    app.update(30.0)  # the toast has gone
    assert WARNING not in said(app)
    press(app, ord("1"), "1")
    press(app, ord("1"), "1")
    pump(app, 3)
    assert len(play.controller.history.moves) == 2
    assert WARNING not in said(app)  # once a game


def test_a_failing_show_is_said_in_the_window_once(make_app: Any, tmp_path: Path) -> None:
    path = tmp_path / "blind.py"
    path.write_text(
        (FILES / "easy_bones.py")
        .read_text(encoding="utf-8")
        .replace(
            "    def show(self):\n", "    def show(self):\n        raise KeyError('no picture')\n"
        ),
        encoding="utf-8",
    )
    app = make_app()
    open_file_game(app, path)
    play = start(app, ("human", "human"))
    pump(app, 3)
    warning = (
        "Warning: blind.py:GameOfBones: show() failed: KeyError: 'no picture'; "
        "drawn plainly instead"
    )
    assert [text for text in said(app) if text.startswith("Warning:")] == [warning], said(app)
    app.update(30.0)
    press(app, ord("1"), "1")
    pump(app, 3)
    assert len(play.controller.history.moves) == 1 and not said(app)
