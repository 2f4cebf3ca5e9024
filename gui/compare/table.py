"""The Compare view's table: one row per algorithm at the depth shown, its cells worked out
from the run's state (done, skipped, searching, waiting for an answer, or still to come).

The table reads a `TableState` (plain data the scene fills in), never the scene itself."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

import pygame

from plyground.ai.compare.comparison import Estimate, Row, duration
from plyground.ai.engine.mcts.settings import MCTS
from plyground.ai.evaluation.provenance import Evaluation, Source
from plyground.ai.evaluation.wording import board_text, short_legend
from plyground.games.base import Game
from plyground.gui import theme
from plyground.gui.compare.view_heading import draw_card
from plyground.gui.theme import Metrics
from plyground.gui.widgets import drawing


@dataclass(frozen=True)
class TableState:
    """What the table shows: the game, the variants and their titles, the finished rows,
    the depth shown, the status line, and the run in progress (job, its nodes and time),
    the offer waiting for an answer (`pending`: key, depth, estimate) and whether more
    runs are queued (`running`)."""

    game: Game[Any]
    titles: dict[str, str]
    variants: list[str]
    rows: list[Row]
    depth: int
    status: str
    job: tuple[str, int] | None = None
    job_nodes: int = 0
    job_elapsed: float = 0.0
    pending: tuple[str, int, Estimate | None] | None = None
    running: bool = False


COLUMNS = (
    ("algorithm", 0.0, "left"),
    ("value", 0.30, "right"),
    ("move", 0.355, "center"),
    ("exact", 0.48, "right"),
    ("nodes", 0.58, "right"),
    ("leaves", 0.66, "right"),
    ("cut-offs", 0.74, "right"),
    ("table hits", 0.82, "right"),
    ("time", 0.895, "right"),
    ("share", 1.0, "right"),
)
"""Each column: its name, where it sits (a share of the table's width) and its alignment."""
ANCHORS = {"left": "topleft", "right": "topright", "center": "midtop"}
HEADER_ROOM = 16
"""The least room between two neighbouring column titles, in pixels: closer, the titles of a
narrow table go on two lines."""


def column_titles(titles: dict[str, str], variants: list[str], depth: int) -> list[str]:
    """The column titles as shown ('ALGORITHM · DEPTH 3', ..., 'OF MINIMAX')."""
    first = titles[variants[0]] if variants else ""
    texts = []
    for name, _, _ in COLUMNS:
        if name == "algorithm":
            name = f"algorithm · depth {depth}"
        elif name == "exact":
            name = "exact value of move"
        elif name == "share":
            name = f"of {first}" if 0 < len(first) <= 10 else "share"
        texts.append(name.upper())
    return texts


def _spans(lines: list[list[str]], x0: int, width: int, small: int) -> list[list[tuple[int, int]]]:
    """Where each line of each title goes across: (left, right) by the column's alignment."""
    spans = []
    for (_, at, align), column in zip(COLUMNS, lines, strict=True):
        edge = x0 + at * width
        row = []
        for line in column:
            wide = drawing.text_size(line, small, "semibold")[0]
            left = edge if align == "left" else edge - wide if align == "right" else edge - wide / 2
            row.append((round(left), round(left + wide)))
        spans.append(row)
    return spans


def _crowded(lines: list[list[str]], x0: int, width: int, small: int) -> bool:
    """Whether two neighbouring titles come closer than `HEADER_ROOM` on any line."""
    spans = _spans(lines, x0, width, small)
    depth = max(len(column) for column in lines)
    for row in range(depth):  # the titles' lines align at the bottom
        placed = [
            column[row - depth + len(column)] for column in spans if row - depth + len(column) >= 0
        ]
        if any(b[0] - a[1] < HEADER_ROOM for a, b in itertools.pairwise(placed)):
            return True
    return False


def _stacked(title: str) -> list[str]:
    """A title on two lines: 'TABLE HITS' -> TABLE / HITS, 'CUT-OFFS' -> CUT- / OFFS."""
    head, sep, tail = title.partition(" · ")
    if not sep:
        head, sep, tail = title.rpartition(" ")
    if not sep:
        head, sep, tail = title.partition("-")
        head += sep
    return [head, tail] if sep and tail else [title]


def header_lines(texts: list[str], width: int, small: int) -> list[list[str]]:
    """Each column title's lines: one line each where every title has `HEADER_ROOM` beside
    it, else the titles on two lines (a narrow window)."""
    single = [[text] for text in texts]
    if not _crowded(single, 0, width, small):
        return single
    return [_stacked(text) for text in texts]


def header_height(m: Metrics, lines: list[list[str]]) -> int:
    """The height the column titles take, down to the first row."""
    small = m.font_size(13)
    return round(small * 2.2) + (round(small * 1.25) if max(map(len, lines)) > 1 else 0)


def draw_table(surface: pygame.Surface, scene: TableState, m: Metrics, card: pygame.Rect) -> None:
    """The card: column titles, striped rows for the depth shown, the status line."""
    draw_card(surface, card, m.radius)
    small, size = m.font_size(13), m.font_size(14)
    x0, width = card.left + m.pad, card.width - 2 * m.pad
    y = card.top + m.px(14)
    depth = scene.depth
    lines = header_lines(column_titles(scene.titles, scene.variants, depth), width, small)
    depth_of_titles = max(map(len, lines))
    for (_, at, align), column in zip(COLUMNS, lines, strict=True):
        line_y = y + (depth_of_titles - len(column)) * round(small * 1.25)
        for line in column:
            drawing.draw_text(
                surface,
                line,
                (x0 + at * width, line_y),
                small,
                theme.TEXT_FAINT,
                "semibold",
                anchor=ANCHORS[align],
            )
            line_y += round(small * 1.25)
    y += header_height(m, lines)
    row_h = round(size * 2.1)
    by_key = {row.variant: row for row in scene.rows if row.depth == depth or row.variant == MCTS}
    for index, key in enumerate(scene.variants):
        if index % 2 == 0:
            stripe = pygame.Rect(
                card.left + m.px(8), y - m.px(4), card.width - m.px(16), row_h - m.px(2)
            )
            drawing.rounded_rect(
                surface, stripe, theme.mix(theme.PANEL, theme.PANEL_RAISED, 0.6), m.px(6)
            )
        row = by_key.get(key)
        cells, colour = row_cells(scene, key, row, depth)
        _draw_row(surface, cells, colour, row is not None and row.ran, (x0, y, width), size)
        y += row_h
    room = width - (2 * m.px(130) + m.px(24) if scene.pending else 0)
    key = key_text(scene)
    if key and not scene.pending:  # the one legend for the value column, at the right
        drawn = drawing.draw_text(
            surface, key, (x0 + width, y + m.px(6)), small, theme.TEXT_FAINT, anchor="topright"
        )
        room = drawn.x - x0 - m.px(16)
    line = drawing.ellipsize(scene.status, room, small)
    drawing.draw_text(
        surface,
        line,
        (x0, y + m.px(6)),
        small,
        theme.WARNING if scene.pending else theme.TEXT_DIM,
    )


def evaluation_of(row: Row) -> Evaluation | None:
    """A finished row's root value with its provenance (None: no value, or no kind)."""
    return row.evaluation


def value_cell(game: Game[Any], row: Row) -> str:
    """A root value in the one wording of board labels ('est. +0.18', 'win in 7', '62%',
    MCTS's '○ 0.62': its row's title says its playouts)."""
    stochastic = bool(getattr(game, "stochastic", False))
    evaluation = row.evaluation
    if evaluation is not None and evaluation.source is Source.PLAYOUTS:
        return board_text(evaluation, stochastic)
    return row.value_text(stochastic)


def exact_cell(game: Game[Any], row: Row) -> str:
    """The exact value of the row's move as the board writes it ('draw', 'win in 31',
    '61%'), '?' where it is not known (yet)."""
    if row.exact is None:
        return "?"
    return board_text(row.exact, bool(getattr(game, "stochastic", False)))


def key_text(scene: TableState) -> str:
    """'Key: est.: estimate · win in 5 / draw: exact': how the values shown read
    (`ai.evaluation.wording.short_legend` for the kinds in the table, MCTS's playouts on
    a line of their own), or ''."""
    shown = [
        row.evaluation
        for row in scene.rows
        if (row.depth == scene.depth or row.variant == MCTS)
        and row.ran
        and row.evaluation is not None
    ]
    legend = short_legend(bool(getattr(scene.game, "stochastic", False)), shown)
    return "Key: " + " · ".join(legend) if legend else ""


def _estimated(title: str, state: str, guess: Estimate | None) -> list[str]:
    """A row with only an estimate (skipped, or waiting for Skip / Run anyway)."""
    nodes = f"~{round(guess.nodes):,}" if guess else ""
    seconds = f"~{duration(guess.seconds)}" if guess else ""
    return [title, state, "", "", nodes, "", "", "", seconds, ""]


def row_cells(
    scene: TableState, key: str, row: Row | None, depth: int
) -> tuple[list[str], theme.Colour]:
    """The texts of one row (one per column) and the colour of its name."""
    if row is not None and row.ran:
        tree = row.variant == MCTS  # its nodes are its tree's: no leaves, cut-offs or table
        return [
            row.title,
            value_cell(scene.game, row),
            move_text(scene.game, row.move),
            exact_cell(scene.game, row),
            f"{row.nodes:,}",
            "" if tree else f"{row.leaves:,}",
            "" if tree else f"{row.cutoffs:,}",
            "" if tree else f"{row.table_hits:,}",
            duration(row.elapsed),
            row.share_text,
        ], theme.TEXT
    if row is not None:
        return _estimated(row.title, "skipped", row.estimate), theme.TEXT_FAINT
    title = scene.titles[key]
    if scene.job is not None and scene.job[0] == key and scene.job[1] in (depth, 0):
        nodes, elapsed = f"{scene.job_nodes:,}", duration(scene.job_elapsed)
        return [title, "searching…", "", "", nodes, "", "", "", elapsed, ""], theme.ACCENT
    if scene.pending is not None and scene.pending[:2] == (key, depth):
        return _estimated(title, "too long?", scene.pending[2]), theme.WARNING
    waiting = "waiting" if scene.running else ""
    return [title, waiting, "", "", "", "", "", "", "", ""], theme.TEXT_DIM


def _draw_row(
    surface: pygame.Surface,
    cells: list[str],
    colour: theme.Colour,
    ran: bool,
    place: tuple[int, int, int],
    size: int,
) -> None:
    """One row at `place` (left, top, width): the name in bold and `colour`; the figures of a
    finished run in the plain text colour."""
    x0, y, width = place
    for (_, at, align), text in zip(COLUMNS, cells, strict=True):
        drawing.draw_text(
            surface,
            text,
            (x0 + at * width, y),
            size,
            colour if at == 0.0 or not ran else theme.TEXT,
            "semibold" if at == 0.0 else "regular",
            anchor=ANCHORS[align],
        )


def move_text(game: Game[Any], move: Any) -> str:
    """A move in the game's notation, or its own name when the notation is one letter."""
    if move is None:
        return ""
    text = str(game.format_move(move))
    return move if isinstance(move, str) and len(text) == 1 else text
