"""Browsing a game: the board shows an earlier position until you return (no pygame).

`Browse`, a part of the play controller, holds which position is shown, how the move list is
scrolled and the analyses of browsed positions, and moves through the game; it reads the
`Match` and asks `SearchJobs` for the searches.  While a game is browsed the AI does not move
and the board takes no moves; undo, redo and a new game end browsing.
"""

from __future__ import annotations

from typing import Any

from plyground.ai.engine.result import SearchResult
from plyground.games.base import CHANCE, Move, State
from plyground.gui.play.match import Match
from plyground.gui.play.search_jobs import Analysis, BoardValues, Purpose, SearchJob, SearchJobs


class Browse:
    """Stepping back through the game: which position is shown, how the move list is
    scrolled, and the analyses of browsed positions (a part of the play controller)."""

    def __init__(self, match: Match, jobs: SearchJobs) -> None:
        self.match = match
        self.jobs = jobs
        self.index: int | None = None
        """Entries of the game played up to the position shown (None: the live game)."""
        self.scroll: int | None = None
        """Move-list lines scrolled up from the newest (None: follow the shown move)."""
        self.records: dict[State[Any], Analysis] = {}
        """The searches of browsed positions, by position (kept while the app runs the game)."""

    @property
    def live(self) -> bool:
        """Whether the game goes on (not over): leaving a browse hands the worker back."""
        return not self.match.state.is_terminal()

    @property
    def browsing(self) -> bool:
        """Whether an earlier position is shown instead of the live game."""
        return self.index is not None

    def shown_index(self) -> int:
        """Entries up to the position shown (the live game: all of them)."""
        return len(self.match.history.entries) if self.index is None else self.index

    def browse_stops(self) -> list[int]:
        """Where a step lands: the start, then after each decision (with its dice)."""
        entries = self.match.history.entries
        return [0] + [
            i + 1 for i in range(len(entries)) if i + 1 == len(entries) or not entries[i + 1].chance
        ]

    def browse_to(self, index: int) -> None:
        """Show the position after `index` entries; the newest one is the live game again."""
        entries = len(self.match.history.entries)
        index = max(0, min(entries, index))
        if index >= entries:
            self.browse_leave()
            return
        if not self.browsing and self.jobs.job is not None:
            self.jobs.cancel_search()  # the AI waits; it starts again when browsing ends
        self.index = index
        self.scroll = None

    def browse_step(self, delta: int) -> None:
        """One decision back (-1) or forward (+1); forward from the last is the live game."""
        stops = self.browse_stops()
        index = self.index
        current = self.shown_index()
        if delta < 0:
            earlier = [s for s in stops if s < current]
            if not earlier:
                self.match.set_notice(
                    "This is the start of the game" if stops[1:] else "No moves yet"
                )
                return
            self.browse_to(earlier[-1])
        elif index is not None:
            self.browse_to(next((s for s in stops if s > current), len(self.match.history.entries)))

    def browse_home(self) -> None:
        """The start of the game."""
        if not self.match.history.entries:
            self.match.set_notice("No moves yet")
            return
        self.browse_to(0)

    def browse_leave(self) -> None:
        """Back to the live game (the AI goes on from there)."""
        job = self.jobs.job
        reviewing = job is not None and job.kind == Purpose.GAME_REVIEW
        if job is not None and (job.kind == Purpose.BROWSE or (reviewing and self.live)):
            self.jobs.cancel_search()  # the game goes on: its AI moves first
        self.index = None
        self.scroll = None

    def shown_state(self) -> State[Any]:
        """The position on the board: the browsed one, or the live one."""
        return self.match.history.state_after(self.shown_index())

    def browse_number(self) -> tuple[int, int]:
        """(decisions up to the shown position, decisions in the game)."""
        entries = self.match.history.entries[: self.shown_index()]
        return sum(not e.chance for e in entries), self.match.history.decisions()

    def shown_decision(self) -> tuple[int, int, Move] | None:
        """(entry index, player, move) of the last decision before the position shown, or
        None at the start."""
        history = self.match.history
        entries = history.entries
        for index in range(self.shown_index() - 1, -1, -1):
            if not entries[index].chance:
                before = history.state_after(index)
                return index, int(before.to_move), entries[index].move
        return None

    def shown_last_move(self) -> Move:
        """The last decision before the shown position (the board marks it), or None."""
        decision = self.shown_decision()
        return None if decision is None else decision[2]

    def shown_last_chance(self) -> Move:
        """The last chance outcome before the shown position (a die's face), or None."""
        entries = self.match.history.entries[: self.index]
        return next((e.move for e in reversed(entries) if e.chance), None)

    def shown_analysis(self) -> Analysis | None:
        """The analysis panel's search: of the browsed position, or the live one's."""
        if not self.browsing:
            return self.jobs.analysis
        return self.records.get(self.shown_state())

    def shown_values(self) -> BoardValues | None:
        """The move values drawn on the board for the shown position (analysis shown)."""
        if not self.browsing:
            return self.jobs.board_values()
        record = self.shown_analysis()
        if record is None or not self.match.settings.show_analysis:
            return None
        return BoardValues.of(self.index or 0, record.result, record.result.move)

    def want_browsed_values(self) -> None:
        """With the analysis shown, search the browsed position (once; kept for later)."""
        state = self.shown_state()
        job = self.jobs.job
        if job is not None and job.kind == Purpose.BROWSE and job.entries != self.index:
            self.jobs.cancel_search()  # a position no longer shown
        if not (self.match.settings.show_analysis and self.match.ai_enabled):
            return
        if state.is_terminal() or state.to_move == CHANCE or state in self.records:
            return
        if self.jobs.job is not None and self.jobs.job.kind == Purpose.GAME_REVIEW:
            self.jobs.cancel_search()  # the position shown first; the game review resumes after
        if self.jobs.job is not None:
            return
        # the advisor at the browsed position
        self.jobs.submit_advice(Purpose.BROWSE, state.to_move, state)
        if self.jobs.job is not None:
            self.jobs.job.entries = self.index or 0

    def browsed_result(self, job: SearchJob, result: SearchResult) -> None:
        """A browsed position's search: its values and the panel's description."""
        if job.entries > len(self.match.history.entries):
            return
        state = self.match.history.state_after(job.entries)
        branching = len(state.legal_moves())
        from plyground.ai.advice.advisor import advice_title

        title = advice_title(job.advisor.evaluator, result) if job.advisor is not None else ""
        record = Analysis(result, "browse", job.player, branching, advice=title)
        self.records[state] = record
