"""The review's default evaluator: the best answer the game offers at each position, each
value labelled with its kind and source (`ai.provenance`).

* A game's exact table (its reference policy's `key_of` and `move_values`, e.g. a dice
  game's optimal win chances): exact, source "table".
* Otherwise its strongest preset's algorithm and heuristic: alpha-beta with no depth limit
  within `seconds` a position (solving where the game says a solve is cheap, then with the
  opening book: source "book"), so a value is exact when the search reached every end or
  proved the result, and an estimate at the depth reached otherwise; a game with chance at
  the deepest preset's depth with the game's default heuristic.

Nothing here names a game: the hooks are read with getattr.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from plyground.ai.players import PlayerConfig, exact_where_cheap
from plyground.ai.proof import solve_is_cheap
from plyground.ai.provenance import Evaluation, Kind, Source
from plyground.ai.result import SearchResult
from plyground.ai.review import MAX_LINES, Line
from plyground.ai.search import search
from plyground.ai.table import TranspositionTable
from plyground.ai.values import is_proven
from plyground.games.base import CHANCE, Move

REVIEW_SECONDS = 0.5
"""The search budget of one position where the game has no exact answer (None: solve)."""
LINE_PLIES = 8
"""Longest engine line shown."""


def exact_table(game: Any) -> Any:
    """The game's reference policy if it can value a position (`key_of`), else None."""
    make = getattr(game, "reference_policy", None)
    policy = make() if make is not None else None
    return policy if policy is not None and hasattr(policy, "key_of") else None


def strongest_config(game: Any, seconds: float | None) -> PlayerConfig:
    """The strongest preset's search, unlimited in depth where alpha-beta runs, on a budget."""
    presets = tuple(getattr(game, "presets", ()))
    if not presets:
        algorithm = "expectiminimax" if game.stochastic else "alphabeta"
        return PlayerConfig(algorithm, 4 if game.stochastic else None, time_limit=seconds)
    best = presets[-1]
    if best.algorithm == "alphabeta":
        return PlayerConfig("alphabeta", None, best.heuristic, time_limit=seconds)
    # With chance: the deepest preset's depth and the game's own heuristic (a preset's may
    # rest on the exact table, which is missing here or it would have answered).
    depth = max((preset.depth or 1 for preset in presets), default=2)
    return PlayerConfig(best.algorithm, depth, game.default_heuristic)


class ReviewEvaluator:
    """Callable as an `ai.review.Evaluator`; keeps one transposition table for the game."""

    def __init__(
        self,
        game: Any,
        seconds: float | None = REVIEW_SECONDS,
        should_stop: Callable[[], bool] | None = None,
    ) -> None:
        self.game = game
        self.seconds = seconds
        self.should_stop = should_stop
        self.policy = exact_table(game)
        self.config = strongest_config(game, seconds)
        self.table = TranspositionTable(bits=20)

    def __call__(self, state: Any) -> tuple[Evaluation, list[Line]]:
        """The position's value for the player to move and its lines, best first."""
        if self.policy is not None:
            found = self.from_table(state)
            if found is not None:
                return found
        return self.from_search(state)

    # -- an exact table ----------------------------------------------------------------

    def table_value(self, state: Any, player: int) -> Evaluation | None:
        """The exact value of `state` for `player` from the table (None: not in it)."""
        if state.is_terminal():
            return Evaluation(float(state.utility(player)), Kind.EXACT, Source.SEARCH)
        if state.to_move == CHANCE:
            parts = [
                (p, self.table_value(state.play(face), player))
                for face, p in state.chance_outcomes()
            ]
            if any(e is None for _, e in parts):
                return None
            value = sum(p * e.value for p, e in parts if e is not None)
            return Evaluation(value, Kind.EXACT, Source.TABLE)
        key = self.policy.key_of(state)
        if key is None:
            return None
        value = 2 * max(self.policy.move_values(key).values()) - 1
        return Evaluation(value if state.to_move == player else -value, Kind.EXACT, Source.TABLE)

    def from_table(self, state: Any) -> tuple[Evaluation, list[Line]] | None:
        """Every move's exact value from the table (a chance node: its outcomes' mean)."""
        if state.to_move == CHANCE:
            value = self.table_value(state, state.player)
            return None if value is None else (value, [])
        key = self.policy.key_of(state)
        if key is None:
            return None
        values = self.policy.move_values(key)
        lines = [
            Line((move,), Evaluation(2 * p - 1, Kind.EXACT, Source.TABLE))
            for move, p in sorted(values.items(), key=lambda item: -item[1])
        ]
        return lines[0].evaluation, lines

    # -- a search ----------------------------------------------------------------------

    def from_search(self, state: Any) -> tuple[Evaluation, list[Line]]:
        """The strongest search within the budget; each move's value labelled."""
        config = exact_where_cheap(self.config, state)
        result = search(
            state,
            algorithm=config.algorithm,
            depth=config.depth,
            heuristic=config.heuristic,
            time_limit=config.time_limit,
            all_values=True,
            should_stop=self.should_stop,
            table=self.table,
        )
        if state.to_move == CHANCE:
            return self.label(state, result, result.value, None), []
        values = result.move_values
        order = sorted(values, key=lambda m: -values[m])
        if result.move in values:
            order = [result.move, *(m for m in order if m != result.move)]
        lines = []
        for rank, move in enumerate(order):
            moves = tuple(result.pv) if rank == 0 and result.pv else (move,)
            if rank < MAX_LINES:
                moves = self.continued(state, moves)
            lines.append(Line(moves, self.label(state, result, values[move], move)))
        return lines[0].evaluation, lines

    def label(self, state: Any, result: SearchResult, value: float, move: Move) -> Evaluation:
        """A searched value's kind and source: a bound, exact (a solve, a proven result),
        or an estimate at the depth reached."""
        bounds = set(result.extra.get("bounds", ()))
        if move is not None and move in bounds:
            return Evaluation(value, Kind.UPPER, Source.SEARCH, result.depth)
        if result.exact or (not state.STOCHASTIC and is_proven(value)):
            source = Source.BOOK if solve_is_cheap(state) else Source.SEARCH
            return Evaluation(value, Kind.EXACT, source, result.depth)
        return Evaluation(value, Kind.ESTIMATE, Source.HEURISTIC, result.depth)

    def continued(self, state: Any, line: tuple[Move, ...]) -> tuple[Move, ...]:
        """`line` continued with the best moves the table remembers (up to LINE_PLIES)."""
        moves = list(line)
        node = state
        for move in moves:
            node = node.play(move)
        seen = {node.key()}
        while len(moves) < LINE_PLIES and not node.is_terminal() and node.to_move != CHANCE:
            entry = self.table.probe(node.key())
            move = entry[4] if entry is not None else None
            if move is None and hasattr(node, "winning_move"):
                move = node.winning_move()
            if move is None or move not in node.legal_moves():
                break
            moves.append(move)
            node = node.play(move)
            if node.key() in seen:
                break
            seen.add(node.key())
        return tuple(moves)


def default_evaluator(
    game: Any,
    seconds: float | None = REVIEW_SECONDS,
    should_stop: Callable[[], bool] | None = None,
) -> ReviewEvaluator:
    """The review's evaluator for `game` (see the module's description)."""
    return ReviewEvaluator(game, seconds, should_stop)
