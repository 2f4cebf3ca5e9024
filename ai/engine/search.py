"""`search()`: the one entry point to minimax, alpha-beta, expectiminimax and Monte Carlo
tree search.

Every algorithm returns the same `SearchResult`.  A depth-limited search is asked with a
`SearchConfig`: depth counts player decisions (chance layers are free); `depth=None` means no
limit: alpha-beta then solves the position exactly, and with a time limit deepens until the
result is exact or time runs out.  Both are asked with one `SearchConfig` whose `settings`
say which search: `DepthLimited` (algorithm, depth, heuristic, node budget) or `MonteCarlo`
(iterations, exploration, playouts; `ai.engine.mcts`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from plyground.ai.engine.algorithms import (
    ALGORITHM_TITLES,
    ALGORITHMS,
    PLAYING_ALGORITHMS,
    algorithms_for,
    playing_algorithms,
    searchable_algorithms,
)
from plyground.ai.engine.bookkeeping import (
    UNLIMITED_DEPTH,
    Context,
    MoveMarks,
    SearchCancelled,
    SearchError,
    _OutOfNodes,
    _OutOfTime,
    poll_mask_for,
)
from plyground.ai.engine.chance_search import ChanceSearch
from plyground.ai.engine.cost import tree_size
from plyground.ai.engine.exact_solving import make_alphabeta
from plyground.ai.engine.full_width_search import minimax_root
from plyground.ai.engine.heuristic_files import file_heuristic, is_heuristic_file
from plyground.ai.engine.mcts.runner import KeptTree, monte_carlo
from plyground.ai.engine.move_provenance import (
    judge_moves,
    mean_evaluation,
    pick_among_vague,
    root_evaluation,
)
from plyground.ai.engine.proof import (
    kept_known_value,
    known_value,
    promising_first,
    prove_keeper,
    solve_is_cheap,
)
from plyground.ai.engine.pruning_search import PruningSearch
from plyground.ai.engine.result import Iteration, SearchDetails, SearchProgress, SearchResult
from plyground.ai.engine.table import TranspositionTable
from plyground.ai.evaluation.provenance import Evaluation
from plyground.ai.evaluation.values import (
    SCALE,
    STEP_UNITS,
    WIN_UNITS,
    plies_to_end,
    to_value,
    value_score,
)
from plyground.games.base import CHANCE, Heuristic, Move, State, state_capabilities
from plyground.games.search_settings import (
    MAX_DEPTH,
    MCTS,
    DepthLimited,
    MonteCarlo,
    SearchSettings,
)

_T = TypeVar("_T")
START_UP = 0.005
"""Seconds of loading a game's exact engine (its module, compiled code, first table touch)
past which a search reports them apart (`details.engine_start_up`) and leaves them out of
its time: the start-up is not the search's speed."""
SOLVE_SHARE = 0.5
"""With no depth limit and a time budget, the share of the budget spent trying to solve."""

__all__ = [
    "ALGORITHMS",
    "ALGORITHM_TITLES",
    "MAX_DEPTH",
    "MCTS",
    "PLAYING_ALGORITHMS",
    "DepthLimited",
    "KeptTree",
    "MonteCarlo",
    "SearchCancelled",
    "SearchConfig",
    "SearchError",
    "SearchSettings",
    "algorithms_for",
    "heuristic_for",
    "playing_algorithms",
    "search",
    "searchable_algorithms",
]


def heuristic_for(state: State[Any], name: str | None) -> Heuristic:
    """The named heuristic of the state's game (None: the game's default), or a file's
    ``evaluate`` when the name is a .py file (`ai.student_code.heuristics`)."""
    game = state.game
    chosen = game.default_heuristic if name is None else name
    if is_heuristic_file(chosen):
        try:
            return file_heuristic(chosen)
        except ValueError as error:
            raise SearchError(str(error)) from None
    try:
        return game.heuristics[chosen]
    except KeyError:
        known = ", ".join(sorted(game.heuristics))
        raise SearchError(
            f"unknown heuristic {chosen!r} for {game.name}; choose one of: {known}"
        ) from None


@dataclass(frozen=True, slots=True)
class SearchConfig:
    """What a search is asked to do, taken whole by `search()` and by everything that asks
    for one: which search (`settings`, a `DepthLimited` or a `MonteCarlo`) and what this one
    call adds (its clock, its seed, how much it reports, whether books answer).  A player
    makes one (`SearchPlayer.search_config()`)."""

    settings: SearchSettings = field(default_factory=DepthLimited)
    time_limit: float | None = None
    """Seconds for the search; with a depth or iterations too, whichever ends first."""
    seed: int = 0
    """The seeded tie-break among equal moves (MCTS: its random stream; one seed, one tree)."""
    all_values: bool = True
    """Every root move's exact value (the analysis), not only the best move's."""
    book: bool = True
    """Whether the game's opening book and stored solutions answer positions (the engine and
    players use them; textbook runs, traces and comparisons do not)."""

    @property
    def algorithm(self) -> str:
        """The settings' algorithm's name ("alphabeta", "mcts", ...)."""
        return self.settings.algorithm

    @property
    def heuristic(self) -> str | None:
        """The settings' heuristic (None: the game's default)."""
        return self.settings.heuristic


def search(
    state: State[Any],
    config: SearchConfig | None = None,
    *,
    progress: Callable[[SearchProgress], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
    table: TranspositionTable | None = None,
    finish_now: Callable[[], bool] | None = None,
    tree: KeptTree | None = None,
) -> SearchResult:
    """Search `state` as `config` says (None: alpha-beta at depth 8) and return the chosen
    move, the value of every root move and statistics; which search runs is the type of
    `config.settings` (`DepthLimited` or `MonteCarlo`).

    Every value says what it rests on (`SearchResult.move_values`, ai.evaluation.provenance).

    `finish_now()` returning True ends the search like a spent time budget ("move now"):
    the result is the deepest finished iteration's (at least depth 1; MCTS: the iterations
    run so far, at least one), `complete` False.  `table` keeps a depth-limited search's
    transposition table between searches, `tree` Monte Carlo tree search's tree.

    :raises SearchError: unknown algorithm or heuristic, a game the algorithm cannot
        search (minimax and alpha-beta on a game with chance), a finished game, bad depth.
    :raises SearchCancelled: `should_stop()` returned True.
    """
    config = config or SearchConfig()
    settings = config.settings
    if isinstance(settings, MonteCarlo):
        if state.is_terminal():
            raise SearchError("the game is over: there is no move to search")
        return monte_carlo(
            state,
            settings,
            heuristic_for(state, settings.heuristic),
            time_limit=config.time_limit,
            seed=config.seed,
            progress=progress,
            should_stop=should_stop,
            finish_now=finish_now,
            kept=tree,
        )
    algorithm, depth, time_limit = settings.algorithm, settings.depth, config.time_limit
    if algorithm == MCTS:
        raise SearchError("MCTS has no depth: ask it with MonteCarlo settings")
    if algorithm not in ALGORITHMS:
        raise SearchError(
            f"unknown algorithm {algorithm!r}; choose one of: {', '.join(PLAYING_ALGORITHMS)}"
        )
    if algorithm not in searchable_algorithms(state):
        raise SearchError(
            f"{ALGORITHM_TITLES[algorithm]} cannot search {state.game.title}: it has chance "
            "nodes (dice); use expectiminimax"
        )
    if depth is not None and not 1 <= depth <= MAX_DEPTH:
        raise SearchError(f"depth must be 1 to {MAX_DEPTH} (or no limit), not {depth}")
    if depth is None and algorithm != "alphabeta" and time_limit is None:
        raise SearchError(f"{ALGORITHM_TITLES[algorithm]} needs a depth or a time limit")
    if time_limit is not None and time_limit <= 0:
        raise SearchError(f"time limit must be positive, not {time_limit}")
    if settings.node_limit is not None and settings.node_limit <= 0:
        raise SearchError(f"node limit must be positive, not {settings.node_limit}")
    if state.is_terminal():
        raise SearchError("the game is over: there is no move to search")
    chosen = heuristic_for(state, config.heuristic)
    ctx = Context(chosen, time_limit, config.seed, should_stop, progress)
    ctx.finish_now = finish_now
    ctx.book = config.book
    ctx.node_limit = settings.node_limit
    ctx.poll_mask = poll_mask_for(settings.node_limit)
    if state.STOCHASTIC:
        ctx.for_chance_game()
    if state.to_move == CHANCE:
        return _chance_root(state, algorithm, depth, ctx, table)
    if algorithm == "alphabeta":
        return _alphabeta(state, depth, ctx, config.all_values, table)
    if algorithm == "expectiminimax":
        return _expectiminimax(state, depth, ctx, table)
    return _minimax(state, depth, ctx)


def _finish(
    state: State[Any],
    ctx: Context,
    algorithm: str,
    values: dict[Any, float],
    line_of: Callable[[Move], tuple[Move, ...]],
    depth: int,
    complete: bool,
    evaluations: dict[Any, Evaluation],
    details: SearchDetails,
    chosen: Move | None = None,
) -> SearchResult:
    """Pick the move (seeded tie-break) and package the result on the [-1, 1] scale.

    `line_of(move)` is the principal variation starting with `move`; `evaluations` are the
    root moves' (ai.engine.move_provenance), the root's is the chosen move's.
    """
    move = ctx.pick(list(values), values) if chosen is None else chosen
    pv = line_of(move)
    if not pv or pv[0] != move:
        pv = (move,)
    if state_capabilities(state).utility_is_value:  # a game of scores: say them as the game
        evaluations = {m: in_scores(ev) for m, ev in evaluations.items()}
    root = root_evaluation(evaluations[move], (ev for m, ev in evaluations.items() if m != move))
    ctx.depth = depth
    ctx.best_move = move
    ctx.best_value = values[move]
    ctx.report()
    return SearchResult(
        move=move,
        value=to_value(values[move]),
        move_values=evaluations,
        pv=pv,
        depth=depth,
        nodes=ctx.nodes,
        leaves=ctx.leaves,
        leaf_evaluations=ctx.leaf_evaluations,
        cutoffs=ctx.cutoffs,
        table_hits=ctx.table_hits,
        elapsed=ctx.elapsed(),
        algorithm=algorithm,
        heuristic=ctx.heuristic_name,
        player=state.player,
        evaluation=root,
        complete=complete,
        details=details,
    )


@dataclass
class _Deepening:
    """How an iterative-deepening search went."""

    done: int = 0
    complete: bool = True
    exact: bool = False
    iterations: list[Iteration] = field(default_factory=list)
    proof_nodes: int | None = None
    """Nodes spent proving a move keeps the root's known value (`ai.engine.proof`), if any."""
    marks: dict[Any, MoveMarks] = field(default_factory=dict)
    """What each root move's value rested on in the deepest finished iteration."""


def _deepen(
    ctx: Context,
    plan: list[int],
    run: Callable[[int], _T],
    found: _T,
    progress: _Deepening,
) -> _T:
    """Run `run(depth)` for each depth of `plan`; keep the deepest finished iteration's result.

    The first iteration is owed (a move needs one), so it runs without the time or node
    budget or `finish_now`, which the next one then finds spent where it was; a later one
    cut short by them is dropped.  An iteration that rested on no heuristic value (no
    leaf evaluated, no table answer resting on one) reached every end: it is exact and
    deeper ones would change nothing.  Counting leaves alone is not enough: a table kept
    from an earlier search answers whole subtrees without evaluating a leaf.
    """
    for iteration in plan:
        ctx.depth = iteration
        estimates_before = ctx.estimates_used()
        if not progress.done:
            limits = ctx.deadline, ctx.finish_now, ctx.node_limit
            ctx.deadline, ctx.finish_now, ctx.node_limit = None, None, None
            try:
                result = run(iteration)
            finally:
                ctx.deadline, ctx.finish_now, ctx.node_limit = limits
        else:
            try:
                result = run(iteration)
            except _OutOfTime:
                progress.complete = False
                break
        found, progress.done = result, iteration
        progress.marks = dict(ctx.marks)
        progress.iterations.append(Iteration(iteration, ctx.nodes, ctx.elapsed()))
        ctx.report()
        if ctx.estimates_used() == estimates_before:
            progress.exact = True
            break
        if ctx.finish_now is not None and iteration != plan[-1] and ctx.finish_now():
            progress.complete = False  # "move now" between two iterations
            break
    return found


def _deepening(depth: int | None) -> list[int]:
    """Iterative deepening's depths: 1 up to `depth` (None: until exact or out of time)."""
    return list(range(1, (depth if depth is not None else UNLIMITED_DEPTH - 1) + 1))


def _plan(depth: int | None, ctx: Context) -> list[int]:
    """One iteration at the given depth, or deepening from 1 when the search may be cut short."""
    if (
        depth is not None
        and ctx.deadline is None
        and ctx.finish_now is None
        and ctx.node_limit is None
    ):
        return [depth]
    return _deepening(depth)


def _table_for(depth: int | None) -> TranspositionTable:
    """A table sized to the search: small and quick to make (and free) for shallow ones, whose
    whole call takes a millisecond or less."""
    if depth is None or depth > 6:
        return TranspositionTable(bits=20)
    return TranspositionTable(bits=12 if depth <= 3 else (14 if depth <= 5 else 16))


def _line_end(state: State[Any], line: tuple[Move, ...]) -> tuple[bool, tuple[int, int] | None]:
    """How `line` ends: (whether it stops before the game's end, and, where it stops at a
    position the game's opening book answered, that position's value as (low, high) units,
    equal when exact, for the player to move at the root, counted from the line's end).
    The book holds values, not moves, so a line shown stops there: say so where it is shown."""
    node = state
    for move in line:
        node = node.play(move)
    if node.is_terminal():
        return False, None
    offered = state_capabilities(node)
    known = offered.solved_value(node) if offered.solved_value is not None else None
    if known is None and offered.book_value is not None:
        known = offered.book_value(node)
    if known is None:
        return True, None
    horizon = offered.max_plies_left
    plies_left = horizon(node) if horizon is not None else MAX_DEPTH
    low, high = known.bounds(WIN_UNITS, STEP_UNITS, plies_left)
    same = node.player == state.player
    return True, (int(low), int(high)) if same else (-int(high), -int(low))


_Found = tuple[dict[Any, int], set[Any], dict[Any, tuple[Move, ...]]]
"""Root values, the moves whose values are only bounds, and each move's line."""


def _solve_on_budget(
    state: State[Any], ctx: Context, searcher: PruningSearch, all_values: bool, progress: _Deepening
) -> tuple[_Found, Move | None, list[int], list[Move]]:
    """Unlimited depth on a budget: solve exactly if the game says that is cheap (whatever
    the machine's speed), prove a move keeps a value the game knows (`ai.engine.proof`, counted in
    nodes), else try with part of the time; if the position is still too big, the caller
    deepens with the heuristic for the rest.

    Returns what was found, a tentative move (or None), the depths still to search and
    the root move order."""
    order = list(state.legal_moves())
    found: _Found = ({}, set(), {})
    tentative: Move | None = None
    plan = _deepening(None)
    known = known_value(state)
    budget_end = ctx.deadline
    own_limit = ctx.node_limit  # the search's node budget: the solve may take a share
    ctx.depth = UNLIMITED_DEPTH
    keeper: Move | None = None
    engine_nodes = getattr(getattr(searcher, "engine", None), "move_nodes", None)
    # On a game's exact engine a move on a budget is bounded by nodes alone, from an empty
    # engine table (the same move on every machine, whatever ran before): the solve, or the
    # proof and the root search after it, share `engine_nodes`.
    move_limit = ctx.nodes + engine_nodes if engine_nodes and budget_end is not None else None
    if move_limit is not None:
        searcher.engine.clear()  # type: ignore[attr-defined]
    if known is None and budget_end is not None and not solve_is_cheap(state):
        if move_limit is not None:
            ctx.deadline, ctx.node_limit = None, move_limit
        else:
            ctx.deadline = ctx.start + (budget_end - ctx.start) * SOLVE_SHARE
    elif known is None or known >= 0 or move_limit is not None:
        ctx.deadline = None  # a cheap solve, a proof: finished whatever the machine's speed
    if own_limit is not None and move_limit is None and not solve_is_cheap(state):
        ctx.node_limit = ctx.nodes + max(1, int(own_limit * SOLVE_SHARE))
    # (without an engine, a lost root's proof, the slowest loss, keeps to the budget: any
    # move keeps the loss)
    try:
        if known is not None and not solve_is_cheap(state):
            proof_limit = None if move_limit is None else move_limit - ctx.nodes
            proof = prove_keeper(searcher, state, known, promising_first(state, order), proof_limit)
            keeper, progress.proof_nodes = proof.move, proof.nodes
            order = list(dict.fromkeys([*proof.left, *proof.worse]))
            if keeper is not None:
                order = [keeper, *(m for m in order if m != keeper)]
            ctx.best_move, ctx.best_value, ctx.deadline = keeper, known, budget_end
            if proof.cut_short:
                raise _OutOfTime
            if move_limit is not None:  # no keeper: the proof spent the move's nodes
                if keeper is None:
                    raise _OutOfNodes
                ctx.deadline, ctx.node_limit = None, move_limit
        values, bounds = searcher.root(state, UNLIMITED_DEPTH, order, all_values)
    except _OutOfTime:
        ctx.deadline = budget_end
        # The root's value is known from the game, or solved before the root search was cut.
        solved = known if known is not None else searcher.solved_root
        kept = kept_known_value(order, searcher.partial, solved, keeper)
        if kept is not None:
            # A move proven to keep the known value is played (exact); else the likeliest
            # move not proven worse, which beats a heuristic search (docs/SOLVER.md).
            values, bounds, tentative = kept
            found = (values, bounds, dict(searcher.root_lines))
            progress.marks = dict(ctx.marks)
            if keeper is not None:  # its value is the book's, the proof only found the move
                progress.marks[keeper] = MoveMarks(0, 1, direct=True)
            progress.done, progress.exact, progress.complete, plan = (
                UNLIMITED_DEPTH,
                tentative is None and not (all_values and bounds),
                False,
                [],
            )
    else:
        found = (values, bounds, dict(searcher.root_lines))
        progress.done, progress.exact, plan = UNLIMITED_DEPTH, True, []
        progress.marks = dict(ctx.marks)
    ctx.deadline, ctx.node_limit = budget_end, own_limit
    progress.iterations.append(Iteration("solve", ctx.nodes, ctx.elapsed()))
    return found, tentative, plan, order


def _searcher(
    state: State[Any], depth: int | None, ctx: Context, table: TranspositionTable | None
) -> tuple[PruningSearch, float]:
    """The alpha-beta searcher for the search, on the game's exact engine where it solves,
    and the seconds loading that engine took, set aside from the search's time."""
    loading = time.perf_counter()
    # Without a table given, a Python search gets one sized to its depth, a search on a
    # game's exact engine a small one (the engine keeps its own).
    searcher = make_alphabeta(
        state, ctx, table, solving=depth is None, new_table=lambda: _table_for(depth)
    )
    engine = getattr(searcher, "engine", None)
    if engine is None or not (engine.ready() or time.perf_counter() - loading > START_UP):
        return searcher, 0.0
    start_up = time.perf_counter() - loading
    ctx.set_aside(start_up)  # loading the engine is not the search's time
    return searcher, start_up


def _alphabeta(
    state: State[Any],
    depth: int | None,
    ctx: Context,
    all_values: bool,
    table: TranspositionTable | None,
) -> SearchResult:
    """Iterative deepening alpha-beta, or a direct exact solve for depth=None without a budget."""
    searcher, start_up = _searcher(state, depth, ctx, table)
    searcher.table.new_search()
    order = list(state.legal_moves())
    progress = _Deepening()
    found: _Found = ({}, set(), {})
    may_stop = ctx.deadline is not None or ctx.finish_now is not None or ctx.node_limit is not None
    plan = [UNLIMITED_DEPTH] if depth is None and not may_stop else _plan(depth, ctx)
    # The seeded tie-break as a priority per root move, drawn once: the best value wins, then
    # the highest priority (uniform among ties), so a move that cannot win needs no exact value.
    # Not where a book answers: its results without distance tie, and the heuristic breaks
    # those ties among every tied move (`pick_among_vague`), so each needs its exact value.
    booked = ctx.book and state_capabilities(state).book_value is not None
    priority = None if all_values or booked else {move: ctx.rng.random() for move in order}
    if priority is not None:
        # Highest priority first: a later move then wins only by a better value, which a null
        # window just above the best tests (ties need a window either side only while a move
        # of higher priority is still to come): a third fewer nodes on the frameworks' games.
        order.sort(key=priority.__getitem__, reverse=True)
    tentative: Move | None = None
    if depth is None and may_stop:
        found, tentative, plan, order = _solve_on_budget(state, ctx, searcher, all_values, progress)

    def iteration(
        depth: int,
    ) -> tuple[dict[Any, int], set[Any], dict[Any, tuple[Move, ...]]]:
        values, bounds = searcher.root(state, depth, order, all_values, priority)
        order.sort(key=lambda m: values[m], reverse=True)  # best first next time
        # The lines of a finished iteration: a later one cut short must not replace them.
        return values, bounds, dict(searcher.root_lines)

    values, bounds, lines = _deepen(ctx, plan, iteration, found, progress)
    done = progress.done
    float_values = {m: float(v) for m, v in values.items()}
    best = tentative
    if best is None:
        best = _choose(state, ctx, float_values, bounds, priority, done < UNLIMITED_DEPTH)
    pv = searcher.principal_variation(state, best, done if done < UNLIMITED_DEPTH else 100, lines)
    reported_depth = (
        done
        if done < UNLIMITED_DEPTH
        else max(searcher.seldepth, len(pv), plies_to_end(float_values[best] / SCALE) or 0)
    )
    stops_early, book_end = _line_end(state, pv)
    details = SearchDetails(
        iterations=progress.iterations,
        bounds=sorted(bounds, key=str),
        table_entries=len(searcher.table),
        pv_stops_early=stops_early,
        pv_ends_in_book=book_end is not None,
        pv_book_value=book_end,
        proof_nodes=progress.proof_nodes,
        engine_start_up=start_up or None,
    )
    judged_depth = done if done < UNLIMITED_DEPTH else None
    if getattr(searcher, "engine_nodes", 0):  # values solved on the game's exact engine
        details.exact_engine = searcher.engine.name  # type: ignore[attr-defined]
    result = _finish(
        state,
        ctx,
        "alphabeta",
        float_values,
        lambda move: pv,
        reported_depth,
        progress.complete,
        judge_moves(state, ctx, float_values, progress.marks, judged_depth, bounds),
        details,
        chosen=best,
    )
    if all_values:  # an analysis: what minimax would face at the same depth (after the clock)
        details.minimax_tree = tree_size(state, done if done < UNLIMITED_DEPTH else None, 64)
    return result


def in_scores(evaluation: Evaluation) -> Evaluation:
    """`evaluation` with its value in the game's own numbers as well (`value_score`, the
    inverse of `terminal_units`), so the analysis says "score 3" where the textbook's trace
    of the same tree says 3."""
    score = value_score(evaluation.value)
    return evaluation if score is None else replace(evaluation, score=score)


def _choose(
    state: State[Any],
    ctx: Context,
    values: dict[Any, float],
    bounds: set[Any],
    priority: dict[Any, float] | None,
    fixed_depth: bool,
) -> Move:
    """The move to play: only one whose value is exact; ties broken by the book's vague
    results' heuristic, else by the seeded priority (or generator)."""
    choices = {m: v for m, v in values.items() if m not in bounds}
    if choices and ctx.vague_hits and fixed_depth:
        return pick_among_vague(state, ctx, choices)  # the book's distance-less results tie
    if choices and priority is not None and fixed_depth:
        return max(choices, key=lambda m: (choices[m], priority[m]))
    return ctx.pick(list(choices), choices) if choices else ctx.pick(list(values), values)


def _minimax(state: State[Any], depth: int | None, ctx: Context) -> SearchResult:
    """Plain minimax at one depth, or iterative deepening when given only a time budget."""
    progress = _Deepening()
    found: tuple[dict[Any, int], dict[Any, tuple[Move, ...]]] = ({}, {})
    values, lines = _deepen(
        ctx, _plan(depth, ctx), lambda d: minimax_root(state, d, ctx), found, progress
    )
    float_values = {m: float(v) for m, v in values.items()}
    return _finish(
        state,
        ctx,
        "minimax",
        float_values,
        lambda move: lines.get(move, ()),
        progress.done,
        progress.complete,
        judge_moves(state, ctx, float_values, progress.marks, progress.done),
        SearchDetails(iterations=progress.iterations),
    )


def _expectiminimax(
    state: State[Any], depth: int | None, ctx: Context, table: TranspositionTable | None
) -> SearchResult:
    """Exact expectiminimax at one depth, or iterative deepening under a time budget."""
    searcher = ChanceSearch(ctx, table if table is not None else _table_for(depth))
    searcher.table.new_search()
    order = list(state.legal_moves())
    progress = _Deepening()
    found: dict[Any, float] = {}
    values = _deepen(
        ctx,
        _plan(depth, ctx),
        lambda d: searcher.root(state, d, order),
        found,
        progress,
    )
    return _finish(
        state,
        ctx,
        "expectiminimax",
        values,
        lambda move: searcher.principal_variation(state, move, progress.done),
        progress.done,
        progress.complete,
        judge_moves(state, ctx, values, progress.marks, progress.done),
        SearchDetails(iterations=progress.iterations),
    )


def _chance_root(
    state: State[Any],
    algorithm: str,
    depth: int | None,
    ctx: Context,
    table: TranspositionTable | None,
) -> SearchResult:
    """At a chance node there is no move to choose: value each outcome and their mean."""
    searcher = ChanceSearch(ctx, table)
    plan_depth = depth if depth is not None else 8
    ctx.depth = plan_depth
    ctx.deadline = None
    ctx.finish_now = None
    ctx.node_limit = None
    player = state.player
    values: dict[Any, float] = {}
    mean = 0.0
    for outcome, probability in state.chance_outcomes():
        child = state.play(outcome)
        with ctx.marking(outcome):
            child_value = searcher.search(child, plan_depth)
        value = child_value if child.player == player else -child_value
        values[outcome] = value
        mean += probability * value
    evaluations = judge_moves(state, ctx, values, ctx.marks, plan_depth)
    result = _finish(
        state,
        ctx,
        algorithm,
        values,
        lambda move: (),
        plan_depth,
        True,
        evaluations,
        SearchDetails(chance_root=True),
    )
    root = mean_evaluation(mean / SCALE, evaluations.values(), plan_depth)
    return replace(result, move=None, value=mean / SCALE, pv=(), evaluation=root)
