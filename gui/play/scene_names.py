"""The play scene's older attribute names, read through to its controller.

Screenshots, the frame benchmark and older tests read `play.match`, `play.score`... on the
scene; new code reads `play.controller` instead.
"""

from __future__ import annotations

from typing import Any

from gui.play.controller import PlayController
from gui.play.jobs import BoardValues, SearchRecord


class ControllerNames:
    """Properties that read (and for screenshots, set) the controller's state."""

    controller: PlayController

    @property
    def match(self) -> Any:
        """The game history (`controller.match`)."""
        return self.controller.match

    @property
    def game(self) -> Any:
        """The game object (`controller.game`)."""
        return self.controller.game

    @property
    def sides(self) -> Any:
        """Each side's set-up (`controller.sides`)."""
        return self.controller.sides

    @property
    def series(self) -> Any:
        """The series record (`controller.series`)."""
        return self.controller.series

    @property
    def score(self) -> list[int]:
        """Wins of each side and draws (`controller.score`)."""
        return self.controller.score

    @property
    def job(self) -> Any:
        """The running search (`controller.job`)."""
        return self.controller.job

    @property
    def recorded(self) -> bool:
        """Whether this game's result is counted (`controller.recorded`)."""
        return self.controller.recorded

    @property
    def animate(self) -> bool:
        """Whether moves animate (`controller.animate`; off for screenshots and tests)."""
        return self.controller.animate

    @animate.setter
    def animate(self, animate: bool) -> None:
        self.controller.animate = animate

    @property
    def notice(self) -> tuple[str, float] | None:
        """The status line's notice and until when (`controller.notice`)."""
        return self.controller.notice

    @property
    def progress(self) -> Any:
        """The running search's last progress report (`controller.progress`)."""
        return self.controller.progress

    @property
    def paused(self) -> bool:
        """Whether AI vs AI is paused (`controller.paused`)."""
        return self.controller.paused

    @property
    def roll(self) -> Any:
        """The die being rolled and since when (`controller.roll`)."""
        return self.controller.roll

    @property
    def over_since(self) -> float | None:
        """When the game ended (`controller.over_since`)."""
        return self.controller.over_since

    @property
    def ai_enabled(self) -> bool:
        """Whether the AI moves (screenshots switch it off)."""
        return self.controller.ai_enabled

    @ai_enabled.setter
    def ai_enabled(self, enabled: bool) -> None:
        self.controller.ai_enabled = enabled

    @property
    def hint(self) -> Any:
        """The hinted move (`controller.hint`)."""
        return self.controller.hint

    @hint.setter
    def hint(self, move: Any) -> None:
        self.controller.hint = move

    @property
    def analysis(self) -> Any:
        """The search the panel describes (`controller.analysis`)."""
        return self.controller.analysis

    @analysis.setter
    def analysis(self, analysis: Any) -> None:
        """Show a search worked out elsewhere (screenshots): panel and board values."""
        controller = self.controller
        if analysis is None:
            controller.analysis = None
            return
        controller.analysis = SearchRecord(
            analysis.result,
            analysis.source,
            analysis.player,
            analysis.branching,
            analysis.minimax_nodes,
            analysis.all_values,
            analysis.played,
        )
        if analysis.all_values:
            entries = len(controller.match.entries)
            values = dict(analysis.result.move_values)
            controller.board = BoardValues(entries, values, analysis.result.move)

    @property
    def analysis_decisions(self) -> int:
        """The decision count the panel's search belongs to."""
        return self.controller.analysis_decisions

    @analysis_decisions.setter
    def analysis_decisions(self, decisions: int) -> None:
        self.controller.analysis_decisions = decisions

    def side_labels(self) -> list[str]:
        """Each side's series label (`controller.side_labels()`)."""
        return self.controller.side_labels()
