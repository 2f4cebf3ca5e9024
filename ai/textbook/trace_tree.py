"""A recorded search as data: its events, the tree they describe, and the `Trace` itself.

`ai.textbook.trace` records the events; `build_tree(events)` turns any prefix of them into the tree
searched so far, which is how the explorer steps.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from plyground.ai.evaluation.values import PROVEN_UNITS, SCALE, STEP_UNITS, signed
from plyground.games.base import State


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
    root_state: State[Any] | None = None
    counters: list[tuple[int, int, int, int]] = field(default_factory=list)
    """After each event: (nodes visited, leaves evaluated, cut-offs, table hits), counted as
    `ai.textbook.counts` defines them."""
    evaluation: Any = None
    """The root value's `ai.evaluation.provenance.Evaluation` (kind and source), set by
    `ai.textbook.trace`."""
    book: bool = False
    """Whether the game's opening book answered positions (off for the textbook's tree)."""
    windowless: bool = False
    """No α/β window was recorded (a student's search, rebuilt from the leaves it evaluated)."""

    @property
    def shows_window(self) -> bool:
        """Whether the trace's α/β windows are worth showing: alpha-beta's, as recorded."""
        return self.algorithm == "alphabeta" and not self.windowless

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

    def state_of(self, node_id: int) -> State[Any]:
        """The position at a node (replaying the moves from the root)."""
        state = self.root_state
        assert state is not None, "a trace of a search keeps its root position"
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
        """A value as the explorer and the text output show it: in a search whose every leaf
        is a finished game (or the book), 0 is a proven draw and says so, as Compare does."""
        evaluation = self.evaluation
        proven = evaluation is not None and evaluation.is_exact and not self.stochastic
        if value == 0 and proven and not self.raw_values:
            return "draw"
        return format_value(value, self.raw_values)


def format_value(value: float | None, raw: bool = False) -> str:
    """±∞ for a missing bound; the book's numbers as they are; else two decimals with sign."""
    if value is None:
        return "∞"
    if raw:
        text = f"{value:.3f}".rstrip("0").rstrip(".")
        return "0" if text in ("-0", "") else text
    text = signed(value)
    if abs(value) > PROVEN_UNITS / SCALE and abs(value) < 1.0 - 1e-12:
        plies = round((1.0 - abs(value)) / (STEP_UNITS / SCALE))
        return f"{'win' if value > 0 else 'loss'} in {plies}"
    return text.replace("-", "−")
