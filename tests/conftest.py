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
# they do, not each time one starts (ai.engine.exact_solving.warm_up_in_background).
os.environ.setdefault("PLYGROUND_NO_WARM_UP", "1")


def pytest_configure(config: pytest.Config) -> None:
    """Stop at once, with what to do, when the checkout has modules its install does not: the
    strict editable install links each file once, so a module added since is not importable."""
    from pathlib import Path

    import plyground

    checkout = Path(__file__).resolve().parents[1]
    installed = Path(plyground.__file__).parent
    if (installed / "__init__.py").resolve() != checkout / "package" / "__init__.py":
        return  # not this checkout's editable install
    missing = [
        path.relative_to(checkout).as_posix()
        for folder in ("ai", "games", "gui", "cli")
        for path in sorted((checkout / folder).rglob("*.py"))
        if not (installed / path.relative_to(checkout)).exists()
    ]
    if missing:
        raise pytest.UsageError(
            f"{len(missing)} module(s) of this checkout are not in the installed package "
            f"(first: {missing[0]}); install it again: "
            'pip install -e ".[test]" --config-settings editable_mode=strict'
        )


@pytest.fixture
def no_book(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The connect-four opening book switched off (PLYGROUND_NO_BOOK) for one test: for
    tests of the search machinery on positions the book would solve at once."""
    from plyground.games.connect4 import book as connect4_book

    monkeypatch.setenv("PLYGROUND_NO_BOOK", "1")
    connect4_book.reset()
    yield
    monkeypatch.delenv("PLYGROUND_NO_BOOK")
    connect4_book.reset()


@pytest.fixture
def real_book(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The connect-four opening book as a player has it, loaded afresh for one test; the
    test is skipped (saying why) where the book's data cannot be read."""
    from plyground.games.connect4 import book as connect4_book

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
    from plyground.games.base import PURE_PYTHON_VARIABLE
    from plyground.games.connect4 import solver as connect4_solver

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


@pytest.fixture(autouse=True)
def games_from_files_forgotten() -> Iterator[None]:
    """A game a test loads from a file is unregistered after it, so tests that count or list
    the registered games see the built-in ones (and their own)."""
    from plyground import games

    before = set(games.GAMES)
    yield
    for name in set(games.GAMES) - before:
        if games.is_from_file(name):
            del games.GAMES[name]


@pytest.fixture(autouse=True)
def safe_path_left_as_it_was() -> Iterator[None]:
    """The launcher sets PYTHONSAFEPATH for the processes the app starts; a test that runs the
    app in this process must not leave it set for the next test's subprocesses (`python -m
    pytest` in an unpacked sdist, `python -m plyground` from a game's folder), which a user's
    terminal would start without it."""
    restore_safe_path()
    yield
    restore_safe_path()


SAFE_PATH_AT_START = os.environ.get("PYTHONSAFEPATH")
"""As the terminal that started pytest had it, before any test module ran the app (a module
that collects `--help` examples runs it while being collected)."""


def restore_safe_path() -> None:
    if SAFE_PATH_AT_START is None:
        os.environ.pop("PYTHONSAFEPATH", None)
    else:
        os.environ["PYTHONSAFEPATH"] = SAFE_PATH_AT_START
