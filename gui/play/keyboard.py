"""The play scene's keys: one table (`PLAY_KEYS`) both for what each key does and for the
F1 help, so the two cannot drift apart; the board cursor; the new-game confirmation."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pygame
import pygame_gui

from plyground.gui.widgets import focus

CTRL = 1
"""A key's modifier flag: held with Ctrl."""
ENTER_KEYS = (pygame.K_RETURN, pygame.K_KP_ENTER)
ARROW_KEYS = (pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP, pygame.K_DOWN)
KEY_NAMES = {
    pygame.K_ESCAPE: "Esc",
    pygame.K_RETURN: "Enter",
    pygame.K_KP_ENTER: "Enter",
    pygame.K_SPACE: "Space",
    pygame.K_LEFT: "←",
    pygame.K_RIGHT: "→",
    pygame.K_UP: "↑",
    pygame.K_DOWN: "↓",
    pygame.K_HOME: "Home",
    pygame.K_END: "End",
    pygame.K_PAGEUP: "PgUp",
    pygame.K_PAGEDOWN: "PgDn",
}

ARROW_NAMES = ("←", "→", "↑", "↓")


@dataclass(frozen=True)
class Binding:
    """Keys, the action they do, when they do it, and the help line ('' : not listed)."""

    action: str
    keys: tuple[tuple[int, int], ...]
    """(pygame key, CTRL or 0) pairs."""
    help: str
    when: str = ""
    """"" always, or a name in WHEN: "ai_vs_ai", "paused", "cursor", "reviewing"."""


def _plain(*keys: int) -> tuple[tuple[int, int], ...]:
    return tuple((key, 0) for key in keys)


PLAY_KEYS = (
    Binding("back", _plain(pygame.K_ESCAPE), "back (an open list, dialog or review closes first)"),
    Binding("new", _plain(pygame.K_n), "new game (asks first during a game)"),
    Binding("undo", ((pygame.K_u, 0), (pygame.K_z, CTRL)), "undo"),
    Binding("redo", ((pygame.K_y, CTRL),), "redo"),
    Binding("hint", _plain(pygame.K_i), "hint: the best move for your side"),
    Binding("pause", _plain(pygame.K_SPACE), "pause / resume (AI vs AI)", "ai_vs_ai"),
    Binding("step", _plain(pygame.K_s), "step one move (AI vs AI, paused)", "paused"),
    Binding("review_step", _plain(pygame.K_LEFT, pygame.K_RIGHT), "", "reviewing"),
    Binding("cursor", _plain(*ARROW_KEYS), "move the cursor over the board", "cursor"),
    Binding(
        "play_cursor",
        _plain(pygame.K_RETURN, pygame.K_SPACE, pygame.K_DOWN),
        "play the move under the cursor (↓ where the cursor only moves sideways)",
        "cursor",
    ),
    Binding(
        "review_step",
        ((pygame.K_LEFT, CTRL), (pygame.K_RIGHT, CTRL)),
        "review: a move back / on (← → alone while reviewing or not your turn)",
    ),
    Binding("review_step", _plain(pygame.K_LEFT, pygame.K_RIGHT), "", "no_cursor"),
    Binding(
        "review_ends", _plain(pygame.K_HOME, pygame.K_END), "review from the start / back to live"
    ),
    Binding("scroll", _plain(pygame.K_PAGEUP, pygame.K_PAGEDOWN), "scroll the move list"),
    Binding("analysis", _plain(pygame.K_a), "show / hide the analysis"),
    Binding("whole_analysis", _plain(pygame.K_v), "all of the analysis, where a window is short"),
    Binding("mute", _plain(pygame.K_m), "sound on / off"),
    Binding("copy", ((pygame.K_c, CTRL),), "copy position: the moves so far, as text"),
    Binding("save", ((pygame.K_s, CTRL),), "save the game"),
    Binding("open", ((pygame.K_o, CTRL),), "open a saved game"),
    Binding("series", _plain(pygame.K_t), "series results (cross table)"),
    Binding("explore", _plain(pygame.K_e), "search tree of this position"),
    Binding("compare", _plain(pygame.K_c), "compare the algorithms on it"),
    Binding("policy", _plain(pygame.K_p), "policy picture (if the game has one)"),
    Binding("move_now", _plain(pygame.K_g), "move now: the deepest finished search"),
)
"""Every key of the play scene, in the order they are tried (the first that applies wins)."""


def key_label(keys: tuple[tuple[int, int], ...]) -> str:
    """'U  /  Ctrl+Z', 'Enter  /  Space  /  ↓', 'Ctrl+←  /  Ctrl+→'."""
    names = []
    for key, mod in keys:
        name = KEY_NAMES.get(key) or (chr(key).upper() if 32 < key < 127 else str(key))
        names.append(f"Ctrl+{name}" if mod & CTRL else name)
    if set(names) == set(ARROW_NAMES):
        return " ".join(names)  # the four arrows read as one key group
    return "  /  ".join(dict.fromkeys(names))


def help_lines() -> list[tuple[str, str]]:
    """The play keys for the F1 card: (keys, what they do), listed bindings only."""
    return [(key_label(b.keys), b.help) for b in PLAY_KEYS if b.help]


@dataclass
class Cursor:
    """The keyboard cursor over the board: its move, shown until the mouse moves."""

    move: Any = None
    mouse_at: tuple[int, int] | None = None
    shown: bool = False


def cursor_shown(scene: Any) -> Any:
    """The cursor's move while it is shown (the mouse has not moved since), else None."""
    cursor: Cursor = scene.cursor
    if not cursor.shown or scene.app.mouse() != cursor.mouse_at:
        return None
    return cursor.move


def _conditions(scene: Any) -> dict[str, Callable[[], bool]]:
    controller = scene.controller
    reviewing = controller.reviewing
    return {
        "": lambda: True,
        "ai_vs_ai": lambda: controller.ai_vs_ai() and not reviewing,
        "paused": lambda: controller.ai_vs_ai() and controller.paused and not reviewing,
        "cursor": lambda: controller.human_turn() and not reviewing,
        "no_cursor": lambda: not controller.human_turn() or reviewing,
        "reviewing": lambda: reviewing,
    }


def on_key(scene: Any, event: pygame.event.Event) -> bool:
    """A key in the play scene: the confirmation, Esc's order, the table, then the kit's keys."""
    if scene.confirm is not None:
        return on_confirm_key(scene, event.key)
    if event.key == pygame.K_ESCAPE and escape(scene):
        return True
    mod = CTRL if event.mod & pygame.KMOD_CTRL else 0
    key = pygame.K_RETURN if event.key == pygame.K_KP_ENTER else event.key
    conditions = _conditions(scene)
    for binding in PLAY_KEYS:
        if (key, mod) in binding.keys and conditions[binding.when]():
            act(scene, binding.action, key)
            return True
    controller = scene.controller
    move = scene.view.move_for_key(controller.state, event.key, event.unicode)
    if move is None:
        return False
    scene.try_human_move(move)
    return True


def escape(scene: Any) -> bool:
    """Esc closes an open drop-down first, then ends a review (True when it did either)."""
    if focus.close_dropdowns(scene.widgets):
        return True
    if scene.controller.reviewing:
        scene.controller.review_leave()
        return True
    return False


def act(scene: Any, action: str, key: int) -> None:
    """One action of the table: the board cursor and the review here, the rest by the scene."""
    controller = scene.controller
    if action == "cursor":
        move_cursor(scene, key)
    elif action == "play_cursor":
        play_cursor(scene)
    elif action == "review_step":
        controller.review_step(-1 if key == pygame.K_LEFT else 1)
    elif action == "review_ends":
        if key == pygame.K_HOME:
            controller.review_home()
        else:
            controller.review_leave()
    elif action == "scroll":
        scene.scroll_moves(-1 if key == pygame.K_PAGEUP else 1, page=True)
    else:
        scene.do(action)


def move_cursor(scene: Any, key: int) -> None:
    """An arrow: the kit moves the cursor (its first press shows it); ↓ with nowhere to go
    plays (a board whose cursor only moves sideways)."""
    cursor: Cursor = scene.cursor
    state = scene.controller.state
    dx, dy = focus.ARROWS[key]
    was_shown = cursor_shown(scene) is not None
    moved = scene.view.cursor_move(state, cursor.move if was_shown else None, dx, dy)
    if moved is None:
        if key == pygame.K_DOWN and was_shown:
            play_cursor(scene)
        return
    show_cursor(scene, moved)


def show_cursor(scene: Any, move: Any) -> None:
    """Put the cursor on `move` and show it; a kit that does not draw it gets it named."""
    cursor: Cursor = scene.cursor
    cursor.move, cursor.shown, cursor.mouse_at = move, True, scene.app.mouse()
    if not scene.view.draws_cursor:
        text = scene.controller.game.format_move(move)
        scene.set_notice(f"Selected {text} · Enter plays it", 3.0)


def play_cursor(scene: Any) -> None:
    """Enter, Space or ↓: play the move under the cursor (the first press shows it)."""
    move = cursor_shown(scene)
    if move is None:
        start = scene.view.cursor_move(scene.controller.state, None, 0, 0)
        if start is not None:
            show_cursor(scene, start)
        return
    scene.try_human_move(move)


# -- the new-game confirmation ------------------------------------------------------------


def in_progress(controller: Any) -> bool:
    """Whether starting again would throw away a game in progress."""
    state = controller.state
    return bool(controller.match.entries) and not state.is_terminal()


def ask_new_game(scene: Any) -> None:
    """New game: at once, or after a confirmation when a game is in progress."""
    controller = scene.controller
    if not in_progress(controller):
        controller.new_game()
        return
    if scene.confirm is not None:
        return
    m = scene.app.metrics
    rect = pygame.Rect(0, 0, m.px(420), m.px(220))
    rect.center = scene.board_rect().center
    moves = controller.match.decisions()
    text = (
        f"Abandon this game ({moves} move{'s' if moves != 1 else ''}) and start a new one?"
        "<br>Enter starts it, Esc keeps playing."
    )
    scene.confirm = scene.add(
        pygame_gui.windows.UIConfirmationDialog(
            rect,
            text,
            scene.manager,
            window_title="New game?",
            action_short_name="New game",
            always_on_top=True,
        )
    )


def on_confirm_key(scene: Any, key: int) -> bool:
    """While the confirmation is up: Enter confirms, Esc closes it, other keys do nothing."""
    if key in ENTER_KEYS:
        focus.press(scene.confirm.confirm_button)
    elif key == pygame.K_ESCAPE:
        close_confirm(scene)
    return True


def close_confirm(scene: Any) -> None:
    """Close the confirmation if it is up."""
    dialog, scene.confirm = scene.confirm, None
    if dialog is not None:
        dialog.kill()
        if dialog in scene.widgets:
            scene.widgets.remove(dialog)


def on_confirm_event(scene: Any, event: pygame.event.Event) -> bool:
    """The confirmation's answer: a new game, or nothing (closed)."""
    if scene.confirm is None or getattr(event, "ui_element", None) is not scene.confirm:
        return False
    if event.type == pygame_gui.UI_CONFIRMATION_DIALOG_CONFIRMED:
        scene.confirm = None
        scene.controller.new_game()
        return True
    if event.type == pygame_gui.UI_WINDOW_CLOSE:
        scene.confirm = None
        return True
    return False
