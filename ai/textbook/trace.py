"""A recorded search: textbook minimax, alpha-beta and expectiminimax, every step an event.

`trace(state, algorithm, depth, heuristic)` runs the algorithm in its textbook form
(MAX-VALUE / MIN-VALUE, alpha-beta with alpha and beta, chance nodes as weighted sums)
and records what it does as a list of `TraceEvent`s; `build_tree(events)` (`ai.textbook.trace_tree`,
with the events, nodes and `Trace`) turns any prefix of that list into the tree searched
so far, which is how the explorer steps.

Values are those of `ai.engine.search` (same leaf values, same scale, depth counts player
decisions, chance layers are free) but written from MAX's side: MAX is the player to move
at the root, so a MIN node's value is MAX's value too and the root value equals
`ai.search(...).value`.  Two optional game attributes serve the textbook trees:
`utility_is_value` (leaf numbers kept unscaled) and `root_label` (the root's name).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from plyground.ai.engine.bookkeeping import Context, SearchError
from plyground.ai.engine.full_width_search import book_leaf
from plyground.ai.engine.search import (
    ALGORITHM_TITLES,
    ALGORITHMS,
    MAX_DEPTH,
    algorithms_for,
    heuristic_for,
)
from plyground.ai.engine.values import PROVEN_UNITS, SCALE, STEP_UNITS, WIN_UNITS
from plyground.ai.evaluation.provenance import Evaluation, Kind, Source
from plyground.ai.textbook.trace_tree import Trace, TraceEvent, TraceNode, build_tree, format_value
from plyground.games.base import CHANCE, Move

ORDERINGS = ("game", "reversed", "best")
"""Move orders: the game's own, reversed, or best first (by each child's exact value)."""
NODE_BUDGET = 20_000
"""Traces stop past this many nodes: bigger ones are neither drawable nor readable."""
ORACLE_FACTOR = 20
"""Best-first ordering may spend this many times the budget finding the best order."""
SHAPES = {"max": "▲", "min": "▼", "chance": "○", "leaf": "■"}
"""Node shapes that do not rely on colour."""

__all__ = [
    "NODE_BUDGET",
    "ORDERINGS",
    "SHAPES",
    "Trace",
    "TraceEvent",
    "TraceNode",
    "TraceTooLarge",
    "build_tree",
    "format_value",
    "leaf_values",
    "recorded",
    "trace",
]


class TraceTooLarge(SearchError):
    """The search passed the node budget (the message suggests a smaller depth)."""


@dataclass
class _Tracer:
    """The recursion of one trace; values in units from MAX's side."""

    algorithm: str
    depth: int
    ordering: str
    use_table: bool
    budget: int
    ctx: Context
    root_player: int
    raw: bool
    decay: bool
    label_of: Callable[[Move], str]
    root_label: str = "root"
    events: list[TraceEvent] = field(default_factory=list)
    count: int = 0
    table: dict[Any, tuple[float, str]] = field(default_factory=dict)
    oracle_memo: dict[Any, float] = field(default_factory=dict)
    oracle_nodes: int = 0

    # --------------------------------------------------------------- values
    def show(self, units: float) -> float | None:
        """Units to the displayed scale (None for an infinite bound)."""
        if math.isinf(units):
            return None
        return units if self.raw else units / SCALE

    def terminal(self, state: Any, ply: int) -> float:
        """A finished game's value for MAX, a proven one worth less the farther it is."""
        if self.raw:
            return float(state.utility(self.root_player))
        units = int(state.utility(self.root_player)) * WIN_UNITS
        if self.decay and units:
            units += -ply * STEP_UNITS if units > 0 else ply * STEP_UNITS
        return units

    def heuristic(self, state: Any, stochastic: bool) -> float:
        """A leaf's estimate for MAX, exactly as `ai.engine.search` computes it."""
        units = self.ctx.leaf_exact(state) if stochastic else self.ctx.leaf(state)
        return units if state.player == self.root_player else -units

    def book(self, state: Any, ply: int) -> float | None:
        """The opening book's exact value for MAX (as `ai.engine.search` uses it), or None."""
        if self.raw or not self.ctx.book or not hasattr(state, "book_value"):
            return None
        units = book_leaf(state)
        if units is None:
            return None
        if self.decay and abs(units) > PROVEN_UNITS:
            units += -ply * STEP_UNITS if units > 0 else ply * STEP_UNITS
        return units if state.player == self.root_player else -units

    def role(self, state: Any, remaining: int, ply: int) -> str:
        """leaf, chance, max or min.  The root is searched even when the book knows it, as
        `ai.engine.search` searches it."""
        if state.is_terminal():
            return "leaf"
        if ply and self.book(state, ply) is not None:
            return "leaf"  # a position the opening book knows exactly
        if state.to_move == CHANCE:
            return "chance"
        if remaining == 0:
            return "leaf"
        return "max" if state.player == self.root_player else "min"

    # --------------------------------------------------------------- ordering
    def ordered(self, state: Any, role: str, remaining: int, ply: int) -> list[Move]:
        """The node's moves in the chosen order."""
        moves = list(state.legal_moves())
        if self.ordering == "reversed":
            moves.reverse()
        elif self.ordering == "best":
            values = {m: self.oracle(state.play(m), remaining - 1, ply + 1) for m in moves}
            moves.sort(key=values.__getitem__, reverse=role == "max")
        return moves

    def oracle(self, state: Any, remaining: int, ply: int) -> float:
        """The exact value (for MAX) of a node, untraced, to put the best child first."""
        role = self.role(state, remaining, ply)
        key = (state.key(), remaining, role, ply if self.decay else 0)
        found = self.oracle_memo.get(key)
        if found is not None:
            return found
        self.oracle_nodes += 1
        if self.oracle_nodes > self.budget * ORACLE_FACTOR:
            raise TraceTooLarge(
                f"finding the best order needs more than {self.budget * ORACLE_FACTOR:,} "
                f"nodes at depth {self.depth}: try a smaller depth or another ordering"
            )
        if role == "leaf":
            known = None if state.is_terminal() else self.book(state, ply)
            if state.is_terminal():
                value = self.terminal(state, ply)
            elif known is not None:
                value = known
            else:
                estimate = self.ctx.evaluate(state)
                value = estimate if state.player == self.root_player else -estimate
        elif role == "chance":
            value = sum(
                p * self.oracle(state.play(o), remaining, ply + 1)
                for o, p in state.chance_outcomes()
            )
        else:
            values = [
                self.oracle(state.play(m), remaining - 1, ply + 1) for m in state.legal_moves()
            ]
            value = max(values) if role == "max" else min(values)
        self.oracle_memo[key] = value
        return value

    # --------------------------------------------------------------- the search
    def emit(self, **fields_: Any) -> None:
        """Record one event."""
        self.events.append(TraceEvent(**fields_))

    def visit(
        self,
        state: Any,
        parent: int,
        move: Move,
        probability: float | None,
        remaining: int,
        ply: int,
        alpha: float,
        beta: float,
    ) -> float:
        """Search one node; return its value for MAX in units.

        The textbook's steps, each recorded: enter the node; at a leaf, evaluate it; else
        try the table, then back up the children's values (weighted at a chance node; at a
        decision node best first, with alpha-beta's cut-offs); store and exit.
        """
        node = self.count
        self.count += 1
        if self.count > self.budget:
            raise TraceTooLarge(
                f"the trace passed its budget of {self.budget:,} nodes at depth {self.depth}: "
                + (f"try depth {max(1, self.depth - 1)} or less" if self.depth > 1 else "")
                + ("" if self.algorithm == "alphabeta" else ", or alpha-beta")
            )
        role = self.role(state, remaining, ply)
        pruning = self.algorithm == "alphabeta"
        self.emit(
            kind="enter",
            node=node,
            parent=parent,
            move=move,
            label=self.root_label if parent < 0 else self.label_of(move),
            role=role,
            ply=ply,
            alpha=self.show(alpha) if pruning else None,
            beta=self.show(beta) if pruning else None,
            probability=probability,
        )
        if role == "leaf":
            return self.evaluate_leaf(state, node, ply)
        key = (state.key(), remaining, role, ply if self.decay else 0)
        stored = self.from_table(key, node, alpha, beta) if self.use_table else None
        if stored is not None:
            return stored
        if role == "chance":
            value, bound = self.chance_node(state, node, remaining, ply), "exact"
        else:
            value = self.decision_node(state, node, role, remaining, ply, (alpha, beta))
            bound = "exact"
            if pruning:
                bound = "upper" if value <= alpha else ("lower" if value >= beta else "exact")
        if self.use_table:
            self.table[key] = (value, bound)
        self.emit(kind="exit", node=node, value=self.show(value), source=bound)
        return value

    def evaluate_leaf(self, state: Any, node: int, ply: int) -> float:
        """A leaf's value: the game's result, the opening book's, or the heuristic's."""
        known = None if state.is_terminal() else self.book(state, ply)
        if state.is_terminal():
            value, source = self.terminal(state, ply), "terminal"
        elif known is not None:
            value, source = known, "book"
        else:
            value, source = self.heuristic(state, state.STOCHASTIC), self.ctx.heuristic_name
        self.emit(kind="leaf", node=node, value=self.show(value), source=source)
        self.emit(kind="exit", node=node, value=self.show(value))
        return value

    def from_table(self, key: Any, node: int, alpha: float, beta: float) -> float | None:
        """A stored value that settles the node in the window (alpha, beta), or None."""
        entry = self.table.get(key)
        if entry is None:
            return None
        stored, flag = entry
        if (
            flag == "exact"
            or (flag == "lower" and stored >= beta)
            or (flag == "upper" and stored <= alpha)
        ):
            self.emit(kind="table", node=node, value=self.show(stored), source=flag)
            self.emit(kind="exit", node=node, value=self.show(stored), source="table")
            return stored
        return None

    def chance_node(self, state: Any, node: int, remaining: int, ply: int) -> float:
        """The probability-weighted sum of the outcomes' values (each searched in full)."""
        value = 0.0
        terms = []
        for outcome, chance in state.chance_outcomes():
            child = self.count
            child_value = self.visit(
                state.play(outcome), node, outcome, chance, remaining, ply + 1, -math.inf, math.inf
            )
            value += chance * child_value
            shown = self.show(child_value)
            assert shown is not None
            terms.append((self.label_of(outcome), chance, shown))
            self.emit(
                kind="backup",
                node=node,
                child=child,
                move=outcome,
                value=shown,
                best=self.show(value),
                probability=chance,
            )
        self.emit(kind="chance", node=node, value=self.show(value), terms=tuple(terms))
        return value

    def decision_node(
        self,
        state: Any,
        node: int,
        role: str,
        remaining: int,
        ply: int,
        window: tuple[float, float],
    ) -> float:
        """The best child's value for MAX or MIN; alpha-beta narrows the window as it goes
        and stops when the rest cannot matter (a cut-off, with the moves it skips)."""
        is_max = role == "max"
        best = -math.inf if is_max else math.inf
        low, high = window
        moves = self.ordered(state, role, remaining, ply)
        for index, move in enumerate(moves):
            child = self.count
            child_value = self.visit(
                state.play(move), node, move, None, remaining - 1, ply + 1, low, high
            )
            if (child_value > best) if is_max else (child_value < best):
                best = child_value
            self.emit(
                kind="backup",
                node=node,
                child=child,
                move=move,
                value=self.show(child_value),
                best=self.show(best),
            )
            if self.algorithm != "alphabeta":
                continue
            if (best >= high) if is_max else (best <= low):
                skipped = tuple(self.label_of(m) for m in moves[index + 1 :])
                if skipped:
                    self.emit(
                        kind="cutoff",
                        node=node,
                        value=self.show(best),
                        old=self.show(high if is_max else low),
                        source="beta" if is_max else "alpha",
                        skipped=skipped,
                    )
                break
            if is_max and best > low:
                self.emit(kind="alpha", node=node, old=self.show(low), value=self.show(best))
                low = best
            elif not is_max and best < high:
                self.emit(kind="beta", node=node, old=self.show(high), value=self.show(best))
                high = best
        return best


def _check(state: Any, algorithm: str, depth: int, ordering: str, node_budget: int) -> None:
    """The same refusals as `ai.engine.search`, plus the trace's own settings."""
    if algorithm not in ALGORITHMS:
        raise SearchError(
            f"unknown algorithm {algorithm!r}; choose one of: {', '.join(ALGORITHMS)}"
        )
    stochastic = bool(getattr(state.game, "stochastic", state.STOCHASTIC))
    if algorithm not in (("expectiminimax",) if stochastic else algorithms_for(state)):
        raise SearchError(
            f"{ALGORITHM_TITLES[algorithm]} cannot search {state.game.title}: it has chance "
            "nodes; use expectiminimax"
        )
    if not isinstance(depth, int) or not 1 <= depth <= MAX_DEPTH:
        raise SearchError(f"depth must be 1 to {MAX_DEPTH}, not {depth}")
    if ordering not in ORDERINGS:
        raise SearchError(f"unknown ordering {ordering!r}; choose one of: {', '.join(ORDERINGS)}")
    if node_budget < 1:
        raise SearchError(f"the node budget must be positive, not {node_budget}")
    if state.is_terminal():
        raise SearchError("the game is over: there is no move to search")


def _tracer(
    state: Any,
    algorithm: str,
    depth: int,
    heuristic: str | None,
    ordering: str,
    table: bool,
    node_budget: int,
) -> _Tracer:
    """The recursion of a trace of `state`, not yet run."""
    chosen = heuristic_for(state, heuristic)
    ctx = Context(chosen, None, 0, None, None)
    stochastic = bool(state.STOCHASTIC)
    if stochastic:
        ctx.for_chance_game()
    game = state.game
    raw = bool(getattr(game, "utility_is_value", False))
    format_move = getattr(game, "format_move", str)
    return _Tracer(
        algorithm,
        depth,
        ordering,
        table,
        node_budget,
        ctx,
        state.player,
        raw,
        not stochastic and not raw,
        lambda move: str(format_move(move)),
        str(getattr(game, "root_label", "root")),
    )


def leaf_values(state: Any, heuristic: str | None = None) -> Callable[[Any, int], float]:
    """What a trace of `state` records at a leaf `ply` plies below it, for MAX (the player to
    move at `state`) on the shown scale: a finished game's value (a proven one worth less the
    farther it is) or the heuristic's estimate.  The exercise grader gives a student's
    search exactly these values."""
    tracer = _tracer(state, "minimax", 1, heuristic, "game", False, NODE_BUDGET)

    def value(leaf: Any, ply: int) -> float:
        if leaf.is_terminal():
            units = tracer.terminal(leaf, ply)
        else:
            units = tracer.heuristic(leaf, bool(leaf.STOCHASTIC))
        shown = tracer.show(units)
        assert shown is not None
        return shown

    return value


def trace(
    state: Any,
    algorithm: str = "alphabeta",
    depth: int = 3,
    heuristic: str | None = None,
    ordering: str = "game",
    table: bool = False,
    node_budget: int = NODE_BUDGET,
    book: bool = False,
) -> Trace:
    """Run the textbook algorithm on `state` and record every step.  The textbook trees
    have no opening book: `book=True` lets the game's book answer positions as the engine's
    search does (a leaf "from the book").

    :raises SearchError: settings `ai.engine.search` would refuse, an unknown ordering.
    :raises TraceTooLarge: more than `node_budget` nodes (the message suggests a smaller depth).
    """
    _check(state, algorithm, depth, ordering, node_budget)
    tracer = _tracer(state, algorithm, depth, heuristic, ordering, table, node_budget)
    tracer.ctx.book = book
    tracer.visit(state, -1, None, None, depth, 0, -math.inf, math.inf)
    found = recorded(
        state, algorithm, depth, tracer.ctx.heuristic_name, tracer.events, ordering, table
    )
    found.book = book
    found.evaluation = _evaluation(found, tracer.ctx, tracer.events)
    return found


def recorded(
    state: Any,
    algorithm: str,
    depth: int,
    heuristic: str,
    events: list[TraceEvent],
    ordering: str = "game",
    table: bool = False,
) -> Trace:
    """A `Trace` of `events` recorded from `state` (by `trace`, or built from a student's
    search by the exercise grader), with its tree and step counters."""
    raw = bool(getattr(state.game, "utility_is_value", False))
    stochastic = bool(state.STOCHASTIC)
    counters = []
    visited = leaves = cutoffs = hits = 0
    for event in events:
        kind = event.kind
        if kind == "enter":
            visited += 1
        elif kind == "leaf":
            leaves += 1
        elif kind == "cutoff":
            cutoffs += 1
        elif kind == "table":
            hits += 1
        counters.append((visited, leaves, cutoffs, hits))
    found = Trace(
        algorithm,
        depth,
        heuristic,
        ordering,
        table,
        raw,
        stochastic,
        events,
        build_tree(events),
        state,
        counters,
    )
    return found


def _evaluation(found: Trace, ctx: Context, events: list[TraceEvent]) -> Evaluation:
    """The root value's provenance: exact when no heuristic leaf stands behind it (or, without
    chance, when it is a proven win or loss), else an estimate at the trace's depth."""
    value = found.value
    book_leaves = sum(1 for event in events if event.kind == "leaf" and event.source == "book")
    proven = not found.stochastic and not found.raw_values and abs(value) * SCALE > PROVEN_UNITS
    if ctx.estimates_used() and not proven:
        return Evaluation(value, Kind.ESTIMATE, Source.HEURISTIC, found.depth)
    source = Source.BOOK if book_leaves else Source.SEARCH
    return Evaluation(value, Kind.EXACT, source, found.depth)
