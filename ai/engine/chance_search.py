"""Expectiminimax: max and min nodes as in minimax, chance nodes take the probability-weighted
mean of their children.

Depth counts player decisions; chance layers do not use it up.  A node's value is from the
point of view of the player whose turn it is (`state.player`, also at a chance node), so a
child's value is negated only when the turn passes to the other player.  Values are exact:
no chance-node pruning is done, and the table answers a node only with a value searched to
the same depth.  The table makes the search tractable on dice games whose game graph has cycles
(a bad roll can wipe out turn after turn): a depth-d search visits each (position, depth) once.
"""

from __future__ import annotations

from typing import Any

from plyground.ai.engine.bookkeeping import POLL_MASK, Context
from plyground.ai.engine.full_width_search import book_leaf
from plyground.ai.engine.table import EXACT, TranspositionTable
from plyground.ai.evaluation.values import PROVEN_UNITS, STEP_UNITS, WIN_UNITS
from plyground.games.base import CHANCE, Move, State, state_capabilities

DEPTH_SALT = 0x9E3779B97F4A7C15
"""Spreads the entries of one position at different depths over different slots."""


class ChanceSearch:
    """One expectiminimax searcher with its table of exact (position, depth) values."""

    def __init__(self, ctx: Context, table: TranspositionTable | None = None) -> None:
        self.ctx = ctx
        self.table = table if table is not None else TranspositionTable(bits=20)

    def search(self, root: State[Any], depth: int) -> float:
        """The exact depth-limited expectiminimax value of `root` for `root.player`, in units."""
        ctx = self.ctx
        poll = ctx.poll
        leaf = ctx.leaf_exact if root.STOCHASTIC else ctx.leaf
        slots = self.table.slots
        size = self.table.size
        store_at = self.table.store_at
        decay = not root.STOCHASTIC
        # nodes, table hits, hits whose value rests on an estimate
        counters = [0, 0, 0]
        leaves_estimate = not ctx.exact_leaves
        book = ctx.book and state_capabilities(root).book_value is not None

        def convert(value: float, same_player: bool) -> float:
            return _backed_up(value, same_player, decay)

        def node_value(node: Any, remaining: int) -> float:
            counters[0] += 1
            if not counters[0] & POLL_MASK:
                ctx.nodes += counters[0]
                counters[0] = 0
                poll()
            if node.is_terminal():
                ctx.leaves += 1
                return float(node.utility(node.player)) * WIN_UNITS
            if book:  # an opening book's value is a solved leaf, as in every search
                known = book_leaf(node, ctx)
                if known is not None:
                    ctx.book_hits += 1
                    ctx.leaves += 1
                    return float(known)
            chance = node.to_move == CHANCE
            if remaining == 0 and not chance:
                return leaf(node)
            key = node.key()
            index = (hash(key) + remaining * DEPTH_SALT) % size
            entry = slots[index]
            if entry is not None and entry[0] == key and entry[1] == remaining:
                counters[1] += 1
                if not entry[6]:
                    counters[2] += 1
                return entry[3]
            player = node.player
            best_move: Move = None
            estimates = ctx.leaf_evaluations * leaves_estimate + counters[2]
            if chance:
                value = 0.0
                for outcome, probability in node.chance_outcomes():
                    child = node.play(outcome)
                    value += probability * convert(
                        node_value(child, remaining), child.player == player
                    )
            else:
                value = -3.0 * WIN_UNITS
                for move in node.legal_moves():
                    child = node.play(move)
                    child_value = convert(node_value(child, remaining - 1), child.player == player)
                    if child_value > value:
                        value = child_value
                        best_move = move
            solved = ctx.leaf_evaluations * leaves_estimate + counters[2] == estimates
            store_at(index, key, remaining, EXACT, value, best_move, solved)  # type: ignore[arg-type]
            return value

        try:
            return node_value(root, depth)
        finally:
            # The closure refers to itself: break the cycle so the table is freed now.
            node_value = None  # type: ignore[assignment]
            ctx.nodes += counters[0]
            ctx.table_hits += counters[1]
            ctx.estimate_hits += counters[2]

    def root(self, state: State[Any], depth: int, order: list[Move]) -> dict[Any, float]:
        """The exact value of every root move, for the player to move."""
        self.ctx.nodes += 1
        player = state.player
        values: dict[Any, float] = {}
        self.ctx.marks = {}
        for move in order:
            child = state.play(move)
            with self.ctx.marking(move):
                child_value = self.search(child, depth - 1)
            values[move] = _backed_up(child_value, child.player == player, not state.STOCHASTIC)
            if self.ctx.best_value is None or values[move] > self.ctx.best_value:
                self.ctx.best_move = move
                self.ctx.best_value = values[move]
        return values

    def principal_variation(self, state: State[Any], first: Move, depth: int) -> tuple[Move, ...]:
        """The chosen move and the best replies that follow it, up to the next chance node."""
        line = [first]
        node = state.play(first)
        remaining = depth - 1
        while remaining > 0 and not node.is_terminal() and node.to_move != CHANCE:
            key = node.key()
            entry = self.table.slots[(hash(key) + remaining * DEPTH_SALT) % self.table.size]
            if entry is None or entry[0] != key or entry[1] != remaining or entry[4] is None:
                break
            line.append(entry[4])
            node = node.play(entry[4])
            remaining -= 1
        return tuple(line)


def _backed_up(value: float, same_player: bool, decay: bool) -> float:
    """A child's value for the parent's player: negated where the other player moves there,
    kept where the same player moves again, and where proven results decay with distance
    (games without chance) one step further away."""
    if not same_player:
        value = -value
    if decay:
        if value > PROVEN_UNITS:
            return value - STEP_UNITS
        if value < -PROVEN_UNITS:
            return value + STEP_UNITS
    return value
