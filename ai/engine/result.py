"""What every search returns, and the progress it reports while it runs."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from plyground.ai.evaluation.provenance import Evaluation, Kind
from plyground.games.base import Move


@dataclass(frozen=True, slots=True)
class SearchProgress:
    """A snapshot sent while a search runs (after each iteration and every few thousand nodes)."""

    depth: int
    nodes: int
    elapsed: float
    best_move: Move | None
    value: float | None


@dataclass(frozen=True, slots=True)
class Iteration:
    """One finished pass of iterative deepening: its depth ("solve" for an exact solve), the
    nodes counted when it ended (all passes so far) and the seconds since the search began."""

    depth: int | str
    nodes: int
    elapsed: float


@dataclass(frozen=True, slots=True)
class MoveStatistics:
    """One root move's statistics in Monte Carlo tree search, as the tree holds them when the
    search ends."""

    visits: int
    """Iterations that passed through the move (its playouts and those below it)."""
    mean: float
    """The mean result of those iterations for the player to move at the root: 1 a win, 0.5
    a draw, 0 a loss (a playout cut off early counts the heuristic's judgement)."""
    ucb_term: float
    """The exploration term UCB1 adds to the mean, c * sqrt(ln N / n), when the search ended."""
    share: float
    """The move's visits as a share of the root's: the share of the budget it took."""
    proven: bool = False
    """The move's subtree reached the end of the game everywhere that counts (MCTS-solver)."""


@dataclass(frozen=True, slots=True)
class PlayoutDetails:
    """What Monte Carlo tree search adds to a result: its counters (iterations, playouts and
    tree nodes, as `ai.textbook.counts.MCTS_DEFINITIONS` defines them) and each root move's
    statistics.  The result's `nodes` are the tree nodes this search added, its `leaves` its
    iterations (each ends at one position valued) and `leaf_evaluations` the playouts the
    heuristic cut off."""

    iterations: int
    """Iterations run by this search (selection, expansion, playout, back-up)."""
    playouts: int
    """Games played on from a new node (the rest reached a finished or proven position)."""
    tree_nodes: int
    """Positions the tree holds at the end, the root included (some kept from earlier moves)."""
    root_visits: int
    """The root's visits: this search's iterations plus any kept with the tree."""
    exploration: float
    """The exploration constant c of UCB1."""
    playout_policy: str
    """How the playouts chose their moves ("random", "heuristic")."""
    moves: dict[Any, MoveStatistics] = field(default_factory=dict)
    kept: int = 0
    """Visits the root already had from the tree kept since an earlier move."""
    proven: bool = False
    """The root's value is proven: the tree reached the end everywhere that decides it."""


@dataclass(slots=True)
class SearchDetails:
    """What a search adds to its counts, read by the reports, the window and the benchmarks."""

    iterations: list[Iteration] = field(default_factory=list)
    bounds: list[Move] = field(default_factory=list)
    """Root moves whose values are only bounds (a solve that proved the best move alone)."""
    table_entries: int = 0
    pv_stops_early: bool = False
    """The principal variation ends before the game or the depth does (a table's answer)."""
    pv_ends_in_book: bool = False
    pv_book_value: tuple[int, int] | None = None
    """Where the line stops at a position the opening book answered: its (low, high) units."""
    proof_nodes: int | None = None
    """Nodes spent proving a move keeps the root's known value (`ai.engine.proof`)."""
    exact_engine: str | None = None
    """The game's exact engine that solved values ("compiled"), or None."""
    engine_start_up: float | None = None
    """Seconds the exact engine took to load, set aside from the search's time."""
    minimax_tree: float | None = None
    """Nodes plain minimax would visit at the same depth (counted or sampled from the game)."""
    chance_root: bool = False
    """The root is a chance node: the values are its outcomes'."""
    playouts: PlayoutDetails | None = None
    """Monte Carlo tree search's counts and each root move's statistics (None for the others)."""


@dataclass(frozen=True, slots=True)
class SearchResult:
    """The outcome of one search, read by the analysis panel, hints, `analyze` and `bench`.

    `value` and `move_values` are from the point of view of the player to move at the
    root (`player`).  `move_values` maps every legal root move to its `Evaluation`: the
    value with its kind (exact, lower or upper bound, estimate) and source
    (ai.evaluation.provenance);
    moves that a budgeted search did not finish keep the deepest finished iteration's.
    `evaluation` is the root's (the chosen move's, ai.engine.move_provenance.root_evaluation)
    and
    `value` its number.

    `nodes`, `leaves`, `cutoffs` and `table_hits` count as `ai.textbook.counts` defines them
    (the same words in every surface); `leaf_evaluations` is the part of `leaves` that the
    heuristic estimated.  A game's compiled engine counts nodes only (`details.exact_engine`).
    """

    move: Move
    value: float
    move_values: dict[Any, Evaluation]
    pv: tuple[Move, ...]
    depth: int
    nodes: int
    leaves: int
    leaf_evaluations: int
    cutoffs: int
    table_hits: int
    elapsed: float
    algorithm: str
    heuristic: str
    player: int
    evaluation: Evaluation
    complete: bool = True
    """False when a time limit or a stop request cut the deepest iteration short."""
    details: SearchDetails = field(default_factory=SearchDetails)
    """What the algorithm adds: its iterations (time to depth), bounds, the table's size, the
    game's exact engine, the size of minimax's tree, ..."""

    @property
    def values(self) -> dict[Any, float]:
        """Every root move's value as a plain number."""
        return {move: ev.value for move, ev in self.move_values.items()}

    @property
    def exact(self) -> bool:
        """Whether the root's value is the game's true value and no root move's value is an
        estimate (each is exact or a true bound), derived from the per-move provenance;
        surfaces render each value's own kind."""
        return self.evaluation.is_exact and not any(
            ev.kind is Kind.ESTIMATE for ev in self.move_values.values()
        )

    @property
    def nodes_per_second(self) -> float:
        """Search speed; 0 when too quick to time."""
        return self.nodes / self.elapsed if self.elapsed > 0 else 0.0
