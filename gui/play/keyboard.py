"""The play scene's keys: one table (`PLAY_KEYS`) both for which action each key is and for
the F1 help, so the two cannot drift apart.  A key becomes a typed `Action` (the buttons
name the same actions); the scene does them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

import pygame

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


class Action(StrEnum):
    """What a key or a button asks the play scene to do."""

    BACK = "back"
    NEW = "new"
    UNDO = "undo"
    REDO = "redo"
    HINT = "hint"
    PAUSE = "pause"
    STEP = "step"
    BROWSE_STEP = "browse_step"
    BROWSE_ENDS = "browse_ends"
    CURSOR = "cursor"
    PLAY_CURSOR = "play_cursor"
    SCROLL = "scroll"
    ANALYSIS = "analysis"
    WHOLE_ANALYSIS = "whole_analysis"
    MUTE = "mute"
    COPY = "copy"
    SAVE = "save"
    OPEN = "open"
    SERIES = "series"
    EXPLORE = "explore"
    COMPARE = "compare"
    POLICY = "policy"
    MOVE_NOW = "move_now"
    RETRY = "retry"
    LIVE = "live"
    AGAIN = "again"
    SWAP = "swap"
    PLAYERS = "players"
    MENU = "menu"
    OVERLAY_MENU = "overlay_menu"


@dataclass(frozen=True)
class Binding:
    """Keys, the action they do, when they do it, and the help line ('' : not listed)."""

    action: Action
    keys: tuple[tuple[int, int], ...]
    """(pygame key, CTRL or 0) pairs."""
    help: str
    when: str = ""
    """"" always, or a name in WHEN: "ai_vs_ai", "paused", "cursor", "browsing"."""


def _plain(*keys: int) -> tuple[tuple[int, int], ...]:
    return tuple((key, 0) for key in keys)


PLAY_KEYS = (
    Binding(
        Action.BACK, _plain(pygame.K_ESCAPE), "back (an open list, dialog or review closes first)"
    ),
    Binding(Action.NEW, _plain(pygame.K_n), "new game (asks first during a game)"),
    Binding(Action.UNDO, ((pygame.K_u, 0), (pygame.K_z, CTRL)), "undo"),
    Binding(Action.REDO, ((pygame.K_y, CTRL),), "redo"),
    Binding(Action.HINT, _plain(pygame.K_i), "hint: the best move for your side"),
    Binding(Action.PAUSE, _plain(pygame.K_SPACE), "pause / resume (AI vs AI)", "ai_vs_ai"),
    Binding(Action.STEP, _plain(pygame.K_s), "step one move (AI vs AI, paused)", "paused"),
    Binding(Action.BROWSE_STEP, _plain(pygame.K_LEFT, pygame.K_RIGHT), "", "browsing"),
    Binding(Action.CURSOR, _plain(*ARROW_KEYS), "move the cursor over the board", "cursor"),
    Binding(
        Action.PLAY_CURSOR,
        _plain(pygame.K_RETURN, pygame.K_SPACE, pygame.K_DOWN),
        "play the move under the cursor (↓ where the cursor only moves sideways)",
        "cursor",
    ),
    Binding(
        Action.BROWSE_STEP,
        ((pygame.K_LEFT, CTRL), (pygame.K_RIGHT, CTRL)),
        "review: a move back / on (← → alone while reviewing or not your turn)",
    ),
    Binding(Action.BROWSE_STEP, _plain(pygame.K_LEFT, pygame.K_RIGHT), "", "no_cursor"),
    Binding(
        Action.BROWSE_ENDS,
        _plain(pygame.K_HOME, pygame.K_END),
        "review from the start / back to live",
    ),
    Binding(Action.SCROLL, _plain(pygame.K_PAGEUP, pygame.K_PAGEDOWN), "scroll the move list"),
    Binding(Action.ANALYSIS, _plain(pygame.K_a), "show / hide the analysis"),
    Binding(
        Action.WHOLE_ANALYSIS, _plain(pygame.K_v), "all of the analysis, where a window is short"
    ),
    Binding(Action.MUTE, _plain(pygame.K_m), "sound on / off"),
    Binding(Action.COPY, ((pygame.K_c, CTRL),), "copy position: the moves so far, as text"),
    Binding(Action.SAVE, ((pygame.K_s, CTRL),), "save the game"),
    Binding(Action.OPEN, ((pygame.K_o, CTRL),), "open a saved game"),
    Binding(Action.SERIES, _plain(pygame.K_t), "series results (cross table)"),
    Binding(Action.EXPLORE, _plain(pygame.K_e), "search tree of this position"),
    Binding(Action.COMPARE, _plain(pygame.K_c), "compare the algorithms on it"),
    Binding(Action.POLICY, _plain(pygame.K_p), "policy picture (if the game has one)"),
    Binding(Action.MOVE_NOW, _plain(pygame.K_g), "move now: the deepest finished search"),
    Binding(Action.RETRY, _plain(pygame.K_r), "", "ai_failed"),
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


@dataclass(frozen=True)
class KeyPress:
    """A key of the table that applies now: its action and the key (← or →, Home or End...)."""

    action: Action
    key: int


@dataclass(frozen=True)
class Situation:
    """What decides which bindings apply: who plays and whether the game is browsed."""

    ai_vs_ai: bool
    paused: bool
    human_turn: bool
    browsing: bool
    ai_failed: bool = False
    """The AI could not move in the position shown (R retries)."""

    def allows(self, when: str) -> bool:
        """Whether a binding's `when` holds now."""
        conditions: dict[str, Callable[[], bool]] = {
            "": lambda: True,
            "ai_vs_ai": lambda: self.ai_vs_ai and not self.browsing,
            "paused": lambda: self.ai_vs_ai and self.paused and not self.browsing,
            "cursor": lambda: self.human_turn and not self.browsing,
            "no_cursor": lambda: not self.human_turn or self.browsing,
            "browsing": lambda: self.browsing,
            "ai_failed": lambda: self.ai_failed and not self.browsing,
        }
        return conditions[when]()


def key_press(key: int, mod: int, situation: Situation) -> KeyPress | None:
    """The table's action for `key` (with pygame's `mod` flags) now, or None (then the kit
    may read it as a move)."""
    flags = CTRL if mod & pygame.KMOD_CTRL else 0
    key = pygame.K_RETURN if key == pygame.K_KP_ENTER else key
    for binding in PLAY_KEYS:
        if (key, flags) in binding.keys and situation.allows(binding.when):
            return KeyPress(binding.action, key)
    return None
