"""Compare the search algorithms side by side on one position.

Every variant that fits the game searches the same position at the same depth and
heuristic, and each gives one `Row`: the root value, the chosen move, nodes, leaves,
cut-offs, table hits, time, and nodes as a share of minimax's.  The variants:

* ``minimax``: the textbook reference;
* ``alphabeta-plain``: alpha-beta in the game's own move order, no table, no deepening;
* ``alphabeta-ordered``: the same plus move ordering (killer moves and the history heuristic);
* ``engine``: the full engine (`ai.engine.search`, "alphabeta"): ordering, table, deepening;
* with chance, ``expectiminimax`` (`ai.engine.search`, with its table) and
  ``expectiminimax-plain`` (the textbook's, no table).

The textbook rows (`ai.compare.searches`) run the functions of `ai.textbook` that the
explorer and `trace` run, counted by the same `ai.textbook.counts.Counter`, so they count
exactly what `trace` counts; their values are on the engine's scale, so every row's value
is the same number.  Every row counts by `ai.textbook.counts`' definitions, the engine rows
too (their searches differ: ordering, a table, every pass of iterative deepening).  Shares
never exceed 100%: a row that visited more nodes than minimax says "more".

Before a run, `estimate` (`ai.compare.estimate`) guesses its nodes from the game's real
branching (b^d for minimax) or, once smaller depths ran, from their measured growth,
and its seconds from the measured speed: a caller skips a run that would take too long.
Runs report progress and honour `should_stop`.  No game is named here: everything comes
from the state.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from plyground.ai.compare.estimate import (
    DEFAULT_SPEED,
    Estimate,
    branching,
    describe,
    duration,
    estimate,
    theory_curves,
    tree_sizes,
)
from plyground.ai.compare.exact import ExactValues, exact_values
from plyground.ai.compare.searches import TEXTBOOK_ROWS, run_textbook
from plyground.ai.engine.bookkeeping import MoveMarks, SearchCancelled, SearchError
from plyground.ai.engine.mcts.settings import DEFAULT_ITERATIONS, MCTS, MonteCarlo
from plyground.ai.engine.move_provenance import judge
from plyground.ai.engine.result import SearchProgress
from plyground.ai.engine.search import MAX_DEPTH, DepthLimited, SearchConfig, heuristic_for, search
from plyground.ai.evaluation.provenance import Evaluation, Kind, Source
from plyground.ai.evaluation.values import score_value, signed, to_value
from plyground.ai.evaluation.wording import board_text, value_text
from plyground.ai.textbook.counts import share_of_minimax
from plyground.games.base import CHANCE, Move, State, capabilities

__all__ = [
    "DEFAULT_SPEED",
    "ENGINE_NOTE",
    "Comparison",
    "Estimate",
    "Row",
    "Step",
    "Variant",
    "branching",
    "compare",
    "describe",
    "duration",
    "estimate",
    "parse_depths",
    "run_mcts",
    "run_variant",
    "theory_curves",
    "theory_note",
    "tree_sizes",
    "variants_for",
    "with_exact",
]


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


def variants_for(state: State[Any]) -> tuple[Variant, ...]:
    """The variants that can search this state's game (with or without chance)."""
    stochastic = state.STOCHASTIC
    return tuple(variant for variant in VARIANTS if variant.chance == stochastic)


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
    """Nodes as a share of minimax's at the same depth (`ai.textbook.counts.SHARE`; None:
    minimax did not run, or this search visited more nodes than minimax)."""
    skipped: str = ""
    """Why the run did not happen ("estimated 40,000,000 nodes, about 11 min"), or ''."""
    estimate: Estimate | None = None
    kind: str = ""
    """The root value's kind (exact, lower, upper, estimate: ai.evaluation.provenance), '' if
    skipped."""
    source: str = ""
    """What produced the root value (search, heuristic, ...: ai.evaluation.provenance)."""
    over_minimax: bool = False
    """The search visited more nodes than minimax at the same depth (the engine can: see
    `ENGINE_NOTE`): no share then, `share_text` says so in words."""
    score: float | None = None
    """In a game of scores, the root value in the game's own numbers (every row the same)."""
    playouts: int | None = None
    """Monte Carlo tree search's row: the playouts its value is the mean of."""
    exact: Evaluation | None = None
    """The exact value of the row's move where Plyground knows it (`ai.compare.exact`), from
    the point of view of the player to move at the position; None: not known."""

    @property
    def share_text(self) -> str:
        """The share as the tables show it: '12.5%', 'more' (than minimax) or ''."""
        if self.share is not None:
            return f"{self.share:.1%}"
        return "more" if self.over_minimax else ""

    @property
    def ran(self) -> bool:
        """Whether this row holds a finished search."""
        return not self.skipped

    @property
    def evaluation(self) -> Evaluation | None:
        """The root value with its provenance (None: no value, or no kind)."""
        if self.value is None or not self.kind:
            return None
        return Evaluation(
            self.value,
            Kind(self.kind),
            Source(self.source),
            depth=self.depth or None,
            score=self.score,
            playouts=self.playouts,
        )

    def value_text(self, stochastic: bool) -> str:
        """The root value in the one wording of board labels ('est. +0.18', 'win in 7',
        '62%'); a value without a kind as a bare number ('+0.500'), none as ''."""
        evaluation = self.evaluation
        if evaluation is None:
            return "" if self.value is None else signed(self.value, 3)
        if evaluation.source is Source.PLAYOUTS:
            return value_text(evaluation, stochastic)  # '○ 0.62 from 4,000 playouts'
        return board_text(evaluation, stochastic)

    def exact_text(self, stochastic: bool) -> str:
        """The exact value of the row's move with what gave it ('draw (solver)', 'win in 7
        (book)', '55.0% to win (table)'), or 'not known'."""
        if self.exact is None:
            return "not known" if self.ran else ""
        return f"{value_text(self.exact, stochastic)} ({self.exact.source.value})"

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
    chance: bool = False
    """The game has chance nodes (no alpha-beta line in the theory curves)."""
    mcts: Row | None = None
    """Monte Carlo tree search's row (it has no depth: one run beside every depth's rows),
    or None when it was not asked for."""
    exact: ExactValues | None = None
    """Every root move's exact value where Plyground knows it (`ai.compare.exact`)."""

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


ENGINE_NOTE = (
    "the engine can count more nodes than plain alpha-beta (even than minimax: 'more'): "
    "iterative deepening searches depths 1 to d again, and it values every root move exactly "
    "(the board's labels need them) where plain alpha-beta only proves the best; it counts "
    "by the same definitions."
)
"""Why the engine's row may exceed plain alpha-beta's (the window and `compare` say it)."""


def theory_note(b: float, chance: bool) -> str:
    """The chart's note: what the faint lines are, and why the engine may count more."""
    if chance:
        return (
            f"Faint line: b^d, the whole tree for the measured branching b = {b:.1f}. No "
            "alpha-beta line: chance nodes average every child, so there is no minimal tree."
        )
    return (
        f"Faint lines for b = {b:.1f}: b^d (minimax's tree) and b^ceil(d/2)+b^floor(d/2)−1 "
        f"(leaves of alpha-beta's minimal tree, Knuth & Moore). Note: {ENGINE_NOTE}"
    )


# ------------------------------------------------------------------ parsing
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


# ------------------------------------------------------------------ running one variant
def run_variant(
    state: State[Any],
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
    chosen = _checked_variant(state, variant, depth)
    if variant in TEXTBOOK_ROWS:
        return _run_textbook(state, chosen, depth, heuristic, progress, should_stop)
    return _run_engine(state, chosen, depth, heuristic, seed, progress, should_stop)


def _checked_variant(state: State[Any], variant: str, depth: int) -> Variant:
    """The variant named, once it fits the game, the depth and the position."""
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
    return chosen


def _run_engine(
    state: State[Any],
    chosen: Variant,
    depth: int,
    heuristic: str | None,
    seed: int,
    progress: Callable[[SearchProgress], None] | None,
    should_stop: Callable[[], bool] | None,
) -> Row:
    """minimax, the engine or expectiminimax with its table: one `ai.engine.search` call."""
    variant = chosen.key
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
        SearchConfig(DepthLimited(algorithm, depth, heuristic), seed=seed, book=False),
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
        result.leaves,
        result.cutoffs,
        result.table_hits,
        result.elapsed,
        kind=result.evaluation.kind.value,
        source=result.evaluation.source.value,
        score=result.evaluation.score,
    )


def _run_textbook(
    state: State[Any],
    chosen: Variant,
    depth: int,
    heuristic: str | None,
    progress: Callable[[SearchProgress], None] | None,
    should_stop: Callable[[], bool] | None,
) -> Row:
    """A textbook row (`ai.compare.searches`): the textbook function, counted by the
    `ai.textbook.counts.Counter` the trace counts with."""
    run = run_textbook(state, chosen.key, depth, heuristic, progress, should_stop)
    ctx, counts = run.ctx, run.watch.counts
    judged = judge(state, ctx, run.value, MoveMarks(ctx.estimates_used(), ctx.book_hits), depth)
    scores = capabilities(state.game).utility_is_value  # the textbook keeps a tree's numbers
    return Row(
        chosen.key,
        chosen.title,
        depth,
        score_value(run.value) if scores else to_value(run.value),
        run.move,
        counts.nodes,
        counts.leaves,
        counts.cutoffs,
        counts.table_hits,
        ctx.elapsed(),
        kind=judged.kind.value,
        source=judged.source.value,
        score=float(run.value) if scores else None,
    )


def run_mcts(
    state: State[Any],
    settings: MonteCarlo,
    heuristic: str | None = None,
    seed: int = 0,
    *,
    progress: Callable[[SearchProgress], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> Row:
    """Monte Carlo tree search's row: its move, that move's mean result from its playouts
    (an estimate, or exact where the tree proved it), the tree's nodes, its time.  One
    seed, one tree: the same row every run.

    :raises SearchError: settings out of range, a finished game, a chance node at the root.
    :raises SearchCancelled: `should_stop()` returned True.
    """
    if state.is_terminal():
        raise SearchError("the game is over: there is no move to compare")
    if state.to_move == CHANCE:
        raise SearchError("the dice are rolling: compare at a player's decision")
    result = search(
        state,
        SearchConfig(replace(settings, heuristic=heuristic), seed=seed),
        progress=progress,
        should_stop=should_stop,
    )
    evaluation = result.evaluation
    playouts = result.details.playouts
    return Row(
        MCTS,
        mcts_title(settings),
        0,
        result.value,
        result.move,
        result.nodes,
        result.leaves,
        elapsed=result.elapsed,
        kind=evaluation.kind.value,
        source=evaluation.source.value,
        playouts=evaluation.playouts if playouts is None else playouts.iterations,
    )


def mcts_title(settings: MonteCarlo) -> str:
    """MCTS's row title with its budget: 'MCTS, 10,000 iterations'."""
    return f"MCTS, {settings.iterations or DEFAULT_ITERATIONS:,} iterations"


def with_exact(rows: Sequence[Row], exact: ExactValues | None) -> list[Row]:
    """The rows with `exact` set to the exact value of each row's move (where known)."""
    if exact is None:
        return list(rows)
    return [_replace(row, exact=exact.of(row.move)) if row.ran else row for row in rows]


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
    """The rows with `share` set (`ai.textbook.counts.share_of_minimax`): nodes over
    minimax's nodes at the same depth, never above 100%."""
    reference = {row.depth: row.nodes for row in rows if row.variant == "minimax" and row.ran}
    if not reference:
        reference = {
            row.depth: row.nodes
            for row in rows
            if row.variant == "expectiminimax-plain" and row.ran
        }
    out = []
    for row in rows:
        base = reference.get(row.depth) if row.ran else None
        share = share_of_minimax(row.nodes, base)
        over = bool(base) and share is None
        out.append(_replace(row, share=share, over_minimax=over))
    return out


def _replace(row: Row, **changes: Any) -> Row:
    """A copy of a row with some fields changed."""
    data = {name: getattr(row, name) for name in Row.__slots__}
    data.update(changes)
    return Row(**data)


def planned_seconds(state: State[Any], depths: Sequence[int], max_seconds: float | None) -> float:
    """Estimated seconds of every run `compare(state, depths, max_seconds=...)` would make
    (runs estimated above `max_seconds` are skipped, as `compare` skips them), before any
    runs: the estimates a finished run would refine are taken from the tree alone."""
    b = branching(state)
    sizes = tree_sizes(state, max(depths, default=1))
    total = 0.0
    for key in (variant.key for variant in variants_for(state)):
        for depth in sorted(depths):
            seconds = estimate(key, depth, b, sizes=sizes).seconds
            if max_seconds is not None and seconds > max_seconds:
                break  # skipped here, so at every deeper depth too
            total += seconds
    return total


def compare(
    state: State[Any],
    depths: Sequence[int],
    heuristic: str | None = None,
    variants: Sequence[str] | None = None,
    seed: int = 0,
    *,
    max_seconds: float | None = None,
    skip: Callable[[str, int, Estimate], bool] | None = None,
    progress: Callable[[Step], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
    mcts: MonteCarlo | None = None,
    exact_seconds: float | None = None,
) -> Comparison:
    """Run every variant (or those named) at every depth, smallest depth first; then, with
    `mcts`, Monte Carlo tree search on those settings (`run_mcts`); with `exact_seconds`,
    every row's move gets its exact value where the game knows it within those seconds
    (`ai.compare.exact`).

    A run is skipped when `skip(variant, depth, estimate)` says so, or (without `skip`)
    when its estimate exceeds `max_seconds`; a variant skipped at one depth is skipped at
    the deeper ones too.

    :raises SearchError: see `run_variant`.
    :raises SearchCancelled: `should_stop()` returned True.
    """
    chosen = _chosen(state, variants)
    heuristic_for(state, heuristic)  # an unknown heuristic fails before any run
    b = branching(state)
    sizes = tree_sizes(state, max(depths, default=1))
    result = Comparison(b, chance=state.STOCHASTIC)
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
    _add_mcts_and_exact(
        result, state, heuristic, seed, mcts, exact_seconds, progress, should_stop, total
    )
    return result


def _chosen(state: State[Any], variants: Sequence[str] | None) -> list[str]:
    """The variants to run: those named (each must fit the game), or every one that fits."""
    fitting = [variant.key for variant in variants_for(state)]
    if variants is None:
        return fitting
    unknown = [key for key in variants if key not in fitting]
    if unknown:
        raise SearchError(
            f"variant {unknown[0]!r} does not fit this game; choose from: {', '.join(fitting)}"
        )
    return [key for key in fitting if key in variants]


def _add_mcts_and_exact(
    result: Comparison,
    state: State[Any],
    heuristic: str | None,
    seed: int,
    mcts: MonteCarlo | None,
    exact_seconds: float | None,
    progress: Callable[[Step], None] | None,
    should_stop: Callable[[], bool] | None,
    total: int,
) -> None:
    """`compare`'s last steps: MCTS's row (with `mcts`), then each row's exact value (with
    `exact_seconds`)."""
    if mcts is not None:
        if progress is not None:
            guess = Estimate(float(mcts.iterations or DEFAULT_ITERATIONS), 0.0, "iterations")

            def report_mcts(snapshot: SearchProgress) -> None:
                assert progress is not None
                progress(Step(total, total + 1, MCTS, 0, snapshot.nodes, snapshot.elapsed, guess))

        result.mcts = run_mcts(
            state,
            mcts,
            heuristic,
            seed,
            progress=report_mcts if progress is not None else None,
            should_stop=should_stop,
        )
    if exact_seconds is not None:
        result.exact = exact_values(state, exact_seconds, should_stop)
        result.rows = with_exact(result.rows, result.exact)
        if result.mcts is not None:
            result.mcts = with_exact([result.mcts], result.exact)[0]
