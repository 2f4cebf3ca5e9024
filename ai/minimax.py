"""Textbook depth-limited minimax (negamax form): the reference that shows what pruning saves.

No pruning, no table, no move ordering, no game-specific shortcuts: every node of the
tree down to `depth` is visited, so on a small game it visits every node of
the game tree (549,946 from the empty 3x3 board of noughts and crosses).
"""

from __future__ import annotations

from typing import Any

from ai.engine import POLL_MASK, Context, back_up, terminal_units
from games.base import Move


def minimax_root(
    state: Any, depth: int, ctx: Context
) -> tuple[dict[Any, int], dict[Any, tuple[Move, ...]]]:
    """Value every root move at `depth`; return the values in units and each move's line."""
    poll = ctx.poll
    leaf = ctx.leaf

    def value(node: Any, remaining: int) -> tuple[int, list[Move]]:
        ctx.nodes += 1
        if not ctx.nodes & POLL_MASK:
            poll()
        if node.is_terminal():
            return terminal_units(node), []
        if remaining == 0:
            return leaf(node), []
        best = -3 * 10**6
        best_line: list[Move] = []
        for move in node.legal_moves():
            child_value, line = value(node.play(move), remaining - 1)
            score = back_up(child_value)
            if score > best:
                best = score
                best_line = [move, *line]
        return best, best_line

    ctx.nodes += 1
    values: dict[Any, int] = {}
    lines: dict[Any, tuple[Move, ...]] = {}
    for move in state.legal_moves():
        child_value, line = value(state.play(move), depth - 1)
        values[move] = back_up(child_value)
        lines[move] = (move, *line)
    return values, lines
