"""Pig's exact odds for the analysis panel, from the optimal-play table (games.pig.optimal)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from plyground.games.base import Game
from plyground.games.pig.rules import State as PigState

PIG_TABLE_MAX_GOAL = 100
"""Pig's optimal table is used up to this goal (100 is a stored asset; smaller ones solve
in well under a second); beyond it the panel leaves the win chances out rather than stall."""


def pig_table(goal: int) -> Any:
    """The optimal Pig table for `goal`, or None when it would be too slow to make."""
    if goal > PIG_TABLE_MAX_GOAL:
        return None
    try:
        from plyground.games.pig.optimal import optimal_table

        return optimal_table(goal)
    except (ValueError, OSError):
        return None


def percent(p: float) -> str:
    """0.5432 -> '54.3%'."""
    return f"{100 * p:.1f}%"


def pig_rows(
    game: Game[Any], initial: PigState, entries: Sequence[Any], names: tuple[str, str]
) -> list[tuple[str, str]]:
    """Pig under optimal play (games.pig.optimal): each side's chance to win now, the optimal
    decision with its win probability, and the last decision with the probability it gave up.

    `entries` are the match's entries (move, state after it, chance flag); `names` the two
    sides' names ("Player 1").  Empty when there is no table for this goal.
    """
    from plyground.games.base import CHANCE

    table = pig_table(int(getattr(game, "goal", 100)))
    if table is None:
        return []
    state = entries[-1].state if entries else initial
    rows: list[tuple[str, str]] = []
    short = [_short(name) for name in names]
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
