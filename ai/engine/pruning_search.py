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
from typing import Any

from plyground.ai.engine.bookkeeping import (
    POLL_MASK,
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
from plyground.games.base import Move, State, evaluate_none, moves_again, state_capabilities

MAX_PLY = 512
"""The longest line a search follows: a solve stops a line there, at the heuristic's estimate."""


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

    # ------------------------------------------------------------------ the node search
    def search(self, root: State[Any], depth: int, alpha: int, beta: int) -> int:
        """Fail-soft alpha-beta value of `root` in units, `depth` plies deep."""
        return self.value_after(root, None, depth, alpha, beta)

    def value_after(  # noqa: C901
        self, root: State[Any], move: Move | None, depth: int, alpha: int, beta: int
    ) -> int:
        """Fail-soft alpha-beta value, `depth` plies deep, of `root`, or with `move` (one of
        its legal moves) of the position after it: where the game walks in place, that move is
        made on the walk too, so the root's children cost no new position."""
        ctx = self.ctx
        poll = ctx.poll
        slots = self.table.slots
        size = self.table.size
        store_at = self.table.store_at
        killers = self.killers
        history = self.history
        history_of = history.__getitem__  # a defaultdict: 0 for a move never credited
        proven = PROVEN_UNITS
        step = STEP_UNITS
        win_in_one = WIN_UNITS - STEP_UNITS
        win_in_three = WIN_UNITS - 3 * STEP_UNITS
        loss_in_two = -(WIN_UNITS - 2 * STEP_UNITS)
        loss_in_four = -(WIN_UNITS - 4 * STEP_UNITS)
        loss_now = -WIN_UNITS
        offered = state_capabilities(root)  # read once per search, never per node
        alternate = offered.sides_alternate  # else each child is asked whose move it is
        hooks = alternate and offered.search_moves is not None and offered.winning_move is not None
        book = ctx.book and offered.book_value is not None
        solved_hook = ctx.book and offered.solved_value is not None
        horizon = offered.max_plies_left is not None
        scores = offered.utility_is_value  # finished positions carry scores (terminal_units)
        evaluate = ctx.evaluate
        # The game's own walk in place (make and unmake), where nothing else reads positions:
        # the same nodes, keys and values, each node cheaper (games.base.InPlacePosition).
        own_evaluation = evaluate is evaluate_none or any(
            h.evaluate is evaluate for h in root.game.heuristics.values()
        )
        walk = offered.in_place if own_evaluation and not (hooks or book or solved_hook) else None
        walking = walk is not None
        lines = self.lines
        # nodes, cut-offs, table hits, seldepth, leaf evaluations (the heuristic's leaves),
        # answers from the table that rest on an estimate (so a reused table cannot hide a
        # heuristic leaf), book answers, of those wins/losses without distance, and the other
        # leaves (finished games, the book, the game's rules): each counter as
        # ai.textbook.counts defines it
        counters = [0, 0, 0, 0, 0, 0, 0, 0, 0]
        limit = ctx.limit
        # Solving: the positions on the line searched (key -> ply), a repetition's value for
        # the player to move there, and the shallowest ply a repetition below referred to.
        # A game that says how many plies it can last never repeats a position (it would
        # last as long again): its lines are not tracked.
        repeats = not horizon
        on_line: dict[Any, int] = {}
        repeated = offered.repetition_value
        no_repetition = MAX_PLY + 1
        reached = [no_repetition]

        # One function on purpose: this runs at every node, and calls cost more than lines.
        def node_value(node: Any, remaining: int, alpha: int, beta: int, ply: int) -> int:  # noqa: C901
            counters[0] += 1
            lines[ply] = ()
            if not counters[0] & POLL_MASK:
                ctx.nodes += counters[0]
                counters[0] = 0
                poll()
            if node.is_terminal():
                counters[8] += 1
                if ply > counters[3]:
                    counters[3] = ply
                if scores:
                    return terminal_units(node, offered)
                winner = node.winner()
                if winner is None:
                    return 0
                return WIN_UNITS if winner == node.player else loss_now
            if solved_hook and remaining >= UNLIMITED_DEPTH:
                known = node.solved_value()
                if known is not None:  # a position solved once and for all: exact
                    counters[6] += 1
                    counters[8] += 1
                    value: int = known.bounds(WIN_UNITS, step, MAX_PLY)[0]
                    return value
            if book:
                known = node.book_value()
                if known is not None:
                    counters[6] += 1
                    bounds: tuple[int, int] = known.bounds(
                        WIN_UNITS, step, node.max_plies_left() if horizon else MAX_PLY
                    )
                    low_b, high_b = bounds
                    if low_b == high_b:  # a solved leaf: exact at any depth, never an estimate
                        counters[8] += 1
                        return low_b
                    if remaining < UNLIMITED_DEPTH:  # the slowest such result (book_leaf)
                        counters[7] += 1
                        counters[8] += 1
                        return low_b if low_b > 0 else high_b
                    # solving: a proven result bounds the value
                    if low_b >= beta or high_b <= alpha:
                        counters[8] += 1
                        return low_b if low_b >= beta else high_b
                    alpha, beta = max(alpha, low_b), min(beta, high_b)
            if remaining == 0 or ply >= MAX_PLY:  # ctx.leaf inlined: the most frequent node
                counters[4] += 1
                value = int(evaluate(node) * SCALE)
                return limit if value > limit else (-limit if value < -limit else value)
            key = node.key()
            solving = repeats and remaining >= UNLIMITED_DEPTH
            if solving and key in on_line:  # the line came back here: a leaf
                counters[8] += 1
                if on_line[key] < reached[0]:
                    reached[0] = on_line[key]
                return 0 if repeated is None else _repetition_units(repeated(node))
            index = hash(key) % size
            entry = slots[index]
            first: Move = None
            if entry is not None and entry[0] == key:
                if entry[1] == remaining:
                    flag = entry[2]
                    value = entry[3]
                    if (
                        flag == EXACT
                        or (flag == LOWER and value >= beta)
                        or (flag == UPPER and value <= alpha)
                    ):
                        counters[2] += 1
                        if not entry[6]:
                            counters[5] += 1
                        return value
                first = entry[4]
            if hooks:
                if remaining >= 2:
                    moves = node.search_moves()
                    if not moves:  # every move lets the opponent win at once
                        counters[8] += 1
                        return loss_in_two
                    if len(moves) == 1 and node.winning_move() is not None:
                        counters[8] += 1
                        return win_in_one
                    # Every move left is safe for a ply: the worst left is a loss in four.
                    if alpha < loss_in_four:
                        alpha = loss_in_four
                        if alpha >= beta:  # a cut-off before the first move
                            counters[1] += 1
                            return alpha
                else:
                    if node.winning_move() is not None:
                        counters[8] += 1
                        return win_in_one
                    moves = node.legal_moves()
                # No win in one: the best left is a win in three plies.
                if beta > win_in_three:
                    beta = win_in_three
                    if alpha >= beta:  # a cut-off before the first move
                        counters[1] += 1
                        return beta
            else:
                moves = node.legal_moves()
            deeper = remaining - 1 if remaining < UNLIMITED_DEPTH else remaining
            if len(moves) > 1:
                order = list(moves)
                if len(history) and not hooks:
                    order.sort(key=history_of, reverse=True)
                for killer in () if hooks else killers[ply]:
                    if killer in order and killer != first:
                        order.remove(killer)
                        order.insert(0, killer)
                if first is not None and first in order:
                    order.remove(first)
                    order.insert(0, first)
            else:
                order = moves
            best = -INF_UNITS
            best_move: Move = None
            low = alpha
            estimates = counters[4] + counters[5]
            side = None if alternate else node.player
            if solving:
                on_line[key] = ply
                below = reached[0]
                reached[0] = no_repetition
            for move in order:
                # child window: the exact inverse of back_up (ai.engine.bookkeeping.child_window)
                child_alpha = (
                    -beta - step if beta > proven else (-beta + step if beta < -proven else -beta)
                )
                child_beta = (
                    -low - step if low > proven else (-low + step if low < -proven else -low)
                )
                child = node.play(move)
                if alternate or child.player != side:
                    value = -node_value(child, deeper, child_alpha, child_beta, ply + 1)
                else:  # the same side moves again: the same window, the same sign
                    value = node_value(child, deeper, -child_beta, -child_alpha, ply + 1)
                if walking:
                    node.undo()
                if value > proven:
                    value -= step
                elif value < -proven:
                    value += step
                if value > best:
                    best = value
                    best_move = move
                    if value > low:
                        low = value
                        lines[ply] = (move, *lines[ply + 1])
                        if low >= beta:
                            if move != order[-1]:  # a cut-off skips a move (counts.CUTOFF)
                                counters[1] += 1
                            row = killers[ply]
                            if move not in row:
                                row.insert(0, move)
                                del row[2:]
                            history[move] += remaining * remaining
                            break
            flag = UPPER if best <= alpha else (LOWER if best >= beta else EXACT)
            solved = counters[4] + counters[5] == estimates
            if solving:
                del on_line[key]
                if reached[0] < ply:  # rests on a repetition of a position above: not stored
                    if below < reached[0]:
                        reached[0] = below
                    return best
                reached[0] = below
            store_at(index, key, remaining, flag, best, best_move, solved)
            return best

        start: Any = root if walk is None else walk(root)
        try:
            if move is not None:
                if repeats and depth >= UNLIMITED_DEPTH:  # the root is on the line too
                    on_line[start.key()] = -1
                start = start.play(move)
            return node_value(start, depth, alpha, beta, 0)
        finally:
            if walking:
                start.release()
            # The closure refers to itself: break the cycle so the table is freed now.
            node_value = None  # type: ignore[assignment]
            ctx.nodes += counters[0]
            ctx.cutoffs += counters[1]
            ctx.table_hits += counters[2]
            ctx.leaf_evaluations += counters[4]
            ctx.leaves += counters[4] + counters[8]
            ctx.estimate_hits += counters[5]
            ctx.book_hits += counters[6]
            ctx.vague_hits += counters[7]
            self.seldepth = max(self.seldepth, counters[3])

    # ------------------------------------------------------------------ root searches
    def child_value(self, state: State[Any], move: Move, depth: int, alpha: int, beta: int) -> int:
        """The root's value of `move`, searched with the root window (alpha, beta)."""
        deeper = depth - 1 if depth < UNLIMITED_DEPTH else depth
        same = moves_again(state, move)
        child_alpha, child_beta = child_window(alpha, beta, same)
        return back_up(self.value_after(state, move, deeper, child_alpha, child_beta), same)

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
        if state_capabilities(state).utility_is_value:  # scores, not only wins and draws
            if move is None:
                return self.search(state, depth, low - 1, high + 1)
            return self.child_value(state, move, depth, low - 1, high + 1)
        offered = state_capabilities(state)
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
        offered = state_capabilities(state)
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


def _repetition_units(value: float) -> int:
    """A repeated position's value (`repetition_value()`: 1 a win, 0 a draw, -1 a loss for
    the player to move there) in units: a win or loss there ends the line at once."""
    return WIN_UNITS if value > 0 else (-WIN_UNITS if value < 0 else 0)


_ALTERNATE_SOLVED_VALUES = _solved_values(True)
_SOLVED_VALUES = _solved_values(False)
