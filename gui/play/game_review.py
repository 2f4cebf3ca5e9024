"""The game review in the window (no pygame): the positions' evaluations come from the AI
worker one by one (`ai.advice.game_review`, `ai.advice.review_evaluator`), so the graph fills
while you look;
`GameReviewer`, a part of the play controller, reads the `Match`, what `Browse` shows and
whether `SearchJobs` is busy.

The review card shows while a position is reviewed, and after a game (not while two AIs
play on).  Evaluations are kept by position, so undo, redo and a new game keep what is
known; a review cut short (the AI moves, the game goes on) carries on from where it stopped.
"""

from __future__ import annotations

from typing import Any

from plyground.ai.advice.game_review import (
    SEVERITY,
    GameReview,
    MoveReview,
    PositionReview,
    assemble,
)
from plyground.ai.advice.game_review import review_points as points_of
from plyground.gui.play import events
from plyground.gui.play.browse import Browse
from plyground.gui.play.match import Match
from plyground.gui.play.search_jobs import SearchJobs
from plyground.gui.worker.messages import PositionEvaluated

REVIEW_SECONDS: float | None = None
"""The search budget a position in the window (None:
`ai.advice.review_evaluator.REVIEW_SECONDS`)."""


class GameReviewer:
    """The game review in the window: what is known of each position and asking the worker
    for the rest (a part of the play controller)."""

    def __init__(self, match: Match, jobs: SearchJobs, browse: Browse) -> None:
        self.match = match
        self.jobs = jobs
        self.browse = browse
        self.evaluations: dict[Any, Any] = {}
        """The game review's (evaluation, lines) by position."""
        self.assembled: Any = None
        """The game review last put together, with what it was made from."""
        self.failed_at: int | None = None
        """The game review failed with this many moves played: not tried again until they
        change."""

    def review_card_shown(self) -> bool:
        """Whether the review card is up: a position is browsed, or the game is over (and
        not about to be followed by the next AI-vs-AI game)."""
        if self.browse.index is not None:  # browsing
            return True
        if self.match.over_since is None or not self.match.history.entries:
            return False
        if self.match.at_move_limit():
            return False  # no end to review back from: the game-over card says why it stopped
        if not (self.match.ai_enabled or self.evaluations):
            return False  # a still picture of the game as it stands (screenshots)
        return not (self.match.ai_vs_ai() and not self.match.paused)

    def review_points(self) -> list[tuple[int, Any]]:
        """The positions the review evaluates: (entries played, state)."""
        return points_of(self.match.history.initial, self.match.history.moves)

    def want_game_review(self) -> None:
        """With the card up and the worker free, evaluate the positions not known yet."""
        if not (self.review_card_shown() and self.match.ai_enabled) or self.jobs.job is not None:
            return
        if self.failed_at == len(self.match.history.entries):
            return  # it failed on these moves (a toast said why)
        known = self.evaluations
        missing = [
            (index, state)
            for index, state in self.review_points()
            if not state.is_terminal() and state not in known
        ]
        if not missing:
            return
        seconds = REVIEW_SECONDS if REVIEW_SECONDS is not None else _default_seconds()
        self.jobs.submit_review(tuple(missing), seconds)

    def on_review_position(self, position: PositionEvaluated) -> None:
        """One evaluated position from the worker (kept by position, valid for good)."""
        self.evaluations[position.state] = (position.evaluation, list(position.lines))
        self.match.emit(events.Reviewed())

    def game_review(self) -> GameReview:
        """The review as far as it is known (cached until a move or an evaluation arrives)."""
        key = (len(self.match.history.entries), self.match.history.state, len(self.evaluations))
        cached = self.assembled
        if cached is None or cached[0] != key:
            review = assemble(
                self.match.history.initial, self.match.history.moves, self.evaluations
            )
            cached = self.assembled = (key, review)
        result: GameReview = cached[1]
        return result

    def shown_position_review(self) -> PositionReview | None:
        """The review of the position shown, once it is evaluated."""
        shown = self.browse.shown_index()
        return next((p for p in self.game_review().positions if p.index == shown), None)

    def shown_move_review(self) -> MoveReview | None:
        """The judgement of the last decision before the position shown."""
        shown = self.browse.shown_index()
        before = [m for m in self.game_review().moves if m.index < shown]
        return before[-1] if before else None

    def row_of(self, index: int) -> int | None:
        """The move list's row holding entry `index`."""
        return next(
            (row for row, end in enumerate(self.match.history.row_ends()) if end > index), None
        )

    def row_marks(self) -> dict[int, MoveReview]:
        """The worst judged decision of each move-list row (rows with none are left out)."""
        marks: dict[int, MoveReview] = {}
        for move in self.game_review().moves:
            if move.judgement is None:
                continue
            row = self.row_of(move.index)
            old = marks.get(row) if row is not None else None
            if row is not None and (old is None or _worse(move, old)):
                marks[row] = move
        return marks

    def copy_text(self) -> str:
        """The game's notation of the moves up to the position shown."""
        return str(
            self.match.game.format_moves(self.match.history.moves[: self.browse.shown_index()])
        )


def _worse(move: MoveReview, other: MoveReview) -> bool:
    assert move.judgement is not None and other.judgement is not None
    return SEVERITY[move.judgement] > SEVERITY[other.judgement]


def _default_seconds() -> float | None:
    from plyground.ai.advice.review_evaluator import REVIEW_SECONDS as seconds

    return seconds
