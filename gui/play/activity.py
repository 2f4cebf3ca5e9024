"""Whether the play scene's picture changes by itself (so the window knows when it may rest).

The app draws a frame only after an event or while the top scene says it is animating
(`Scene.animating`).  The play scene animates while a move falls or is placed, the die
tumbles, a message fades, displayed scores ease, the game-over card slides in,
a notice is up, the AI searches (its progress and the spinner), or two AIs play on.  The
pulsing marks (a hint, the winning line) pulse for `PULSE_SECONDS` after they appear and
then hold still, so a finished game at rest costs nothing.  No pygame here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from plyground.gui.play.controller import PlayController
    from plyground.gui.play.model import PlayModel

PULSE_SECONDS = 2.5
"""How long a hint ring or a winning line pulses before it holds still."""
MESSAGE_TIME = 1.8
"""Seconds a play message (a die's "Rolled a 1!") shows before it fades (0.4 s)."""
CUE_SECONDS = 0.4
"""The 'not here' shake of a refused move."""
EASED = 0.01
"""Displayed numbers closer than this to their target have settled."""


class Activity:
    """The pulse clock of one play scene: marks pulse for a while after they change."""

    def __init__(self) -> None:
        self.marks: tuple[Any, ...] | None = None
        self.since = 0.0

    def update(self, controller: PlayController, now: float) -> None:
        """Note when the pulsing marks (hint, finished game, position) last changed."""
        marks = (controller.hint, controller.over_since, len(controller.history.entries))
        if marks != self.marks:
            self.marks, self.since = marks, now

    def pulse_now(self, now: float) -> float:
        """The clock the board's pulsing marks read: it stops `PULSE_SECONDS` after a change."""
        return min(now, self.since + PULSE_SECONDS)

    def animating(self, model: PlayModel, now: float) -> bool:
        """Whether the play scene's picture changes without an event at `now`."""
        controller = model.controller
        if controller.jobs.job is not None or controller.jobs.pending is not None:
            return True  # the AI searches (progress, spinner) or its move is about to land
        if controller.roll is not None or controller.busy():
            return True
        if controller.ai_vs_ai() and not controller.paused and controller.ai_enabled:
            return True  # two AIs play on: the next move or the next game is coming
        if controller.current_notice() is not None:
            return True
        if now < model.anim_start + model.anim_length:
            return True
        if controller.over_since is not None and model.overlay_shown(now) < 1.0:
            return True  # the game-over card slides in
        if model.message is not None and now - model.message.since < MESSAGE_TIME + 0.5:
            return True
        if model.cue is not None and now - model.cue[1] < CUE_SECONDS:
            return True
        if _pulsing(controller) and now < self.since + PULSE_SECONDS:
            return True
        return _easing(model)


def _pulsing(controller: PlayController) -> bool:
    """Whether a pulsing mark is on the board (a hint, or a finished game's winner)."""
    return controller.hint is not None or controller.state.is_terminal()


def _easing(model: PlayModel) -> bool:
    """Whether the board's displayed numbers (a race's scores) still ease towards their values."""
    targets = model.kit.shown_numbers(model.controller.state)
    return any(abs(a - b) > EASED for a, b in zip(targets, model.shown_numbers, strict=True))
