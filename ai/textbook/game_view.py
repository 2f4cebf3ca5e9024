"""A registered game as the textbook algorithms see it: positions, leaf values, move order.

`TextbookGame` is the `SearchGame` behind every surface that shows a learner a tree (the
trace, the explorer, the lessons, Compare's textbook rows, the grader's reference).  Its
positions are `Position`s: the game's state plus how the search reached it (ply, move,
probability, decisions left).  It owns what the slides leave out:

* leaf values on the engine's scale (`ai.evaluation.values`), from MAX's side: a finished game
  is +-WIN, a proven result worth one STEP less per ply away (games without chance); the
  heuristic's estimate clamped as the engine clamps it; explicit trees keep their numbers;
* the opening book (off unless asked): a position it knows is a leaf, except the root;
* the move order: the game's, reversed, or best first (each child's exact value found by
  an unwatched expectiminimax over a memo);
* a transposition table (`Memo`), which settles a node before its moves are searched.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from plyground.ai.engine.bookkeeping import Context, SearchError
from plyground.ai.engine.full_width_search import book_leaf
from plyground.ai.engine.search import heuristic_for
from plyground.ai.evaluation.values import PROVEN_UNITS, SCALE, STEP_UNITS, WIN_UNITS
from plyground.ai.textbook.expectiminimax import expectiminimax
from plyground.ai.textbook.observer import CHANCE, MAX, MIN, Quiet
from plyground.games.base import CHANCE as CHANCE_TO_MOVE
from plyground.games.base import Move, State, capabilities, state_capabilities

LEAF = "leaf"
"""The role of a position the search evaluates instead of expanding."""
ORDERINGS = ("game", "reversed", "best")
"""Move orders: the game's own, reversed, or best first (by each child's exact value)."""


class OrderTooCostly(SearchError):
    """Finding the best move order needs more nodes than its budget."""


@dataclass(frozen=True, slots=True)
class Position:
    """A game state as one node of the search: how it was reached and what is left."""

    state: State[Any]
    remaining: int
    """Player decisions the search may still look ahead from here."""
    ply: int = 0
    """Moves and chance outcomes from the search's root."""
    move: Move = None
    """The move or outcome that led here (None at the root)."""
    probability: float | None = None
    """The outcome's probability, for a child of a chance node."""


@dataclass
class TextbookGame:
    """The `SearchGame` of one search from `root`; see the module's docstring."""

    root: State[Any]
    heuristic: str | None = None
    ordering: str = "game"
    book: bool = False
    memo: Memo | None = None
    order_budget: int = 400_000
    """Nodes the best-first ordering may spend finding exact values."""
    ctx: Context = field(init=False)
    root_player: int = field(init=False)
    raw: bool = field(init=False)
    """Explicit trees: leaf numbers are the values, unscaled."""
    decay: bool = field(init=False)
    """Proven results lose a STEP per ply (games without chance)."""
    last_source: str = field(init=False, default="")
    """What answered the last `evaluate`: terminal, book, table or the heuristic's name."""
    order_memo: dict[Any, float] = field(init=False, default_factory=dict)
    """Exact values best-first ordering found, by `key`."""
    order_nodes: int = field(init=False, default=0)
    """Nodes best-first ordering searched so far."""
    _last_role: tuple[Position | None, int, str] = field(init=False, default=(None, 0, ""))

    def __post_init__(self) -> None:
        self.ctx = Context(heuristic_for(self.root, self.heuristic), None, 0, None, None)
        self.ctx.book = self.book
        stochastic = bool(self.root.STOCHASTIC)
        if stochastic:
            self.ctx.for_chance_game()
        self.root_player = self.root.player
        self.raw = capabilities(self.root.game).utility_is_value
        self.decay = not stochastic and not self.raw

    def start(self, depth: int) -> Position:
        """The root as a position with `depth` decisions to look ahead."""
        return Position(self.root, depth)

    # ------------------------------------------------------------ the SearchGame protocol
    def to_move(self, position: Position) -> str:
        """MAX (the root's player), MIN or CHANCE."""
        state = position.state
        if state.to_move == CHANCE_TO_MOVE:
            return CHANCE
        return MAX if state.player == self.root_player else MIN

    def actions(self, position: Position) -> Sequence[Move]:
        """The moves in the chosen order."""
        moves = list(position.state.legal_moves())
        if self.ordering == "reversed":
            moves.reverse()
        elif self.ordering == "best":
            values = {m: self.exact_value(self.result(position, m)) for m in moves}
            moves.sort(key=values.__getitem__, reverse=self.to_move(position) == MAX)
        return moves

    def result(self, position: Position, move: Move) -> Position:
        """The child position after `move` or a chance outcome."""
        state = position.state
        probability = None
        remaining = position.remaining - 1
        if state.to_move == CHANCE_TO_MOVE:
            probability = dict(state.chance_outcomes())[move]
            remaining = position.remaining
        return Position(state.play(move), remaining, position.ply + 1, move, probability)

    def chance_outcomes(self, position: Position) -> Sequence[tuple[Move, float]]:
        """The game's (outcome, probability) pairs."""
        return tuple(position.state.chance_outcomes())

    def is_cutoff(self, position: Position, depth: int) -> bool:
        """A leaf (see `role`), or a node the table settles."""
        if self.role(position, depth) == LEAF:
            return True
        return self.memo is not None and self.memo.settles(self.key(position, depth))

    def is_terminal(self, position: Position) -> bool:
        """Whether the game is over (what Monte Carlo tree search asks)."""
        return bool(position.state.is_terminal())

    def evaluate(self, position: Position) -> float:
        """The table's answer, the game's result, the book's value or the estimate."""
        if self.memo is not None and self.memo.answer is not None:
            self.last_source = "table"
            value, self.memo.answer = self.memo.answer, None
            return value
        value, self.last_source = self.leaf_value(position, estimate=self.estimate)
        return value

    # ------------------------------------------------------------ roles and leaf values
    def role(self, position: Position, depth: int) -> str:
        """leaf, chance, max or min.  The root is searched even when the book knows it, as
        `ai.engine.search` searches it; a chance node is expanded at depth 0."""
        last, last_depth, last_role = self._last_role
        if last is position and last_depth == depth:
            return last_role  # asked again for the node just entered
        role = self._role(position, depth)
        self._last_role = (position, depth, role)
        return role

    def _role(self, position: Position, depth: int) -> str:
        """`role`, worked out."""
        state = position.state
        if state.is_terminal():
            return LEAF
        if position.ply and self.book_value(position) is not None:
            return LEAF
        if state.to_move == CHANCE_TO_MOVE:
            return CHANCE
        if depth == 0:
            return LEAF
        return self.to_move(position)

    def leaf_value(self, position: Position, estimate: Callable[[Any], float]) -> tuple[float, str]:
        """A leaf's value for MAX and what gave it: terminal, book or the heuristic."""
        state = position.state
        if state.is_terminal():
            return self.terminal(state, position.ply), "terminal"
        known = self.book_value(position)
        if known is not None:
            return known, "book"
        value = estimate(state)
        return (value if state.player == self.root_player else -value), self.ctx.heuristic_name

    def terminal(self, state: State[Any], ply: int) -> float:
        """A finished game's value for MAX, a proven one worth less the farther it is."""
        if self.raw:
            score = state_capabilities(state).score  # a file's scores as they are
            if score is not None:
                return float(score(state, self.root_player))
            return float(state.utility(self.root_player))
        units = int(state.utility(self.root_player)) * WIN_UNITS
        if self.decay and units:
            units += -ply * STEP_UNITS if units > 0 else ply * STEP_UNITS
        return units

    def estimate(self, state: State[Any]) -> float:
        """The heuristic's estimate for the player to move, as `ai.engine.search` clamps it
        (chance games keep fractions of a unit)."""
        return self.ctx.leaf_exact(state) if state.STOCHASTIC else self.ctx.leaf(state)

    def book_value(self, position: Position) -> float | None:
        """The opening book's exact value for MAX (as `ai.engine.search` uses it), or None."""
        state = position.state
        if self.raw or not self.ctx.book or state_capabilities(state).book_value is None:
            return None
        units = book_leaf(state)
        if units is None:
            return None
        if self.decay and abs(units) > PROVEN_UNITS:
            units += -position.ply * STEP_UNITS if units > 0 else position.ply * STEP_UNITS
        return units if state.player == self.root_player else -units

    def key(self, position: Position, depth: int) -> Any:
        """The table's key of a node: the position, the depth left, its role and (when
        proven results decay) its distance from the root."""
        role = self.role(position, depth)
        return (position.state.key(), depth, role, position.ply if self.decay else 0)

    def show(self, value: float) -> float | None:
        """A value on the shown scale ([-1, 1], or a tree's own numbers); None for +-inf."""
        if math.isinf(value):
            return None
        return value if self.raw else value / SCALE

    # ------------------------------------------------------------ best-first ordering
    def exact_value(self, position: Position) -> float:
        """A node's exact value for MAX, searched unwatched in the game's order over a memo
        (heuristic leaves unclamped): what best-first ordering sorts by."""
        oracle = _OracleGame(self)
        return expectiminimax(oracle, position, position.remaining, observer=oracle)


class _OracleGame(Quiet):
    """The view best-first ordering searches: the game's order, raw estimates, and a memo
    shared by every ordering of one search; it counts the nodes it had to search."""

    def __init__(self, view: TextbookGame) -> None:
        self.view = view
        self.answer: float | None = None

    def to_move(self, position: Position) -> str:
        return self.view.to_move(position)

    def actions(self, position: Position) -> Sequence[Move]:
        return position.state.legal_moves()

    def result(self, position: Position, move: Move) -> Position:
        return self.view.result(position, move)

    def chance_outcomes(self, position: Position) -> Sequence[tuple[Move, float]]:
        return self.view.chance_outcomes(position)

    def is_cutoff(self, position: Position, depth: int) -> bool:
        self.answer = self.view.order_memo.get(self.view.key(position, depth))
        return self.answer is not None or self.view.role(position, depth) == LEAF

    def evaluate(self, position: Position) -> float:
        if self.answer is not None:
            return self.answer
        return self.view.leaf_value(position, self.view.ctx.evaluate)[0]

    def enter(self, state: object, depth: int, alpha: float, beta: float) -> None:
        """Count a node the memo did not know yet (checked at `leave`)."""

    def leave(self, state: object, value: float) -> None:
        """Remember the node's value (a new one counts against the budget)."""
        assert isinstance(state, Position)
        view = self.view
        key = view.key(state, state.remaining)
        if key in view.order_memo:
            return
        view.order_nodes += 1
        if view.order_nodes > view.order_budget:
            raise OrderTooCostly(
                f"finding the best order needs more than {view.order_budget:,} nodes: try a "
                "smaller depth or another ordering"
            )
        view.order_memo[key] = value


class Memo(Quiet):
    """A transposition table outside the algorithms: it watches each node's window as the
    search enters it, settles a node whose stored value decides it in that window (the game
    view then answers it as a leaf), and stores each searched node's value with its bound."""

    def __init__(self, key: Callable[[Position, int], Any]) -> None:
        self.key = key
        self.entries: dict[Any, tuple[float, str]] = {}
        self.answer: float | None = None
        """The stored value settling the node being entered (read once by `evaluate`)."""
        self.answer_bound = ""
        self.open: list[tuple[Any, float, float, bool]] = []

    def enter(self, state: object, depth: int, alpha: float, beta: float) -> None:
        """Remember the node's window until it is left."""
        assert isinstance(state, Position)
        self.open.append((self.key(state, depth), alpha, beta, False))
        self.answer = None

    def settles(self, key: Any) -> bool:
        """Whether a stored value decides the node just entered (exact, or a bound outside
        its window)."""
        entry = self.entries.get(key)
        if entry is None:
            return False
        stored, flag = entry
        _, alpha, beta, _ = self.open[-1]
        if (
            flag == "exact"
            or (flag == "lower" and stored >= beta)
            or (flag == "upper" and stored <= alpha)
        ):
            self.answer, self.answer_bound = stored, flag
            self.open[-1] = (key, alpha, beta, True)
            return True
        return False

    def leaf(self, state: object, value: float) -> None:
        """A leaf (or a settled node) is not stored."""
        key, alpha, beta, _ = self.open[-1]
        self.open[-1] = (key, alpha, beta, True)

    def leave(self, state: object, value: float) -> None:
        """Store a searched node's value: exact, or a bound when it fell outside the window
        (never for the searches without a window: theirs is infinite)."""
        key, alpha, beta, answered = self.open.pop()
        if answered:
            return
        self.entries[key] = (value, bound_of(value, alpha, beta))


def bound_of(value: float, alpha: float, beta: float) -> str:
    """What a fail-soft alpha-beta value is in the window (alpha, beta): an upper bound at or
    below alpha, a lower bound at or above beta, else exact."""
    return "upper" if value <= alpha else ("lower" if value >= beta else "exact")
