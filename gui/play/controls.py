"""The play scene's widgets: the role menus, the buttons, AI-vs-AI controls, the card's buttons."""

from __future__ import annotations

import math
from typing import Any

import pygame
import pygame_gui

from gui import drawing
from gui.play.controller import SPEED_MAX, PlayController
from gui.settings import CUSTOM, HUMAN

CUSTOM_ROLE = "AI · Custom…"
BUTTONS = (
    ("new", "New game", "N"),
    ("undo", "Undo", "U or Ctrl+Z"),
    ("redo", "Redo", "Ctrl+Y"),
    ("hint", "Hint", "Best move for your side"),
    ("swap", "Swap sides", "Exchange the two sides' players"),
    ("players", "AI settings…", "Change each side's AI settings"),
    ("analysis", "Show analysis", "Show or hide move values (A)"),
    ("menu", "Back to menu", "Esc goes back one screen"),
    ("save", "Save game…", "Save this game to a file (Ctrl+S)"),
    ("open", "Open game…", "Open a saved game (Ctrl+O)"),
)


def role_options(game_name: str) -> list[str]:
    """'Human', 'AI · <preset>' for each preset, then 'AI · Custom…'."""
    import ai

    presets = list(ai.DIFFICULTIES[game_name])
    return [HUMAN.capitalize()] + [f"AI · {p}" for p in presets] + [CUSTOM_ROLE]


def role_of(text: str) -> str:
    """A role menu's text as a role: HUMAN, CUSTOM or the preset's name."""
    if text == HUMAN.capitalize():
        return HUMAN
    if text == CUSTOM_ROLE:
        return CUSTOM
    return text.split("· ", 1)[1]


def build_roles(scene: Any, inner: pygame.Rect, y: int) -> int:
    """One drop-down per side (the lower built first so the upper one's list opens over it)."""
    m = scene.app.metrics
    controller: PlayController = scene.controller
    menu_w = round(inner.width * 0.56)
    rows = [
        pygame.Rect(inner.right - menu_w, y + i * (m.button_h + m.px(6)), menu_w, m.button_h)
        for i in range(2)
    ]
    options = role_options(controller.game_name)
    for i in (1, 0):
        side = controller.sides[i]
        if not side.is_ai:
            current = options[0]
        else:
            current = CUSTOM_ROLE if side.preset == CUSTOM else f"AI · {side.preset}"
        if current not in options:
            current = options[0]
        choices: list[str | tuple[str, str]] = list(options)
        menu = pygame_gui.elements.UIDropDownMenu(choices, current, rows[i], scene.manager)
        scene.add(menu)
        scene.role_menus.insert(0, menu)
    return int(rows[1].bottom)


def build_buttons(scene: Any, inner: pygame.Rect, y: int) -> int:
    """The two columns of buttons; returns the y under them."""
    m = scene.app.metrics
    shown = scene.controller.settings.show_analysis
    half = (inner.width - m.gap) // 2
    for k, (key, label, tip) in enumerate(BUTTONS):
        if key == "analysis" and shown:
            label = "Hide analysis"
        rect = pygame.Rect(
            inner.x + (k % 2) * (half + m.gap),
            y + (k // 2) * (m.button_h + m.px(8)),
            half,
            m.button_h,
        )
        object_id = "#selected" if key == "analysis" and shown else None
        scene.buttons[key] = scene.add(
            pygame_gui.elements.UIButton(
                rect, label, scene.manager, object_id=object_id, tool_tip_text=tip
            )
        )
    return int(y + math.ceil(len(BUTTONS) / 2) * (m.button_h + m.px(8)) + m.px(8))


def build_ai_vs_ai(scene: Any, inner: pygame.Rect, y: int) -> int:
    """Pause/Resume, Step, the speed slider and Series results."""
    m = scene.app.metrics
    controller: PlayController = scene.controller
    half = (inner.width - m.gap) // 2
    rect = pygame.Rect(inner.x, y + m.px(22), half, m.button_h)
    scene.buttons["pause"] = scene.add(
        pygame_gui.elements.UIButton(
            rect,
            "Resume" if controller.paused else "Pause",
            scene.manager,
            object_id="#primary" if controller.paused else None,
            tool_tip_text="Space",
        )
    )
    rect = pygame.Rect(inner.x + half + m.gap, y + m.px(22), half, m.button_h)
    scene.buttons["step"] = scene.add(
        pygame_gui.elements.UIButton(rect, "Step", scene.manager, tool_tip_text="One move (S)")
    )
    y = rect.bottom + m.px(8)
    label_w = drawing.text_size("Speed", m.font_size(13))[0] + m.px(12)
    value_w = drawing.text_size("instant", m.font_size(13))[0] + m.px(10)
    slider = pygame.Rect(inner.x + label_w, y, inner.width - label_w - value_w, m.px(26))
    scene.speed_slider = scene.add(
        pygame_gui.elements.UIHorizontalSlider(
            slider,
            SPEED_MAX - controller.settings.speed,
            (0.0, SPEED_MAX),
            scene.manager,
            click_increment=0.1,
        )
    )
    y = slider.bottom + m.px(8)
    rect = pygame.Rect(inner.x, y, inner.width, m.button_h)
    scene.buttons["series"] = scene.add(
        pygame_gui.elements.UIButton(
            rect,
            "Series results",
            scene.manager,
            tool_tip_text="Cross table and scores with 95% intervals (T)",
        )
    )
    return int(rect.bottom + m.px(10))


def build_overlay_buttons(scene: Any, card: pygame.Rect) -> None:
    """Play again / Menu on the game-over card."""
    if "again" in scene.buttons:
        return
    m = scene.app.metrics
    again = pygame.Rect(0, 0, m.px(150), m.button_h)
    again.midright = (card.right - m.pad, card.centery)
    menu = pygame.Rect(0, 0, m.px(110), m.button_h)
    menu.midright = (again.x - m.gap, card.centery)
    scene.buttons["again"] = scene.add(
        pygame_gui.elements.UIButton(again, "Play again", scene.manager, object_id="#primary")
    )
    scene.buttons["overlay_menu"] = scene.add(
        pygame_gui.elements.UIButton(menu, "Menu", scene.manager)
    )


def remove_overlay_buttons(scene: Any) -> None:
    """The card's buttons go when the game is no longer over."""
    for key in ("again", "overlay_menu"):
        button = scene.buttons.pop(key, None)
        if button is not None:
            button.kill()
            if button in scene.widgets:
                scene.widgets.remove(button)


def button_flags(controller: PlayController) -> dict[str, bool]:
    """Which buttons can be used now."""
    job = controller.job
    return {
        "undo": controller.match.can_undo(),
        "redo": controller.match.can_redo(),
        "hint": controller.human_turn() and (job is None or job.kind == "position"),
        "step": controller.paused and not controller.state.is_terminal(),
        "series": len(controller.series) > 0,
    }
