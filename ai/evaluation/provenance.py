"""Where a value comes from: its kind (exact, a bound, an estimate) and its source.

Every value a search reports, for the root and for each root move, is an `Evaluation`: the
number on the [-1, 1] scale of `ai.evaluation.values` (from the point of view of the player to
move at the position it describes), what kind of number it is, and what produced it. Every surface
(the window's panel, hints and board labels, the explorer, the terminal's text and JSON)
renders from these fields; none decides exactness on its own.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum


class Kind(StrEnum):
    """What the number is: the true value, a bound on it, or an estimate."""

    EXACT = "exact"
    LOWER = "lower"
    """The true value is at least this (a fail-high: the search stopped once it was enough)."""
    UPPER = "upper"
    """The true value is at most this (a fail-low)."""
    ESTIMATE = "estimate"
    """A guess (a heuristic's at a depth limit, or the mean of playouts): no promise about
    the true value."""


class Source(StrEnum):
    """What produced the number."""

    SEARCH = "search"
    """A search that reached the end of the game on every line it counted."""
    BOOK = "book"
    """An opening book (a stored exact answer)."""
    SOLVER = "solver"
    """A game's solver or proof."""
    TABLE = "table"
    """A game's exact table (e.g. an optimal policy's win chances)."""
    HEURISTIC = "heuristic"
    """A heuristic evaluation at a depth limit (`Evaluation.depth`)."""
    PLAYOUTS = "playouts"
    """The mean result of Monte Carlo tree search's playouts (`Evaluation.playouts` of them)."""


@dataclass(frozen=True, slots=True)
class Evaluation:
    """A value with its provenance. `depth` is the search depth behind it where one applies;
    `distance_known` is False for a proven win or loss whose distance is not known (a book
    that stores only win/draw/loss)."""

    value: float
    kind: Kind
    source: Source
    depth: int | None = None
    distance_known: bool = True
    score: float | None = None
    """In a game of scores (a textbook tree: its finished positions carry numbers, not only
    wins and draws), the same value in the game's own numbers, as the textbook's trace shows
    it (`value` orders the same way on the search's scale)."""
    playouts: int | None = None
    """For a mean of playouts (`Source.PLAYOUTS`), how many iterations it rests on."""

    def __float__(self) -> float:
        return self.value

    @property
    def is_exact(self) -> bool:
        """Whether the number is the position's true value."""
        return self.kind is Kind.EXACT

    @property
    def is_bound(self) -> bool:
        """Whether the number is a lower or an upper bound."""
        return self.kind in (Kind.LOWER, Kind.UPPER)

    def negated(self) -> Evaluation:
        """The same evaluation from the other player's point of view (bounds swap)."""
        kind = {Kind.LOWER: Kind.UPPER, Kind.UPPER: Kind.LOWER}.get(self.kind, self.kind)
        score = None if self.score is None else -self.score
        return replace(self, value=-self.value, kind=kind, score=score)

    def admits(self, true_value: float, tolerance: float = 1e-9) -> bool:
        """Whether `true_value` is consistent with this evaluation (tests use it: an exact
        value equals it, a lower bound is at most it, an upper bound at least it; a win or
        loss whose distance is unknown admits any win or loss of that sign)."""
        if self.kind is Kind.EXACT:
            if not self.distance_known:
                return true_value * self.value > 0 and abs(true_value) > 0.5
            return abs(self.value - true_value) <= tolerance
        if self.kind is Kind.LOWER:
            return self.value <= true_value + tolerance
        if self.kind is Kind.UPPER:
            return self.value >= true_value - tolerance
        return True


def exact(value: float, source: Source, depth: int | None = None) -> Evaluation:
    """An exact value from `source`."""
    return Evaluation(value, Kind.EXACT, source, depth)


def from_playouts(value: float, playouts: int) -> Evaluation:
    """An estimate that is the mean result of `playouts` iterations of Monte Carlo tree search."""
    return Evaluation(value, Kind.ESTIMATE, Source.PLAYOUTS, playouts=playouts)


def estimate(value: float, depth: int | None) -> Evaluation:
    """A heuristic estimate from a search to `depth`."""
    return Evaluation(value, Kind.ESTIMATE, Source.HEURISTIC, depth)
