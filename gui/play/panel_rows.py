"""The side panel's rows in the kit's words, worked out once per position (no pygame)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from plyground.gui.play.controller import PlayController

if TYPE_CHECKING:
    from plyground.gui.kits.base import BoardView


class KitRows:
    """The kit's extra analysis rows (`BoardView.analysis_rows`), worked out once per position."""

    def __init__(self) -> None:
        self.key: Any = None
        self.rows: list[tuple[str, str]] = []

    def get(self, controller: PlayController, view: BoardView[Any]) -> list[tuple[str, str]]:
        """The rows for the current position (empty for games without them)."""
        names = controller.colour_names()
        history = controller.history
        key = (view, controller.game, len(history.entries), history.state, names)
        if self.key != key:
            self.rows = view.analysis_rows(controller.game, history.initial, history.entries, names)
            self.key = key
        return self.rows


class MoveRows:
    """The move list's rows, in the kit's words where it has them (`BoardView.turn_text`:
    a dice game's turn log), worked out once per position."""

    def __init__(self) -> None:
        self.key: Any = None
        self.rows: list[tuple[int, str]] = []

    def get(self, controller: PlayController, view: BoardView[Any]) -> list[tuple[int, str]]:
        """(player, text) for each row of `controller.history.history_rows()`."""
        history = controller.history
        key = (view, controller.game, len(history.entries), history.state)
        if self.key == key:
            return self.rows
        rows, start = [], 0
        for (player, text), end in zip(history.history_rows(), history.row_ends(), strict=True):
            before = history.state_after(start)
            words = view.turn_text(controller.game, before, history.entries[start:end])
            rows.append((player, words or text))
            start = end
        self.key, self.rows = key, rows
        return rows
