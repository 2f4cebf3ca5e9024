"""The subtrees alpha-beta skipped, rebuilt for the picture (no pygame).

A cut-off records only the names of the moves it skipped.  To show a student that they could
not matter, the explorer rebuilds them as "ghost" nodes after the trace's own: for a tree
whose leaves carry their values (`utility_is_value`, the textbook trees and the editor's)
the whole subtree with its values, worked out here for the picture; for a game position
only the skipped moves themselves (their values would need a search the algorithm never
made).  The ghosts are `TraceNode`s with ids after the trace's, never part of the trace.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from plyground.ai.textbook.trace import Trace, TraceNode
from plyground.games.base import CHANCE

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
    pruned.valued = bool(getattr(game, "utility_is_value", False))
    label_of = getattr(game, "format_move", str)
    root_player = found.root_state.player
    for node in cuts:
        state = found.state_of(node.id)
        skipped = set(node.skipped)
        for move in state.legal_moves():
            label = str(label_of(move))
            if label not in skipped:
                continue
            ghost = _ghost(pruned, found, state.play(move), node, move, label, root_player)
            if ghost is None:
                return pruned
            pruned.under.setdefault(node.id, []).append(ghost)
    return pruned


def _ghost(
    pruned: Pruned,
    found: Trace,
    state: Any,
    parent: TraceNode,
    move: Any,
    label: str,
    root_player: int,
    probability: float | None = None,
) -> int | None:
    """Add one ghost (and, for a valued tree, everything below it); its id, or None when
    the budget is spent."""
    if len(pruned.nodes) >= GHOST_BUDGET:
        return None
    node_id = pruned.first + len(pruned.nodes)
    kind = _kind(state, root_player)
    ghost = TraceNode(node_id, parent.id, move, label, kind, parent.ply + 1)
    ghost.probability = probability
    ghost.entered = 1 << 30  # never entered by the search
    pruned.nodes.append(ghost)
    if not pruned.valued:
        return node_id
    if kind == "leaf":
        ghost.value = float(state.utility(root_player))
        return node_id
    label_of = getattr(state.game, "format_move", str)
    chances = dict(state.chance_outcomes()) if kind == "chance" else {}
    for child_move in state.legal_moves():
        child = _ghost(
            pruned,
            found,
            state.play(child_move),
            ghost,
            child_move,
            str(label_of(child_move)),
            root_player,
            chances.get(child_move),
        )
        if child is None:
            return None
        ghost.children.append(child)
    values = [pruned.nodes[c - pruned.first].value for c in ghost.children]
    known = [v for v in values if v is not None]
    if kind == "chance":
        weights = [pruned.nodes[c - pruned.first].probability or 0.0 for c in ghost.children]
        ghost.value = sum(w * v for w, v in zip(weights, known, strict=False))
    elif known:
        ghost.value = max(known) if kind == "max" else min(known)
    return node_id


def _kind(state: Any, root_player: int) -> str:
    """leaf, chance, max or min, as the trace names them."""
    if state.is_terminal():
        return "leaf"
    if state.to_move == CHANCE:
        return "chance"
    return "max" if state.player == root_player else "min"
