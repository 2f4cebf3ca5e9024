"""Plyground's entry point: no arguments open the window; otherwise the terminal commands (cli).

The installed `plyground` command, `python -m plyground` and a checkout's `python main.py`
all call `main`.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    """Open the window, or run a terminal command; returns the exit status."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments:
        from plyground import cli

        return cli.run(arguments)
    from plyground.gui import app  # pygame is imported only for the window

    status = app.run()
    return status if isinstance(status, int) else 0
