"""The kit of every game from a file: a board where the game says it is a grid, else its text.

* **Grid** (the game defines ``grid(state)``: rows of cell texts, and ``grid_move(state, row,
  column)``: the move a click on a cell means): a board of cells a player clicks; a cell's
  text is drawn as a piece in its side's colour where it is a side's mark (the first letter
  of a side's name, or one of the game's ``pieces``), else as written.
* **Text**: the game's own drawing (``display``, ``show``, ``render`` or ``str``) in a panel,
  each character in a column of its own so ASCII boards line up, and its legal moves as
  buttons below (keys 1-9 and 0 pick the first ten).  A chance event lists its outcomes with
  their probabilities.

Moves without a cell are buttons under the grid too.  Values (the analysis panel) are written
under each move's button or in its cell; the hint and the reviewed best move are ringed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pygame

from plyground.games.base import Game
from plyground.games.from_file import FileGame, FileState
from plyground.gui import theme
from plyground.gui.kits.base import BoardView, ViewContext, digit_of, short_value, value_colour
from plyground.gui.kits.best_move import best_colour, best_tag
from plyground.gui.widgets import drawing

CHANCE = -1
EMPTY_CELLS = frozenset({"", ".", "-", "_"})
"""Cell texts drawn as an empty cell."""
MAX_TEXT_SIZE = 44
MIN_TEXT_SIZE = 9


@dataclass(frozen=True)
class Chip:
    """One move's (or chance outcome's) button: what it is, where, its label and its key."""

    move: Any
    rect: pygame.Rect
    label: str
    key: str
    enabled: bool = True


@dataclass(frozen=True)
class Layout:
    """Where everything of one position goes inside the kit's rect."""

    text_rect: pygame.Rect | None
    text_size: int
    cell_w: float
    lines: tuple[str, ...]
    grid_rect: pygame.Rect | None
    cell: float
    rows: int
    columns: int
    chips: tuple[Chip, ...]
    more: int
    """Moves left out for want of room (said under the buttons)."""
    chip_size: int


def _game(state: FileState) -> FileGame:
    return state.game


def _text_lines(state: FileState) -> list[str]:
    text = state.text() if hasattr(state, "text") else str(state)
    lines = [line.rstrip().expandtabs(4) for line in str(text).split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return lines[:40] or [""]


def _cell_texts(state: FileState) -> list[list[str]] | None:
    grid = state.grid() if hasattr(state, "grid") else None
    if not grid:
        return None
    rows = [["" if cell is None else str(cell) for cell in row] for row in grid]
    return rows if rows and all(rows) else None


def side_colour(state: FileState, side: int) -> theme.Colour:
    """A side's colour: the game's own (``side_colours``: two colour names, "#rrggbb" texts or
    (r, g, b) triples) where it gives them and they read, else the palette's."""
    own = getattr(_game(state).obj, "side_colours", None)
    if isinstance(own, (tuple, list)) and len(own) == 2:
        try:
            colour = pygame.Color(own[side])
        except (ValueError, TypeError):
            return theme.PLAYER_COLOURS[side]
        return (colour.r, colour.g, colour.b)
    return theme.PLAYER_COLOURS[side]


def character_width(size: int) -> float:
    """The width of one column of a game's text at `size`: the fixed-width font's where the
    system has one, else a column wide enough for any character."""
    if theme.monospaced_path() is not None:
        return float(theme.font(size, "mono").size("M")[0])
    return size * 0.62


def last_text(state: FileState, last_move: Any) -> str:
    """The caption over the game's text: the last move, and the chance outcome after it with
    its probability ("Last: 2, then 5 (11% likely)")."""
    parent = getattr(state, "parent", None)
    if parent is not None and parent.to_move == CHANCE:
        chances = dict(parent.chance_outcomes())
        outcome = move_label(state, state.last)
        chance = f"{chances.get(state.last, 0):.0%}"
        mover = getattr(parent, "last", None)
        before = f"{move_label(state, mover)}, then " if mover is not None else ""
        return f"Last: {before}{outcome} ({chance} likely)"
    return f"Last: {move_label(state, last_move)}"


def move_label(state: FileState, move: Any) -> str:
    """A move's text on its button: the game's notation."""
    return str(_game(state).format_move(move))


def key_label(index: int) -> str:
    """The key of the index-th move: 1-9, then 0 for the tenth, none after."""
    return str(index + 1) if index < 9 else ("0" if index == 9 else "")


class FileGameView(BoardView[FileState]):
    """See the module's docstring."""

    blurb = "A game of your own, from a file."
    keys_help = "Click a move (or a cell), or press its number."
    move_help = "click a move or press its number"

    def __init__(self) -> None:
        self._cells: dict[int, dict[tuple[int, int], Any]] = {}

    # ------------------------------------------------------------------ layout
    def cell_moves(self, state: FileState, rows: int, columns: int) -> dict[tuple[int, int], Any]:
        """Which legal move each cell means (asked of the game once per position)."""
        found = self._cells.get(id(state))
        if found is None:
            legal = set(state.legal_moves())
            found = {}
            game = _game(state)
            for row in range(rows):
                for column in range(columns):
                    move = game.grid_move(state, row, column)
                    if move is not None and move in legal:
                        found[(row, column)] = move
            self._cells = {id(state): found}
        return found

    def marked_cells(self, state: FileState, rows: int, columns: int) -> dict[Any, tuple[int, int]]:
        """The one cell that carries each move's value and rings: of the cells a move's click
        means, the last empty one in reading order (where a dropped piece lands), else the last."""
        texts = _cell_texts(state) or []
        chosen: dict[Any, tuple[int, int]] = {}
        empty: dict[Any, bool] = {}
        for (row, column), move in sorted(self.cell_moves(state, rows, columns).items()):
            is_empty = not (texts[row][column].strip() if column < len(texts[row]) else "")
            if move not in chosen or is_empty or not empty[move]:
                chosen[move], empty[move] = (row, column), is_empty or empty.get(move, False)
        return chosen

    def layout(self, rect: pygame.Rect, state: FileState, valued: bool = False) -> Layout:
        """The text or grid, then the buttons, fitted to `rect`."""
        pad = max(6, round(min(rect.width, rect.height) * 0.02))
        area = rect.inflate(-2 * pad, -2 * pad)
        chance = state.to_move == CHANCE
        if chance:
            choices = [(o, f"{move_label(state, o)}  {p:.0%}") for o, p in state.chance_outcomes()]
        else:
            choices = [(m, move_label(state, m)) for m in state.legal_moves()]
        cells = _cell_texts(state)
        grid_rect, cell, rows, columns = None, 0.0, 0, 0
        if cells is not None:
            rows, columns = len(cells), max(len(row) for row in cells)
            if not chance:
                mapped = set(self.cell_moves(state, rows, columns).values())
                choices = [(m, label) for m, label in choices if m not in mapped]
        chip_size = max(12, min(20, round(area.height * 0.035)))
        chip_h = round(chip_size * (2.9 if valued else 2.0))
        chip_rows_room = min(4, max(1, round(area.height * 0.32 / (chip_h + pad))))
        chips, more, chips_height = self._chips(
            area, choices, chip_size, chip_h, pad, chip_rows_room, chance, valued
        )
        top = pygame.Rect(
            area.x, area.y, area.width, area.height - chips_height - (pad if chips else 0)
        )
        text_rect, size, cell_w = None, 0, 0.0
        lines: tuple[str, ...] = ()
        if cells is not None:
            cell = min(top.width / columns, top.height / rows)
            grid_rect = pygame.Rect(0, 0, round(cell * columns), round(cell * rows))
            grid_rect.center = top.center
        else:
            text_lines = _text_lines(state)
            longest = max(len(line) for line in text_lines) or 1
            size = MAX_TEXT_SIZE
            while size > MIN_TEXT_SIZE and (
                longest * character_width(size) > top.width - 2 * pad
                or len(text_lines) * size * 1.3 > top.height - 2 * pad
            ):
                size -= 1
            cell_w = character_width(size)
            shown = [line[: max(1, int((top.width - 2 * pad) / cell_w))] for line in text_lines]
            fits = max(1, int((top.height - 2 * pad) / (size * 1.3)))
            lines = tuple(shown[:fits])
            width = min(
                top.width, round(max(len(line) for line in lines) * cell_w + 2 * pad + size)
            )
            height = min(top.height, round(len(lines) * size * 1.3 + 2 * pad))
            text_rect = pygame.Rect(0, 0, max(width, min(top.width, 12 * size)), height)
            text_rect.center = top.center
        return Layout(
            text_rect,
            size,
            cell_w,
            lines,
            grid_rect,
            cell,
            rows,
            columns,
            tuple(chips),
            more,
            chip_size,
        )

    def _chips(
        self,
        area: pygame.Rect,
        choices: Sequence[tuple[Any, str]],
        size: int,
        height: int,
        gap: int,
        most_rows: int,
        chance: bool,
        valued: bool = False,
    ) -> tuple[list[Chip], int, int]:
        if not choices:
            return [], 0, 0
        # with values shown, a button is as wide as the longest value label it may carry
        least = drawing.text_size("est. +0.00", max(10, size - 4), "semibold")[0] + size
        widths = [
            max(
                drawing.text_size(label, size, "semibold")[0] + size * (3 if index < 10 else 2),
                least if valued else 0,
            )
            for index, (_, label) in enumerate(choices)
        ]
        rows: list[list[int]] = [[]]
        used = 0
        for index, width in enumerate(widths):
            width = min(width, area.width)
            if rows[-1] and used + gap + width > area.width:
                if len(rows) == most_rows:
                    break
                rows.append([])
                used = 0
            rows[-1].append(index)
            used += (gap if used else 0) + width
        placed: list[Chip] = []
        total_h = len(rows) * height + (len(rows) - 1) * gap
        y = area.bottom - total_h
        for row in rows:
            row_w = sum(min(widths[i], area.width) for i in row) + gap * (len(row) - 1)
            x = area.centerx - row_w // 2
            for index in row:
                width = min(widths[index], area.width)
                move, label = choices[index]
                placed.append(
                    Chip(
                        move,
                        pygame.Rect(x, y, width, height),
                        label,
                        "" if chance else key_label(index),
                        not chance,
                    )
                )
                x += width + gap
            y += height + gap
        more = len(choices) - len(placed)
        return placed, more, total_h + (round(size * 1.4) if more else 0)

    # ------------------------------------------------------------------ drawing
    def draw(
        self, surface: pygame.Surface, rect: pygame.Rect, state: FileState, ctx: ViewContext
    ) -> None:
        """The grid or the text, then the move buttons; values, hint and last move marked."""
        layout = self.layout(rect, state, bool(ctx.values))
        if layout.grid_rect is not None:
            self._draw_grid(surface, layout, state, ctx)
        elif layout.text_rect is not None:
            self._draw_text(surface, layout)
        for chip in layout.chips:
            self._draw_chip(surface, chip, layout.chip_size, ctx)
        if layout.more:
            below = max(chip.rect.bottom for chip in layout.chips)
            drawing.draw_text(
                surface,
                f"+{layout.more} more moves: ← → picks any move, Enter or ↓ plays it",
                (rect.centerx, below + 4),
                max(11, layout.chip_size - 3),
                theme.TEXT_DIM,
                anchor="midtop",
            )
        if ctx.last_move is not None and layout.grid_rect is None and layout.text_rect is not None:
            drawing.draw_text(
                surface,
                drawing.ellipsize(
                    last_text(state, ctx.last_move),
                    layout.text_rect.width,
                    max(11, layout.chip_size - 2),
                ),
                (layout.text_rect.x, layout.text_rect.y - 2),
                max(11, layout.chip_size - 2),
                theme.TEXT_FAINT,
                anchor="bottomleft",
            )

    def _draw_text(self, surface: pygame.Surface, layout: Layout) -> None:
        assert layout.text_rect is not None
        box = layout.text_rect
        drawing.rounded_rect(
            surface, box, theme.PANEL, max(6, layout.text_size // 2), 1, theme.PANEL_BORDER
        )
        line_h = layout.text_size * 1.3
        left = box.x + (box.width - max(len(line) for line in layout.lines) * layout.cell_w) / 2
        top = box.y + (box.height - len(layout.lines) * line_h) / 2
        mono = theme.monospaced_path() is not None
        for row, line in enumerate(layout.lines):
            y = top + row * line_h
            if mono:  # a fixed-width font: the line as it is, its columns in place
                drawing.draw_text(surface, line, (left, y), layout.text_size, theme.TEXT, "mono")
                continue
            for column, char in enumerate(line):  # no such font here: a column per character
                if char != " ":
                    drawing.draw_text(
                        surface,
                        char,
                        (left + (column + 0.5) * layout.cell_w, y),
                        layout.text_size,
                        theme.TEXT,
                        "semibold",
                        anchor="midtop",
                    )

    def _piece_side(self, state: FileState, text: str) -> int | None:
        game = _game(state)
        pieces = getattr(getattr(game, "obj", None), "pieces", None)
        if isinstance(pieces, (tuple, list)) and len(pieces) == 2 and text in map(str, pieces):
            return [str(p) for p in pieces].index(text)
        for side, name in enumerate(game.side_names):
            if text in (name, name[:1]):
                return side
        return None

    def _draw_grid(
        self, surface: pygame.Surface, layout: Layout, state: FileState, ctx: ViewContext
    ) -> None:
        assert layout.grid_rect is not None
        board = layout.grid_rect
        cells = _cell_texts(state) or []
        chance = state.to_move == CHANCE
        moves = {} if chance else self.cell_moves(state, layout.rows, layout.columns)
        marked = (
            {
                cell: move
                for move, cell in self.marked_cells(state, layout.rows, layout.columns).items()
            }
            if moves
            else {}
        )
        radius = max(4, round(layout.cell * 0.12))
        drawing.rounded_rect(
            surface, board.inflate(6, 6), theme.PANEL, radius, 1, theme.PANEL_BORDER
        )
        hover = self.move_at(board, state, ctx.mouse) if (ctx.interactive and ctx.mouse) else None
        for row, texts in enumerate(cells):
            for column in range(layout.columns):
                cell = pygame.Rect(
                    round(board.x + column * layout.cell),
                    round(board.y + row * layout.cell),
                    round(layout.cell),
                    round(layout.cell),
                ).inflate(-2, -2)
                move = moves.get((row, column))
                shade = theme.PANEL_RAISED if move is not None else theme.PANEL
                if move is not None and move == hover:
                    shade = theme.mix(theme.PANEL_RAISED, theme.ACCENT, 0.25)
                drawing.rounded_rect(surface, cell, shade, radius)
                text = texts[column] if column < len(texts) else ""
                self._draw_piece(surface, cell, state, text, layout.cell)
                if move is not None and marked.get((row, column)) == move:
                    self._mark_cell(surface, cell, move, ctx, layout.cell, radius)

    def _draw_piece(
        self, surface: pygame.Surface, cell: pygame.Rect, state: FileState, text: str, size: float
    ) -> None:
        """A side's mark as a disc in its colour, any other text as written, blanks as empty."""
        shown = text.strip()
        if shown in EMPTY_CELLS:
            return
        side = self._piece_side(state, text)
        if side is not None:
            drawing.circle(surface, side_colour(state, side), cell.center, size * 0.34)
            label = text[:2]
            points = drawing.fit_size(label, round(size * 0.5), round(size * 0.36), "bold", 9)
            drawing.draw_text(
                surface, label, cell.center, points, theme.PANEL, "bold", anchor="center"
            )
            return
        points = drawing.fit_size(text, round(size * 0.8), round(size * 0.4), "semibold", 9)
        label = drawing.ellipsize(text, round(size * 0.9), points, "semibold")
        drawing.draw_text(
            surface, label, cell.center, points, theme.TEXT, "semibold", anchor="center"
        )

    def _mark_cell(
        self,
        surface: pygame.Surface,
        cell: pygame.Rect,
        move: Any,
        ctx: ViewContext,
        size: float,
        radius: int,
    ) -> None:
        """The cell that carries a move: its value (analysis shown) and the hint's ring."""
        if ctx.values and move in ctx.values:
            value = ctx.values[move]
            points = max(9, round(size * 0.16))
            label = drawing.ellipsize(
                short_value(value, ctx.stochastic), cell.width - 4, points, "semibold"
            )
            drawing.draw_text(
                surface,
                label,
                (cell.centerx, cell.bottom - 2),
                points,
                value_colour(value.value),
                "semibold",
                anchor="midbottom",
            )
        if move == ctx.hint:
            pygame.draw.rect(surface, best_colour(), cell, max(2, round(size * 0.05)), radius)

    def _draw_chip(self, surface: pygame.Surface, chip: Chip, size: int, ctx: ViewContext) -> None:
        hover = bool(
            chip.enabled and ctx.interactive and ctx.mouse and chip.rect.collidepoint(ctx.mouse)
        )
        colour = theme.mix(theme.PANEL_RAISED, theme.ACCENT, 0.3 if hover else 0.0)
        if not chip.enabled:
            colour = theme.PANEL
        border = best_colour() if chip.move == ctx.hint and chip.enabled else theme.PANEL_BORDER
        drawing.rounded_rect(
            surface,
            chip.rect,
            colour,
            max(6, size // 2),
            2 if border is not theme.PANEL_BORDER else 1,
            border,
        )
        inner = chip.rect.inflate(-size, 0)
        label_y = chip.rect.y + round(size * 0.45)
        if chip.key:
            drawing.draw_text(
                surface,
                chip.key,
                (inner.x, label_y),
                max(10, size - 4),
                theme.TEXT_FAINT,
                "semibold",
            )
            inner = pygame.Rect(inner.x + size, inner.y, inner.width - size, inner.height)
        text = drawing.ellipsize(chip.label, max(8, inner.width), size, "semibold")
        drawing.draw_text(
            surface,
            text,
            (inner.centerx, label_y),
            size,
            theme.TEXT if chip.enabled else theme.TEXT_DIM,
            "semibold",
            anchor="midtop",
        )
        if ctx.values and chip.move in ctx.values:
            value = ctx.values[chip.move]
            small = max(10, size - 4)
            label = drawing.ellipsize(
                short_value(value, ctx.stochastic), chip.rect.width - 6, small, "semibold"
            )
            drawing.draw_text(
                surface,
                label,
                (chip.rect.centerx, chip.rect.bottom - round(size * 0.35)),
                small,
                value_colour(value.value),
                "semibold",
                anchor="midbottom",
            )

    # ------------------------------------------------------------------ input
    def move_at(self, rect: pygame.Rect, state: FileState, pos: tuple[int, int] | None) -> Any:
        """The move of the button or cell under `pos` (None: nothing there)."""
        if pos is None or state.is_terminal() or state.to_move == CHANCE:
            return None
        layout = self.layout(rect, state)
        for chip in layout.chips:
            if chip.enabled and chip.rect.collidepoint(pos):
                return chip.move
        board = layout.grid_rect
        if board is not None and board.collidepoint(pos) and layout.cell > 0:
            row = int((pos[1] - board.y) // layout.cell)
            column = int((pos[0] - board.x) // layout.cell)
            return self.cell_moves(state, layout.rows, layout.columns).get((row, column))
        return None

    def move_for_key(self, state: FileState, key: int, unicode: str) -> Any:
        """Keys 1-9 and 0: the first ten legal moves in the game's order."""
        digit = digit_of(key, unicode)
        if digit is None or state.is_terminal() or state.to_move == CHANCE:
            return None
        index = 9 if digit == 0 else digit - 1
        moves = state.legal_moves()
        return moves[index] if index < len(moves) else None

    def turn_text(self, game: Game[Any], before: FileState, entries: Sequence[Any]) -> str | None:
        """A row of the move list: the moves, each chance outcome after its move in brackets
        ("2 (5)")."""
        words: list[str] = []
        for entry in entries:
            text = str(game.format_move(entry.move))
            if entry.chance and words:
                words[-1] += f" ({text})"
            else:
                words.append(f"({text})" if entry.chance else text)
        return " ".join(words) or None

    def draw_best_move(
        self, surface: pygame.Surface, rect: pygame.Rect, state: FileState, move: Any
    ) -> None:
        """Ring the best move's button or cell and tag it."""
        layout = self.layout(rect, state)
        for chip in layout.chips:
            if chip.move == move:
                pygame.draw.rect(surface, best_colour(), chip.rect.inflate(6, 6), 3, 8)
                best_tag(surface, "best", chip.rect.midtop, max(12, layout.chip_size))
                return
        if layout.grid_rect is not None:
            for cell_move, (row, column) in self.marked_cells(
                state, layout.rows, layout.columns
            ).items():
                if cell_move == move:
                    cell = pygame.Rect(
                        round(layout.grid_rect.x + column * layout.cell),
                        round(layout.grid_rect.y + row * layout.cell),
                        round(layout.cell),
                        round(layout.cell),
                    )
                    pygame.draw.rect(surface, best_colour(), cell, 3, 6)
                    best_tag(surface, "best", cell.midtop, max(12, round(layout.cell * 0.2)))
                    return
        super().draw_best_move(surface, rect, state, move)

    def draw_icon(self, surface: pygame.Surface, rect: pygame.Rect, now: float) -> None:
        """A page with a few lines: a game written in a file."""
        s = min(rect.width, rect.height)
        page = pygame.Rect(0, 0, round(s * 0.5), round(s * 0.62))
        page.center = rect.center
        drawing.rounded_rect(surface, page, theme.PANEL_RAISED, round(s * 0.05), 2, theme.ACCENT)
        for i in range(4):
            y = page.y + page.height * (0.25 + i * 0.16)
            drawing.thick_line(
                surface,
                theme.TEXT_DIM,
                (page.x + page.width * 0.18, y),
                (page.right - page.width * (0.18 + 0.12 * (i % 2)), y),
                max(2, s * 0.025),
            )
