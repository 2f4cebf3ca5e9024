"""The analysis panel: what the last search found and what it cost (read from SearchResult).

Pruning savings are labelled for what they are: a measured minimax node count when the
worker could afford one at the same depth (compared pass for pass: iterative deepening
repeats passes), otherwise the size of minimax's tree sampled from the game.  Only exact
values are called chances to win; a dice game's heuristic values are estimates.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pygame

from plyground.ai.advice import report
from plyground.ai.evaluation.numbers import compact
from plyground.ai.evaluation.wording import counted, panel_key, value_text
from plyground.games.base import Game
from plyground.gui import theme
from plyground.gui.play.search_jobs import Analysis
from plyground.gui.theme import Metrics
from plyground.gui.widgets import drawing

ALGORITHM_NAMES = {
    "minimax": "minimax",
    "alphabeta": "alpha-beta",
    "expectiminimax": "expectiminimax",
}


def summary_lines(
    analysis: Analysis, game: Game[Any], names: tuple[str, str] | None = None
) -> list[tuple[str, str]]:
    """(label, text) rows for the panel (the same wording as `analyze`: ai.advice.report and
    ai.evaluation.wording); `names` are the sides' names, so a win or loss says for whom."""
    result = analysis.result
    stochastic = bool(getattr(game, "stochastic", False))
    side = (names or tuple(getattr(game, "side_names", ("", ""))))[analysis.player] or None
    rows: list[tuple[str, str]] = []
    if analysis.final:
        rows.append(("For", "an earlier position (the game is over)"))
    elif analysis.stale:
        rows.append(("For", "an earlier position: this one's advice is on its way"))
    if analysis.advice:
        rows.append(("Advice", analysis.advice))
    played = analysis.played
    if played is not None and played != result.move and played in result.move_values:
        played_value = value_text(result.move_values[played], stochastic, side)
        rows.append(("Played", f"{game.format_move(played)} · {played_value} (randomness)"))
    rows.append(("Best", best_text(result, game, side)))
    if result.pv:
        line = report.line_text(result, game, book=False)
        end = report.book_end(result, side)
        evaluation = result.evaluation
        if not evaluation.distance_known and end == value_text(evaluation, stochastic, side):
            line, end = f"{line} · then the book", None  # the Best row says what it gives
        if len(result.pv) > 1 or end is not None or not line.endswith("then the book"):
            rows.append(("Line", line))  # (a best move the book answers at once: no line)
        if end is not None and not line.endswith("…"):
            rows.append(("Then", f"the book: {end}"))  # the line stops there: say so
    searched = report.search_line(result)
    if searched != analysis.advice:  # the source is said once
        rows.append(("Search", searched))
    if not report.looked_up(result):
        rows += work_rows(analysis)
    note = report.values_note(result, stochastic)
    key = " · ".join(panel_key(stochastic, result.move_values.values()))
    if note is not None:
        rows.append(("Values", f"{note} · {key}" if key else note))
    elif key:
        rows.append(("Key", key))
    opponent = analysis.opponent
    if opponent is not None and opponent.result.move is not None:
        who = (names or tuple(getattr(game, "side_names", ("", ""))))[opponent.player]
        view = best_text(opponent.result, game, who)
        rows.append((f"{who}'s view", f"{view} ({report.search_line(opponent.result)})"))
    return rows


def work_rows(analysis: Analysis) -> list[tuple[str, str]]:
    """What the search cost and what pruning saved, each counter as `ai.textbook.counts`
    defines it and only where it applies (see `report.counters`)."""
    result = analysis.result
    rate = report.speed(result)
    work = f"{counted(result.nodes, 'node', compact(result.nodes))} · {result.elapsed:.2f} s"
    rows = [("Work", work + (f" · {rate}" if rate else ""))]
    if result.algorithm == "alphabeta":
        shown = [
            counted(count, noun, compact(count))
            for noun, count in report.counters(result)
            if noun != "leaf"
        ]
        if shown:
            rows.append(("Pruning", " · ".join(shown)))
        if analysis.minimax_nodes:
            rows.append(("vs minimax", report.versus_minimax(result, analysis.minimax_nodes)))
        else:
            tree = report.versus_tree(result)
            if tree is not None:
                rows.append(("vs minimax", tree))
    elif result.algorithm == "minimax":
        rows.append(("Pruning", "none: minimax visits every node"))
    return rows


def best_text(result: Any, game: Game[Any], side: str | None = None) -> str:
    """'4 · win in 5 for Red', 'roll · est. +0.07': the best move and its value as its
    provenance says (the panel's Best row and the Hint)."""
    stochastic = bool(getattr(game, "stochastic", False))
    value = value_text(result.evaluation, stochastic, side)
    return f"{game.format_move(result.move)} · {value}"


@dataclass(frozen=True)
class Section:
    """A heading and its (label, text) rows; `bars` (one share in [0, 1] a row) draws a small
    bar beside each row's label: the share of the budget a move took."""

    title: str
    colour: theme.Colour
    rows: list[tuple[str, str]]
    bars: tuple[float, ...] = ()
    narrow: tuple[str, ...] = ()
    """Each row's text for a panel too narrow for it on one line (the heading names the
    figures): shown instead of wrapping."""

    def text(self, row: int, width: int, size: int) -> str:
        """Row `row`'s text for a text column `width` wide: its narrow form where the whole
        does not fit on one line and there is one."""
        text = self.rows[row][1]
        if self.narrow and drawing.text_size(text, size)[0] > width:
            return self.narrow[row]
        return text


PLAYOUT_TITLE = "EACH MOVE · ○ MEAN (ESTIMATE) · N · SHARE · UCB"
"""The heading of the root moves' Monte Carlo figures (`report.PlayoutRow.text`'s order)."""
PROVEN_TITLES = {
    "some": "EACH MOVE · ○ MEAN (ESTIMATE) OR PROVEN · N · SHARE · UCB",
    "all": "EACH MOVE · PROVEN VALUE · N · SHARE · UCB",
}
"""The heading where the tree proved some or all of the root moves' values."""


def playout_section(analysis: Analysis, game: Game[Any]) -> Section | None:
    """Each root move's visits, mean result, share of the budget and UCB term, best first,
    written by `report.playout_rows` (the board labels the same values the same way); None
    when the search was not Monte Carlo tree search."""
    rows = report.playout_rows(analysis.result, bool(getattr(game, "stochastic", False)))
    if not rows:
        return None
    proven = sum(row.proven for row in rows)
    title = PLAYOUT_TITLE if not proven else PROVEN_TITLES["all" if proven == len(rows) else "some"]
    return Section(
        title,
        theme.TEXT_DIM,
        [(game.format_move(row.move), row.text()) for row in rows],
        tuple(row.share for row in rows),
        tuple(row.short_text() for row in rows),
    )


def _sections(
    analysis: Analysis | None,
    game: Game[Any],
    names: tuple[str, str] | None,
    extra: list[tuple[str, str]] | None,
) -> list[Section]:
    """What the panel shows, in order: the kit's exact rows, the analysis, the playouts."""
    sections = [Section("OPTIMAL PLAY (EXACT)", theme.ACCENT, extra)] if extra else []
    if analysis is None:
        return sections
    shown = names or tuple(getattr(game, "side_names", ("", "")))
    sections.append(
        Section(
            title_of(analysis, shown), colour_of(analysis), summary_lines(analysis, game, names)
        )
    )
    playouts = playout_section(analysis, game)
    if playouts is not None:
        sections.append(playouts)
    return sections


def title_of(analysis: Analysis, names: Sequence[str]) -> str:
    """The analysis's heading: whose view, advice or a reviewed position."""
    if analysis.source == "hint":
        title = f"ADVICE FOR {names[analysis.player].upper()}"
        return title + (" · EARLIER POSITION" if analysis.stale else "")
    if analysis.source == "browse":
        return f"REVIEWED · {names[analysis.player].upper()} TO MOVE"
    return f"{names[analysis.player].upper()}'S VIEW · ITS LAST SEARCH"


def colour_of(analysis: Analysis) -> theme.Colour:
    """The heading's colour: advice green, a reviewed position the accent, faint when stale."""
    if analysis.stale:
        return theme.TEXT_FAINT
    return {"hint": theme.SUCCESS, "browse": theme.ACCENT}.get(analysis.source, theme.TEXT_DIM)


def draw(
    surface: pygame.Surface,
    rect: pygame.Rect,
    analysis: Analysis | None,
    game: Game[Any],
    m: Metrics,
    names: tuple[str, str],
    thinking: bool = False,
    extra: list[tuple[str, str]] | None = None,
) -> int:
    """The panel inside `rect` (title, rows; a hint when nothing has been analysed yet).

    `extra` rows (the kit's `analysis_rows`, e.g. exact odds) come first, under their own
    heading; a Monte Carlo search's root moves come last, each with its figures and a bar of
    its share.  Rows wrap to as many lines as they need, never cut short; rows that find no
    room are left out whole, a last line says how many, and the number is returned (the
    side panel then shows the whole analysis while the pointer is over it).
    """
    drawing.rounded_rect(
        surface,
        rect,
        theme.mix(theme.PANEL, theme.BG_BOTTOM, 0.35),
        m.px(10),
        1,
        theme.PANEL_BORDER,
    )
    sections = _sections(analysis, game, names, extra)
    x, y = rect.x + m.gap, rect.y + m.px(10)
    width = rect.width - 2 * m.gap
    layout = fit_layout(sections, width, rect.bottom - m.px(4) - y, m)
    hidden = _draw_sections(None, rect, analysis, sections, m, thinking, layout)
    if not hidden:
        return _draw_sections(surface, rect, analysis, sections, m, thinking, layout)
    note_h = round(m.font_size(12) * 1.5)
    room = rect.copy()
    room.height -= note_h
    hidden = _draw_sections(surface, room, analysis, sections, m, thinking, layout)
    note = f"+{hidden} more · point here or press V"
    size = m.font_size(12)
    note = drawing.ellipsize(note, width, size)
    drawing.draw_text(surface, note, (x, room.bottom - m.px(4)), size, theme.ACCENT)
    return hidden


def _draw_sections(
    surface: pygame.Surface | None,
    rect: pygame.Rect,
    analysis: Analysis | None,
    sections: list[Section],
    m: Metrics,
    thinking: bool,
    layout: Layout,
) -> int:
    """The titles and rows inside `rect` (`surface` None: only count); returns how many
    rows found no room."""
    x, y = rect.x + m.gap, rect.y + m.px(10)
    width = rect.width - 2 * m.gap
    head = m.font_size(13)
    hidden = 0
    for number, section in enumerate(sections):
        if number:
            y += m.px(6)
        y, missed = _draw_rows(surface, section, x, y, width, rect, m, layout)
        hidden += missed
    if analysis is None:
        if surface is None or y + head * 1.8 > rect.bottom - m.px(4):
            return hidden  # a short window: the exact rows above took the room
        if sections:
            y += m.px(6)
        drawing.draw_text(surface, "ANALYSIS", (x, y), head, theme.TEXT_DIM, "semibold")
        note = (
            "Waiting for the AI…"
            if thinking
            else "Shows the values of each move after an AI move or a hint."
        )
        if sections:
            note = "Waiting for the AI…" if thinking else "Search details appear after an AI move."
        for i, line in enumerate(drawing.wrap(note, width, m.font_size(14))[:3]):
            if y + head * 1.8 + (i + 1) * m.font_size(14) * 1.4 > rect.bottom - m.px(4):
                break
            drawing.draw_text(
                surface,
                line,
                (x, y + head * 1.8 + i * m.font_size(14) * 1.4),
                m.font_size(14),
                theme.TEXT_FAINT,
            )
    return hidden


Layout = tuple[int, float, float]
LAYOUTS: tuple[Layout, ...] = (
    (14, 1.45, 1.8),
    (13, 1.35, 1.6),
    (12, 1.2, 1.4),
    (12, 1.1, 1.3),
)
"""(font size, line and heading height factors), roomiest first: the panel takes the first
that shows every row whole, so a small window loses spacing before it loses rows."""


def _section_height(section: Section, width: int, m: Metrics, layout: Layout) -> int:
    size, factor, head = layout
    size = m.font_size(size)
    line_h = round(size * factor)
    text_w = width - _label_width(section, size, m)
    lines = sum(
        len(drawing.wrap(section.text(row, text_w, size), text_w, size))
        for row in range(len(section.rows))
    )
    title_lines = len(drawing.wrap(section.title, width, m.font_size(13), "semibold"))
    head_h = round(m.font_size(13) * head) + round(m.font_size(13) * 1.3) * (title_lines - 1)
    return head_h + line_h * lines


def _label_width(section: Section, size: int, m: Metrics) -> int:
    """The label column: room for the widest label (and its bar, where rows have bars)."""
    rows = section.rows
    widest = max((drawing.text_size(label, size)[0] for label, _ in rows), default=0)
    if section.bars:
        return widest + m.px(8) + _bar_width(m) + m.px(10)
    return max(m.px(78), widest + m.px(8))


def _bar_width(m: Metrics) -> int:
    """The length of a full share bar (a move that took every iteration)."""
    return m.px(36)


def fit_layout(sections: list[Section], width: int, height: int, m: Metrics) -> Layout:
    """The roomiest of LAYOUTS in which every section's rows fit `height` (else the last)."""
    for layout in LAYOUTS:
        needed = sum(_section_height(section, width, m, layout) for section in sections)
        needed += m.px(6) * max(0, len(sections) - 1)
        if needed <= height:
            return layout
    return LAYOUTS[-1]


def _draw_rows(
    surface: pygame.Surface | None,
    section: Section,
    x: int,
    y: int,
    width: int,
    rect: pygame.Rect,
    m: Metrics,
    layout: Layout = LAYOUTS[0],
) -> tuple[int, int]:
    """A heading and (label, text) rows, each wrapped to as many lines as it needs; a row
    that does not fit whole is left out with the rest (`surface` None: only measure).
    Returns the bottom and how many rows were left out."""
    rows = section.rows
    head = m.font_size(13)
    size = m.font_size(layout[0])
    label_w = _label_width(section, size, m)
    line_h = round(size * layout[1])
    title_lines = drawing.wrap(section.title, width, head, "semibold")
    head_h = round(head * layout[2]) + round(head * 1.3) * (len(title_lines) - 1)
    if y + head_h + line_h > rect.bottom - m.px(4):
        return y, len(rows)  # not even one row fits: no heading without content
    for i, line in enumerate(title_lines):
        if surface is not None:
            drawing.draw_text(
                surface, line, (x, y + i * round(head * 1.3)), head, section.colour, "semibold"
            )
    y += head_h
    for done, (label, _) in enumerate(rows):
        text = section.text(done, width - label_w, size)
        lines = drawing.wrap(text, width - label_w, size)
        if y + line_h * len(lines) > rect.bottom - m.px(4):
            return y, len(rows) - done
        if surface is not None:
            drawing.draw_text(surface, label, (x, y), size, theme.TEXT_FAINT)
            if section.bars:
                _draw_bar(surface, section.bars[done], x + label_w - m.px(10), y, size, m)
        for line in lines:
            if surface is not None:
                drawing.draw_text(surface, line, (x + label_w, y), size, theme.TEXT)
            y += line_h
    return y, 0


def _draw_bar(
    surface: pygame.Surface, share: float, right: int, y: int, size: int, m: Metrics
) -> None:
    """A share of the budget as a small bar ending at `right`, beside a row's first line."""
    full = _bar_width(m)
    track = pygame.Rect(right - full, y + round(size * 0.3), full, max(3, round(size * 0.45)))
    drawing.rounded_rect(surface, track, theme.mix(theme.PANEL, theme.TEXT_FAINT, 0.25), m.px(2))
    filled = round(full * max(0.0, min(1.0, share)))
    if filled:
        filled_part = pygame.Rect(track.x, track.y, filled, track.height)
        drawing.rounded_rect(surface, filled_part, theme.ACCENT, m.px(2))


def full_height(
    analysis: Analysis | None,
    game: Game[Any],
    m: Metrics,
    width: int,
    extra: list[tuple[str, str]] | None = None,
    names: tuple[str, str] | None = None,
) -> int:
    """Height that shows every row of `analysis` and `extra` in the roomiest layout, the panel
    `width` wide (the side panel's expanded view while the pointer is over it)."""
    sections = _sections(analysis, game, names, extra)
    text_w = width - 2 * m.gap
    height = sum(_section_height(section, text_w, m, LAYOUTS[0]) for section in sections)
    height += m.px(6) * max(0, len(sections) - 1)
    if analysis is None:
        height += round(m.font_size(13) * 1.8) + round(m.font_size(14) * 1.4) * 3
    return m.px(10) + height + m.px(10)


def preferred_height(m: Metrics, extra_rows: int = 0) -> int:
    """Height the panel wants (title plus about eight rows, and any extra section)."""
    height = m.px(14) + round(m.font_size(13) * 1.8) + round(m.font_size(14) * 1.45) * 8 + m.px(6)
    if extra_rows:
        height += round(m.font_size(13) * 1.8) + round(m.font_size(14) * 1.45) * (extra_rows + 2)
    return height


def content_height(
    analysis: Analysis | None, game: Game[Any], m: Metrics, width: int, extra_rows: int = 0
) -> int:
    """Height that shows `analysis`'s rows in the roomiest layout (the panel `width` wide):
    the side panel gives what is left to the move list; `preferred_height` before a search."""
    if analysis is None:
        return preferred_height(m, extra_rows)
    sections = _sections(analysis, game, None, None)
    text_w = width - 2 * m.gap
    height = sum(_section_height(section, text_w, m, LAYOUTS[0]) for section in sections)
    height += m.px(10) + m.px(6) * (len(sections) - 1) + m.px(10)
    if extra_rows:
        height += preferred_height(m, extra_rows) - preferred_height(m)
    return height
