"""`monte_carlo()`: one Monte Carlo tree search, on its budget, as a `SearchResult`.

The move played is the most visited root move (a proven win first, a proven loss last); each
root move's value is the mean result of the iterations through it, an estimate from that many
playouts, or exact where MCTS-solver proved it (`ai.engine.mcts.tree`).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from plyground.ai.engine.bookkeeping import SearchCancelled, SearchError
from plyground.ai.engine.mcts.playouts import Playouts
from plyground.ai.engine.mcts.settings import MCTS, MonteCarlo
from plyground.ai.engine.mcts.tree import MonteCarloTree, Node, find_position, one_ply_up
from plyground.ai.engine.move_provenance import root_evaluation
from plyground.ai.engine.result import (
    MoveStatistics,
    PlayoutDetails,
    SearchDetails,
    SearchProgress,
    SearchResult,
)
from plyground.ai.evaluation.provenance import Evaluation, Kind, Source, from_playouts
from plyground.games.base import Heuristic, Move, State

POLL_EVERY = 16
"""Iterations between two looks at the stop request and "move now" (the clock: every one)."""
PROGRESS_SECONDS = 0.1


HELPERS_GRACE = 0.1
"""Seconds past the time limit the search waits for its helper processes' answers."""
HELPERS_PATIENCE = 5.0
"""Seconds a search on an iteration budget waits at least for its helpers (a helper's first
answer follows its interpreter's start and its game's loading: seconds, on a loaded machine)."""


@dataclass(frozen=True)
class RootCounts:
    """What another process's search of the same position found (root parallelization): its
    iterations and tree nodes, and each root move's visits, total result (for side 0) and
    proven value (None where not proven), by the move's text."""

    iterations: int
    nodes: int
    moves: dict[str, tuple[int, float, float | None]]


class Helpers(Protocol):
    """Processes that search the position beside this one, each on a tree of its own
    (`ai.players.root_parallel`): asked when the search starts, read when it ends."""

    def start(
        self, state: State[Any], settings: MonteCarlo, time_limit: float | None, seed: int
    ) -> None:
        """Ask every helper to search `state` as this search does (each its own seed)."""

    def collect(self, deadline: float) -> list[RootCounts]:
        """The answers that came by `deadline` (a `time.perf_counter()` time)."""
        ...


@dataclass
class KeptTree:
    """A tree kept between the moves of one game (a player holds one): the next search
    starts from the node of the position it is asked, where the game followed on.  Where the
    settings ask for more than one process, `helpers` search beside it."""

    root: Node | None = None
    helpers: Helpers | None = None

    def start(self, state: State[Any]) -> Node:
        """The node to search `state` from: the kept one standing on it, or a new one."""
        found = None if self.root is None else find_position(self.root, state)
        # The rest of the kept tree is freed here, inside the search's time (freeing
        # thousands of positions is not free), not after its clock has stopped.
        self.root = None
        if found is None:
            return Node(state, None)
        found.move = None
        return found


def monte_carlo(
    state: State[Any],
    settings: MonteCarlo,
    heuristic: Heuristic,
    *,
    time_limit: float | None = None,
    seed: int = 0,
    progress: Callable[[SearchProgress], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
    finish_now: Callable[[], bool] | None = None,
    kept: KeptTree | None = None,
) -> SearchResult:
    """Search `state` by Monte Carlo tree search as `settings` say, for `time_limit` seconds
    at most, its random stream seeded by `seed` (one seed, one tree).

    :raises SearchError: settings out of range.
    :raises SearchCancelled: `should_stop()` returned True.
    """
    try:
        settings.check()
    except ValueError as error:
        raise SearchError(str(error)) from None
    if time_limit is not None and time_limit <= 0:
        raise SearchError(f"time limit must be positive, not {time_limit}")
    start = time.perf_counter()
    rng = random.Random(seed)
    root = kept.start(state) if kept is not None else Node(state, None)
    kept_visits = root.visits
    playouts = Playouts(state, settings.playout, heuristic, rng)
    tree = MonteCarloTree(root, settings.exploration, playouts, rng)
    if root.visits == 0:
        tree.nodes_added = 1  # the root
        if root.prepared is None:
            tree.look_ahead(root)
    helpers = kept.helpers if kept is not None and settings.processes > 1 else None
    if helpers is not None:
        helpers.start(state, settings, time_limit, seed)
    budget = settings.budget(time_limit)
    deadline = None if time_limit is None else start + time_limit
    done = 0
    complete = True
    last_report = start
    while budget is None or done < budget:
        if root.solved is not None:
            break  # proven: more iterations would change nothing
        tree.iterate()
        done += 1
        now = time.perf_counter()
        if deadline is not None and now >= deadline:
            complete = budget is None
            break
        if done % POLL_EVERY == 0:
            if should_stop is not None and should_stop():
                raise SearchCancelled("search cancelled")
            if finish_now is not None and finish_now():
                complete = False
                break
            if progress is not None and now - last_report >= PROGRESS_SECONDS:
                last_report = now
                best = _best_child(tree)
                progress(
                    SearchProgress(
                        tree.deepest, done, now - start, None if best is None else best.move, None
                    )
                )
    found = [] if helpers is None else helpers.collect(_wait_until(root, complete, deadline, start))
    folded = fold(tree, found, state)
    result = _result(
        state, settings, heuristic, tree, done + folded.iterations, kept_visits, complete, start
    )
    folded.undo(root)  # the kept tree holds this process's own counts (and the proofs)
    if kept is not None:
        kept.root = root
    return result


def _wait_until(root: Node, complete: bool, deadline: float | None, start: float) -> float:
    """Until when the search waits for its helpers' answers: not at all when proven or told
    to move now; a little past its time limit; on an iteration budget, as long again as it
    took, and at least `HELPERS_PATIENCE`."""
    now = time.perf_counter()
    if root.solved is not None or not complete:
        return now
    if deadline is not None:
        return deadline + HELPERS_GRACE
    return now + max(HELPERS_PATIENCE, 2 * (now - start))


@dataclass
class Folded:
    """Other processes' counts added to a root's moves (`fold`), to be taken out again once
    the move is chosen: the kept tree goes on with its own counts, which the helpers' next
    answers would otherwise count twice."""

    iterations: int = 0
    parts: list[tuple[Node, int, float, bool]] = field(default_factory=list)
    """Each move's node, the visits and total added to it, and whether the fold added it."""

    def undo(self, root: Node) -> None:
        for child, visits, total, added in self.parts:
            child.visits -= visits
            child.total -= total
            child.ended -= visits
            root.visits -= visits
            root.total -= total
            if added and child.visits == 0:  # only the helpers tried it: untried here again
                root.children.remove(child)
                root.untried.append(child.move)


def fold(tree: MonteCarloTree, found: list[RootCounts], state: State[Any]) -> Folded:
    """Add other processes' root counts to this tree's root moves (root parallelization):
    each root move's visits and total grow by theirs, counted as iterations that ended at the
    move (so every node's visits still equal its children's plus `ended`), a move they proved
    is proven here, and a move only they tried joins the tree."""
    root = tree.root
    folded = Folded()
    if root.chance or not found:
        return folded
    text = state.game.format_move
    children = {str(text(child.move)): child for child in root.children}
    untried = {str(text(move)): move for move in root.untried}
    for counts in found:
        folded.iterations += counts.iterations
        tree.nodes_added += counts.nodes
        for name, (visits, total, solved) in counts.moves.items():
            child = children.get(name)
            added = child is None
            if child is None:
                move = untried.pop(name, None)
                if move is None:
                    continue  # not a move here (never, for the same position)
                root.untried.remove(move)
                child = children[name] = tree.add_child(root, move)
            child.visits += visits
            child.total += total
            child.ended += visits
            root.visits += visits
            root.total += total
            folded.parts.append((child, visits, total, added))
            if solved is not None and child.solved is None:
                child.solved, child.known = solved, False
    if root.solved is None and any(child.solved is not None for child in root.children):
        tree.solve(root)
    return folded


def root_counts(root: Node, state: State[Any], iterations: int, nodes: int) -> RootCounts:
    """A search's root moves as `fold` takes them in another process."""
    text = state.game.format_move
    moves = {str(text(c.move)): (c.visits, c.total, c.solved) for c in root.children}
    return RootCounts(iterations, nodes, moves)


def _best_child(tree: MonteCarloTree) -> Node | None:
    """The root move to play: a proven win for the side to move first (the quickest), then the
    most visited (ties: the better mean, then the seeded stream), a proven loss last."""
    root = tree.root
    if root.chance or not root.children:
        return None
    sign = root.sign()

    def rank(child: Node) -> tuple[int, float, float, float]:
        if child.solved is not None:
            value = sign * one_ply_up(child.solved, tree.stochastic)
            if value > 0.5 and (value >= 1 - 1e-12 or not tree.stochastic):
                return (2, value, child.visits, 0.0)
            if value < -0.5 and (value <= -1 + 1e-12 or not tree.stochastic):
                return (0, value, child.visits, 0.0)
        return (1, child.visits, sign * child.mean(), 0.0)

    ranked = sorted(root.children, key=rank, reverse=True)
    top = rank(ranked[0])
    tied = [child for child in ranked if rank(child) == top]
    return tied[0] if len(tied) == 1 else tree.rng.choice(tied)


def _evaluation(child: Node, sign: float, stochastic: bool) -> Evaluation:
    """A root move's value for the side to move at the root."""
    if child.solved is not None:
        value = sign * one_ply_up(child.solved, stochastic)
        return Evaluation(value, Kind.EXACT, Source.SEARCH, distance_known=child.known)
    return from_playouts(sign * child.mean(), child.visits)


def _root_moves(
    state: State[Any], tree: MonteCarloTree, exploration: float
) -> tuple[dict[Any, Evaluation], dict[Any, MoveStatistics]]:
    """Every root move's (or chance outcome's) value and statistics, for the side at the root;
    a move no iteration reached is worth nothing yet ('○ –')."""
    root = tree.root
    sign = root.sign()
    log_visits = math.log(root.visits) if root.visits > 1 else 0.0
    children: dict[Any, Node] = {child.move: child for child in root.children}
    moves: tuple[Move, ...] = (
        tuple(outcome for outcome, _ in root.outcomes) if root.chance else state.legal_moves()
    )
    evaluations: dict[Any, Evaluation] = {}
    statistics: dict[Any, MoveStatistics] = {}
    for move in moves:
        child = children.get(move)
        if child is None:
            evaluations[move] = from_playouts(0.0, 0)
            statistics[move] = MoveStatistics(0, 0.5, math.inf, 0.0)
            continue
        evaluations[move] = _evaluation(child, sign, tree.stochastic)
        statistics[move] = MoveStatistics(
            visits=child.visits,
            mean=0.5 + 0.5 * sign * child.mean(),
            ucb_term=(
                exploration * math.sqrt(log_visits / child.visits) if child.visits else math.inf
            ),
            share=child.visits / root.visits if root.visits else 0.0,
            proven=child.solved is not None,
        )
    return evaluations, statistics


def _root_value(
    tree: MonteCarloTree, chosen: Move | None, evaluations: dict[Any, Evaluation]
) -> Evaluation:
    """The root's evaluation: proven where the tree solved it, else the chosen move's (at a
    chance node the mean of every iteration)."""
    root = tree.root
    sign = root.sign()
    if root.solved is not None:
        return Evaluation(sign * root.solved, Kind.EXACT, Source.SEARCH, distance_known=root.known)
    if chosen is None:
        return from_playouts(sign * root.mean(), root.visits)
    return root_evaluation(
        evaluations[chosen], (ev for move, ev in evaluations.items() if move != chosen)
    )


def _result(
    state: State[Any],
    settings: MonteCarlo,
    heuristic: Heuristic,
    tree: MonteCarloTree,
    done: int,
    kept_visits: int,
    complete: bool,
    start: float,
) -> SearchResult:
    """Package the tree as a `SearchResult` with its statistics (`PlayoutDetails`)."""
    root = tree.root
    exploration = settings.exploration
    evaluations, statistics = _root_moves(state, tree, exploration)
    details = SearchDetails(
        playouts=PlayoutDetails(
            iterations=done,
            playouts=tree.playouts_run,
            tree_nodes=_size(root),
            root_visits=root.visits,
            exploration=exploration,
            playout_policy=tree.playouts.policy,
            moves=statistics,
            kept=kept_visits,
            proven=root.solved is not None,
        ),
        chance_root=root.chance,
    )
    best = _best_child(tree)  # None at a chance node: no move to choose
    chosen = None if best is None else best.move
    evaluation = _root_value(tree, chosen, evaluations)
    return SearchResult(
        move=chosen,
        value=evaluation.value,
        move_values=evaluations,
        pv=_principal_variation(best),
        depth=tree.deepest - 1,
        nodes=tree.nodes_added,
        leaves=done,
        leaf_evaluations=tree.playouts.evaluations,
        cutoffs=0,
        table_hits=0,
        elapsed=time.perf_counter() - start,
        algorithm=MCTS,
        heuristic=heuristic.name,
        player=state.player,
        evaluation=evaluation,
        complete=complete,
        details=details,
    )


def _principal_variation(first: Node | None) -> tuple[Move, ...]:
    """The most visited line from the chosen move (it stops at a chance node or a leaf)."""
    line: list[Move] = []
    node = first
    while node is not None and node.move is not None:
        line.append(node.move)
        if node.chance or not node.children:
            break
        node = max(node.children, key=lambda child: child.visits)
    return tuple(line)


def _size(root: Node) -> int:
    """Nodes in the tree under `root`, the root included."""
    count = 0
    stack = [root]
    while stack:
        node = stack.pop()
        count += 1
        stack.extend(node.children)
    return count
