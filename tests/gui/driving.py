"""Drive the app like a person: real pygame events posted to it, frames pumped by hand."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pygame

FRAME = 1 / 60


def pump(app: Any, frames: int = 1) -> None:
    """Run `frames` frames of the app's loop."""
    for _ in range(frames):
        if not app.running:
            return
        app.step(FRAME)


def wait_until(app: Any, predicate: Callable[[], bool], seconds: float = 10.0) -> bool:
    """Pump frames (real time passes for the worker) until `predicate()` or timeout."""
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        if predicate():
            return True
        pump(app)
        time.sleep(0.002)
    return predicate()


def click(app: Any, pos: tuple[int, int], frames: int = 2) -> None:
    """A left click at `pos`: motion, press and release posted as real events."""
    pos = (round(pos[0]), round(pos[1]))
    app.mouse_override = pos
    pygame.event.post(
        pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))
    )
    pump(app)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    pump(app)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    pump(app, frames)


def press(app: Any, key: int, unicode: str = "", mod: int = 0, frames: int = 1) -> None:
    """A key press and release posted as real events."""
    pygame.event.post(
        pygame.event.Event(pygame.KEYDOWN, key=key, unicode=unicode, mod=mod, scancode=0)
    )
    pygame.event.post(
        pygame.event.Event(pygame.KEYUP, key=key, unicode=unicode, mod=mod, scancode=0)
    )
    pump(app, frames)


def click_button(app: Any, button: Any, frames: int = 2) -> None:
    """Click a pygame_gui button (or any element) in its middle."""
    click(app, button.rect.center, frames)


def type_digits(app: Any, text: str) -> None:
    """Type each character of `text` as a key press."""
    for char in text:
        press(app, ord(char), char)


def choose_option(app: Any, menu: Any, text: str) -> None:
    """Open a pygame_gui drop-down with a click and click the option `text`."""
    click(app, menu.rect.center)
    state = menu.current_state
    listing = getattr(state, "options_selection_list", None)
    assert listing is not None, "the drop-down did not open"
    for item in listing.item_list:
        if item["text"] == text:
            button = item["button_element"]
            assert button is not None, f"option {text!r} is not visible"
            click(app, button.rect.center, frames=4)
            return
    raise AssertionError(f"no option {text!r} in {[i['text'] for i in listing.item_list]}")


def start_game(
    app: Any, game: str, sides: tuple[str, str] = ("human", "human"), speed: float = 0.0
) -> Any:
    """From the menu: pick `game`, set both sides (human or a preset), start; the play scene."""
    from plyground.gui.scenes.menu import game_cards
    from plyground.gui.storage.settings import AI, HUMAN

    pump(app, 2)
    index = [name for name, _, _ in game_cards()].index(game)
    click(app, app.scene.card_rects()[index].center)
    assert type(app.scene).__name__ == "SetupScene"
    for side, role in zip(app.scene.sides, sides, strict=False):
        if role == "human":
            side.kind = HUMAN
        else:
            side.kind = AI
            side.preset = role
    app.scene.rebuild()
    app.settings.speed = speed
    start = next(w for w, (action, _) in app.scene.form.ids.items() if action == "start")
    click(app, start.rect.center)
    assert type(app.scene).__name__ == "PlayScene"
    return app.scene


def type_in_game_dialog(app: Any, text: str) -> Any:
    """From the menu: open "Open a game…" with its key (G), type `text` into its path box
    as keys would, and press Enter; the dialog."""
    pump(app, 2)
    press(app, pygame.K_g, "g", frames=3)
    dialog = app.scene.file_dialog
    assert dialog is not None, "the game dialog did not open"
    line = dialog.file_path_text_line
    line.set_text("")
    for char in text:
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=char))
    pump(app, 2)
    press(app, pygame.K_RETURN, "\r", frames=3)
    return dialog
