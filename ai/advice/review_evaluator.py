"""The review's default evaluator: the best answer the game offers at each position, each
value labelled with its kind and source (`ai.evaluation.provenance`).

* A game's exact table (its reference policy's `key_of` and `move_values`, e.g. a dice
  game's optimal win chances): exact, source "table".
* Otherwise the one advisor's search (`ai.advice.advisor`: a solve where the game says it is cheap,
  with the opening book; else the strongest preset), within `seconds` a position; every
  value keeps the provenance the search gives it (`SearchResult.move_values`).

Nothing here names a game: the hooks are read with getattr.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from plyground.ai.advice.advisor import advise_with, advisor_for
from plyground.ai.advice.game_review import MAX_LINES, Line
from plyground.ai.engine.table import TranspositionTable
from plyground.ai.evaluation.provenance import Evaluation, Kind, Source
from plyground.games.base import (
    CHANCE,
    Game,
    HasReferencePolicy,
    Move,
    State,
    ValuedReferencePolicy,
    state_capabilities,
)

REVIEW_SECONDS = 0.5
"""The search budget of one position where the game has no exact answer (None: solve)."""
LINE_PLIES = 8
"""Longest engine line shown."""


def exact_table(game: Game[Any]) -> ValuedReferencePolicy | None:
    """The game's reference policy if it can value a position (`key_of`), else None."""
    policy = game.reference_policy() if isinstance(game, HasReferencePolicy) else None
    return policy if isinstance(policy, ValuedReferencePolicy) else None


class ReviewEvaluator:
    """Callable as an `ai.advice.game_review.Evaluator`; keeps one transposition table for the
    game."""

    def __init__(
        self,
        game: Game[Any],
        seconds: float | None = REVIEW_SECONDS,
        should_stop: Callable[[], bool] | None = None,
    ) -> None:
        self.game = game
        self.seconds = seconds
        self.should_stop = should_stop
        self.policy = exact_table(game)
        self.table = TranspositionTable(bits=20)

    def __call__(self, state: State[Any]) -> tuple[Evaluation, list[Line]]:
        """The position's value for the player to move and its lines, best first."""
        if self.policy is not None:
            found = self.from_table(state)
            if found is not None:
                return found
        return self.from_search(state)

    # -- an exact table ----------------------------------------------------------------

    def table_value(self, state: State[Any], player: int) -> Evaluation | None:
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
        policy = self.policy
        key = policy.key_of(state) if policy is not None else None
        if policy is None or key is None:
            return None
        value = 2 * max(policy.move_values(key).values()) - 1
        return Evaluation(value if state.to_move == player else -value, Kind.EXACT, Source.TABLE)

    def from_table(self, state: State[Any]) -> tuple[Evaluation, list[Line]] | None:
        """Every move's exact value from the table (a chance node: its outcomes' mean)."""
        if state.to_move == CHANCE:
            value = self.table_value(state, state.player)
            return None if value is None else (value, [])
        policy = self.policy
        key = policy.key_of(state) if policy is not None else None
        if policy is None or key is None:
            return None
        values = policy.move_values(key)
        lines = [
            Line((move,), Evaluation(2 * p - 1, Kind.EXACT, Source.TABLE))
            for move, p in sorted(values.items(), key=lambda item: -item[1])
        ]
        return lines[0].evaluation, lines

    # -- a search ----------------------------------------------------------------------

    def from_search(self, state: State[Any]) -> tuple[Evaluation, list[Line]]:
        """The advisor's search (`ai.advice.advisor`: a cheap solve with the book, else the
        strongest
        preset) within the review's budget; every value carries the search's own provenance."""
        config = advisor_for(self.game, state).config
        if self.seconds is not None and (config.time_limit or self.seconds) >= self.seconds:
            config = replace(config, time_limit=self.seconds)
        result = advise_with(state, config, should_stop=self.should_stop, table=self.table)
        if state.to_move == CHANCE:
            return result.evaluation, []
        playouts = result.details.playouts
        statistics = {} if playouts is None else playouts.moves
        # A move no playout reached has no value yet: it gets no line, and a review that
        # judges it values the position after it instead.
        values = {
            move: value
            for move, value in result.move_values.items()
            if move not in statistics or statistics[move].visits > 0
        }
        order = sorted(values, key=lambda m: -values[m].value)
        if result.move in values:
            order = [result.move, *(m for m in order if m != result.move)]
        lines = []
        for rank, move in enumerate(order):
            moves = tuple(result.pv) if rank == 0 and result.pv else (move,)
            if rank < MAX_LINES:
                moves = self.continued(state, moves)
            lines.append(Line(moves, values[move], statistics.get(move)))
        return (lines[0].evaluation if lines else result.evaluation), lines

    def continued(self, state: State[Any], line: tuple[Move, ...]) -> tuple[Move, ...]:
        """`line` continued with the best moves the table remembers (up to LINE_PLIES)."""
        moves = list(line)
        node = state
        for move in moves:
            node = node.play(move)
        seen = {node.key()}
        while len(moves) < LINE_PLIES and not node.is_terminal() and node.to_move != CHANCE:
            entry = self.table.probe(node.key())
            move = entry[4] if entry is not None else None
            winning_move = state_capabilities(node).winning_move
            if move is None and winning_move is not None:
                move = winning_move(node)
            if move is None or move not in node.legal_moves():
                break
            moves.append(move)
            node = node.play(move)
            if node.key() in seen:
                break
            seen.add(node.key())
        return tuple(moves)


def default_evaluator(
    game: Game[Any],
    seconds: float | None = REVIEW_SECONDS,
    should_stop: Callable[[], bool] | None = None,
) -> ReviewEvaluator:
    """The review's evaluator for `game` (see the module's description)."""
    return ReviewEvaluator(game, seconds, should_stop)
