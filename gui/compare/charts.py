"""The charts of the Compare view and of the `compare` / `policy` commands.

`nodes_chart` plots nodes against depth on a log scale, one line per algorithm (its points
are exactly the comparison rows' node counts), with the theory curves b^d and, without
chance, alpha-beta's minimal tree b^ceil(d/2)+b^floor(d/2)−1 drawn faintly.  `budget_chart`
plots the budget curve (`ai.compare.budget_curve`): the share of the positions on which MCTS
picked an optimal move at each number of iterations (a log axis), and alpha-beta's share at the
same seconds.  `policy_charts`
reads the plain picture a game describes (`game.policy_picture(state, chosen)`) into charts.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from plyground.ai.compare.budget_curve import BUDGETS, BudgetCurve
from plyground.ai.compare.comparison import Comparison, theory_curves
from plyground.gui import chart, theme

SERIES_COLOURS: dict[str, theme.Colour] = {
    "minimax": theme.TEXT_DIM,
    "alphabeta-plain": theme.PLAYER_COLOURS[0],
    "alphabeta-ordered": theme.PLAYER_COLOURS[1],
    "engine": theme.ACCENT,
    "expectiminimax-plain": theme.TEXT_DIM,
    "expectiminimax": theme.ACCENT,
}


def nodes_chart(comparison: Comparison, title: str = "Nodes searched by depth") -> chart.Chart:
    """One line per algorithm through (depth, nodes) of its finished runs, plus theory."""
    depths = comparison.depths()
    series: list[chart.Series] = []
    if depths:
        curves = theory_curves(comparison.branching, depths, comparison.chance)
        for label, curve in curves.items():
            series.append(
                chart.Series(
                    f"{label}, b = {comparison.branching:.1f}",
                    [(float(d), n) for d, n in curve],
                    colour=theme.TEXT_FAINT,
                    faint=True,
                    dashed=label != "b^d",
                )
            )
    seen: dict[str, tuple[str, list[tuple[float, float]]]] = {}
    for row in comparison.rows:
        if row.ran:
            entry = seen.setdefault(row.variant, (row.title, []))
            entry[1].append((float(row.depth), float(max(row.nodes, 1))))
    for variant, (label, points) in seen.items():
        series.append(chart.Series(label, points, colour=SERIES_COLOURS.get(variant)))
    return chart.Chart(
        title=title,
        x_label="depth (decisions)",
        y_label="nodes (log scale)",
        series=series,
        log_y=True,
        x_ticks=[(float(d), str(d)) for d in depths] or None,
        x_range=(depths[0] - 0.25, depths[-1] + 0.25) if depths else None,
    )


def budget_chart(
    curve: BudgetCurve | None, measuring: bool = False, budgets: Sequence[int] = BUDGETS
) -> chart.Chart:
    """The share of positions answered optimally against MCTS's iterations (log axis), MCTS
    and alpha-beta at equal time; an empty frame (saying how to measure it, or that it is being
    measured) until the curve is there, its axes those the curve will have: the `budgets`
    to be measured, 0% to 100%."""
    title = "Optimal moves as MCTS's budget grows"
    if curve is None or not curve.points or not curve.positions:
        where = [math.log10(iterations) for iterations in budgets]
        figure = chart.Chart(
            title=title,
            x_label="MCTS iterations (log scale)",
            y_label="share of positions",
            x_ticks=[(x, f"{n:,}") for x, n in zip(where, budgets, strict=True)],
            x_range=(where[0] - 0.15, where[-1] + 0.15),
            y_range=(0.0, 1.05),
            y_format="{:.0%}",
            legend=False,
        )
        if curve is not None:
            figure.note = _no_positions(curve)
        elif measuring:
            figure.note = "Measuring: MCTS and alpha-beta at equal time on a few positions…"
        else:
            figure.note = (
                "Press B to measure how often MCTS picks an optimal move as its iterations "
                "grow, beside alpha-beta given the same seconds (a few seconds; longer "
                "mid-game)."
            )
        return figure
    count = len(curve.positions)
    where = [math.log10(point.iterations) for point in curve.points]
    series = [
        chart.Series(
            "MCTS",
            [(x, p.mcts_share) for x, p in zip(where, curve.points, strict=True)],
            colour=theme.ACCENT,
        ),
        chart.Series(
            f"{curve.rival}, same seconds",
            [(x, p.alphabeta_share) for x, p in zip(where, curve.points, strict=True)],
            colour=theme.PLAYER_COLOURS[0],
            dashed=True,
        ),
    ]
    return chart.Chart(
        title=title,
        x_label="MCTS iterations (log scale)",
        y_label=f"share of {count} positions",
        series=series,
        x_ticks=[(x, f"{p.iterations:,}") for x, p in zip(where, curve.points, strict=True)],
        x_range=(where[0] - 0.15, where[-1] + 0.15),
        y_range=(0.0, 1.05),
        y_format="{:.0%}",
        legend=False,  # the note names the lines (the nodes chart's legend runs on below)
        note=(
            f"Solid: MCTS; dashed: {curve.rival} given MCTS's seconds. Share of {count} positions "
            "(this one and some reached from it) where each chose an optimal move (its exact "
            "value equals the best move's)."
        ),
    )


def _no_positions(curve: BudgetCurve) -> str:
    """Why the curve has no points."""
    return (
        "No position here has a choice that matters with known exact values"
        f" ({curve.unknown} tried had none in time)."
    )


def policy_charts(picture: dict[str, Any]) -> list[chart.Chart]:
    """The panels of a game's policy picture as charts."""
    return [chart.from_dict(panel) for panel in picture.get("panels", [])]
