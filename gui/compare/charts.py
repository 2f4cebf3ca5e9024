"""The charts of the Compare view and of the `compare` / `policy` commands.

`nodes_chart` plots nodes against depth on a log scale, one line per algorithm (its points
are exactly the comparison rows' node counts), with the theory curves b^d and, without
chance, alpha-beta's minimal tree b^ceil(d/2)+b^floor(d/2)−1 drawn faintly.  `policy_charts`
reads the plain picture a game describes (`game.policy_picture(state, chosen)`) into charts.
"""

from __future__ import annotations

from typing import Any

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


def policy_charts(picture: dict[str, Any]) -> list[chart.Chart]:
    """The panels of a game's policy picture as charts."""
    return [chart.from_dict(panel) for panel in picture.get("panels", [])]
