"""The tree Monte Carlo tree search grows: one `MctsNode` per position added, with its counts.

N is the number of playouts that went through the node; U their total result for the player
who moved into it (a win 1, a draw 0.5, a loss 0), AIMA's convention, so U/N is that player's
estimated chance of winning by playing into the node.  Who moved into a node is the player to
move at its parent (MAX or MIN; through a chance node, whoever moved into the chance node;
at the root, MIN, the opponent of the player the search is for), so a side that moves twice
in a row is credited right.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from plyground.games.base import Move

S = TypeVar("S")
"""A position, as the game view hands it out."""


@dataclass(eq=False)
class MctsNode(Generic[S]):
    """A position in the tree, its statistics and its children (see the module's docstring)."""

    state: S
    parent: MctsNode[S] | None = None
    move: Move | None = None
    """The move (or chance outcome) from the parent; None at the root."""
    untried: list[Move] = field(default_factory=list)
    """Moves not expanded yet, in the game's order (none at a chance node: its outcomes are
    all added with it)."""
    children: list[MctsNode[S]] = field(default_factory=list)
    """In the order they were added."""
    id: int = 0
    """0 for the root, then 1, 2, ... in the order nodes were added."""
    mover: str = ""
    """Who moved into this node ("max" or "min", set when the node is made): whose results
    U counts."""
    chance: bool = False
    """Dice decide here: a child is drawn by its probability, never chosen by UCB1."""
    N: int = 0
    """Playouts through this node."""
    U: float = 0.0
    """Their total result for `mover` (win 1, draw 0.5, loss 0)."""

    def walk(self) -> Iterator[MctsNode[S]]:
        """This node and every node below it, parents first (children in their order)."""
        stack = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children))
