"""The game a student's search sees in an exercise, and the worker side of grading.

A student writes the textbook functions against this small API (values for MAX, the
player to move at the root; depth counts decisions, chance layers are free):

    game.actions(s)      the moves at a decision node, in the game's order
    game.result(s, a)    the position after move a
    game.is_terminal(s)  the game is over
    game.utility(s)      a finished game's value for MAX
    game.evaluate(s)     the heuristic's estimate for MAX (at the depth limit)
    game.is_max(s)       MAX moves here
    game.is_chance(s)    a chance node (dice)
    game.outcomes(s)     [(probability, next position), ...] at a chance node

`StudentGame` records, in order, every leaf the student evaluates (`utility` or `evaluate`)
by the moves that lead to it; the grader (`ai.student_code.grader`) compares that sequence and the
root value with the reference trace's (`ai.textbook.trace`), whose leaf values these are exactly.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from plyground.ai.student_code.worker import Refusal, check_number, load_module
from plyground.ai.textbook.trace import leaf_values
from plyground.games.base import CHANCE, Move

ALGORITHMS = ("minimax", "alphabeta", "expectiminimax")
"""The exercises, each the name of the function the student writes."""
MAX_LEAVES = 200_000
"""A student's search evaluating more leaves than this is stopped (a runaway recursion)."""


@dataclass(frozen=True, slots=True)
class Position:
    """A node of the student's search: a game state and the moves from the root to it."""

    state: Any
    path: tuple[Move, ...] = ()

    def __repr__(self) -> str:
        return f"Position({' '.join(map(str, self.path)) or 'root'})"


@dataclass
class StudentGame:
    """The exercise API over a real game or a textbook tree; it records the leaves."""

    root: Any
    leaves: list[tuple[Move, ...]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._value = leaf_values(self.root)
        self._max = self.root.player

    def _position(self, state: Any) -> Any:
        if not isinstance(state, Position):
            raise Refusal(f"a game method was given {state!r}, not a position from the game")
        return state.state

    def actions(self, s: Position) -> list[Move]:
        """The moves at a decision node, in the game's order (none at a chance node)."""
        state = self._position(s)
        if state.is_terminal() or state.to_move == CHANCE:
            return []
        return list(state.legal_moves())

    def result(self, s: Position, a: Move) -> Position:
        """The position after move `a`."""
        state = self._position(s)
        try:
            return Position(state.play(a), (*s.path, a))
        except ValueError as error:
            raise Refusal(f"result() with move {a!r}: {error}") from None

    def is_terminal(self, s: Position) -> bool:
        """The game is over."""
        return bool(self._position(s).is_terminal())

    def is_max(self, s: Position) -> bool:
        """MAX (the player to move at the root) moves here."""
        state = self._position(s)
        return bool(state.to_move != CHANCE and state.player == self._max)

    def is_chance(self, s: Position) -> bool:
        """A chance node: its value is the probability-weighted mean of its outcomes'."""
        return bool(self._position(s).to_move == CHANCE)

    def outcomes(self, s: Position) -> list[tuple[float, Position]]:
        """(probability, next position) for every outcome of a chance node."""
        state = self._position(s)
        if state.to_move != CHANCE:
            return []
        return [(p, Position(state.play(o), (*s.path, o))) for o, p in state.chance_outcomes()]

    def utility(self, s: Position) -> float:
        """A finished game's value for MAX."""
        state = self._position(s)
        if not state.is_terminal():
            raise Refusal(f"utility() of {s!r}, a position where the game is not over")
        return self._leaf(s, state)

    def evaluate(self, s: Position) -> float:
        """The heuristic's estimate for MAX of a position where the game is not over."""
        state = self._position(s)
        if state.is_terminal():
            raise Refusal(f"evaluate() of {s!r}, a finished game: check is_terminal() first")
        if state.to_move == CHANCE:
            raise Refusal(f"evaluate() of {s!r}, a chance node: chance layers use no depth")
        return self._leaf(s, state)

    def _leaf(self, s: Position, state: Any) -> float:
        self.leaves.append(s.path)
        if len(self.leaves) > MAX_LEAVES:
            raise Refusal(f"evaluated more than {MAX_LEAVES:,} leaves: does depth go down?")
        return self._value(state, len(s.path))


@dataclass(frozen=True)
class Case:
    """One graded search: a position (a game and its moves, or a textbook tree) and a depth."""

    title: str
    algorithm: str
    depth: int
    game: str = ""
    options: tuple[tuple[str, Any], ...] = ()
    moves: str = ""
    tree: Any = None

    def state(self) -> Any:
        """The root position."""
        if self.tree is not None:
            from plyground.games.trees.examples import TreeGame

            return TreeGame(self.tree, self.title).initial_state()
        from plyground import games

        game = games.get_game(self.game, **dict(self.options))
        return game.replay(game.parse_moves(self.moves))


@dataclass(frozen=True)
class ExerciseHost:
    """Built in a worker: the student's file; answers a `Case` with (value, leaves)."""

    path: str
    function: str

    def __call__(self) -> Any:
        module = load_module(Path(self.path))
        search = getattr(module, self.function, None)
        if not callable(search):
            raise Refusal(f"has no function {self.function}()")

        def run(case: Case) -> tuple[float, list[tuple[Move, ...]]]:
            game = StudentGame(case.state())
            root = Position(game.root)
            if self.function == "alphabeta":
                value = search(game, root, case.depth, -math.inf, math.inf)
            else:
                value = search(game, root, case.depth)
            return check_number(value, f"{self.function}()"), game.leaves

        return run
