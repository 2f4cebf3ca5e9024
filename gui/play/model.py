"""The play screen without pygame: what its views read besides the controller.

`PlayModel` holds the match's controller, the game's kit, the animation clocks (the move
that animates, the die, the message and the refused move's cue), the numbers the board
eases, the keyboard cursor and the side panel's flags.  The scene turns the controller's
events into changes here; the views (`status_line`, `side_panel`, `values_caption`,
`review_card`, `browse_view`, `game_over_card`) read it and return their hit areas.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from plyground.gui.play.activity import Activity
from plyground.gui.play.controller import PlayController
from plyground.gui.play.panel_rows import KitRows, MoveRows

if TYPE_CHECKING:
    from plyground.gui.kits.base import BoardView

CARD_SLIDE = 0.3
"""Seconds the game-over card takes to slide in."""


@dataclass
class Cursor:
    """The keyboard cursor over the board: its move, shown until the mouse moves."""

    move: Any = None
    mouse_at: tuple[int, int] | None = None
    shown: bool = False


@dataclass(frozen=True)
class BoardMessage:
    """A play message on the board (a die's "Rolled a 1!"): text, tone, when it appeared."""

    text: str
    tone: str
    since: float


class PlayModel:
    """One play screen's state for its views: controller, kit, clocks, cursor, flags."""

    def __init__(self, controller: PlayController, kit: BoardView[Any]) -> None:
        self.controller = controller
        self.kit = kit
        self.anim_start = -10.0
        self.anim_length = 0.0
        self.anim_move: Any = None
        self.last_move: Any = None
        self.last_outcome: Any = None
        """The last chance event's outcome (a die's face), for the kit to show."""
        """The last chance outcome (a die's face), shown until the next one."""
        self.message: BoardMessage | None = None
        self.cue: tuple[Any, float] | None = None
        """A refused move and when it was refused (the board's 'not here' shake)."""
        self.landing: tuple[float, Any] | None = None
        """When the running move animation ends (its "landed" sound), and whose move it is."""
        self.shown_numbers: tuple[float, ...] = ()
        """The numbers the board eases (a race's scores), as shown this frame."""
        self.cursor = Cursor()
        self.kit_rows = KitRows()
        self.move_rows = MoveRows()
        self.analysis_hidden = 0
        """How many analysis rows the panel had no room for (then pointing shows them)."""
        self.analysis_pinned = False
        """All of the analysis shown by key (V) until the next key, click or pointer move."""
        self.activity = Activity()
        self.copied: str | None = None
        """The text "Copy position" put on the clipboard last."""
        self.reset_effects()

    def reset_effects(self) -> None:
        """Drop animations and per-position marks (after undo, new game...)."""
        self.anim_start = -10.0
        self.anim_length = 0.0
        self.message = None
        self.cue = None
        self.landing = None
        entries = self.controller.history.entries
        decisions = [e.move for e in entries if not e.chance]
        self.last_move = decisions[-1] if decisions else None
        faces = [e.move for e in entries if e.chance]
        self.last_outcome = faces[-1] if faces else None
        self.shown_numbers = self.kit.shown_numbers(self.controller.state)

    def overlay_shown(self, now: float) -> float:
        """How far the game-over card has slid in (0..1) at `now`."""
        over_since = self.controller.over_since
        if over_since is None:
            return 0.0
        if not self.controller.animate:
            return 1.0
        return float(min(1.0, (now - over_since) / CARD_SLIDE))

    def cursor_shown(self, mouse: tuple[int, int] | None) -> Any:
        """The cursor's move while it is shown (the mouse has not moved since), else None."""
        cursor = self.cursor
        if not cursor.shown or mouse != cursor.mouse_at:
            return None
        return cursor.move

    def animating(self, now: float) -> bool:
        """Whether the picture changes without an event at `now` (see `gui.play.activity`)."""
        return self.activity.animating(self, now)
