"""The counters every surface shows, each defined once: nodes, leaves, cut-offs, table hits
and the share of minimax, and Monte Carlo tree search's iterations, playouts and tree nodes.
The engine (`ai.engine`) counts by the same definitions, so the analysis panel, `analyze`,
`bench` and Compare's engine rows use these words too.

The trace (and so the explorer, the lessons, the tree editor and the grader's reference)
and Compare's textbook rows count with the same `Counter`, watching the same textbook
functions, so the same search gives the same numbers everywhere.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from plyground.ai.textbook.observer import Quiet
from plyground.games.base import Move

NODE = (
    "a position the search entered: the root, every position it expanded, every leaf and "
    "every position the table answered"
)
LEAF = (
    "a position valued without searching its moves: a finished game, the depth limit (the "
    "heuristic's estimate), the opening book, or in the engine a game's rule (a win on the "
    "next move); a table's answer is a table hit instead"
)
CUTOFF = (
    "a node where alpha-beta stopped before its last move, because its value had already "
    "reached the bound (beta at MAX, alpha at MIN): at least one move skipped (in the "
    "engine a game's rule may close the window before the first move)"
)
TABLE_HIT = "a node the transposition table settled without searching its moves"
SHARE = (
    "nodes as a share of minimax's at the same position, depth and heuristic: the same "
    "tree, so a textbook search never uses more than 100%"
)
DEFINITIONS = {
    "nodes": NODE,
    "leaves": LEAF,
    "cut-offs": CUTOFF,
    "table hits": TABLE_HIT,
    "share": SHARE,
}
"""Each counter's definition in words, for help texts."""
ITERATION = (
    "in Monte Carlo tree search, one pass from the root: a path chosen by UCB1, one position "
    "added to the tree, a playout from it, its result backed up the path (the root's visits "
    "count them)"
)
PLAYOUT = (
    "in Monte Carlo tree search, a game played on from the position an iteration added, at "
    "random (or guided by the heuristic and cut off for it to judge) to give the iteration's "
    "result; an iteration that reaches a finished or proven position backs its value up "
    "instead"
)
TREE_NODE = (
    "in Monte Carlo tree search, a position the tree holds: the root and each position an "
    "iteration added (the search's nodes)"
)
PLAYOUT_PLY = (
    "in Monte Carlo tree search, a move (or a chance outcome) played in a playout: the "
    "playouts' length, summed"
)
MCTS_DEFINITIONS = {
    "iterations": ITERATION,
    "playouts": PLAYOUT,
    "tree nodes": TREE_NODE,
    "playout plies": PLAYOUT_PLY,
}
"""Monte Carlo tree search's own counters in words (`ai.engine.mcts`, `PlayoutDetails`, and
the textbook's `ai.textbook.mcts_trace`)."""
LABELS = ("Nodes visited", "Leaves evaluated", "Cut-offs", "Table hits")
"""How the explorer's panel names the four counters, in the order of `Counts`."""
SHORT_LABELS = ("Nodes", "Leaves", "Cut-offs", "Table hits")
"""The same counters where a line holds all four (a narrow panel)."""
LABEL_DEFINITIONS = dict(zip(LABELS, (NODE, LEAF, CUTOFF, TABLE_HIT), strict=True))
"""Each panel label's definition (the explorer shows it under the counter pointed at)."""
COUNTER_HINT = "Point at a count to see what it counts."


def definitions_text(width: int = 88) -> str:
    """The counters' definitions as a help text: one wrapped paragraph each."""
    lines = ["what is counted (the same in analyze, bench, trace, compare and the window):"]
    for name, words in (DEFINITIONS | MCTS_DEFINITIONS).items():
        lines += textwrap.wrap(
            f"{name}: {words}", width, initial_indent="  ", subsequent_indent="    "
        )
    return "\n".join(lines)


class Counts(NamedTuple):
    """The four counters of one search (a tuple: nodes, leaves, cut-offs, table hits)."""

    nodes: int = 0
    leaves: int = 0
    cutoffs: int = 0
    table_hits: int = 0


@dataclass
class Counter(Quiet):
    """The observer that counts, by the definitions above.  `answered_by_table()` tells a
    table's answer from a leaf (a search with a table); the counter also keeps the root
    moves' values, whose first best is the search's decision."""

    answered_by_table: Callable[[], bool] = lambda: False
    nodes: int = 0
    leaves: int = 0
    cutoffs: int = 0
    table_hits: int = 0
    root_values: dict[Move, float] = field(default_factory=dict)
    _open: int = 0

    # -------------------------------------------------------------- the definitions
    def count_node(self) -> None:
        """A node (`NODE`)."""
        self.nodes += 1

    def count_leaf(self, by_table: bool) -> None:
        """A leaf (`LEAF`), or a table hit (`TABLE_HIT`)."""
        if by_table:
            self.table_hits += 1
        else:
            self.leaves += 1

    def count_cutoff(self, skipped: Sequence[object]) -> None:
        """A cut-off (`CUTOFF`): only when a move is skipped."""
        if skipped:
            self.cutoffs += 1

    @property
    def counts(self) -> Counts:
        """The counters so far."""
        return Counts(self.nodes, self.leaves, self.cutoffs, self.table_hits)

    # -------------------------------------------------------------- the observer's hooks
    def enter(self, state: object, depth: int, alpha: float, beta: float) -> None:
        """Count the node."""
        self.count_node()
        self._open += 1

    def leaf(self, state: object, value: float) -> None:
        """Count the leaf or the table's answer."""
        self.count_leaf(self.answered_by_table())

    def backed_up(self, state: object, move: Move, child: float, best: float) -> None:
        """Keep the root moves' values."""
        if self._open == 1:
            self.root_values[move] = child

    def cut_off(
        self, state: object, move: Move, value: float, bound: str, skipped: Sequence[Move]
    ) -> None:
        """Count the cut-off."""
        self.count_cutoff(skipped)

    def leave(self, state: object, value: float) -> None:
        """Close the node."""
        self._open -= 1

    def decision(self) -> tuple[Move, float]:
        """The root's first move with the best value, and that value."""
        best = max(self.root_values.values())
        return next(m for m, v in self.root_values.items() if v == best), best


def tally(events: Iterable[Any]) -> list[Counts]:
    """The counters after each recorded `TraceEvent` (`ai.textbook.trace_tree`), counted
    by the same definitions: an ``enter`` is a node, a ``leaf`` a leaf, a ``table`` a table
    hit, a ``cutoff`` a cut-off (recorded with the moves it skipped)."""
    counter = Counter()
    found = []
    for event in events:
        kind = event.kind
        if kind == "enter":
            counter.count_node()
        elif kind in ("leaf", "table"):
            counter.count_leaf(kind == "table")
        elif kind == "cutoff":
            counter.count_cutoff(event.skipped)
        found.append(counter.counts)
    return found


class MctsCounts(NamedTuple):
    """Monte Carlo tree search's four counters (`MCTS_DEFINITIONS`), in this order."""

    iterations: int = 0
    tree_nodes: int = 0
    playouts: int = 0
    playout_plies: int = 0


def mcts_tally(events: Iterable[Any]) -> list[MctsCounts]:
    """The MCTS counters after each recorded `MctsEvent` (`ai.textbook.mcts_trace`), by the
    definitions above: an ``iteration`` starts one; the tree holds the root and the nodes
    each ``expand`` added; a ``playout`` with moves is a playout of that many plies (one
    with none started where the game was over: its result was backed up as it was)."""
    iterations, tree_nodes, playouts, plies = 0, 1, 0, 0
    found = []
    for event in events:
        kind = event.kind
        if kind == "iteration":
            iterations += 1
        elif kind == "expand":
            tree_nodes += len(event.added)
        elif kind == "playout" and event.moves:
            playouts += 1
            plies += len(event.moves)
        found.append(MctsCounts(iterations, tree_nodes, playouts, plies))
    return found


def share_of_minimax(nodes: int, minimax_nodes: int | None) -> float | None:
    """`SHARE`: `nodes` over minimax's on the same tree, or None when there is no minimax
    count to compare with, or when the search visited more nodes than minimax (it did not
    search the same tree: iterative deepening's earlier passes, exact values for every root
    move); the caller then says "more than minimax" in words, never as a percentage."""
    if not minimax_nodes or nodes > minimax_nodes:
        return None
    return nodes / minimax_nodes
