"""Judging a search's root values: which are exact, which are bounds, which are estimates.

A search counts, for each root move, what its value rested on (`engine.MoveMarks`: heuristic
estimates, book answers).  From those counts and the move's value this module gives each
move its `Evaluation` (ai.evaluation.provenance), and the root its own, so that no caller decides
exactness from one flag for a whole search.

* A value that rested on no heuristic estimate is the position's true value (alpha-beta's
  value does not depend on the leaves it pruned): exact, from the game's exact table (an
  exact heuristic), the book, a solve (no depth limit) or a search that reached every end.
* In a game without chance a proven win or loss is exact even when other lines met the
  depth limit (a heuristic value never reaches the proven range); a win or loss the book
  stores without its distance is counted as the slowest one the game allows
  (`ai.engine.full_width_search.book_leaf`), so it is marked `distance_known=False`.
* A null-window probe that failed low gives an upper bound: a true bound when it rested on no
  estimate, else only an estimate.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from plyground.ai.engine.bookkeeping import Context, MoveMarks
from plyground.ai.evaluation.provenance import Evaluation, Kind, Source
from plyground.ai.evaluation.values import PROVEN_UNITS, STEP, WIN, plies_to_end, to_value
from plyground.games.base import State, state_capabilities


def _distance_known(state: State[Any], ctx: Context, value: float, depth: int | None) -> bool:
    """False for a proven value of a fixed-depth search as far away as the game allows where
    a book answers: that is how a book's win or loss without its distance is counted (a
    solve narrows such answers down to their distance)."""
    plies = plies_to_end(value)
    offered = state_capabilities(state)
    if plies is None or depth is None or not ctx.book or offered.book_value is None:
        return True
    if offered.max_plies_left is None:
        return True
    return plies < offered.max_plies_left(state)


def judge(
    state: State[Any],
    ctx: Context,
    units: float,
    marks: MoveMarks,
    depth: int | None,
    bound: bool = False,
) -> Evaluation:
    """One root move's evaluation: `units` its value, `marks` what it rested on, `depth` the
    search's depth (None: solved with no depth limit), `bound` whether it is only an upper
    bound (a null-window probe that failed low)."""
    value = to_value(units)
    rests_on_estimate = marks.estimates > 0
    if bound:
        if rests_on_estimate:
            return Evaluation(value, Kind.ESTIMATE, Source.HEURISTIC, depth)
        if marks.vague:  # a bound on the slowest win a book answer allows bounds nothing
            return Evaluation(value, Kind.ESTIMATE, Source.BOOK, depth)
        return Evaluation(value, Kind.UPPER, _exact_source(ctx, marks, depth), depth)
    proven = not state.STOCHASTIC and abs(units) > PROVEN_UNITS
    if not rests_on_estimate or proven:
        source = _exact_source(ctx, marks, depth) if not rests_on_estimate else Source.SEARCH
        if rests_on_estimate and marks.book:
            source = Source.BOOK
        vague = bool(marks.vague) and depth is not None and plies_to_end(value) is not None
        known = _distance_known(state, ctx, value, depth) and not vague
        return Evaluation(value, Kind.EXACT, source, depth, known)
    return Evaluation(value, Kind.ESTIMATE, Source.HEURISTIC, depth)


def _exact_source(ctx: Context, marks: MoveMarks, depth: int | None) -> Source:
    """What produced a value that rests on no estimate: a solve (no depth limit) is the
    solver's even where it reached the book; a fixed-depth search that reached the book
    says "book"."""
    if ctx.exact_leaves and ctx.leaf_evaluations:
        return Source.TABLE
    if marks.book and (depth is not None or marks.direct):
        return Source.BOOK
    return Source.SOLVER if depth is None else Source.SEARCH


def book_knows(node: Any, ctx: Context) -> bool:
    """Whether the game's book (or a stored solution) answers `node` itself."""
    if not ctx.book or node.is_terminal():
        return False
    offered = state_capabilities(node)
    return any(
        hook is not None and hook(node) is not None
        for hook in (offered.solved_value, offered.book_value)
    )


def judge_moves(
    state: State[Any],
    ctx: Context,
    values: dict[Any, float],
    marks: dict[Any, MoveMarks],
    depth: int | None,
    bounds: Iterable[Any] = (),
) -> dict[Any, Evaluation]:
    """Every root move's evaluation (see `judge`)."""
    bound = set(bounds)
    judged = {}
    for move, units in values.items():
        mark = marks.get(move, MoveMarks())
        if depth is None and book_knows(state.play(move), ctx):
            # The book answers the move's position itself: its value is the book's, whether
            # the search read the book there or a game's exact engine solved it.
            mark = MoveMarks(mark.estimates, max(mark.book, 1), mark.vague, direct=True)
        judged[move] = judge(state, ctx, units, mark, depth, move in bound)
    return judged


def pick_among_vague(state: State[Any], ctx: Context, values: dict[Any, float]) -> Any:
    """The best move where book answers without distance may tie: such a win or loss counts
    as the slowest the game allows, so moves that truly differ tie.  A proven tie is broken by
    the heuristic's view of each move's position (likelier a quicker win or a slower loss),
    then by the seeded generator, so a lost position is not resigned at random."""
    best = max(values.values())
    tied = [move for move, value in values.items() if value == best]
    if len(tied) == 1 or abs(best) <= PROVEN_UNITS:
        return ctx.pick(tied, values)

    def estimate(move: Any) -> float:
        child = state.play(move)
        if child.is_terminal():
            return 0.0
        value = float(ctx.evaluate(child))
        return value if child.player == state.player else -value

    estimates = {move: estimate(move) for move in tied}
    return ctx.pick(tied, estimates)


def root_evaluation(best: Evaluation, others: Iterable[Evaluation]) -> Evaluation:
    """The root's evaluation from its chosen move's and the other moves': the chosen move's
    when every other is exact or an upper bound (or it wins at once); an exact value beside
    estimates is only a lower bound on the root (a move valued by an estimate may be better)."""
    if not best.is_exact:
        return best
    if best.value >= WIN - STEP - 1e-12:  # a win at once: no move can be worth more
        return best
    if all(other.kind in (Kind.EXACT, Kind.UPPER) for other in others):
        return best
    return Evaluation(best.value, Kind.LOWER, best.source, best.depth, best.distance_known)


def mean_evaluation(value: float, parts: Iterable[Evaluation], depth: int) -> Evaluation:
    """A chance node's evaluation: exact when every outcome's is, else an estimate."""
    parts = list(parts)
    if parts and all(part.is_exact for part in parts):
        return Evaluation(value, Kind.EXACT, parts[0].source, depth)
    return Evaluation(value, Kind.ESTIMATE, Source.HEURISTIC, depth)
