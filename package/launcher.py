"""Plyground's entry point: no arguments open the window; otherwise the terminal commands (cli).

The installed `plyground` command, `python -m plyground` and a checkout's `python main.py`
all call `main`; `plyground-window` (a GUI script: no console on Windows) calls `window_main`.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import TextIO

NOT_INSTALLED = (
    "plyground: the package {name!r} is not installed for this Python ({python}). Run Plyground "
    "from its virtual environment: .venv/bin/plyground (Windows: .venv\\Scripts\\plyground), "
    "or activate it first; see README.md, Set-up."
)
NO_DISPLAY = (
    "plyground: no display to open the window on (neither DISPLAY nor WAYLAND_DISPLAY is set: "
    "an SSH session, or WSL without WSLg?); the terminal commands work here: plyground --help"
)
DISPLAY_VARIABLES = ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")
"""Any of these set means a window can open (SDL_VIDEODRIVER: the caller chose a driver,
e.g. `dummy` for headless tests and screenshots)."""


def main(argv: Sequence[str] | None = None) -> int:
    """Open the window, or run a terminal command; returns the exit status (2, with one line,
    when a package it needs is missing: run outside its virtual environment)."""
    try:
        return run(argv)
    except ModuleNotFoundError as error:
        name = (error.name or "").split(".")[0]
        if not name or name == "plyground":
            raise  # one of ours: a real bug, keep the traceback
        print(NOT_INSTALLED.format(name=name, python=sys.executable), file=sys.stderr)
        return 2


def run(argv: Sequence[str] | None = None) -> int:
    """Open the window, or run a terminal command; returns the exit status."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    # Every Python process started from here (a match's pool, the window's workers, the
    # resource tracker: `python -c ...`) puts no working folder first on its path, so a
    # file named like a standard module where Plyground was started (inspect.py) never runs.
    os.environ.setdefault("PYTHONSAFEPATH", "1")
    if arguments:
        from plyground import cli

        return cli.run(arguments)
    if has_no_display():
        print(NO_DISPLAY, file=sys.stderr)
        return 2
    from plyground.gui import app  # pygame is imported only for the window

    status = app.run()
    return status if isinstance(status, int) else 0


def has_no_display(environ: dict[str, str] | None = None, platform: str | None = None) -> bool:
    """Whether this is a Linux or BSD system with no display (SSH, WSL without WSLg): SDL would
    fall back to an invisible offscreen window there. Windows and macOS always have one."""
    environ = dict(os.environ) if environ is None else environ
    platform = sys.platform if platform is None else platform
    if platform.startswith(("win", "cygwin", "darwin", "emscripten")):
        return False
    return not any(environ.get(name) for name in DISPLAY_VARIABLES)


def window_main() -> int:
    """The window and nothing else: the `plyground-window` GUI script. Windows starts it with
    no console (sys.stderr is None), so a message it prints goes to a log file instead."""
    if sys.stderr is None or sys.stdout is None:
        log = _log_file()
        sys.stdout = sys.stdout or log
        sys.stderr = sys.stderr or log
    return main([])


def _log_file() -> TextIO:
    """plyground-window.log in the user's log folder (opened for appending)."""
    from pathlib import Path

    from platformdirs import user_log_dir

    folder = Path(user_log_dir("plyground", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return (folder / "plyground-window.log").open("a", encoding="utf-8")
