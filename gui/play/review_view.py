"""Reviewing on screen: the banner over the board, the "Back to game" button, and the move
list's clicks and scrolling (the review itself is `gui.play.review`, without pygame)."""

from __future__ import annotations

from typing import Any

import pygame
import pygame_gui

from plyground.gui import theme
from plyground.gui.play import controls, move_list, side_panel
from plyground.gui.widgets import drawing

LIVE = ("live", "Back to game", "Return to the game in progress (Esc or End)")


def banner_texts(controller: Any) -> list[str]:
    """The banner's text, longest first: 'Reviewing move 7 of 23 — ←/→ step · Esc/End
    returns to the game', then shorter ones for narrow windows."""
    shown, total = controller.review_number()
    where = "the start" if shown == 0 else f"move {shown} of {total}"
    short = "Start" if shown == 0 else f"Move {shown} of {total}"
    return [
        f"Reviewing {where} — ←/→ step · Esc/End returns to the game",
        f"Reviewing {where} · Esc returns",
        f"{short} · Esc returns",
    ]


def banner_text(controller: Any) -> str:
    """The banner's full text."""
    return banner_texts(controller)[0]


def build_button(scene: Any) -> None:
    """The "Back to game" button in the status strip, shown only while reviewing."""
    m = scene.app.metrics
    key, label, tip = LIVE
    mute = controls.mute_rect(scene)
    width = drawing.text_size(label, m.font_size(15), "semibold")[0] + m.px(36)
    rect = pygame.Rect(0, 0, width, m.px(34))
    rect.midright = (mute.x - m.gap // 2, mute.centery)
    button = pygame_gui.elements.UIButton(
        rect, label, scene.manager, object_id="#primary", tool_tip_text=tip
    )
    scene.buttons[key] = scene.add(button)
    scene.buttons[key].hide()


def refresh(scene: Any) -> None:
    """Show the button exactly while a position is reviewed."""
    button = scene.buttons.get(LIVE[0])
    wanted = scene.controller.reviewing
    if button is not None and wanted != button.visible:
        if wanted:
            button.show()
        else:
            button.hide()


def draw_banner(surface: pygame.Surface, rect: pygame.Rect, m: Any, controller: Any) -> None:
    """An accent strip where the status line goes: which move is shown and how to return."""
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


def window(scene: Any) -> move_list.Window | None:
    """The move list as it is drawn now (None when there is no room for it)."""
    m = scene.app.metrics
    rect = side_panel.layout(scene.panel_rect(), m, scene)[1]
    if rect is None:
        return None
    controller = scene.controller
    rows = scene.move_rows.get(controller, scene.view)
    highlight = side_panel.highlighted_row(controller)
    stochastic = bool(controller.game.stochastic)
    pm = side_panel.text_metrics(m)
    return move_list.Window(rect, pm, rows, stochastic, controller.review.scroll, highlight)


def scroll(scene: Any, direction: int, page: bool = False) -> None:
    """Scroll the move list: -1 towards the first moves, +1 towards the newest."""
    shown = window(scene)
    if shown is None:
        return
    step = max(1, shown.room - 1) if page else 1
    scene.controller.review.scroll = max(0, shown.scroll - direction * step)


def on_mouse(scene: Any, event: pygame.event.Event) -> bool:
    """The wheel over the move list scrolls it; a click on a move shows its position."""
    shown = window(scene)
    if shown is None:
        return False
    if event.type == pygame.MOUSEWHEEL:
        mouse = scene.app.mouse()
        if mouse is None or not shown.rect.collidepoint(mouse):
            return False
        scroll(scene, -1 if event.y > 0 else 1)
        return True
    if event.type != pygame.MOUSEBUTTONDOWN or event.button != 1:
        return False
    row = shown.row_at(event.pos)
    if row is None:
        return False
    controller = scene.controller
    controller.review_go(controller.match.row_ends()[row])
    if controller.reviewing:
        controller.review.scroll = shown.scroll  # the list stays where it was clicked
    return True
