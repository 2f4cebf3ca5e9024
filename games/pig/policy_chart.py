"""Pig's optimal policy as a picture, described as plain chart data.

Neller and Presser draw the optimal roll/hold policy as a boundary: for a given opponent
score, the turn total at which to hold as a function of one's own score.  This module turns
the solved table (`games.pig.optimal`) into that picture, and the win-probability surface
as a second panel, as plain dicts that any chart code can draw (games/ imports no drawing
code).  The picture marks the current decision ("you are here") and the choice an AI made,
and draws the "hold at 20" rule on the same axes.

The dict form: ``{"title", "note", "panels": [chart, ...]}``; a chart has ``title``,
``note``, ``x_label``, ``y_label``, ``x_range``, ``y_range``, ``series`` (``label``,
``points``, ``kind`` line/points/bars/step, ``colour``, ``faint``, ``dashed``, ``fill``),
``markers`` (``x``, ``y``, ``label``, ``colour``, ``shape``) and an optional ``heat``
(``values`` rows by y, ``x_range``, ``y_range``, ``low``, ``high``, ``label``).  Colours
are role names (accent, dim, faint, text, good, warning, danger, side0, side1).
"""

from __future__ import annotations

from typing import Any

from plyground.games.pig.optimal import PigTable, optimal_table

RULE_TOTAL = 20
"""The classic rule of thumb: hold once the turn total reaches 20."""


def hold_thresholds(table: PigTable, opp_score: int) -> list[tuple[int, int]]:
    """(own score, smallest turn total at which the optimal player holds) for every own score."""
    return [(i, table.hold_threshold(i, opp_score)) for i in range(table.goal)]


def rule_thresholds(goal: int, total: int = RULE_TOTAL) -> list[tuple[int, int]]:
    """The 'hold at `total`' rule: hold at `total`, or as soon as holding wins."""
    return [(i, min(total, goal - i)) for i in range(goal)]


def _decision_markers(
    my_score: int, turn_total: int, decision: str, chosen: str | None, chooser: str
) -> list[dict[str, Any]]:
    """'You are here' with the optimal decision, and a ring for the move an AI chose."""
    markers: list[dict[str, Any]] = [
        {
            "x": my_score,
            "y": turn_total,
            "label": f"you are here: optimal {decision}",
            "colour": "text",
            "shape": "circle",
        }
    ]
    if chosen is not None:
        agrees = chosen == decision
        markers.append(
            {
                "x": my_score,
                "y": turn_total,
                "label": f"{chooser}: {chosen}",
                "colour": "good" if agrees else "danger",
                "shape": "ring",
            }
        )
    return markers


def _boundary_panel(
    goal: int, opp_score: int, optimal: list[tuple[int, int]], markers: list[dict[str, Any]]
) -> dict[str, Any]:
    """The first panel: the optimal hold boundary against 'hold at 20'."""
    top = max(max(t for _, t in optimal), RULE_TOTAL) + 5
    return {
        "title": f"When to hold, opponent at {opp_score}",
        "note": "Roll below the line, hold on or above it.",
        "x_label": "your score",
        "y_label": "turn total",
        "x_range": [0, goal],
        "y_range": [0, min(goal, top)],
        "series": [
            {
                "label": f"hold at {RULE_TOTAL}",
                "points": rule_thresholds(goal),
                "kind": "step",
                "colour": "dim",
                "dashed": True,
            },
            {
                "label": "optimal (Neller & Presser)",
                "points": [*optimal, (goal, optimal[-1][1])],
                "kind": "step",
                "colour": "accent",
                "fill": "accent",
            },
        ],
        "markers": markers,
    }


def _surface_panel(
    table: PigTable, goal: int, my_score: int, opp_score: int, turn_total: int
) -> dict[str, Any]:
    """The second panel: the win probability over both scores, a dot at the current ones."""
    return {
        "title": "Chance to win at the start of your turn",
        "note": "Brighter is better; the dot is the current scores.",
        "x_label": "your score",
        "y_label": "opponent's score",
        "x_range": [0, goal],
        "y_range": [0, goal],
        "heat": {
            "values": [[table.win_probability(i, j, 0) for i in range(goal)] for j in range(goal)],
            "x_range": [0, goal],
            "y_range": [0, goal],
            "low": 0.0,
            "high": 1.0,
            "label": "win probability",
        },
        "series": [
            {
                "label": "",
                "points": [(0, 0), (goal, goal)],
                "kind": "line",
                "colour": "faint",
                "faint": True,
                "dashed": True,
            }
        ],
        "markers": [
            {
                "x": my_score,
                "y": opp_score,
                "label": f"{table.win_probability(my_score, opp_score, turn_total):.0%} now",
                "colour": "text",
                "shape": "circle",
            }
        ],
        "legend": False,
    }


def policy_picture(
    goal: int,
    my_score: int,
    opp_score: int,
    turn_total: int,
    chosen: str | None = None,
    chooser: str = "AI",
) -> dict[str, Any]:
    """The two-panel picture for a decision with these scores (the player to move's view).

    `chosen` is the move the selected AI made there ("roll" or "hold"), or None.
    """
    table = optimal_table(goal)
    my_score = max(0, min(my_score, goal - 1))
    opp_score = max(0, min(opp_score, goal - 1))
    optimal = hold_thresholds(table, opp_score)
    decision = (
        "roll" if turn_total == 0 or table.should_roll(my_score, opp_score, turn_total) else "hold"
    )
    markers = _decision_markers(my_score, turn_total, decision, chosen, chooser)
    boundary = _boundary_panel(goal, opp_score, optimal, markers)
    surface = _surface_panel(table, goal, my_score, opp_score, turn_total)
    return {
        "title": f"Pig to {goal}: the optimal policy",
        "note": (
            f"Scores {my_score}-{opp_score}, turn total {turn_total}: optimal play {decision}s"
            f" (win chance {table.win_probability(my_score, opp_score, turn_total):.1%})."
        ),
        "decision": decision,
        "panels": [boundary, surface],
    }
