"""Thousands of random events fed to every scene: clicks anywhere, key mashing, resizing,
minimising, wheel, text, focus changes, clicks during animations and while the AI thinks.
Nothing may crash, and after every frame each game on the stack must still be legal: its
move history replays through the rules to the displayed state, chance outcomes come exactly
at chance nodes, and no move follows the end of a game."""

from __future__ import annotations

import random

import pygame
import pytest
from driving import pump, start_game

from plyground.games.base import CHANCE

pytestmark = pytest.mark.slow  # long: CI runs it, the daily loop skips it

EVENTS_PER_SCENE = 3000
KEYS = [
    *(getattr(pygame, f"K_{c}") for c in "abcdefghijklmnopqrstuvwxyz0123456789"),
    pygame.K_ESCAPE,
    pygame.K_RETURN,
    pygame.K_KP_ENTER,
    pygame.K_SPACE,
    pygame.K_TAB,
    pygame.K_BACKSPACE,
    pygame.K_DELETE,
    pygame.K_LEFT,
    pygame.K_RIGHT,
    pygame.K_UP,
    pygame.K_DOWN,
    pygame.K_F1,
    pygame.K_QUESTION,
    pygame.K_SLASH,
]
MODS = [0, 0, 0, 0, pygame.KMOD_CTRL, pygame.KMOD_SHIFT, pygame.KMOD_ALT]
WINDOW_EVENTS = [
    pygame.WINDOWMINIMIZED,
    pygame.WINDOWRESTORED,
    pygame.WINDOWFOCUSLOST,
    pygame.WINDOWFOCUSGAINED,
    pygame.WINDOWENTER,
    pygame.WINDOWLEAVE,
    pygame.WINDOWEXPOSED,
    pygame.WINDOWMAXIMIZED,
]


def random_event(rng: random.Random, app) -> pygame.event.Event:
    """One event a restless person (or window manager) might send."""
    w, h = app.size
    pos = (rng.randrange(-20, w + 20), rng.randrange(-20, h + 20))
    roll = rng.random()
    if roll < 0.30:
        return pygame.event.Event(
            pygame.MOUSEMOTION,
            pos=pos,
            rel=(rng.randint(-9, 9), rng.randint(-9, 9)),
            buttons=(0, 0, 0),
        )
    if roll < 0.55:
        kind = rng.choice((pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP))
        return pygame.event.Event(kind, pos=pos, button=rng.choice((1, 1, 1, 2, 3, 4, 5)))
    if roll < 0.60:
        return pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=rng.choice((-1, 1)), flipped=False)
    if roll < 0.90:
        key = rng.choice(KEYS)
        name = pygame.key.name(key)
        unicode = name if len(name) == 1 else ("?" if key == pygame.K_QUESTION else "")
        kind = rng.choice((pygame.KEYDOWN, pygame.KEYDOWN, pygame.KEYUP))
        return pygame.event.Event(kind, key=key, unicode=unicode, mod=rng.choice(MODS), scancode=0)
    if roll < 0.93:
        return pygame.event.Event(pygame.TEXTINPUT, text=rng.choice("abc123 ?"))
    if roll < 0.975:
        return pygame.event.Event(rng.choice(WINDOW_EVENTS))
    if roll < 0.99:
        size = (rng.randrange(500, 1700), rng.randrange(400, 1100))
        return pygame.event.Event(pygame.VIDEORESIZE, w=size[0], h=size[1], size=size)
    return pygame.event.Event(pygame.QUIT)


def check_game(play) -> None:
    """The displayed game is what its moves give under the rules."""
    history = play.controller.history
    state = history.initial
    for entry in history.entries:
        assert not state.is_terminal(), "a move after the end of the game"
        assert entry.chance == (state.to_move == CHANCE), "a chance outcome out of place"
        state = state.play(entry.move)  # raises if the move is illegal
        assert entry.state == state
    assert history.state == state
    assert play.controller.game.replay(history.moves) == state
    for block in history.redo_stack:
        for entry in block:
            assert entry.state is not None


def check_app(app) -> None:
    assert app.stack, "the menu is always there"
    assert type(app.stack[0]).__name__ == "MenuScene"
    for scene in app.stack:
        if type(scene).__name__ == "PlayScene":
            check_game(scene)


SCENES = [
    ("menu", None, None),
    ("setup", "connect4", None),
    ("play", "tictactoe", ("human", "human")),
    ("play", "connect4", ("human", "Easy")),
    ("play", "pig", ("human", "Easy")),
    ("play", "connect4", ("Easy", "Medium")),
    ("play", "pig", ("Easy", "Easy")),
    ("series", "tictactoe", ("Easy", "Easy")),
]


TARGET = {
    "menu": "MenuScene",
    "setup": "SetupScene",
    "play": "PlayScene",
    "series": "SeriesScene",
}


VIEWS = ("ExplorerScene", "CompareScene", "PolicyScene")
"""Views opened from play (E, C, P) and the menu (L): left at once, they have their own tests."""


def go_back(app, scene: str, game: str) -> None:
    """Wander back towards the scene under test (random Esc presses lead away from it)."""
    top = app.scene
    name = type(top).__name__
    if scene == "menu":
        app.pop_to_root()
    elif name in VIEWS:
        app.pop()
    elif name == "MenuScene":
        top.open_game(game)
    elif name == "SetupScene" and scene != "setup":
        top.start()
    elif name == "PlayScene" and scene == "series":
        if not len(top.controller.series):
            top.controller.series.add("AI · Easy #1", "AI · Easy #2", None)
        top.show_series()
    elif name in ("PlayScene", "SeriesScene") and scene == "setup":
        app.pop()


@pytest.mark.parametrize(("scene", "game", "sides"), SCENES)
def test_random_events_never_crash_or_corrupt_a_game(make_app, monkeypatch, scene, game, sides):
    from plyground.gui.play.scene import PlayScene
    from plyground.gui.scenes.menu import MenuScene

    # The file dialogs may browse anywhere: fuzzing must not write files at random.
    opened: list[str] = []
    monkeypatch.setattr(PlayScene, "open_file_dialog", lambda self, mode: opened.append(mode))
    monkeypatch.setattr(
        MenuScene, "open_file_dialog", lambda self, mode="open": opened.append(mode)
    )
    app = make_app((800, 600))
    quits: list[bool] = []
    app.quit = lambda save=True: quits.append(save)  # Esc on the menu, Quit, window close
    try:
        feed(app, scene, game, sides)
    finally:
        del app.quit  # the real one again, so the worker is closed after the test


def feed(app, scene: str, game: str | None, sides) -> None:
    """Go to `scene`, then feed EVENTS_PER_SCENE random events, checking after every frame."""
    from plyground.gui.setup.scene import SetupScene

    app.settings.set_option("pig", "goal", 20)
    if scene == "setup":
        pump(app, 2)
        app.push(SetupScene(app, game))
    elif scene in ("play", "series"):
        play = start_game(app, game, sides, speed=0.0)
        if scene == "series":
            play.controller.series.add("AI · Easy #1", "AI · Easy #2", 0)
            play.show_series()
    rng = random.Random(f"{scene}-{game}-{sides}")
    seen: dict[str, int] = {}
    fed = 0
    while fed < EVENTS_PER_SCENE:
        for _ in range(rng.randint(3, 10)):
            pygame.event.post(random_event(rng, app))
            fed += 1
        app.step(rng.choice((0.0, 1 / 60, 1 / 60, 1 / 30, 0.25)))
        assert app.running
        check_app(app)
        name = type(app.scene).__name__
        seen[name] = seen.get(name, 0) + 1
        # The menu's fuzz stays on the menu (every game and view is one key away from it).
        if name != TARGET[scene] and (rng.random() < 0.15 or name in VIEWS or scene == "menu"):
            go_back(app, scene, game or "connect4")
    assert fed >= EVENTS_PER_SCENE
    frames = sum(seen.values())
    assert seen.get(TARGET[scene], 0) > 0.4 * frames, seen  # mostly in the scene under test
