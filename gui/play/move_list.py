"""The list of moves in the game's notation: newest at the bottom, scrollable, clickable.

A click on a move shows its position (`gui.play.browse`); the browsed move is highlighted
and kept in view unless the list was scrolled by hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pygame

from plyground.gui import theme
from plyground.gui.widgets import drawing

MARK_COLOURS = {"??": "DANGER", "✗": "DANGER", "?": "WARNING", "?!": "ACCENT"}
"""The theme colour of each review mark (`ai.advice.game_review.MARKS`)."""


def mark_colour(judgement: Any) -> theme.Colour:
    """The colour of a judgement's mark (read at draw time: palettes change colours)."""
    from plyground.ai.advice.game_review import MARKS

    colour: theme.Colour = getattr(theme, MARK_COLOURS[MARKS[judgement]])
    return colour


Part = tuple[int, str, int, int]
"""A move on a line: its player, its text, its row (its index in the rows given) and its
column (0 for the side that moved first, 1 for the other; always 0 with dice)."""
Line = tuple[int | None, list[Part]]
"""A visual line: the move number (None for a wrapped continuation) and its parts."""


def columns(players: Sequence[int]) -> list[tuple[int, int]]:
    """Each row's (line number, column) without dice: the side that moved first on the left,
    the other on the right, a line for each pair; a side that moves again (an extra turn)
    starts the next line in its own column, the other side's place on its line left empty."""
    placed: list[tuple[int, int]] = []
    first = players[0] if players else 0
    for player in players:
        column = 0 if player == first else 1
        number = placed[-1][0] if placed else 0
        if not placed or column <= placed[-1][1]:
            number += 1
        placed.append((number, column))
    return placed


def layout(rows: list[tuple[int, str]], stochastic: bool, width: int, size: int) -> list[Line]:
    """Moves in pairs, one column per side (see `columns`), or one wrapped turn a line for
    dice games."""
    lines: list[Line] = []
    if stochastic:
        for row, (player, text) in enumerate(rows):
            for k, part in enumerate(drawing.wrap(text, width, size)):
                lines.append((row + 1 if k == 0 else None, [(player, part, row, 0)]))
        return lines
    for row, ((player, text), (number, column)) in enumerate(
        zip(rows, columns([player for player, _ in rows]), strict=True)
    ):
        if not lines or lines[-1][0] != number:
            lines.append((number, []))
        lines[-1][1].append((player, text, row, column))
    return lines


def move_number(row: int, stochastic: bool, players: Sequence[int]) -> int:
    """The number the move list gives row `row` (`players`: each row's player): a turn a
    line with dice, else the line of its pair."""
    return row + 1 if stochastic else columns(players)[row][0]


def heading_height(m: Any) -> int:
    """The MOVES heading's height, above the first line."""
    return round(int(m.font_size(12)) * 1.8)


def line_height(m: Any) -> int:
    """One line of the list (closer together in a short window)."""
    return round(int(m.font_size(14)) * (1.5 if m.height >= 700 else 1.3))


class Window:
    """Which lines of the list fit in `rect`, scrolled: the geometry draw and clicks share."""

    def __init__(
        self,
        rect: pygame.Rect,
        m: Any,
        rows: list[tuple[int, str]],
        stochastic: bool,
        scroll: int | None = None,
        highlight: int | None = None,
    ) -> None:
        """`scroll`: lines hidden below (None: the newest, or the highlighted row in view)."""
        self.m = m
        self.rect = rect
        self.stochastic = stochastic
        self.size = m.font_size(14)
        self.line_h = line_height(m)
        self.top = rect.y + heading_height(m)
        self.room = max(0, (rect.bottom - self.top) // self.line_h)
        self.col_w = (rect.width - m.px(36)) // 2
        self.lines = layout(rows, stochastic, rect.width - m.px(36) - m.px(14), self.size)
        most = max(0, len(self.lines) - self.room)
        if scroll is None:
            scroll = 0
            if highlight is not None:
                where = next(
                    (
                        k
                        for k, (_, parts) in enumerate(self.lines)
                        if highlight in {p[2] for p in parts}
                    ),
                    len(self.lines) - 1,
                )
                scroll = max(0, len(self.lines) - 1 - where - self.room // 2)
        self.scroll = max(0, min(most, scroll))
        end = len(self.lines) - self.scroll
        self.shown = self.lines[max(0, end - self.room) : end] if self.room else []

    def part_rect(self, k: int, j: int) -> pygame.Rect:
        """Where part `j` of shown line `k` is (its dot and text), in its side's column."""
        m = self.m
        column = self.shown[k][1][j][3]
        x = self.rect.x + m.px(36) + column * self.col_w
        width = self.rect.right - x if self.stochastic else self.col_w - m.px(8)
        return pygame.Rect(x, self.top + k * self.line_h, width, self.line_h)

    def row_at(self, pos: tuple[int, int]) -> int | None:
        """The row (index into the rows given) of the move at `pos`, or None."""
        for k, (_, parts) in enumerate(self.shown):
            for j, part in enumerate(parts):
                if self.part_rect(k, j).collidepoint(pos):
                    return part[2]
        return None


def draw(
    surface: pygame.Surface,
    rect: pygame.Rect,
    m: Any,
    rows: list[tuple[int, str]],
    stochastic: bool,
    scroll: int | None = None,
    highlight: int | None = None,
    marks: dict[int, Any] | None = None,
) -> None:
    """The MOVES heading and the lines in view; the newest, or the `highlight`ed row, stands
    out, and a count of the lines scrolled out of view below says there are more.  `marks`:
    the game review's worst judged move of a row (`ai.advice.game_review.MoveReview`), drawn after
    it."""
    if rect.height < m.px(44):
        return
    small = m.font_size(12)
    drawing.draw_text(surface, "MOVES", (rect.x, rect.y), small, theme.TEXT_FAINT, "semibold")
    window = Window(rect, m, rows, stochastic, scroll, highlight)
    size = window.size
    if not rows:
        drawing.draw_text(surface, "No moves yet", (rect.x, window.top), size, theme.TEXT_FAINT)
        return
    if window.scroll:
        more = f"{window.scroll} more below · wheel or PgDn"
        drawing.draw_text(
            surface, more, (rect.right, rect.y), small, theme.ACCENT, anchor="topright"
        )
    newest = len(rows) - 1 if highlight is None else highlight
    for k, (label, pairs) in enumerate(window.shown):
        y = window.top + k * window.line_h
        if label is not None:
            drawing.draw_text(surface, f"{label}.", (rect.x, y), size, theme.TEXT_FAINT)
        for j, (player, text, row, _) in enumerate(pairs):
            box = window.part_rect(k, j)
            if row == highlight:
                pill = pygame.Rect(box.x - m.px(4), box.y - m.px(2), box.width, window.line_h)
                drawing.rounded_rect(
                    surface,
                    pill,
                    theme.mix(theme.PANEL, theme.ACCENT, 0.3),
                    m.px(6),
                    1,
                    theme.ACCENT,
                )
            if label is not None:
                centre = (box.x + m.px(4), y + size * 0.62)
                drawing.circle(surface, theme.PLAYER_COLOURS[player], centre, m.px(3.5))
            strong = row == newest
            judged = (marks or {}).get(row)
            room = box.width - m.px(14)
            mark = judged.mark if judged is not None else ""
            if mark:
                room -= drawing.text_size(mark, size, "bold")[0] + m.px(6)
            weight = "semibold" if strong else "regular"
            shown = drawing.draw_text(
                surface,
                drawing.ellipsize(text, room, size, weight),
                (box.x + m.px(14), y),
                size,
                theme.TEXT if strong else theme.TEXT_DIM,
                weight,
            )
            if judged is not None and mark:  # right after the move it judges
                drawing.draw_text(
                    surface,
                    mark,
                    (shown.right + m.px(4), y),
                    size,
                    mark_colour(judged.judgement),
                    "bold",
                )
