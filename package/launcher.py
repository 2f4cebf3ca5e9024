"""Plyground's entry point: no arguments open the window; otherwise the terminal commands (cli).

The installed `plyground` command, `python -m plyground` and a checkout's `python main.py`
all call `main`.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

NOT_INSTALLED = (
    "plyground: the package {name!r} is not installed for this Python ({python}). Run Plyground "
    "from its virtual environment: .venv/bin/plyground (Windows: .venv\\Scripts\\plyground), "
    "or activate it first; see README.md, Set-up."
)


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
    if arguments:
        from plyground import cli

        return cli.run(arguments)
    from plyground.gui import app  # pygame is imported only for the window

    status = app.run()
    return status if isinstance(status, int) else 0
