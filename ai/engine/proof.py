"""Proving that a root move keeps a value known in advance (an opening book's, or a solve's).

When the root's exact value is known, some move keeps it; finding which takes null-window
probes of the children, and one child can be far dearer to prove than the others.  So the
probes take turns (the likeliest move first) with a node budget that grows each round:
each either proves its move keeps the value (done), proves it worse (dropped), or runs out
and waits for the next round.  When one move is left it keeps the value without a proof
(the value is the best of the moves).  Budgets count nodes, never seconds, so the move
chosen is the same on every machine.

Where the game offers `search_moves()`, the moves it leaves out are no better than the
ones it lists (the alpha-beta node search relies on this too): they are dropped at once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from plyground.ai.engine.bookkeeping import UNLIMITED_DEPTH, _OutOfNodes, _OutOfTime
from plyground.ai.engine.full_width_search import book_units
from plyground.ai.engine.pruning_search import MAX_PLY, PruningSearch
from plyground.ai.evaluation.values import STEP_UNITS, WIN_UNITS
from plyground.games.base import Move, State, state_capabilities

FIRST_PROBE_NODES = 2_048
"""The node budget of each move's probe in the first round (it grows 4x a round)."""
PROOF_NODE_LIMIT = 6_000_000
"""A proof stops after this many nodes (then the likeliest move left is played).  The
opening's dearest proofs take about a tenth of it (docs/SOLVER.md).  A player's move on a
game's exact engine passes its own limit instead: the engine's `move_nodes`, shared with the
root search after the proof (`ai.engine.search`), when it is smaller."""


@dataclass
class Proof:
    """How a proof went: the move that keeps the value (None: not found within the limit)."""

    move: Move | None
    worse: list[Move] = field(default_factory=list)
    """Moves proven worse than the value (their values are upper bounds)."""
    left: list[Move] = field(default_factory=list)
    """Moves neither proven nor dropped, likeliest first."""
    nodes: int = 0
    rounds: int = 0
    by_elimination: bool = False
    """The move was the last one left: every other move was proven worse."""
    cut_short: bool = False
    """"Move now" stopped the proof (`finish_now`)."""


def candidates(state: State[Any], order: list[Move]) -> tuple[list[Move], list[Move]]:
    """(moves that may keep the value, likeliest first; moves the game rules out at once)."""
    search_moves = state_capabilities(state).search_moves
    if search_moves is None:
        return list(order), []
    listed = search_moves(state)
    if not listed:  # every move loses at once: all are equal
        return list(order), []
    kept = [m for m in listed if m in order]
    return kept, [m for m in order if m not in kept]


def prove_keeper(
    searcher: PruningSearch,
    state: State[Any],
    known: int,
    order: list[Move],
    limit: int | None = None,
) -> Proof:
    """Find a root move worth `known` (the root's exact value in units), probing in turns,
    within `limit` nodes (never more than PROOF_NODE_LIMIT).

    The caller's deadline is not looked at: clear it first if the proof must not depend
    on the machine's speed.  "Move now" (`finish_now`) and cancellation still stop it.
    """
    ctx = searcher.ctx
    limit = PROOF_NODE_LIMIT if limit is None else min(limit, PROOF_NODE_LIMIT)
    start = ctx.nodes
    left, worse = candidates(state, order)
    proof = Proof(None, worse, left)
    budget = FIRST_PROBE_NODES
    saved_limit = ctx.node_limit
    try:
        while len(left) > 1 and ctx.nodes - start < limit:
            proof.rounds += 1
            for move in list(left):
                if len(left) == 1:
                    break
                ctx.node_limit = min(ctx.nodes + budget, start + limit)
                try:
                    value = searcher.child_value(state, move, UNLIMITED_DEPTH, known - 1, known)
                except _OutOfNodes:
                    continue
                except _OutOfTime:  # "move now"
                    proof.cut_short = True
                    return proof
                if value >= known:
                    proof.move = move
                    return proof
                left.remove(move)
                worse.append(move)
            budget *= 4
        if len(left) == 1:
            proof.move = left[0]
            proof.by_elimination = bool(worse)
        return proof
    finally:
        ctx.node_limit = saved_limit
        proof.nodes = ctx.nodes - start


def known_value(state: State[Any]) -> int | None:
    """The root's exact value in units where the game knows it (`solved_value()`, an
    opening book's `book_value()` with the distance), or None."""
    offered = state_capabilities(state)
    if offered.solved_value is not None:
        known = offered.solved_value(state)
        if known is not None:
            return known.bounds(WIN_UNITS, STEP_UNITS, MAX_PLY)[0]
    return book_units(state) if offered.book_value is not None else None


def solve_is_cheap(state: State[Any]) -> bool:
    """The game's `solve_is_cheap()` hook: solving this position is quick whatever the
    tree's size (an opening book a few plies away)."""
    hook = state_capabilities(state).solve_is_cheap
    return hook is not None and bool(hook(state))


def promising_first(state: State[Any], order: list[Move]) -> list[Move]:
    """The root moves with the game's `search_moves()` first (the likeliest best)."""
    search_moves = state_capabilities(state).search_moves
    if search_moves is None:
        return order
    first = [m for m in search_moves(state) if m in order]
    return [*first, *(m for m in order if m not in first)]


def kept_known_value(
    order: list[Move],
    partial: tuple[dict[Any, int], set[Any]],
    known: int | None,
    keeper: Move | None = None,
) -> tuple[dict[Any, int], set[Any], Move | None] | None:
    """After a root search cut short where the root's value is known (None otherwise):
    values for every move, those not searched as upper bounds (no move beats the root's
    value), and the move to play if none was proven to keep that value: the first in
    `order` (the likeliest) that was not proven worse.  `keeper` was proven beforehand."""
    if known is None:
        return None
    values = dict(partial[0])
    bounds = set(partial[1])
    if keeper is not None:
        values[keeper] = known
        bounds.discard(keeper)
    proven = any(m not in bounds and v >= known for m, v in values.items())
    open_moves = [m for m in order if m not in values]  # not yet proven worse
    for move in open_moves:
        values[move] = known
        bounds.add(move)
    if proven or not open_moves:
        return values, bounds, None
    return values, bounds, open_moves[0]
