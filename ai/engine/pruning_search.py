"""Alpha-beta search (fail-soft negamax) with a transposition table and move ordering.

It returns exactly minimax's value at the same depth, visiting far fewer nodes:

* move ordering: the game's own order, or its `search_moves()` hook (a game may play
  a winning move at once and skip moves that hand the opponent a win), then the
  table's best move, then two killer moves per ply and the history heuristic;
* a bounded transposition table keyed by `State.key()`; an entry answers a node only when
  it was searched to the same depth, so values never depend on the order of the search;
* iterative deepening with an optional time budget that keeps the deepest finished
  iteration;
* an unlimited-depth mode that solves a position with null-window probes over the
  few values a proven result can take.

Values are backed up by whose move it is: a child where the other side moves is negated
(negamax), one where the same side moves again (an extra turn) keeps its sign, and its
window is the parent's, not the parent's swapped.  A game that says its sides always
alternate (`sides_alternate`) skips the check.  While solving a game that does not bound
its length (`max_plies_left`), a position that repeats one earlier in the line is a leaf
worth the game's `repetition_value()` (a draw unless the game says otherwise); a node whose
value rests on a repetition of a position above it is not stored in the table (its value
depends on the line).  A line longer than `MAX_PLY` plies stops there, at the heuristic's
estimate, so the value is an estimate, not exact.

Game hooks are used only where they cannot change a value (and only in games whose sides
alternate, which their meaning assumes): `winning_move()` at any node with depth left (a
win in one ply is the best possible value) and `search_moves()` where at least two plies
remain (a move that lets the opponent win at once is worse
than any alternative that does not, and minimax sees that loss too).  With the search's
`book` option, `book_value()` (an opening book) answers a position at any depth, as minimax
does (`ai.engine.full_width_search.book_leaf`: a win or loss without its distance is the slowest
one at a
fixed depth, and bounds the window while solving), and `solved_value()` (positions the game
has solved once and stored) answers only while solving, so fixed-depth values stay minimax's.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, cast

from plyground.ai.engine.bookkeeping import (
    UNLIMITED_DEPTH,
    Context,
    back_up,
    child_window,
    terminal_units,
)
from plyground.ai.engine.table import EXACT, LOWER, UPPER, TranspositionTable
from plyground.ai.evaluation.values import (
    HEURISTIC_UNITS,
    INF_UNITS,
    PROVEN_UNITS,
    SCALE,
    STEP_UNITS,
    WIN_UNITS,
)
from plyground.games.base import (
    Capabilities,
    InPlacePosition,
    KnownValue,
    Move,
    Position,
    State,
    evaluate_none,
    state_capabilities,
)

MAX_PLY = 512
"""The longest line a search follows: a solve stops a line there, at the heuristic's estimate."""
NO_REPETITION = MAX_PLY + 1
"""`Line.reached` when no repetition below refers to a position on the line."""
WIN_IN_ONE = WIN_UNITS - STEP_UNITS
WIN_IN_THREE = WIN_UNITS - 3 * STEP_UNITS
LOSS_IN_TWO = -(WIN_UNITS - 2 * STEP_UNITS)
LOSS_IN_FOUR = -(WIN_UNITS - 4 * STEP_UNITS)


@dataclass(frozen=True, slots=True)
class SearchPlan:
    """What a search does at every node of one game, decided once from its root."""

    state_class: type
    game: object
    offered: Capabilities
    alternate: bool
    """The game's sides always alternate: no child is asked whose move it is."""
    hooks: bool
    """The game's winning and safe moves bound values and order moves (sides alternating)."""
    book: Callable[[Any], KnownValue | None] | None
    """Its opening book (`book_value`), where it answers positions (the `book` option)."""
    solved: Callable[[Any], KnownValue | None] | None
    """Its stored solutions (`solved_value`), answering while solving (the `book` option)."""
    guided: bool
    """Any of the three: the search runs on positions, never on a walk."""
    repeats: bool
    """Solving tracks the line for repetitions: the game does not bound its length."""
    walk: Callable[[Any], InPlacePosition] | None
    """Starts the game's walk in place, where the search walks (`games.base.InPlace`)."""

    @classmethod
    def of(cls, state: State[Any], ctx: Context, may_walk: bool) -> SearchPlan:
        offered = state_capabilities(state)
        alternate = offered.sides_alternate
        hooks = alternate and offered.search_moves is not None and offered.winning_move is not None
        book = offered.book_value if ctx.book else None
        solved = offered.solved_value if ctx.book else None
        guided = hooks or book is not None or solved is not None
        walk = offered.in_place if may_walk and not guided else None
        repeats = offered.max_plies_left is None  # a bounded game never repeats a position
        return cls(
            type(state), state.game, offered, alternate, hooks, book, solved, guided, repeats, walk
        )


class Tally:
    """What one node search counts, each as `ai.textbook.counts` defines it; added to the
    search's `Context` when the search ends (a slot each: as fast as a list read by index)."""

    __slots__ = (
        "book_hits",
        "cutoffs",
        "estimate_hits",
        "estimates",
        "nodes",
        "seldepth",
        "settled",
        "table_hits",
        "vague_hits",
    )

    def __init__(self) -> None:
        self.nodes = 0
        """Nodes not yet added to the context's (added every `ctx.poll_mask`+1 and at the end)."""
        self.cutoffs = 0
        self.table_hits = 0
        self.seldepth = 0
        self.estimates = 0
        """Leaves the heuristic evaluated."""
        self.estimate_hits = 0
        """Table answers that rest on an estimate (a reused table cannot hide a leaf)."""
        self.book_hits = 0
        self.vague_hits = 0
        """Of the book's answers, wins or losses without their distance."""
        self.settled = 0
        """The other leaves: finished games, the book, a repetition, the game's rules."""

    def poll(self, ctx: Context) -> None:
        """Every `ctx.poll_mask`+1 nodes: the nodes so far into the context, and its check."""
        ctx.nodes += self.nodes
        self.nodes = 0
        ctx.poll()

    def add_to(self, ctx: Context) -> None:
        ctx.nodes += self.nodes
        ctx.cutoffs += self.cutoffs
        ctx.table_hits += self.table_hits
        ctx.leaf_evaluations += self.estimates
        ctx.leaves += self.estimates + self.settled
        ctx.estimate_hits += self.estimate_hits
        ctx.book_hits += self.book_hits
        ctx.vague_hits += self.vague_hits


class Line:
    """Solving, the positions on the line searched (key -> ply) and the shallowest ply a
    repetition below the current node referred to (`NO_REPETITION`: none)."""

    __slots__ = ("plies", "reached")

    def __init__(self) -> None:
        self.plies: dict[Hashable, int] = {}
        self.reached = NO_REPETITION


class PruningSearch:
    """One alpha-beta searcher: its table, killers and history persist across calls."""

    def __init__(self, ctx: Context, table: TranspositionTable | None = None) -> None:
        self.ctx = ctx
        self.table = table if table is not None else TranspositionTable()
        self.killers: defaultdict[int, list[Move]] = defaultdict(list)
        """Per ply, the two last moves that cut off there (made as the search reaches a ply)."""
        self.history: defaultdict[Any, int] = defaultdict(int)
        self.seldepth = 0
        self.lines: list[tuple[Move, ...]] = [()] * (MAX_PLY + 2)
        """lines[ply]: the best line found below the node at `ply` (a triangular PV table)."""
        self.root_lines: dict[Any, tuple[Move, ...]] = {}
        self.partial: tuple[dict[Any, int], set[Any]] = ({}, set())
        """The root search's values and bounds so far, kept when it is cut short."""
        self.solved_root: int | None = None
        """The root's exact value once a solving root search (one best move) has it."""
        self._plan: SearchPlan | None = None

    # ------------------------------------------------------------------ one search's plan
    def plan(self, state: State[Any]) -> SearchPlan:
        """What this search does at every node of `state`'s game, decided once (per game)."""
        plan = self._plan
        if plan is None or plan.state_class is not type(state) or plan.game is not state.game:
            plan = self._plan = SearchPlan.of(state, self.ctx, self.may_walk(state))
        return plan

    def may_walk(self, state: State[Any]) -> bool:
        """Whether the search may walk `state`'s subtree in place: only the game's own
        heuristics (or none) read a walk as they read a position; another evaluation (a
        student's, one run in another process) is given positions."""
        evaluate = self.ctx.evaluate
        return evaluate is evaluate_none or any(
            heuristic.evaluate is evaluate for heuristic in state.game.heuristics.values()
        )

    # ------------------------------------------------------------------ the node search
    def search(self, root: State[Any], depth: int, alpha: int, beta: int) -> int:
        """Fail-soft alpha-beta value of `root` in units, `depth` plies deep."""
        plan = self.plan(root)
        if plan.walk is None:
            return self.descend(plan, root, depth, alpha, beta)
        walk = plan.walk(root)
        try:
            return self.descend(plan, walk, depth, alpha, beta)
        finally:
            walk.release()

    def child_value(self, state: State[Any], move: Move, depth: int, alpha: int, beta: int) -> int:
        """The root's value of `move`, searched with the root window (alpha, beta): the move
        is played here (on the walk, where the search walks: the root's children cost no new
        position) and the position after it searched one ply less deep."""
        plan = self.plan(state)
        deeper = depth - 1 if depth < UNLIMITED_DEPTH else depth
        # solving, the root is on the line too (a repetition of it is a leaf)
        root_key = state.key() if plan.repeats and deeper >= UNLIMITED_DEPTH else None
        start: Position = state if plan.walk is None else plan.walk(state)
        try:
            child = start.play(move)
            same = not plan.alternate and child.player == state.player
            child_alpha, child_beta = child_window(alpha, beta, same)
            value = self.descend(plan, child, deeper, child_alpha, child_beta, root_key)
            return back_up(value, same)
        finally:
            if start is not state:
                cast(InPlacePosition, start).release()

    def descend(
        self,
        plan: SearchPlan,
        node: Position,
        depth: int,
        alpha: int,
        beta: int,
        root_key: Hashable | None = None,
    ) -> int:
        """Fail-soft alpha-beta value of `node`, `depth` plies deep (`root_key`: the key of
        the position above it on the line, if any), counted into the search's `Context`."""
        tally = Tally()
        line = Line()
        if root_key is not None:
            line.plies[root_key] = -1
        try:
            return self._search(plan, tally, line, node, depth, alpha, beta)
        finally:
            tally.add_to(self.ctx)
            self.seldepth = max(self.seldepth, tally.seldepth)

    def _search(  # noqa: C901
        self,
        plan: SearchPlan,
        tally: Tally,
        line: Line,
        start: Position,
        depth: int,
        alpha: int,
        beta: int,
    ) -> int:
        """Fail-soft alpha-beta below `start` (module docstring), on the plan's walk if any."""
        ctx, evaluate, limit, step = self.ctx, self.ctx.evaluate, self.ctx.limit, STEP_UNITS
        slots, size, store_at = self.table.slots, self.table.size, self.table.store_at
        killers, history, lines, on_line = self.killers, self.history, self.lines, line.plies
        offered, alternate, walking = plan.offered, plan.alternate, plan.walk is not None
        solved, book, hooks, proven = plan.solved, plan.book, plan.hooks, PROVEN_UNITS
        scores, repeats, repeated = offered.utility_is_value, plan.repeats, offered.repetition_value
        poll_mask = ctx.poll_mask  # nodes between two polls, less one (a budget's own)

        def node_value(node: Position, remaining: int, alpha: int, beta: int, ply: int) -> int:  # noqa: C901
            tally.nodes += 1
            lines[ply] = ()
            if not tally.nodes & poll_mask:
                tally.poll(ctx)
            if node.is_terminal():
                tally.settled += 1
                if ply > tally.seldepth:
                    tally.seldepth = ply
                if scores:
                    return terminal_units(node, offered)
                winner = node.winner()
                return 0 if winner is None else (WIN_UNITS if winner == node.player else -WIN_UNITS)
            if solved and remaining >= UNLIMITED_DEPTH and (known := solved(node)) is not None:
                return _solved_units(tally, known)  # solved once and for all: exact
            if book and (known := book(node)) is not None:
                answer, alpha, beta = _book_answer(plan, tally, node, known, remaining, alpha, beta)
                if answer is not None:
                    return answer
            if remaining == 0 or ply >= MAX_PLY:  # ctx.leaf inlined: the most frequent node
                tally.estimates += 1
                value = int(evaluate(node) * SCALE)
                return limit if value > limit else (-limit if value < -limit else value)
            key = node.key()
            solving = repeats and remaining >= UNLIMITED_DEPTH
            if solving and key in on_line:  # the line came back here: a leaf
                return _repetition_leaf(tally, line, on_line[key], node, repeated)
            index = hash(key) % size
            entry = slots[index]
            first: Move = None
            if entry is not None and entry[0] == key:
                if entry[1] == remaining:
                    flag, value = entry[2], entry[3]
                    if flag == EXACT or (value >= beta if flag == LOWER else value <= alpha):
                        tally.table_hits += 1
                        if not entry[6]:
                            tally.estimate_hits += 1
                        return value
                first = entry[4]
            if hooks:  # the game's winning and safe moves, in its order (the table's first)
                answer, order, alpha, beta = _safe_moves(
                    plan, tally, node, first, remaining, alpha, beta
                )
                if answer is not None:
                    return answer
            else:
                order = node.legal_moves()
                if len(order) > 1:
                    order = _order(order, first, killers[ply], history)
            deeper = remaining - 1 if remaining < UNLIMITED_DEPTH else remaining
            best, best_move, low = -INF_UNITS, None, alpha
            estimates = tally.estimates + tally.estimate_hits
            side = None if alternate else node.player
            if solving:
                on_line[key] = ply
                below, line.reached = line.reached, NO_REPETITION
            child_alpha = (  # the children's window: back_up's inverse (bookkeeping.child_window)
                -beta - step if beta > proven else (-beta + step if beta < -proven else -beta)
            )
            for move in order:
                child_beta = (
                    -low - step if low > proven else (-low + step if low < -proven else -low)
                )
                child = node.play(move)
                if alternate or child.player != side:
                    value = -node_value(child, deeper, child_alpha, child_beta, ply + 1)
                else:  # the same side moves again: the same window, the same sign
                    value = node_value(child, deeper, -child_beta, -child_alpha, ply + 1)
                if walking:
                    node.undo()  # type: ignore[attr-defined]  # the plan walks: an InPlacePosition
                if value > proven:
                    value -= step
                elif value < -proven:
                    value += step
                if value > best:
                    best, best_move = value, move
                    if value > low:
                        low = value
                        lines[ply] = (move, *lines[ply + 1])
                        if low >= beta:
                            if move != order[-1]:  # a cut-off skips a move (counts.CUTOFF)
                                tally.cutoffs += 1
                            if move not in killers[ply]:  # the ply's two killers, newest first
                                killers[ply] = [move, *killers[ply][:1]]
                            history[move] += remaining * remaining  # the history heuristic
                            break
            if solving:
                del on_line[key]
                if line.reached < ply:  # rests on a repetition of a position above: not stored
                    line.reached = min(below, line.reached)
                    return best
                line.reached = below
            flag = UPPER if best <= alpha else (LOWER if best >= beta else EXACT)
            exact = tally.estimates + tally.estimate_hits == estimates  # no estimate below
            store_at(index, key, remaining, flag, best, best_move, exact)
            return best

        try:
            return node_value(start, depth, alpha, beta, 0)
        finally:
            node_value = None  # type: ignore[assignment]  # it refers to itself: free it now

    # ------------------------------------------------------------------ root searches
    def exact_child_value(self, state: State[Any], move: Move, depth: int) -> int:
        """The exact root value of `move`: full window, or null-window probes when solving."""
        if depth < UNLIMITED_DEPTH:
            return self.child_value(state, move, depth, -INF_UNITS, INF_UNITS)
        return self.solve_value(state, move, depth, -INF_UNITS, INF_UNITS)

    def solve_value(
        self, state: State[Any], move: Move | None, depth: int, low: int, high: int
    ) -> int:
        """Exact value (within [low, high]) by null-window probes over the proven values.

        Solved values are a draw (0) or a win or loss some number of plies away, so a
        binary search over that short sorted list needs only a handful of cheap probes,
        each a null-window search that the table makes cheaper than the last.  With
        `move` None it values `state` itself, else the root's move `move`.
        """
        offered = self.plan(state).offered
        if offered.utility_is_value:  # scores, not only wins and draws
            if move is None:
                return self.search(state, depth, low - 1, high + 1)
            return self.child_value(state, move, depth, low - 1, high + 1)
        candidates = _ALTERNATE_SOLVED_VALUES if offered.sides_alternate else _SOLVED_VALUES
        plies_left = offered.max_plies_left
        if plies_left is not None:  # no result lies further away than the game can
            horizon = plies_left(state)
            candidates = [
                c for c in candidates if c == 0 or WIN_UNITS - abs(c) <= horizon * STEP_UNITS
            ]
        lo = 0
        hi = len(candidates) - 1
        while lo < hi and candidates[lo] < low:
            lo += 1
        while hi > lo and candidates[hi] > high:
            hi -= 1
        while lo < hi:
            middle = (lo + hi + 1) // 2
            target = candidates[middle]
            if move is None:
                value = self.search(state, depth, target - 1, target)
            else:
                value = self.child_value(state, move, depth, target - 1, target)
            if value >= target:
                lo = middle
                while lo < hi and candidates[lo + 1] <= value:
                    lo += 1
            else:
                hi = middle - 1
                while hi > lo and candidates[hi] > value:
                    hi -= 1
        return candidates[lo]

    def root(
        self,
        state: State[Any],
        depth: int,
        order: list[Move],
        all_values: bool,
        priority: dict[Any, float] | None = None,
    ) -> tuple[dict[Any, int], set[Any]]:
        """Value the root moves in `order`; return values and the moves whose value is a bound.

        With `all_values` every value is exact.  Otherwise the first move is valued exactly
        and each other move only as far as the choice needs.  With a seeded `priority` per
        move (the tie-break: the best value, then the highest priority), a move that could
        only win by a better value is tested with a null window just above the best (a tie
        or worse keeps its upper bound), one that would win a tie with a window either side
        of it (a tie is exact); a move that wins is searched again for its exact value.
        Without `priority` every move gets the window either side, so every tie is exact
        (`ctx.pick` breaks them).  (Solving, the root's value is known first: a null window
        one unit below it finds the ties.)
        """
        values: dict[Any, int] = {}
        bounds: set[Any] = set()
        self.partial = (values, bounds)  # what a search cut short had found (ai.engine.search)
        self.root_lines = {}
        best: int | None = None
        chosen: Move = None
        self.solved_root = None
        if depth >= UNLIMITED_DEPTH and not all_values:
            # Solve the root node itself (its cutoffs span all moves), then find the
            # moves that reach that value: they tie for the seeded tie-break.
            best = self.solved_root = self.solve_value(state, None, depth, -INF_UNITS, INF_UNITS)
        else:
            self.ctx.nodes += 1  # the root is a node of this pass, as the textbook counts it
        self.ctx.marks = {}
        marking = self.ctx.marking
        for move in order:
            with marking(move):
                # By the seeded tie-break `move` would win a tie with the best so far.
                outranks = priority is not None and priority[move] > priority.get(chosen, -1.0)
                if all_values or best is None:
                    value = self.exact_child_value(state, move, depth)
                elif depth < UNLIMITED_DEPTH:
                    wins_ties = priority is None or outranks
                    value = self.child_value(
                        state, move, depth, best - 1 if wins_ties else best, best + 1
                    )
                    if value > best:  # a fail-high is only a lower bound: find the exact value
                        value = self.child_value(state, move, depth, best, INF_UNITS)
                    elif value < best or not wins_ties:
                        bounds.add(move)
                else:
                    value = self.child_value(state, move, depth, best - 1, best)
                    if value >= best:  # `best` is the root's exact value: no move is worth more
                        value = best
                    else:
                        bounds.add(move)
            values[move] = value
            if move not in bounds and self.lines[0] is not None:
                self.root_lines[move] = (move, *self.lines[0])
            if best is None or value > best or (value == best and outranks and move not in bounds):
                best = value
                chosen = move
                self.ctx.best_move = move
                self.ctx.best_value = value
        return values, bounds

    def principal_variation(
        self,
        state: State[Any],
        first: Move,
        limit: int,
        lines: dict[Any, tuple[Move, ...]] | None = None,
    ) -> tuple[Move, ...]:
        """The chosen move and the best replies: the exact search's line (`lines`, default the
        last root search's), continued from the table."""
        known = self.root_lines if lines is None else lines
        line = list(known.get(first, (first,)))[:limit]
        node = state
        for move in line:
            node = node.play(move)
        seen = {node.key()}
        offered = self.plan(state).offered
        while len(line) < limit and not node.is_terminal():
            entry = self.table.probe(node.key())
            move = entry[4] if entry is not None else None
            if move is None or move not in node.legal_moves():
                move = None
                if offered.winning_move is not None and offered.search_moves is not None:
                    # nodes the hooks answered are not stored
                    move = offered.winning_move(node)
                    if move is None and not offered.search_moves(node):
                        move = node.legal_moves()[0]  # every move loses: show one
                if move is None:
                    break
            line.append(move)
            node = node.play(move)
            if node.key() in seen:
                break
            seen.add(node.key())
        return tuple(line)


def _solved_values(alternate: bool) -> list[int]:
    """Every value a solved position (or root move) can have, sorted: losses, draw, wins.

    A result is worth one step less per ply away (`ai.engine.bookkeeping.back_up`) down to the
    edge of the proven range: a win or loss further away than that stays at the edge,
    `HEURISTIC_UNITS`.  Where players alternate (`alternate`), the side to move can only win
    on one of its own moves, an odd number of plies away, and lose on one of the opponent's,
    an even number away; a root move's value counts plies from the root, so the same holds
    for it.  Where a side may move again, a result may lie any number of plies away.
    """
    plies = range(1, 100)
    wins = [WIN_UNITS - p * STEP_UNITS for p in plies if not alternate or p % 2]
    losses = [-(WIN_UNITS - p * STEP_UNITS) for p in plies if not alternate or not p % 2]
    edge = [v for v in (HEURISTIC_UNITS, -HEURISTIC_UNITS) if v not in wins and v not in losses]
    return sorted({*losses, 0, *wins, *edge})


def _safe_moves(
    plan: SearchPlan,
    tally: Tally,
    node: Position,
    first: Move,
    remaining: int,
    alpha: int,
    beta: int,
) -> tuple[int | None, Sequence[Move], int, int]:
    """The moves worth searching at `node` in a game that names its winning move and its safe
    moves (`plan.hooks`), in the game's order but the table's move `first` first, and the
    window they leave: a value instead where they settle it (a win in one, every move losing
    at once) or cut it off.  Used only where it cannot change a value: a move that lets the
    opponent win at once is worse than any other (minimax sees that loss too), which it can
    only see with two plies left."""
    winning_move, search_moves = plan.offered.winning_move, plan.offered.search_moves
    assert winning_move is not None and search_moves is not None  # plan.hooks
    if remaining >= 2:
        moves = search_moves(node)
        if not moves:  # every move lets the opponent win at once
            tally.settled += 1
            return LOSS_IN_TWO, moves, alpha, beta
        if len(moves) == 1 and winning_move(node) is not None:
            tally.settled += 1
            return WIN_IN_ONE, moves, alpha, beta
        if alpha < LOSS_IN_FOUR:  # every move left is safe for a ply: a loss in four at worst
            alpha = LOSS_IN_FOUR
            if alpha >= beta:  # a cut-off before the first move
                tally.cutoffs += 1
                return alpha, moves, alpha, beta
    else:
        if winning_move(node) is not None:
            tally.settled += 1
            return WIN_IN_ONE, (), alpha, beta
        moves = node.legal_moves()
    if beta > WIN_IN_THREE:  # no win in one: a win in three plies at best
        beta = WIN_IN_THREE
        if alpha >= beta:  # a cut-off before the first move
            tally.cutoffs += 1
            return beta, moves, alpha, beta
    if first is not None and len(moves) > 1 and first in moves:
        order = list(moves)
        order.remove(first)
        order.insert(0, first)
        return None, order, alpha, beta
    return None, moves, alpha, beta


def _order(
    moves: Sequence[Move], first: Move, killers: list[Move], history: defaultdict[Any, int]
) -> Sequence[Move]:
    """`moves` in search order: by the history heuristic's credit, then the ply's killer
    moves (the cut-offs credit both), the table's move `first` before all."""
    order = list(moves)
    if len(history):
        order.sort(key=history.__getitem__, reverse=True)  # a defaultdict: 0 if no credit
    for killer in killers:
        if killer in order and killer != first:
            order.remove(killer)
            order.insert(0, killer)
    if first is not None and first in order:
        order.remove(first)
        order.insert(0, first)
    return order


def _solved_units(tally: Tally, known: KnownValue) -> int:
    """A position the game has solved and stored (`solved_value()`, asked only while
    solving): its exact value, a leaf."""
    tally.book_hits += 1
    tally.settled += 1
    return int(known.bounds(WIN_UNITS, STEP_UNITS, MAX_PLY)[0])


def _book_answer(
    plan: SearchPlan,
    tally: Tally,
    node: Position,
    known: KnownValue,
    remaining: int,
    alpha: int,
    beta: int,
) -> tuple[int | None, int, int]:
    """The book's answer `known` for `node` (`remaining` plies deep, window alpha..beta): its
    value where the answer settles it, else None and the window its bounds leave.  A win or
    loss without its distance is the slowest one at a fixed depth
    (`ai.engine.full_width_search.book_leaf`) and bounds the window while solving."""
    tally.book_hits += 1
    horizon = plan.offered.max_plies_left
    plies = horizon(node) if horizon is not None else MAX_PLY
    low, high = known.bounds(WIN_UNITS, STEP_UNITS, plies)
    if low == high:  # a solved leaf: exact at any depth, never an estimate
        tally.settled += 1
        return low, alpha, beta
    if remaining < UNLIMITED_DEPTH:  # the slowest such result
        tally.vague_hits += 1
        tally.settled += 1
        return (low if low > 0 else high), alpha, beta
    if low >= beta or high <= alpha:  # solving: a proven result bounds the value
        tally.settled += 1
        return (low if low >= beta else high), alpha, beta
    return None, max(alpha, low), min(beta, high)


def _repetition_leaf(
    tally: Tally,
    line: Line,
    ply: int,
    node: Position,
    repeated: Callable[[Any], float] | None,
) -> int:
    """Solving, `node` repeats the line's position at `ply`: a leaf (the shallowest ply a
    repetition refers to noted on the `line`), worth the game's `repetition_value()` (1 a win,
    0 a draw, -1 a loss for the player to move there; none: a draw) in units: a win or loss
    there ends the line at once."""
    tally.settled += 1
    if ply < line.reached:
        line.reached = ply
    value = 0.0 if repeated is None else repeated(node)
    return WIN_UNITS if value > 0 else (-WIN_UNITS if value < 0 else 0)


_ALTERNATE_SOLVED_VALUES = _solved_values(True)
_SOLVED_VALUES = _solved_values(False)
