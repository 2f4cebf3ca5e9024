"""Compare's textbook rows: the textbook functions of `ai.textbook`, counted by its `Counter`.

minimax, alpha-beta in the game's move order, alpha-beta with killer moves and the history
heuristic, and expectiminimax without a table all run the same code the explorer and the
`trace` command run (`ai.textbook.minimax`, `.alphabeta`, `.expectiminimax` on the game view
of `ai.textbook.game_view`, no opening book), so Compare and `trace` give the same counts
for the same search.  The killer moves and the history heuristic are a move order (a game
view) that learns from the cut-offs it watches; the `Watch` counts, reports progress and
honours a stop request.  No game is named here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from plyground.ai.engine.bookkeeping import POLL_MASK, Context
from plyground.ai.engine.result import SearchProgress
from plyground.ai.textbook.alphabeta import alphabeta
from plyground.ai.textbook.counts import Counter
from plyground.ai.textbook.expectiminimax import expectiminimax
from plyground.ai.textbook.game_view import Position, TextbookGame
from plyground.ai.textbook.minimax import minimax
from plyground.ai.textbook.observer import Observers, Quiet
from plyground.games.base import Move, State

TEXTBOOK_ROWS: dict[str, Callable[..., float]] = {
    "minimax": minimax,
    "alphabeta-plain": alphabeta,
    "alphabeta-ordered": alphabeta,
    "expectiminimax-plain": expectiminimax,
}
"""Compare's rows that run a textbook function, and which one."""
KILLERS_PER_PLY = 2
"""Killer moves remembered per distance from the root."""


@dataclass
class KillerOrderedGame(TextbookGame, Quiet):
    """The game view with killer moves and the history heuristic: moves that caused a cut-off
    are tried first, at the same ply (killers) and anywhere (history, weighted by the depth
    left squared).  It is also the observer that learns them from alpha-beta's cut-offs."""

    killers: dict[int, list[Move]] = field(default_factory=dict)
    history: dict[Move, int] = field(default_factory=dict)

    def actions(self, position: Position) -> Sequence[Move]:
        """Killer moves first, then by history, then the game's order."""
        moves: Sequence[Move] = position.state.legal_moves()
        if len(moves) < 2:
            return moves
        ranked = sorted(moves, key=lambda m: self.history.get(m, 0), reverse=True)
        for killer in reversed(self.killers.get(position.ply, [])):
            if killer in ranked:
                ranked.remove(killer)
                ranked.insert(0, killer)
        return ranked

    def cut_off(
        self, state: object, move: Move, value: float, bound: str, skipped: Sequence[Move]
    ) -> None:
        """Remember `move` as a killer at this ply and add to its history."""
        assert isinstance(state, Position)
        row = self.killers.setdefault(state.ply, [])
        if move not in row:
            row.insert(0, move)
            del row[KILLERS_PER_PLY:]
        self.history[move] = self.history.get(move, 0) + state.remaining * state.remaining


class Watch(Counter):
    """The `Counter` of a Compare row, which also keeps the engine context's node count,
    checks the stop request and reports progress every POLL_MASK+1 nodes."""

    def __init__(self, ctx: Context, view: TextbookGame) -> None:
        super().__init__(answered_by_table=lambda: view.last_source == "table")
        self.ctx = ctx

    def enter(self, state: object, depth: int, alpha: float, beta: float) -> None:
        """Count the node; now and then poll."""
        super().enter(state, depth, alpha, beta)
        ctx = self.ctx
        ctx.nodes = self.nodes
        if not ctx.nodes & POLL_MASK:
            ctx.poll()


@dataclass(frozen=True, slots=True)
class TextbookRun:
    """What a textbook row found: MAX's value in the engine's units, the decision, the
    counters and the context that timed it and counted its heuristic leaves."""

    value: float
    move: Move
    watch: Watch
    ctx: Context


def run_textbook(
    state: State[Any],
    variant: str,
    depth: int,
    heuristic: str | None,
    progress: Callable[[SearchProgress], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> TextbookRun:
    """Run one textbook row's function on `state` (no book, no table), counted and
    stoppable.

    :raises SearchCancelled: `should_stop()` returned True.
    """
    view_type = KillerOrderedGame if variant == "alphabeta-ordered" else TextbookGame
    view = view_type(state, heuristic)
    ctx = view.ctx
    ctx.should_stop, ctx.progress, ctx.depth = should_stop, progress, depth
    watch = Watch(ctx, view)
    observer = Observers(watch, view) if isinstance(view, KillerOrderedGame) else watch
    value = TEXTBOOK_ROWS[variant](view, view.start(depth), depth, observer=observer)
    move, best = watch.decision()
    assert best == value
    ctx.best_move, ctx.best_value = move, value
    ctx.report()
    return TextbookRun(value, move, watch, ctx)
