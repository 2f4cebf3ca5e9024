"""How often Monte Carlo tree search picks an optimal move as its budget grows, beside
alpha-beta given the same time.

The positions: the position asked and positions reached from it by seeded random play
(`positions_from`), each kept only where every root move's exact value is known
(`ai.compare.exact`) and the choice matters (not every move is optimal).  A set of
positions, not seeds on one position: alpha-beta on one position does the same thing every
run, so its curve over seeds would be all or nothing; over positions both curves are the
share of the same decisions.

At each budget (iterations, `BUDGETS`), on each position, MCTS runs with that many
iterations (seed 0: one seed, one tree) and alpha-beta (the engine, iterative deepening to
no depth limit, no opening book) runs with MCTS's seconds there as its time limit.  A choice
is optimal when its exact value equals the best move's (`ExactValues.optimal`: a quicker
win beats a slower one).  Each point is a count of positions over the positions kept: MCTS's
counts are the same every run; alpha-beta's depend on the machine's speed (its clock).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from plyground.ai.compare.exact import ExactValues, exact_values
from plyground.ai.engine.mcts.settings import MonteCarlo
from plyground.ai.engine.search import DepthLimited, SearchConfig, search
from plyground.games.base import CHANCE, Move, State

BUDGETS = (100, 300, 1_000, 3_000)
"""MCTS's iterations at each point of the curve (the default)."""
POSITIONS = 6
"""Positions the curve is measured on (the default)."""
MAX_PLIES = 6
"""Random moves played at most from the position asked to reach another."""
SAMPLE_TRIES = 40
"""Positions tried at most to find `POSITIONS` whose exact values are known."""
POSITION_SECONDS = 3.0
"""The most a solve may take to know one position's exact values."""


@dataclass(frozen=True, slots=True)
class CurvePoint:
    """One budget: how many of the positions each search answered with an optimal move."""

    iterations: int
    positions: int
    """The denominator: positions measured (each with its exact values known)."""
    mcts_optimal: int
    """Positions where MCTS with `iterations` chose an optimal move."""
    alphabeta_optimal: int
    """Positions where alpha-beta, given MCTS's seconds there, chose an optimal move."""
    seconds: float
    """MCTS's mean seconds a position at this budget: alpha-beta's mean time limit."""

    @property
    def mcts_share(self) -> float:
        """MCTS's share of the positions answered optimally (0 to 1)."""
        return self.mcts_optimal / self.positions if self.positions else 0.0

    @property
    def alphabeta_share(self) -> float:
        """Alpha-beta's share of the positions answered optimally (0 to 1)."""
        return self.alphabeta_optimal / self.positions if self.positions else 0.0


@dataclass(slots=True)
class BudgetCurve:
    """The curve's points, and the positions (their moves from the start) measured."""

    points: list[CurvePoint] = field(default_factory=list)
    positions: list[tuple[Move, ...]] = field(default_factory=list)
    """Each position measured, as the moves (dice included) from the position asked."""
    unknown: int = 0
    """Positions tried whose exact values were not known in time (left out)."""
    rival: str = "alpha-beta"
    """The depth-limited search beside MCTS: alpha-beta, or expectiminimax in a game with
    chance."""


def positions_from(
    state: State[Any],
    count: int = POSITIONS,
    seed: int = 0,
    seconds: float = POSITION_SECONDS,
    should_stop: Callable[[], bool] | None = None,
) -> tuple[list[tuple[tuple[Move, ...], State[Any], ExactValues]], int]:
    """Up to `count` positions, `state` first, then positions reached from it by seeded
    random play (1 to `MAX_PLIES` moves, dice at random), each with its exact values,
    each a decision that matters (not every move optimal), each with the moves that reach
    it; and how many positions tried had no exact values in time."""
    rng = random.Random(seed)
    found: list[tuple[tuple[Move, ...], State[Any], ExactValues]] = []
    seen: set[Any] = set()
    unknown = 0
    for attempt in range(SAMPLE_TRIES):
        if len(found) >= count:
            break
        moves, node = ((), state) if attempt == 0 else _walk(state, rng)
        if node is None or node.key() in seen:
            continue
        seen.add(node.key())
        exact = exact_values(node, seconds, should_stop)
        if exact is None:
            unknown += 1
            continue
        if len(exact.optimal()) < len(exact.values):
            found.append((moves, node, exact))
    return found, unknown


def _walk(state: State[Any], rng: random.Random) -> tuple[tuple[Move, ...], State[Any] | None]:
    """A position 1 to `MAX_PLIES` random moves on from `state`, at a player's decision,
    and the moves (dice included) that reach it (None: the game ended on the way)."""
    node, moves = state, []
    for _ in range(rng.randint(1, MAX_PLIES)):
        move = rng.choice(list(node.legal_moves()))
        node = node.play(move)
        moves.append(move)
        while not node.is_terminal() and node.to_move == CHANCE:
            outcomes = list(node.chance_outcomes())
            faces = [face for face, _ in outcomes]
            face = rng.choices(faces, [p for _, p in outcomes])[0]
            node = node.play(face)
            moves.append(face)
        if node.is_terminal():
            return tuple(moves), None
    return tuple(moves), node


def budget_curve(
    state: State[Any],
    budgets: Sequence[int] = BUDGETS,
    count: int = POSITIONS,
    heuristic: str | None = None,
    seed: int = 0,
    *,
    progress: Callable[[str], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> BudgetCurve:
    """MCTS's and alpha-beta's share of optimal choices at each budget (see the module).

    :raises SearchError: a finished game, a chance node at the root, a bad budget.
    :raises SearchCancelled: `should_stop()` returned True.
    """
    say = progress or (lambda _text: None)
    say("finding positions with exact values")
    measured, unknown = positions_from(state, count, seed, should_stop=should_stop)
    depth_search = "expectiminimax" if state.STOCHASTIC else "alphabeta"
    curve = BudgetCurve(
        positions=[moves for moves, _, _ in measured],
        unknown=unknown,
        rival="expectiminimax" if state.STOCHASTIC else "alpha-beta",
    )
    for iterations in budgets:
        mcts_hits = alphabeta_hits = 0
        seconds = 0.0
        for index, (_, node, exact) in enumerate(measured):
            say(f"{iterations:,} iterations: position {index + 1} of {len(measured)}")
            optimal = exact.optimal()
            config = SearchConfig(MonteCarlo(iterations, heuristic=heuristic), seed=seed)
            played = search(node, config, should_stop=should_stop)
            mcts_hits += played.move in optimal
            seconds += played.elapsed
            rival = search(
                node,
                SearchConfig(
                    DepthLimited(depth_search, None, heuristic),
                    time_limit=max(played.elapsed, 1e-3),
                    seed=seed,
                    book=False,
                ),
                should_stop=should_stop,
            )
            alphabeta_hits += rival.move in optimal
        positions = len(measured)
        mean = seconds / positions if positions else 0.0
        curve.points.append(CurvePoint(iterations, positions, mcts_hits, alphabeta_hits, mean))
    return curve


def parse_budgets(text: str) -> list[int]:
    """'100,300,1000' (or '1k,3k') as iterations, rising; ValueError with one line."""
    budgets: list[int] = []
    for part in text.replace(" ", "").split(","):
        number = part[:-1] if part.lower().endswith("k") else part
        if not number.isdigit() or int(number) < 1:
            raise ValueError(f"budgets are iterations like 100,300,1k, not {text!r}")
        budgets.append(int(number) * (1000 if number != part else 1))
    return sorted(set(budgets))
