"""Connect-four: a blue board, falling discs, a hover preview, keys 1-7, the four lit up.

Motion: the newest disc falls into its column while `ctx.moving` says it animates.
"""

from __future__ import annotations

import math
from typing import Any

import pygame

from plyground.ai.evaluation.provenance import Evaluation
from plyground.ai.evaluation.wording import compact_text
from plyground.games.connect4.rules import State as ConnectFourState
from plyground.gui import sound, theme
from plyground.gui.kits.base import BoardView, ViewContext, digit_of, short_value, value_colour
from plyground.gui.kits.best_move import best_arrow, best_colour
from plyground.gui.widgets import drawing

WIDTH, HEIGHT = 7, 6
_BOARD_CACHE: dict[tuple[int, int, str], pygame.Surface] = {}


LABEL_SHARE = 0.2
"""Column labels and values are this part of a cell tall (never under `drawing`'s 11 px)."""
LINE_SPACING = 1.35
BELOW_ROWS = 2
"""Rows of text under the board: the column keys, then each column's value on one line."""
WORDS_SMALLEST = 12
"""Values are written in words only where every one fits its column at this size or more."""


def column_room(cell: float) -> int:
    """The width a column's value may take: its cell less a gap to its neighbours."""
    return int(cell * 0.88)


def words_fit(values: dict[int, Evaluation], stochastic: bool, room: int, size: int) -> bool:
    """Whether every value in words fits `room` pixels on one line at `WORDS_SMALLEST` px
    or more (else the row is written in the compact form)."""
    smallest = max(WORDS_SMALLEST, round(size * 0.75))
    return all(
        drawing.text_size(short_value(value, stochastic), smallest, "semibold")[0] <= room
        for value in values.values()
    )


def value_labels(
    values: dict[int, Evaluation], stochastic: bool, room: int, size: int
) -> dict[int, str]:
    """Each column's value label: in words where they all fit (`words_fit`), else all in
    the compact form (one form for the row)."""
    text = short_value if words_fit(values, stochastic, room, size) else compact_text
    return {col: text(value, stochastic) for col, value in values.items()}


def label_size(cell: float) -> int:
    """The font size of the column labels and values under cells of `cell` pixels."""
    return max(11, round(cell * LABEL_SHARE))


def geometry(rect: pygame.Rect) -> tuple[pygame.Rect, float]:
    """The board (holes area) inside `rect`, leaving room above for the preview disc and
    below for the column labels and values (their letters never shrink under 11 px, so a
    small board leaves them more of its cells); and the cell size."""
    lines = BELOW_ROWS * LINE_SPACING
    by_height = min(
        rect.height / (HEIGHT + 1.25 + 0.3 + lines * LABEL_SHARE),
        (rect.height - lines * 11) / (HEIGHT + 1.25 + 0.3),
    )
    cell = max(1.0, min(rect.width / (WIDTH + 0.4), by_height))
    below = cell * 0.3 + lines * label_size(cell)
    board = pygame.Rect(0, 0, round(cell * WIDTH), round(cell * HEIGHT))
    board.centerx = rect.centerx
    board.top = round(rect.y + (rect.height - cell * (HEIGHT + 1.25) - below) / 2 + cell * 1.25)
    return board, cell


def board_overlay(size: tuple[int, int], cell: float) -> pygame.Surface:
    """The blue board with see-through holes, drawn supersampled once per size."""
    key = (size[0], size[1], theme.PALETTE.name)
    cached = _BOARD_CACHE.get(key)
    if cached is not None:
        return cached
    k = 3
    pad = round(cell * 0.18)
    w, h = size[0] + 2 * pad, size[1] + 2 * pad
    big = pygame.Surface((w * k, h * k), pygame.SRCALPHA)
    pygame.draw.rect(
        big, theme.BOARD_BLUE_DARK, big.get_rect(), border_radius=round(cell * 0.28 * k)
    )
    pygame.draw.rect(
        big,
        theme.BOARD_BLUE,
        big.get_rect().inflate(-6 * k, -6 * k).move(0, -2 * k),
        border_radius=round(cell * 0.26 * k),
    )
    hole = cell * 0.39
    for col in range(WIDTH):
        for row in range(HEIGHT):
            cx = (pad + (col + 0.5) * cell) * k
            cy = (pad + (row + 0.5) * cell) * k
            pygame.draw.circle(big, theme.BOARD_BLUE_DARK, (cx, cy + 2 * k), hole * k + 2 * k)
            pygame.draw.circle(big, (0, 0, 0, 0), (cx, cy), hole * k)
    image = pygame.transform.smoothscale(big, (w, h))
    if len(_BOARD_CACHE) > 8:
        _BOARD_CACHE.clear()
    _BOARD_CACHE[key] = image
    return image


def draw_disc(
    surface: pygame.Surface,
    centre: tuple[float, float],
    radius: float,
    player: int,
    alpha: int = 255,
) -> None:
    """A disc with a rim and a soft highlight."""
    if alpha < 255:
        size = math.ceil(radius * 2 + 4)
        layer = pygame.Surface((size, size), pygame.SRCALPHA)
        draw_disc(layer, (size / 2, size / 2), radius, player)
        layer.set_alpha(alpha)
        surface.blit(layer, (round(centre[0] - size / 2), round(centre[1] - size / 2)))
        return
    sprite = _disc_sprite(round(radius * 4) / 4, player)
    surface.blit(
        sprite,
        (round(centre[0] - sprite.get_width() / 2), round(centre[1] - sprite.get_height() / 2)),
    )


_DISCS: dict[tuple[float, int, str], pygame.Surface] = {}
_LAYERS: dict[str, tuple[Any, pygame.Surface]] = {}


def _disc_sprite(radius: float, player: int) -> pygame.Surface:
    """A disc drawn once per size and colour, then blitted."""
    key = (radius, player, theme.PALETTE.name)
    sprite = _DISCS.get(key)
    if sprite is None:
        if len(_DISCS) > 16:
            _DISCS.clear()
        size = math.ceil(radius * 2 + 4)
        sprite = pygame.Surface((size, size), pygame.SRCALPHA)
        _paint_disc(sprite, (size / 2, size / 2), radius, player)
        _DISCS[key] = sprite
    return sprite


def _paint_disc(
    surface: pygame.Surface, centre: tuple[float, float], radius: float, player: int
) -> None:
    colour, shade = theme.PLAYER_COLOURS[player], theme.PLAYER_SHADES[player]
    drawing.circle(surface, shade, centre, radius)
    drawing.circle(surface, colour, centre, radius * 0.86)
    drawing.circle(surface, theme.mix(colour, shade, 0.35), centre, radius * 0.62)
    drawing.circle(
        surface,
        theme.mix(colour, (255, 255, 255), 0.2),
        (centre[0] - radius * 0.05, centre[1] - radius * 0.05),
        radius * 0.5,
    )
    drawing.player_mark(surface, player, centre, radius, shade)


class ConnectFourView(BoardView[ConnectFourState]):
    """Draws connect-four and maps clicks and keys 1-7 to columns."""

    blurb = "Drop discs, line up four. Deep search shines here."
    keys_help = "Click a column, press 1-7, or ← → and ↓ (or Enter) to drop."
    bench_presets = ("Medium", "Expert")
    side_names_are_colours = True
    move_help = "click a column, press 1-7 or use ← → ↓"
    sounds = sound.DISC_SOUNDS
    draws_cursor = True

    def cursor_move(self, state: ConnectFourState, cursor: Any, dx: int, dy: int) -> Any:
        """A column: ←/→ move along the top (starting in the middle), ↓ drops (None)."""
        if cursor is None:
            return WIDTH // 2
        if dy > 0:
            return None
        return max(0, min(WIDTH - 1, cursor + dx))

    def move_seconds(self, before: ConnectFourState, move: Any) -> float:
        """A disc falls longer the emptier its column."""
        return 0.28 + 0.045 * (HEIGHT - int(before.height(move)))

    def refusal(self, state: ConnectFourState, move: Any) -> str | None:
        """Only a full column refuses a disc."""
        return f"Column {move + 1} is full"

    def draw_icon(self, surface: pygame.Surface, rect: pygame.Rect, now: float) -> None:
        """A corner of the board with a few discs and one bobbing above it."""
        cx, cy = rect.center
        cell = min(rect.width, rect.height) / 4.6
        board = pygame.Rect(0, 0, round(cell * 4), round(cell * 3.3))
        board.center = (cx, round(cy + cell * 0.3))
        drawing.rounded_rect(surface, board, theme.BOARD_BLUE, round(cell * 0.3))
        pattern = ((0, 0, 1), (1, 0, 0), (1, 1, 0), (2, 0, 1), (3, 0, 0), (2, 1, 1), (1, 2, 1))
        for col in range(4):
            for row in range(3):
                centre = (board.x + (col + 0.5) * cell, board.bottom - (row + 0.55) * cell)
                drawing.circle(surface, theme.HOLE, centre, cell * 0.36)
        for col, row, player in pattern:
            centre = (board.x + (col + 0.5) * cell, board.bottom - (row + 0.55) * cell)
            draw_disc(surface, centre, cell * 0.36, player)
        bob = math.sin(now * 2.2) * cell * 0.12
        draw_disc(surface, (board.x + 2.5 * cell, board.y - cell * 0.55 + bob), cell * 0.36, 0)

    def draw(
        self, surface: pygame.Surface, rect: pygame.Rect, state: ConnectFourState, ctx: ViewContext
    ) -> None:
        """Holes, discs (the newest falling), preview disc, column labels and values."""
        board, cell = geometry(rect)
        pad = round(cell * 0.18)
        outer = board.inflate(2 * pad, 2 * pad)
        drawing.shadow(surface, outer, round(cell * 0.28), spread=round(cell * 0.3), alpha=110)
        hover = self.move_at(rect, state, ctx.mouse) if ctx.mouse and ctx.interactive else None
        if ctx.cursor is not None and ctx.interactive:
            hover = ctx.cursor
        moving = ctx.moving
        drop = None
        if moving is not None and isinstance(moving.move, int):
            drop = (moving.move, state.height(moving.move) - 1, moving.progress)
        self._draw_discs(surface, board, cell, state, drop)
        surface.blit(board_overlay(board.size, cell), (board.x - pad, board.y - pad))
        if hover is not None:
            band = pygame.Rect(
                round(board.x + hover * cell + cell * 0.06),
                board.y - round(cell * 0.06),
                round(cell * 0.88),
                board.height + round(cell * 0.12),
            )
            drawing.rounded_rect(surface, band, (255, 255, 255), round(cell * 0.44), alpha=18)
            if hover == ctx.cursor:  # the keyboard's column: ringed
                width = max(2, round(cell * 0.04))
                pygame.draw.rect(surface, theme.ACCENT, band, width, round(cell * 0.44))
        self._draw_hint(surface, board, cell, state, ctx)
        self._draw_marks(surface, board, cell, state, ctx, drop)
        if hover is not None:
            self._draw_preview(surface, board, cell, state, ctx, hover)
        self._draw_labels(surface, board, cell, pad, ctx, hover)

    def _draw_discs(
        self,
        surface: pygame.Surface,
        board: pygame.Rect,
        cell: float,
        state: ConnectFourState,
        drop: Any,
    ) -> None:
        """The holes and settled discs (cached until a move is made), then a falling disc."""
        radius = cell * 0.39
        falling = (drop[0], drop[1]) if drop and drop[2] < 1 else None
        # Holes and settled discs change only when a move is made: drawn once, then blitted.
        key = (board.size, state.key(), falling, theme.PALETTE.name)
        cached = _LAYERS.get("discs")
        if cached is None or cached[0] != key:
            layer = pygame.Surface(board.size, pygame.SRCALPHA)
            for col in range(WIDTH):
                for row in range(HEIGHT):
                    centre = ((col + 0.5) * cell, board.height - (row + 0.5) * cell)
                    drawing.circle(layer, theme.HOLE, centre, radius + 1)
                    owner = state.cell(col, row)
                    if owner is not None and (col, row) != falling:
                        draw_disc(layer, centre, radius, owner)
            cached = _LAYERS["discs"] = (key, layer)
        surface.blit(cached[1], board.topleft)
        if falling is not None and drop is not None:
            col, row = falling
            owner = state.cell(col, row)
            if owner is not None:
                centre_y = board.bottom - (row + 0.5) * cell
                start_y = board.y - cell * 0.75
                y = start_y + (centre_y - start_y) * drawing.ease_out_bounce(drop[2])
                draw_disc(surface, (board.x + (col + 0.5) * cell, y), radius, owner)

    def _draw_hint(
        self,
        surface: pygame.Surface,
        board: pygame.Rect,
        cell: float,
        state: ConnectFourState,
        ctx: ViewContext,
    ) -> None:
        """A pulsing ring where the hinted disc would land."""
        radius = cell * 0.39
        hint = ctx.hint
        if not (isinstance(hint, int) and 0 <= hint < WIDTH and state.height(hint) < HEIGHT):
            return
        centre = (
            board.x + (hint + 0.5) * cell,
            board.bottom - (state.height(hint) + 0.5) * cell,
        )
        pulse = 0.5 + 0.5 * math.sin(ctx.now * 4)
        drawing.glow(surface, theme.SUCCESS, centre, round(radius * 1.5), round(50 + 40 * pulse))
        pygame.draw.aacircle(
            surface,
            theme.SUCCESS,
            (round(centre[0]), round(centre[1])),
            round(radius * 0.9),
            max(2, round(cell * 0.05)),
        )
        drawing.draw_text(
            surface,
            "hint",
            centre,
            max(12, round(cell * 0.2)),
            theme.SUCCESS,
            "bold",
            anchor="center",
        )

    def _draw_marks(
        self,
        surface: pygame.Surface,
        board: pygame.Rect,
        cell: float,
        state: ConnectFourState,
        ctx: ViewContext,
        drop: Any,
    ) -> None:
        """Rings on the winning four, or a dot on the last disc once it has landed."""
        radius = cell * 0.39
        win = set(ctx.winning_line or ())
        # Winning four and last move markers sit on top of the board.
        for col, row in win:
            centre = (board.x + (col + 0.5) * cell, board.bottom - (row + 0.5) * cell)
            pulse = 0.5 + 0.5 * math.sin(ctx.now * 5)
            drawing.glow(
                surface, (255, 255, 255), centre, round(radius * 1.6), round(60 + 50 * pulse)
            )
            pygame.draw.aacircle(
                surface,
                (255, 255, 255),
                (round(centre[0]), round(centre[1])),
                round(radius * 0.95),
                max(2, round(cell * 0.05)),
            )
        if ctx.last_move is not None and not win and not (drop and drop[2] < 1):
            col = ctx.last_move
            row = state.height(col) - 1
            if row >= 0:
                centre = (board.x + (col + 0.5) * cell, board.bottom - (row + 0.5) * cell)
                drawing.circle(surface, (255, 255, 255), centre, max(2.0, cell * 0.045))

    def _draw_preview(
        self,
        surface: pygame.Surface,
        board: pygame.Rect,
        cell: float,
        state: ConnectFourState,
        ctx: ViewContext,
        hover: int,
    ) -> None:
        """The preview disc above the column under the mouse (a gentle shake if it is full)."""
        radius = cell * 0.39
        full = state.height(hover) >= HEIGHT
        x = board.x + (hover + 0.5) * cell
        if ctx.cue and ctx.cue[0] == hover and ctx.cue[1] < 0.4:
            x += math.sin(ctx.cue[1] * 50) * cell * 0.08 * (1 - ctx.cue[1] / 0.4)
        y = board.y - cell * 0.72
        if full:
            drawing.circle(surface, theme.PANEL_BORDER, (x, y), radius * 0.9, 2)
            drawing.draw_text(
                surface,
                "full",
                (x, y),
                max(11, round(cell * 0.2)),
                theme.TEXT_DIM,
                "semibold",
                anchor="center",
            )
        else:
            draw_disc(surface, (x, y), radius, state.to_move, alpha=200)

    def _draw_labels(
        self,
        surface: pygame.Surface,
        board: pygame.Rect,
        cell: float,
        pad: int,
        ctx: ViewContext,
        hover: Any,
    ) -> None:
        """Column labels (the keys) and, with analysis shown, each column's value on one line
        under it, all at one size: in words where every value fits its column ('win in 21'),
        else in the compact form ('W21', '≤L4', '=', '~+.07'), which keeps the count."""
        size = label_size(cell)
        line = round(size * LINE_SPACING)
        y = board.bottom + pad + cell * 0.12
        for col in range(WIDTH):
            x = board.x + (col + 0.5) * cell
            colour = theme.TEXT if hover == col else theme.TEXT_FAINT
            drawing.draw_text(surface, str(col + 1), (x, y), size, colour, "semibold", "midtop")
        values = {col: v for col, v in (ctx.values or {}).items() if 0 <= col < WIDTH}
        room = column_room(cell)
        texts = value_labels(values, ctx.stochastic, room, size)
        value_size = min(
            (drawing.fit_size(text, room, size, "semibold") for text in texts.values()),
            default=size,
        )
        for col, text in texts.items():
            x = board.x + (col + 0.5) * cell
            colour = value_colour(values[col].value)
            label = drawing.draw_text(
                surface, text, (x, y + line), value_size, colour, "semibold", anchor="midtop"
            )
            if col == ctx.chosen:
                under = label.bottom + 1
                pygame.draw.line(surface, colour, (label.left, under), (label.right, under), 2)

    def compact_labels(self, rect: pygame.Rect, values: dict[Any, Any], stochastic: bool) -> bool:
        """True when the columns are too narrow for these values in words."""
        _, cell = geometry(rect)
        shown = {col: v for col, v in values.items() if 0 <= col < WIDTH}
        return not words_fit(shown, stochastic, column_room(cell), label_size(cell))

    def draw_best_move(
        self, surface: pygame.Surface, rect: pygame.Rect, state: ConnectFourState, move: Any
    ) -> None:
        """An arrow down the best column onto the square the disc would land on."""
        board, cell = geometry(rect)
        row = state.height(move)
        if row >= HEIGHT:
            return
        x = board.x + (move + 0.5) * cell
        land = board.bottom - (row + 0.5) * cell
        best_arrow(surface, (x, board.y - cell * 0.95), (x, land - cell * 0.3), cell * 0.12)
        drawing.circle(surface, best_colour(), (x, land), cell * 0.36, max(3, round(cell * 0.07)))

    def move_at(
        self, rect: pygame.Rect, state: ConnectFourState, pos: tuple[int, int] | None
    ) -> Any:
        """The column under `pos` (anywhere from the preview row to the labels), or None."""
        if pos is None:
            return None
        board, cell = geometry(rect)
        if not (
            board.x <= pos[0] < board.right
            and board.y - cell * 1.2 <= pos[1] <= board.bottom + cell * 0.5
        ):
            return None
        return min(WIDTH - 1, int((pos[0] - board.x) // cell))

    def move_for_key(self, state: ConnectFourState, key: int, unicode: str) -> Any:
        """Keys 1-7 pick a column."""
        digit = digit_of(key, unicode)
        if digit is None or not 1 <= digit <= WIDTH:
            return None
        return digit - 1
