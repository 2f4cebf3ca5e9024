"""The "New game?" confirmation: asked before a game in progress is thrown away."""

from __future__ import annotations

from enum import Enum

import pygame
import pygame_gui

from plyground.ai.evaluation.wording import counted
from plyground.gui.play.controller import PlayController
from plyground.gui.play.controls import Widget
from plyground.gui.theme import Metrics
from plyground.gui.widgets import focus

ENTER_KEYS = (pygame.K_RETURN, pygame.K_KP_ENTER)


class Answer(Enum):
    """What happened to the dialog: nothing yet, a new game, or closed (keep playing)."""

    NONE = "none"
    NEW_GAME = "new_game"
    CLOSED = "closed"


def in_progress(controller: PlayController) -> bool:
    """Whether starting again would throw away a game in progress."""
    state = controller.state
    return bool(controller.history.entries) and not state.is_terminal()


def open_dialog(
    m: Metrics, manager: pygame_gui.UIManager, centre: tuple[int, int], moves: int
) -> Widget:
    """The confirmation, centred on `centre`, for a game of `moves` decisions."""
    rect = pygame.Rect(0, 0, m.px(420), m.px(220))
    rect.center = centre
    text = (
        f"Abandon this game ({counted(moves, 'move')}) and start a new one?"
        "<br>Enter starts it, Esc keeps playing."
    )
    return pygame_gui.windows.UIConfirmationDialog(
        rect,
        text,
        manager,
        window_title="New game?",
        action_short_name="New game",
        always_on_top=True,
    )


def on_key(dialog: Widget, key: int) -> Answer:
    """While the dialog is up: Enter presses its button (its event follows), Esc closes it;
    other keys do nothing."""
    if key in ENTER_KEYS:
        focus.press(dialog.confirm_button)
    elif key == pygame.K_ESCAPE:
        return Answer.CLOSED
    return Answer.NONE


def on_event(dialog: Widget, event: pygame.event.Event) -> Answer | None:
    """The dialog's answer to a widget event (None: the event is not the dialog's)."""
    if getattr(event, "ui_element", None) is not dialog:
        return None
    if event.type == pygame_gui.UI_CONFIRMATION_DIALOG_CONFIRMED:
        return Answer.NEW_GAME
    if event.type == pygame_gui.UI_WINDOW_CLOSE:
        return Answer.CLOSED
    return None
