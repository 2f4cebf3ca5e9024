"""What the textbook searches ask of a game, and the observer that watches them.

`minimax`, `alphabeta` and `expectiminimax` (one module each) see a game only through
`SearchGame`: whose turn it is (MAX, MIN or chance), the moves, the result of a move, the
chance outcomes, the cut-off test and the evaluation.  Everything else a surface needs (the
trace's events, the counters, a node budget, move ordering, a table, the opening book) lives
outside the algorithms: in the game view they are given (`ai.textbook.game_view`) or in an
`Observer` that watches them run.  An observer may stop a search by raising.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Generic, Protocol, TypeVar

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
