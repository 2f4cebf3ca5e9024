"""Solving on a game's own exact engine (`State.exact_engine()`, e.g. a compiled solver).

`EngineSearch` is the alpha-beta searcher with one change: a search to the end of the game
(unlimited depth) asks the game's engine instead of walking the tree in Python.  Everything
built on that search (null-window solving, root values, the proof of a keeper in
`ai.engine.proof`) then runs on the engine unchanged.  Depth-limited searches stay Python.

The engine cannot look at the clock, so where a deadline, "move now" or a stop request
may end the search it runs in slices of `SLICE_NODES` nodes, the context is polled between
them and an unfinished probe starts again (its table keeps most of the work).  Node budgets
(`Context.node_limit`) are passed to the engine, so a proof stops at the same node on
every machine.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager, suppress
from typing import Any, cast

from plyground.ai.engine.bookkeeping import UNLIMITED_DEPTH, Context, _OutOfNodes, child_bound
from plyground.ai.engine.proof import known_value
from plyground.ai.engine.pruning_search import PruningSearch, SearchPlan
from plyground.ai.engine.table import TranspositionTable
from plyground.ai.evaluation.values import INF_UNITS, STEP_UNITS, WIN_UNITS
from plyground.games.base import (
    DISTANCE_WIN,
    PURE_PYTHON_VARIABLE,
    ExactEngine,
    Game,
    Move,
    Position,
    State,
    WarmUp,
    moves_again,
    state_capabilities,
)

SLICE_NODES = 1 << 20
"""Nodes between two looks at the clock and the stop request (a few tenths of a second)."""
UNLIMITED_NODES = 1 << 62
SOLVED_LINE = 100
"""The line length `ai.engine.search` asks for after a solve (shorter: a depth-limited search)."""
LINE_NODES = 400_000
"""The most nodes spent extending a solved line (the principal variation) on the engine."""
ENGINE_TABLE_BITS = 12
"""The Python table of a searcher on an exact engine, when the caller gives none: only its
root search and depth-limited searches use it (the engine keeps its own), so a small one,
quick to make, as a solve on the engine should cost its search and not a table."""

if WIN_UNITS != DISTANCE_WIN * STEP_UNITS:  # pragma: no cover - a change to one scale only
    raise ImportError(
        "ai.evaluation.values and games.base.DISTANCE_WIN disagree on the value scale"
    )


def engine_for(state: State[Any]) -> ExactEngine | None:
    """The game's exact engine for `state` (None: solve in Python)."""
    hook = state_capabilities(state).exact_engine
    return hook(state) if hook is not None else None


def engine_status(state: State[Any]) -> str | None:
    """One line on which solver the game runs (`exact_engine_status()`), None if it has one
    solver only."""
    hook = state_capabilities(state).exact_engine_status
    return str(hook(state)) if hook is not None else None


@contextmanager
def python_only() -> Iterator[None]:
    """Within the block, every game solves on the pure-Python alpha-beta."""
    before = os.environ.get(PURE_PYTHON_VARIABLE)
    os.environ[PURE_PYTHON_VARIABLE] = "1"
    try:
        yield
    finally:
        if before is None:
            del os.environ[PURE_PYTHON_VARIABLE]
        else:
            os.environ[PURE_PYTHON_VARIABLE] = before


WARM_UP_SWITCH = "PLYGROUND_NO_WARM_UP"
"""Set in the environment, `warm_up_in_background` does nothing (the tests: many
short-lived worker processes that never solve; a search still loads its engine when it
solves, `ExactEngine.ready`)."""


_warming: set[str] = set()
"""Names of the games whose engine a background warm-up was started for (once each)."""


def warm_up_in_background(game: Game[Any]) -> threading.Thread | None:
    """Load (or compile) the exact engine of `game` (its optional `warm_up()` hook) in a
    background thread, once per game and process; None when there is nothing to warm up.

    The AI worker calls this after answering a job, so the first reply of any game never
    waits for an engine, and only the game in play loads one (a game without the hook
    loads nothing).  The warm-up works on a table of its own: a search running meanwhile
    is not disturbed, it only waits for the compiler if it needs the engine at once."""
    name = game.name
    if not isinstance(game, WarmUp) or name in _warming or os.environ.get(WARM_UP_SWITCH):
        return None
    _warming.add(name)
    warm_up = game.warm_up

    def run() -> None:
        with suppress(Exception):  # a solve later says what is wrong
            warm_up()

    thread = threading.Thread(target=run, name=f"warm-up {name}", daemon=True)
    thread.start()
    return thread


def make_alphabeta(
    state: State[Any],
    ctx: Context,
    table: TranspositionTable | None = None,
    solving: bool = True,
    new_table: Callable[[], TranspositionTable] | None = None,
) -> PruningSearch:
    """The searcher for `state`: on the game's exact engine where it offers one and the search
    may run to the end (`solving`; a fixed depth never uses the engine, so it is not loaded).
    Without a `table`: a Python searcher's is `new_table()` (else the default size), one on
    an engine a small one of ENGINE_TABLE_BITS."""
    engine = engine_for(state) if solving else None
    if engine is None:
        return PruningSearch(ctx, table if table is not None or new_table is None else new_table())
    if table is None:
        table = TranspositionTable(bits=ENGINE_TABLE_BITS)
    return EngineSearch(ctx, table, engine)


class EngineSearch(PruningSearch):
    """Alpha-beta whose searches to the end run on the game's exact engine."""

    def __init__(self, ctx: Context, table: TranspositionTable | None, engine: ExactEngine) -> None:
        super().__init__(ctx, table)
        self.engine = engine
        self.engine_nodes = 0
        self.line_nodes = 0
        """Nodes spent finding the principal variation after a solve (not in ctx.nodes)."""
        self._solved: tuple[Any, int] | None = None
        """(key, value) of the last position `solve_value` solved on the engine."""

    def may_walk(self, state: State[Any]) -> bool:
        """Never: the engine reads positions (`descend` hands it the node)."""
        return False

    def descend(
        self,
        plan: SearchPlan,
        node: Position,
        depth: int,
        alpha: int,
        beta: int,
        root_key: Hashable | None = None,
    ) -> int:
        """Fail-hard value of `node` (a position: this search never walks) in units: the
        engine's when solving, else alpha-beta's."""
        if depth < UNLIMITED_DEPTH:
            return super().descend(plan, node, depth, alpha, beta, root_key)
        position = cast(State[Any], node)
        low, high = alpha // STEP_UNITS, -(-beta // STEP_UNITS)  # floor and ceiling
        return self._on_engine(lambda budget: self.engine.probe(position, low, high, budget))

    def solve_value(
        self, state: State[Any], move: Move | None, depth: int, low: int, high: int
    ) -> int:
        """The exact value: a position's own with no bounds given is the engine's `solve`
        (its own order of probes; the last one solved is remembered), anything else
        alpha-beta's probes on the engine."""
        if move is not None or depth < UNLIMITED_DEPTH or low > -WIN_UNITS or high < WIN_UNITS:
            return super().solve_value(state, move, depth, low, high)
        if self._solved is not None and self._solved[0] == state.key():
            return self._solved[1]
        value = self._on_engine(lambda budget: self.engine.solve(state, budget))
        self._solved = (state.key(), value)
        return value

    def root(
        self,
        state: State[Any],
        depth: int,
        order: list[Move],
        all_values: bool,
        priority: dict[Any, float] | None = None,
    ) -> tuple[dict[Any, int], set[Any]]:
        """Alpha-beta's root search, with the move the engine found keeping the solved value
        tried first: it is proven at once, so a budget spent on the tie tests of the other
        moves still leaves a proven move (`ai.engine.search` plays it)."""
        if depth >= UNLIMITED_DEPTH and not all_values:
            self.solve_value(state, None, depth, -INF_UNITS, INF_UNITS)
            keeper = self.engine.best_move
            if keeper in order:
                order = [keeper, *(m for m in order if m != keeper)]
        return super().root(state, depth, order, all_values, priority)

    def _on_engine(self, run: Callable[[int], tuple[int, int, bool]]) -> int:
        """`run(node budget)` on the engine, in slices where the clock or a stop request may
        end the search; the value in units."""
        ctx = self.ctx
        self.lines[0] = ()
        sliced = (
            ctx.deadline is not None or ctx.finish_now is not None or ctx.should_stop is not None
        )
        while True:
            if sliced:
                ctx.poll()  # raises when out of time or stopped, as alpha-beta's polls do
            budget = SLICE_NODES if sliced else UNLIMITED_NODES
            if ctx.node_limit is not None:
                budget = min(budget, ctx.node_limit - ctx.nodes)
                if budget <= 0:
                    raise _OutOfNodes
            value, nodes, finished = run(budget)
            ctx.nodes += nodes
            self.engine_nodes += nodes
            if finished:
                return value * STEP_UNITS

    def principal_variation(
        self,
        state: State[Any],
        first: Move,
        limit: int,
        lines: dict[Any, tuple[Move, ...]] | None = None,
    ) -> tuple[Move, ...]:
        """The chosen move and best replies: where the search was a solve, each next move is
        one the engine proves keeps the value (within `LINE_NODES` nodes, counted in
        `line_nodes`, not in the search's nodes)."""
        if self.engine_nodes == 0 or limit < SOLVED_LINE:
            return super().principal_variation(state, first, limit, lines)
        return self._engine_line(state, first, limit)

    def _engine_line(self, state: State[Any], first: Move, limit: int) -> tuple[Move, ...]:
        ctx = self.ctx
        saved = ctx.node_limit, ctx.deadline, ctx.finish_now, ctx.nodes
        ctx.node_limit, ctx.deadline, ctx.finish_now = ctx.nodes + LINE_NODES, None, None
        line = [first]
        node = state.play(first)
        try:
            value = self.solve_value(node, None, UNLIMITED_DEPTH, -INF_UNITS, INF_UNITS)
            # Stop where the alpha-beta line stops too: at a position the game knows exactly
            # (an opening book holds values, not moves; `ai.engine.search` says where a line ends).
            searched = state_capabilities(node).search_moves
            while len(line) < limit and not node.is_terminal() and known_value(node) is None:
                order = (searched(node) if searched else ()) or node.legal_moves()
                move = next((m for m in order if self._keeps(node, m, value)), None)
                if move is None:
                    break
                line.append(move)
                # the child's value after a move that keeps the node's
                node, value = node.play(move), child_bound(value, moves_again(node, move))
        except _OutOfNodes:
            pass
        finally:  # the line is shown, not searched: its nodes are counted apart
            self.line_nodes += ctx.nodes - saved[3]
            ctx.node_limit, ctx.deadline, ctx.finish_now, ctx.nodes = saved
        return tuple(line)

    def _keeps(self, node: Any, move: Move, value: int) -> bool:
        """Whether `move` keeps `node`'s exact `value` (one null-window probe): it leaves the
        opponent no more than the matching child value, or, where the same side moves again,
        leaves that side no less."""
        same = moves_again(node, move)
        keeps = child_bound(value, same)
        if same:
            return self.search(node.play(move), UNLIMITED_DEPTH, keeps - 1, keeps) >= keeps
        return self.search(node.play(move), UNLIMITED_DEPTH, keeps, keeps + 1) <= keeps
