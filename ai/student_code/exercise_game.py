"""The game a student's search sees in an exercise, and the worker side of grading.

A student writes the textbook's root form (`ai.textbook`: ``minimax_decision``,
``alphabeta_decision``, ``expectiminimax_decision``) against the textbook's own game API
(`ai.textbook.observer.SearchGame`; values for MAX, the player to move at the root; depth
counts decisions, chance layers are free):

    game.to_move(s)          "max", "min" or "chance"
    game.actions(s)          the moves at a decision node, in the game's order
    game.result(s, a)        the position after move (or chance outcome) a
    game.chance_outcomes(s)  [(outcome, probability), ...] at a chance node
    game.is_cutoff(s, depth) the game is over, or depth is used up at a decision node
    game.evaluate(s)         the value for MAX where the search stops: the game's result
                             if it is over, else the heuristic's estimate

The student's code runs in a worker and sees a `RemoteGame`: positions are handles, and
every question about the tree (moves, results, outcomes, leaf values) is asked of the parent,
where `StudentGame` answers it and records, in order, every leaf the student evaluates by the
moves that lead to it.  So the grader (`ai.student_code.grader`) compares what the student's
search really asked for, the root value and the move, with the reference trace's
(`ai.textbook.trace`), whose leaf values these are exactly.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from plyground.ai.student_code.messages import MessageError, bounded_move
from plyground.ai.student_code.worker import Refusal, short_repr
from plyground.games.base import CHANCE, Move, State

ALGORITHMS = ("minimax", "alphabeta", "expectiminimax", "mcts")
"""The exercises, each the name of the textbook function whose root form the student writes."""
MCTS_FUNCTION = "monte_carlo_tree_search"
"""The function a student writes for the MCTS exercise (`ai.textbook.mcts`'s own name)."""
MCTS_WATCHED = "select"
"""The student's function the MCTS grader watches: the loop calls it on the root once an
iteration, so each call is where one iteration ends and the next begins."""


def function_of(algorithm: str) -> str:
    """The function a student writes for an exercise: the textbook's root form
    ("alphabeta" -> "alphabeta_decision"), returning (move, value); for "mcts",
    monte_carlo_tree_search, returning (move, root node)."""
    return MCTS_FUNCTION if algorithm == "mcts" else f"{algorithm}_decision"


MAX_LEAVES = 200_000
"""A student's search evaluating more leaves than this is stopped (a runaway recursion)."""
MAX_POSITIONS = 1_000_000
"""A student's search making more positions than this is stopped (the parent keeps them)."""


@dataclass(frozen=True, slots=True)
class Position:
    """A node of the student's search: a game state and the moves from the root to it."""

    state: State[Any]
    path: tuple[Move, ...] = ()

    def __repr__(self) -> str:
        return f"Position({' '.join(map(str, self.path)) or 'root'})"


@dataclass
class StudentGame:
    """The exercise's tree on the parent's side: positions by number, the student's worker
    asking about them (`answer`); it records the leaves the student evaluates."""

    root: State[Any]
    leaves: list[tuple[Move, ...]] = field(default_factory=list)
    positions: list[Position] = field(default_factory=list)

    def __post_init__(self) -> None:
        from plyground.ai.textbook.trace import leaf_values  # the app's side: never a worker's

        self._value = leaf_values(self.root)
        self._max = self.root.player

    def handle(self, position: Position) -> dict[str, Any]:
        """A new position as the worker sees it: its number and what it is."""
        if len(self.positions) >= MAX_POSITIONS:
            raise Refusal(f"made more than {MAX_POSITIONS:,} positions: does depth go down?")
        self.positions.append(position)
        state = position.state
        return {
            "id": len(self.positions) - 1,
            "terminal": bool(state.is_terminal()),
            "max": bool(state.to_move != CHANCE and state.player == self._max),
            "chance": bool(state.to_move == CHANCE),
            "name": " ".join(map(str, position.path)) or "root",
        }

    def root_handle(self) -> dict[str, Any]:
        """The root position's handle (the first)."""
        return self.handle(Position(self.root))

    def answer(self, question: list[Any]) -> Any:
        """The answer to the worker's question [method, position number, (move)]."""
        if len(question) < 2 or not isinstance(question[1], int) or isinstance(question[1], bool):
            raise Refusal("a game method was given something that is not a position")
        method, number = question[0], question[1]
        if not 0 <= number < len(self.positions):
            raise Refusal("a game method was given a position that is not from the game")
        position = self.positions[number]
        if method == "actions":
            return self.actions(position)
        if method == "result" and len(question) == 3:
            return self.handle(self.result(position, self.move_at(position, question[2])))
        if method == "chance_outcomes":
            return [[outcome, p] for outcome, p in self.chance_outcomes(position)]
        if method == "evaluate":
            return self.evaluate(position)
        raise Refusal(f"asked {str(method)[:20]!r}, not a game method")

    def actions(self, s: Position) -> list[Move]:
        """The moves at a decision node, in the game's order (none at a chance node)."""
        state = s.state
        if state.is_terminal() or state.to_move == CHANCE:
            return []
        return list(state.legal_moves())

    def own_moves(self, s: Position) -> list[Move]:
        """The moves (or chance outcomes) of the game at `s`."""
        state = s.state
        if state.is_terminal():
            return []
        if state.to_move == CHANCE:
            return [outcome for outcome, _ in state.chance_outcomes()]
        return list(state.legal_moves())

    def move_at(self, s: Position, data: Any) -> Move:
        """A move the worker sent for `s`, decoded bounded by the game's own moves there: one
        nested deeper or larger than all of them is refused before it reaches the game."""
        try:
            return bounded_move(data, self.own_moves(s))
        except MessageError as error:
            raise Refusal(f"result() was given {error}") from None

    def result(self, s: Position, a: Move) -> Position:
        """The position after move (or chance outcome) `a`."""
        try:
            return Position(s.state.play(a), (*s.path, a))
        except (ValueError, TypeError) as error:
            raise Refusal(f"result() with move {short_repr(a)}: {error}") from None

    def chance_outcomes(self, s: Position) -> list[tuple[Move, float]]:
        """(outcome, probability) for every outcome of a chance node."""
        state = s.state
        if state.to_move != CHANCE or state.is_terminal():
            return []
        return list(state.chance_outcomes())

    def evaluate(self, s: Position) -> float:
        """The value for MAX where the search stops: a finished game's result, else the
        heuristic's estimate; never at a chance node (chance layers use no depth)."""
        state = s.state
        if state.to_move == CHANCE and not state.is_terminal():
            raise Refusal(
                f"evaluate() of {s!r}, a chance node: chance layers use no depth "
                "(is_cutoff() is False there)"
            )
        self.leaves.append(s.path)
        if len(self.leaves) > MAX_LEAVES:
            raise Refusal(f"evaluated more than {MAX_LEAVES:,} leaves: does depth go down?")
        return float(self._value(s.state, len(s.path)))


def _move(data: Any) -> Any:
    """A move sent back by the worker (JSON lists back to tuples)."""
    if isinstance(data, list):
        return tuple(_move(item) for item in data)
    return data


class RemotePosition:
    """A position as the student's code holds it in the worker: a handle, and what it is."""

    __slots__ = ("chance", "id", "is_max", "name", "terminal")

    def __init__(self, handle: dict[str, Any]) -> None:
        self.id = int(handle["id"])
        self.terminal = bool(handle["terminal"])
        self.is_max = bool(handle["max"])
        self.chance = bool(handle["chance"])
        self.name = str(handle["name"])

    def __repr__(self) -> str:
        return f"Position({self.name})"


class RemoteGame:
    """The exercise API in the worker (the textbook's `SearchGame`): every question about
    the tree goes to the parent."""

    MAX = "max"
    MIN = "min"
    CHANCE = "chance"

    def __init__(self, ask: Callable[[list[Any]], Any]) -> None:
        self._ask = ask

    def position(self, handle: dict[str, Any]) -> RemotePosition:
        """The position a handle from the parent describes."""
        return RemotePosition(handle)

    def _id(self, s: Any) -> int:
        if not isinstance(s, RemotePosition):
            raise Refusal(f"a game method was given {s!r}, not a position from the game")
        return s.id

    def to_move(self, s: RemotePosition) -> str:
        """ "max" where MAX (the player to move at the root) moves, "min" where MIN does,
        "chance" where dice decide."""
        self._id(s)
        return self.CHANCE if s.chance else (self.MAX if s.is_max else self.MIN)

    def actions(self, s: RemotePosition) -> list[Move]:
        """The moves at a decision node, in the game's order (none at a chance node)."""
        self._id(s)
        if s.terminal or s.chance:
            return []
        return list(self._ask(["actions", s.id]))

    def result(self, s: RemotePosition, a: Move) -> RemotePosition:
        """The position after move (or chance outcome) `a`."""
        return RemotePosition(self._ask(["result", self._id(s), a]))

    def chance_outcomes(self, s: RemotePosition) -> list[tuple[Move, float]]:
        """(outcome, probability) for every outcome of a chance node."""
        answer = self._ask(["chance_outcomes", self._id(s)])
        return [(_move(outcome), float(p)) for outcome, p in answer]

    def is_terminal(self, s: RemotePosition) -> bool:
        """Whether the game is over at `s` (MCTS's playouts run until it is)."""
        self._id(s)
        return s.terminal

    def is_cutoff(self, s: RemotePosition, depth: int) -> bool:
        """Whether the search stops at `s`: the game is over, or `depth` decisions are used
        up at a decision node (a chance node never: its outcomes use no depth)."""
        self._id(s)
        return s.terminal or (depth == 0 and not s.chance)

    def evaluate(self, s: RemotePosition) -> float:
        """The value for MAX where the search stops (the game's result, or the estimate)."""
        return float(self._ask(["evaluate", self._id(s)]))


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
    iterations: int = 0
    """MCTS: the iterations both searches run."""
    seed: int = 0
    """MCTS: the seed of the random stream both searches draw from."""

    def state(self) -> Any:
        """The root position."""
        if self.tree is not None:
            from plyground.games.trees.examples import TreeGame

            return TreeGame(self.tree, self.title).initial_state()
        from plyground import games

        game = games.get_game(self.game, **dict(self.options))
        return game.replay(game.parse_moves(self.moves))
