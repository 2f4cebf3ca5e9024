"""The play scene's widgets: the role menus, the buttons, AI-vs-AI controls, the card's buttons."""

from __future__ import annotations

import math
from typing import Any

import pygame
import pygame_gui

from plyground.gui.play.controller import SPEED_MAX, PlayController
from plyground.gui.sound import sounds
from plyground.gui.storage import settings
from plyground.gui.storage.settings import CUSTOM, FROM_FILE, HUMAN
from plyground.gui.widgets import drawing
from plyground.gui.widgets.drop_down import drop_down

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
    from plyground import ai

    presets = list(ai.DIFFICULTIES[game_name])
    return [HUMAN.capitalize()] + [f"AI · {p}" for p in presets] + [CUSTOM_ROLE]


def role_of(text: str) -> str:
    """A role menu's text as a role: HUMAN, CUSTOM or the preset's name."""
    if text == HUMAN.capitalize():
        return HUMAN
    if text == CUSTOM_ROLE:
        return CUSTOM
    if text.endswith(".py"):  # a side playing the player's own file (its name shown)
        return FROM_FILE
    return text.split("· ", 1)[1]


def build_roles(scene: Any, inner: pygame.Rect, y: int) -> int:
    """One drop-down per side (the lower built first so the upper one's list opens over it)."""
    m = scene.app.metrics
    controller: PlayController = scene.controller
    menu_w = round(inner.width * 0.56)
    height = m.button_h if m.height >= SHORT_WINDOW else row_size(scene)[0]
    rows = [
        pygame.Rect(inner.right - menu_w, y + i * (height + m.px(6)), menu_w, height)
        for i in range(2)
    ]
    options = role_options(controller.game_name)
    for i in (1, 0):
        side = controller.sides[i]
        choices: list[str | tuple[str, str]] = list(options)
        if not side.is_ai:
            current = options[0]
        elif side.preset == FROM_FILE:
            current = side.label()  # "AI · my_agent.py"
            choices.append(current)
        else:
            current = CUSTOM_ROLE if side.preset == CUSTOM else f"AI · {side.preset}"
        if current not in choices:
            current = options[0]
        menu = drop_down(choices, current, rows[i], scene.manager)
        scene.add(menu)
        scene.role_menus.insert(0, menu)
    return int(rows[1].bottom)


SHORT_WINDOW = 700
"""Below this height the panel's buttons are tighter, so the analysis and the move list keep
their room."""


def row_size(scene: Any) -> tuple[int, int]:
    """(button height, space under it): tighter in AI vs AI, whose extra rows must leave
    the analysis and the move list their room, and tighter still in a short window."""
    m = scene.app.metrics
    if m.height < SHORT_WINDOW:
        return max(28, m.px(34)), m.px(4)
    if scene.controller.ai_vs_ai():
        return max(30, m.px(34)), m.px(5)
    return m.button_h, m.px(8)


def columns(scene: Any, inner: pygame.Rect, labels: list[str]) -> int:
    """3 columns of buttons when every label fits a third of the panel (a big window), else 2."""
    m = scene.app.metrics
    third = (inner.width - 2 * m.gap) // 3
    widest = max(drawing.text_size(label, m.widget_font)[0] for label in labels)
    return 3 if widest + m.px(14) <= third else 2


def build_buttons(scene: Any, inner: pygame.Rect, y: int) -> int:
    """The buttons in two columns, or in three with the views' row (Explore, Compare...)
    in the same grid when the panel is wide enough; returns the y under them."""
    m = scene.app.metrics
    shown = scene.controller.settings.show_analysis
    entries = [
        (key, "Hide analysis" if key == "analysis" and shown else label, tip)
        for key, label, tip in BUTTONS
    ]
    tools = [t for t in TOOLS if t[0] != "policy" or has_policy(scene.controller)]
    labels = [label for _, label, _ in entries + tools] + ["Show analysis", "Hide analysis"]
    count = columns(scene, inner, labels)  # the same either way the analysis is
    if count == 3:
        if len(entries) % 3 + len(tools) > 3:  # the views start a row of their own
            entries += [("", "", "")] * (-len(entries) % 3)
        entries += tools
    width = (inner.width - (count - 1) * m.gap) // count
    height, space = row_size(scene)
    for k, (key, label, tip) in enumerate(entries):
        if not key:
            continue
        rect = pygame.Rect(
            inner.x + (k % count) * (width + m.gap),
            y + (k // count) * (height + space),
            width,
            height,
        )
        object_id = "#selected" if key == "analysis" and shown else None
        scene.buttons[key] = scene.add(
            pygame_gui.elements.UIButton(
                rect, label, scene.manager, object_id=object_id, tool_tip_text=tip
            )
        )
    rows = math.ceil(len(entries) / count)
    return int(y + rows * (height + space) + (space if count == 3 else 0) + space)


def build_ai_vs_ai(scene: Any, inner: pygame.Rect, y: int) -> int:
    """One row of Pause/Resume, Step and Series, then the speed slider."""
    m = scene.app.metrics
    controller: PlayController = scene.controller
    height, space = row_size(scene)
    third = (inner.width - 2 * m.gap) // 3
    row = [pygame.Rect(inner.x + k * (third + m.gap), y, third, height) for k in range(3)]
    scene.buttons["pause"] = scene.add(
        pygame_gui.elements.UIButton(
            row[0],
            "Resume" if controller.paused else "Pause",
            scene.manager,
            object_id="#primary" if controller.paused else None,
            tool_tip_text="Space",
        )
    )
    scene.buttons["step"] = scene.add(
        pygame_gui.elements.UIButton(row[1], "Step", scene.manager, tool_tip_text="One move (S)")
    )
    scene.buttons["series"] = scene.add(
        pygame_gui.elements.UIButton(
            row[2],
            "Series",
            scene.manager,
            tool_tip_text="Series results: cross table and scores with 95% intervals (T)",
        )
    )
    y = row[0].bottom + space + m.px(2)
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
    return int(slider.bottom + m.px(10))


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
        "explore": not tool_refusal(controller, "explore"),
        "compare": not tool_refusal(controller, "compare"),
        "policy": not tool_refusal(controller, "policy"),
    }


TOOLS = (
    ("explore", "Explore", "See the search tree of this position, step by step (E)"),
    ("compare", "Compare", "Every algorithm on this position: nodes, cut-offs, time (C)"),
    ("policy", "Policy", "The game's best policy around this decision, as a picture (P)"),
)
"""The row of views opened on the current position (Policy only for games that draw one)."""
MOVE_NOW = ("move_now", "Move now", "Play the deepest search finished so far (G)")
TOOL_DEPTH = 4
"""The explorer and the compare view open at most this deep (traces stay drawable)."""


def has_policy(controller: PlayController) -> bool:
    """Whether the game draws a reference policy (asked of the game, never by name)."""
    return hasattr(type(controller.game), "policy_picture")


def tool_refusal(controller: PlayController, key: str) -> str:
    """Why a view cannot open on the position shown now ("" when it can)."""
    state = controller.shown_state()
    if key == "move_now":
        job = controller.job
        if job is None or job.kind != "move" or state.is_terminal():
            return "Move now is for an AI that is thinking"
        return ""
    if key == "policy" and not has_policy(controller):
        return "This game has no reference policy to draw"
    if state.is_terminal():
        return "The game is over: click a move in the list (or Home) to look at a position"
    if state.to_move not in (0, 1):
        return "Wait for the die: the views look at a player's decision"
    return ""


def tool_search(controller: PlayController) -> tuple[str, int, str | None]:
    """(algorithm, depth, heuristic) for the explorer and the compare view: the AI side's
    settings (the side to move first), else the default analysis; depth at most TOOL_DEPTH."""
    state = controller.shown_state()
    player = state.to_move if state.to_move in (0, 1) else int(getattr(state, "player", 0))
    side = controller.sides[player]
    if side.is_ai:
        config = side.player_config(controller.game_name)
    else:
        config = controller.analysis_config(player)
    depth = min(config.depth or TOOL_DEPTH, TOOL_DEPTH)
    return str(config.algorithm), int(depth), config.heuristic


def tool_chosen(controller: PlayController) -> Any:
    """The move a search chose in the current position: the hint, the AI's waiting move, or
    the move the board's values marked (None when no search looked at this position).  While
    reviewing: the move the reviewed position's analysis chose."""
    if controller.reviewing:
        shown = controller.shown_values()
        return shown.chosen if shown is not None else None
    if controller.hint is not None:
        return controller.hint
    entries = len(controller.match.entries)
    pending = controller.pending
    if pending is not None and pending.entries == entries:
        return pending.move
    board = controller.board
    if board is not None and board.entries == entries:
        return board.chosen
    return None


def open_view(scene: Any, action: str) -> None:
    """The explorer, the compare view or the policy picture, on the position shown (the
    reviewed one while reviewing)."""
    controller: PlayController = scene.controller
    why = tool_refusal(controller, action)
    if why:
        scene.set_notice(why, 2.5)
        return
    state = controller.shown_state()
    algorithm, depth, heuristic = tool_search(controller)
    chosen = tool_chosen(controller)
    controller.cancel_search()  # the view searches; the AI starts again on return
    if action == "explore":
        scene.app.switch(
            "explorer", state=state, algorithm=algorithm, depth=depth, heuristic=heuristic
        )
    elif action == "compare":
        game = controller.game
        scene.app.switch("compare", game=game, state=state, depth=depth, heuristic=heuristic)
    else:
        scene.app.switch("policy", game=controller.game, state=state, chosen=chosen)


def build_tools(scene: Any, inner: pygame.Rect, y: int) -> int:
    """One row: Explore, Compare and (for games with a policy picture) Policy (unless
    `build_buttons` put them in its grid)."""
    m = scene.app.metrics
    tools = [t for t in TOOLS if t[0] != "policy" or has_policy(scene.controller)]
    if tools[0][0] in scene.buttons:
        return y
    width = (inner.width - m.gap * (len(tools) - 1)) // len(tools)
    height, space = row_size(scene)
    for k, (key, label, tip) in enumerate(tools):
        rect = pygame.Rect(inner.x + k * (width + m.gap), y, width, height)
        scene.buttons[key] = scene.add(
            pygame_gui.elements.UIButton(rect, label, scene.manager, tool_tip_text=tip)
        )
    return int(y + height + 2 * space)


def move_now_rect(scene: Any) -> pygame.Rect:
    """The "Move now" button: in the status strip, just left of the mute button."""
    m = scene.app.metrics
    mute = mute_rect(scene)
    label = drawing.text_size(MOVE_NOW[1], m.font_size(15), "semibold")[0]
    rect = pygame.Rect(0, 0, label + m.px(36), m.px(34))
    rect.midright = (mute.x - m.gap // 2, mute.centery)
    return rect


def build_move_now(scene: Any) -> None:
    """The "Move now" button, shown only while an AI side thinks (`refresh_tools`)."""
    key, label, tip = MOVE_NOW
    button = pygame_gui.elements.UIButton(
        move_now_rect(scene), label, scene.manager, object_id="#primary", tool_tip_text=tip
    )
    scene.buttons[key] = scene.add(button)
    scene.buttons[key].hide()


def refresh_tools(scene: Any) -> None:
    """Show "Move now" while an AI thinks; say in each view's tooltip why it is disabled."""
    controller: PlayController = scene.controller
    button = scene.buttons.get(MOVE_NOW[0])
    if button is not None:
        wanted = not tool_refusal(controller, MOVE_NOW[0])
        if wanted != button.visible:
            if wanted:
                button.show()
            else:
                button.hide()
    for key, _, tip in TOOLS:
        button = scene.buttons.get(key)
        if button is not None:
            why = tool_refusal(controller, key)
            button.tool_tip_text = tip if not why else f"{why}"


def mute_rect(scene: Any) -> pygame.Rect:
    """The mute button, at the right end of the header strip."""
    m = scene.app.metrics
    header = scene.header_rect()
    rect = pygame.Rect(0, 0, m.px(76), min(m.button_h, header.height))
    rect.midright = header.midright
    return rect


def build_mute_button(scene: Any) -> None:
    """Sound on / off (key M)."""
    text = "Unmute" if sounds().muted else "Mute"
    scene.buttons["mute"] = scene.add(
        pygame_gui.elements.UIButton(
            mute_rect(scene),
            text,
            scene.manager,
            object_id="#quiet",
            tool_tip_text="Sound effects on / off (M)",
        )
    )


def toggle_mute(scene: Any) -> None:
    """Mute or unmute the effects; the settings remember it."""
    muted = sounds().toggle_mute()
    scene.app.settings.sound_muted = muted
    settings.save(scene.app.settings)
    button = scene.buttons.get("mute")
    if button is not None:
        button.set_text("Unmute" if muted else "Mute")
    scene.set_notice("Sound off" if muted else "Sound on")


def toast_area(scene: Any) -> pygame.Rect:
    """The play scene's toasts go over the board, under the status line (never over it)."""
    header = scene.header_rect()
    top = header.bottom + scene.app.metrics.gap
    return pygame.Rect(header.x, top, header.width, scene.app.size[1] - top)


def apply_change(scene: Any, kind: str) -> None:
    """The widgets after a change: swapped players only exchange the two role menus' places
    (no new widgets every game of a series); anything else rebuilds them."""
    menus = scene.role_menus
    if kind != "swapped" or len(menus) != 2:
        scene.rebuild()
        return
    first, second = menus[0].relative_rect.topleft, menus[1].relative_rect.topleft
    menus[0].set_relative_position(second)
    menus[1].set_relative_position(first)
    menus.reverse()
