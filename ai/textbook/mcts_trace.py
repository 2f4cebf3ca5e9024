"""A recorded Monte Carlo tree search: the textbook MCTS, every phase of every iteration an
event, for `trace`, the explorer and the lessons.

`record_mcts(state, iterations, seed)` runs `ai.textbook.mcts.monte_carlo_tree_search` on the
game view of `ai.textbook.game_view` (so on every game: the built-in ones, the textbook
trees, games from files, chance games), with ``random.Random(seed)``: one seed, one tree.
A `Recorder` writes each step as an `MctsEvent`; `MctsTrace.tree_at(step)` rebuilds the tree
after any prefix of them (each node's N and U as they were then), which is how a surface
steps through the search.  The counters come from `ai.textbook.counts` (`mcts_tally`).

Every N, U and UCB1 here is an estimate from playouts: never an exact value.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from plyground.ai.engine.bookkeeping import SearchError
from plyground.ai.textbook.counts import MctsCounts, mcts_tally
from plyground.ai.textbook.game_view import Position, TextbookGame
from plyground.ai.textbook.mcts import (
    PlayoutTooLong,
    monte_carlo_tree_search,
    most_visited,
    ucb1,
)
from plyground.ai.textbook.mcts_node import MctsNode
from plyground.ai.textbook.observer import QuietMcts
from plyground.games.base import CHANCE, Move, State, capabilities

ITERATION_BUDGET = 10_000
"""A recorded search runs at most this many iterations: more is neither readable nor
drawable (the engine's MCTS, `ai.engine.mcts`, runs millions)."""
DEFAULT_ITERATIONS = 100
"""Iterations when none are asked for."""
PHASES = {
    "iteration": "selection",
    "select": "selection",
    "expand": "expansion",
    "playout": "simulation",
    "backup": "backpropagation",
    "decide": "decision",
}
"""The phase each kind of event belongs to."""


@dataclass(frozen=True)
class MctsEvent:
    """One step of a recorded MCTS.

    kind: ``iteration`` (iteration `iteration` starts at the root), ``select`` (one step
    down from `node` to `child`; `ucb` holds every child's (id, UCB1), empty at a chance
    node, where the child was drawn), ``expand`` (`child` added below `node`, with its
    outcomes at a chance node: their ids in `added`; `child` is `node` and nothing is added
    where the game is over), ``playout`` (from `node`: its `moves` as text and the `result`
    for MAX), ``backup`` (`node`'s counts are now `N` and `U`), ``decide`` (the root's most
    visited child is `child`).
    """

    kind: str
    iteration: int
    node: int
    child: int | None = None
    ucb: tuple[tuple[int, float], ...] = ()
    moves: tuple[str, ...] = ()
    result: float | None = None
    N: int = 0
    U: float = 0.0
    added: tuple[int, ...] = ()


@dataclass(frozen=True)
class MctsTreeNode:
    """A node of the tree after some prefix of the events: its place, its counts then."""

    id: int
    parent: int | None
    move: str | None
    N: int
    U: float
    depth: int
    mover: str = ""
    """Who moved into it ("max" or "min"): whose results U counts."""
    chance: bool = False
    """Dice decide at it (its children are drawn, never chosen)."""

    @property
    def mean(self) -> float | None:
        """U/N, the estimated chance of winning for `mover` (None before any visit)."""
        return self.U / self.N if self.N else None


@dataclass(frozen=True)
class _Place:
    """What never changes about a node: where it is and who moved into it."""

    parent: int | None
    move: str | None
    depth: int
    mover: str
    chance: bool


@dataclass
class MctsTrace:
    """A recorded MCTS: its settings, its events, the tree it grew and the move it chose."""

    state: State[Any]
    iterations: int
    seed: int
    c: float
    events: list[MctsEvent]
    move: Move
    root: MctsNode[Position]
    """The final tree, with its statistics."""
    root_label: str = "root"
    places: dict[int, _Place] = field(default_factory=dict)
    counters: list[MctsCounts] = field(default_factory=list)
    """After each event: the counters (`ai.textbook.counts.MCTS_DEFINITIONS`)."""

    @property
    def move_label(self) -> str:
        """The chosen move as text."""
        child = self.events[-1].child
        assert child is not None
        label = self.places[child].move
        assert label is not None
        return label

    def tree_at(self, step: int) -> list[MctsTreeNode]:
        """The tree after `events[:step]`: its nodes in the order they were added, each with
        its counts as they were then."""
        present = [0]
        counts: dict[int, tuple[int, float]] = {}
        for event in self.events[: max(0, step)]:
            if event.kind == "expand":
                present += event.added
            elif event.kind == "backup":
                counts[event.node] = (event.N, event.U)
        found = []
        for node in present:
            place = self.places[node]
            n, u = counts.get(node, (0, 0.0))
            found.append(
                MctsTreeNode(
                    node, place.parent, place.move, n, u, place.depth, place.mover, place.chance
                )
            )
        return found

    def phase_at(self, step: int) -> str:
        """The phase of the event at `step` (clamped to the events): selection, expansion,
        simulation, backpropagation, or decision for the last one."""
        if not self.events:
            return "selection"
        return PHASES[self.events[max(0, min(step, len(self.events) - 1))].kind]

    def iteration_starts(self) -> list[int]:
        """The index of each iteration's first event, in order."""
        return [i for i, event in enumerate(self.events) if event.kind == "iteration"]

    def counts_at(self, step: int) -> MctsCounts:
        """The counters after `events[:step]`."""
        if step <= 0 or not self.counters:
            return MctsCounts(tree_nodes=1)
        return self.counters[min(step, len(self.counters)) - 1]

    def label(self, node: int) -> str:
        """A node's name: the root's own name, else its move."""
        move = self.places[node].move
        return self.root_label if move is None else move


class Recorder(QuietMcts):
    """The observer that writes an MCTS's events (see `MctsEvent`)."""

    def __init__(self, label_of: Callable[[Move], str]) -> None:
        self.label_of = label_of
        self.events: list[MctsEvent] = []
        self.places: dict[int, _Place] = {}
        self.number = 0

    def place(self, node: MctsNode[Any], depth: int) -> None:
        """Remember where `node` is (and its outcomes', at a chance node)."""
        parent = None if node.parent is None else node.parent.id
        move = None if node.move is None else self.label_of(node.move)
        self.places[node.id] = _Place(parent, move, depth, node.mover, node.chance)
        for child in node.children:
            self.place(child, depth + 1)

    def iteration(self, number: int, root: MctsNode[Any]) -> None:
        """Record the start of an iteration (and, the first time, the root's place)."""
        if not self.places:
            self.place(root, 0)
        self.number = number
        self.events.append(MctsEvent("iteration", number, root.id))

    def selected(
        self,
        node: MctsNode[Any],
        child: MctsNode[Any],
        ucb: Sequence[tuple[MctsNode[Any], float]],
    ) -> None:
        """Record a step down, with every child's UCB1."""
        scores = tuple((c.id, value) for c, value in ucb)
        self.events.append(MctsEvent("select", self.number, node.id, child.id, ucb=scores))

    def expanded(self, leaf: MctsNode[Any], child: MctsNode[Any]) -> None:
        """Record the node added (and its outcomes)."""
        added: tuple[int, ...] = ()
        if child is not leaf:
            self.place(child, self.places[leaf.id].depth + 1)
            added = (child.id, *(c.id for c in child.children))
        self.events.append(MctsEvent("expand", self.number, leaf.id, child.id, added=added))

    def simulated(self, child: MctsNode[Any], moves: Sequence[Move], result: float) -> None:
        """Record the playout."""
        shown = tuple(self.label_of(move) for move in moves)
        self.events.append(MctsEvent("playout", self.number, child.id, moves=shown, result=result))

    def backed_up(self, node: MctsNode[Any], result: float) -> None:
        """Record a node's new counts."""
        self.events.append(
            MctsEvent("backup", self.number, node.id, result=result, N=node.N, U=node.U)
        )

    def decided(self, root: MctsNode[Any], move: Move) -> None:
        """Record the choice."""
        self.events.append(MctsEvent("decide", self.number, root.id, most_visited(root).id))


def check(state: State[Any], iterations: int, c: float) -> None:
    """Refuse what the recorder cannot search, in one line each."""
    if not isinstance(iterations, int) or not 1 <= iterations <= ITERATION_BUDGET:
        raise SearchError(
            f"a traced MCTS runs 1 to {ITERATION_BUDGET:,} iterations, not {iterations:,}: "
            "more is not readable (the engine's MCTS runs more: analyze --algorithm mcts)"
        )
    if not math.isfinite(c) or c < 0:
        raise SearchError(f"the exploration constant c must be 0 or more, not {c}")
    if state.is_terminal():
        raise SearchError("the game is over: there is no move to search")
    if state.to_move == CHANCE:
        raise SearchError("the dice decide here, not a player: there is no move to search")


def record_mcts(
    state: State[Any], iterations: int = DEFAULT_ITERATIONS, seed: int = 0, c: float = math.sqrt(2)
) -> MctsTrace:
    """Run the textbook MCTS from `state` for `iterations` iterations with
    ``random.Random(seed)`` and exploration constant `c`, and return every step.

    :raises SearchError: iterations out of range, a finished game, a chance position, or a
        playout that never ends."""
    check(state, iterations, c)
    view = TextbookGame(state)
    format_move = getattr(state.game, "format_move", str)
    recorder = Recorder(lambda move: str(format_move(move)))
    try:
        move, root = monte_carlo_tree_search(
            view, view.start(0), iterations, random.Random(seed), c, recorder
        )
    except PlayoutTooLong as error:
        raise SearchError(str(error)) from None
    return MctsTrace(
        state,
        iterations,
        seed,
        c,
        recorder.events,
        move,
        root,
        capabilities(state.game).root_label,
        recorder.places,
        mcts_tally(recorder.events),
    )


def final_ucb(trace: MctsTrace) -> list[tuple[MctsNode[Position], float]]:
    """Each root child with its UCB1 at the end of the search (as the next iteration would
    score it)."""
    root = trace.root
    return [(child, ucb1(child, root.N, trace.c)) for child in root.children]
