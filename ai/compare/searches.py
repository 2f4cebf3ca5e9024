"""The plain searches a comparison measures (ai.compare.comparison), in the engine's value units.

Alpha-beta without table or deepening, in the game's move order or with killer moves and
the history heuristic, and expectiminimax without a table.  No game is named here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from plyground.ai.engine.bookkeeping import POLL_MASK, Context, back_up, child_bound, terminal_units
from plyground.ai.engine.full_width_search import book_leaf
from plyground.ai.engine.values import INF_UNITS, PROVEN_UNITS, STEP_UNITS, WIN_UNITS
from plyground.games.base import CHANCE, Move


def alphabeta_root(state: Any, depth: int, ctx: Context, ordered: bool) -> dict[Move, float]:
    """Fail-soft negamax alpha-beta without table or deepening; values in units.

    The root's moves are searched with the window above the best so far, so only the best
    move's value is exact (the others are upper bounds): the root value is minimax's, and
    the move is the first best one in search order (minimax breaks ties by its seed).
    `ordered` adds two killer moves per ply and the history heuristic.
    """
    killers: list[list[Move]] = [[] for _ in range(depth + 2)]
    history: dict[Move, int] = {}
    poll = ctx.poll
    leaf = ctx.leaf
    book = ctx.book and hasattr(state, "book_value")

    def order(node: Any, ply: int) -> Sequence[Move]:
        moves: Sequence[Move] = node.legal_moves()
        if not ordered or len(moves) < 2:
            return moves
        ranked = sorted(moves, key=lambda m: history.get(m, 0), reverse=True)
        for killer in reversed(killers[ply]):
            if killer in ranked:
                ranked.remove(killer)
                ranked.insert(0, killer)
        return ranked

    def value(node: Any, remaining: int, alpha: int, beta: int, ply: int) -> int:
        ctx.nodes += 1
        if not ctx.nodes & POLL_MASK:
            poll()
        if node.is_terminal():
            return terminal_units(node)
        if book:  # an opening book's exact value is a solved leaf, as in every search
            known = book_leaf(node, ctx)
            if known is not None:
                return known
        if remaining == 0:
            return leaf(node)
        best = -INF_UNITS
        for move in order(node, ply):
            score = back_up(
                value(
                    node.play(move), remaining - 1, child_bound(beta), child_bound(alpha), ply + 1
                )
            )
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        ctx.cutoffs += 1
                        if ordered:
                            row = killers[ply]
                            if move not in row:
                                row.insert(0, move)
                                del row[2:]
                            history[move] = history.get(move, 0) + remaining * remaining
                        break
        return best

    ctx.nodes += 1
    values: dict[Move, float] = {}
    alpha = -INF_UNITS
    for move in order(state, 0):
        score = back_up(value(state.play(move), depth - 1, -INF_UNITS, child_bound(alpha), 1))
        values[move] = score
        alpha = max(alpha, score)
    return values


def expectiminimax_root(state: Any, depth: int, ctx: Context) -> dict[Move, float]:
    """Expectiminimax without a table (the engine's rules otherwise); values in units."""
    poll = ctx.poll
    leaf = ctx.leaf_exact if state.STOCHASTIC else ctx.leaf
    decay = not state.STOCHASTIC
    book = ctx.book and hasattr(state, "book_value")

    def convert(value: float, same_player: bool) -> float:
        if same_player:
            return value
        if decay and value > PROVEN_UNITS:
            return -value + STEP_UNITS
        if decay and value < -PROVEN_UNITS:
            return -value - STEP_UNITS
        return -value

    def node_value(node: Any, remaining: int) -> float:
        ctx.nodes += 1
        if not ctx.nodes & POLL_MASK:
            poll()
        if node.is_terminal():
            return float(node.utility(node.player)) * WIN_UNITS
        if book:
            known = book_leaf(node, ctx)
            if known is not None:
                return float(known)
        player = node.player
        if node.to_move == CHANCE:
            total = 0.0
            for outcome, probability in node.chance_outcomes():
                child = node.play(outcome)
                total += probability * convert(node_value(child, remaining), child.player == player)
            return total
        if remaining == 0:
            return leaf(node)
        best = -3.0 * WIN_UNITS
        for move in node.legal_moves():
            child = node.play(move)
            best = max(best, convert(node_value(child, remaining - 1), child.player == player))
        return best

    ctx.nodes += 1
    values: dict[Move, float] = {}
    for move in state.legal_moves():
        child = state.play(move)
        values[move] = convert(node_value(child, depth - 1), child.player == state.player)
    return values
