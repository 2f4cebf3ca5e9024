"""A recorded search: textbook minimax, alpha-beta and expectiminimax, every step an event.

`trace(state, algorithm, depth, heuristic)` runs the algorithm in its textbook form
(MAX-VALUE / MIN-VALUE, alpha-beta with alpha and beta, chance nodes as weighted sums)
and records what it does as a list of `TraceEvent`s; `build_tree(events)` turns any
prefix of that list into the tree searched so far, which is how the explorer steps.

Values are those of `ai.search` (same leaf values, same scale, depth counts player
decisions, chance layers are free) but written from MAX's side: MAX is the player to move
at the root, so a MIN node's value is MAX's value too and the root value equals
`ai.search(...).value`.  Two optional game attributes serve the textbook trees:
`utility_is_value` (leaf numbers kept unscaled) and `root_label` (the root's name).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any

from ai.engine import Context, SearchError
from ai.minimax import book_units
from ai.search import ALGORITHM_TITLES, ALGORITHMS, MAX_DEPTH, algorithms_for, heuristic_for
from ai.values import PROVEN_UNITS, SCALE, STEP_UNITS, WIN_UNITS
from games.base import CHANCE, Move

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
    "trace",
]


class TraceTooLarge(SearchError):
    """The search passed the node budget (the message suggests a smaller depth)."""


@dataclass(frozen=True, slots=True)
class TraceEvent:
    """One step of a recorded search.

    kind: ``enter`` (a node is visited: role, window), ``leaf`` (evaluated: terminal
    utility or the heuristic's name in `source`), ``table`` (answered by the
    transposition table), ``backup`` (a child's value reaches its parent: `value`, the
    parent's best so far in `best`), ``alpha`` / ``beta`` (a bound moves from `old` to
    `value`), ``cutoff`` (the `skipped` moves cannot matter: `source` names the bound,
    `value` is the node's value, `old` the bound's), ``chance`` (`terms` = (outcome label,
    probability, value) and their weighted sum `value`), ``exit`` (the node's final
    value; `source` = "exact", "upper" or "lower" for a fail-soft bound).
    Values are from MAX's side on the [-1, 1] scale (the book's numbers for explicit
    trees); None stands for an infinite bound.
    """

    kind: str
    node: int
    parent: int = -1
    move: Any = None
    label: str = ""
    role: str = ""
    ply: int = 0
    alpha: float | None = None
    beta: float | None = None
    value: float | None = None
    best: float | None = None
    old: float | None = None
    child: int = -1
    probability: float | None = None
    source: str = ""
    skipped: tuple[str, ...] = ()
    terms: tuple[tuple[str, float, float], ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The fields that differ from their defaults."""
        out: dict[str, Any] = {}
        for item in fields(self):
            value = getattr(self, item.name)
            if value != item.default:
                out[item.name] = list(map(list, value)) if item.name == "terms" else value
        if "skipped" in out:
            out["skipped"] = list(out["skipped"])
        return out

    @staticmethod
    def from_json(data: dict[str, Any]) -> TraceEvent:
        """The inverse of `to_json`."""
        values = dict(data)
        if "skipped" in values:
            values["skipped"] = tuple(values["skipped"])
        if "terms" in values:
            values["terms"] = tuple((str(a), float(b), float(c)) for a, b, c in values["terms"])
        return TraceEvent(**values)


@dataclass(slots=True)
class TraceNode:
    """One searched node, as the events describe it."""

    id: int
    parent: int
    move: Any
    label: str
    kind: str
    ply: int
    alpha: float | None = None
    beta: float | None = None
    probability: float | None = None
    value: float | None = None
    bound: str = "exact"
    source: str = ""
    children: list[int] = field(default_factory=list)
    skipped: tuple[str, ...] = ()
    cut_by: str = ""
    cut_bound: float | None = None
    table_hit: bool = False
    terms: tuple[tuple[str, float, float], ...] = ()
    entered: int = 0
    finished: int = -1
    history: list[tuple[int, float]] = field(default_factory=list)
    """(event index, value so far): what the node showed at each step."""

    @property
    def cut(self) -> bool:
        """Whether a cut-off skipped some of this node's children."""
        return bool(self.skipped)

    def value_at(self, step: int) -> float | None:
        """The value the node showed after event `step` (None before the first)."""
        found = None
        for index, value in self.history:
            if index > step:
                break
            found = value
        return found

    def same_as(self, other: TraceNode) -> bool:
        """Equal in everything the events say (the replay test)."""
        return all(getattr(self, f.name) == getattr(other, f.name) for f in fields(self))


def build_tree(events: list[TraceEvent]) -> list[TraceNode]:
    """The tree the events describe (any prefix gives the tree searched so far)."""
    nodes: list[TraceNode] = []
    for index, event in enumerate(events):
        kind = event.kind
        if kind == "enter":
            node = TraceNode(
                event.node,
                event.parent,
                event.move,
                event.label,
                event.role,
                event.ply,
                event.alpha,
                event.beta,
                event.probability,
                entered=index,
            )
            nodes.append(node)
            if event.parent >= 0:
                nodes[event.parent].children.append(event.node)
            continue
        node = nodes[event.node]
        if kind in ("leaf", "table"):
            node.value = event.value
            node.source = event.source
            node.table_hit = kind == "table"
            node.history.append((index, event.value))  # type: ignore[arg-type]
        elif kind == "backup":
            node.value = event.best
            node.history.append((index, event.best))  # type: ignore[arg-type]
        elif kind == "cutoff":
            node.skipped = event.skipped
            node.cut_by = event.source
            node.cut_bound = event.old
        elif kind == "chance":
            node.terms = event.terms
            node.value = event.value
            node.history.append((index, event.value))  # type: ignore[arg-type]
        elif kind == "exit":
            node.value = event.value
            node.finished = index
            if event.source != "table":
                node.bound = event.source or "exact"
    return nodes


@dataclass
class Trace:
    """A recorded search: its settings, its events, the tree and step counters."""

    algorithm: str
    depth: int
    heuristic: str
    ordering: str
    table: bool
    raw_values: bool
    stochastic: bool
    events: list[TraceEvent]
    nodes: list[TraceNode]
    root_state: Any = None
    counters: list[tuple[int, int, int, int]] = field(default_factory=list)
    """After each event: (nodes visited, leaves evaluated, cut-offs, table hits)."""

    @property
    def root(self) -> TraceNode:
        """The searched position."""
        return self.nodes[0]

    @property
    def value(self) -> float:
        """The root's value for the player to move (as `ai.search(...).value`)."""
        assert self.root.value is not None
        return self.root.value

    @property
    def best_child(self) -> TraceNode | None:
        """The root child the search chose (the first best, in search order)."""
        root = self.root
        if root.kind not in ("max", "min"):
            return None
        for child in root.children:
            if self.nodes[child].value == root.value:
                return self.nodes[child]
        return None

    def totals(self, step: int | None = None) -> tuple[int, int, int, int]:
        """(nodes, leaves, cut-offs, table hits) after event `step` (default: the end)."""
        if not self.counters:
            return (0, 0, 0, 0)
        index = (
            len(self.counters) - 1 if step is None else max(0, min(step, len(self.counters) - 1))
        )
        return self.counters[index]

    def path(self, node_id: int) -> list[TraceNode]:
        """The nodes from the root down to `node_id`."""
        line = []
        node: TraceNode | None = self.nodes[node_id]
        while node is not None:
            line.append(node)
            node = self.nodes[node.parent] if node.parent >= 0 else None
        return line[::-1]

    def state_of(self, node_id: int) -> Any:
        """The position at a node (replaying the moves from the root)."""
        state = self.root_state
        for node in self.path(node_id)[1:]:
            state = state.play(node.move)
        return state

    def principal_path(self, start: int = 0) -> list[int]:
        """From `start`, each node's first child with the node's own value (the chosen line)."""
        line = [start]
        node = self.nodes[start]
        while node.children and node.kind in ("max", "min"):
            follow = next(
                (c for c in node.children if self.nodes[c].value == node.value), node.children[0]
            )
            line.append(follow)
            node = self.nodes[follow]
        return line

    def format_value(self, value: float | None) -> str:
        """A value as the explorer and the text output show it."""
        return format_value(value, self.raw_values)


def format_value(value: float | None, raw: bool = False) -> str:
    """±∞ for a missing bound; the book's numbers as they are; else two decimals with sign."""
    if value is None:
        return "∞"
    if raw:
        text = f"{value:.3f}".rstrip("0").rstrip(".")
        return "0" if text in ("-0", "") else text
    text = f"{value:+.2f}"
    if abs(value) > PROVEN_UNITS / SCALE and abs(value) < 1.0 - 1e-12:
        plies = round((1.0 - abs(value)) / (STEP_UNITS / SCALE))
        return f"{'win' if value > 0 else 'loss'} in {plies}"
    return text.replace("-", "−")


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
        """A leaf's estimate for MAX, exactly as `ai.search` computes it."""
        units = self.ctx.leaf_exact(state) if stochastic else self.ctx.leaf(state)
        return units if state.player == self.root_player else -units

    def book(self, state: Any, ply: int) -> float | None:
        """The opening book's exact value for MAX (as `ai.search` uses it), or None."""
        if self.raw or not hasattr(state, "book_value"):
            return None
        units = book_units(state)
        if units is None:
            return None
        if self.decay and abs(units) > PROVEN_UNITS:
            units += -ply * STEP_UNITS if units > 0 else ply * STEP_UNITS
        return units if state.player == self.root_player else -units

    def role(self, state: Any, remaining: int) -> str:
        """leaf, chance, max or min."""
        if state.is_terminal():
            return "leaf"
        if not self.raw and hasattr(state, "book_value") and book_units(state) is not None:
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
        role = self.role(state, remaining)
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
        """Search one node; return its value for MAX in units."""
        node = self.count
        self.count += 1
        if self.count > self.budget:
            raise TraceTooLarge(
                f"the trace passed its budget of {self.budget:,} nodes at depth {self.depth}: "
                + (f"try depth {max(1, self.depth - 1)} or less" if self.depth > 1 else "")
                + ("" if self.algorithm == "alphabeta" else ", or alpha-beta")
            )
        role = self.role(state, remaining)
        pruning = self.algorithm == "alphabeta"
        label = self.root_label if parent < 0 else self.label_of(move)
        self.emit(
            kind="enter",
            node=node,
            parent=parent,
            move=move,
            label=label,
            role=role,
            ply=ply,
            alpha=self.show(alpha) if pruning else None,
            beta=self.show(beta) if pruning else None,
            probability=probability,
        )
        if role == "leaf":
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
        key = (state.key(), remaining, role, ply if self.decay else 0)
        if self.use_table:
            entry = self.table.get(key)
            if entry is not None:
                stored, flag = entry
                if (
                    flag == "exact"
                    or (flag == "lower" and stored >= beta)
                    or (flag == "upper" and stored <= alpha)
                ):
                    self.emit(kind="table", node=node, value=self.show(stored), source=flag)
                    self.emit(kind="exit", node=node, value=self.show(stored), source="table")
                    return stored
        if role == "chance":
            value = 0.0
            terms = []
            for outcome, chance in state.chance_outcomes():
                child = self.count
                child_value = self.visit(
                    state.play(outcome),
                    node,
                    outcome,
                    chance,
                    remaining,
                    ply + 1,
                    -math.inf,
                    math.inf,
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
            bound = "exact"
        else:
            is_max = role == "max"
            best = -math.inf if is_max else math.inf
            low, high = alpha, beta
            moves = self.ordered(state, role, remaining, ply)
            for index, move_ in enumerate(moves):
                child = self.count
                child_value = self.visit(
                    state.play(move_), node, move_, None, remaining - 1, ply + 1, low, high
                )
                if (child_value > best) if is_max else (child_value < best):
                    best = child_value
                self.emit(
                    kind="backup",
                    node=node,
                    child=child,
                    move=move_,
                    value=self.show(child_value),
                    best=self.show(best),
                )
                if not pruning:
                    continue
                skipped = tuple(self.label_of(m) for m in moves[index + 1 :])
                if is_max:
                    if best >= high:
                        if skipped:
                            self.emit(
                                kind="cutoff",
                                node=node,
                                value=self.show(best),
                                old=self.show(high),
                                source="beta",
                                skipped=skipped,
                            )
                        break
                    if best > low:
                        self.emit(
                            kind="alpha", node=node, old=self.show(low), value=self.show(best)
                        )
                        low = best
                else:
                    if best <= low:
                        if skipped:
                            self.emit(
                                kind="cutoff",
                                node=node,
                                value=self.show(best),
                                old=self.show(low),
                                source="alpha",
                                skipped=skipped,
                            )
                        break
                    if best < high:
                        self.emit(
                            kind="beta", node=node, old=self.show(high), value=self.show(best)
                        )
                        high = best
            value = best
            bound = "exact"
            if pruning:
                bound = "upper" if value <= alpha else ("lower" if value >= beta else "exact")
        if self.use_table:
            self.table[key] = (value, bound)
        self.emit(kind="exit", node=node, value=self.show(value), source=bound)
        return value


def _check(state: Any, algorithm: str, depth: int, ordering: str, node_budget: int) -> None:
    """The same refusals as `ai.search`, plus the trace's own settings."""
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


def trace(
    state: Any,
    algorithm: str = "alphabeta",
    depth: int = 3,
    heuristic: str | None = None,
    ordering: str = "game",
    table: bool = False,
    node_budget: int = NODE_BUDGET,
) -> Trace:
    """Run the textbook algorithm on `state` and record every step.

    :raises SearchError: settings `ai.search` would refuse, an unknown ordering.
    :raises TraceTooLarge: more than `node_budget` nodes (the message suggests a smaller depth).
    """
    _check(state, algorithm, depth, ordering, node_budget)
    chosen = heuristic_for(state, heuristic)
    ctx = Context(chosen, None, 0, None, None)
    stochastic = bool(state.STOCHASTIC)
    if stochastic:
        ctx.for_chance_game()
    game = state.game
    raw = bool(getattr(game, "utility_is_value", False))
    format_move = getattr(game, "format_move", str)
    tracer = _Tracer(
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
    tracer.visit(state, -1, None, None, depth, 0, -math.inf, math.inf)
    events = tracer.events
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
    return Trace(
        algorithm,
        depth,
        chosen.name,
        ordering,
        table,
        raw,
        stochastic,
        events,
        build_tree(events),
        state,
        counters,
    )
