"""Plyground in a checkout: `python main.py` opens the window, `python main.py CMD ...` runs a
terminal command (the installed `plyground` command does the same)."""

from __future__ import annotations

import sys
from collections.abc import Sequence

NOT_INSTALLED = (
    "plyground is not installed for this Python ({python}). Run it from its virtual "
    "environment (.venv/bin/python main.py; Windows: .venv\\Scripts\\python main.py), "
    "or install it first; see README.md, Set-up."
)

try:
    from plyground.launcher import main
except ModuleNotFoundError as error:
    if (error.name or "").split(".")[0] != "plyground":
        raise

    def main(argv: Sequence[str] | None = None) -> int:
        """Say in one line that Plyground is not installed here; exit status 2."""
        print(NOT_INSTALLED.format(python=sys.executable), file=sys.stderr)
        return 2


__all__ = ["main"]

if __name__ == "__main__":
    sys.exit(main())
