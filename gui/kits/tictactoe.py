"""Tic-tac-toe: a 3x3 grid, crisp X and O, keys 1-9, the winning line struck through.

Motion: the newest mark is drawn in while `ctx.moving` says it animates; the winning line
grows through (`ctx.strike`).
"""

from __future__ import annotations

import math
from typing import Any

import pygame

from plyground.ai.evaluation.provenance import Evaluation
from plyground.games.tictactoe import State as TicTacToeState
from plyground.gui import sound, theme
from plyground.gui.kits.base import BoardView, ViewContext, digit_of, short_value, value_colour
from plyground.gui.kits.best_move import best_ring, best_tag
from plyground.gui.widgets import drawing


def geometry(rect: pygame.Rect) -> tuple[pygame.Rect, float]:
    """The square board inside `rect` and its cell size."""
    side = int(min(rect.width, rect.height) * 0.9)
    board = pygame.Rect(0, 0, side, side)
    board.center = rect.center
    return board, side / 3


def cell_rect(board: pygame.Rect, cell_size: float, index: int) -> pygame.Rect:
    """The square of cell `index` (0-8, row by row from the top left)."""
    row, col = divmod(index, 3)
    return pygame.Rect(
        round(board.x + col * cell_size),
        round(board.y + row * cell_size),
        round(cell_size),
        round(cell_size),
    )


def draw_x(
    surface: pygame.Surface,
    centre: tuple[float, float],
    size: float,
    colour: theme.Colour,
    progress: float = 1.0,
    width: float = 10,
) -> None:
    """An X drawn as two round-capped strokes; `progress` draws it in stroke by stroke."""
    half = size / 2
    cx, cy = centre
    strokes = (
        ((cx - half, cy - half), (cx + half, cy + half)),
        ((cx + half, cy - half), (cx - half, cy + half)),
    )
    for i, (start, end) in enumerate(strokes):
        part = max(0.0, min(1.0, progress * 2 - i))
        if part <= 0:
            continue
        tip = (start[0] + (end[0] - start[0]) * part, start[1] + (end[1] - start[1]) * part)
        drawing.thick_line(surface, colour, start, tip, width)


def draw_o(
    surface: pygame.Surface,
    centre: tuple[float, float],
    size: float,
    colour: theme.Colour,
    progress: float = 1.0,
    width: float = 10,
) -> None:
    """An O as an anti-aliased ring; `progress` sweeps it in."""
    radius = size / 2
    if progress >= 1:
        drawing.circle(surface, colour, centre, radius + width / 2)
        drawing.circle(surface, theme.PANEL, centre, radius - width / 2)
        pygame.draw.aacircle(
            surface, colour, (round(centre[0]), round(centre[1])), round(radius - width / 2), 1
        )
        return
    steps = max(2, int(48 * progress))
    for i in range(steps + 1):
        angle = -math.pi / 2 + 2 * math.pi * progress * i / steps
        point = (centre[0] + radius * math.cos(angle), centre[1] + radius * math.sin(angle))
        drawing.circle(surface, colour, point, width / 2)


class TicTacToeView(BoardView[TicTacToeState]):
    """Draws tic-tac-toe and maps clicks and keys 1-9 to cells."""

    blurb = "Three in a row on a 3x3 grid. Perfect play is a draw."
    keys_help = "Click a cell, press 1-9, or move with the arrows and press Enter."
    bench_presets = ("Hard", "Expert")
    move_help = "click a square, press 1-9 or use the arrows"
    sounds = sound.MARK_SOUNDS
    draws_cursor = True

    def cursor_move(self, state: TicTacToeState, cursor: Any, dx: int, dy: int) -> Any:
        """A cell: the arrows move over the grid (starting in the centre), stopping at edges."""
        if cursor is None:
            return 4
        row, col = divmod(int(cursor), 3)
        return max(0, min(2, row + dy)) * 3 + max(0, min(2, col + dx))

    def move_seconds(self, before: TicTacToeState, move: Any) -> float:
        """A mark draws itself in quickly."""
        return 0.22

    def refusal(self, state: TicTacToeState, move: Any) -> str | None:
        """Only a taken square refuses a mark."""
        return "That square is taken"

    def draw_icon(self, surface: pygame.Surface, rect: pygame.Rect, now: float) -> None:
        """A grid with a won game: X's diagonal struck through."""
        cx, cy = rect.center
        cell = min(rect.width, rect.height) / 3.4
        left, top = cx - cell * 1.5, cy - cell * 1.5
        for i in (1, 2):
            x, y = left + i * cell, top + i * cell
            drawing.thick_line(
                surface, theme.PANEL_BORDER, (x, top + 4), (x, top + 3 * cell - 4), 4
            )
            drawing.thick_line(
                surface, theme.PANEL_BORDER, (left + 4, y), (left + 3 * cell - 4, y), 4
            )
        marks = {0: 0, 4: 0, 2: 1, 6: 1, 8: 0}
        for index, player in marks.items():
            r, c = divmod(index, 3)
            centre = (left + (c + 0.5) * cell, top + (r + 0.5) * cell)
            (draw_x if player == 0 else draw_o)(
                surface, centre, cell * 0.5, theme.PLAYER_COLOURS[player], 1.0, max(4, cell * 0.1)
            )
        drawing.thick_line(
            surface,
            theme.TEXT,
            (left + cell * 0.3, top + cell * 0.3),
            (left + cell * 2.7, top + cell * 2.7),
            3,
        )

    def draw(
        self, surface: pygame.Surface, rect: pygame.Rect, state: TicTacToeState, ctx: ViewContext
    ) -> None:
        """Grid, marks, hover preview, move values and the winning line."""
        board, cell = geometry(rect)
        self._draw_grid(surface, board, cell)
        hover = self.move_at(rect, state, ctx.mouse) if ctx.mouse and ctx.interactive else None
        if ctx.cursor is not None and ctx.interactive:
            hover = ctx.cursor
        for index in range(9):
            self._draw_cell(surface, board, cell, index, state, ctx, hover)
        if hover is not None and hover == ctx.cursor:  # the keyboard's cell: ringed
            box = cell_rect(board, cell, hover).inflate(-cell * 0.06, -cell * 0.06)
            width = max(2, round(cell * 0.025))
            pygame.draw.rect(surface, theme.ACCENT, box, width, round(cell * 0.12))
        if ctx.winning_line:
            self._draw_strike(surface, board, cell, ctx)

    def _draw_grid(self, surface: pygame.Surface, board: pygame.Rect, cell: float) -> None:
        """The board and its four grid lines."""
        drawing.shadow(surface, board, round(cell * 0.12), spread=round(cell * 0.15))
        drawing.rounded_rect(surface, board, theme.PANEL, round(cell * 0.12), 1, theme.PANEL_BORDER)
        line_w = max(3, round(cell * 0.035))
        inset = cell * 0.16
        for i in (1, 2):
            x = board.x + i * cell
            y = board.y + i * cell
            drawing.thick_line(
                surface, theme.PANEL_BORDER, (x, board.y + inset), (x, board.bottom - inset), line_w
            )
            drawing.thick_line(
                surface, theme.PANEL_BORDER, (board.x + inset, y), (board.right - inset, y), line_w
            )

    def _draw_cell(
        self,
        surface: pygame.Surface,
        board: pygame.Rect,
        cell: float,
        index: int,
        state: TicTacToeState,
        ctx: ViewContext,
        hover: Any,
    ) -> None:
        """One cell: the hint, its mark (drawn in while placing), or the hover preview or its
        number, then the move's value."""
        moving = ctx.moving
        placing = None if moving is None else (moving.move, drawing.ease_out_cubic(moving.progress))
        mark = cell * 0.5
        stroke = max(6, cell * 0.085)
        box = cell_rect(board, cell, index)
        centre = box.center
        owner = state.cell(index)
        if index == ctx.hint and owner is None:
            drawing.rounded_rect(
                surface,
                box.inflate(-cell * 0.12, -cell * 0.12),
                theme.mix(theme.PANEL, theme.SUCCESS, 0.18),
                round(cell * 0.1),
                2,
                theme.SUCCESS,
            )
        if owner is not None:
            progress = placing[1] if placing and placing[0] == index else 1.0
            colour = theme.PLAYER_COLOURS[owner]
            if owner == 0:
                draw_x(surface, centre, mark, colour, progress, stroke)
            else:
                draw_o(surface, centre, mark, colour, progress, stroke)
            return
        if hover == index:
            drawing.rounded_rect(
                surface,
                box.inflate(-cell * 0.12, -cell * 0.12),
                theme.PANEL_RAISED,
                round(cell * 0.1),
            )
            ghost = theme.mix(theme.PANEL_RAISED, theme.PLAYER_COLOURS[state.to_move], 0.45)
            (draw_x if state.to_move == 0 else draw_o)(surface, centre, mark, ghost, 1.0, stroke)
        elif ctx.interactive:
            drawing.draw_text(
                surface,
                str(index + 1),
                (box.x + cell * 0.1, box.y + cell * 0.08),
                max(11, round(cell * 0.1)),
                theme.TEXT_FAINT,
            )
        if ctx.values is not None and index in ctx.values:
            self._draw_value(surface, box, cell, ctx.values[index], index == ctx.chosen, ctx)

    def _draw_value(
        self,
        surface: pygame.Surface,
        box: pygame.Rect,
        cell: float,
        value: Evaluation,
        chosen: bool,
        ctx: ViewContext,
    ) -> None:
        """A move's value at the bottom of its cell (framed when it is the chosen move)."""
        text = short_value(value, ctx.stochastic)
        size = drawing.fit_size(text, int(cell * 0.8), max(11, round(cell * 0.11)), "semibold")
        colour = value_colour(value.value)
        label = drawing.draw_text(
            surface,
            text,
            (box.center[0], box.bottom - cell * 0.14),
            size,
            colour,
            "semibold",
            anchor="midbottom",
        )
        if chosen:
            drawing.rounded_rect(surface, label.inflate(10, 4), theme.PANEL_RAISED, 6, 1, colour)
            drawing.draw_text(surface, text, label.topleft, size, colour, "semibold")

    def _draw_strike(
        self, surface: pygame.Surface, board: pygame.Rect, cell: float, ctx: ViewContext
    ) -> None:
        """The line through the winning three, growing in (`ctx.strike`)."""
        line = ctx.winning_line or ()
        stroke = max(6, cell * 0.085)
        start = cell_rect(board, cell, line[0]).center
        end = cell_rect(board, cell, line[-1]).center
        grow = ctx.strike
        dx, dy = end[0] - start[0], end[1] - start[1]
        length = math.hypot(dx, dy) or 1
        ext = cell * 0.32
        a = (start[0] - dx / length * ext, start[1] - dy / length * ext)
        b = (end[0] + dx / length * ext, end[1] + dy / length * ext)
        tip = (a[0] + (b[0] - a[0]) * grow, a[1] + (b[1] - a[1]) * grow)
        drawing.thick_line(surface, (20, 22, 30), a, tip, stroke * 1.5)
        drawing.thick_line(surface, theme.TEXT, a, tip, stroke * 0.7)

    def draw_best_move(
        self, surface: pygame.Surface, rect: pygame.Rect, state: TicTacToeState, move: Any
    ) -> None:
        """A ring round the best cell, tagged "best" at its top (its value sits at the bottom)."""
        board, cell = geometry(rect)
        box = cell_rect(board, cell, move).inflate(-cell * 0.1, -cell * 0.1)
        best_ring(surface, box, round(cell * 0.035), round(cell * 0.1))
        best_tag(surface, "best", (box.centerx, box.y + cell * 0.08), max(11, round(cell * 0.1)))

    def move_at(self, rect: pygame.Rect, state: TicTacToeState, pos: tuple[int, int] | None) -> Any:
        """The cell under `pos`, or None outside the board."""
        if pos is None:
            return None
        board, cell = geometry(rect)
        if not board.collidepoint(pos):
            return None
        col = min(2, int((pos[0] - board.x) // cell))
        row = min(2, int((pos[1] - board.y) // cell))
        return row * 3 + col

    def move_for_key(self, state: TicTacToeState, key: int, unicode: str) -> Any:
        """Keys 1-9 pick cells row by row from the top left (the game's notation)."""
        digit = digit_of(key, unicode)
        if digit is None or not 1 <= digit <= 9:
            return None
        return digit - 1
