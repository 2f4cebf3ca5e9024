"""Full-width minimax (negamax form), the engine's reference that shows what pruning saves.

A child's value is negated where the turn passes and kept where the same side moves again
(`ai.engine.bookkeeping.back_up`).

No pruning, no table, no move ordering, no game-specific shortcuts: every node of the
tree down to `depth` is visited, so on a small game it visits every node of
the game tree (549,946 from the empty 3x3 board of noughts and crosses).  With the search's
`book` option (off for textbook runs, on for the engine) a position the game's opening book
knows is a solved leaf, as in every search (`book_leaf`).
"""

from __future__ import annotations

from typing import Any

from plyground.ai.engine.bookkeeping import POLL_MASK, Context, back_up, terminal_units
from plyground.ai.evaluation.values import STEP_UNITS, WIN_UNITS
from plyground.games.base import Move, State, state_capabilities


def book_units(node: Any) -> int | None:
    """The exact value in units of a position the game's opening book knows exactly (a
    draw, or a win or loss with its distance), for the player to move; else None.

    Call it only on states with the `book_value()` hook."""
    bounds = _book_bounds(node)
    return bounds[0] if bounds is not None and bounds[0] == bounds[1] else None


def _book_bounds(node: Any) -> tuple[int, int] | None:
    """The book's (low, high) value of `node` in units, for the player to move (equal when
    the book knows it exactly), or None where the book is silent."""
    known = node.book_value()
    if known is None:
        return None
    horizon = state_capabilities(node).max_plies_left
    plies_left = horizon(node) if horizon is not None else 512
    low: int
    high: int
    low, high = known.bounds(WIN_UNITS, STEP_UNITS, plies_left)
    return low, high


def book_leaf(node: Any, ctx: Context | None = None) -> int | None:
    """A book position's value in units as a leaf of a fixed-depth search: exact for a draw
    or a distance; a win or loss stored without its distance is worth the slowest such
    result the game allows (the winner's worst case), so it stays a proven result, never an
    estimate (`ai.engine.move_provenance` then says "distance unknown"); None if the book is
    silent.

    Call it only on states with the `book_value()` hook."""
    bounds = _book_bounds(node)
    if bounds is None:
        return None
    low, high = bounds
    if low == high:
        return low
    if ctx is not None:
        ctx.vague_hits += 1
    return low if low > 0 else high


def minimax_root(
    state: State[Any], depth: int, ctx: Context
) -> tuple[dict[Any, int], dict[Any, tuple[Move, ...]]]:
    """Value every root move at `depth`; return the values in units and each move's line."""
    poll = ctx.poll
    leaf = ctx.leaf
    book = ctx.book and state_capabilities(state).book_value is not None
    alternate = state_capabilities(state).sides_alternate

    def value(node: Any, remaining: int) -> tuple[int, list[Move]]:
        ctx.nodes += 1
        if not ctx.nodes & POLL_MASK:
            poll()
        if node.is_terminal():
            ctx.leaves += 1
            return terminal_units(node), []
        if book:
            known = book_leaf(node, ctx)
            if known is not None:
                ctx.book_hits += 1
                ctx.leaves += 1
                return known, []
        if remaining == 0:
            return leaf(node), []
        best = -3 * 10**6
        best_line: list[Move] = []
        side = node.player
        for move in node.legal_moves():
            child = node.play(move)
            child_value, line = value(child, remaining - 1)
            score = back_up(child_value, not alternate and child.player == side)
            if score > best:
                best = score
                best_line = [move, *line]
        return best, best_line

    ctx.nodes += 1
    ctx.marks = {}
    values: dict[Any, int] = {}
    lines: dict[Any, tuple[Move, ...]] = {}
    for move in state.legal_moves():
        child = state.play(move)
        with ctx.marking(move):
            child_value, line = value(child, depth - 1)
        values[move] = back_up(child_value, not alternate and child.player == state.player)
        lines[move] = (move, *line)
    return values, lines
