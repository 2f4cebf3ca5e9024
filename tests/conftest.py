"""Every test runs headless and never touches the real user's settings or saves."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
os.environ.setdefault("PLYGROUND_CONFIG_DIR", tempfile.mkdtemp(prefix="plyground-test-config-"))
# The AI worker processes of the tests rarely solve: they load the compiled solver when
# they do, not each time one starts (ai.exact_engine.warm_up_engines).
os.environ.setdefault("PLYGROUND_NO_WARM_UP", "1")


@pytest.fixture
def no_book(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The connect-four opening book switched off (PLYGROUND_NO_BOOK) for one test: for
    tests of the search machinery on positions the book would solve at once."""
    from plyground.games import connect4_book

    monkeypatch.setenv("PLYGROUND_NO_BOOK", "1")
    connect4_book.reset()
    yield
    monkeypatch.delenv("PLYGROUND_NO_BOOK")
    connect4_book.reset()


@pytest.fixture
def real_book(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The connect-four opening book as a player has it, loaded afresh for one test; the
    test is skipped (saying why) where the book's data cannot be read."""
    from plyground.games import connect4_book

    monkeypatch.delenv("PLYGROUND_NO_BOOK", raising=False)
    connect4_book.reset()
    if not connect4_book.available():
        pytest.skip(f"no opening book: {connect4_book.status()}")
    yield
    connect4_book.reset()


@pytest.fixture(params=["compiled", "python"])
def solver(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each test that takes it runs twice: on the game's compiled solver (skipped, saying
    why, where it cannot load) and on the pure-Python alpha-beta (PLYGROUND_PURE_PYTHON)."""
    from plyground.games import connect4_solver
    from plyground.games.base import PURE_PYTHON_VARIABLE

    if request.param == "python":
        monkeypatch.setenv(PURE_PYTHON_VARIABLE, "1")
    else:
        monkeypatch.delenv(PURE_PYTHON_VARIABLE, raising=False)
        if connect4_solver.compiled() is None:
            pytest.skip(f"no compiled solver: {connect4_solver.status()}")
    return str(request.param)


@pytest.fixture
def pure_python(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pure-Python solver only: for tests of the search machinery itself (budgets that
    cut a Python search short, node counts of the Python alpha-beta)."""
    from plyground.games.base import PURE_PYTHON_VARIABLE

    monkeypatch.setenv(PURE_PYTHON_VARIABLE, "1")
