"""What the textbook searches ask of a game, and the observer that watches them.

`minimax`, `alphabeta` and `expectiminimax` (one module each) see a game only through
`SearchGame`: whose turn it is (MAX, MIN or chance), the moves, the result of a move, the
chance outcomes, the cut-off test and the evaluation.  Everything else a surface needs (the
trace's events, the counters, a node budget, move ordering, a table, the opening book) lives
outside the algorithms: in the game view they are given (`ai.textbook.game_view`) or in an
`Observer` that watches them run.  An observer may stop a search by raising.

Monte Carlo tree search (`ai.textbook.mcts`) asks one thing more of a game, whether it is
over (`MctsGame.is_terminal`: a playout runs to the end, with no depth), and is watched by an
`MctsObserver`, told of each iteration's four phases.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Generic, Protocol, TypeVar

from plyground.ai.textbook.mcts_node import MctsNode
from plyground.games.base import Move

MAX = "max"
"""The player the search is for (the player to move at the root)."""
MIN = "min"
"""The opponent."""
CHANCE = "chance"
"""A chance node: dice decide, each outcome with its probability."""

S = TypeVar("S")
"""A position, as the game view hands it out."""
S_contra = TypeVar("S_contra", contravariant=True)


class SearchGame(Protocol[S]):
    """A game as the textbook algorithms see it (values are MAX's, on the view's scale)."""

    def to_move(self, state: S) -> str:
        """MAX, MIN or CHANCE."""
        ...

    def actions(self, state: S) -> Sequence[Move]:
        """The moves at a decision node, in the order the search tries them."""
        ...

    def result(self, state: S, move: Move) -> S:
        """The position after `move` (or after a chance outcome)."""
        ...

    def chance_outcomes(self, state: S) -> Sequence[tuple[Move, float]]:
        """(outcome, probability) pairs at a chance node."""
        ...

    def is_cutoff(self, state: S, depth: int) -> bool:
        """Whether the search stops here: the game is over, `depth` player decisions are
        used up at a decision node, or the position's value is already known."""
        ...

    def evaluate(self, state: S) -> float:
        """The value for MAX of a position where the search stops."""
        ...


class Observer(Protocol[S_contra]):
    """Hooks called by the textbook algorithms, in the order the search does things."""

    def enter(self, state: S_contra, depth: int, alpha: float, beta: float) -> None:
        """A node is visited with `depth` decisions to go (and alpha-beta's window;
        -inf and +inf for the searches without one)."""

    def leaf(self, state: S_contra, value: float) -> None:
        """The node was a cut-off position and `evaluate` gave `value`."""

    def backed_up(self, state: S_contra, move: Move, child: float, best: float) -> None:
        """The child after `move` returned `child`; the node's value so far is `best` (at a
        chance node: the weighted sum so far)."""

    def narrowed(self, state: S_contra, bound: str, old: float, new: float) -> None:
        """Alpha-beta moved its `bound` ("alpha" or "beta") from `old` to `new`."""

    def cut_off(
        self, state: S_contra, move: Move, value: float, bound: str, skipped: Sequence[Move]
    ) -> None:
        """Alpha-beta returns early: after `move` the value reached the `bound` ("beta" at
        MAX, "alpha" at MIN); `skipped` are the moves it does not search (maybe none)."""

    def leave(self, state: S_contra, value: float) -> None:
        """The node's search is over with `value`."""


class Quiet:
    """An observer that watches nothing; subclass it and override the hooks you need."""

    def enter(self, state: object, depth: int, alpha: float, beta: float) -> None:
        """Nothing."""

    def leaf(self, state: object, value: float) -> None:
        """Nothing."""

    def backed_up(self, state: object, move: Move, child: float, best: float) -> None:
        """Nothing."""

    def narrowed(self, state: object, bound: str, old: float, new: float) -> None:
        """Nothing."""

    def cut_off(
        self, state: object, move: Move, value: float, bound: str, skipped: Sequence[Move]
    ) -> None:
        """Nothing."""

    def leave(self, state: object, value: float) -> None:
        """Nothing."""


QUIET = Quiet()
"""The observer of a search nobody watches."""


class Observers(Generic[S]):
    """Several observers watching one search, each told in turn."""

    def __init__(self, *watchers: Observer[S]) -> None:
        self.watchers = watchers

    def enter(self, state: S, depth: int, alpha: float, beta: float) -> None:
        """Tell each watcher."""
        for watcher in self.watchers:
            watcher.enter(state, depth, alpha, beta)

    def leaf(self, state: S, value: float) -> None:
        """Tell each watcher."""
        for watcher in self.watchers:
            watcher.leaf(state, value)

    def backed_up(self, state: S, move: Move, child: float, best: float) -> None:
        """Tell each watcher."""
        for watcher in self.watchers:
            watcher.backed_up(state, move, child, best)

    def narrowed(self, state: S, bound: str, old: float, new: float) -> None:
        """Tell each watcher."""
        for watcher in self.watchers:
            watcher.narrowed(state, bound, old, new)

    def cut_off(
        self, state: S, move: Move, value: float, bound: str, skipped: Sequence[Move]
    ) -> None:
        """Tell each watcher."""
        for watcher in self.watchers:
            watcher.cut_off(state, move, value, bound, skipped)

    def leave(self, state: S, value: float) -> None:
        """Tell each watcher."""
        for watcher in self.watchers:
            watcher.leave(state, value)


class MctsGame(SearchGame[S], Protocol[S]):
    """A game as Monte Carlo tree search sees it: a `SearchGame` that says when it is over
    (`evaluate` then gives the result: its sign says who won)."""

    def is_terminal(self, state: S) -> bool:
        """Whether the game is over at `state`."""
        ...


class MctsObserver(Protocol[S]):
    """Hooks called by `ai.textbook.mcts`, in this order each iteration: `iteration`, one
    `selected` per step down, `expanded`, `simulated`, one `backed_up` per node on the way
    back (the new node first, the root last); `decided` once at the end."""

    def iteration(self, number: int, root: MctsNode[S]) -> None:
        """Iteration `number` (from 1) starts at `root`."""

    def selected(
        self,
        node: MctsNode[S],
        child: MctsNode[S],
        ucb: Sequence[tuple[MctsNode[S], float]],
    ) -> None:
        """One step down from `node` to `child`: `ucb` is every child's UCB1 value, in the
        children's order (empty at a chance node: there the child was drawn)."""

    def expanded(self, leaf: MctsNode[S], child: MctsNode[S]) -> None:
        """`child` was added below `leaf` (with its outcomes, when dice decide there);
        `child` is `leaf` when the game is over at `leaf` (nothing added)."""

    def simulated(self, child: MctsNode[S], moves: Sequence[Move], result: float) -> None:
        """The playout from `child`: the moves (and chance outcomes) played to the end, and
        its result for MAX (1 a win, 0.5 a draw, 0 a loss)."""

    def backed_up(self, node: MctsNode[S], result: float) -> None:
        """`node`'s N and U were just updated with the playout's `result` (for MAX)."""

    def decided(self, root: MctsNode[S], move: Move) -> None:
        """The search returns `move`, the root's most visited child's."""


class QuietMcts:
    """An MCTS observer that watches nothing; subclass it and override the hooks you need."""

    def iteration(self, number: int, root: MctsNode[Any]) -> None:
        """Nothing."""

    def selected(
        self,
        node: MctsNode[Any],
        child: MctsNode[Any],
        ucb: Sequence[tuple[MctsNode[Any], float]],
    ) -> None:
        """Nothing."""

    def expanded(self, leaf: MctsNode[Any], child: MctsNode[Any]) -> None:
        """Nothing."""

    def simulated(self, child: MctsNode[Any], moves: Sequence[Move], result: float) -> None:
        """Nothing."""

    def backed_up(self, node: MctsNode[Any], result: float) -> None:
        """Nothing."""

    def decided(self, root: MctsNode[Any], move: Move) -> None:
        """Nothing."""


QUIET_MCTS = QuietMcts()
"""The observer of a Monte Carlo tree search nobody watches."""
