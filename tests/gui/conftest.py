"""Headless GUI tests: a dummy video driver, a private settings directory per test, and
apps that are always closed (worker included).  Driving helpers live in driving.py."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Any

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pytest


@pytest.fixture(autouse=True)
def config_dir(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """Every test gets its own empty settings directory."""
    monkeypatch.setenv("PLYGROUND_CONFIG_DIR", str(tmp_path / "config"))
    return tmp_path / "config"


@pytest.fixture(autouse=True)
def no_write_problems_carried_over() -> Iterator[None]:
    """Each test starts with no failing writes on record (`gui.storage.write_problems.WRITES`)."""
    from plyground.gui.storage.write_problems import WRITES

    WRITES.__init__()  # type: ignore[misc]
    yield
    WRITES.__init__()  # type: ignore[misc]


@pytest.fixture
def make_app() -> Iterator[Callable[..., Any]]:
    """Build apps showing the menu; all are closed (worker included) after the test."""
    from plyground.gui import app as app_module

    apps: list[Any] = []

    def build(size: tuple[int, int] = (1280, 800)) -> Any:
        app = app_module.create(size, headless=True)
        apps.append(app)
        return app

    yield build
    for app in apps:
        app.quit(save=False)


@pytest.fixture(autouse=True)
def no_process_left_behind() -> Iterator[None]:
    """After every test (and its apps' teardown): no AI worker or other child is left."""
    yield
    import multiprocessing
    import time

    deadline = time.monotonic() + 2.0
    while multiprocessing.active_children() and time.monotonic() < deadline:
        time.sleep(0.02)
    assert multiprocessing.active_children() == [], "a child process was left behind"
