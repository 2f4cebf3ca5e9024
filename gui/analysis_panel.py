"""The analysis panel: what the last search found and what it cost (read from SearchResult).

Pruning savings are labelled for what they are: a measured minimax node count when the
worker could afford one at the same depth, otherwise alpha-beta's cutoffs and table hits
next to the size of the full b^d tree that plain minimax would face (a theoretical bound).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pygame

from gui import drawing, theme
from gui.theme import Metrics

ALGORITHM_NAMES = {
    "minimax": "minimax",
    "alphabeta": "alpha-beta",
    "expectiminimax": "expectiminimax",
}


@dataclass
class Analysis:
    """One search to explain: the result, whose it was, and extra measurements."""

    result: Any
    source: str
    """"ai" for the AI's own move, "hint" for a hint for a human."""
    player: int
    branching: int
    minimax_nodes: int | None = None
    all_values: bool = True
    """False when the search only proved the best move (its other values are bounds)."""
    played: Any = None
    """The move actually played (a preset with randomness may not play the best one)."""


def compact(number: float) -> str:
    """1234 -> '1.23k', 12345 -> '12.3k', 1234567 -> '1.23M'."""
    if number >= 1_000_000:
        return f"{number / 1_000_000:.3g}M"
    if number >= 1_000:
        return f"{number / 1_000:.3g}k"
    return f"{number:,.0f}"


def summary_lines(analysis: Analysis, game: Any) -> list[tuple[str, str]]:
    """(label, text) rows for the panel."""
    from ai.values import describe

    result = analysis.result
    stochastic = bool(getattr(game, "stochastic", False))
    rows: list[tuple[str, str]] = []
    best = f"{game.format_move(result.move)} · {describe(result.value, stochastic)}"
    played = analysis.played
    if played is not None and played != result.move and played in result.move_values:
        rows.append(
            (
                "Played",
                f"{game.format_move(played)} · {describe(result.move_values[played], stochastic)}"
                " (randomness)",
            )
        )
    rows.append(("Best", best))
    if result.pv:
        pv = " ".join(game.format_move(m) for m in result.pv[:10])
        rows.append(("Line", pv + (" …" if len(result.pv) > 10 else "")))
    algorithm = ALGORITHM_NAMES.get(result.algorithm, result.algorithm)
    status = "" if result.complete else " (cut short)"
    rows.append(("Search", f"{algorithm}, depth {result.depth}{status}"))
    speed = f" · {compact(result.nodes_per_second)}/s" if result.elapsed > 0.01 else ""
    rows.append(("Work", f"{compact(result.nodes)} nodes · {result.elapsed:.2f} s{speed}"))
    if result.algorithm == "alphabeta":
        rows.append(
            (
                "Pruning",
                f"{compact(result.cutoffs)} cutoffs · {compact(result.table_hits)} table hits",
            )
        )
        if analysis.minimax_nodes:
            share = result.nodes / analysis.minimax_nodes * 100
            rows.append(
                (
                    "vs minimax",
                    f"{compact(analysis.minimax_nodes)} nodes measured; "
                    f"alpha-beta used {share:.1f}%",
                )
            )
        else:
            full = float(analysis.branching) ** max(1, result.depth)
            share = result.nodes / full * 100 if full else 0.0
            used = f"{share:.1f}%" if share < 100 else "not fewer (a small tree)"
            rows.append(
                (
                    "vs b^d",
                    f"full tree {analysis.branching}^{result.depth} ≈ {compact(full)} "
                    f"(theory); used {used}",
                )
            )
    elif result.algorithm == "minimax":
        rows.append(("Pruning", "none: minimax visits every node"))
    if stochastic:
        rows.append(("Values", "chances to win, dice averaged"))
    if getattr(result, "exact", False):
        rows.append(("", "Every value is a proven result."))
    return rows


def draw(
    surface: pygame.Surface,
    rect: pygame.Rect,
    analysis: Analysis | None,
    game: Any,
    m: Metrics,
    names: tuple[str, str],
    thinking: bool = False,
) -> None:
    """The panel inside `rect` (title, rows; a hint when nothing has been analysed yet)."""
    drawing.rounded_rect(
        surface,
        rect,
        theme.mix(theme.PANEL, theme.BG_BOTTOM, 0.35),
        m.px(10),
        1,
        theme.PANEL_BORDER,
    )
    x, y = rect.x + m.gap, rect.y + m.px(10)
    width = rect.width - 2 * m.gap
    head = m.font_size(13)
    if analysis is None:
        title = "ANALYSIS"
        drawing.draw_text(surface, title, (x, y), head, theme.TEXT_DIM, "semibold")
        note = (
            "Waiting for the AI…"
            if thinking
            else "Shows the values of each move after an AI move or a hint."
        )
        for i, line in enumerate(drawing.wrap(note, width, m.font_size(14))[:3]):
            drawing.draw_text(
                surface,
                line,
                (x, y + head * 1.8 + i * m.font_size(14) * 1.4),
                m.font_size(14),
                theme.TEXT_FAINT,
            )
        return
    if analysis.source == "hint":
        title = f"HINT FOR {names[analysis.player].upper()}"
    else:
        title = f"LAST AI MOVE · {names[analysis.player].upper()}"
    drawing.draw_text(
        surface,
        drawing.ellipsize(title, width, head, "semibold"),
        (x, y),
        head,
        theme.SUCCESS if analysis.source == "hint" else theme.TEXT_DIM,
        "semibold",
    )
    y += round(head * 1.8)
    size = m.font_size(14)
    label_w = m.px(78)
    line_h = round(size * 1.45)
    for label, text in summary_lines(analysis, game):
        lines = drawing.wrap(text, width - label_w, size)
        if y + line_h * min(2, len(lines)) > rect.bottom - m.px(4):
            break
        drawing.draw_text(surface, label, (x, y), size, theme.TEXT_FAINT)
        for line in lines[:2]:
            drawing.draw_text(surface, line, (x + label_w, y), size, theme.TEXT)
            y += line_h


def preferred_height(m: Metrics) -> int:
    """Height the panel wants (title plus about eight rows)."""
    return m.px(14) + round(m.font_size(13) * 1.8) + round(m.font_size(14) * 1.45) * 8 + m.px(6)
