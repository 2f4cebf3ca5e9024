"""What the three searches share: errors, counters, the stop/time check, backing values up.

Values inside the searches are integer units of the one scale in `ai.evaluation.values`;
chance nodes average them into floats.  `SearchResult` converts back to the [-1, 1] scale.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, cast

from plyground.ai.engine.result import SearchProgress
from plyground.ai.evaluation.values import (
    HEURISTIC_UNITS,
    PROVEN_UNITS,
    SCALE,
    STEP_UNITS,
    WIN_UNITS,
    score_value,
    to_value,
)
from plyground.games.base import (
    Capabilities,
    Heuristic,
    Move,
    Position,
    Scored,
    State,
    state_capabilities,
)

UNLIMITED_DEPTH = 10_000
"""The depth used for an unlimited (solving) search: never reached in a finite game."""
POLL_MASK = 0x3FF
"""Check the clock and the stop request every 1024 nodes (more often under a small node
budget: `poll_mask_for`)."""
POLLS_PER_BUDGET = 32
"""A search on a node budget checks it (and its clock) at least this often within the budget,
so it overshoots by a thirty-second at most: a small budget is a slow game's, whose nodes
are worth checking one by one."""


def poll_mask_for(node_limit: int | None) -> int:
    """The poll mask of a search: POLL_MASK, or a smaller power of two less one under a node
    budget (`POLLS_PER_BUDGET` checks within it).  It depends on the budget only, so where a
    search stops is the same on every machine."""
    if node_limit is None:
        return POLL_MASK
    every = max(1, node_limit // POLLS_PER_BUDGET)
    return min(POLL_MASK, (1 << (every.bit_length() - 1)) - 1)


class SearchError(ValueError):
    """A search that cannot be run as asked (wrong algorithm for the game, bad depth...)."""


class SearchCancelled(Exception):
    """Raised inside a search when its `should_stop` callback asks it to stop."""


class _OutOfTime(Exception):
    """Raised inside an iteration when the time budget runs out."""


class _OutOfNodes(_OutOfTime):
    """Raised inside a search when its node budget (`Context.node_limit`) is spent."""


def back_up(child_value: int, same_side: bool = False) -> int:
    """The parent's value of a move whose resulting child has `child_value`: negated where the
    turn passes to the other side (negamax), kept where the same side moves again (`same_side`:
    an extra turn).  A proven result one ply further away is worth one step less."""
    value = child_value if same_side else -child_value
    if value > PROVEN_UNITS:
        return value - STEP_UNITS
    if value < -PROVEN_UNITS:
        return value + STEP_UNITS
    return value


def child_bound(bound: int, same_side: bool = False) -> int:
    """The child's window edge matching a parent's window edge: the exact inverse of back_up.

    Where the turn passes, a parent's alpha becomes the child's beta and the other way round
    (`child_window`); where the same side moves again each edge stays what it is."""
    if bound > PROVEN_UNITS:
        return bound + STEP_UNITS if same_side else -bound - STEP_UNITS
    if bound < -PROVEN_UNITS:
        return bound - STEP_UNITS if same_side else -bound + STEP_UNITS
    return bound if same_side else -bound


def child_window(alpha: int, beta: int, same_side: bool = False) -> tuple[int, int]:
    """The child's (alpha, beta) for a parent's window (`alpha`, `beta`), by whose move the
    child is: the window that `back_up` maps back onto the parent's."""
    if same_side:
        return child_bound(alpha, True), child_bound(beta, True)
    return child_bound(beta), child_bound(alpha)


def terminal_units(state: Position, offered: Capabilities | None = None) -> int:
    """A finished game's value for the player whose turn it would be (negamax view).

    A game whose finished positions carry scores (`utility_is_value`, with a ``score(player)``:
    a textbook tree from a file) is searched for the highest score: a score s is worth
    ``HEURISTIC_UNITS * s / (|s| + 1)`` units, in the order of the scores and below every
    proven win."""
    offered = offered or state_capabilities(state)
    if offered.utility_is_value and offered.score is not None:  # its positions are `Scored`
        # (asked of the position itself: one walked in place answers as the game's do)
        value = float(cast(Scored, state).score(state.player))
        return int(score_value(value) * SCALE)
    return int(state.utility(state.player)) * WIN_UNITS


@dataclass(frozen=True, slots=True)
class MoveMarks:
    """What one root move's value rested on: heuristic estimates (leaves evaluated, table
    answers resting on one) and answers of the game's book."""

    estimates: int = 0
    book: int = 0
    vague: int = 0
    """Book answers of a win or loss without its distance (counted as the slowest one)."""
    direct: bool = False
    """The book answers the move's position itself (no search below it)."""


class Context:
    """Counters, the deadline and the stop request of one search."""

    __slots__ = (
        "best_move",
        "best_value",
        "book",
        "book_hits",
        "cutoffs",
        "deadline",
        "depth",
        "estimate_hits",
        "evaluate",
        "exact_leaves",
        "finish_now",
        "heuristic_name",
        "last_progress",
        "leaf_evaluations",
        "leaves",
        "limit",
        "marks",
        "node_limit",
        "nodes",
        "poll_mask",
        "progress",
        "rng",
        "should_stop",
        "start",
        "table_hits",
        "vague_hits",
    )

    def __init__(
        self,
        heuristic: Heuristic,
        time_limit: float | None,
        seed: int,
        should_stop: Callable[[], bool] | None,
        progress: Callable[[SearchProgress], None] | None,
    ) -> None:
        self.nodes = 0
        self.leaves = 0
        """Leaves as `ai.textbook.counts.LEAF` defines them: finished games, depth-limit
        estimates, the book's answers and a game's rule that settles a position at once."""
        self.leaf_evaluations = 0
        """Of those, the heuristic's estimates (what `estimates_used` counts)."""
        self.cutoffs = 0
        self.table_hits = 0
        self.estimate_hits = 0
        """Table answers whose value rests on a heuristic estimate (see `estimates_used`)."""
        self.finish_now: Callable[[], bool] | None = None
        self.start = time.perf_counter()
        self.deadline = None if time_limit is None else self.start + time_limit
        self.should_stop = should_stop
        self.progress = progress
        self.last_progress = self.start
        self.depth = 0
        self.best_move: Move | None = None
        self.best_value: float | None = None
        self.rng = random.Random(seed)
        self.evaluate = heuristic.evaluate
        self.heuristic_name = heuristic.name
        self.exact_leaves = bool(getattr(heuristic, "exact", False))
        """The heuristic returns true values (an exact table): its leaves are no estimate."""
        self.limit = HEURISTIC_UNITS
        self.node_limit: int | None = None
        """Stop (`_OutOfNodes`) once `nodes` reaches this: a budget that no machine's speed
        changes (checked every `poll_mask`+1 nodes)."""
        self.poll_mask = POLL_MASK
        """Nodes between two polls, less one (a power of two less one: `poll_mask_for`)."""
        self.book = True
        """Whether the game's opening book and stored solutions (`book_value()`,
        `solved_value()`) answer positions: the engine's option, off for textbook runs."""
        self.book_hits = 0
        """Positions the book (or a stored solution) answered."""
        self.vague_hits = 0
        """Of those, wins or losses whose distance the book does not store (fixed depth)."""
        self.marks: dict[Any, MoveMarks] = {}
        """What each root move's value rested on, in the current root search (`marking`)."""

    def estimates_used(self) -> int:
        """Heuristic values the search has rested on so far: leaves it evaluated and table
        answers that rest on some.  An iteration that adds none reached every end: exact."""
        return (0 if self.exact_leaves else self.leaf_evaluations) + self.estimate_hits

    @contextmanager
    def marking(self, move: Move) -> Iterator[None]:
        """Count what the search of root move `move` rests on (heuristic estimates, book
        answers), adding to what earlier probes of the same move counted."""
        estimates, book, vague = self.estimates_used(), self.book_hits, self.vague_hits
        try:
            yield
        finally:
            old = self.marks.get(move, MoveMarks())
            self.marks[move] = MoveMarks(
                old.estimates + self.estimates_used() - estimates,
                old.book + self.book_hits - book,
                old.vague + self.vague_hits - vague,
            )

    def set_aside(self, seconds: float) -> None:
        """Leave `seconds` out of the search's time (an engine's one-time start-up): the
        clock and the deadline move on by as much."""
        self.start += seconds
        self.last_progress += seconds
        if self.deadline is not None:
            self.deadline += seconds

    def elapsed(self) -> float:
        """Seconds since the search started."""
        return time.perf_counter() - self.start

    def poll(self, enforce_deadline: bool = True) -> None:
        """Called every `poll_mask`+1 nodes: honour stop requests, the deadline, report progress."""
        if self.should_stop is not None and self.should_stop():
            raise SearchCancelled("search cancelled")
        if self.node_limit is not None and self.nodes >= self.node_limit:
            raise _OutOfNodes
        now = time.perf_counter()
        if enforce_deadline and (
            (self.deadline is not None and now >= self.deadline)
            or (self.finish_now is not None and self.finish_now())
        ):
            raise _OutOfTime
        if self.progress is not None and now - self.last_progress >= 0.1:
            self.last_progress = now
            self.report()

    def report(self) -> None:
        """Send a progress snapshot, if anyone listens."""
        if self.progress is not None:
            value = None if self.best_value is None else to_value(self.best_value)
            self.progress(
                SearchProgress(self.depth, self.nodes, self.elapsed(), self.best_move, value)
            )

    def leaf(self, state: State[Any]) -> int:
        """Evaluate a non-terminal leaf in units, clamped inside the heuristic band.

        Without chance the band is ±HEURISTIC_LIMIT, below every proven result; with
        chance a value is a win-probability estimate, anywhere strictly inside (-1, 1).
        """
        self.leaf_evaluations += 1
        self.leaves += 1
        value = int(self.evaluate(state) * SCALE)
        limit = self.limit
        if value > limit:
            return limit
        if value < -limit:
            return -limit
        return value

    def leaf_exact(self, state: State[Any]) -> float:
        """Like `leaf`, without rounding to whole units: chance games' win probabilities can
        differ by less than a unit between two moves, and rounding would flip the choice."""
        self.leaf_evaluations += 1
        self.leaves += 1
        value = self.evaluate(state) * SCALE
        limit = self.limit
        return limit if value > limit else (-limit if value < -limit else value)

    def for_chance_game(self) -> None:
        """Win-probability estimates in games with chance may use all of (-1, 1)."""
        self.limit = SCALE - 1

    def pick(self, moves: Sequence[Move], values: dict[Any, float]) -> Move:
        """The best move, ties broken by the seeded generator (deterministic per seed)."""
        best = max(values[move] for move in moves)
        tied = [move for move in moves if values[move] == best]
        return tied[0] if len(tied) == 1 else self.rng.choice(tied)
