"""A recorded search: the textbook minimax, alpha-beta and expectiminimax, every step an event.

`trace(state, algorithm, depth, heuristic)` runs the algorithm's textbook function
(`ai.textbook.minimax`, `ai.textbook.alphabeta`, `ai.textbook.expectiminimax`) on the game
view of `ai.textbook.game_view`, watched by a `Recorder` that writes each step as a
`TraceEvent`; `build_tree(events)` (`ai.textbook.trace_tree`, with the events, nodes and
`Trace`) turns any prefix of that list into the tree searched so far, which is how the
explorer steps.  The counters come from `ai.textbook.counts`.

Values are those of `ai.engine.search` (same leaf values, same scale, depth counts player
decisions, chance layers are free) but written from MAX's side: MAX is the player to move
at the root, so a MIN node's value is MAX's value too and the root value equals
`ai.search(...).value`.  Two optional game attributes serve the textbook trees:
`utility_is_value` (leaf numbers kept unscaled) and `root_label` (the root's name).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from plyground.ai.engine.bookkeeping import Context, SearchError
from plyground.ai.engine.search import ALGORITHM_TITLES, ALGORITHMS, MAX_DEPTH, algorithms_for
from plyground.ai.evaluation.provenance import Evaluation, Kind, Source
from plyground.ai.evaluation.values import PROVEN_UNITS, SCALE
from plyground.ai.textbook.alphabeta import alphabeta
from plyground.ai.textbook.counts import tally
from plyground.ai.textbook.expectiminimax import expectiminimax
from plyground.ai.textbook.game_view import (
    ORDERINGS,
    Memo,
    OrderTooCostly,
    Position,
    TextbookGame,
    bound_of,
)
from plyground.ai.textbook.minimax import minimax
from plyground.ai.textbook.observer import Observer, Observers, Quiet
from plyground.ai.textbook.trace_tree import Trace, TraceEvent, TraceNode, build_tree, format_value
from plyground.games.base import Move, State, capabilities

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


SEARCHES: dict[str, Callable[..., float]] = {
    "minimax": minimax,
    "alphabeta": alphabeta,
    "expectiminimax": expectiminimax,
}
"""The textbook function behind each algorithm's trace."""


class _Open(NamedTuple):
    """A node being searched, as the recorder follows it."""

    node: int
    role: str
    alpha: float
    beta: float
    window: tuple[float, float]
    """The window the node was entered with."""
    terms: list[tuple[str, float, float]]


class Recorder(Quiet):
    """The observer that writes a trace: one `TraceEvent` per step of the textbook search.

    Values are recorded on the shown scale from MAX's side (`TextbookGame.show`); it
    stops the search (`TraceTooLarge`) once more than `budget` nodes were entered."""

    def __init__(self, view: TextbookGame, algorithm: str, depth: int, budget: int) -> None:
        self.view = view
        self.algorithm = algorithm
        self.depth = depth
        self.budget = budget
        self.pruning = algorithm == "alphabeta"
        self.events: list[TraceEvent] = []
        self.count = 0
        self.open: list[_Open] = []
        self.last = -1
        format_move = getattr(view.root.game, "format_move", str)
        self.label_of: Callable[[Move], str] = lambda move: str(format_move(move))
        self.root_label = capabilities(view.root.game).root_label

    def shown(self, value: float) -> float | None:
        """A value on the shown scale (None for an infinite bound)."""
        return self.view.show(value)

    def finite(self, value: float) -> float:
        """A finite value on the shown scale."""
        shown = self.view.show(value)
        assert shown is not None
        return shown

    def emit(self, **fields_: Any) -> None:
        """Record one event."""
        self.events.append(TraceEvent(**fields_))

    def enter(self, state: object, depth: int, alpha: float, beta: float) -> None:
        """Record the visit: the node's role, its place and (alpha-beta) its window."""
        assert isinstance(state, Position)
        node = self.count
        self.count += 1
        if self.count > self.budget:
            raise TraceTooLarge(
                f"the trace passed its budget of {self.budget:,} nodes at depth {self.depth}: "
                + (f"try depth {max(1, self.depth - 1)} or less" if self.depth > 1 else "")
                + ("" if self.pruning else ", or alpha-beta")
            )
        role = self.view.role(state, depth)
        parent = self.open[-1].node if self.open else -1
        self.emit(
            kind="enter",
            node=node,
            parent=parent,
            move=state.move,
            label=self.root_label if parent < 0 else self.label_of(state.move),
            role=role,
            ply=state.ply,
            alpha=self.shown(alpha) if self.pruning else None,
            beta=self.shown(beta) if self.pruning else None,
            probability=state.probability,
        )
        self.open.append(_Open(node, role, alpha, beta, (alpha, beta), []))

    def leaf(self, state: object, value: float) -> None:
        """Record a leaf's value and what gave it, or the table's answer."""
        node = self.open[-1].node
        source = self.view.last_source
        if source == "table":
            assert self.view.memo is not None
            bound = self.view.memo.answer_bound
            self.emit(kind="table", node=node, value=self.shown(value), source=bound)
        else:
            self.emit(kind="leaf", node=node, value=self.shown(value), source=source)

    def backed_up(self, state: object, move: Move, child: float, best: float) -> None:
        """Record a child's value reaching its parent (and a chance node's term)."""
        assert isinstance(state, Position)
        here = self.open[-1]
        probability = None
        if here.role == "chance":
            probability = dict(state.state.chance_outcomes())[move]
            here.terms.append((self.label_of(move), probability, self.finite(child)))
        self.emit(
            kind="backup",
            node=here.node,
            child=self.last,
            move=move,
            value=self.shown(child),
            best=self.shown(best),
            probability=probability,
        )

    def narrowed(self, state: object, bound: str, old: float, new: float) -> None:
        """Record alpha rising or beta falling."""
        here = self.open[-1]
        self.emit(kind=bound, node=here.node, old=self.shown(old), value=self.shown(new))
        if bound == "alpha":
            self.open[-1] = here._replace(alpha=new)
        else:
            self.open[-1] = here._replace(beta=new)

    def cut_off(
        self, state: object, move: Move, value: float, bound: str, skipped: Sequence[Move]
    ) -> None:
        """Record a cut-off with the moves it skips (none skipped: nothing to record)."""
        if not skipped:
            return
        here = self.open[-1]
        self.emit(
            kind="cutoff",
            node=here.node,
            value=self.shown(value),
            old=self.shown(here.beta if bound == "beta" else here.alpha),
            source=bound,
            skipped=tuple(self.label_of(m) for m in skipped),
        )

    def leave(self, state: object, value: float) -> None:
        """Record the node's final value: a chance node's weighted sum first; a decision
        node's bound in the window it was entered with."""
        here = self.open.pop()
        self.last = here.node
        shown = self.shown(value)
        if here.role == "leaf":
            self.emit(kind="exit", node=here.node, value=shown)
            return
        if self.events[-1].kind == "table" and self.events[-1].node == here.node:
            self.emit(kind="exit", node=here.node, value=shown, source="table")
            return
        if here.role == "chance":
            self.emit(kind="chance", node=here.node, value=shown, terms=tuple(here.terms))
            bound = "exact"
        else:
            bound = bound_of(value, *here.window) if self.pruning else "exact"
        self.emit(kind="exit", node=here.node, value=shown, source=bound)


def _check(state: State[Any], algorithm: str, depth: int, ordering: str, node_budget: int) -> None:
    """The same refusals as `ai.engine.search`, plus the trace's own settings."""
    if algorithm not in ALGORITHMS:
        raise SearchError(
            f"unknown algorithm {algorithm!r}; choose one of: {', '.join(ALGORITHMS)}"
        )
    stochastic = state.game.stochastic
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


def leaf_values(state: State[Any], heuristic: str | None = None) -> Callable[[Any, int], float]:
    """What a trace of `state` records at a leaf `ply` plies below it, for MAX (the player to
    move at `state`) on the shown scale: a finished game's value (a proven one worth less the
    farther it is) or the heuristic's estimate.  The exercise grader gives a student's
    search exactly these values."""
    view = TextbookGame(state, heuristic)

    def value(leaf: Any, ply: int) -> float:
        units, _ = view.leaf_value(Position(leaf, 0, ply), view.estimate)
        shown = view.show(units)
        assert shown is not None
        return shown

    return value


def trace(
    state: State[Any],
    algorithm: str = "alphabeta",
    depth: int = 3,
    heuristic: str | None = None,
    ordering: str = "game",
    table: bool = False,
    node_budget: int = NODE_BUDGET,
    book: bool = False,
) -> Trace:
    """Run the textbook function of `algorithm` (`ai.textbook.minimax`, `.alphabeta`,
    `.expectiminimax`) on `state`, watched by a `Recorder`, and return every step.

    The options live outside the algorithm: the move order and the opening book in the
    game view (`ai.textbook.game_view`; `book=True` lets the game's book answer positions as
    the engine's search does: a leaf "from the book"), the table in a `Memo` watching the
    search, the node budget in the recorder.

    :raises SearchError: settings `ai.engine.search` would refuse, an unknown ordering.
    :raises TraceTooLarge: more than `node_budget` nodes (the message suggests a smaller depth).
    """
    _check(state, algorithm, depth, ordering, node_budget)
    view = TextbookGame(state, heuristic, ordering, book, order_budget=node_budget * ORACLE_FACTOR)
    recorder = Recorder(view, algorithm, depth, node_budget)
    watchers: list[Observer[Position]] = [recorder]
    if table:
        view.memo = Memo(view.key)
        watchers.insert(0, view.memo)
    try:
        watching = watchers[0] if len(watchers) == 1 else Observers(*watchers)
        SEARCHES[algorithm](view, view.start(depth), depth, observer=watching)
    except OrderTooCostly as too_costly:
        raise TraceTooLarge(
            f"finding the best order needs more than {view.order_budget:,} "
            f"nodes at depth {depth}: try a smaller depth or another ordering"
        ) from too_costly
    found = recorded(
        state, algorithm, depth, view.ctx.heuristic_name, recorder.events, ordering, table
    )
    found.book = book
    found.evaluation = _evaluation(found, view.ctx, recorder.events)
    return found


def recorded(
    state: State[Any],
    algorithm: str,
    depth: int,
    heuristic: str,
    events: list[TraceEvent],
    ordering: str = "game",
    table: bool = False,
) -> Trace:
    """A `Trace` of `events` recorded from `state` (by `trace`, or built from a student's
    search by the exercise grader), with its tree and step counters."""
    raw = capabilities(state.game).utility_is_value
    stochastic = bool(state.STOCHASTIC)
    counters: list[tuple[int, int, int, int]] = list(tally(events))
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
