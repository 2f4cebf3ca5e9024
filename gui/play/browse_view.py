"""Browsing on screen: the banner over the board, the "Back to game" button, and the move
list's clicks and scrolling (the review itself is `gui.play.browse`, without pygame)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame
import pygame_gui

from plyground.gui import theme
from plyground.gui.play import move_list, side_panel
from plyground.gui.play.controller import PlayController
from plyground.gui.play.controls import Widget
from plyground.gui.theme import Metrics
from plyground.gui.widgets import drawing

if TYPE_CHECKING:
    from plyground.gui.play.model import PlayModel
    from plyground.gui.play.screen import PlayScreen

LIVE = ("live", "Back to game", "Return to the game in progress (Esc or End)")


def banner_texts(controller: PlayController) -> list[str]:
    """The banner's text, longest first: 'Reviewing after 3. Yellow 4 — ←/→ step · Esc/End
    returns to the game', then shorter ones for narrow windows.  It names the move as the
    move list numbers it (a pair a number; with dice, a turn a line), never a ply count."""
    decision = controller.browse.shown_decision()
    if decision is None:
        where, short = "the start", "Start"
    else:
        index, player, move = decision
        row = controller.review.row_of(index)
        game = controller.game
        players = [player for player, _ in controller.history.history_rows()]
        number = (
            "" if row is None else f"{move_list.move_number(row, bool(game.stochastic), players)}. "
        )
        name = controller.colour_names()[player]
        short = f"After {number}{name} {game.format_move(move)}"
        where = f"after {number}{name} {game.format_move(move)}"
    return [
        f"Reviewing {where} — ←/→ step · Esc/End returns to the game",
        f"Reviewing {where} · Esc returns",
        f"{short} · Esc returns",
    ]


def banner_text(controller: PlayController) -> str:
    """The banner's full text."""
    return banner_texts(controller)[0]


def build_button(m: Metrics, manager: pygame_gui.UIManager, mute: pygame.Rect) -> Widget:
    """The "Back to game" button in the status strip left of `mute` (hidden: it shows only
    while browsing, see `refresh`)."""
    _, label, tip = LIVE
    width = drawing.text_size(label, m.font_size(15), "semibold")[0] + m.px(36)
    rect = pygame.Rect(0, 0, width, m.px(34))
    rect.midright = (mute.x - m.gap // 2, mute.centery)
    button: Widget = pygame_gui.elements.UIButton(
        rect, label, manager, object_id="#primary", tool_tip_text=tip
    )
    button.hide()
    return button


def refresh(button: Widget, controller: PlayController) -> None:
    """Show the button exactly while a position is browsed."""
    wanted = controller.browse.browsing
    if wanted != button.visible:
        if wanted:
            button.show()
        else:
            button.hide()


def draw_banner(
    surface: pygame.Surface, rect: pygame.Rect, m: Metrics, controller: PlayController
) -> pygame.Rect:
    """An accent strip where the status line goes: which move is shown and how to return;
    returns the strip."""
    box = rect.inflate(0, -m.px(8))
    drawing.rounded_rect(
        surface, box, theme.mix(theme.PANEL, theme.ACCENT, 0.22), m.px(12), 1, theme.ACCENT
    )
    size = m.font_size(16)
    room = box.width - 2 * m.pad
    texts = banner_texts(controller)
    fits = (t for t in texts if drawing.text_size(t, size, "semibold")[0] <= room)
    text = next(fits, drawing.ellipsize(texts[-1], room, size, "semibold"))
    drawing.draw_text(
        surface, text, (box.x + m.pad, box.centery), size, theme.TEXT, "semibold", anchor="midleft"
    )
    return box


def window(
    model: PlayModel, screen: PlayScreen, rect: pygame.Rect | None = None
) -> move_list.Window | None:
    """The move list as it is drawn now (None when there is no room for it); `rect`: where
    the panel drew it (by default where it goes on `screen`)."""
    m = screen.metrics
    rect = side_panel.layout(model, screen)[1] if rect is None else rect
    if rect is None:
        return None
    controller = model.controller
    rows = model.move_rows.get(controller, model.kit)
    highlight = side_panel.highlighted_row(controller)
    stochastic = bool(controller.game.stochastic)
    pm = side_panel.text_metrics(m)
    return move_list.Window(rect, pm, rows, stochastic, controller.browse.scroll, highlight)


def scroll(
    model: PlayModel,
    screen: PlayScreen,
    direction: int,
    page: bool = False,
    rect: pygame.Rect | None = None,
) -> None:
    """Scroll the move list: -1 towards the first moves, +1 towards the newest (`rect`: where
    the panel drew it)."""
    shown = window(model, screen, rect)
    if shown is None:
        return
    step = max(1, shown.room - 1) if page else 1
    model.controller.browse.scroll = max(0, shown.scroll - direction * step)


def on_mouse(
    model: PlayModel, screen: PlayScreen, event: pygame.event.Event, drawn: pygame.Rect | None
) -> bool:
    """The wheel over the move list scrolls it; a click on a move shows its position (`drawn`:
    where the panel drew the list, None when it drew none)."""
    shown = window(model, screen, drawn) if drawn is not None else None
    if shown is None:
        return False
    if event.type == pygame.MOUSEWHEEL:
        mouse = screen.mouse
        if mouse is None or not shown.rect.collidepoint(mouse):
            return False
        scroll(model, screen, -1 if event.y > 0 else 1, rect=drawn)
        return True
    if event.type != pygame.MOUSEBUTTONDOWN or event.button != 1:
        return False
    row = shown.row_at(event.pos)
    if row is None:
        return False
    controller = model.controller
    controller.browse.browse_to(controller.history.row_ends()[row])
    if controller.browse.browsing:
        controller.browse.scroll = shown.scroll  # the list stays where it was clicked
    return True
