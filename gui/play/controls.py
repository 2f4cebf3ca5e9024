"""The play scene's widgets: the role menus, the buttons, AI-vs-AI controls, the card's buttons.

Each builder makes its widgets and returns them (with the y under them); the scene adds
them and keeps them by their action's name.
"""

from __future__ import annotations

import math
from typing import Any

import pygame
import pygame_gui

from plyground.games import capabilities
from plyground.gui.play.controller import SPEED_MAX, PlayController
from plyground.gui.play.search_jobs import Purpose
from plyground.gui.sound import sounds
from plyground.gui.storage.settings import CUSTOM, FROM_FILE, HUMAN
from plyground.gui.theme import Metrics
from plyground.gui.widgets import drawing
from plyground.gui.widgets.drop_down import caption_room, drop_down, fitted_name, shown_option

Button = pygame_gui.elements.UIButton
Widget = Any
"""A pygame_gui element as the scene keeps it: its show, hide and kill are untyped, which
strict mypy does not let typed code call on the element's own class."""
Buttons = dict[str, Widget]

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


def build_roles(
    controller: PlayController,
    m: Metrics,
    manager: pygame_gui.UIManager,
    inner: pygame.Rect,
    y: int,
) -> tuple[list[Widget], int]:
    """One drop-down per side, side 1's first in the list (the lower one is made first so the
    upper one's list opens over it); returns them and the y under them."""
    menu_w = round(inner.width * 0.56)
    height = m.button_h if m.height >= SHORT_WINDOW else row_size(controller, m)[0]
    rows = [
        pygame.Rect(inner.right - menu_w, y + i * (height + m.px(6)), menu_w, height)
        for i in range(2)
    ]
    options = role_options(controller.game_name)
    menus: list[Widget] = []
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
        menu: Widget = drop_down(choices, current, rows[i], manager)
        shown = shown_option(menu)
        if side.preset == FROM_FILE and side.is_ai and shown is not None and shown.font:
            fitted = fitted_name(current, caption_room(shown), shown.font)
            if fitted != current:  # a long file name: cut in the middle, ".py" kept
                menu.kill()
                choices[-1] = fitted
                menu = drop_down(choices, fitted, rows[i], manager)
        menus.insert(0, menu)
    return menus, int(rows[1].bottom)


SHORT_WINDOW = 700
"""Below this height the panel's buttons are tighter, so the analysis and the move list keep
their room."""


def row_size(controller: PlayController, m: Metrics) -> tuple[int, int]:
    """(button height, space under it): tighter in AI vs AI, whose extra rows must leave
    the analysis and the move list their room, and tighter still in a short window."""
    if m.height < SHORT_WINDOW:
        return max(28, m.px(34)), m.px(4)
    if controller.ai_vs_ai():
        return max(30, m.px(34)), m.px(5)
    return m.button_h, m.px(8)


def columns(m: Metrics, inner: pygame.Rect, labels: list[str]) -> int:
    """3 columns of buttons when every label fits a third of the panel (a big window), else 2."""
    third = (inner.width - 2 * m.gap) // 3
    widest = max(drawing.text_size(label, m.widget_font)[0] for label in labels)
    return 3 if widest + m.px(14) <= third else 2


def build_buttons(
    controller: PlayController,
    m: Metrics,
    manager: pygame_gui.UIManager,
    inner: pygame.Rect,
    y: int,
) -> tuple[Buttons, int]:
    """The buttons in two columns, or in three with the views' row (Explore, Compare...)
    in the same grid when the panel is wide enough; returns them and the y under them."""
    shown = controller.settings.show_analysis
    entries = [
        (key, "Hide analysis" if key == "analysis" and shown else label, tip)
        for key, label, tip in BUTTONS
    ]
    tools = [t for t in TOOLS if t[0] != "policy" or has_policy(controller)]
    labels = [label for _, label, _ in entries + tools] + ["Show analysis", "Hide analysis"]
    count = columns(m, inner, labels)  # the same either way the analysis is
    if count == 3:
        if len(entries) % 3 + len(tools) > 3:  # the views start a row of their own
            entries += [("", "", "")] * (-len(entries) % 3)
        entries += tools
    width = (inner.width - (count - 1) * m.gap) // count
    height, space = row_size(controller, m)
    buttons: Buttons = {}
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
        buttons[key] = Button(rect, label, manager, object_id=object_id, tool_tip_text=tip)
    rows = math.ceil(len(entries) / count)
    return buttons, int(y + rows * (height + space) + (space if count == 3 else 0) + space)


def build_ai_vs_ai(
    controller: PlayController,
    m: Metrics,
    manager: pygame_gui.UIManager,
    inner: pygame.Rect,
    y: int,
) -> tuple[Buttons, Widget, int]:
    """One row of Pause/Resume, Step and Series, then the speed slider; returns the buttons,
    the slider and the y under them."""
    height, space = row_size(controller, m)
    third = (inner.width - 2 * m.gap) // 3
    row = [pygame.Rect(inner.x + k * (third + m.gap), y, third, height) for k in range(3)]
    buttons: Buttons = {
        "pause": Button(
            row[0],
            "Resume" if controller.paused else "Pause",
            manager,
            object_id="#primary" if controller.paused else None,
            tool_tip_text="Space",
        ),
        "step": Button(row[1], "Step", manager, tool_tip_text="One move (S)"),
        "series": Button(
            row[2],
            "Series",
            manager,
            tool_tip_text="Series results: cross table and scores with 95% intervals (T)",
        ),
    }
    y = row[0].bottom + space + m.px(2)
    label_w = drawing.text_size("Speed", m.font_size(13))[0] + m.px(12)
    value_w = drawing.text_size("instant", m.font_size(13))[0] + m.px(10)
    slider = pygame.Rect(inner.x + label_w, y, inner.width - label_w - value_w, m.px(26))
    speed = pygame_gui.elements.UIHorizontalSlider(
        slider,
        SPEED_MAX - controller.settings.speed,
        (0.0, SPEED_MAX),
        manager,
        click_increment=0.1,
    )
    return buttons, speed, int(slider.bottom + m.px(10))


def build_overlay_buttons(m: Metrics, manager: pygame_gui.UIManager, card: pygame.Rect) -> Buttons:
    """Play again / Menu on the game-over card."""
    again = pygame.Rect(0, 0, m.px(150), m.button_h)
    again.midright = (card.right - m.pad, card.centery)
    menu = pygame.Rect(0, 0, m.px(110), m.button_h)
    menu.midright = (again.x - m.gap, card.centery)
    return {
        "again": Button(again, "Play again", manager, object_id="#primary"),
        "overlay_menu": Button(menu, "Menu", manager),
    }


OVERLAY_BUTTONS = ("again", "overlay_menu")
"""The game-over card's buttons (they go when the game is no longer over)."""


def button_flags(controller: PlayController) -> dict[str, bool]:
    """Which buttons can be used now."""
    job = controller.jobs.job
    return {
        "undo": controller.history.can_undo(),
        "redo": controller.history.can_redo(),
        "hint": controller.human_turn() and (job is None or job.kind == Purpose.POSITION),
        "step": controller.paused and not controller.game_ended(),
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
    return capabilities(controller.game).policy_picture is not None


def tool_refusal(controller: PlayController, key: str) -> str:
    """Why a view cannot open on the position shown now ("" when it can)."""
    state = controller.browse.shown_state()
    if key == "move_now":
        job = controller.jobs.job
        if job is None or job.kind != Purpose.MOVE or job.agent or state.is_terminal():
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
    state = controller.browse.shown_state()
    player = state.to_move if state.to_move in (0, 1) else int(getattr(state, "player", 0))
    from plyground.ai.engine.search import DepthLimited, algorithms_for
    from plyground.ai.players.players import SearchPlayer

    side = controller.sides[player]
    config = side.config_for(controller.game_name) if side.is_ai else None
    if not isinstance(config, SearchPlayer) or not isinstance(config.search, DepthLimited):
        config = controller.jobs.analysis_config(player)  # no depth: the analysis's search
    search = config.search
    if not isinstance(search, DepthLimited):  # the analysis plays MCTS: the game's own search
        search = DepthLimited(algorithms_for(controller.game)[0], TOOL_DEPTH, search.heuristic)
    depth = min(search.depth or TOOL_DEPTH, TOOL_DEPTH)
    return search.algorithm, int(depth), search.heuristic


def tool_chosen(controller: PlayController) -> Any:
    """The move a search chose in the current position: the hint, the AI's waiting move, or
    the move the board's values marked (None when no search looked at this position).  While
    browsing: the move the reviewed position's analysis chose."""
    if controller.browse.browsing:
        shown = controller.browse.shown_values()
        return shown.chosen if shown is not None else None
    if controller.hint is not None:
        return controller.hint
    entries = len(controller.history.entries)
    pending = controller.jobs.pending
    if pending is not None and pending.entries == entries:
        return pending.move
    board = controller.jobs.board
    if board is not None and board.entries == entries:
        return board.chosen
    return None


def view_to_open(controller: PlayController, action: str) -> tuple[str, dict[str, Any]]:
    """The scene (by name) and its parameters for the explorer, the compare view or the
    policy picture on the position shown (the reviewed one while browsing)."""
    state = controller.browse.shown_state()
    algorithm, depth, heuristic = tool_search(controller)
    if action == "explore":
        return "explorer", {
            "state": state,
            "algorithm": algorithm,
            "depth": depth,
            "heuristic": heuristic,
        }
    if action == "compare":
        game = controller.game
        return "compare", {"game": game, "state": state, "depth": depth, "heuristic": heuristic}
    return "policy", {"game": controller.game, "state": state, "chosen": tool_chosen(controller)}


def build_tools(
    controller: PlayController,
    m: Metrics,
    manager: pygame_gui.UIManager,
    inner: pygame.Rect,
    y: int,
) -> tuple[Buttons, int]:
    """One row: Explore, Compare and (for games with a policy picture) Policy; returns them
    and the y under them."""
    tools = [t for t in TOOLS if t[0] != "policy" or has_policy(controller)]
    width = (inner.width - m.gap * (len(tools) - 1)) // len(tools)
    height, space = row_size(controller, m)
    buttons: Buttons = {}
    for k, (key, label, tip) in enumerate(tools):
        rect = pygame.Rect(inner.x + k * (width + m.gap), y, width, height)
        buttons[key] = Button(rect, label, manager, tool_tip_text=tip)
    return buttons, int(y + height + 2 * space)


def move_now_rect(m: Metrics, mute: pygame.Rect) -> pygame.Rect:
    """The "Move now" button: in the status strip, just left of the mute button."""
    label = drawing.text_size(MOVE_NOW[1], m.font_size(15), "semibold")[0]
    rect = pygame.Rect(0, 0, label + m.px(36), m.px(34))
    rect.midright = (mute.x - m.gap // 2, mute.centery)
    return rect


def build_move_now(m: Metrics, manager: pygame_gui.UIManager, mute: pygame.Rect) -> Widget:
    """The "Move now" button (hidden: it shows only while an AI side thinks, see
    `refresh_tools`)."""
    _, label, tip = MOVE_NOW
    rect = move_now_rect(m, mute)
    button: Widget = Button(rect, label, manager, object_id="#primary", tool_tip_text=tip)
    button.hide()
    return button


def refresh_tools(buttons: Buttons, controller: PlayController) -> None:
    """Show "Move now" while an AI thinks; say in each view's tooltip why it is disabled."""
    button = buttons.get(MOVE_NOW[0])
    if button is not None:
        wanted = not tool_refusal(controller, MOVE_NOW[0])
        if wanted != button.visible:
            if wanted:
                button.show()
            else:
                button.hide()
    for key, _, tip in TOOLS:
        button = buttons.get(key)
        if button is not None:
            why = tool_refusal(controller, key)
            button.tool_tip_text = tip if not why else f"{why}"


def build_mute_button(m: Metrics, manager: pygame_gui.UIManager, mute: pygame.Rect) -> Widget:
    """Sound on / off (key M), at `mute`."""
    text = "Unmute" if sounds().muted else "Mute"
    return Button(
        mute, text, manager, object_id="#quiet", tool_tip_text="Sound effects on / off (M)"
    )
