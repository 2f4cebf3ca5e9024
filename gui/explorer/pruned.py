"""The subtrees alpha-beta skipped, rebuilt for the picture (no pygame).

A cut-off records only the names of the moves it skipped.  To show a student that they could
not matter, the explorer rebuilds them as "ghost" nodes after the trace's own: for a tree
whose leaves carry their values (`utility_is_value`, the textbook trees and the editor's)
the whole subtree with its values, worked out for the picture by the textbook
expectiminimax (minimax where there is no chance) to the end; for a game position
only the skipped moves themselves (their values would need a search the algorithm never
made).  The ghosts are `TraceNode`s with ids after the trace's, never part of the trace.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from plyground.ai.engine.bookkeeping import UNLIMITED_DEPTH
from plyground.ai.textbook.expectiminimax import expectiminimax
from plyground.ai.textbook.game_view import Position, TextbookGame
from plyground.ai.textbook.observer import Quiet
from plyground.ai.textbook.trace import Trace, TraceNode
from plyground.games.base import State, capabilities

GHOST_BUDGET = 400
"""At most this many ghost nodes per trace (a picture, not a search)."""
NEVER_LOOKED = "alpha-beta never looked at these"
"""The note drawn with the pruned subtrees."""


@dataclass
class Pruned:
    """The ghost nodes (ids from `first`) and, per cut node, its ghost children."""

    first: int
    nodes: list[TraceNode] = field(default_factory=list)
    under: dict[int, list[int]] = field(default_factory=dict)
    valued: bool = False
    """True when the ghosts carry values (a tree whose leaves are its values)."""

    def is_ghost(self, node_id: int) -> bool:
        """Whether `node_id` is a ghost (not in the trace)."""
        return node_id >= self.first

    def cut_of(self, node_id: int) -> int:
        """The cut node a ghost hangs under."""
        node = self.nodes[node_id - self.first]
        while node.parent >= self.first:
            node = self.nodes[node.parent - self.first]
        return node.parent


def pruned_subtrees(found: Trace) -> Pruned:
    """Ghosts for every cut-off of `found` (none for a search without cut-offs)."""
    pruned = Pruned(len(found.nodes))
    cuts = [node for node in found.nodes if node.cut]
    if not cuts or found.root_state is None:
        return pruned
    game = found.root_state.game
    pruned.valued = capabilities(game).utility_is_value
    label_of = getattr(game, "format_move", str)
    view = TextbookGame(found.root_state)
    try:
        for node in cuts:
            state = found.state_of(node.id)
            skipped = set(node.skipped)
            for move in state.legal_moves():
                if str(label_of(move)) not in skipped:
                    continue
                ghost = _ghosts(pruned, view, node, state, move)
                pruned.under.setdefault(node.id, []).append(ghost)
    except _BudgetSpent:
        pass
    return pruned


class _BudgetSpent(Exception):
    """More ghosts than GHOST_BUDGET: the picture stops there."""


def _ghosts(
    pruned: Pruned, view: TextbookGame, cut: TraceNode, state: State[Any], move: Any
) -> int:
    """The ghost of the skipped `move` at the cut node's `state` and, for a valued tree, every
    node below it with its value: the textbook minimax (expectiminimax, for chance) to the
    end, watched by a `_GhostBuilder`.  Its id."""
    builder = _GhostBuilder(pruned, view, cut)
    child = Position(state.play(move), UNLIMITED_DEPTH, cut.ply + 1, move)
    if pruned.valued:
        expectiminimax(view, child, UNLIMITED_DEPTH, observer=builder)
    else:  # a game position: only the skipped move itself (no search the algorithm made)
        builder.enter(child, 0, 0.0, 0.0)
    return builder.top


class _GhostBuilder(Quiet):
    """The observer that adds a ghost `TraceNode` for every node the search enters."""

    def __init__(self, pruned: Pruned, view: TextbookGame, cut: TraceNode) -> None:
        self.pruned = pruned
        self.view = view
        self.open: list[TraceNode] = [cut]
        self.top = -1
        self.label_of = getattr(view.root.game, "format_move", str)

    def enter(self, state: object, depth: int, alpha: float, beta: float) -> None:
        """A ghost for the node (the search stops once the budget is spent)."""
        assert isinstance(state, Position)
        pruned = self.pruned
        if len(pruned.nodes) >= GHOST_BUDGET:
            raise _BudgetSpent
        parent = self.open[-1]
        node_id = pruned.first + len(pruned.nodes)
        kind = self.view.role(state, UNLIMITED_DEPTH)
        label = str(self.label_of(state.move))
        ghost = TraceNode(node_id, parent.id, state.move, label, kind, parent.ply + 1)
        ghost.probability = state.probability
        ghost.entered = 1 << 30  # never entered by the search
        pruned.nodes.append(ghost)
        self.open.append(ghost)
        if self.top < 0:
            self.top = node_id

    def leave(self, state: object, value: float) -> None:
        """The ghost's value; it joins its parent ghost's children."""
        ghost = self.open.pop()
        ghost.value = self.view.show(value)
        parent = self.open[-1]
        if self.pruned.is_ghost(parent.id):
            parent.children.append(ghost.id)
