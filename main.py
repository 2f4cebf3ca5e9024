"""Plyground in a checkout: `python main.py` opens the window, `python main.py CMD ...` runs a
terminal command (the installed `plyground` command does the same)."""

from __future__ import annotations

import sys

from plyground.launcher import main

__all__ = ["main"]

if __name__ == "__main__":
    sys.exit(main())
