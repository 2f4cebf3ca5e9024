"""A comparison's guesses before it runs (ai.compare.comparison): the game's branching, the size of
minimax's tree, and each run's nodes and seconds.  No game is named here.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from plyground.ai.evaluation.wording import counted
from plyground.games.base import CHANCE, State

if TYPE_CHECKING:  # ai.compare.comparison imports this module; a row only types `done`
    from plyground.ai.compare.comparison import Row

DEFAULT_SPEED = 60_000.0
"""Nodes per second assumed before any run was timed (a pure-Python search on one core)."""


@dataclass(frozen=True, slots=True)
class Estimate:
    """A guess of a run's cost before it starts."""

    nodes: float
    seconds: float
    basis: str
    """How it was made ("branching 4.2" or "growth x3.1 from depth 5")."""


def _children(state: State[Any]) -> int:
    """A decision's children, counting each chance outcome behind a move as one."""
    total = 0
    for move in state.legal_moves():
        child = state.play(move)
        total += len(child.chance_outcomes()) if child.to_move == CHANCE else 1
    return total


def branching(state: State[Any], playouts: int = 12, plies: int = 12, seed: int = 0) -> float:
    """The game's real branching near `state`: the mean number of children of the decisions
    met in a few seeded random playouts (at least 1)."""
    rng = random.Random(seed)
    counts: list[int] = []
    for _ in range(playouts):
        node = state
        for _ in range(plies):
            if node.is_terminal():
                break
            if node.to_move == CHANCE:
                outcomes = node.chance_outcomes()
                node = node.play(rng.choice(outcomes)[0])
                continue
            counts.append(_children(node))
            node = node.play(rng.choice(node.legal_moves()))
    return max(1.0, sum(counts) / len(counts)) if counts else 1.0


def tree_sizes(state: State[Any], depth: int, playouts: int = 300, seed: int = 0) -> list[float]:
    """Knuth's estimate of minimax's node count at every depth 0..`depth` from `state`.

    Each random path from the root weighs a node by the product of the branching above it,
    which is an unbiased estimate of the tree's size; the mean of a few hundred paths is
    close.  A chance node's outcomes count as its children and stay on its level, as depth
    counts decisions only.
    """
    rng = random.Random(seed)
    sums = [0.0] * (depth + 1)
    for _ in range(playouts):
        node, weight, level = state, 1.0, 0
        sums[0] += 1.0
        while not node.is_terminal():
            chance = node.to_move == CHANCE
            if level == depth and not chance:
                break
            children = node.legal_moves()
            weight *= len(children)
            node = node.play(rng.choice(children))
            level += 0 if chance else 1
            if level > depth:
                break
            sums[level] += weight
    totals: list[float] = []
    running = 0.0
    for value in sums:
        running += value / playouts
        totals.append(running)
    return totals


def _tree(b: float, depth: float) -> float:
    """Nodes of a uniform tree with branching b to `depth`: 1 + b + ... + b^depth."""
    if b <= 1.0:
        return depth + 1.0
    return float(b ** (depth + 1) - 1.0) / (b - 1.0)


_EXPONENT = {
    "minimax": 1.0,
    "expectiminimax-plain": 1.0,
    "alphabeta-plain": 0.75,  # Knuth & Moore: about b^(3d/4) in a random order
    "alphabeta-ordered": 0.5,
    "engine": 0.5,
    "expectiminimax": 0.75,
}


def estimate(
    variant: str,
    depth: int,
    b: float,
    done: Sequence[Row] = (),
    speed: float | None = None,
    sizes: Sequence[float] | None = None,
) -> Estimate:
    """Guess nodes and seconds of `variant` at `depth` before running it.

    With two finished runs of the variant at smaller depths, the last one times the growth
    between them (per depth); with one, it times the growth of minimax's tree (`sizes`,
    from `tree_sizes`) or b, to the variant's exponent (1 for minimax, 1/2 for ordered
    alpha-beta); with none, minimax's estimated tree to that exponent (times 2), else the
    uniform tree.  Seconds use the variant's own measured speed (`measured_speed`: start-up
    left out), else `speed`, else DEFAULT_SPEED.
    """
    known = sizes is not None and depth < len(sizes)
    exponent = _EXPONENT.get(variant, 1.0)
    mine = sorted(
        (row for row in done if row.variant == variant and row.ran and row.depth < depth),
        key=lambda row: row.depth,
    )
    if len(mine) >= 2 and mine[-2].nodes > 0:
        last, before = mine[-1], mine[-2]
        growth = max(1.0, (last.nodes / before.nodes) ** (1.0 / (last.depth - before.depth)))
        nodes = last.nodes * growth ** (depth - last.depth)
        basis = f"growth x{growth:.1f} per depth from depth {last.depth}"
    elif mine and known and sizes is not None and sizes[mine[-1].depth] > 0:
        last = mine[-1]
        nodes = last.nodes * (sizes[depth] / sizes[last.depth]) ** exponent
        basis = f"the tree's growth from depth {last.depth}"
    elif mine:
        last = mine[-1]
        nodes = last.nodes * (b**exponent) ** (depth - last.depth)
        basis = f"branching {b:.1f} from depth {last.depth}"
    elif known and sizes is not None:
        tree = sizes[depth]
        nodes = tree if exponent == 1.0 else min(tree, 2.0 * tree**exponent)
        basis = "random paths through the tree"
    else:
        nodes = _tree(b**exponent, depth)
        basis = f"branching {b:.1f}"
    rate = measured_speed(mine) or speed or DEFAULT_SPEED
    return Estimate(nodes, nodes / max(rate, 1.0), basis)


def measured_speed(runs: Sequence[Row]) -> float | None:
    """Nodes a second of a variant's finished runs: the fastest of those that counted at
    least TIMED_NODES (None without one).  A run may pay what is done once (imports, loading
    a book or an engine, the first tables) and a tiny run mostly its fixed cost: both only
    slow a run down, so the fastest is the search's own speed (counting a start-up as speed
    once made a 20 ms search look like 24 s)."""
    rates = [
        row.nodes / row.elapsed for row in runs if row.nodes >= TIMED_NODES and row.elapsed > 0
    ]
    return max(rates, default=None)


TIMED_NODES = 100
"""A run with fewer nodes does not set a variant's speed (its fixed cost is most of it)."""


MINIMAL_TREE = "b^ceil(d/2)+b^floor(d/2)−1"
"""The label of alpha-beta's best case: the leaves of the minimal tree (Knuth & Moore)."""


def minimal_tree_leaves(b: float, d: int) -> float:
    """Leaves alpha-beta must evaluate with perfect ordering on a uniform tree of branching
    `b` and depth `d` (Knuth & Moore 1975): b^ceil(d/2) + b^floor(d/2) - 1."""
    return float(b ** ((d + 1) // 2) + b ** (d // 2) - 1)


def theory_curves(
    b: float, depths: Iterable[int], chance: bool = False
) -> dict[str, list[tuple[int, float]]]:
    """The reference curves: b^d (minimax's tree) and, without chance, alpha-beta's minimal
    tree (`minimal_tree_leaves`); with chance nodes no alpha-beta runs, so no such line."""
    points = list(depths)
    curves = {"b^d": [(d, float(b**d)) for d in points]}
    if not chance:
        curves[MINIMAL_TREE] = [(d, minimal_tree_leaves(b, d)) for d in points]
    return curves


def describe(guess: Estimate) -> str:
    """'estimated 41,000,000 nodes, about 11 min' for a skipped run."""
    return f"estimated {counted(round(guess.nodes), 'node')}, about {duration(guess.seconds)}"


def duration(seconds: float) -> str:
    """A rough human duration: '0.4 s', '12 s', '11 min', '3.2 h'."""
    if seconds < 1:
        return f"{seconds * 1000:.0f} ms"
    if seconds < 10:
        return f"{seconds:.1f} s"
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"
