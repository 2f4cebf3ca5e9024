"""Compare the search algorithms side by side on one position (issue 11).

Every variant that fits the game searches the same position at the same depth and
heuristic, and each gives one `Row`: the root value, the chosen move, nodes, leaves,
cut-offs, table hits, time, and nodes as a share of minimax's.  The variants:

* ``minimax``: the textbook reference (`ai.search`, algorithm "minimax");
* ``alphabeta-plain``: alpha-beta in the game's own move order, no table, no deepening;
* ``alphabeta-ordered``: the same plus move ordering (killer moves and the history heuristic);
* ``engine``: the full engine (`ai.search`, "alphabeta"): ordering, table, deepening;
* with chance, ``expectiminimax`` (`ai.search`, with its table) and
  ``expectiminimax-plain`` (no table).

The two plain alpha-betas and table-less expectiminimax live here, built on the same value
units as the engine (`ai.engine`), so every row's value is the same number.  Before a run,
`estimate` guesses its nodes from the game's real branching (b^d for minimax) or, once
smaller depths ran, from their measured growth, and its seconds from the measured speed:
a caller skips a run that would take too long.  Runs report progress and honour
`should_stop`.  No game is named here: everything comes from the state.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from ai.engine import (
    POLL_MASK,
    Context,
    SearchCancelled,
    SearchError,
    back_up,
    child_bound,
    terminal_units,
)
from ai.minimax import book_units
from ai.result import SearchProgress
from ai.search import MAX_DEPTH, heuristic_for, search
from ai.values import INF_UNITS, PROVEN_UNITS, STEP_UNITS, WIN_UNITS, to_value
from games.base import CHANCE, Move

__all__ = [
    "DEFAULT_SPEED",
    "Comparison",
    "Estimate",
    "Row",
    "Step",
    "Variant",
    "branching",
    "compare",
    "estimate",
    "parse_depths",
    "run_variant",
    "theory_curves",
    "tree_sizes",
    "variants_for",
]

DEFAULT_SPEED = 60_000.0
"""Nodes per second assumed before any run was timed (a pure-Python search on one core)."""


@dataclass(frozen=True, slots=True)
class Variant:
    """One algorithm with its settings, as a row of the comparison."""

    key: str
    title: str
    description: str
    chance: bool
    """True for the variants that search games with chance, False for those without."""


VARIANTS: tuple[Variant, ...] = (
    Variant("minimax", "minimax", "every node to the depth: the reference", False),
    Variant(
        "alphabeta-plain",
        "alpha-beta",
        "alpha-beta in the game's move order; no table, no deepening",
        False,
    ),
    Variant(
        "alphabeta-ordered",
        "alpha-beta + ordering",
        "alpha-beta with killer moves and the history heuristic; no table",
        False,
    ),
    Variant(
        "engine",
        "engine",
        "the full engine: ordering, transposition table, iterative deepening",
        False,
    ),
    Variant(
        "expectiminimax-plain",
        "expectiminimax",
        "chance nodes average their children; no table",
        True,
    ),
    Variant(
        "expectiminimax",
        "expectiminimax + table",
        "the engine's expectiminimax with its transposition table",
        True,
    ),
)
BY_KEY = {variant.key: variant for variant in VARIANTS}


def variants_for(state: Any) -> tuple[Variant, ...]:
    """The variants that can search this state's game (with or without chance)."""
    stochastic = bool(getattr(state, "STOCHASTIC", False))
    return tuple(variant for variant in VARIANTS if variant.chance == stochastic)


@dataclass(frozen=True, slots=True)
class Estimate:
    """A guess of a run's cost before it starts."""

    nodes: float
    seconds: float
    basis: str
    """How it was made ("branching 4.2" or "growth x3.1 from depth 5")."""


@dataclass(frozen=True, slots=True)
class Row:
    """One variant's search of the position at one depth (or why it was skipped)."""

    variant: str
    title: str
    depth: int
    value: float | None = None
    move: Move = None
    nodes: int = 0
    leaves: int = 0
    cutoffs: int = 0
    table_hits: int = 0
    elapsed: float = 0.0
    share: float | None = None
    """Nodes as a share of minimax's at the same depth (None: minimax did not run)."""
    skipped: str = ""
    """Why the run did not happen ("estimated 40,000,000 nodes, about 11 min"), or ''."""
    estimate: Estimate | None = None

    @property
    def ran(self) -> bool:
        """Whether this row holds a finished search."""
        return not self.skipped

    def as_dict(self, format_move: Callable[[Move], str] = str) -> dict[str, Any]:
        """Plain data for JSON (the move as text)."""
        data = asdict(self)
        data["move"] = None if self.move is None else format_move(self.move)
        return data


@dataclass(slots=True)
class Comparison:
    """Rows for every depth and variant, in run order."""

    branching: float
    rows: list[Row] = field(default_factory=list)

    def depths(self) -> list[int]:
        """The depths compared, in order."""
        return sorted({row.depth for row in self.rows})

    def at(self, depth: int) -> list[Row]:
        """The rows at one depth."""
        return [row for row in self.rows if row.depth == depth]

    def series(self) -> dict[str, list[tuple[int, int]]]:
        """Per variant title, (depth, nodes) of the runs that finished: the chart's points."""
        found: dict[str, list[tuple[int, int]]] = {}
        for row in self.rows:
            if row.ran:
                found.setdefault(row.title, []).append((row.depth, row.nodes))
        return found


# ------------------------------------------------------------------ parsing and estimates
def parse_depths(text: str) -> list[int]:
    """'7' or '1-7' (or '3,5,7') as a list of depths; ValueError with a one-line message."""
    depths: list[int] = []
    for part in text.replace(" ", "").split(","):
        low, dash, high = part.partition("-")
        if not low.isdigit() or (dash and not high.isdigit()):
            raise ValueError(f"depth must be a number or a range like 1-7, not {text!r}")
        first, last = int(low), int(high) if dash else int(low)
        if not 1 <= first <= last <= MAX_DEPTH:
            raise ValueError(f"depths must run upwards from 1 to {MAX_DEPTH}, not {part!r}")
        depths.extend(range(first, last + 1))
    return sorted(set(depths))


def _children(state: Any) -> int:
    """A decision's children, counting each chance outcome behind a move as one."""
    total = 0
    for move in state.legal_moves():
        child = state.play(move)
        total += len(child.chance_outcomes()) if child.to_move == CHANCE else 1
    return total


def branching(state: Any, playouts: int = 12, plies: int = 12, seed: int = 0) -> float:
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


def tree_sizes(state: Any, depth: int, playouts: int = 300, seed: int = 0) -> list[float]:
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
    uniform tree.  Seconds use the variant's own measured speed, else `speed`, else
    DEFAULT_SPEED.
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
    timed = [row for row in mine if row.elapsed > 0.05]
    rate = timed[-1].nodes / timed[-1].elapsed if timed else (speed or DEFAULT_SPEED)
    return Estimate(nodes, nodes / max(rate, 1.0), basis)


def theory_curves(b: float, depths: Iterable[int]) -> dict[str, list[tuple[int, float]]]:
    """The reference curves b^d (minimax) and b^(d/2) (alpha-beta, perfect ordering)."""
    points = list(depths)
    return {
        "b^d": [(d, b**d) for d in points],
        "b^(d/2)": [(d, b ** (d / 2)) for d in points],
    }


# ------------------------------------------------------------------ running one variant
def run_variant(
    state: Any,
    variant: str,
    depth: int,
    heuristic: str | None = None,
    seed: int = 0,
    *,
    progress: Callable[[SearchProgress], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> Row:
    """Search `state` with one variant at `depth`; the row has no share yet (see `compare`).

    :raises SearchError: a variant that does not fit the game, a finished game, a chance
        node at the root, a bad depth or heuristic.
    :raises SearchCancelled: `should_stop()` returned True.
    """
    chosen = BY_KEY.get(variant)
    if chosen is None:
        raise SearchError(f"unknown variant {variant!r}; choose one of: {', '.join(BY_KEY)}")
    if chosen not in variants_for(state):
        raise SearchError(f"{chosen.title} does not fit this game")
    if not 1 <= depth <= MAX_DEPTH:
        raise SearchError(f"depth must be 1 to {MAX_DEPTH}, not {depth}")
    if state.is_terminal():
        raise SearchError("the game is over: there is no move to compare")
    if state.to_move == CHANCE:
        raise SearchError("the dice are rolling: compare at a player's decision")
    if variant in ("minimax", "engine", "expectiminimax"):
        algorithm = "alphabeta" if variant == "engine" else variant

        def relay(snapshot: SearchProgress) -> None:
            # The engine polls per 1024 nodes of one subtree, so a search of many small
            # subtrees may never poll: its progress reports are checked for a stop too.
            if should_stop is not None and should_stop():
                raise SearchCancelled("search cancelled")
            if progress is not None:
                progress(snapshot)

        result = search(
            state,
            algorithm,
            depth,
            heuristic,
            seed=seed,
            progress=relay,
            should_stop=should_stop,
        )
        return Row(
            variant,
            chosen.title,
            depth,
            result.value,
            result.move,
            result.nodes,
            result.leaf_evaluations,
            result.cutoffs,
            result.table_hits,
            result.elapsed,
        )
    ctx = Context(heuristic_for(state, heuristic), None, seed, should_stop, progress)
    ctx.depth = depth
    if state.STOCHASTIC:
        ctx.for_chance_game()
    if variant == "expectiminimax-plain":
        values = _expectiminimax_root(state, depth, ctx)
    else:
        values = _alphabeta_root(state, depth, ctx, ordered=variant == "alphabeta-ordered")
    best = max(values.values())
    move = next(m for m, v in values.items() if v == best)
    ctx.best_move, ctx.best_value = move, best
    ctx.report()
    return Row(
        variant,
        chosen.title,
        depth,
        to_value(best),
        move,
        ctx.nodes,
        ctx.leaf_evaluations,
        ctx.cutoffs,
        ctx.table_hits,
        ctx.elapsed(),
    )


def _alphabeta_root(state: Any, depth: int, ctx: Context, ordered: bool) -> dict[Move, float]:
    """Fail-soft negamax alpha-beta without table or deepening; values in units.

    The root's moves are searched with the window above the best so far, so only the best
    move's value is exact (the others are upper bounds): the root value is minimax's, and
    the move is the first best one in search order (minimax breaks ties by its seed).
    `ordered` adds two killer moves per ply and the history heuristic.
    """
    killers: list[list[Move]] = [[] for _ in range(depth + 2)]
    history: dict[Move, int] = {}
    poll = ctx.poll
    leaf = ctx.leaf
    book = hasattr(state, "book_value")

    def order(node: Any, ply: int) -> Sequence[Move]:
        moves: Sequence[Move] = node.legal_moves()
        if not ordered or len(moves) < 2:
            return moves
        ranked = sorted(moves, key=lambda m: history.get(m, 0), reverse=True)
        for killer in reversed(killers[ply]):
            if killer in ranked:
                ranked.remove(killer)
                ranked.insert(0, killer)
        return ranked

    def value(node: Any, remaining: int, alpha: int, beta: int, ply: int) -> int:
        ctx.nodes += 1
        if not ctx.nodes & POLL_MASK:
            poll()
        if node.is_terminal():
            return terminal_units(node)
        if book:  # an opening book's exact value is a solved leaf, as in every search
            known = book_units(node)
            if known is not None:
                return known
        if remaining == 0:
            return leaf(node)
        best = -INF_UNITS
        for move in order(node, ply):
            score = back_up(
                value(
                    node.play(move), remaining - 1, child_bound(beta), child_bound(alpha), ply + 1
                )
            )
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        ctx.cutoffs += 1
                        if ordered:
                            row = killers[ply]
                            if move not in row:
                                row.insert(0, move)
                                del row[2:]
                            history[move] = history.get(move, 0) + remaining * remaining
                        break
        return best

    ctx.nodes += 1
    values: dict[Move, float] = {}
    alpha = -INF_UNITS
    for move in order(state, 0):
        score = back_up(value(state.play(move), depth - 1, -INF_UNITS, child_bound(alpha), 1))
        values[move] = score
        alpha = max(alpha, score)
    return values


def _expectiminimax_root(state: Any, depth: int, ctx: Context) -> dict[Move, float]:
    """Expectiminimax without a table (the engine's rules otherwise); values in units."""
    poll = ctx.poll
    leaf = ctx.leaf_exact if state.STOCHASTIC else ctx.leaf
    decay = not state.STOCHASTIC
    book = hasattr(state, "book_value")

    def convert(value: float, same_player: bool) -> float:
        if same_player:
            return value
        if decay and value > PROVEN_UNITS:
            return -value + STEP_UNITS
        if decay and value < -PROVEN_UNITS:
            return -value - STEP_UNITS
        return -value

    def node_value(node: Any, remaining: int) -> float:
        ctx.nodes += 1
        if not ctx.nodes & POLL_MASK:
            poll()
        if node.is_terminal():
            return float(node.utility(node.player)) * WIN_UNITS
        if book:
            known = book_units(node)
            if known is not None:
                return float(known)
        player = node.player
        if node.to_move == CHANCE:
            total = 0.0
            for outcome, probability in node.chance_outcomes():
                child = node.play(outcome)
                total += probability * convert(node_value(child, remaining), child.player == player)
            return total
        if remaining == 0:
            return leaf(node)
        best = -3.0 * WIN_UNITS
        for move in node.legal_moves():
            child = node.play(move)
            best = max(best, convert(node_value(child, remaining - 1), child.player == player))
        return best

    ctx.nodes += 1
    values: dict[Move, float] = {}
    for move in state.legal_moves():
        child = state.play(move)
        values[move] = convert(node_value(child, depth - 1), child.player == state.player)
    return values


# ------------------------------------------------------------------ the whole comparison
@dataclass(frozen=True, slots=True)
class Step:
    """Progress of a comparison: which run, of how many, and the live search snapshot."""

    index: int
    total: int
    variant: str
    depth: int
    nodes: int
    elapsed: float
    estimate: Estimate


def with_shares(rows: Sequence[Row]) -> list[Row]:
    """The rows with `share` set: nodes over minimax's nodes at the same depth."""
    reference = {row.depth: row.nodes for row in rows if row.variant == "minimax" and row.ran}
    if not reference:
        reference = {
            row.depth: row.nodes
            for row in rows
            if row.variant == "expectiminimax-plain" and row.ran
        }
    out = []
    for row in rows:
        base = reference.get(row.depth)
        share = row.nodes / base if base and row.ran else None
        out.append(_replace(row, share=share))
    return out


def _replace(row: Row, **changes: Any) -> Row:
    """A copy of a row with some fields changed."""
    data = {name: getattr(row, name) for name in Row.__slots__}
    data.update(changes)
    return Row(**data)


def compare(
    state: Any,
    depths: Sequence[int],
    heuristic: str | None = None,
    variants: Sequence[str] | None = None,
    seed: int = 0,
    *,
    max_seconds: float | None = None,
    skip: Callable[[str, int, Estimate], bool] | None = None,
    progress: Callable[[Step], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> Comparison:
    """Run every variant (or those named) at every depth, smallest depth first.

    A run is skipped when `skip(variant, depth, estimate)` says so, or (without `skip`)
    when its estimate exceeds `max_seconds`; a variant skipped at one depth is skipped at
    the deeper ones too.

    :raises SearchError: see `run_variant`.
    :raises SearchCancelled: `should_stop()` returned True.
    """
    fitting = [variant.key for variant in variants_for(state)]
    chosen = fitting if variants is None else [key for key in fitting if key in variants]
    if variants is not None:
        unknown = [key for key in variants if key not in fitting]
        if unknown:
            raise SearchError(
                f"variant {unknown[0]!r} does not fit this game; choose from: {', '.join(fitting)}"
            )
    heuristic_for(state, heuristic)  # an unknown heuristic fails before any run
    b = branching(state)
    sizes = tree_sizes(state, max(depths, default=1))
    result = Comparison(b)
    total = len(chosen) * len(depths)
    given_up: set[str] = set()
    for depth in sorted(depths):
        for key in chosen:
            guess = estimate(key, depth, b, result.rows, sizes=sizes)
            title = BY_KEY[key].title
            too_long = (
                key in given_up
                or (skip(key, depth, guess) if skip is not None else False)
                or (skip is None and max_seconds is not None and guess.seconds > max_seconds)
            )
            if too_long:
                given_up.add(key)
                result.rows.append(Row(key, title, depth, skipped=describe(guess), estimate=guess))
                continue

            def report(
                snapshot: SearchProgress,
                key: str = key,
                depth: int = depth,
                index: int = len(result.rows),
                guess: Estimate = guess,
            ) -> None:
                if progress is not None:
                    progress(
                        Step(index, total, key, depth, snapshot.nodes, snapshot.elapsed, guess)
                    )

            row = run_variant(
                state,
                key,
                depth,
                heuristic,
                seed,
                progress=report if progress is not None else None,
                should_stop=should_stop,
            )
            result.rows.append(_replace(row, estimate=guess))
    result.rows = with_shares(result.rows)
    return result


def describe(guess: Estimate) -> str:
    """'estimated 41,000,000 nodes, about 11 min' for a skipped run."""
    return f"estimated {round(guess.nodes):,} nodes, about {duration(guess.seconds)}"


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
