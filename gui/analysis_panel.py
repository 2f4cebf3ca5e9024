"""The analysis panel: what the last search found and what it cost (read from SearchResult).

Pruning savings are labelled for what they are: a measured minimax node count when the
worker could afford one at the same depth (compared pass for pass: iterative deepening
repeats passes), otherwise the size of minimax's tree sampled from the game.  Only exact
values are called chances to win; Pig's heuristic values are estimates.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pygame

from ai import report
from ai.values import describe
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


compact = report.compact


def summary_lines(analysis: Analysis, game: Any) -> list[tuple[str, str]]:
    """(label, text) rows for the panel (the same wording as `analyze`: ai.report)."""
    result = analysis.result
    stochastic = bool(getattr(game, "stochastic", False))
    exact = bool(getattr(result, "exact", False))
    rows: list[tuple[str, str]] = []
    played = analysis.played
    if played is not None and played != result.move and played in result.move_values:
        played_value = describe(result.move_values[played], stochastic, exact)
        rows.append(("Played", f"{game.format_move(played)} · {played_value} (randomness)"))
    rows.append(("Best", best_text(result, game)))
    if result.pv:
        pv = " ".join(game.format_move(m) for m in result.pv[:10])
        rows.append(("Line", pv + (" …" if len(result.pv) > 10 else "")))
    algorithm = ALGORITHM_NAMES.get(result.algorithm, result.algorithm)
    status = "" if result.complete else " (cut short)"
    rows.append(("Search", f"{algorithm}, depth {result.depth}{status}"))
    rate = report.speed(result)
    work = f"{compact(result.nodes)} nodes · {result.elapsed:.2f} s"
    rows.append(("Work", work + (f" · {rate}" if rate else "")))
    if result.algorithm == "alphabeta":
        rows.append(
            (
                "Pruning",
                f"{compact(result.cutoffs)} cutoffs · {compact(result.table_hits)} table hits",
            )
        )
        if analysis.minimax_nodes:
            rows.append(("vs minimax", report.versus_minimax(result, analysis.minimax_nodes)))
        else:
            tree = report.versus_tree(result)
            if tree is not None:
                rows.append(("vs minimax", tree))
    elif result.algorithm == "minimax":
        rows.append(("Pruning", "none: minimax visits every node"))
    note = report.values_note(result, stochastic)
    if note is not None:
        rows.append(("Values", note))
    return rows


def best_text(result: Any, game: Any) -> str:
    """'4 · win in 5', 'roll · estimate +0.07': the best move and its honest value (the
    panel's Best row and the Hint; a chance to win only when the value is exact)."""
    stochastic = bool(getattr(game, "stochastic", False))
    value = describe(result.value, stochastic, bool(getattr(result, "exact", False)))
    return f"{game.format_move(result.move)} · {value}"


PIG_TABLE_MAX_GOAL = 100
"""Pig's optimal table is used up to this goal (100 is a stored asset; smaller ones solve
in well under a second); beyond it the panel leaves the win chances out rather than stall."""


def pig_table(goal: int) -> Any:
    """The optimal Pig table for `goal`, or None when it would be too slow to make."""
    if goal > PIG_TABLE_MAX_GOAL:
        return None
    try:
        from games.pig_optimal import optimal_table

        return optimal_table(goal)
    except (ValueError, OSError):
        return None


def percent(p: float) -> str:
    """0.5432 -> '54.3%'."""
    return f"{100 * p:.1f}%"


def pig_rows(
    game: Any, initial: Any, entries: list[Any], names: tuple[str, str]
) -> list[tuple[str, str]]:
    """Pig under optimal play (games.pig_optimal): each side's chance to win now, the optimal
    decision with its win probability, and the last decision with the probability it gave up.

    `entries` are the match's entries (move, state after it, chance flag); `names` the two
    players' names.  Empty when there is no table for this goal.
    """
    from games.base import CHANCE

    table = pig_table(int(getattr(game, "goal", 100)))
    if table is None:
        return []
    state = entries[-1].state if entries else initial
    rows: list[tuple[str, str]] = []
    short = [_short(name.split(" · ")[0]) for name in names]
    if state.is_terminal():
        winner = state.winner()
        chances = [1.0 if winner == i else 0.0 for i in (0, 1)]
    else:
        me = state.player
        my, opp, total = state.scores[me], state.scores[1 - me], state.turn_total
        if state.to_move == CHANCE:
            mine = table.roll_win_probability(my, opp, total)
        else:
            mine = table.win_probability(my, opp, total)
        chances = [0.0, 0.0]
        chances[me], chances[1 - me] = mine, 1.0 - mine
    rows.append(("Chances", f"{short[0]} {percent(chances[0])} · {short[1]} {percent(chances[1])}"))
    if not state.is_terminal() and state.to_move != CHANCE:
        me = state.player
        my, opp, total = state.scores[me], state.scores[1 - me], state.turn_total
        roll = table.roll_win_probability(my, opp, total)
        if total == 0:
            rows.append(("Optimal", f"roll (the only move) · {percent(roll)} to win"))
        else:
            hold = table.hold_win_probability(my, opp, total)
            best = "roll" if table.should_roll(my, opp, total) else "hold"
            other = f"hold {percent(hold)}" if best == "roll" else f"roll {percent(roll)}"
            rows.append(("Optimal", f"{best} · {percent(max(roll, hold))} to win ({other})"))
    last = next((i for i in range(len(entries) - 1, -1, -1) if not entries[i].chance), None)
    if last is not None:
        before = entries[last - 1].state if last > 0 else initial
        move = entries[last].move
        me = before.player
        my, opp, total = before.scores[me], before.scores[1 - me], before.turn_total
        roll = table.roll_win_probability(my, opp, total)
        hold = table.hold_win_probability(my, opp, total) if total > 0 else None
        chosen = roll if move == "roll" else (hold if hold is not None else roll)
        best = roll if hold is None else max(roll, hold)
        lost = max(0.0, best - chosen)
        verb = "rolled" if move == "roll" else "held"
        at = f" at {total}" if total else ""
        verdict = "optimal, gave up 0%" if lost < 5e-5 else f"gave up {percent(lost)} to win"
        rows.append(("Last", f"{short[me]} {verb}{at} · {verdict}"))
    return rows


def _short(name: str) -> str:
    """'Player 1' -> 'P1' (the panel is narrow); other names as they are."""
    if name.startswith("Player ") and name[7:].isdigit():
        return "P" + name[7:]
    return name


def draw(
    surface: pygame.Surface,
    rect: pygame.Rect,
    analysis: Analysis | None,
    game: Any,
    m: Metrics,
    names: tuple[str, str],
    thinking: bool = False,
    extra: list[tuple[str, str]] | None = None,
) -> None:
    """The panel inside `rect` (title, rows; a hint when nothing has been analysed yet).

    `extra` rows (Pig's optimal-play figures) come first, under their own heading.
    """
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
    if extra:
        y = _draw_rows(surface, "OPTIMAL PLAY (EXACT)", theme.ACCENT, extra, x, y, width, rect, m)
        y += m.px(6)
    if analysis is None:
        title = "ANALYSIS"
        if y + head * 1.8 > rect.bottom - m.px(4):
            return  # a short window: the exact rows above took the room
        drawing.draw_text(surface, title, (x, y), head, theme.TEXT_DIM, "semibold")
        note = (
            "Waiting for the AI…"
            if thinking
            else "Shows the values of each move after an AI move or a hint."
        )
        if extra:
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
        return
    if analysis.source == "hint":
        title = f"HINT FOR {names[analysis.player].upper()}"
    else:
        title = f"LAST AI MOVE · {names[analysis.player].upper()}"
    colour = theme.SUCCESS if analysis.source == "hint" else theme.TEXT_DIM
    _draw_rows(surface, title, colour, summary_lines(analysis, game), x, y, width, rect, m)


def _draw_rows(
    surface: pygame.Surface,
    title: str,
    colour: theme.Colour,
    rows: list[tuple[str, str]],
    x: int,
    y: int,
    width: int,
    rect: pygame.Rect,
    m: Metrics,
) -> int:
    """A heading and (label, text) rows, each wrapped to two lines at most; returns the bottom."""
    head = m.font_size(13)
    size = m.font_size(14)
    label_w = m.px(78)
    line_h = round(size * 1.45)
    if y + round(head * 1.8) + line_h > rect.bottom - m.px(4):
        return y  # not even one row fits: no heading without content
    drawing.draw_text(
        surface, drawing.ellipsize(title, width, head, "semibold"), (x, y), head, colour, "semibold"
    )
    y += round(head * 1.8)
    for label, text in rows:
        lines = drawing.wrap(text, width - label_w, size)
        if y + line_h * min(2, len(lines)) > rect.bottom - m.px(4):
            break
        drawing.draw_text(surface, label, (x, y), size, theme.TEXT_FAINT)
        for line in lines[:2]:
            drawing.draw_text(surface, line, (x + label_w, y), size, theme.TEXT)
            y += line_h
    return y


def preferred_height(m: Metrics, extra_rows: int = 0) -> int:
    """Height the panel wants (title plus about eight rows, and any extra section)."""
    height = m.px(14) + round(m.font_size(13) * 1.8) + round(m.font_size(14) * 1.45) * 8 + m.px(6)
    if extra_rows:
        height += round(m.font_size(13) * 1.8) + round(m.font_size(14) * 1.45) * (extra_rows + 2)
    return height
