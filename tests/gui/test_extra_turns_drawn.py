"""A side that moves twice in a row (Kalah's last seed in its own store, a closed box in dots
and boxes) is drawn as it is: the move list keeps each side's moves in its own column, and
the explorer draws a child where the same side moves again as that side's node."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pytest
from driving import press, pump

from plyground.gui import screenshot
from plyground.gui.play import browse_view, move_list
from plyground.gui.widgets import text_audit

TWICE = """\
from dataclasses import dataclass
@dataclass(frozen=True)
class S:
    step: int = 0; to_move: int = 0; over: bool = False; winner: int = -1
    def legal_moves(self): return ("again", "end") if self.step == 0 else ("finish",)
    def play(self, move):
        if move == "again": return S(1, self.to_move)
        if move == "end": return S(2, 1 - self.to_move, True, -1)
        return S(2, 1 - self.to_move, True, self.to_move)
    def is_terminal(self): return self.over
    def utility(self, p): return 0 if self.winner < 0 else (1 if p == self.winner else -1)
class Twice:
    def initial_state(self): return S()
"""
"""A game where the first side may move twice: 'again' then 'finish' wins, 'end' draws."""


@pytest.fixture
def twice(tmp_path: Path) -> str:
    path = tmp_path / "twice.py"
    path.write_text(TWICE, encoding="utf-8")
    return str(path)


def test_each_sides_moves_keep_their_column() -> None:
    """Alternating moves pair up as before; a side's second move in a row starts a line in
    its own column."""
    assert move_list.columns([0, 1, 0, 1, 0]) == [(1, 0), (1, 1), (2, 0), (2, 1), (3, 0)]
    assert move_list.columns([0, 0, 1, 0, 1, 1, 0]) == [
        (1, 0),
        (2, 0),
        (2, 1),
        (3, 0),
        (3, 1),
        (4, 1),
        (5, 0),
    ]
    assert move_list.columns([1, 1, 0]) == [(1, 0), (2, 0), (2, 1)]  # who moved first: left
    assert move_list.move_number(3, False, [0, 0, 1, 0]) == 3
    assert move_list.move_number(3, True, [0, 0, 1, 0]) == 4  # dice: a turn a line


def drawn(app: Any) -> list[Any]:
    """The texts the app's next frame draws."""
    app.request_frame()
    with text_audit.TextRecorder() as recorder:
        app.draw()
    return recorder.on_window()


def test_the_move_list_shows_a_side_moving_twice(twice: str) -> None:
    """'again' and 'finish' are both the first side's: one above the other in its column,
    numbered 1 and 2, and the review banner numbers them so."""
    app = screenshot.open_scene("play", twice, "again finish", (1280, 720))
    try:
        pump(app, 2)
        texts = {t.text: t.rect for t in drawn(app)}
        again, finish = texts["again"], texts["finish"]
        assert again.x == finish.x and finish.y > again.y
        play = app.scene
        window = browse_view.window(play.model, play.screen())
        assert window is not None
        assert [(n, [p[1:] for p in parts]) for n, parts in window.lines] == [
            (1, [("again", 0, 0)]),
            (2, [("finish", 1, 0)]),
        ]
        press(app, pygame.K_LEFT)  # a review: after the first move
        banner = browse_view.banner_texts(play.controller)[0]
        assert banner.startswith("Reviewing after 1. ") and banner.split(" — ")[0].endswith(
            " again"
        )
    finally:
        app.quit(save=False)


def test_the_explorer_draws_max_under_max(twice: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The child where the same side moves again is MAX's node (▲), drawn so."""
    from plyground.gui.explorer import tree_view

    shapes: list[str] = []
    draw_shape = tree_view.shape

    def recorded(surface: Any, kind: str, *rest: Any, **options: Any) -> None:
        shapes.append(kind)
        draw_shape(surface, kind, *rest, **options)

    monkeypatch.setattr(tree_view, "shape", recorded)
    app = screenshot.open_scene("explorer", twice, "", (1280, 720), {"depth": 3})
    try:
        pump(app, 2)
        model = app.scene.model
        kinds = {node.label: node.kind for node in model.trace.nodes}
        assert kinds == {"root": "max", "again": "max", "finish": "leaf", "end": "leaf"}
        shapes.clear()
        drawn(app)
        assert sorted(shapes) == ["leaf", "leaf", "max", "max"]
    finally:
        app.quit(save=False)
