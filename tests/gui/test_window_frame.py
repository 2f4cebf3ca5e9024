"""A first window that fits a 1366x768 laptop, full screen on F11, and the window's
size, place and full screen remembered between runs (a size that no longer fits is not used)."""

from __future__ import annotations

import json
from typing import Any

import pygame
from driving import press

from plyground.gui import app as app_module
from plyground.gui import window_frame
from plyground.gui.storage import settings

TASKBAR_AND_TITLE = 48 + 32
"""A Windows taskbar (48 px at 100%) and a title bar: what a 1366x768 screen does not give."""


def test_the_first_window_fits_a_1366x768_screen_with_its_taskbar() -> None:
    width, height = window_frame.default_size((1366, 768))
    assert width <= 1366 and height + TASKBAR_AND_TITLE <= 768
    assert (width, height) == (1280, 658)
    assert window_frame.default_size((2560, 1440)) == window_frame.DESIGN_SIZE
    assert window_frame.default_size((800, 600)) == (800, 600)  # never below the minimum
    assert window_frame.default_size(None) == window_frame.DESIGN_SIZE


def test_a_remembered_size_is_used_only_when_it_fits() -> None:
    assert window_frame.first_size([1000, 700], (1366, 768)) == (1000, 700)
    assert window_frame.first_size([1920, 1080], (1366, 768)) == (1280, 658)
    assert window_frame.first_size([640, 480], (1366, 768)) == (1280, 658)
    assert window_frame.first_size("big", (1366, 768)) == (1280, 658)
    assert window_frame.first_size([True, 700], None) == window_frame.DESIGN_SIZE


def test_the_settings_keep_the_window_and_refuse_nonsense() -> None:
    kept = settings.Settings(window_size=[1100, 700], window_position=[40, 30], fullscreen=True)
    again = settings.Settings.from_json(json.loads(json.dumps(kept.to_json())))
    assert (again.window_size, again.window_position, again.fullscreen) == (
        [1100, 700],
        [40, 30],
        True,
    )
    for bad in ("1100x700", [1100], [1100, "700"], [True, 700], None, {"w": 1}):
        data = {"window_size": bad, "window_position": bad, "fullscreen": "yes"}
        loaded = settings.Settings.from_json(data)
        assert loaded.window_size is None and loaded.window_position is None
        assert loaded.fullscreen is False
    assert settings.Settings.from_json({"window_size": [5, 5]}).window_size is None


def test_the_window_opens_at_its_remembered_size_and_saves_it_on_quit() -> None:
    saved = settings.Settings(window_size=[1000, 700], window_position=[10, 20])
    assert settings.save(saved)
    app = app_module.create(None, headless=True)
    try:
        assert app.size == (1000, 700) and not app.fullscreen
        app.resize((900, 640))
    finally:
        app.quit(save=True)
    loaded, warning = settings.load()
    assert warning is None and loaded.window_size == [900, 640] and not loaded.fullscreen


def test_f11_goes_full_screen_and_back_and_is_in_the_key_table(make_app: Any) -> None:
    app = make_app((1000, 700))
    press(app, pygame.K_F11)
    desktop = window_frame.desktop_size()
    assert app.fullscreen and app.size == desktop and app.metrics.width == desktop[0]
    press(app, pygame.K_F11)
    assert not app.fullscreen and app.size == (1000, 700)
    assert any(key == "F11" for key, _ in app_module.help_keys())
    press(app, pygame.K_F11)
    app.remember_window()
    assert app.settings.fullscreen and app.settings.window_size == [1000, 700]


def test_the_key_card_with_f11_fits_an_800x600_window(monkeypatch: Any) -> None:
    from plyground.gui import theme
    from plyground.gui.widgets import drawing, help_card

    pygame.display.init()
    pygame.font.init()
    drawn: list[pygame.Rect] = []
    real = drawing.draw_text

    def spy(surface: Any, text: str, pos: Any, size: int, *args: Any, **kw: Any) -> Any:
        rect = real(surface, text, pos, size, *args, **kw)
        drawn.append(rect)
        return rect

    monkeypatch.setattr(drawing, "draw_text", spy)
    surface = pygame.Surface((800, 600))
    help_card.draw(surface, (800, 600), theme.Metrics((800, 600)), app_module.help_keys())
    assert len(drawn) > 40
    assert all(surface.get_rect().contains(rect) for rect in drawn)
    texts = sorted(drawn, key=lambda rect: rect.bottom)
    assert texts[-1].bottom <= 600 - 10  # "press any key to close" is the lowest, inside the card


def test_a_size_the_window_manager_gives_is_remembered(make_app: Any) -> None:
    app = make_app((1280, 658))
    pygame.display.set_mode((1000, 700), pygame.RESIZABLE)  # the window manager's resize
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, w=1000, h=700, size=(1000, 700)))
    app.step(1 / 60)
    app.remember_window()
    assert app.size == (1000, 700) and app.settings.window_size == [1000, 700]


def test_leaving_full_screen_keeps_the_window_on_the_screen(monkeypatch: Any) -> None:
    monkeypatch.setattr(window_frame, "desktop_size", lambda: (1366, 768))
    moved: list[Any] = []

    class Window:
        @property
        def position(self) -> tuple[int, int]:
            return (0, 0)

        @position.setter
        def position(self, where: tuple[int, int]) -> None:
            moved.append(where)

    monkeypatch.setattr(window_frame, "_window", Window)
    window_frame.keep_on_screen((300, 400), (1000, 600), (1366, 768))  # would hang below
    assert moved == [((1366 - 1000) // 2, (768 - 600) // 2)]
    window_frame.keep_on_screen((20, 30), (1000, 600), (1366, 768))
    assert moved[-1] == (20, 30)


def test_a_screen_with_no_room_for_a_window_and_its_title_bar_is_filled(monkeypatch: Any) -> None:
    assert window_frame.no_window_fits((800, 600)) and window_frame.no_window_fits((1024, 640))
    assert not window_frame.no_window_fits((1280, 720))
    assert not window_frame.no_window_fits((1366, 768)) and not window_frame.no_window_fits(None)
    monkeypatch.setattr(window_frame, "desktop_size", lambda: (800, 600))
    app = app_module.create(None, headless=True)
    try:
        assert app.fullscreen
        assert any(toast.text == window_frame.SMALL_SCREEN_NOTE for toast in app.toasts)
    finally:
        app.quit(save=False)
